//! What is on the Sultanate: each tile's kind, meeples, camel, palm trees and palaces, and
//! beside them (outside the position) the bit boards of the tiles holding each colour.
//!
//! Those bit boards are asked for at the start of every turn (is a move left?), for every
//! pick and for every meeple dropped; working them out from the counts each time was a fifth
//! of a replay. So they are kept ([`Kept`]) and every change to the meeples goes through the
//! methods here, which keep them. They are worked out again when a board is read, and in
//! builds with debug assertions (the tests) every read checks them against the counts.
//!
//! Beside them is kept whether any pick can be finished ([`Board::moves_left`]): once a round
//! runs out of moves, every turn asks it at its start and again for its `end`, of the same
//! meeples, and each asking walked every occupied tile.

use crate::board::TILES;
use crate::ids::{Colour, Tile};
use crate::state::{Hand, NOBODY};
use rules_core::Kept;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// What is on the Sultanate. Serialised as its fields (the derive, under `remote = "Self"`,
/// writes `Board::serialize` and `Board::deserialize`; the impls below call them and set the
/// kept bit boards on reading).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct Board {
    /// Tile kind (index into the data's kinds) at each position.
    pub kind: [u8; TILES],
    /// Meeple counts on each tile: read with [`Board::meeples`], changed only through the
    /// methods below, which keep [`Board::has_colour`].
    meeples: [Hand; TILES],
    /// Seat whose camel stands on the tile, or `NOBODY`.
    pub owner: [u8; TILES],
    pub palms: [u8; TILES],
    pub palaces: [u8; TILES],
    /// Bit board of the tiles holding at least one meeple, per colour.
    #[serde(skip)]
    has: Kept<[u32; 5]>,
    /// Whether a pick can be finished from some tile, once asked for the meeples as they are
    /// ([`Board::moves_left`]); forgotten by every change to them.
    #[serde(skip)]
    moves: Kept<Memo>,
}

/// A yes or no kept beside the board once worked out, or not yet known. Set through `&self`
/// (the question is asked while checking a move), so an atomic rather than a `Cell`, as a
/// state is shared between threads: relaxed, since every thread works out the same answer
/// from the same meeples. One byte of three states rather than `rules_core::Memo` (an answer
/// under a key): asked several times an entry, the keyed form cost 6 instructions an entry
/// more in replay.
#[derive(Default)]
struct Memo(AtomicU8);

const UNKNOWN: u8 = 0;
const NO: u8 = 1;
const YES: u8 = 2;

impl Clone for Memo {
    fn clone(&self) -> Memo {
        Memo(AtomicU8::new(self.0.load(Relaxed)))
    }
}

impl Serialize for Board {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Board::serialize(self, serializer)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Board, D::Error> {
        let mut b = Board::deserialize(deserializer)?;
        b.recount();
        Ok(b)
    }
}

impl Board {
    /// The tiles `kind` laid out, with nothing on them.
    pub fn new(kind: [u8; TILES]) -> Board {
        Board {
            kind,
            meeples: [[0; 5]; TILES],
            owner: [NOBODY; TILES],
            palms: [0; TILES],
            palaces: [0; TILES],
            has: Kept([0; 5]),
            moves: Kept::default(),
        }
    }

    /// Meeple counts by colour on every tile.
    pub fn meeples(&self) -> &[Hand; TILES] {
        &self.meeples
    }

    /// Meeple counts by colour on `t`.
    pub fn hand(&self, t: Tile) -> Hand {
        self.meeples[usize::from(t.0)]
    }

    pub fn total(&self, t: Tile) -> u8 {
        self.meeples[usize::from(t.0)].iter().sum()
    }

    pub fn is_empty(&self, t: Tile) -> bool {
        self.total(t) == 0
    }

    /// Bit board of tiles holding at least one meeple of each colour.
    pub fn has_colour(&self) -> [u32; 5] {
        debug_assert_eq!(self.has.0, self.count_colours(), "kept colours out of date");
        self.has.0
    }

    /// Whether a pick can be finished from some tile: `work_out()` the first time it is asked
    /// of the meeples as they are, the answer kept after (and in builds with debug assertions
    /// checked against `work_out()` at every asking).
    pub fn moves_left(&self, work_out: impl FnOnce() -> bool) -> bool {
        let kept = match self.moves.0 .0.load(Relaxed) {
            YES => true,
            NO => false,
            _ => {
                let v = work_out();
                self.moves.0 .0.store(if v { YES } else { NO }, Relaxed);
                return v;
            }
        };
        debug_assert_eq!(kept, work_out(), "kept answer out of date");
        kept
    }

    /// The kept [`Board::moves_left`] forgotten: the meeples change.
    fn forget_moves(&mut self) {
        *self.moves.0 .0.get_mut() = UNKNOWN;
    }

    /// `n` meeples of colour `c` put on `t`.
    pub fn add(&mut self, t: Tile, c: Colour, n: u8) {
        self.forget_moves();
        let i = usize::from(t.0);
        self.meeples[i][c as usize] += n;
        if n > 0 {
            self.has.0[c as usize] |= 1 << i;
        }
    }

    /// One meeple of colour `c` taken from `t` (which holds one).
    pub fn remove(&mut self, t: Tile, c: Colour) {
        self.forget_moves();
        let i = usize::from(t.0);
        let n = &mut self.meeples[i][c as usize];
        *n -= 1;
        if *n == 0 {
            self.has.0[c as usize] &= !(1 << i);
        }
    }

    /// Every meeple of colour `c` taken from `t`: how many there were.
    pub fn take_colour(&mut self, t: Tile, c: Colour) -> u8 {
        self.forget_moves();
        let i = usize::from(t.0);
        self.has.0[c as usize] &= !(1 << i);
        std::mem::take(&mut self.meeples[i][c as usize])
    }

    /// Every meeple taken from `t` (picked up): the hand.
    pub fn take_all(&mut self, t: Tile) -> Hand {
        self.forget_moves();
        let i = usize::from(t.0);
        for h in &mut self.has.0 {
            *h &= !(1 << i);
        }
        std::mem::take(&mut self.meeples[i])
    }

    /// The kept bit boards worked out again from the counts.
    fn recount(&mut self) {
        self.forget_moves();
        self.has = Kept(self.count_colours());
    }

    /// The bit boards of [`Board::has_colour`] from the counts, eight tiles at a time and
    /// branch-free: a tile's five counts are the low bytes of a `u64`; a byte's top bit is
    /// set when its count is not zero (exact for any byte), and moved down to bit `i` of that
    /// byte for the group's `i`-th tile, so that byte `c` of the group's word holds colour
    /// `c` for eight tiles.
    fn count_colours(&self) -> [u32; 5] {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let mut has = [0u32; 5];
        for (g, group) in self.meeples.chunks(8).enumerate() {
            let mut acc = 0u64;
            for (i, m) in group.iter().enumerate() {
                let x = u64::from_le_bytes([m[0], m[1], m[2], m[3], m[4], 0, 0, 0]);
                let nonzero = (((x & LOW7) + LOW7) | x) & HIGH;
                acc |= (nonzero >> 7) << i;
            }
            for (c, h) in has.iter_mut().enumerate() {
                *h |= (((acc >> (8 * c)) & 0xff) as u32) << (8 * g);
            }
        }
        has
    }

    /// A tile with nothing at all on it: no meeple, camel, palm tree or palace.
    pub fn is_bare(&self, t: Tile) -> bool {
        let i = usize::from(t.0);
        self.is_empty(t) && self.owner[i] == NOBODY && self.palms[i] == 0 && self.palaces[i] == 0
    }

    pub fn kind_of(&self, t: Tile) -> &'static crate::data::TileKind {
        &crate::data::components().kinds[usize::from(self.kind[usize::from(t.0)])]
    }

    /// Blue-valued tiles among `mask`.
    pub fn blue_count(&self, mask: u32) -> u32 {
        Tile::all()
            .filter(|t| mask & t.bit() != 0 && self.kind_of(*t).blue)
            .count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether moves are left is worked out the first time it is asked, and again after any
    /// change to the meeples (each method that makes one forgets the kept answer); a clone
    /// keeps what its original knew.
    #[test]
    fn moves_left_is_kept_until_the_meeples_change() {
        let t = Tile(7);
        let mut b = Board::new([0; TILES]);
        let asked = std::cell::Cell::new(0);
        let ask = |b: &Board, v: bool| {
            b.moves_left(|| {
                asked.set(asked.get() + 1);
                v
            })
        };
        assert!(ask(&b, true));
        assert_eq!(asked.get(), 1);
        assert!(ask(&b.clone(), true), "a clone keeps the answer");
        let changes: [fn(&mut Board); 4] = [
            |b| b.add(Tile(7), Colour::Red, 2),
            |b| b.remove(Tile(7), Colour::Red),
            |b| {
                b.take_colour(Tile(7), Colour::Red);
            },
            |b| {
                b.take_all(Tile(7));
            },
        ];
        for (i, change) in changes.iter().enumerate() {
            let before = asked.get();
            change(&mut b);
            // Worked out again after the change: the new answer, whatever the old one was.
            let v = i % 2 == 0;
            assert_eq!(ask(&b, v), v, "change {i}");
            assert!(
                asked.get() > before,
                "change {i} did not forget the kept answer"
            );
        }
        assert_eq!(b.hand(t), [0; 5]);
    }

    /// The counted bit boards against their definition, count by count, on boards of random
    /// counts (any byte, so also counts no real game reaches); and the kept ones, after random
    /// changes through the methods, against the counted ones.
    #[test]
    fn colour_bit_boards_are_the_tiles_holding_each_colour() {
        let mut x = 12_345u64;
        let mut next = move || {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (x >> 56) as u8
        };
        for round in 0..2_000 {
            let mut b = Board::new([0; TILES]);
            for hand in b.meeples.iter_mut() {
                for n in hand.iter_mut() {
                    // Mostly empty or small, as in play; any byte now and then.
                    *n = match next() % 4 {
                        0 | 1 => 0,
                        2 => next() % 4,
                        _ => next(),
                    };
                }
            }
            let mut want = [0u32; 5];
            for (i, hand) in b.meeples.iter().enumerate() {
                for (c, &n) in hand.iter().enumerate() {
                    if n > 0 {
                        want[c] |= 1 << i;
                    }
                }
            }
            assert_eq!(b.count_colours(), want, "round {round}: {:?}", b.meeples);
            b.recount();
            for _ in 0..40 {
                let t = Tile(next() % TILES as u8);
                let c = Colour::ALL[usize::from(next() % 5)];
                match next() % 4 {
                    0 if b.hand(t)[c as usize] < 200 => b.add(t, c, next() % 3),
                    1 if b.hand(t)[c as usize] > 0 => b.remove(t, c),
                    2 => {
                        b.take_colour(t, c);
                    }
                    _ => {
                        b.take_all(t);
                    }
                }
                assert_eq!(b.has.0, b.count_colours(), "round {round}");
            }
        }
    }

    /// A board read back from its serialisation has its bit boards worked out again, and is
    /// written exactly as its fields.
    #[test]
    fn a_board_read_back_has_its_bit_boards() {
        let mut b = Board::new([3; TILES]);
        b.add(Tile(4), Colour::ALL[2], 2);
        b.add(Tile(29), Colour::ALL[0], 1);
        let json = serde_json::to_string(&b).unwrap();
        assert!(!json.contains("has"), "{json}");
        let back: Board = serde_json::from_str(&json).unwrap();
        assert_eq!(back.has_colour(), b.has_colour());
        assert_eq!(back.has_colour()[2], 1 << 4);
    }
}
