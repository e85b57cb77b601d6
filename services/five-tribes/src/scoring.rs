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
        let breakdown = vec![
            ("gold", p.gold as i32 * sc.gold),
            (
                "viziers",
                i32::from(p.viziers)
                    * if has(Djinn::Jafaar) {
                        sc.jafaar_vizier
                    } else {
                        sc.vizier
                    },
            ),
            (
                "vizier_majority",
                fewer as i32 * sc.vizier_majority_per_opponent,
            ),
            (
                "elders",
                i32::from(p.elders)
                    * if has(Djinn::Shamhat) {
                        sc.shamhat_elder
                    } else {
                        sc.elder
                    },
            ),
            ("djinns", p.djinns.iter().map(|d| i32::from(d.vp())).sum()),
            (
                "palms",
                palms
                    * if has(Djinn::Haurvatat) {
                        sc.haurvatat_palm
                    } else {
                        sc.palm
                    },
            ),
            ("palaces", palaces * sc.palace),
            ("tiles", tiles),
            ("merchandise", goods_value_with_wilds(&goods, wilds) as i32),
        ];
        SeatScore::new(Seat(seat), breakdown, None)
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
