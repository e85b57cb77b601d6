//! Scoring: the round tile's glory after production, and the final score sheet (glory,
//! goods, money, hops, imports by rarity, export and settlement majorities).

use crate::data::{components, Condition};
use crate::ids::{Good, Unit};
use crate::map::Mode;
use crate::state::{Player, State};
use rules_core::{Outcome, Seat, SeatScore};

/// Majority points: seats with 0 never place (Ruling C7); tied seats add the points of the
/// places they fill and share them, rounding down.
pub fn majority(values: &[u32], table: &[i32]) -> Vec<i32> {
    let mut out = vec![0; values.len()];
    let mut ranked: Vec<usize> = (0..values.len()).filter(|&i| values[i] > 0).collect();
    ranked.sort_by(|&a, &b| values[b].cmp(&values[a]));
    let mut place = 0;
    while place < ranked.len() {
        let v = values[ranked[place]];
        let tied: Vec<usize> = ranked[place..]
            .iter()
            .copied()
            .take_while(|&i| values[i] == v)
            .collect();
        let pts: i32 = (place..place + tied.len())
            .map(|p| table.get(p).copied().unwrap_or(0))
            .sum();
        for &i in &tied {
            out[i] = pts / tied.len() as i32;
        }
        place += tied.len();
    }
    out
}

/// Solo: the best threshold reached.
fn threshold(value: u32, table: &[[i32; 2]]) -> i32 {
    table
        .iter()
        .find(|[t, _]| i64::from(value) >= i64::from(*t))
        .map_or(0, |[_, p]| *p)
}

impl State {
    fn processed(p: &Player) -> u32 {
        let g = &p.goods;
        let cellar: u32 = p.cellar.iter().map(|&b| u32::from(b)).sum();
        u32::from(g[3]) + u32::from(g[4]) + u32::from(g[5]) + cellar
    }

    /// Glory the current round's tile gives `p`.
    pub fn round_glory(&self, p: &Player, tile_index: usize) -> u32 {
        let c = components();
        let Some(tile) = self
            .tiles
            .get(tile_index)
            .and_then(|t| c.tiles.get(usize::from(t.0).wrapping_sub(1)))
        else {
            return 0;
        };
        let m = self.map();
        let units = p.all_units();
        let count = |u: Unit| p.unit_count(u);
        let n = match tile.condition {
            Condition::Basic => p.goods[..3].iter().map(|&x| u32::from(x)).sum(),
            Condition::Processed => Self::processed(p),
            Condition::Production => {
                let per_unit: u32 = [
                    Unit::Sheep,
                    Unit::Cow,
                    Unit::Dairy,
                    Unit::Bakery,
                    Unit::Distillery,
                ]
                .into_iter()
                .map(count)
                .sum();
                return per_unit * u32::from(tile.glory)
                    + count(Unit::Field) * u32::from(tile.field_glory);
            }
            Condition::Workers => {
                count(Unit::Woodcutter) + count(Unit::Miner) + count(Unit::Fisherman)
            }
            Condition::Border => (units & m.border).count_ones(),
            Condition::Imports => p.imports.iter().map(|&x| u32::from(x)).sum(),
            Condition::Meat => u32::from(p.meat),
            Condition::Upgrades => {
                let spots = components().merchants.track_spots;
                u32::from(p.shipping)
                    + u32::from(spots.saturating_sub(p.merchants_track))
                    + p.tech.iter().filter(|&&t| t).count() as u32
            }
            Condition::Expensive => crate::ids::bits(units)
                .filter(|h| m.cost[usize::from(h.0)] >= 5)
                .count() as u32,
        };
        (n / u32::from(tile.per)) * u32::from(tile.glory)
    }

    pub fn score_round(&mut self) {
        let idx = usize::from(self.round.clamp(1, 5)) - 1;
        // Worked out for every seat before any is given (no allocation: at most four seats,
        // as `new_game` checks).
        let gains: arrayvec::ArrayVec<u32, 4> = self
            .seats
            .iter()
            .take(4)
            .map(|p| self.round_glory(p, idx))
            .collect();
        for (p, g) in self.seats.iter_mut().zip(gains) {
            p.glory += g;
        }
    }

    /// Values of cotton, tobacco, sugar cane: the least imported is worth most; on equal
    /// totals cotton counts as rarer than tobacco, tobacco than sugar cane.
    pub fn import_values(&self) -> [i32; 3] {
        if self.options.static_imports {
            if let Some(v) = components().static_import_value {
                return [v; 3];
            }
        }
        let c = components();
        let totals: Vec<u32> = (0..3)
            .map(|i| self.seats.iter().map(|p| u32::from(p.imports[i])).sum())
            .collect();
        let mut order = [0usize, 1, 2];
        order.sort_by_key(|&i| (totals[i], i));
        let mut v = [0; 3];
        for (rank, &i) in order.iter().enumerate() {
            v[i] = c.final_.import_values[rank];
        }
        v
    }

    /// The score sheet as it stands (final once the game is over).
    pub fn scores(&self) -> Vec<SeatScore> {
        let c = components();
        let f = &c.final_;
        let n = self.seats.len();
        let exports: Vec<u32> = self.seats.iter().map(Player::fulfilled_count).collect();
        let m = self.map();
        let settle: Vec<u32> = self
            .seats
            .iter()
            .map(|p| m.settlements(p.all_units(), p.shipping))
            .collect();
        let (ex, st) = match self.mode() {
            Mode::Solo => (
                exports
                    .iter()
                    .map(|&e| threshold(e, &c.solo.exports))
                    .collect(),
                settle
                    .iter()
                    .map(|&s| threshold(s, &c.solo.settlements))
                    .collect(),
            ),
            Mode::Small => (
                majority(&exports, &f.exports_2p),
                majority(&settle, &f.settlements_2p),
            ),
            Mode::Large => (
                majority(&exports, &f.exports),
                majority(&settle, &f.settlements),
            ),
        };
        let iv = self.import_values();
        (0..n)
            .map(|i| {
                let p = &self.seats[i];
                let basic: i32 = p.goods[..3].iter().map(|&x| i32::from(x)).sum();
                let goods = basic * f.basic + Self::processed(p) as i32 * f.processed;
                let imports: i32 = (0..3).map(|k| i32::from(p.imports[k]) * iv[k]).sum();
                let breakdown = vec![
                    ("glory", p.glory as i32),
                    ("goods", goods),
                    ("money", p.money.max(0) / f.money_per_point.max(1)),
                    ("hops", i32::from(p.hops) * f.hops),
                    ("imports", imports),
                    ("exports", ex[i]),
                    ("settlements", st[i]),
                ];
                // Ruling L3: the money left after the conversion (money mod 10) breaks ties.
                let tiebreak = Some(i64::from(p.money.max(0) % f.money_per_point.max(1)));
                SeatScore::new(Seat(i as u8), breakdown, tiebreak)
            })
            .collect()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if self.phase == crate::state::Phase::Over && !self.seats.is_empty() {
            Some(Outcome::from_scores(self.scores()))
        } else {
            None
        }
    }

    pub fn settlements_of(&self, seat: u8) -> u32 {
        self.seat(seat)
            .map_or(0, |p| self.map().settlements(p.all_units(), p.shipping))
    }

    pub fn goods_of(&self, seat: u8, g: Good) -> u16 {
        self.seat(seat).map_or(0, |p| p.goods[g.index()])
    }
}
