//! The fast reading of Mombasa notation ([`rules_core::Notation::read_move`] and
//! `read_chance`): the commonest moves in exactly the form `notation` writes them, read by
//! their bytes or word by word with [`Scan`], with `notation`'s own readers of names and
//! numbers, to the value `notation::parse_move` gives; `None` for any other text, which the
//! full parser then reads or explains; chance outcomes likewise, word by word. Rarer moves,
//! and the setup, are read by the full parsers from here, so that the fast reading reads every
//! canonical entry. `tests/readings.rs` checks both agree, on recorded
//! games and mutations of them.

use crate::ids::{BookSpace, CardRef, Company, DisplayPos, Region, StartTile, Unit};
use crate::ids::{COLUMNS, MAX_SEATS, REGIONS, SLOTS};
use crate::moves::{BonusArg, Chance, Move};
use crate::notation::{
    self, deck_card, index1, names, parse_book, parse_card, parse_list, parse_tile,
};
use arrayvec::ArrayVec;
use rules_core::notation::{pieces, short_key, short_tag as tag, Cursor, Scan};

mod verb {
    use super::tag;
    pub const PLAN: u64 = tag("plan");
    pub const BONUS: u64 = tag("bonus");
    pub const GOODS: u64 = tag("goods");
    pub const EXPAND: u64 = tag("expand");
    pub const KEEP: u64 = tag("keep");
    pub const BUY: u64 = tag("buy");
    pub const ENTER: u64 = tag("enter");
    pub const BOOK: u64 = tag("book");
    pub const CLERK: u64 = tag("clerk");
    pub const DIAMOND: u64 = tag("diamond");
}

#[inline]
pub fn read_move(text: &str) -> Option<Move> {
    // Entries of fixed shape by their bytes: a length and a few comparisons.
    match *text.as_bytes() {
        [b'r', b'e', b'a', b'd', b'y'] => return Some(Move::Ready),
        [b'd', b'o', b'n', b'e'] => return Some(Move::Done),
        [b'c', b'a', b'n', b'c', b'e', b'l'] => return Some(Move::Cancel),
        [b'p', b'o', b'u', b'n', b'd'] => return Some(Move::Pound),
        [b'i', b'n', b'k'] => return Some(Move::Ink),
        [b'e', b'n', b'd', b' ', _] => return Some(Move::End(index1(text.get(4..)?, SLOTS)?)),
        [b's', b't', b'e', b'p', b' ', _, _, _] => {
            return Some(Move::Step(Company::from_code(text.get(5..)?)?))
        }
        // `plan CARD SLOT`: the card between the verb and the slot's single digit.
        [b'p', b'l', b'a', b'n', b' ', .., b' ', _] => {
            let n = text.len();
            return Some(Move::Plan {
                card: parse_card(text.get(5..n - 2)?)?,
                slot: index1(text.get(n - 1..)?, SLOTS)?,
            });
        }
        // `bonus SPACE` without an argument: one word after the verb.
        [b'b', b'o', b'n', b'u', b's', b' ', ref rest @ ..] if !rest.contains(&b' ') => {
            return Some(Move::Bonus {
                space: names().bonus.get(text.get(6..)?)?,
                arg: BonusArg::None,
            });
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
        verb::ENTER => Move::Enter {
            region: Region(index1(s.word()?, REGIONS)?),
            column: index1(s.word()?, COLUMNS)?,
            ret: match s.word() {
                None => None,
                Some(w) => Some(index1(w, COLUMNS)?),
            },
        },
        verb::BOOK => Move::Book(BookSpace::parse(s.word()?)?),
        verb::CLERK => Move::Clerk(index1(s.word()?, SLOTS)?),
        verb::DIAMOND => Move::Diamond(index1(s.word()?, SLOTS)?),
        // The rarest moves (a track's flip), the long way.
        _ => return notation::parse_move(text).ok(),
    };
    s.done(m)
}

pub fn read_chance(text: &str) -> Option<Chance> {
    // Plans revealed, every round: read in place, card by card.
    if let Some(rest) = text.strip_prefix("reveal ") {
        return read_reveal(rest);
    }
    if let Some(rest) = text.strip_prefix("draw cards=") {
        let mut c = Cursor::new(rest);
        let cards = c.list(b',', |c| deck_card(item(c)?))?;
        c.tag(" books=")?;
        let books = c.list(b',', |c| parse_book(item(c)?))?;
        return c.done(Chance::Draw { cards, books });
    }
    let mut s = Scan::new(text);
    let c = match s.word()? {
        "book" => Chance::Book {
            space: BookSpace::parse(s.word()?)?,
            book: parse_book(s.word()?)?,
        },
        "tiles" => {
            let seat = match s.word()?.as_bytes() {
                &[d @ b'0'..=b'9'] if usize::from(d - b'0') < MAX_SEATS => d - b'0',
                _ => return None,
            };
            let tiles: ArrayVec<u8, 2> = parse_list(s.word()?, parse_tile)?;
            Chance::StartTiles {
                seat,
                tiles: tiles.into_inner().ok()?,
            }
        }
        "starts" => Chance::Starts(parse_list(s.word()?, parse_tile)?),
        // The setup, once a game, the long way.
        _ => return notation::parse_chance(text).ok(),
    };
    s.done(c)
}

/// An item of a list inside a word: the text up to the next comma or space.
fn item<'a>(c: &mut Cursor<'a>) -> Option<&'a str> {
    c.until(|b| b == b',' || b == b' ')
}

/// The plans of `reveal SEAT:CARD@SLOT,... ...` after its verb, seats in order from 0.
fn read_reveal(rest: &str) -> Option<Chance> {
    let mut c = Cursor::new(rest);
    let mut plans = ArrayVec::new();
    loop {
        if !(c.eat(b'0' + plans.len() as u8) && c.eat(b':')) {
            return None;
        }
        let items: ArrayVec<(CardRef, u8), SLOTS> = c.list(b',', |c| {
            let card = parse_card(c.until(|b| b == b'@')?)?;
            c.tag("@")?;
            Some((card, index1(item(c)?, SLOTS)?))
        })?;
        let mut plan = [None; SLOTS];
        for (card, slot) in items {
            if plan.get_mut(usize::from(slot))?.replace(card).is_some() {
                return None;
            }
        }
        plans.try_push(plan).ok()?;
        if c.end() {
            return Some(Chance::Reveal(plans));
        }
        if !c.eat(b' ') {
            return None;
        }
    }
}
