//! Every move and chance outcome in plain English, as the position before it explains it
//! ("Seat 2 picks up 4 meeples on c3: …", "the dealer refills the market with …"): the move
//! list of the replay viewer reads these, so they are written once, here.
//!
//! A description never says more than the viewer may know: no seat's gold total (only gold
//! that changes hands in public, such as a market's price or a sale), and a hidden draw says
//! what was drawn by whom without what (`visible` = false).

use crate::data::components;
use crate::ids::{Colour, Djinn, Res, Tile, TileType};
use crate::moves::{Chance, DjinnUse, Goods, Move, Pay, Redirect, Target};
use crate::state::{Draw, Hand, Phase, Stage, State, NOBODY};

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn tribe(c: Colour) -> &'static str {
    c.tribe()
}

/// "a vizier", "an elder", "3 builders".
fn meeples_of(c: Colour, n: u8) -> String {
    match (n, c) {
        (1, Colour::White | Colour::Red) => format!("an {}", tribe(c)),
        (1, _) => format!("a {}", tribe(c)),
        _ => format!("{n} {}s", tribe(c)),
    }
}

/// "2 viziers, an elder and an assassin", in tribe order.
fn hand_words(h: &Hand) -> String {
    let parts: Vec<String> = Colour::ALL
        .iter()
        .filter(|c| h[**c as usize] > 0)
        .map(|&c| meeples_of(c, h[c as usize]))
        .collect();
    if parts.is_empty() {
        return "no meeples".into();
    }
    and_list(&parts)
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// "a Fakir", "2 Fakirs".
fn fakirs(n: u8) -> String {
    cards_of(Res::FAKIR, u32::from(n))
}

/// A card's name in words; merchandise are uncountable ("fish", "2 fish").
fn cards_of(r: Res, n: u32) -> String {
    let name = crate::view::Card::of(r);
    if r.is_fakir() {
        return if n == 1 {
            "a Fakir".into()
        } else {
            format!("{n} Fakirs")
        };
    }
    let word = match name {
        crate::view::Card::Ivory => "ivory",
        crate::view::Card::Jewels => "jewels",
        crate::view::Card::Gold => "gold",
        crate::view::Card::Papyrus => "papyrus",
        crate::view::Card::Silk => "silk",
        crate::view::Card::Spice => "spice",
        crate::view::Card::Fish => "fish",
        crate::view::Card::Wheat => "wheat",
        crate::view::Card::Pottery => "pottery",
        crate::view::Card::Fakir => "Fakir",
    };
    if n == 1 {
        word.into()
    } else {
        format!("{n} {word}")
    }
}

/// Cards in words, identical ones counted together, in order of first appearance.
fn cards_words(cards: &[Res]) -> String {
    let mut seen: Vec<(Res, u32)> = Vec::new();
    for &c in cards {
        match seen.iter_mut().find(|(r, _)| *r == c) {
            Some((_, n)) => *n += 1,
            None => seen.push((c, 1)),
        }
    }
    let parts: Vec<String> = seen.iter().map(|&(r, n)| cards_of(r, n)).collect();
    if parts.is_empty() {
        return "no cards".into();
    }
    and_list(&parts)
}

fn djinn_name(d: Djinn) -> String {
    components()
        .djinns
        .get(d as usize)
        .map_or_else(|| d.slug().to_string(), |def| def.name.clone())
}

fn djinns_words(ds: &[Djinn]) -> String {
    let names: Vec<String> = ds.iter().map(|&d| djinn_name(d)).collect();
    if names.is_empty() {
        return "no djinns".into();
    }
    and_list(&names)
}

fn pay_words(p: Pay) -> &'static str {
    match p {
        Pay::Elder => "an Elder",
        Pay::Fakir => "a Fakir",
        Pay::TwoElders => "two Elders",
        Pay::ElderFakir => "an Elder and a Fakir",
    }
}

fn tile_type_name(t: TileType) -> &'static str {
    match t {
        TileType::LargeMarket => "Large Market",
        TileType::SmallMarket => "Small Market",
        TileType::Oasis => "Oasis",
        TileType::Village => "Village",
        TileType::SacredPlace => "Sacred Place",
    }
}

/// The tile where the current move ended, from the turn's stage.
fn stage_tile(s: &State) -> Option<Tile> {
    match &s.phase {
        Phase::Turn {
            stage:
                Stage::TileAction { tile }
                | Stage::Builders { tile, .. }
                | Stage::Assassins { tile, .. },
            ..
        } => Some(*tile),
        _ => None,
    }
}

/// "… on d3 instead of c3, with Lamia (paying an Elder)", or "… on c3".
fn placed_on(origin: Option<Tile>, r: Option<Redirect>, djinn: &str) -> String {
    match (r, origin) {
        (Some(r), Some(o)) => format!(
            " on {} instead of {o}, with {djinn} (paying {})",
            r.at,
            pay_words(r.pay)
        ),
        (Some(r), None) => format!(" on {}, with {djinn} (paying {})", r.at, pay_words(r.pay)),
        (None, Some(o)) => format!(" on {o}"),
        (None, None) => String::new(),
    }
}

/// A seat's move in words, from the position before it.
pub fn describe_move(s: &State, seat: u8, m: &Move) -> String {
    let who = format!("Seat {seat}");
    match *m {
        Move::Bid { spot, kumarbi } => {
            let costs = &components().bid_costs;
            let cost = costs.get(usize::from(spot)).copied().unwrap_or(0);
            if kumarbi == 0 {
                format!("{who} bids {cost}")
            } else {
                let paid = costs
                    .get(usize::from(spot.saturating_sub(kumarbi)))
                    .copied()
                    .unwrap_or(0);
                format!(
                    "{who} bids {cost}, paying {paid} with Kumarbi (discarding {})",
                    fakirs(kumarbi)
                )
            }
        }
        Move::Pick(t) => {
            let hand = s
                .board
                .meeples()
                .get(usize::from(t.0))
                .copied()
                .unwrap_or_default();
            let n: u8 = hand.iter().sum();
            format!(
                "{who} picks up {} on {t}: {}",
                plural(u32::from(n), "meeple", "meeples"),
                hand_words(&hand)
            )
        }
        Move::Drop { to, colour } => describe_drop(s, &who, seat, to, colour),
        Move::Build { fakirs, echidna } => {
            let (tile, count) = match &s.phase {
                Phase::Turn {
                    stage: Stage::Builders { tile, count },
                    ..
                } => (*tile, *count),
                _ => return format!("{who}'s builders act"),
            };
            let gold = s.builder_gold(tile, count, fakirs, echidna.is_some());
            let mut out = format!(
                "{who}'s {} earn {gold} gold around {tile}",
                plural(u32::from(count), "builder", "builders")
            );
            if fakirs > 0 {
                out += &format!(", adding {}", self::fakirs(fakirs));
            }
            if let Some(p) = echidna {
                out += &format!(", doubled by Echidna (paying {})", pay_words(p));
            }
            out
        }
        Move::Kill { target, iblis } => describe_kill(s, &who, target, iblis),
        Move::NoKill => format!("{who}'s assassins kill nobody"),
        Move::Palm(r) => {
            if s.palms_left == 0 {
                return format!("{who} places no palm tree: none are left");
            }
            format!(
                "{who} places a palm tree{}",
                placed_on(stage_tile(s), r, "Lamia")
            )
        }
        Move::Palace(r) => {
            if s.palaces_left == 0 {
                return format!("{who} places no palace: none are left");
            }
            format!(
                "{who} places a palace{}",
                placed_on(stage_tile(s), r, "Hagis")
            )
        }
        Move::Buy { first, second } => describe_buy(s, &who, first, second),
        Move::TakeDjinn { djinn, pay } => format!(
            "{who} takes the djinn {} at the Sacred Place{}, paying {}",
            djinn_name(djinn),
            stage_tile(s).map_or(String::new(), |t| format!(" on {t}")),
            pay_words(pay)
        ),
        Move::Skip => match stage_tile(s) {
            Some(t) => format!(
                "{who} takes nothing at the {} on {t}",
                tile_type_name(s.board.kind_of(t).tile_type)
            ),
            None => format!("{who} skips the tile's action"),
        },
        Move::Use(u) => describe_use(s, &who, u),
        Move::Keep(d) => {
            let drawn = match &s.phase {
                Phase::Turn {
                    stage: Stage::Sibittis { drawn, .. },
                    ..
                } => drawn.len(),
                _ => 1,
            };
            let mut out = format!("{who} keeps the djinn {} (Sibittis)", djinn_name(d));
            if drawn > 1 {
                out += &format!(
                    " and discards the other {}",
                    plural(drawn as u32 - 1, "djinn", "djinns")
                );
            }
            out
        }
        Move::Sell(g) => describe_sell(&who, g),
        Move::End => format!("{who} ends the turn"),
    }
}

fn describe_drop(s: &State, who: &str, seat: u8, to: Tile, colour: Colour) -> String {
    let hand = match &s.phase {
        Phase::Turn {
            stage: Stage::Moving { hand, .. },
            ..
        } => *hand,
        _ => [0; 5],
    };
    let left: u8 = hand.iter().sum();
    if left != 1 {
        return format!("{who} drops {} on {to}", meeples_of(colour, 1));
    }
    let i = usize::from(to.0);
    let on = s.board.meeples().get(i).copied().unwrap_or_default();
    let taken = on[colour as usize] + 1;
    let mut out = format!(
        "{who} drops the last meeple, {}, on {to}",
        meeples_of(colour, 1)
    );
    let take = if taken == 1 {
        tribe(colour).to_string()
    } else {
        meeples_of(colour, taken)
    };
    let others = on.iter().sum::<u8>() - on[colour as usize];
    let unowned = s.board.owner.get(i) == Some(&NOBODY);
    let has_camel = s.seats.get(usize::from(seat)).is_some_and(|p| p.camels > 0);
    if others == 0 && unowned && has_camel {
        out += &format!(", takes the {take} there and places a camel on the emptied tile");
    } else {
        out += &format!(" and takes the {take} there");
    }
    out
}

fn describe_kill(s: &State, who: &str, target: Target, iblis: Option<Pay>) -> String {
    let (first, second) = target.victims();
    let mut killed = [0u8; 5];
    for c in [Some(first), second].into_iter().flatten() {
        killed[c as usize] += 1;
    }
    let victims = hand_words(&killed);
    let mut out = match target {
        Target::Tile { tile, .. } => {
            let mut t = format!("{who}'s assassins kill {victims} on {tile}");
            if let Phase::Turn {
                stage: Stage::Assassins { tile: from, count },
                ..
            } = &s.phase
            {
                let range = State::range_fakirs(*from, *count, tile);
                if range > 0 {
                    t += &format!(", paying {} for range", fakirs(range));
                }
            }
            t
        }
        Target::Seat { seat, .. } => {
            format!("{who}'s assassins kill {victims} in front of seat {seat}")
        }
    };
    if let Some(p) = iblis {
        out += &format!(" (the second with Iblis, paying {})", pay_words(p));
    }
    out
}

fn describe_buy(s: &State, who: &str, first: u8, second: Option<u8>) -> String {
    let c = components();
    let (price, place) = match stage_tile(s) {
        Some(t) => {
            let tt = s.board.kind_of(t).tile_type;
            let price = match tt {
                TileType::LargeMarket => c.large_market.cost,
                _ => c.small_market.cost,
            };
            (price, format!(" at the {} on {t}", tile_type_name(tt)))
        }
        None => (0, String::new()),
    };
    let picks: Vec<u8> = [Some(first), second].into_iter().flatten().collect();
    let cards: Vec<Res> = picks
        .iter()
        .filter_map(|&i| s.row.get(usize::from(i)).copied())
        .collect();
    let places: Vec<String> = picks
        .iter()
        .map(|&i| (u16::from(i) + 1).to_string())
        .collect();
    format!(
        "{who} pays {price} gold{place} for {} (card{} {} of the market)",
        cards_words(&cards),
        if places.len() == 1 { "" } else { "s" },
        and_list(&places)
    )
}

fn describe_use(s: &State, who: &str, u: DjinnUse) -> String {
    let head = format!(
        "{who} uses {}, paying {},",
        djinn_name(u.djinn()),
        pay_words(u.pay())
    );
    match u {
        DjinnUse::AnunNak { tile, .. } => format!(
            "{head} to put {} from the bag on {tile}",
            plural(u32::from(s.bag_size().min(3)), "meeple", "meeples")
        ),
        DjinnUse::Bouraq { village, hagis, .. } => format!(
            "{head} to place a palace{}",
            placed_on(Some(village), hagis, "Hagis")
        ),
        DjinnUse::Enki { oasis, lamia, .. } => format!(
            "{head} to place a palm tree{}",
            placed_on(Some(oasis), lamia, "Lamia")
        ),
        DjinnUse::Leta { tile, .. } | DjinnUse::Utug { tile, .. } => {
            format!("{head} to place a camel on {tile}")
        }
        DjinnUse::Sibittis { .. } => {
            let n = (s.djinn_deck.len() + s.djinn_discard.len()).min(3);
            format!(
                "{head} to draw {} and keep one",
                plural(n, "djinn", "djinns")
            )
        }
        DjinnUse::Sloar => format!("{head} to draw the top resource card"),
    }
}

fn describe_sell(who: &str, g: Goods) -> String {
    let goods: Vec<Res> = g.iter().collect();
    format!(
        "{who} sells {} for {} gold",
        cards_words(&goods),
        crate::market::set_value(goods.len())
    )
}

/// The seat whose turn a draw happens in.
fn drawer(s: &State) -> String {
    match &s.phase {
        Phase::Turn { seat, .. } => format!("Seat {seat}"),
        _ => "The dealer".into(),
    }
}

/// A chance outcome in words, from the position before it; `visible` = false says what
/// happened without what came out.
pub fn describe_chance(s: &State, c: &Chance, visible: bool) -> String {
    match c {
        Chance::Deal(d) if visible => {
            let order: Vec<String> = d.bid_order.iter().map(|s| s.to_string()).collect();
            format!(
                "The dealer lays out the tiles with three meeples on each, sets the bid order \
                 (seats {}), deals the market ({}) and the djinns {}",
                order.join(", "),
                cards_words(&d.cards),
                djinns_words(&d.djinns)
            )
        }
        Chance::Deal(_) => "The dealer lays out the tiles and meeples and deals the rows".into(),
        Chance::Refill { cards, djinns } => {
            let mut parts = Vec::new();
            if !cards.is_empty() {
                parts.push(if visible {
                    format!("the market with {}", cards_words(cards))
                } else {
                    format!(
                        "the market with {}",
                        plural(cards.len() as u32, "card", "cards")
                    )
                });
            }
            if !djinns.is_empty() {
                parts.push(if visible {
                    format!("the djinn row with {}", djinns_words(djinns))
                } else {
                    format!(
                        "the djinn row with {}",
                        plural(djinns.len() as u32, "djinn", "djinns")
                    )
                });
            }
            if parts.is_empty() {
                "The dealer has nothing to refill".into()
            } else {
                format!("The dealer refills {}", and_list(&parts))
            }
        }
        Chance::Cards(cs) if visible => format!(
            "{} draws {} from the resource pile",
            drawer(s),
            cards_words(cs)
        ),
        Chance::Cards(cs) => format!(
            "{} draws {} from the resource pile",
            drawer(s),
            plural(cs.len() as u32, "card", "cards")
        ),
        Chance::Djinns(ds) if visible => {
            format!("{} draws {} with Sibittis", drawer(s), djinns_words(ds))
        }
        Chance::Djinns(ds) => format!(
            "{} draws {} with Sibittis (seen by that seat only)",
            drawer(s),
            plural(ds.len() as u32, "djinn", "djinns")
        ),
        Chance::Meeples(ms) => {
            let onto = match s.pending {
                Some(Draw::Meeples(_, t)) => format!(" onto {t} (Anun-Nak)"),
                _ => String::new(),
            };
            let what = if visible {
                let mut h = [0u8; 5];
                for m in ms {
                    h[*m as usize] += 1;
                }
                hand_words(&h)
            } else {
                plural(ms.len() as u32, "meeple", "meeples")
            };
            format!("The dealer draws {what} from the bag{onto}")
        }
    }
}
