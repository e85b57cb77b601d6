//! Small closed types: board positions, meeple colours, resource cards, djinns, tile types.
//! Each has a short text form used by the notation.

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// A board position, `0..30`, row-major from the top-left. Text form: column `a`–`f`, then
/// row `1`–`5`, e.g. `a1` (top-left), `f5` (bottom-right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile(pub u8);

impl Tile {
    pub const fn row(self) -> u8 {
        self.0 / crate::board::COLS as u8
    }
    pub const fn col(self) -> u8 {
        self.0 % crate::board::COLS as u8
    }
    pub const fn bit(self) -> u32 {
        1 << self.0
    }
    pub fn all() -> impl Iterator<Item = Tile> {
        (0..crate::board::TILES as u8).map(Tile)
    }
    pub fn parse(s: &str) -> Option<Tile> {
        match *s.as_bytes() {
            [col, row] => Tile::from_bytes(col, row),
            _ => None,
        }
    }

    /// The tile written with the bytes `col` (`a`..) and `row` (`1`..).
    #[inline]
    pub fn from_bytes(col: u8, row: u8) -> Option<Tile> {
        let col = col.checked_sub(b'a')?;
        let row = row.checked_sub(b'1')?;
        if usize::from(col) >= crate::board::COLS || usize::from(row) >= crate::board::ROWS {
            return None;
        }
        Some(Tile(row * crate::board::COLS as u8 + col))
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

impl Serialize for Tile {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A meeple's colour, which is its tribe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Colour {
    /// Viziers.
    Yellow = 0,
    /// Elders.
    White = 1,
    /// Merchants.
    Green = 2,
    /// Builders.
    Blue = 3,
    /// Assassins.
    Red = 4,
}

impl Colour {
    pub const ALL: [Colour; 5] = [
        Colour::Yellow,
        Colour::White,
        Colour::Green,
        Colour::Blue,
        Colour::Red,
    ];
    pub const fn letter(self) -> char {
        match self {
            Colour::Yellow => 'Y',
            Colour::White => 'W',
            Colour::Green => 'G',
            Colour::Blue => 'B',
            Colour::Red => 'R',
        }
    }
    pub fn from_letter(c: char) -> Option<Colour> {
        // A table, not a search of `ALL` or a `match`: replay reads a meeple's letter in most
        // entries, and the colours come in no order a branch predictor could learn.
        const BY_LETTER: [u8; 128] = {
            let mut t = [0u8; 128];
            let mut i = 0;
            while i < Colour::ALL.len() {
                t[Colour::ALL[i].letter() as usize] = i as u8 + 1;
                i += 1;
            }
            t
        };
        let i = *BY_LETTER.get(c as usize)?;
        Colour::ALL.get(usize::from(i).checked_sub(1)?).copied()
    }
    pub const fn tribe(self) -> &'static str {
        match self {
            Colour::Yellow => "vizier",
            Colour::White => "elder",
            Colour::Green => "merchant",
            Colour::Blue => "builder",
            Colour::Red => "assassin",
        }
    }
}

impl Serialize for Colour {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.tribe())
    }
}

/// A resource card type, `0..10`: nine merchandise types, then the Fakir (index 9).
/// Text form: the two-letter code from `data/five-tribes/resources.json` (`iv`, ..., `fk`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Res(pub u8);

impl Res {
    pub const FAKIR: Res = Res(9);
    pub const COUNT: usize = 10;
    pub fn code(self) -> &'static str {
        crate::data::components().card_codes[usize::from(self.0)].as_str()
    }
    pub fn from_code(s: &str) -> Option<Res> {
        // Indexed once: card codes are read for every card of every draw in a replay.
        static CODES: std::sync::OnceLock<rules_core::notation::NameIndex> =
            std::sync::OnceLock::new();
        CODES
            .get_or_init(|| {
                rules_core::notation::NameIndex::new(
                    crate::data::components()
                        .card_codes
                        .iter()
                        .map(String::as_str),
                )
            })
            .get(s)
            .map(Res)
    }
    pub const fn is_fakir(self) -> bool {
        self.0 == 9
    }
}

impl Serialize for Res {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// The five tile types; each has its own action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TileType {
    LargeMarket,
    SmallMarket,
    Oasis,
    Village,
    SacredPlace,
}

macro_rules! djinns {
    ($($v:ident = $slug:literal),* $(,)?) => {
        /// The 22 djinns of the base game. Their VP and costs come from data; their powers are
        /// code, keyed by the slug (the data file's `id`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Djinn { $($v),* }
        impl Djinn {
            pub const ALL: [Djinn; 22] = [$(Djinn::$v),*];
            pub const fn slug(self) -> &'static str {
                match self { $(Djinn::$v => $slug),* }
            }
            pub fn from_slug(s: &str) -> Option<Djinn> {
                match s { $($slug => Some(Djinn::$v),)* _ => None }
            }
        }
    };
}

djinns! {
    AlAmin = "al-amin",
    AnunNak = "anun-nak",
    Baal = "baal",
    Boaz = "boaz",
    Bouraq = "bouraq",
    Echidna = "echidna",
    Enki = "enki",
    Hagis = "hagis",
    Haurvatat = "haurvatat",
    Iblis = "iblis",
    Jafaar = "jafaar",
    Kandicha = "kandicha",
    Kumarbi = "kumarbi",
    Lamia = "lamia",
    Leta = "leta",
    Marid = "marid",
    Monkir = "monkir",
    Nekir = "nekir",
    Shamhat = "shamhat",
    Sibittis = "sibittis",
    Sloar = "sloar",
    Utug = "utug",
}

impl Djinn {
    pub const fn bit(self) -> u32 {
        1 << (self as u32)
    }
    pub fn vp(self) -> u8 {
        crate::data::components().djinns[self as usize].vp
    }
    pub fn cost(self) -> crate::data::DjinnCost {
        crate::data::components().djinns[self as usize].cost
    }
    pub fn from_index(i: u32) -> Option<Djinn> {
        Djinn::ALL.get(i as usize).copied()
    }
}

impl fmt::Display for Djinn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

impl Serialize for Djinn {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.slug())
    }
}

/// A set of djinns as a bit mask (bit = `Djinn as u32`); serialised as that number.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DjinnSet(pub u32);

impl DjinnSet {
    pub const ALL: DjinnSet = DjinnSet((1 << 22) - 1);
    pub const fn has(self, d: Djinn) -> bool {
        self.0 & d.bit() != 0
    }
    pub fn insert(&mut self, d: Djinn) {
        self.0 |= d.bit();
    }
    pub fn remove(&mut self, d: Djinn) {
        self.0 &= !d.bit();
    }
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Djinn> {
        Djinn::ALL.into_iter().filter(move |d| self.has(*d))
    }
}

/// Deserialises the text forms that `Serialize` writes (used by snapshots).
macro_rules! from_text {
    ($t:ty, $what:literal, $parse:expr) => {
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                let parse: fn(&str) -> Option<$t> = $parse;
                parse(&s).ok_or_else(|| de::Error::custom(concat!("not a ", $what)))
            }
        }
    };
}

from_text!(Tile, "tile", Tile::parse);
from_text!(Res, "resource card", Res::from_code);
from_text!(Djinn, "djinn", Djinn::from_slug);
from_text!(Colour, "meeple colour", |s| Colour::ALL
    .into_iter()
    .find(|c| c.tribe() == s));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_letters_round_trip_and_nothing_else_is_a_colour() {
        for c in Colour::ALL {
            assert_eq!(Colour::from_letter(c.letter()), Some(c));
        }
        let letters: Vec<char> = Colour::ALL.iter().map(|c| c.letter()).collect();
        for x in (0u8..=255).map(char::from).filter(|x| !letters.contains(x)) {
            assert_eq!(Colour::from_letter(x), None, "{x:?}");
        }
    }

    #[test]
    fn tile_text_round_trips() {
        for t in Tile::all() {
            assert_eq!(Tile::parse(&t.to_string()), Some(t));
        }
        assert_eq!(Tile(0).to_string(), "a1");
        assert_eq!(Tile(29).to_string(), "f5");
        for bad in ["", "a", "g1", "a6", "a0", "A1", "a11", "é1"] {
            assert_eq!(Tile::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn djinn_slugs_round_trip() {
        for d in Djinn::ALL {
            assert_eq!(Djinn::from_slug(d.slug()), Some(d));
        }
    }

    #[test]
    fn resource_codes_round_trip() {
        for i in 0..10 {
            assert_eq!(Res::from_code(Res(i).code()), Some(Res(i)));
        }
        assert_eq!(Res::FAKIR.code(), "fk");
    }
}
