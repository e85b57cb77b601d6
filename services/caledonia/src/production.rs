//! Production: MacKenzie's cellar ages, worker income (with technology), basic goods, then
//! each seat's optional processing (and Cunningham's milk sale), then round scoring.

use crate::data::components;
use crate::error::Rule;
use crate::ids::{Clan, Good, Unit};
use crate::moves::Move;
use crate::state::{Phase, State};

impl State {
    pub fn start_production(&mut self) {
        let c = components();
        let spots = c.clan.cellar.len().min(4);
        for p in &mut self.seats {
            if p.clan == Clan::MacKenzie && spots > 0 {
                // A barrel that starts production in the last spot goes to stock, paid.
                let last = spots - 1;
                let out = p.cellar[last];
                p.goods[Good::Whisky.index()] += u16::from(out);
                p.money += i32::from(out) * c.clan.cellar[last];
                for i in (1..spots).rev() {
                    p.cellar[i] = p.cellar[i - 1];
                }
                p.cellar[0] = 0;
            }
            let w = p.unit_count(Unit::Woodcutter) as i32;
            let m = p.unit_count(Unit::Miner) as i32;
            let f = p.unit_count(Unit::Fisherman) as i32;
            p.money += if p.clan == Clan::MacDonald {
                (w + m + f) * c.income.macdonald_worker
            } else {
                w * c.income.woodcutter[usize::from(p.tech[0])]
                    + m * c.income.miner[usize::from(p.tech[1])]
            };
            p.goods[Good::Wool.index()] +=
                c.production.sheep_wool * p.unit_count(Unit::Sheep) as u16;
            p.goods[Good::Milk.index()] += c.production.cow_milk * p.unit_count(Unit::Cow) as u16;
            p.goods[Good::Grain.index()] +=
                c.production.field_grain * p.unit_count(Unit::Field) as u16;
        }
        self.phase = Phase::Production {
            seat: 0,
            milk: false,
        };
        self.skip_production();
    }

    fn needs_make(&self, seat: u8) -> bool {
        self.seat(seat).is_some_and(|p| {
            let milk = p.goods[Good::Milk.index()] > 0 && p.unit_count(Unit::Dairy) > 0;
            let grain = p.goods[Good::Grain.index()] > 0
                && (p.unit_count(Unit::Bakery) > 0 || p.unit_count(Unit::Distillery) > 0);
            milk || grain
        })
    }

    fn needs_milk(&self, seat: u8) -> bool {
        self.seat(seat)
            .is_some_and(|p| p.clan == Clan::Cunningham && p.goods[Good::Milk.index()] > 0)
    }

    /// Moves past seats with nothing to decide; after the last, scores the round.
    fn skip_production(&mut self) {
        loop {
            let Phase::Production { seat, milk } = self.phase else {
                return;
            };
            if seat >= self.players() {
                self.score_round();
                self.next_round();
                return;
            }
            let needed = if milk {
                self.needs_milk(seat)
            } else {
                self.needs_make(seat)
            };
            if needed {
                return;
            }
            self.phase = if milk {
                Phase::Production {
                    seat: seat + 1,
                    milk: false,
                }
            } else {
                Phase::Production { seat, milk: true }
            };
        }
    }

    pub fn next_production(&mut self, seat: u8, made: bool) {
        self.phase = if made {
            Phase::Production { seat, milk: true }
        } else {
            Phase::Production {
                seat: seat + 1,
                milk: false,
            }
        };
        self.skip_production();
    }

    pub fn check_make(&self, seat: u8, m: &Move) -> Result<(), Rule> {
        let Move::Make {
            cheese,
            bread,
            whisky,
            cellar,
        } = *m
        else {
            return Err(Rule::WrongStep);
        };
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        let (c, b, w) = (u16::from(cheese), u16::from(bread), u16::from(whisky));
        let ok = u32::from(cheese) <= p.unit_count(Unit::Dairy)
            && u32::from(bread) <= p.unit_count(Unit::Bakery)
            && u32::from(whisky) <= p.unit_count(Unit::Distillery)
            && c <= p.goods[Good::Milk.index()]
            && b + w <= p.goods[Good::Grain.index()];
        if !ok {
            return Err(Rule::Production);
        }
        if cellar && (p.clan != Clan::MacKenzie || whisky == 0 || p.cellar[0] > 0) {
            return Err(Rule::NotMacKenzie);
        }
        Ok(())
    }

    pub fn apply_make(&mut self, seat: u8, m: &Move) {
        let Move::Make {
            cheese,
            bread,
            whisky,
            cellar,
        } = *m
        else {
            return;
        };
        let income = components().clan.mackenzie_income;
        let Some(p) = self.seats.get_mut(usize::from(seat)) else {
            return;
        };
        let g = &mut p.goods;
        g[Good::Milk.index()] -= u16::from(cheese);
        g[Good::Cheese.index()] += u16::from(cheese);
        g[Good::Grain.index()] -= u16::from(bread) + u16::from(whisky);
        g[Good::Bread.index()] += u16::from(bread);
        g[Good::Whisky.index()] += u16::from(whisky);
        if p.clan == Clan::MacKenzie {
            p.money += income * i32::from(whisky);
            if cellar {
                p.goods[Good::Whisky.index()] -= 1;
                p.cellar[0] += 1;
            }
        }
    }

    pub fn check_milk(&self, seat: u8, k: u8) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        if p.clan != Clan::Cunningham {
            return Err(Rule::NotCunningham);
        }
        if u16::from(k) > p.goods[Good::Milk.index()] {
            return Err(Rule::Goods);
        }
        Ok(())
    }

    pub fn apply_milk(&mut self, seat: u8, k: u8) {
        let price = components().clan.cunningham_milk;
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.goods[Good::Milk.index()] -= u16::from(k);
            p.money += price * i32::from(k);
        }
    }
}
