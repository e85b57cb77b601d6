//! The fast reading of Clans of Caledonia notation ([`rules_core::Notation::read_move`] and
//! `read_chance`): the commonest entries in exactly the form `notation` writes them, read by
//! their bytes or word by word with [`Scan`], to the value `notation::parse_*` give; `None`
//! for any other text, which the full parsers then read or explain. Rarer moves and outcomes
//! are read by the full parser from here, so that the fast reading reads every canonical
//! entry. Replay reads every entry of every game it rebuilds, and the full parser's general
//! word splitting cost a fifth of a replay. `tests/readings.rs` checks both agree, on
//! recorded games and mutations of them.

use crate::ids::{Clan, ContractId, Good, Hex, PortId, Tech, TileId, Unit};
use crate::moves::{Chance, Deal, Move};
use crate::notation::{self, head};
use arrayvec::ArrayVec;
use rules_core::notation::{list, number, short_key, Cursor, Scan};

/// A single digit.
fn digit(b: u8) -> Option<u8> {
    b.is_ascii_digit().then(|| b - b'0')
}

fn contracts<const N: usize>(s: &str, sep: u8) -> Option<ArrayVec<ContractId, N>> {
    list(s, sep, |x| number(x).map(ContractId))
}

#[inline]
pub fn read_move(text: &str) -> Option<Move> {
    // Entries of fixed shape by their bytes: a length and a few comparisons.
    match *text.as_bytes() {
        [b'p', b'a', b's', b's'] => return Some(Move::Pass),
        [b's', b'h', b'i', b'p'] => return Some(Move::Ship),
        [b'h', b'i', b'r', b'e'] => return Some(Move::Hire),
        [b'd', b'o', b'n', b'e'] => return Some(Move::Done),
        [b'm', b'a', b'k', b'e', b' ', c, b' ', b, b' ', w] => {
            return Some(Move::Make {
                cheese: digit(c)?,
                bread: digit(b)?,
                whisky: digit(w)?,
                cellar: false,
            })
        }
        // `sell GOOD N` and `buy GOOD N` with a single-digit count.
        [b's', b'e', b'l', b'l', b' ', .., b' ', n] => return trade(text, 5, true, n),
        [b'b', b'u', b'y', b' ', .., b' ', n] => return trade(text, 4, false, n),
        // `expand UNIT HEX`: the hex is the last two or three bytes.
        [b'e', b'x', b'p', b'a', b'n', b'd', b' ', ..] => {
            let b = text.as_bytes();
            let cut = (2..=3).find(|&h| b.len() > 8 + h && b[b.len() - h - 1] == b' ');
            if let Some(h) = cut {
                let at = b.len() - h;
                return Some(Move::Expand(
                    Unit::parse(text.get(7..at - 1)?)?,
                    Hex::parse(text.get(at..)?)?,
                ));
            }
        }
        _ => {}
    }
    read_words(text)
}

/// `sell`/`buy` of the good written from byte `from` to the space before the count `n`.
#[inline(always)]
fn trade(text: &str, from: usize, sell: bool, n: u8) -> Option<Move> {
    Some(Move::Trade {
        good: Good::parse(text.get(from..text.len() - 2)?)?,
        sell,
        n: digit(n)?,
    })
}

/// [`read_move`] past the entries of fixed shape: word by word. Apart, so that those entries
/// (read where replay calls) do not pay for the registers this larger body saves.
#[inline(never)]
fn read_words(text: &str) -> Option<Move> {
    let mut s = Scan::new(text);
    let verb = short_key(s.word()?);
    let m = match verb {
        head::EXPAND => Move::Expand(Unit::parse(s.word()?)?, Hex::parse(s.word()?)?),
        head::SELL | head::BUY => Move::Trade {
            good: Good::parse(s.word()?)?,
            sell: verb == head::SELL,
            n: number(s.word()?)?,
        },
        head::MAKE => Move::Make {
            cheese: number(s.word()?)?,
            bread: number(s.word()?)?,
            whisky: number(s.word()?)?,
            cellar: match s.word() {
                None => false,
                Some("cellar") => true,
                Some(_) => return None,
            },
        },
        head::PLACE => Move::Place(Unit::parse(s.word()?)?, Hex::parse(s.word()?)?),
        head::OBTAIN => Move::Obtain(contracts(s.word()?, b'+')?),
        head::CLAN => Move::Clan(Clan::parse(s.word()?)?),
        head::NB => Move::Neighbour(Good::parse(s.word()?)?, number(s.word()?)?),
        head::ROW => Move::Row(Hex::parse(s.word()?)?, Hex::parse(s.word()?)?),
        head::TECH => Move::Tech(Tech::parse(s.word()?)?),
        head::MILK => Move::Milk(number(s.word()?)?),
        // The rarer moves (ports, contracts fulfilled, upgrades, ...), the long way.
        _ => return notation::parse_move(text).ok(),
    };
    s.done(m)
}

pub fn read_chance(text: &str) -> Option<Chance> {
    let mut c = Cursor::new(text);
    if c.tag("prep refill=").is_none() {
        return match text.get(..5) {
            Some("deal ") => read_deal(text),
            // Building-bonus draws, a few a game, the long way.
            _ => notation::parse_chance(text).ok(),
        };
    }
    let refill = c.list(b',', |c| c.number().map(ContractId))?;
    c.tag(" drift=")?;
    let drift = c.list(b',', |c| {
        let g = Good::parse(c.until(|b| b == b'+' || b == b'-')?)?;
        Some((g, c.signed()?))
    })?;
    let die = if c.end() {
        None
    } else {
        c.tag(" die=")?;
        Some(c.signed()?)
    };
    c.done(Chance::Prep { refill, drift, die })
}

/// The deal, field by field as the full parser reads it.
fn read_deal(text: &str) -> Option<Chance> {
    let mut c = Cursor::new(text);
    c.tag("deal sides=")?;
    let sides = c.until(|b| b == b' ')?.as_bytes();
    let sides: [u8; 4] = match *sides {
        [a, b, c, d] if [a, b, c, d].iter().all(|&x| x == b'1' || x == b'2') => {
            [a, b, c, d].map(|x| x - b'0')
        }
        _ => return None,
    };
    c.tag(" ports=")?;
    let ports: ArrayVec<PortId, 4> = c.list(b',', |c| c.number().map(PortId))?;
    c.tag(" tiles=")?;
    let tiles: ArrayVec<TileId, 5> = c.list(b',', |c| c.number().map(TileId))?;
    c.tag(" first=")?;
    let first = c.number()?;
    c.tag(" offer=")?;
    let offer = c.list(b',', |c| {
        let clan = Clan::parse(c.until(|b| b == b'/')?)?;
        c.tag("/")?;
        Some((clan, c.number()?))
    })?;
    c.tag(" boxes=")?;
    let boxes = c.list(b',', |c| c.number().map(ContractId))?;
    c.done(Chance::Deal(Box::new(Deal {
        sides,
        ports: ports.into_inner().ok()?,
        tiles: tiles.into_inner().ok()?,
        first,
        offer,
        boxes,
    })))
}
