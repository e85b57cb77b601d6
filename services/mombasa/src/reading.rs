//! The fast reading of Mombasa notation ([`rules_core::Notation::read_move`] and
//! `read_chance`): the commonest moves in exactly the form `notation` writes them, read by
//! their bytes or word by word with [`Scan`], with `notation`'s own readers of names and
//! numbers, to the value `notation::parse_move` gives; `None` for any other text, which the
//! full parser then reads or explains. Rarer moves, and chance outcomes (a few a round, their
//! cost in the names they list), are read by the full parsers from here, so that the fast
//! reading reads every canonical entry. `tests/readings.rs` checks both agree, on recorded
//! games and mutations of them.

use crate::ids::{Company, DisplayPos, StartTile, Unit, SLOTS};
use crate::moves::{BonusArg, Chance, Move};
use crate::notation::{self, index1, names, parse_card, parse_tile};
use rules_core::notation::{pieces, short_key, short_tag as tag, Scan};

mod verb {
    use super::tag;
    pub const PLAN: u64 = tag("plan");
    pub const BONUS: u64 = tag("bonus");
    pub const GOODS: u64 = tag("goods");
    pub const EXPAND: u64 = tag("expand");
    pub const KEEP: u64 = tag("keep");
    pub const BUY: u64 = tag("buy");
}

#[inline]
pub fn read_move(text: &str) -> Option<Move> {
    // Entries of fixed shape by their bytes: a length and a few comparisons.
    match *text.as_bytes() {
        [b'r', b'e', b'a', b'd', b'y'] => return Some(Move::Ready),
        [b'd', b'o', b'n', b'e'] => return Some(Move::Done),
        [b'c', b'a', b'n', b'c', b'e', b'l'] => return Some(Move::Cancel),
        [b'e', b'n', b'd', b' ', _] => return Some(Move::End(index1(text.get(4..)?, SLOTS)?)),
        [b's', b't', b'e', b'p', b' ', _, _, _] => {
            return Some(Move::Step(Company::from_code(text.get(5..)?)?))
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
        verb::PLAN => Move::Plan {
            card: parse_card(s.word()?)?,
            slot: index1(s.word()?, SLOTS)?,
        },
        verb::BONUS => Move::Bonus {
            space: names().bonus.get(s.word()?)?,
            arg: match s.word() {
                None => BonusArg::None,
                Some(w) => match DisplayPos::parse(w) {
                    Some(p) => BonusArg::Display(p),
                    None => BonusArg::Card(parse_card(w)?),
                },
            },
        },
        verb::GOODS => {
            let good = Unit::from_code(s.word()?).filter(|u| u.is_good())?;
            let mut mask = 0u8;
            for item in pieces(s.word()?, b',') {
                let bit = match item {
                    "t" => crate::goods::TILE_BIT,
                    _ => 1 << index1(item, SLOTS)?,
                };
                if mask & bit != 0 {
                    return None;
                }
                mask |= bit;
            }
            Move::Goods { good, mask }
        }
        verb::EXPAND => Move::Expand(Company::from_code(s.word()?)?),
        verb::KEEP => Move::Keep(StartTile(parse_tile(s.word()?)?)),
        verb::BUY => Move::Buy(DisplayPos::parse(s.word()?)?),
        // The rarer moves (entering the map, bookkeeping, diamonds, ...), the long way.
        _ => return notation::parse_move(text).ok(),
    };
    s.done(m)
}

/// Chance outcomes, by the full parser (see the module's note).
pub fn read_chance(text: &str) -> Option<Chance> {
    notation::parse_chance(text).ok()
}
