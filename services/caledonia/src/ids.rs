//! Small closed types with stable text forms: goods, units, clans, hexes, contract, port and
//! scoring-tile ids. Notation and data files both speak these names.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($v:ident = $text:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum $name { $($v),* }
        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$v),*];
            pub const fn name(self) -> &'static str {
                match self { $($name::$v => $text),* }
            }
            /// The value named `s`. By a table without a branch on the text (replay reads
            /// one or two of these an entry, and a `match`'s jump on the length was guessed
            /// wrong in about every other one).
            #[inline]
            pub fn parse(s: &str) -> Option<$name> {
                Self::parse_bytes(s.as_bytes())
            }
            /// [`Self::parse`] of bytes (a reader's slice of an entry, not cut at a
            /// character boundary first).
            #[inline]
            pub fn parse_bytes(s: &[u8]) -> Option<$name> {
                static NAMES: rules_core::notation::ShortNames =
                    rules_core::notation::ShortNames::new(&[$($text),*]);
                NAMES.get(s).and_then(Self::from_index)
            }
            pub const fn index(self) -> usize { self as usize }
            pub fn from_index(i: usize) -> Option<$name> { Self::ALL.get(i).copied() }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(self.name()) }
        }
    };
}

named_enum!(
    /// The six market goods; the first three are basic, the last three processed.
    Good { Wool = "wool", Milk = "milk", Grain = "grain", Cheese = "cheese", Bread = "bread", Whisky = "whisky" }
);

impl Good {
    pub const fn processed(self) -> bool {
        matches!(self, Good::Cheese | Good::Bread | Good::Whisky)
    }
}

named_enum!(
    /// Units a player deploys on the map. `Fisherman` is MacDonald's worker on a loch.
    Unit {
        Sheep = "sheep", Cow = "cow", Field = "field", Dairy = "dairy", Bakery = "bakery",
        Distillery = "distillery", Woodcutter = "woodcutter", Miner = "miner", Fisherman = "fisherman",
    }
);

impl Unit {
    /// The good this unit gives a neighbour's bonus purchase (workers give money, nothing to buy).
    pub const fn good(self) -> Option<Good> {
        match self {
            Unit::Sheep => Some(Good::Wool),
            Unit::Cow => Some(Good::Milk),
            Unit::Field => Some(Good::Grain),
            Unit::Dairy => Some(Good::Cheese),
            Unit::Bakery => Some(Good::Bread),
            Unit::Distillery => Some(Good::Whisky),
            _ => None,
        }
    }
    pub const fn worker(self) -> bool {
        matches!(self, Unit::Woodcutter | Unit::Miner | Unit::Fisherman)
    }
    pub const fn factory(self) -> bool {
        matches!(self, Unit::Dairy | Unit::Bakery | Unit::Distillery)
    }
}

named_enum!(
    /// The nine clans (MacEwen is the optional Kickstarter clan).
    Clan {
        Buchanan = "buchanan", Campbell = "campbell", Cunningham = "cunningham",
        Fergusson = "fergusson", MacDonald = "macdonald", MacKenzie = "mackenzie",
        Robertson = "robertson", Stewart = "stewart", MacEwen = "macewen",
    }
);

named_enum!(
    /// Imported goods tracked on the export board's import track.
    Import { Cotton = "cotton", Tobacco = "tobacco", SugarCane = "sugar_cane" }
);

named_enum!(
    /// The two technology tiles.
    Tech { Woodcutter = "woodcutter", Miner = "miner" }
);

/// A map hex: `row * 12 + column`, named by column letter `a`–`l` and row `1`–`10` (`c7`).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Hex(pub u8);

pub const COLS: u8 = 12;
pub const ROWS: u8 = 10;
pub const HEXES: usize = (COLS as usize) * (ROWS as usize);

impl Hex {
    pub const fn col(self) -> u8 {
        self.0 % COLS
    }
    pub const fn row(self) -> u8 {
        self.0 / COLS
    }
    pub const fn at(col: i32, row: i32) -> Option<Hex> {
        if col >= 0 && col < COLS as i32 && row >= 0 && row < ROWS as i32 {
            Some(Hex((row * COLS as i32 + col) as u8))
        } else {
            None
        }
    }
    pub const fn valid(self) -> bool {
        (self.0 as usize) < HEXES
    }
    pub const fn bit(self) -> u128 {
        1u128 << (self.0 as u32 & 127)
    }
    /// A column letter and a row number without a leading zero: `c7`, `l10`.
    #[inline]
    pub fn parse(s: &str) -> Option<Hex> {
        Hex::parse_bytes(s.as_bytes())
    }

    /// [`Hex::parse`] of bytes.
    #[inline]
    pub fn parse_bytes(b: &[u8]) -> Option<Hex> {
        // Both lengths worked out and one picked without a jump (which of `c7` and `l10` an
        // entry names is not something the processor can guess).
        let n = b.len();
        if !(2..=3).contains(&n) {
            return None;
        }
        let first = b[1].wrapping_sub(b'1'); // the row's first digit, 1-9, less one
        let last = b[n - 1].wrapping_sub(b'0'); // its second digit when there are two
        let three = n == 3;
        // Wrapping: worked out before the digits are known to be digits.
        let tens = first.wrapping_add(1);
        let row = if three {
            tens.wrapping_mul(10).wrapping_add(last)
        } else {
            tens
        };
        if (first > 8) | (three & (last > 9)) {
            return None;
        }
        let col = b[0].wrapping_sub(b'a');
        Hex::at(i32::from(col), i32::from(row) - 1)
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = char::from(b'a' + self.col());
        write!(f, "{}{}", col, self.row() + 1)
    }
}

/// An export contract tile, 1–50 (the reference's stable keys, not printed numbers).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct ContractId(pub u8);

/// A port tile, 1–8, and 9 for the Kickstarter port.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PortId(pub u8);

/// A round scoring tile, 1–8, and 9 for the Kickstarter tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TileId(pub u8);

/// The Kickstarter port's id.
pub const KS_PORT: PortId = PortId(9);

impl ContractId {
    /// How many contracts the game has (`contracts.json`, checked at load).
    pub const COUNT: u8 = 50;
    /// The contract numbered `n`, when a contract has that number at all (1–50): the notation
    /// refuses any other number wherever it is written, as it names no contract.
    pub const fn named(n: u8) -> Option<ContractId> {
        if n >= 1 && n <= ContractId::COUNT {
            Some(ContractId(n))
        } else {
            None
        }
    }
}

impl PortId {
    /// The port numbered `n`, when a port tile has that number at all (1–9, 9 the
    /// Kickstarter port, whether in play or not).
    pub const fn named(n: u8) -> Option<PortId> {
        if n >= 1 && n <= KS_PORT.0 {
            Some(PortId(n))
        } else {
            None
        }
    }
}

impl TileId {
    /// The scoring tile numbered `n`, when a tile has that number at all (1–9, 9 the
    /// Kickstarter tile).
    pub const fn named(n: u8) -> Option<TileId> {
        if n >= 1 && n <= 9 {
            Some(TileId(n))
        } else {
            None
        }
    }
}

/// Iterates the set bits of a hex mask, lowest first.
pub fn bits(mut m: u128) -> impl Iterator<Item = Hex> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros();
            m &= m - 1;
            Some(Hex(i as u8))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_names_round_trip() {
        for i in 0..HEXES as u8 {
            let h = Hex(i);
            assert_eq!(Hex::parse(&h.to_string()), Some(h));
        }
        for bad in ["", "m1", "a0", "a11", "a01", "A1", "a", "a1x", "é1"] {
            assert_eq!(Hex::parse(bad), None, "{bad}");
        }
    }

    /// Each enum's `parse` (a table, not a `match`) reads exactly its names: every name, and
    /// for every text near one (a byte changed, dropped or added, the case changed, another
    /// enum's names) what comparing with each name in turn gives.
    #[test]
    fn names_parse_as_comparing_with_every_name_would() {
        fn check<T: Copy + PartialEq + std::fmt::Debug>(
            all: &[T],
            name: fn(T) -> &'static str,
            parse: fn(&str) -> Option<T>,
            others: &[&str],
        ) {
            let by_comparing = |s: &str| all.iter().copied().find(|&v| name(v) == s);
            let mut texts: Vec<String> = others.iter().map(|s| s.to_string()).collect();
            for &v in all {
                let n = name(v);
                texts.push(n.to_string());
                texts.push(n.to_uppercase());
                texts.push(format!("{n}s"));
                texts.push(format!(" {n}"));
                for i in 0..n.len() {
                    texts.push(format!("{}{}", &n[..i], &n[i + 1..]));
                    for b in [b'a', b'e', b'z', b'_', b'0', 0] {
                        let mut t = n.as_bytes().to_vec();
                        t[i] = b;
                        texts.push(String::from_utf8(t).expect("ascii"));
                    }
                }
            }
            for t in &texts {
                assert_eq!(parse(t), by_comparing(t), "{t:?}");
            }
        }
        let others: Vec<&str> = [Good::ALL.iter().map(|g| g.name()).collect::<Vec<_>>()]
            .into_iter()
            .chain([Unit::ALL.iter().map(|u| u.name()).collect()])
            .chain([Clan::ALL.iter().map(|c| c.name()).collect()])
            .chain([vec![
                "",
                "a",
                "é",
                "woodcutters",
                "macdonalds",
                "sugar cane",
            ]])
            .flatten()
            .collect();
        check(Good::ALL, Good::name, Good::parse, &others);
        check(Unit::ALL, Unit::name, Unit::parse, &others);
        check(Clan::ALL, Clan::name, Clan::parse, &others);
        check(Import::ALL, Import::name, Import::parse, &others);
        check(Tech::ALL, Tech::name, Tech::parse, &others);
    }

    #[test]
    fn only_hex_names_parse_as_hexes() {
        let names: std::collections::HashSet<String> =
            (0..HEXES as u8).map(|i| Hex(i).to_string()).collect();
        let alphabet = ["a", "l", "m", "0", "1", "9", "é", "\0", " "];
        for a in alphabet {
            for b in alphabet {
                for c in ["", "0", "1", "a", "é"] {
                    let s = format!("{a}{b}{c}");
                    assert_eq!(Hex::parse(&s).is_some(), names.contains(&s), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn names_parse_to_their_values_and_nothing_else_does() {
        for g in Good::ALL {
            assert_eq!(Good::parse(g.name()), Some(*g));
            assert_eq!(Good::parse(&format!("{}\0", g.name())), None);
        }
        for u in Unit::ALL {
            assert_eq!(Unit::parse(u.name()), Some(*u));
        }
        for c in Clan::ALL {
            assert_eq!(Clan::parse(c.name()), Some(*c));
        }
        for bad in ["", "Wool", "woo", "wool ", "sugar_cane_and_more_words"] {
            assert_eq!(Good::parse(bad), None, "{bad:?}");
            assert_eq!(Import::parse(bad), None, "{bad:?}");
        }
        assert_eq!(Import::parse("sugar_cane"), Some(Import::SugarCane));
    }
}
