//! The text form of moves and chance outcomes (documented in `schema/notation/mombasa.md`).
//! Card, book, tile, region and bonus-space names are the data files' ids, so a log reads
//! like the components.

use crate::data::components;
use crate::ids::{BookSpace, CardRef, Company, DisplayPos, Region, StartTile, Unit};
use crate::ids::{DECK_CARDS, OWN_CARDS, SLOTS};
use crate::moves::{BonusArg, Chance, Move};
use arrayvec::ArrayVec;
use rules_core::notation::{cut, pieces, split_words, word_key, words, CodeIndex, NameIndex};
use rules_core::NotationError;
use std::fmt::Write;
use std::sync::OnceLock;

/// The components' names, indexed once. Names are the same in every data version (a
/// correction may not rename, see `data/versions.rs`), so the current data's serve all.
/// Cards, books and tiles are named by a letter and a number (`B16`): their table is indexed
/// by the code itself; a card is read in most entries of a replay.
pub(crate) struct Names {
    pub(crate) cards: CodeIndex,
    pub(crate) books: CodeIndex,
    tiles: CodeIndex,
    sides: NameIndex,
    pub(crate) bonus: NameIndex,
}

#[inline(always)]
pub(crate) fn names() -> &'static Names {
    static NAMES: OnceLock<Names> = OnceLock::new();
    // Built once, by a function apart: the building inlined here made every reader of a
    // name save registers for it (a third of reading a card).
    match NAMES.get() {
        Some(n) => n,
        None => NAMES.get_or_init(index_names),
    }
}

#[cold]
#[inline(never)]
fn index_names() -> Names {
    let c = components();
    Names {
        // Own cards (44..54) are named by seat 0's block: the codes are the same for
        // every seat.
        cards: CodeIndex::new(
            c.cards
                .iter()
                .take(usize::from(DECK_CARDS + OWN_CARDS))
                .map(|k| k.code.as_str()),
        ),
        books: CodeIndex::new(c.books.iter().map(|k| k.code.as_str())),
        tiles: CodeIndex::new(c.start_tiles.iter().map(|k| k.code.as_str())),
        sides: NameIndex::new(c.sides.iter().map(|k| k.name.as_str())),
        bonus: NameIndex::new(c.bonus.iter().map(|k| k.code.as_str())),
    }
}

pub fn card_code(r: CardRef) -> String {
    let c = components();
    // Own cards (44..54) are named by seat 0's block: the codes are the same for every seat.
    c.cards
        .get(usize::from(r.0))
        .map_or_else(|| "?".into(), |k| k.code.clone())
}

#[inline]
pub fn parse_card(s: &str) -> Option<CardRef> {
    names().cards.get(s).map(CardRef)
}

pub fn book_code(b: u8) -> String {
    components()
        .books
        .get(usize::from(b))
        .map_or_else(|| "?".into(), |k| k.code.clone())
}

#[inline]
pub fn parse_book(s: &str) -> Option<u8> {
    names().books.get(s)
}

pub fn tile_code(t: u8) -> String {
    components()
        .start_tiles
        .get(usize::from(t))
        .map_or_else(|| "?".into(), |k| k.code.clone())
}

#[inline]
pub fn parse_tile(s: &str) -> Option<u8> {
    names().tiles.get(s)
}

fn side_code(x: u8) -> String {
    components()
        .sides
        .get(usize::from(x))
        .map_or_else(|| "?".into(), |k| k.name.clone())
}

pub(crate) fn parse_side(s: &str) -> Option<u8> {
    names().sides.get(s)
}

/// A 1-based number in `1..=max`, as a 0-based index.
pub(crate) fn index1(s: &str, max: usize) -> Option<u8> {
    index1_bytes(s.as_bytes(), max)
}

/// [`index1`] of a number's bytes.
#[inline]
pub(crate) fn index1_bytes(s: &[u8], max: usize) -> Option<u8> {
    let n = match *s {
        [d] if d.is_ascii_digit() => usize::from(d - b'0'),
        [t, d] if t.is_ascii_digit() && d.is_ascii_digit() => {
            usize::from(t - b'0') * 10 + usize::from(d - b'0')
        }
        _ => return None,
    };
    (1..=max).contains(&n).then(|| (n - 1) as u8)
}

pub fn format_move(m: &Move) -> String {
    let c = components();
    match *m {
        Move::Keep(t) => format!("keep {}", tile_code(t.0)),
        Move::Plan { card, slot } => format!("plan {} {}", card_code(card), u16::from(slot) + 1),
        Move::Ready => "ready".into(),
        Move::Goods { good, mask } => {
            let mut items: Vec<String> = (0..SLOTS)
                .filter(|s| mask & (1 << s) != 0)
                .map(|s| (s + 1).to_string())
                .collect();
            if mask & crate::goods::TILE_BIT != 0 {
                items.push("t".into());
            }
            format!("goods {} {}", good.code(), items.join(","))
        }
        Move::Buy(pos) => format!("buy {}", pos.code()),
        Move::Step(co) => format!("step {}", co.code()),
        Move::Done => "done".into(),
        Move::Expand(co) => format!("expand {}", co.code()),
        Move::Enter {
            region,
            column,
            ret,
        } => {
            let mut s = format!(
                "enter {} {}",
                u16::from(region.0) + 1,
                u16::from(column) + 1
            );
            if let Some(k) = ret {
                let _ = write!(s, " {}", u16::from(k) + 1);
            }
            s
        }
        Move::Clerk(slot) => format!("clerk {}", u16::from(slot) + 1),
        Move::Flip(pos) => format!("flip {pos}"),
        Move::Ink => "ink".into(),
        Move::Book(space) => format!("book {}", space.code()),
        Move::Pound => "pound".into(),
        Move::Diamond(slot) => format!("diamond {}", u16::from(slot) + 1),
        Move::Bonus { space, arg } => {
            let code = c
                .bonus
                .get(usize::from(space))
                .map_or("?", |b| b.code.as_str());
            match arg {
                BonusArg::None => format!("bonus {code}"),
                BonusArg::Display(pos) => format!("bonus {code} {}", pos.code()),
                BonusArg::Card(r) => format!("bonus {code} {}", card_code(r)),
            }
        }
        Move::End(pile) => format!("end {}", u16::from(pile) + 1),
        Move::Cancel => "cancel".into(),
    }
}

/// The words that start a move, as [`tag`]s: the verb picks its arm by one integer
/// comparison.
mod verb {
    use rules_core::notation::tag;
    pub const KEEP: u128 = tag("keep");
    pub const PLAN: u128 = tag("plan");
    pub const READY: u128 = tag("ready");
    pub const GOODS: u128 = tag("goods");
    pub const BUY: u128 = tag("buy");
    pub const STEP: u128 = tag("step");
    pub const DONE: u128 = tag("done");
    pub const EXPAND: u128 = tag("expand");
    pub const ENTER: u128 = tag("enter");
    pub const CLERK: u128 = tag("clerk");
    pub const FLIP: u128 = tag("flip");
    pub const INK: u128 = tag("ink");
    pub const BOOK: u128 = tag("book");
    pub const POUND: u128 = tag("pound");
    pub const DIAMOND: u128 = tag("diamond");
    pub const BONUS: u128 = tag("bonus");
    pub const END: u128 = tag("end");
    pub const CANCEL: u128 = tag("cancel");
}

pub fn parse_move(text: &str) -> Result<Move, NotationError> {
    let bad = |why: &str| NotationError::new(text, why);
    let mut buf = [""; 4];
    let w = split_words(text, &mut buf)
        .map(|n| &buf[..n])
        .filter(|w| w.iter().all(|x| !x.is_empty()))
        .ok_or_else(|| bad("words separated by single spaces"))?;
    let arg = |i: usize| w.get(i).copied().ok_or_else(|| bad("missing argument"));
    let arity = |n: usize| {
        if w.len() == n {
            Ok(())
        } else {
            Err(bad("wrong number of arguments"))
        }
    };
    let slot = |s: &str| index1(s, SLOTS).ok_or_else(|| bad("a slot is 1..5"));
    let company = |s: &str| Company::from_code(s).ok_or_else(|| bad("companies: mom cpt stl cai"));
    let pos = |s: &str| DisplayPos::parse(s).ok_or_else(|| bad("display spaces: L1..R4"));
    let m = match word_key(w.first().copied().unwrap_or("")) {
        verb::KEEP => {
            arity(2)?;
            Move::Keep(StartTile(
                parse_tile(arg(1)?).ok_or_else(|| bad("unknown start tile"))?,
            ))
        }
        verb::PLAN => {
            arity(3)?;
            Move::Plan {
                card: parse_card(arg(1)?).ok_or_else(|| bad("unknown card"))?,
                slot: slot(arg(2)?)?,
            }
        }
        verb::READY => {
            arity(1)?;
            Move::Ready
        }
        verb::GOODS => {
            arity(3)?;
            let good = Unit::from_code(arg(1)?)
                .filter(|u| u.is_good())
                .ok_or_else(|| bad("goods: coffee banana cotton"))?;
            let mut mask = 0u8;
            for item in pieces(arg(2)?, b',') {
                let bit = if item == "t" {
                    crate::goods::TILE_BIT
                } else {
                    1 << slot(item)?
                };
                if mask & bit != 0 {
                    return Err(bad("an item named twice"));
                }
                mask |= bit;
            }
            Move::Goods { good, mask }
        }
        verb::BUY => {
            arity(2)?;
            Move::Buy(pos(arg(1)?)?)
        }
        verb::STEP => {
            arity(2)?;
            Move::Step(company(arg(1)?)?)
        }
        verb::DONE => {
            arity(1)?;
            Move::Done
        }
        verb::EXPAND => {
            arity(2)?;
            Move::Expand(company(arg(1)?)?)
        }
        verb::ENTER => {
            if w.len() != 3 && w.len() != 4 {
                return Err(bad("enter REGION COLUMN [RETURN-COLUMN]"));
            }
            let region =
                index1(arg(1)?, crate::ids::REGIONS).ok_or_else(|| bad("regions 1..24"))?;
            let col = |s: &str| index1(s, crate::ids::COLUMNS).ok_or_else(|| bad("columns 1..3"));
            Move::Enter {
                region: Region(region),
                column: col(arg(2)?)?,
                ret: w.get(3).map(|s| col(s)).transpose()?,
            }
        }
        verb::CLERK => {
            arity(2)?;
            Move::Clerk(slot(arg(1)?)?)
        }
        verb::FLIP => {
            arity(2)?;
            Move::Flip(index1(arg(1)?, 16).ok_or_else(|| bad("track spaces 1..16"))? + 1)
        }
        verb::INK => {
            arity(1)?;
            Move::Ink
        }
        verb::BOOK => {
            arity(2)?;
            Move::Book(BookSpace::parse(arg(1)?).ok_or_else(|| bad("book spaces: 2a..7b"))?)
        }
        verb::POUND => {
            arity(1)?;
            Move::Pound
        }
        verb::DIAMOND => {
            arity(2)?;
            Move::Diamond(slot(arg(1)?)?)
        }
        verb::BONUS => {
            let space = names()
                .bonus
                .get(arg(1)?)
                .ok_or_else(|| bad("unknown bonus space"))?;
            let a = match w.get(2) {
                None => BonusArg::None,
                Some(s) => match DisplayPos::parse(s) {
                    Some(p) => BonusArg::Display(p),
                    None => BonusArg::Card(parse_card(s).ok_or_else(|| bad("unknown card"))?),
                },
            };
            if w.len() > 3 {
                return Err(bad("wrong number of arguments"));
            }
            Move::Bonus { space, arg: a }
        }
        verb::END => {
            arity(2)?;
            Move::End(slot(arg(1)?)?)
        }
        verb::CANCEL => {
            arity(1)?;
            Move::Cancel
        }
        _ => return Err(bad("unknown move")),
    };
    Ok(m)
}

fn list(items: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = items.collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(",")
    }
}

pub fn format_chance(ch: &Chance) -> String {
    match ch {
        Chance::Setup {
            display,
            books,
            sides,
            first,
        } => {
            let mut s = format!(
                "setup display={} books={}",
                list(display.iter().map(|&c| card_code(CardRef(c)))),
                list(books.iter().map(|&b| book_code(b)))
            );
            if let Some(sd) = sides {
                let _ = write!(s, " sides={}", list(sd.iter().map(|&x| side_code(x))));
            }
            if let Some(f) = first {
                let _ = write!(s, " first={f}");
            }
            s
        }
        Chance::Book { space, book } => format!("book {} {}", space.code(), book_code(*book)),
        Chance::StartTiles { seat, tiles } => format!(
            "tiles {seat} {},{}",
            tile_code(tiles[0]),
            tile_code(tiles[1])
        ),
        Chance::Starts(t) => format!("starts {}", list(t.iter().map(|&x| tile_code(x)))),
        Chance::Reveal(plans) => {
            let mut s = "reveal".to_string();
            for (seat, plan) in plans.iter().enumerate() {
                let items = plan
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| c.map(|c| format!("{}@{}", card_code(c), i + 1)));
                let _ = write!(s, " {seat}:{}", list(items));
            }
            s
        }
        Chance::Draw { cards, books } => format!(
            "draw cards={} books={}",
            list(cards.iter().map(|&c| card_code(CardRef(c)))),
            list(books.iter().map(|&b| book_code(b)))
        ),
    }
}

pub(crate) fn parse_list<T, const N: usize>(
    s: &str,
    f: impl Fn(&str) -> Option<T>,
) -> Option<ArrayVec<T, N>> {
    rules_core::notation::list(s, b',', f)
}

#[inline]
pub(crate) fn deck_card(s: &str) -> Option<u8> {
    parse_card(s).filter(|r| r.0 < DECK_CARDS).map(|r| r.0)
}

pub fn parse_chance(text: &str) -> Result<Chance, NotationError> {
    let bad = |why: &str| NotationError::new(text, why);
    // No outcome has more than 5 words; 8 leaves room to name the kind in the error.
    let w = words::<8>(text).ok_or_else(|| bad("more words than any chance outcome has"))?;
    // An optional field's absence is no error: no error (and its two strings) is made for it.
    let optional = |i: usize, key: &str| -> Option<&str> {
        w.get(i)
            .and_then(|x| x.strip_prefix(key))
            .and_then(|x| x.strip_prefix('='))
    };
    let field = |i: usize, key: &str| optional(i, key).ok_or_else(|| bad("missing field"));
    match w.first().copied().unwrap_or("") {
        "setup" => {
            if !(3..=5).contains(&w.len()) {
                return Err(bad("setup display=.. books=.. [sides=..] [first=..]"));
            }
            let display = parse_list(field(1, "display")?, deck_card)
                .ok_or_else(|| bad("bad display cards"))?;
            let books =
                parse_list(field(2, "books")?, parse_book).ok_or_else(|| bad("bad books"))?;
            // The optional fields, in this order: `sides=`, then `first=`.
            let mut at = 3;
            let sides = match optional(at, "sides") {
                None => None,
                Some(x) => {
                    at += 1;
                    let v: ArrayVec<u8, 4> =
                        parse_list(x, parse_side).ok_or_else(|| bad("bad sides"))?;
                    Some(v.into_inner().map_err(|_| bad("one side per company"))?)
                }
            };
            let first = match optional(at, "first") {
                None => None,
                Some(x) => {
                    at += 1;
                    let f = x
                        .parse::<u8>()
                        .ok()
                        .filter(|&f| usize::from(f) < crate::ids::MAX_SEATS && x.len() == 1)
                        .ok_or_else(|| bad("first is a seat 0..3"))?;
                    Some(f)
                }
            };
            if at != w.len() {
                return Err(bad("setup display=.. books=.. [sides=..] [first=..]"));
            }
            Ok(Chance::Setup {
                display,
                books,
                sides,
                first,
            })
        }
        "book" => {
            if w.len() != 3 {
                return Err(bad("book SPACE BOOK"));
            }
            Ok(Chance::Book {
                space: BookSpace::parse(w[1]).ok_or_else(|| bad("book spaces: 2a..7b"))?,
                book: parse_book(w[2]).ok_or_else(|| bad("unknown book"))?,
            })
        }
        "tiles" => {
            if w.len() != 3 {
                return Err(bad("tiles SEAT T,T"));
            }
            let seat = w[1]
                .parse::<u8>()
                .ok()
                .filter(|&s| usize::from(s) < crate::ids::MAX_SEATS && w[1].len() == 1)
                .ok_or_else(|| bad("bad seat"))?;
            let t: ArrayVec<u8, 2> =
                parse_list(w[2], parse_tile).ok_or_else(|| bad("bad tiles"))?;
            let tiles = t.into_inner().map_err(|_| bad("two tiles"))?;
            Ok(Chance::StartTiles { seat, tiles })
        }
        "starts" => {
            if w.len() != 2 {
                return Err(bad("starts T,T,.."));
            }
            Ok(Chance::Starts(
                parse_list(w[1], parse_tile).ok_or_else(|| bad("bad tiles"))?,
            ))
        }
        "reveal" => {
            let mut plans = ArrayVec::new();
            if !(2..=5).contains(&w.len()) {
                return Err(bad("reveal SEAT:CARD@SLOT,..."));
            }
            for (i, part) in w.iter().skip(1).enumerate() {
                let (seat, items) = cut(part, b':').ok_or_else(|| bad("SEAT:.."))?;
                if seat.as_bytes() != [b'0' + i as u8] {
                    return Err(bad("seats in order from 0"));
                }
                let mut plan = [None; SLOTS];
                let v: ArrayVec<(CardRef, u8), SLOTS> = parse_list(items, |it| {
                    let (c, s) = cut(it, b'@')?;
                    Some((parse_card(c)?, index1(s, SLOTS)?))
                })
                .ok_or_else(|| bad("bad plan"))?;
                for (c, s) in v {
                    let slot = &mut plan[usize::from(s)];
                    if slot.is_some() {
                        return Err(bad("a slot named twice"));
                    }
                    *slot = Some(c);
                }
                plans.push(plan);
            }
            Ok(Chance::Reveal(plans))
        }
        "draw" => {
            if w.len() != 3 {
                return Err(bad("draw cards=.. books=.."));
            }
            Ok(Chance::Draw {
                cards: parse_list(field(1, "cards")?, deck_card).ok_or_else(|| bad("bad cards"))?,
                books: parse_list(field(2, "books")?, parse_book)
                    .ok_or_else(|| bad("bad books"))?,
            })
        }
        _ => Err(bad("unknown chance outcome")),
    }
}
