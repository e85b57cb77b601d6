//! The fast reading of Mombasa notation ([`rules_core::Notation::read_move`] and
//! `read_chance`): the commonest moves in exactly the form `notation` writes them, read by
//! their bytes or verb and words split at their spaces, with `notation`'s own readers of
//! names and numbers, to the value `notation::parse_move` gives; `None` for any other text,
//! which the full parser then reads or explains; chance outcomes likewise, their lists read
//! in place byte by byte, cards and books by their codes' table ([`CodeIndex`]). The rarest
//! moves are read by the full parser from here, so that
//! the fast reading reads every canonical entry. `tests/readings.rs` checks both agree, on
//! recorded games and mutations of them.

use crate::ids::{BookSpace, CardRef, Company, DisplayPos, Region, StartTile, Unit};
use crate::ids::{COLUMNS, DECK_CARDS, MAX_SEATS, REGIONS, SLOTS};
use crate::moves::{BonusArg, Chance, Move};
use crate::notation::{
    self, index1, index1_bytes, names, parse_book, parse_card, parse_list, parse_side, parse_tile,
    Takes,
};
use arrayvec::ArrayVec;
use rules_core::notation::{pieces, short_key, CodeIndex, Scan};

/// The verbs [`read_words`] reads, as [`short_key`]s: one integer `match` picks the arm.
mod verb {
    use rules_core::notation::short_tag as tag;
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

/// `s` cut at its first space (a loop over a few bytes: `split_once`'s `memchr` is made for
/// long texts and cost more than the rest of reading these moves).
#[inline(always)]
fn split_word(s: &str) -> Option<(&str, &str)> {
    let i = s.bytes().position(|b| b == b' ')?;
    Some((s.get(..i)?, s.get(i + 1..)?))
}

// Always inlined where an entry is applied (replay, the store): the compiler inlined it
// only while `replay_texts` was its one caller, and a second (the `REPLAY=read`
// measurement) cost the replay beside it 13-20 instructions an entry.
#[inline(always)]
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
            let space = names().bonus.get(text.get(6..)?)?;
            // A space that names a display space or a card is refused without one.
            return (names().bonus_takes.get(usize::from(space)) == Some(&Takes::Nothing))
                .then_some(Move::Bonus {
                    space,
                    arg: BonusArg::None,
                });
        }
        _ => {}
    }
    read_words(text)
}

/// [`read_move`] past the entries of fixed shape: the verb, then its words, each split off
/// at its space (a `Scan` of the whole entry was a fifth of these entries' reading). Apart,
/// so that those entries (read where replay calls) do not pay for the registers this larger
/// body saves.
#[inline(never)]
fn read_words(text: &str) -> Option<Move> {
    let Some((verb, rest)) = split_word(text) else {
        // The rarest moves (a track's flip), the long way.
        return notation::parse_move(text).ok();
    };
    // A word past the last one a move has is in no reader's value: `from_code`, `parse`,
    // `index1` and the name indexes refuse a word with a space in it.
    let m = match short_key(verb) {
        verb::PLAN => {
            let (card, slot) = split_word(rest)?;
            Move::Plan {
                card: parse_card(card)?,
                slot: index1(slot, SLOTS)?,
            }
        }
        verb::BONUS => {
            let (space, arg) = match split_word(rest) {
                Some((space, arg)) => (space, Some(arg)),
                None => (rest, None),
            };
            let m = Move::Bonus {
                space: names().bonus.get(space)?,
                arg: match arg {
                    None => BonusArg::None,
                    Some(w) => match DisplayPos::parse(w) {
                        Some(p) => BonusArg::Display(p),
                        None => BonusArg::Card(parse_card(w)?),
                    },
                },
            };
            // The argument the space takes, as the full parser has it.
            notation::move_shape(&m).ok()?;
            m
        }
        verb::GOODS => {
            let (good, slots) = split_word(rest)?;
            let good = Unit::from_code(good).filter(|u| u.is_good())?;
            let mut mask = 0u8;
            for item in pieces(slots, b',') {
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
        verb::EXPAND => Move::Expand(Company::from_code(rest)?),
        verb::KEEP => Move::Keep(StartTile(parse_tile(rest)?)),
        verb::BUY => Move::Buy(DisplayPos::parse(rest)?),
        verb::ENTER => {
            let (region, rest) = split_word(rest)?;
            let (column, ret) = match split_word(rest) {
                Some((column, ret)) => (column, Some(index1(ret, COLUMNS)?)),
                None => (rest, None),
            };
            Move::Enter {
                region: Region(index1(region, REGIONS)?),
                column: index1(column, COLUMNS)?,
                ret,
            }
        }
        verb::BOOK => Move::Book(BookSpace::parse(rest)?),
        verb::CLERK => Move::Clerk(index1(rest, SLOTS)?),
        verb::DIAMOND => Move::Diamond(index1(rest, SLOTS)?),
        _ => return notation::parse_move(text).ok(),
    };
    Some(m)
}

pub fn read_chance(text: &str) -> Option<Chance> {
    let c = read_outcome(text)?;
    // Counts and repeats, as the full parser refuses them.
    notation::chance_shape(&c).ok()?;
    Some(c)
}

/// [`read_chance`] before the checks of [`notation::chance_shape`].
#[inline(always)]
fn read_outcome(text: &str) -> Option<Chance> {
    // Plans revealed, every round: read in place, card by card.
    if let Some(rest) = text.strip_prefix("reveal ") {
        return read_reveal(rest);
    }
    if let Some(rest) = text.strip_prefix("draw cards=") {
        let b = rest.as_bytes();
        let mut i = 0;
        let cards = deck_cards(b, &mut i)?;
        lit(b, &mut i, b" books=")?;
        let books = codes(&names().books, b, &mut i)?;
        return (i == b.len()).then_some(Chance::Draw { cards, books });
    }
    if let Some(rest) = text.strip_prefix("setup display=") {
        return read_setup(rest);
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
        _ => return None,
    };
    s.done(c)
}

/// The setup after `setup display=`: by bytes, as a draw (a game's setup names two dozen
/// components; splitting it into words first cost as much as a reveal).
fn read_setup(rest: &str) -> Option<Chance> {
    let b = rest.as_bytes();
    let mut i = 0;
    let display = deck_cards(b, &mut i)?;
    lit(b, &mut i, b" books=")?;
    let books = codes(&names().books, b, &mut i)?;
    // The optional fields, in this order.
    let sides = match lit(b, &mut i, b" sides=") {
        Some(()) => {
            let end = b
                .iter()
                .skip(i)
                .position(|&x| x == b' ')
                .map_or(b.len(), |n| i + n);
            let v: ArrayVec<u8, 4> = parse_list(rest.get(i..end)?, parse_side)?;
            i = end;
            Some(v.into_inner().ok()?)
        }
        None => None,
    };
    let first = match lit(b, &mut i, b" first=") {
        Some(()) => match *b.get(i..)? {
            [d @ b'0'..=b'9'] if usize::from(d - b'0') < MAX_SEATS => {
                i += 1;
                Some(d - b'0')
            }
            _ => return None,
        },
        None => None,
    };
    (i == b.len()).then_some(Chance::Setup {
        display,
        books,
        sides,
        first,
    })
}

/// Passes `*i` over `text`, which must come next in `b`.
fn lit(b: &[u8], i: &mut usize, text: &[u8]) -> Option<()> {
    b.get(*i..)?.starts_with(text).then(|| *i += text.len())
}

/// The plans of `reveal SEAT:CARD@SLOT,... ...` after its verb, seats in order from 0: by
/// bytes, each card by its code where it stands (a reveal names a card for every slot of
/// every seat, and reading it by words and pieces cost as much as playing it).
fn read_reveal(rest: &str) -> Option<Chance> {
    let b = rest.as_bytes();
    let cards = &names().cards;
    let mut i = 0;
    let mut plans = ArrayVec::new();
    loop {
        if b.get(i..i + 2)? != [b'0' + plans.len() as u8, b':'] {
            return None;
        }
        i += 2;
        let mut plan = [None; SLOTS];
        if b.get(i) == Some(&b'-') && matches!(b.get(i + 1), None | Some(b' ')) {
            // No card planned.
            i += 1;
        } else {
            loop {
                let (card, n) = cards.read_prefix(b.get(i..)?)?;
                i += n;
                // `@` and the slot's one or two digits, as `index1` reads them.
                let (slot, n) = match *b.get(i..)? {
                    [b'@', d @ b'0'..=b'9', e @ b'0'..=b'9', ..] => {
                        (index1_bytes(&[d, e], SLOTS)?, 3)
                    }
                    [b'@', d @ b'0'..=b'9', ..] => (index1_bytes(&[d], SLOTS)?, 2),
                    _ => return None,
                };
                i += n;
                if plan
                    .get_mut(usize::from(slot))?
                    .replace(CardRef(card))
                    .is_some()
                {
                    return None;
                }
                match b.get(i) {
                    Some(b',') => i += 1,
                    None | Some(b' ') => break,
                    Some(_) => return None,
                }
            }
        }
        plans.try_push(plan).ok()?;
        match b.get(i) {
            None => return Some(Chance::Reveal(plans)),
            Some(b' ') => i += 1,
            Some(_) => return None,
        }
    }
}

/// Codes `ix` reads, separated by commas, from `b[*i..]` up to a space or the end (`-` alone
/// for none), `*i` moved past them: `Cursor::list` of names, without finding each one's end
/// before reading it.
fn codes<const N: usize>(ix: &CodeIndex, b: &[u8], i: &mut usize) -> Option<ArrayVec<u8, N>> {
    let mut out = ArrayVec::new();
    if b.get(*i) == Some(&b'-') && matches!(b.get(*i + 1), None | Some(b' ')) {
        *i += 1;
        return Some(out);
    }
    loop {
        let (x, n) = ix.read_prefix(b.get(*i..)?)?;
        out.try_push(x).ok()?;
        *i += n;
        match b.get(*i) {
            Some(b',') => *i += 1,
            None | Some(b' ') => return Some(out),
            Some(_) => return None,
        }
    }
}

/// [`codes`] of deck cards (as `deck_card` reads them: no start card).
fn deck_cards<const N: usize>(b: &[u8], i: &mut usize) -> Option<ArrayVec<u8, N>> {
    let cards = codes(&names().cards, b, i)?;
    cards.iter().all(|&c| c < DECK_CARDS).then_some(cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reveals, draws and the setup are read by the codes' tables, which need every card and
    /// book to be named by a letter and a number: data that names one otherwise would leave
    /// them all to the full parser (correct, and several times slower).
    #[test]
    fn cards_and_books_are_read_by_their_codes_tables() {
        assert!(names().cards.by_table());
        assert!(names().books.by_table());
    }
}
