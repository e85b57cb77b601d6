//! Position features for statistics and position queries: market prices, the export board,
//! and per seat money, goods, units on the map, upgrades, glory and the score so far.

use crate::ids::{Good, Unit};
use crate::state::State;
use rules_core::{FeatureSchema, Features};

pub const PHASES: &[&str] = &[
    "deal",
    "clans",
    "workers",
    "prep",
    "action",
    "production",
    "over",
];

pub const GLOBAL: &[&str] = &[
    "price_wool",
    "price_milk",
    "price_grain",
    "price_cheese",
    "price_bread",
    "price_whisky",
    "contracts_open",
    "pile",
];

pub const SEAT: &[&str] = &[
    "money",
    "wool",
    "milk",
    "grain",
    "cheese",
    "bread",
    "whisky",
    "hops",
    "cotton",
    "tobacco",
    "sugar_cane",
    "workers",
    "sheep",
    "cows",
    "fields",
    "dairies",
    "bakeries",
    "distilleries",
    "units",
    "glory",
    "score",
    "merchants",
    "shipping",
    "technology",
    "contracts",
    "settlements",
];

pub const SCHEMA: FeatureSchema = FeatureSchema {
    phases: PHASES,
    global: GLOBAL,
    seat: SEAT,
};

impl State {
    pub fn features(&self, out: &mut Features) {
        for g in Good::ALL {
            out.global.push(i64::from(self.price(*g)));
        }
        out.global.push(self.boxes.iter().flatten().count() as i64);
        out.global.push(self.pile_len() as i64);
        let scores = self.scores();
        for i in 0..usize::from(self.players()) {
            // Before the deal there are no boards yet: a seat's block is all zeros.
            let Some(p) = self.seats.get(i) else {
                out.seats.extend(std::iter::repeat_n(0, SEAT.len()));
                continue;
            };
            let n = |u: Unit| i64::from(p.unit_count(u));
            out.seats.push(i64::from(p.money));
            out.seats.extend(p.goods.iter().map(|&g| i64::from(g)));
            out.seats.push(i64::from(p.hops));
            out.seats.extend(p.imports.iter().map(|&g| i64::from(g)));
            out.seats.extend([
                n(Unit::Woodcutter) + n(Unit::Miner) + n(Unit::Fisherman),
                n(Unit::Sheep),
                n(Unit::Cow),
                n(Unit::Field),
                n(Unit::Dairy),
                n(Unit::Bakery),
                n(Unit::Distillery),
                i64::from(p.all_units().count_ones()),
                i64::from(p.glory),
                scores.get(i).map_or(0, |s| i64::from(s.total)),
                i64::from(p.merchants_stock),
                i64::from(p.shipping),
                p.tech.iter().filter(|&&t| t).count() as i64,
                i64::from(p.fulfilled_count()),
                i64::from(self.settlements_of(i as u8)),
            ]);
        }
    }
}
