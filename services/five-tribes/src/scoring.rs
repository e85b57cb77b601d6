//! Final scoring, as on the score sheet: gold, viziers (+10 per opponent with fewer), elders,
//! djinns, palm trees and palaces on one's tiles, tile values, merchandise sets — with the
//! end-game djinns Al-Amin, Haurvatat, Jafaar and Shamhat.

use crate::data::components;
use crate::ids::{Djinn, Tile};
use crate::market::goods_value_with_wilds;
use crate::state::State;
use rules_core::{Outcome, Seat, SeatScore};

/// The categories of the breakdown, in score-sheet order.
pub const CATEGORIES: [&str; 9] = [
    "gold",
    "viziers",
    "vizier_majority",
    "elders",
    "djinns",
    "palms",
    "palaces",
    "tiles",
    "merchandise",
];

impl State {
    /// One seat's score as it would stand if the game ended now.
    pub fn seat_score(&self, seat: u8) -> SeatScore {
        let parts = self.score_parts(seat);
        SeatScore::new(
            Seat(seat),
            CATEGORIES.into_iter().zip(parts).collect(),
            None,
        )
    }

    /// [`State::seat_score`]'s total alone, without its breakdown's allocation: the position
    /// index asks for it at every ply of every game it indexes.
    pub fn seat_total(&self, seat: u8) -> i32 {
        self.score_parts(seat).iter().sum()
    }

    /// The points of each of [`CATEGORIES`], in that order.
    fn score_parts(&self, seat: u8) -> [i32; 9] {
        let sc = components().scoring;
        let p = self.player(seat);
        let has = |d: Djinn| p.djinns.has(d);
        let fewer = self
            .seats
            .iter()
            .enumerate()
            .filter(|&(o, q)| o != usize::from(seat) && q.viziers < p.viziers)
            .count();
        let (mut palms, mut palaces, mut tiles) = (0i32, 0i32, 0i32);
        for t in Tile::all() {
            let i = usize::from(t.0);
            if self.board.owner[i] == seat {
                palms += i32::from(self.board.palms[i]);
                palaces += i32::from(self.board.palaces[i]);
                tiles += i32::from(self.board.kind_of(t).vp);
            }
        }
        let mut goods = [0u8; 9];
        goods.copy_from_slice(&p.cards[..9]);
        let wilds = if has(Djinn::AlAmin) {
            p.fakirs() / 2
        } else {
            0
        };
        // In the order of CATEGORIES.
        let pick = |with: bool, special: i32, usual: i32| if with { special } else { usual };
        [
            p.gold as i32 * sc.gold,
            i32::from(p.viziers) * pick(has(Djinn::Jafaar), sc.jafaar_vizier, sc.vizier),
            fewer as i32 * sc.vizier_majority_per_opponent,
            i32::from(p.elders) * pick(has(Djinn::Shamhat), sc.shamhat_elder, sc.elder),
            p.djinns.iter().map(|d| i32::from(d.vp())).sum(),
            palms * pick(has(Djinn::Haurvatat), sc.haurvatat_palm, sc.palm),
            palaces * sc.palace,
            tiles,
            goods_value_with_wilds(&goods, wilds) as i32,
        ]
    }

    /// Every seat's score as it stands. Before the deal there are no seats yet (the deal
    /// creates them), so there are no scores either.
    pub fn scores(&self) -> Vec<SeatScore> {
        (0..self.seats.len() as u8)
            .map(|s| self.seat_score(s))
            .collect()
    }

    /// Final scores; ties share the victory (Ruling 16).
    pub fn outcome(&self) -> Option<Outcome> {
        matches!(self.phase, crate::state::Phase::Over).then(|| Outcome::from_scores(self.scores()))
    }
}
