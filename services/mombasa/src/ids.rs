//! Identifiers of Mombasa's components, each a small newtype or closed enum with a stable
//! text form (the notation's vocabulary).
//!
//! Cards have two ids: [`CardId`] names a physical card (44 deck cards, then 10 cards of each
//! seat's colour), [`CardRef`] names a card as its holder says it in a move (`A3`, or `S2` /
//! `X` for one's own start cards), so that moves read the same whoever plays them.

use serde::{Deserialize, Serialize};

/// Most seats at the table.
pub const MAX_SEATS: usize = 4;
/// Cards of the action deck (letters A–E).
pub const DECK_CARDS: u8 = 44;
/// Cards of one seat's colour: 9 start cards and the expansion "1" card.
pub const OWN_CARDS: u8 = 10;
/// Every physical card.
pub const ALL_CARDS: u8 = DECK_CARDS + OWN_CARDS * MAX_SEATS as u8;
/// Action slots (and rest piles) at most.
pub const SLOTS: usize = 5;
/// Spaces of the card display and of the book display.
pub const DISPLAY: usize = 12;
/// Spaces of a seat's bookkeeping track that hold books (MB7): the positions of `flip`.
pub const BOOK_SPACES: usize = 10;
/// Regions of the map.
pub const REGIONS: usize = 24;
/// Columns of a company base.
pub const COLUMNS: usize = 3;
/// "No one" / "nothing" in a `u8` slot.
pub const NONE: u8 = u8::MAX;

/// The four chartered companies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Company {
    Mombasa,
    CapeTown,
    SaintLouis,
    Cairo,
}

impl Company {
    pub const ALL: [Company; 4] = [
        Company::Mombasa,
        Company::CapeTown,
        Company::SaintLouis,
        Company::Cairo,
    ];
    /// The notation code.
    pub const fn code(self) -> &'static str {
        match self {
            Company::Mombasa => "mom",
            Company::CapeTown => "cpt",
            Company::SaintLouis => "stl",
            Company::Cairo => "cai",
        }
    }
    /// The id used in the data files and in score categories.
    pub const fn slug(self) -> &'static str {
        match self {
            Company::Mombasa => "mombasa",
            Company::CapeTown => "capetown",
            Company::SaintLouis => "saintlouis",
            Company::Cairo => "cairo",
        }
    }
    pub fn from_code(s: &str) -> Option<Company> {
        // A match (a length and a comparison or two), not a search of `ALL`: replay reads a
        // company in one move in ten.
        match s {
            "mom" => Some(Company::Mombasa),
            "cpt" => Some(Company::CapeTown),
            "stl" => Some(Company::SaintLouis),
            "cai" => Some(Company::Cairo),
            _ => None,
        }
    }
    pub fn from_slug(s: &str) -> Option<Company> {
        Company::ALL.into_iter().find(|c| c.slug() == s)
    }
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// What a card or tile counts as: one of the three goods, or expansion (helmets). Book
/// requirements and majority spaces are stated in these units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Unit {
    Coffee,
    Banana,
    Cotton,
    Expansion,
}

impl Unit {
    pub const ALL: [Unit; 4] = [Unit::Coffee, Unit::Banana, Unit::Cotton, Unit::Expansion];
    pub const GOODS: [Unit; 3] = [Unit::Coffee, Unit::Banana, Unit::Cotton];
    pub const fn code(self) -> &'static str {
        match self {
            Unit::Coffee => "coffee",
            Unit::Banana => "banana",
            Unit::Cotton => "cotton",
            Unit::Expansion => "expansion",
        }
    }
    pub fn from_code(s: &str) -> Option<Unit> {
        // A match, not a search of `ALL` (replay reads a good in every `goods` move).
        match s {
            "coffee" => Some(Unit::Coffee),
            "banana" => Some(Unit::Banana),
            "cotton" => Some(Unit::Cotton),
            "expansion" => Some(Unit::Expansion),
            _ => None,
        }
    }
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn is_good(self) -> bool {
        !matches!(self, Unit::Expansion)
    }
}

/// A physical card: `0..44` the action deck, then 10 per seat (`44 + 10·seat + k`, `k = 9`
/// being the seat's expansion "1" card).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CardId(pub u8);

impl CardId {
    pub const fn bit(self) -> u128 {
        1u128 << (self.0 as u32 & 127)
    }
    /// The seat whose colour the card has, for start cards.
    pub const fn owner(self) -> Option<u8> {
        if self.0 < DECK_CARDS {
            None
        } else {
            Some((self.0 - DECK_CARDS) / OWN_CARDS)
        }
    }
    /// How the card's holder names it.
    pub const fn as_ref(self) -> CardRef {
        if self.0 < DECK_CARDS {
            CardRef(self.0)
        } else {
            CardRef(DECK_CARDS + (self.0 - DECK_CARDS) % OWN_CARDS)
        }
    }
}

/// A card as a move names it: a deck card (`0..44`) or one of the mover's own cards
/// (`44 + k`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CardRef(pub u8);

impl CardRef {
    /// The physical card `seat` means, or `None` for an id out of range.
    pub const fn resolve(self, seat: u8) -> Option<CardId> {
        if self.0 < DECK_CARDS {
            Some(CardId(self.0))
        } else if self.0 < DECK_CARDS + OWN_CARDS && (seat as usize) < MAX_SEATS {
            Some(CardId(
                DECK_CARDS + seat * OWN_CARDS + (self.0 - DECK_CARDS),
            ))
        } else {
            None
        }
    }
}

/// A book tile, `0..72`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BookId(pub u8);

/// A region of the map, `0..24` (notation `1..24`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Region(pub u8);

/// A start tile, `0..10` (notation `T1..T10`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StartTile(pub u8);

/// A card display space, `0..12` = column (left, middle, right) × 4 + row; notation `L1..R4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DisplayPos(pub u8);

impl DisplayPos {
    /// The order the display is filled: right column top to bottom, then middle, then left.
    pub const FILL_ORDER: [u8; DISPLAY] = [8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3];
    pub fn code(self) -> String {
        let col = ["L", "M", "R"].get(usize::from(self.0 / 4)).unwrap_or(&"?");
        format!("{col}{}", self.0 % 4 + 1)
    }
    pub fn parse(s: &str) -> Option<DisplayPos> {
        let &[col, row @ b'1'..=b'4'] = s.as_bytes() else {
            return None;
        };
        let col = match col {
            b'L' => 0,
            b'M' => 1,
            b'R' => 2,
            _ => return None,
        };
        Some(DisplayPos(col * 4 + row - b'1'))
    }
}

/// A book display space, `0..12` = (round-track column − 2) × 2 + row; notation `2a..7b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BookSpace(pub u8);

impl BookSpace {
    pub fn code(self) -> String {
        let row = if self.0.is_multiple_of(2) { 'a' } else { 'b' };
        format!("{}{row}", self.0 / 2 + 2)
    }
    pub fn parse(s: &str) -> Option<BookSpace> {
        let &[col @ b'2'..=b'7', row] = s.as_bytes() else {
            return None;
        };
        let row = match row {
            b'a' => 0,
            b'b' => 1,
            _ => return None,
        };
        Some(BookSpace((col - b'2') * 2 + row))
    }
}

/// Iterates the set bits of a mask, lowest first.
pub fn bits(mut m: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(b)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn company_codes_round_trip_and_nothing_else_is_a_company() {
        for c in Company::ALL {
            assert_eq!(Company::from_code(c.code()), Some(c));
        }
        for x in ["", "Mom", "mo", "momb", "cai ", "stl\0"] {
            assert_eq!(Company::from_code(x), None, "{x:?}");
        }
    }
}
