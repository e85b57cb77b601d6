//! The position features Five Tribes declares for position queries: what a player asks of a
//! position ("five viziers in round three") as numbers, one block per seat.
//!
//! Gold is among them: the index holds finished games only, where nothing is secret any more.

use crate::ids::{Res, Tile};
use crate::state::State;
use rules_core::{FeatureSchema, Features};

/// Phases, in the order `FiveTribes::phase` names them.
pub const PHASES: &[&str] = &["deal", "bid", "turn", "refill", "over"];

/// Game-wide features.
pub const GLOBAL: &[&str] = &["bag", "palms_left", "palaces_left", "djinns_shown"];

/// Features of each seat.
pub const SEAT: &[&str] = &[
    "gold",
    "viziers",
    "elders",
    "fakirs",
    "cards",
    "djinns",
    "tiles",
    "palms",
    "palaces",
    "camels_left",
    "score",
];

pub const SCHEMA: FeatureSchema = FeatureSchema {
    phases: PHASES,
    global: GLOBAL,
    seat: SEAT,
};

impl State {
    /// Fills `out` in [`SCHEMA`] order.
    pub fn features(&self, out: &mut Features) {
        out.global.extend([
            self.bag.iter().map(|&n| i64::from(n)).sum(),
            i64::from(self.palms_left),
            i64::from(self.palaces_left),
            self.djinn_row.len() as i64,
        ]);
        for seat in 0..self.players {
            // Before the deal no seat has holdings yet: its block is zeros.
            let Some(p) = self.seats.get(usize::from(seat)) else {
                out.seats.extend(std::iter::repeat_n(0, SEAT.len()));
                continue;
            };
            let (mut tiles, mut palms, mut palaces) = (0i64, 0i64, 0i64);
            for t in Tile::all() {
                let i = usize::from(t.0);
                if self.board.owner[i] == seat {
                    tiles += 1;
                    palms += i64::from(self.board.palms[i]);
                    palaces += i64::from(self.board.palaces[i]);
                }
            }
            let cards: i64 = p.cards[..Res::FAKIR.0 as usize]
                .iter()
                .map(|&n| i64::from(n))
                .sum();
            out.seats.extend([
                i64::from(p.gold),
                i64::from(p.viziers),
                i64::from(p.elders),
                i64::from(p.fakirs()),
                cards,
                p.djinns.iter().count() as i64,
                tiles,
                palms,
                palaces,
                i64::from(p.camels),
                i64::from(self.seat_total(seat)),
            ]);
        }
    }
}
