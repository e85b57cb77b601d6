//! Component data, read from `data/mombasa/*.json` (embedded at compile time) and checked.
//!
//! The rules code knows *behaviours* (how an expansion spends points, what a bookkeeper
//! does); the data files say *which* components exist and *what* is printed on them (cards,
//! regions and borders, bases and their coins, track spaces, books, bonus spaces and tiles,
//! start tiles, setup counts). A correction is an edit to `data/` alone; [`data_hash`] changes
//! with it so stored games show which data they were played with.
//!
//! Earlier versions live in `data/mombasa/archive/<hash>/` (embedded by `build.rs`), so a game
//! keeps replaying under the data it was recorded with after a correction: the state names its
//! version ([`crate::State::data`]) and every rule reads that version's tables
//! (`versions.rs`).
//!
//! The data is parsed once per version, on first use. It is a build input, not user input: the
//! tests prove every embedded version parses and passes the checks of [`parse_files`], so the
//! `expect` in [`components`] is unreachable in a tested build.

use crate::ids::{Company, Unit, DISPLAY, REGIONS};
use serde::Deserialize;

mod parse;
mod rows;
mod versions;

pub use parse::{parse, parse_files};
pub use versions::{hash_of, version, version_hashes, ARCHIVE};

const CARDS_JSON: &str = include_str!("../../../../data/mombasa/cards.json");
const MAP_JSON: &str = include_str!("../../../../data/mombasa/map.json");
const TRACKS_JSON: &str = include_str!("../../../../data/mombasa/tracks.json");
const BOOKS_JSON: &str = include_str!("../../../../data/mombasa/books.json");
const START_JSON: &str = include_str!("../../../../data/mombasa/start_tiles.json");
const BONUS_JSON: &str = include_str!("../../../../data/mombasa/bonus.json");
const SETUP_JSON: &str = include_str!("../../../../data/mombasa/setup.json");

/// The data files of one version, in [`FILE_NAMES`] order.
pub type Files = [&'static str; 7];

/// The file names of a version, in the order they are hashed (`build.rs` keeps the same list).
pub const FILE_NAMES: [&str; 7] = [
    "cards.json",
    "map.json",
    "tracks.json",
    "books.json",
    "start_tiles.json",
    "bonus.json",
    "setup.json",
];

/// The current data files.
pub const CURRENT: Files = [
    CARDS_JSON,
    MAP_JSON,
    TRACKS_JSON,
    BOOKS_JSON,
    START_JSON,
    BONUS_JSON,
    SETUP_JSON,
];

/// Longest company track, diamond track and bookkeeping track the state can hold.
pub const MAX_TRACK: usize = 24;
/// Most book spaces on a player's bookkeeping track.
pub const MAX_BOOKS: usize = 16;
/// Most bonus spaces on the board.
pub const MAX_BONUS: usize = 8;
/// Start tiles.
pub const START_TILES: usize = 10;

/// The hash of the current data files (see [`hash_of`]), computed once.
pub fn data_hash() -> u64 {
    static H: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *H.get_or_init(|| hash_of(&CURRENT))
}

/// Items marked verified, verified by the rules texts, and reconstructed across all data
/// files: every JSON object with a `reconstructed` field is one item
/// ([`rules_core::DataCoverage::of_json`]).
pub fn coverage() -> rules_core::DataCoverage {
    CURRENT
        .iter()
        .fold(rules_core::DataCoverage::default(), |c, f| {
            c.plus(rules_core::DataCoverage::of_json(f))
        })
}

/// What a card does when used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardKind {
    /// Goods (coffee, banana, cotton) or expansion: `value` units of that kind.
    Units(Unit),
    /// `value` bookkeeping points.
    Bookkeeper,
    /// `value` diamond steps, `pounds`, and one more step per `per_mines` mine icons in the
    /// regions held by `mines` (when given).
    Diamond {
        pounds: u8,
        mines: Option<Company>,
        per_mines: u8,
    },
}

#[derive(Debug, Clone)]
pub struct Card {
    /// The notation code: `A3`, or `S2` / `X` for start cards.
    pub code: String,
    /// Deck letter, 0 = A .. 4 = E; `None` for start cards.
    pub letter: Option<u8>,
    pub kind: CardKind,
    pub value: u8,
    /// The red value.
    pub cost: u8,
    /// Share icons by company.
    pub shares: [u8; 4],
}

/// Something a region, track space or book pays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reward {
    #[serde(default)]
    pub pounds: u8,
    #[serde(default)]
    pub diamonds: u8,
    /// Steps on the track of the company being expanded (regions only).
    #[serde(default)]
    pub track: u8,
    #[serde(default)]
    pub bookkeeping: u8,
    /// Bonus markers gained (company tracks only).
    #[serde(default)]
    pub bonus_marker: u8,
}

#[derive(Debug, Clone)]
pub struct RegionDef {
    pub name: String,
    pub reward: Reward,
    pub mines: u8,
}

#[derive(Debug, Clone)]
pub struct Side {
    pub name: String,
    pub length: u8,
    /// Share icon of each space (0 = none).
    pub shares: Vec<u8>,
    pub rewards: Vec<Reward>,
}

#[derive(Debug, Clone)]
pub struct ValueTrack {
    pub length: u8,
    /// Value printed on each space, if any.
    pub values: Vec<Option<u8>>,
    pub unlock: u8,
}

#[derive(Debug, Clone)]
pub struct Book {
    pub code: String,
    pub letter: u8,
    pub requires: [u8; 4],
    pub reward: Reward,
}

#[derive(Debug, Clone)]
pub struct StartTileDef {
    pub code: String,
    /// Start-card index (0..10) put into rest piles 1, 2, 3.
    pub rest: [u8; 3],
    pub track: Option<(Company, u8)>,
    pub diamonds: u8,
    pub first_game_seat: Option<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BonusKind {
    FirstPlayer { bookkeeping: u8 },
    BuyCard { fee: u8 },
    SellCard { per_red: u8 },
    Majority { of: Unit, steps: u8, tile: u8 },
}

#[derive(Debug, Clone)]
pub struct BonusSpace {
    pub code: String,
    pub kind: BonusKind,
}

#[derive(Debug, Clone)]
pub struct BonusTile {
    pub code: String,
    pub unit: Unit,
    pub value: u8,
}

/// All component data, in the shapes the rules read.
#[derive(Debug, Clone)]
pub struct Components {
    /// Every physical card by [`crate::ids::CardId`].
    pub cards: Vec<Card>,
    /// Deck cards of each letter, as masks over card ids.
    pub letter_mask: [u64; 5],
    pub display_price: [u8; DISPLAY],
    pub regions: Vec<RegionDef>,
    /// Border between two regions: 0 none, 1 single, 2 double.
    pub border: [[u8; REGIONS]; REGIONS],
    /// Border between a company base and a region.
    pub base_border: [[u8; REGIONS]; 4],
    pub first_game_side: [u8; 4],
    pub base_coins: [u8; 5],
    pub base_recoverable: [bool; 5],
    pub sides: Vec<Side>,
    pub diamond: ValueTrack,
    pub diamond_overflow: u8,
    pub bookkeeping: ValueTrack,
    pub slots_start: u8,
    pub books: Vec<Book>,
    pub book_letter_mask: [u128; 3],
    pub book_space_letter: [u8; DISPLAY],
    /// Bookkeeping points a book of each letter costs.
    pub book_cost: [u8; 3],
    pub start_tiles: Vec<StartTileDef>,
    pub bonus: Vec<BonusSpace>,
    pub bonus_tiles: Vec<BonusTile>,
    pub markers_max: u8,
    /// Bonus markers at the start, by player count (index = players).
    pub markers_start: [u8; 5],
    /// Coins on round-track spaces 2..7, by player count.
    pub round_coins: [[u8; 6]; 5],
    pub start_pounds: u8,
    pub rounds: u8,
}

/// The current data, parsed (see the module doc for why `expect` cannot fire). The rules read
/// a game's own version through [`crate::State::data`]; this is for what no game decides: the
/// notation's names (which no correction may change, see `versions.rs`) and new games.
pub fn components() -> &'static Components {
    version(data_hash()).expect("embedded Mombasa data is checked by the data tests")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_data_parses_with_the_texts_counts() {
        let c = parse().unwrap();
        let per_letter: Vec<u32> = c.letter_mask.iter().map(|m| m.count_ones()).collect();
        assert_eq!(per_letter, vec![9, 16, 11, 4, 4]);
        assert_eq!(c.cards.len(), 84);
        assert_eq!(c.books.len(), 72);
        for m in c.book_letter_mask {
            assert_eq!(m.count_ones(), 24);
        }
        for l in 0..3u8 {
            assert_eq!(c.book_space_letter.iter().filter(|&&x| x == l).count(), 4);
        }
        assert_eq!(c.regions.len(), 24);
        assert_eq!(c.round_coins[4].iter().sum::<u8>(), 12);
        assert_eq!(c.round_coins[3].iter().sum::<u8>(), 9);
        assert_eq!(c.round_coins[2].iter().sum::<u8>(), 6);
        assert_eq!(c.markers_start[2], 3);
        assert_eq!(c.rounds, 7);
        // Every region is reachable from every base: the map is connected.
        for b in 0..4 {
            let mut seen = [false; REGIONS];
            let mut stack: Vec<usize> = (0..REGIONS).filter(|&r| c.base_border[b][r] > 0).collect();
            while let Some(r) = stack.pop() {
                if !seen[r] {
                    seen[r] = true;
                    stack.extend((0..REGIONS).filter(|&o| c.border[r][o] > 0));
                }
            }
            assert!(seen.iter().all(|&x| x));
        }
    }

    /// The counts the rules texts state are data items of their own (`counts`, marked
    /// `rules_text`, verified by the text), and the lists of the files must agree with them.
    #[test]
    fn the_counts_the_texts_state_match_the_lists() {
        let c = parse().unwrap();
        let json = |i: usize| -> serde_json::Value { serde_json::from_str(CURRENT[i]).unwrap() };
        let n = |v: &serde_json::Value| v.as_u64().unwrap() as usize;
        let cards = json(0);
        let counts = &cards["counts"];
        assert_eq!(
            n(&counts["action_cards"]),
            usize::from(crate::ids::DECK_CARDS)
        );
        assert_eq!(
            n(&counts["action_cards"]),
            c.letter_mask
                .iter()
                .map(|m| m.count_ones() as usize)
                .sum::<usize>()
        );
        assert_eq!(n(&counts["display_spaces"]), c.display_price.len());
        assert_eq!(
            n(&counts["start_cards_per_seat"]),
            cards["start_deck"].as_array().unwrap().len()
        );
        assert_eq!(
            n(&counts["one_cards"]),
            cards["expansion_one"].as_array().unwrap().len()
        );
        let books = json(3);
        let counts = &books["counts"];
        assert_eq!(n(&counts["books"]), c.books.len());
        assert_eq!(n(&counts["letters"]), c.book_letter_mask.len());
        for m in c.book_letter_mask {
            assert_eq!(
                m.count_ones() as usize,
                n(&counts["books"]) / n(&counts["letters"])
            );
        }
        assert_eq!(n(&counts["display_spaces"]), c.book_space_letter.len());
        for l in 0..3u8 {
            let k = c.book_space_letter.iter().filter(|&&x| x == l).count();
            assert_eq!(k, n(&counts["display_per_letter"]));
        }
        let map = json(1);
        let layout = &map["base_layout"];
        assert_eq!(
            n(&map["posts_per_company"]["value"]),
            n(&layout["columns"]) * n(&layout["spaces_per_column"])
        );
        let starts = json(4);
        assert_eq!(n(&starts["counts"]["tiles"]), START_TILES);
        assert_eq!(n(&starts["counts"]["tiles"]), c.start_tiles.len());
        assert_eq!(n(&starts["counts"]["dealt"]), 2);
        let bonus = json(5);
        assert_eq!(n(&bonus["tile_count"]["value"]), c.bonus_tiles.len());
        let cov = coverage();
        assert!(cov.by_text >= 15 && cov.by_text <= cov.verified, "{cov:?}");
    }

    /// The texts' ranges, for the current data (an archived version may predate a correction):
    /// expansion cards show 1, 2 or 3 helmets (zh action 2), goods cards 1 to 4 units (S1).
    #[test]
    fn card_values_are_within_the_texts_ranges() {
        for card in &parse().unwrap().cards {
            let max = match card.kind {
                CardKind::Units(Unit::Expansion) => 3,
                CardKind::Units(_) => 4,
                _ => continue,
            };
            assert!(
                (1..=max).contains(&card.value),
                "{}: {}",
                card.code,
                card.value
            );
        }
    }

    #[test]
    fn coverage_counts_items() {
        let c = coverage();
        assert!(c.verified > 0 && c.reconstructed > 200, "{c:?}");
        assert!(c.by_text <= c.verified, "{c:?}");
    }
}
