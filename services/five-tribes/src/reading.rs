//! The fast reading of Five Tribes notation ([`rules_core::Notation::read_move`] and
//! `read_chance`): text in exactly the form `notation` writes it, read word by word with
//! [`Scan`], to the value `notation::parse_*` give; `None` for anything else, which the full
//! parsers then read or explain. Replay reads every entry of every game it rebuilds, and the
//! full parser's general word splitting and error plumbing cost more than the rules applying
//! the move. `tests/readings.rs` checks both agree, on recorded games and mutations of them.
//!
//! Lists the rules give no order (issue 37) are read fast only in their canonical order (two
//! market cards ascending, Iblis's victims in tribe order, `WF`), and left to the parser
//! otherwise; but meeples laid or drawn from the bag are put in tribe order here too, because
//! every game recorded before issue 37 wrote them in draw order and replay reads each one.

use crate::data::components;
use crate::ids::{Colour, Djinn, Res, Tile};
use crate::moves::{Chance, DjinnUse, Goods, Move, Pay, Redirect, Target, DRAW_MEEPLES_CAP};
use crate::notation::kind_index;
use arrayvec::ArrayVec;
use rules_core::notation::{cut, field, list, number, pieces, short_key, short_tag as tag, Scan};

/// The words that start a move, as short keys: the verb picks its arm by one comparison.
mod verb {
    use super::tag;
    pub const BID: u64 = tag("bid");
    pub const PICK: u64 = tag("pick");
    pub const DROP: u64 = tag("drop");
    pub const BUILD: u64 = tag("build");
    pub const KILL: u64 = tag("kill");
    pub const NOKILL: u64 = tag("nokill");
    pub const PALM: u64 = tag("palm");
    pub const PALACE: u64 = tag("palace");
    pub const BUY: u64 = tag("buy");
    pub const DJINN: u64 = tag("djinn");
    pub const SKIP: u64 = tag("skip");
    pub const USE: u64 = tag("use");
    pub const KEEP: u64 = tag("keep");
    pub const SELL: u64 = tag("sell");
    pub const END: u64 = tag("end");
}

fn colour(w: &str) -> Option<Colour> {
    match w.as_bytes() {
        [c] => Colour::from_letter(char::from(*c)),
        _ => None,
    }
}

/// One victim, or Iblis's two in tribe order (the canonical text; any other order is the
/// parser's).
fn victims(w: &str) -> Option<(Colour, Option<Colour>)> {
    match cut(w, b'+') {
        Some((a, b)) => {
            let (a, b) = (colour(a)?, colour(b)?);
            (a <= b).then_some((a, Some(b)))
        }
        None => Some((colour(w)?, None)),
    }
}

/// Three meeples in tribe order.
fn in_tribe_order([a, b, c]: [Colour; 3]) -> [Colour; 3] {
    let (a, b) = if b < a { (b, a) } else { (a, b) };
    let (b, c) = if c < b { (c, b) } else { (b, c) };
    let (a, b) = if b < a { (b, a) } else { (a, b) };
    [a, b, c]
}

fn pay(s: &mut Scan<'_>) -> Option<Pay> {
    Pay::from_code(s.word()?)
}

/// A number from 1, less one (card positions are written from 1).
fn from_one(w: &str) -> Option<u8> {
    number(w)?.checked_sub(1)
}

/// An optional `NAME TILE PAY` ending (Hagis, Lamia), the last words of the move.
fn redirect(s: &mut Scan<'_>, name: &str) -> Option<Option<Redirect>> {
    if s.end() {
        return Some(None);
    }
    if s.word()? != name {
        return None;
    }
    let at = Tile::parse(s.word()?)?;
    let pay = pay(s)?;
    s.done(Some(Redirect { at, pay }))
}

// Always inlined where an entry is applied (replay, the store): the compiler inlined it
// only while `replay_texts` was its one caller, and a second (the `REPLAY=read`
// measurement) cost the replay beside it 13-20 instructions an entry.
#[inline(always)]
pub fn read_move(text: &str) -> Option<Move> {
    // The commonest entries (two in three of a recorded game's) by their bytes at fixed
    // places: a length and a few byte comparisons, where reading words costs a hundred
    // instructions.
    match *text.as_bytes() {
        [b'd', b'r', b'o', b'p', b' ', col, row, b' ', c] => {
            return Some(Move::Drop {
                to: Tile::from_bytes(col, row)?,
                colour: Colour::from_letter(char::from(c))?,
            })
        }
        [b'p', b'i', b'c', b'k', b' ', col, row] => {
            return Some(Move::Pick(Tile::from_bytes(col, row)?))
        }
        [b'e', b'n', b'd'] => return Some(Move::End),
        [b's', b'k', b'i', b'p'] => return Some(Move::Skip),
        // `bid COST` without Kumarbi.
        [b'b', b'i', b'd', b' ', _] | [b'b', b'i', b'd', b' ', _, _] => {
            return Some(Move::Bid {
                spot: spot_costing(number(text.get(4..)?)?)?,
                kumarbi: 0,
            })
        }
        _ => {}
    }
    read_words(text)
}

/// [`read_move`] past the entries of fixed shape: word by word. Apart, so that those entries
/// (read where replay calls) do not pay for the registers this larger body saves.
#[inline(never)]
fn read_words(text: &str) -> Option<Move> {
    let mut s = Scan::new(text);
    let m = match short_key(s.word()?) {
        verb::DROP => {
            let to = Tile::parse(s.word()?)?;
            Move::Drop {
                to,
                colour: colour(s.word()?)?,
            }
        }
        verb::PICK => Move::Pick(Tile::parse(s.word()?)?),
        verb::END => Move::End,
        verb::BID => {
            let spot = spot_costing(number(s.word()?)?)?;
            let kumarbi = match s.word() {
                None => 0,
                Some("kumarbi") => number(s.word()?).filter(|&n| n > 0)?,
                Some(_) => return None,
            };
            Move::Bid { spot, kumarbi }
        }
        verb::SELL => {
            let mut g = 0u16;
            for code in pieces(s.word()?, b'+') {
                let r = Res::from_code(code).filter(|r| !r.is_fakir())?;
                if g & (1 << r.0) != 0 {
                    return None;
                }
                g |= 1 << r.0;
            }
            Move::Sell(Goods(g))
        }
        verb::BUY => {
            let first = from_one(s.word()?)?;
            let second = match s.word() {
                None => None,
                // Row order only (the canonical text); any other is the parser's.
                Some(w) => Some(from_one(w).filter(|&x| x > first)?),
            };
            Move::Buy { first, second }
        }
        verb::KILL => {
            let at = s.word()?;
            let (first, second) = victims(s.word()?)?;
            let target = match at.strip_prefix('@') {
                Some(seat) => Target::Seat {
                    seat: number(seat)?,
                    first,
                    second,
                },
                None => Target::Tile {
                    tile: Tile::parse(at)?,
                    first,
                    second,
                },
            };
            let iblis = match s.word() {
                None => None,
                Some("iblis") => Some(pay(&mut s)?),
                Some(_) => return None,
            };
            Move::Kill { target, iblis }
        }
        verb::BUILD => {
            let mut w = s.word();
            let mut fakirs = 0;
            if let Some(n) = w.and_then(|w| w.strip_prefix('+')) {
                fakirs = number(n).filter(|&n| n > 0)?;
                w = s.word();
            }
            let echidna = match w {
                None => None,
                Some("echidna") => Some(pay(&mut s)?),
                Some(_) => return None,
            };
            Move::Build { fakirs, echidna }
        }
        verb::NOKILL => Move::NoKill,
        verb::SKIP => Move::Skip,
        verb::PALM => Move::Palm(redirect_after_tile(&mut s, "lamia")?),
        verb::PALACE => Move::Palace(redirect_after_tile(&mut s, "hagis")?),
        verb::DJINN => {
            let djinn = Djinn::from_slug(s.word()?)?;
            Move::TakeDjinn {
                djinn,
                pay: pay(&mut s)?,
            }
        }
        verb::KEEP => Move::Keep(Djinn::from_slug(s.word()?)?),
        verb::USE => Move::Use(djinn_use(&mut s)?),
        _ => return None,
    };
    s.done(m)
}

/// The bid spot a bid of `cost` names, as the full parser finds it: the first of the free
/// spots for 0, else the spot of that cost.
fn spot_costing(cost: u8) -> Option<u8> {
    match cost {
        0 => Some(0),
        c => components()
            .bid_costs
            .iter()
            .position(|&x| x == u32::from(c))
            .and_then(|i| u8::try_from(i).ok()),
    }
}

/// `palm`'s and `palace`'s optional `TILE NAME PAY`.
fn redirect_after_tile(s: &mut Scan<'_>, name: &str) -> Option<Option<Redirect>> {
    let Some(w) = s.word() else {
        return Some(None);
    };
    let at = Tile::parse(w)?;
    if s.word()? != name {
        return None;
    }
    Some(Some(Redirect { at, pay: pay(s)? }))
}

/// `use DJINN ...`: the djinn and what its power needs.
fn djinn_use(s: &mut Scan<'_>) -> Option<DjinnUse> {
    let d = Djinn::from_slug(s.word()?)?;
    Some(match d {
        Djinn::AnunNak | Djinn::Leta | Djinn::Utug => {
            let tile = Tile::parse(s.word()?)?;
            let pay = pay(s)?;
            match d {
                Djinn::AnunNak => DjinnUse::AnunNak { tile, pay },
                Djinn::Leta => DjinnUse::Leta { tile, pay },
                _ => DjinnUse::Utug { tile, pay },
            }
        }
        Djinn::Bouraq => {
            let village = Tile::parse(s.word()?)?;
            let pay = pay(s)?;
            let hagis = redirect(s, "hagis")?;
            DjinnUse::Bouraq {
                village,
                pay,
                hagis,
            }
        }
        Djinn::Enki => {
            let oasis = Tile::parse(s.word()?)?;
            let pay = pay(s)?;
            let lamia = redirect(s, "lamia")?;
            DjinnUse::Enki { oasis, pay, lamia }
        }
        Djinn::Sibittis => DjinnUse::Sibittis { pay: pay(s)? },
        Djinn::Sloar => DjinnUse::Sloar,
        _ => return None,
    })
}

pub fn read_chance(text: &str) -> Option<Chance> {
    let mut s = Scan::new(text);
    let c = match s.word()? {
        "refill" => {
            let cards = list(field(s.word()?, "cards")?, b'.', Res::from_code)?;
            let djinns = list(field(s.word()?, "djinns")?, b'.', Djinn::from_slug)?;
            Chance::Refill { cards, djinns }
        }
        "draw" => {
            let (kind, v) = cut(s.word()?, b'=')?;
            match kind {
                "cards" => Chance::Cards(list(v, b'.', Res::from_code)?),
                "djinns" => Chance::Djinns(list(v, b'.', Djinn::from_slug)?),
                "meeples" => {
                    let mut out: ArrayVec<Colour, DRAW_MEEPLES_CAP> = ArrayVec::new();
                    for c in v.bytes() {
                        out.try_push(Colour::from_letter(char::from(c))?).ok()?;
                    }
                    out.sort_unstable();
                    Chance::Meeples(out)
                }
                _ => return None,
            }
        }
        "deal" => {
            let layout = field(s.word()?, "layout")?;
            let meeples = field(s.word()?, "meeples")?;
            let order = field(s.word()?, "order")?;
            let cards = field(s.word()?, "cards")?;
            let djinns = field(s.word()?, "djinns")?;
            let layout: ArrayVec<u8, 30> = list(layout, b'.', kind_index)?;
            let meeples: ArrayVec<[Colour; 3], 30> = list(meeples, b'.', |m| {
                match m.as_bytes() {
                    &[a, b, c] => Some([a, b, c].map(|x| Colour::from_letter(char::from(x)))),
                    _ => None,
                }
                .and_then(|[a, b, c]| Some(in_tribe_order([a?, b?, c?])))
            })?;
            let c = components();
            Chance::Deal(Box::new(crate::moves::Deal {
                layout: layout.into_inner().ok()?,
                meeples: meeples.into_inner().ok()?,
                bid_order: list(order, b'.', |w| match w.as_bytes() {
                    &[d @ b'0'..=b'9'] => Some(d - b'0'),
                    _ => None,
                })?,
                // The rows' sizes are the notation's: any other is the parser's to refuse.
                cards: list(cards, b'.', Res::from_code).filter(|v| v.len() == c.row_size)?,
                djinns: list(djinns, b'.', Djinn::from_slug).filter(|v| v.len() == c.djinn_row)?,
            }))
        }
        _ => return None,
    };
    s.done(c)
}
