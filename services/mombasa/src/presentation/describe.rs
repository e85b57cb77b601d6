//! Every move and chance outcome in plain English, as the position before it explains it:
//! what a card is, what a purchase costs, where a marker goes. The move list of a replay
//! shows these words beside the notation.
//!
//! A secret move (a start tile kept, a card planned, `ready`) is only described to a viewer
//! who may see it; [`describe_hidden_move`] says what happened without what was chosen.

use crate::data::{BonusKind, CardKind};
use crate::goods::{price, TILE_BIT};
use crate::ids::{BookSpace, CardId, Company, DisplayPos, Unit, NONE, SLOTS};
use crate::moves::{BonusArg, Chance, Move};
use crate::notation::{book_code, card_code, tile_code};
use crate::state::{Stage, State};
use rules_core::Seat;

/// A company's name.
pub fn company_name(co: Company) -> &'static str {
    match co {
        Company::Mombasa => "Mombasa",
        Company::CapeTown => "Cape Town",
        Company::SaintLouis => "Saint-Louis",
        Company::Cairo => "Cairo",
    }
}

/// `n` and the noun, plural unless `n` is 1 ("1 pound", "3 pounds").
fn count(n: impl Into<u32>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Items joined as English lists them ("a", "a and b", "a, b and c").
fn and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A card by its name and what it does: `A3 (2 cotton)`, `C1 (bookkeeper, 2 points)`.
pub fn card_words(s: &State, id: CardId) -> String {
    let name = card_code(id.as_ref());
    let Some(def) = s.card_def(id) else {
        return name;
    };
    let what = match def.kind {
        CardKind::Units(Unit::Expansion) => count(def.value, "expansion point", "expansion points"),
        CardKind::Units(u) => format!("{} {}", def.value, u.code()),
        CardKind::Bookkeeper => format!("bookkeeper, {}", count(def.value, "point", "points")),
        CardKind::Diamond {
            pounds,
            mines,
            per_mines,
        } => {
            let mut w = format!(
                "diamond trader, {}",
                count(def.value, "diamond step", "diamond steps")
            );
            if pounds > 0 {
                w.push_str(&format!(", {}", count(pounds, "pound", "pounds")));
            }
            if let (Some(co), 1..) = (mines, per_mines) {
                w.push_str(&format!(
                    ", 1 more step per {per_mines} mines in {}'s regions",
                    company_name(co)
                ));
            }
            w
        }
    };
    format!("{name} ({what})")
}

/// What a reward pays, in words ("2 pounds and 1 diamond step"); empty for nothing.
fn reward_words(r: crate::data::Reward) -> String {
    let mut parts = Vec::new();
    if r.pounds > 0 {
        parts.push(count(r.pounds, "pound", "pounds"));
    }
    if r.diamonds > 0 {
        parts.push(count(r.diamonds, "diamond step", "diamond steps"));
    }
    if r.track > 0 {
        parts.push(count(r.track, "track step", "track steps"));
    }
    if r.bookkeeping > 0 {
        parts.push(count(
            r.bookkeeping,
            "bookkeeping point",
            "bookkeeping points",
        ));
    }
    if r.bonus_marker > 0 {
        parts.push(count(r.bonus_marker, "bonus marker", "bonus markers"));
    }
    and(&parts)
}

/// The card in `seat`'s slot `slot` (0-based), in words.
fn slot_card(s: &State, seat: u8, slot: u8) -> String {
    s.player(seat)
        .and_then(|p| p.slots.get(usize::from(slot)).copied())
        .filter(|&id| id != NONE)
        .map_or_else(|| "no card".into(), |id| card_words(s, CardId(id)))
}

/// A secret move as a viewer who may not see it reads it.
pub fn describe_hidden_move(seat: Seat, m: &Move) -> String {
    match m {
        Move::Keep(_) => format!(
            "Seat {} keeps a start tile (hidden until the reveal)",
            seat.0
        ),
        Move::Plan { .. } => format!("Seat {} plans a card (hidden until the reveal)", seat.0),
        Move::Ready => format!("Seat {} is done planning", seat.0),
        _ => format!("Seat {} moves (hidden)", seat.0),
    }
}

/// `seat`'s move `m`, played in position `s`.
pub fn describe_move(s: &State, seat: Seat, m: &Move) -> String {
    let who = format!("Seat {}", seat.0);
    let me = seat.0;
    let p = s.player(me);
    match *m {
        Move::Keep(t) => format!("{who} keeps start tile {}", tile_code(t.0)),
        Move::Plan { card, slot } => match card.resolve(me) {
            Some(id) => format!(
                "{who} plans the card {} in slot {}",
                card_words(s, id),
                slot + 1
            ),
            None => format!("{who} plans a card in slot {}", slot + 1),
        },
        Move::Ready => format!("{who} is done planning"),
        Move::Goods { good, mask } => {
            let units = s.goods_units(me, good, mask).unwrap_or(0);
            let mut items: Vec<String> = (0..SLOTS as u8)
                .filter(|k| mask & (1 << k) != 0)
                .map(|k| format!("{} in slot {}", slot_card(s, me, k), k + 1))
                .collect();
            if mask & TILE_BIT != 0 {
                items.push(format!("the {} bonus tile", good.code()));
            }
            format!(
                "{who} uses {} for {}",
                and(&items),
                count(
                    units,
                    &format!("{} unit", good.code()),
                    &format!("{} units", good.code())
                )
            )
        }
        Move::Buy(pos) => {
            let card = s.display.get(usize::from(pos.0)).copied().unwrap_or(NONE);
            let cost = price(s, pos).unwrap_or(0);
            format!(
                "{who} buys {} from display space {} for {}",
                if card == NONE {
                    "nothing".into()
                } else {
                    card_words(s, CardId(card))
                },
                pos.code(),
                count(cost, "unit", "units")
            )
        }
        Move::Step(co) => step_words(s, me, co, &who),
        Move::Done => done_words(s, me, &who),
        Move::Expand(co) => format!(
            "{who} expands for {} with {}",
            company_name(co),
            count(
                s.expansion_points(me),
                "expansion point",
                "expansion points"
            )
        ),
        Move::Enter {
            region,
            column,
            ret,
        } => enter_words(s, &who, usize::from(region.0), column, ret),
        Move::Clerk(slot) => format!("{who} uses {} in slot {}", slot_card(s, me, slot), slot + 1),
        Move::Flip(pos) => {
            let book = p
                .and_then(|p| p.books.get(usize::from(pos).wrapping_sub(1)))
                .map_or_else(|| "?".into(), |&b| book_code(b));
            format!("{who} pays 2 pounds to turn book {book} (bookkeeping space {pos}) face down")
        }
        Move::Ink => {
            let (book, space, down) = p.map_or(("?".into(), 0, false), |p| {
                let at = usize::from(p.ink);
                (
                    p.books
                        .get(at)
                        .map_or_else(|| "?".into(), |&b| book_code(b)),
                    at + 1,
                    p.flipped & (1 << (at & 15)) != 0,
                )
            });
            let face = if down { ", face down" } else { "" };
            format!("{who} moves the ink marker onto book {book} (bookkeeping space {space}{face})")
        }
        Move::Book(space) => {
            let c = s.data();
            let i = usize::from(space.0);
            let book = s.book_display.get(i).copied().unwrap_or(NONE);
            let cost = c
                .books
                .get(usize::from(book))
                .and_then(|b| c.book_cost.get(usize::from(b.letter)))
                .copied()
                .unwrap_or(0);
            let coins = s.book_coins.get(i).copied().unwrap_or(0);
            let with = if coins > 0 {
                format!(" and the {} on it", count(coins, "pound", "pounds"))
            } else {
                String::new()
            };
            format!(
                "{who} takes book {} from space {} for {}{with}",
                book_code(book),
                space.code(),
                count(cost, "bookkeeping point", "bookkeeping points")
            )
        }
        Move::Pound => format!("{who} takes 1 pound for a bookkeeping point"),
        Move::Diamond(slot) => {
            let id = p.and_then(|p| p.slots.get(usize::from(slot)).copied());
            let (steps, pounds) = id
                .filter(|&id| id != NONE)
                .map_or((0, 0), |id| s.trader_effect(CardId(id)));
            let mut gain = vec![count(steps, "diamond step", "diamond steps")];
            if pounds > 0 {
                gain.push(count(pounds, "pound", "pounds"));
            }
            format!(
                "{who} uses {} in slot {}: {}",
                slot_card(s, me, slot),
                slot + 1,
                and(&gain)
            )
        }
        Move::Bonus { space, arg } => bonus_words(s, me, &who, space, arg),
        Move::End(pile) => {
            let cards = p.and_then(|p| p.piles.get(usize::from(pile))).copied();
            let names: Vec<String> = cards
                .map(|m| {
                    crate::ids::bits(m)
                        .map(|id| card_code(CardId(id).as_ref()))
                        .collect()
                })
                .unwrap_or_default();
            if names.is_empty() {
                format!("{who} ends their action phase, with no rest pile to take")
            } else {
                format!(
                    "{who} ends their action phase, taking rest pile {} ({}) into hand",
                    pile + 1,
                    names.join(", ")
                )
            }
        }
        Move::Cancel => format!("{who} takes back the unfinished action"),
    }
}

fn step_words(s: &State, me: u8, co: Company, who: &str) -> String {
    let c = s.data();
    let side = c.sides.get(usize::from(s.sides[co.index()]));
    let at = s.player(me).map_or(0, |p| p.track[co.index()]);
    let name = company_name(co);
    match side {
        Some(side) if at + 1 < side.length => {
            let to = at + 1;
            let pays = side
                .rewards
                .get(usize::from(to))
                .map(|&r| reward_words(s.paid(r)))
                .unwrap_or_default();
            let pays = if pays.is_empty() {
                String::new()
            } else {
                format!(", gaining {pays}")
            };
            format!("{who} moves 1 step on the {name} track, to space {to}{pays}")
        }
        _ => format!("{who} steps on the {name} track, already at its end: the step is lost"),
    }
}

fn done_words(s: &State, me: u8, who: &str) -> String {
    match s.stage {
        Stage::Goods { units, .. } => {
            format!(
                "{who} forfeits {} left",
                count(units, "goods unit", "goods units")
            )
        }
        Stage::Steps { left } => {
            format!(
                "{who} forfeits {} left",
                count(left, "track step", "track steps")
            )
        }
        Stage::Expand {
            company,
            points,
            entered,
        } => {
            let after = match entered.count_ones() {
                0 => "without entering a region".to_string(),
                n => format!("after entering {}", count(n, "region", "regions")),
            };
            format!(
                "{who} ends the expansion for {} ({} unused) {after}",
                company_name(company),
                count(points, "point", "points")
            )
        }
        Stage::Clerk { moved, .. } if moved > 0 => {
            let at = s.player(me).map_or(0, |p| p.ink);
            format!("{who} stops the ink marker on bookkeeping space {at}")
        }
        Stage::Clerk { .. } => format!("{who} leaves the ink marker where it is"),
        Stage::Top | Stage::Points { .. } => format!("{who} is done"),
    }
}

fn enter_words(s: &State, who: &str, r: usize, column: u8, ret: Option<u8>) -> String {
    let Stage::Expand { company, .. } = s.stage else {
        return format!("{who} enters region {}", r + 1);
    };
    let c = s.data();
    let name = c.regions.get(r).map_or("?", |x| x.name.as_str());
    let cost = s.entry_cost(company, r).unwrap_or(0);
    let mut w = format!(
        "{who} enters region {} ({name}) for {} with the post from base column {}, for {}",
        r + 1,
        company_name(company),
        column + 1,
        count(cost, "point", "points")
    );
    if let Some(&d) = s.map.get(r).and_then(|&h| Company::ALL.get(usize::from(h))) {
        match ret {
            Some(k) => w.push_str(&format!(
                ", displacing {}'s post, which returns to its base column {}",
                company_name(d),
                k + 1
            )),
            None => w.push_str(&format!(
                ", displacing {}'s post, which leaves the game",
                company_name(d)
            )),
        }
    }
    w
}

fn bonus_words(s: &State, me: u8, who: &str, space: u8, arg: BonusArg) -> String {
    let c = s.data();
    let Some(def) = c.bonus.get(usize::from(space)) else {
        return format!("{who} places a bonus marker");
    };
    match (def.kind, arg) {
        (BonusKind::FirstPlayer { bookkeeping }, _) => format!(
            "{who} places a bonus marker on the first-player space: first player next round, \
             and {}",
            count(bookkeeping, "bookkeeping point", "bookkeeping points")
        ),
        (BonusKind::BuyCard { fee }, BonusArg::Display(pos)) => {
            let card = s.display.get(usize::from(pos.0)).copied().unwrap_or(NONE);
            let cost = price(s, pos).unwrap_or(0);
            format!(
                "{who} places a bonus marker on the buy space and buys {} from display space {} \
                 for {} ({fee} fee and {cost} price)",
                if card == NONE {
                    "nothing".into()
                } else {
                    card_words(s, CardId(card))
                },
                pos.code(),
                count(u16::from(fee) + u16::from(cost), "pound", "pounds")
            )
        }
        (BonusKind::SellCard { per_red }, BonusArg::Card(r)) => {
            let id = r.resolve(me);
            let red = id.and_then(|id| s.card_def(id)).map_or(0, |k| k.cost);
            format!(
                "{who} places a bonus marker on the sell space and sells {} for {}",
                id.map_or_else(|| "?".into(), |id| card_words(s, id)),
                count(u16::from(red) * u16::from(per_red), "pound", "pounds")
            )
        }
        (BonusKind::Majority { of, steps, tile: t }, _) => {
            let tile = c
                .bonus_tiles
                .get(usize::from(t))
                .map_or("?", |t| t.code.as_str());
            let steps = count(steps, "track step", "track steps");
            if s.may_win_tile(me, t) {
                format!(
                    "{who} places a bonus marker on the {} majority space: {steps} and the \
                     {tile} bonus tile for next round",
                    of.code(),
                )
            } else {
                // Rules 3 (ruling M16): another seat holds the tile.
                let holder = [&s.tile_at, &s.tile_won]
                    .iter()
                    .filter_map(|a| a.get(usize::from(t)).copied())
                    .find(|&h| h != NONE && h != me)
                    .unwrap_or(NONE);
                format!(
                    "{who} places a bonus marker on the {} majority space: {steps} (the {tile} \
                     bonus tile, held by seat {holder}, is not won)",
                    of.code(),
                )
            }
        }
        _ => format!("{who} places a bonus marker on the {} space", def.code),
    }
}

/// Where the books of a deal go: the empty book spaces in order, skipping those whose letter
/// has run out (as the rules place them).
fn book_places(s: &State, books: &[u8]) -> Vec<String> {
    let c = s.data();
    let mut supply = s.book_supply;
    let mut it = books.iter();
    let mut out = Vec::new();
    for (i, &b) in s.book_display.iter().enumerate() {
        if b != NONE {
            continue;
        }
        let letter = c.book_letter_mask[usize::from(c.book_space_letter[i])] & supply;
        if letter != 0 {
            if let Some(&k) = it.next() {
                supply &= !(1u128 << (k & 127));
                out.push(format!("{} {}", BookSpace(i as u8).code(), book_code(k)));
            }
        }
    }
    out
}

/// The chance outcome `ch` dealt in position `s`; `visible`: whether the viewer may know it.
pub fn describe_chance(s: &State, ch: &Chance, visible: bool) -> String {
    match ch {
        Chance::StartTiles { seat, .. } if !visible => {
            format!("Seat {seat} is dealt two start tiles (hidden)")
        }
        _ if !visible => "The dealer deals (hidden)".into(),
        Chance::Setup {
            display,
            books,
            sides,
            first,
        } => {
            let cards: Vec<String> = DisplayPos::FILL_ORDER
                .iter()
                .zip(display)
                .map(|(&pos, &k)| {
                    format!(
                        "{} {}",
                        DisplayPos(pos).code(),
                        card_code(CardId(k).as_ref())
                    )
                })
                .collect();
            let mut w = format!(
                "The setup: the display is dealt ({}) and the book display ({})",
                cards.join(", "),
                book_places(s, books).join(", ")
            );
            if let Some(sd) = sides {
                let c = s.data();
                let named: Vec<String> = Company::ALL
                    .iter()
                    .zip(sd)
                    .map(|(&co, &x)| {
                        let side = c.sides.get(usize::from(x)).map_or("?", |k| k.name.as_str());
                        format!("{} {side}", company_name(co))
                    })
                    .collect();
                w.push_str(&format!("; the track sides are {}", and(&named)));
            }
            if let Some(f) = first {
                w.push_str(&format!("; seat {f} is drawn to start"));
            }
            w
        }
        Chance::StartTiles { seat, tiles } => format!(
            "Seat {seat} is dealt start tiles {} and {}",
            tile_code(tiles[0]),
            tile_code(tiles[1])
        ),
        Chance::Starts(t) => {
            let kept: Vec<String> = t
                .iter()
                .enumerate()
                .map(|(seat, &x)| format!("seat {seat} {}", tile_code(x)))
                .collect();
            format!("The start tiles kept are revealed: {}", kept.join(", "))
        }
        Chance::Reveal(plans) => {
            let each: Vec<String> = plans
                .iter()
                .enumerate()
                .map(|(seat, plan)| {
                    let items: Vec<String> = plan
                        .iter()
                        .enumerate()
                        .filter_map(|(k, c)| {
                            c.map(|c| format!("{} in slot {}", card_code(c), k + 1))
                        })
                        .collect();
                    if items.is_empty() {
                        format!("seat {seat} nothing")
                    } else {
                        format!("seat {seat} {}", and(&items))
                    }
                })
                .collect();
            format!("The plans are revealed: {}", each.join("; "))
        }
        Chance::Draw { cards, books } => {
            let spaces = DisplayPos::FILL_ORDER
                .iter()
                .filter(|&&p| s.display.get(usize::from(p)) == Some(&NONE));
            let cards: Vec<String> = spaces
                .zip(cards)
                .map(|(&pos, &k)| {
                    format!(
                        "{} {}",
                        DisplayPos(pos).code(),
                        card_code(CardId(k).as_ref())
                    )
                })
                .collect();
            let books = book_places(s, books);
            let list = |v: &[String]| {
                if v.is_empty() {
                    "nothing".to_string()
                } else {
                    v.join(", ")
                }
            };
            format!(
                "The preparation refills the display ({}) and the book display ({})",
                list(&cards),
                list(&books)
            )
        }
        Chance::Book { space, book } => format!(
            "Book {} replaces the book taken from space {}",
            book_code(*book),
            space.code()
        ),
    }
}
