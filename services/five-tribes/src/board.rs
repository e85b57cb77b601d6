//! The Sultanate's geometry: 30 tiles in 5 rows of 6, as 30-bit bit boards, and the search
//! that decides whether a meeple move can still be finished legally.
//!
//! Why bit boards: every `pick` and every `drop` must prove that a legal end of the move still
//! exists (otherwise a player could be led into a move that cannot end). With one bit per
//! tile, "where can a walk of k steps without immediate return end?" is four shifts per step,
//! cheap enough to run for every candidate move during move generation; and since the answer
//! depends on the board's shape alone, it is worked out once for every tile, arrival and
//! length, and looked up ([`ends`]).

use crate::ids::Tile;
use arrayvec::ArrayVec;
use std::sync::OnceLock;

pub const ROWS: usize = 5;
pub const COLS: usize = 6;
pub const TILES: usize = ROWS * COLS;
pub const FULL: u32 = (1 << TILES) - 1;
const COL_A: u32 = 0b000001_000001_000001_000001_000001;
const COL_F: u32 = COL_A << (COLS - 1);

/// The four orthogonal directions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    N = 0,
    E = 1,
    S = 2,
    W = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::N => Dir::S,
            Dir::E => Dir::W,
            Dir::S => Dir::N,
            Dir::W => Dir::E,
        }
    }
    /// Every tile of `b` moved one step this way (tiles that would leave the board vanish).
    pub const fn shift(self, b: u32) -> u32 {
        match self {
            Dir::N => b >> COLS,
            Dir::S => (b << COLS) & FULL,
            Dir::E => (b & !COL_F) << 1,
            Dir::W => (b & !COL_A) >> 1,
        }
    }
    /// The direction of the single step from `a` to `b`, if they are orthogonal neighbours.
    pub fn between(a: Tile, b: Tile) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.shift(a.bit()) == b.bit())
    }
}

/// Orthogonal neighbours of `t` as a bit board.
pub const fn neighbours(t: Tile) -> u32 {
    let b = t.bit();
    Dir::N.shift(b) | Dir::E.shift(b) | Dir::S.shift(b) | Dir::W.shift(b)
}

/// `t` and the (up to) 8 tiles around it, diagonals included.
pub const fn block3x3(t: Tile) -> u32 {
    let b = t.bit();
    let row = b | Dir::E.shift(b) | Dir::W.shift(b);
    row | Dir::N.shift(row) | Dir::S.shift(row)
}

/// Orthogonal (Manhattan) distance between two tiles.
pub fn distance(a: Tile, b: Tile) -> u8 {
    a.row().abs_diff(b.row()) + a.col().abs_diff(b.col())
}

/// Sets of tiles a walk can stand on, split by the direction of the last step (so the next
/// step can exclude the immediate return).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Walkers([u32; 4]);

impl Walkers {
    /// A walk standing on `at`, having arrived by `arrived` (`None`: nothing to exclude yet).
    pub fn start(at: Tile, arrived: Option<Dir>) -> Walkers {
        match arrived {
            Some(d) => {
                let mut w = [0; 4];
                w[d as usize] = at.bit();
                Walkers(w)
            }
            // No previous tile: every direction is open. Seed all four with the tile; the
            // exclusion in `step` then removes one direction per copy, and the union over the
            // four copies still allows all four directions.
            None => Walkers([at.bit(); 4]),
        }
    }

    /// Only the walks currently on `mask`.
    pub fn restrict(self, mask: u32) -> Walkers {
        Walkers(self.0.map(|b| b & mask))
    }

    pub fn union(self) -> u32 {
        self.0[0] | self.0[1] | self.0[2] | self.0[3]
    }

    /// One more step, never straight back: a walk that arrived moving south may not move
    /// north next, and so on.
    pub fn step(self) -> Walkers {
        let [n, e, s, w] = self.0;
        Walkers([
            Dir::N.shift(n | e | w),
            Dir::E.shift(n | e | s),
            Dir::S.shift(e | s | w),
            Dir::W.shift(n | s | w),
        ])
    }

    pub fn is_empty(self) -> bool {
        self.union() == 0
    }
}

/// The most steps a move's search follows (more meeples than that in one hand never occur).
const MAX_WALK: usize = 95;

/// The longest walk [`ends`] keeps in its table. Past a few steps, where a walk can end no
/// longer grows: a walk of `k` steps ends where one of `k - 2` does (a step out and back along
/// a detour), so a longer walk is answered by the kept one of its parity (the test
/// `ends_are_where_walks_end` checks this over every walk up to [`MAX_WALK`]).
const TABLE_STEPS: usize = 24;

/// Where a walk of exactly `k` steps from `at`, having arrived by `arrived`, can end (never
/// straight back): the walkers' union after `k` steps, looked up. Those sets depend on the
/// board's shape alone, and [`can_finish`] asks for one at every pick and every drop; walking
/// them out was a fifth of a Five Tribes replay.
pub fn ends(at: Tile, arrived: Option<Dir>, k: usize) -> u32 {
    static TABLE: OnceLock<Box<[u32]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let arrivals = [Some(Dir::N), Some(Dir::E), Some(Dir::S), Some(Dir::W), None];
        let mut t = Vec::with_capacity(TILES * arrivals.len() * (TABLE_STEPS + 1));
        for tile in Tile::all() {
            for a in arrivals {
                let mut w = Walkers::start(tile, a);
                for _ in 0..=TABLE_STEPS {
                    t.push(w.union());
                    w = w.step();
                }
            }
        }
        t.into()
    });
    let k = if k <= TABLE_STEPS {
        k
    } else {
        TABLE_STEPS - (k - TABLE_STEPS) % 2
    };
    let a = arrived.map_or(4, |d| d as usize);
    table
        .get((usize::from(at.0) * 5 + a) * (TABLE_STEPS + 1) + k)
        .copied()
        .unwrap_or(0)
}

/// Can a move standing on `at` (arrived by `arrived`), with `hand[c]` meeples of each colour
/// still to drop, be finished so that the last meeple lands on a tile holding its colour?
///
/// `has[c]` is the bit board of tiles holding at least one meeple of colour `c` now. Meeples
/// are only ever added during a move, so a tile that holds a colour now still does at the end.
/// Ruling 5: a meeple of the last colour dropped on the final tile earlier in the same move
/// counts, which needs a walk that passes the final tile before ending there and two meeples
/// of that colour in hand.
pub fn can_finish(at: Tile, arrived: Option<Dir>, hand: [u8; 5], has: [u32; 5]) -> bool {
    let k: usize = hand.iter().map(|&n| usize::from(n)).sum();
    if k == 0 {
        return false;
    }
    let k = k.min(MAX_WALK);
    let ends = ends(at, arrived, k);
    let mut loop_colours = 0u32;
    for c in 0..5 {
        if hand[c] == 0 {
            continue;
        }
        if ends & has[c] != 0 {
            return true;
        }
        if hand[c] >= 2 {
            loop_colours |= ends & !has[c];
        }
    }
    loop_colours != 0 && finishes_by_a_loop(at, arrived, k, loop_colours)
}

/// The loop case of [`can_finish`]: a walk of `k` steps that ends on one of `targets` having
/// passed it at some earlier step `i` (1 <= i < k), to drop a meeple of the last colour there.
/// Followed step by step, remembering every step (only the steps taken are written).
fn finishes_by_a_loop(at: Tile, arrived: Option<Dir>, k: usize, targets: u32) -> bool {
    let mut steps: ArrayVec<Walkers, { MAX_WALK + 1 }> = ArrayVec::new();
    let mut w = Walkers::start(at, arrived);
    for _ in 0..k {
        steps.push(w);
        w = w.step();
    }
    let mut targets = targets;
    while targets != 0 {
        let t = targets.trailing_zeros();
        targets &= targets - 1;
        let bit = 1u32 << t;
        for (i, walkers) in steps.iter().enumerate().skip(1) {
            let mut w = walkers.restrict(bit);
            if w.is_empty() {
                continue;
            }
            for _ in i..k {
                w = w.step();
            }
            if w.union() & bit != 0 {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        Tile::parse(s).unwrap()
    }

    /// The walkers' union after `k` steps, walked out: what [`ends`] looks up.
    fn walked_ends(at: Tile, arrived: Option<Dir>, k: usize) -> u32 {
        (0..k)
            .fold(Walkers::start(at, arrived), |w, _| w.step())
            .union()
    }

    #[test]
    fn ends_are_where_walks_end() {
        let arrivals = [None, Some(Dir::N), Some(Dir::E), Some(Dir::S), Some(Dir::W)];
        for at in Tile::all() {
            for a in arrivals {
                for k in 0..=MAX_WALK {
                    assert_eq!(ends(at, a, k), walked_ends(at, a, k), "{at} {a:?} {k}");
                }
            }
        }
    }

    /// [`can_finish`], looking its ends up, against the search that walks every step (the
    /// code before the table), on random positions: hands of every size, boards from empty
    /// to crowded.
    #[test]
    fn can_finish_agrees_with_walking_every_step() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let arrivals = [None, Some(Dir::N), Some(Dir::E), Some(Dir::S), Some(Dir::W)];
        let (mut yes, mut no) = (0, 0);
        for _ in 0..40_000 {
            let at = Tile((next() % TILES as u64) as u8);
            let a = arrivals[(next() % 5) as usize];
            let mut hand = [0u8; 5];
            for _ in 0..next() % 9 {
                hand[(next() % 5) as usize] += 1;
            }
            let density = next() % 4;
            let has: [u32; 5] = std::array::from_fn(|_| {
                let mut b = next() as u32 & FULL;
                for _ in 0..density {
                    b &= next() as u32;
                }
                b
            });
            let want = can_finish_by_walking(at, a, hand, has);
            assert_eq!(
                can_finish(at, a, hand, has),
                want,
                "{at} {a:?} {hand:?} {has:?}"
            );
            if want {
                yes += 1;
            } else {
                no += 1;
            }
        }
        assert!(yes > 5_000 && no > 5_000, "both answers tried: {yes} {no}");
    }

    /// Can a move standing on `at` (arrived by `arrived`), with `hand[c]` meeples of each colour
    /// still to drop, be finished so that the last meeple lands on a tile holding its colour?
    ///
    /// `has[c]` is the bit board of tiles holding at least one meeple of colour `c` now. Meeples
    /// are only ever added during a move, so a tile that holds a colour now still does at the end.
    /// Ruling 5: a meeple of the last colour dropped on the final tile earlier in the same move
    /// counts, which needs a walk that passes the final tile before ending there and two meeples
    /// of that colour in hand.
    fn can_finish_by_walking(at: Tile, arrived: Option<Dir>, hand: [u8; 5], has: [u32; 5]) -> bool {
        let k: usize = hand.iter().map(|&n| usize::from(n)).sum();
        if k == 0 {
            return false;
        }
        // Forward pass, remembering every step for the loop case. Only the steps taken are
        // written: this runs for every occupied tile at the start of every turn (is any move
        // left?), and clearing a whole 96-step array each time was most of its cost.
        let mut steps: ArrayVec<Walkers, 96> = ArrayVec::new();
        let k = k.min(steps.capacity() - 1);
        let mut w = Walkers::start(at, arrived);
        steps.push(w);
        for _ in 1..=k {
            w = w.step();
            steps.push(w);
        }
        let ends = w.union();
        let mut loop_colours = 0u32;
        for c in 0..5 {
            if hand[c] == 0 {
                continue;
            }
            if ends & has[c] != 0 {
                return true;
            }
            if hand[c] >= 2 {
                loop_colours |= ends & !has[c];
            }
        }
        // Loop case: end on t, having passed t at some earlier step i (1 <= i < k) to drop a
        // meeple of the last colour there.
        let mut targets = loop_colours;
        while targets != 0 {
            let t = targets.trailing_zeros();
            targets &= targets - 1;
            let bit = 1u32 << t;
            for (i, walkers) in steps.iter().enumerate().take(k).skip(1) {
                let mut w = walkers.restrict(bit);
                if w.is_empty() {
                    continue;
                }
                for _ in i..k {
                    w = w.step();
                }
                if w.union() & bit != 0 {
                    return true;
                }
            }
        }
        false
    }

    #[test]
    fn shifts_stay_on_the_board() {
        assert_eq!(Dir::W.shift(t("a1").bit()), 0);
        assert_eq!(Dir::N.shift(t("c1").bit()), 0);
        assert_eq!(Dir::E.shift(t("f3").bit()), 0);
        assert_eq!(Dir::S.shift(t("b5").bit()), 0);
        assert_eq!(Dir::E.shift(t("a1").bit()), t("b1").bit());
        assert_eq!(Dir::S.shift(t("a1").bit()), t("a2").bit());
        assert_eq!(neighbours(t("a1")), t("b1").bit() | t("a2").bit());
        assert_eq!(neighbours(t("c3")).count_ones(), 4);
        assert_eq!(block3x3(t("a1")).count_ones(), 4);
        assert_eq!(block3x3(t("c3")).count_ones(), 9);
        assert_eq!(block3x3(t("f5")).count_ones(), 4);
        assert_eq!(distance(t("a1"), t("f5")), 9);
    }

    #[test]
    fn walks_never_step_straight_back() {
        // From b1 having arrived from a1 (moving east), one step reaches c1 or b2, not a1.
        let w = Walkers::start(t("b1"), Some(Dir::E)).step();
        assert_eq!(w.union(), t("c1").bit() | t("b2").bit());
        // Two steps from a1 with no previous tile never end back on a1.
        let w2 = Walkers::start(t("a1"), None).step().step();
        assert_eq!(w2.union() & t("a1").bit(), 0);
        // Four steps can come back around a square.
        let w4 = Walkers::start(t("a1"), None).step().step().step().step();
        assert_ne!(w4.union() & t("a1").bit(), 0);
    }

    #[test]
    fn finish_needs_the_colour_at_the_end() {
        let mut has = [0u32; 5];
        // One yellow in hand at b1 (arrived from a1): c1 or b2 must hold a yellow.
        has[0] = t("a1").bit();
        assert!(!can_finish(t("b1"), Some(Dir::E), [1, 0, 0, 0, 0], has));
        has[0] |= t("b2").bit();
        assert!(can_finish(t("b1"), Some(Dir::E), [1, 0, 0, 0, 0], has));
    }

    #[test]
    fn a_loop_lets_the_move_seed_its_own_final_tile() {
        // Five meeples, two of them yellow, no yellow anywhere: walk a1 -> b1 -> b2 -> a2 -> a1
        // -> b1 drops a yellow on b1 first and ends on b1 with the second yellow.
        let has = [0u32; 5];
        assert!(can_finish(t("a1"), None, [2, 3, 0, 0, 0], has));
        // With one meeple of each colour that is impossible: no colour can seed and finish.
        assert!(!can_finish(t("a1"), None, [1, 1, 1, 1, 1], has));
        // Too short for a loop: 2 yellows, 2 steps.
        assert!(!can_finish(t("a1"), None, [2, 0, 0, 0, 0], has));
    }
}
