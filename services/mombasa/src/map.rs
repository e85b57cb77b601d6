//! Action 2, expansion: all face-up expansion cards' points for one company, spent region by
//! region (1 per single border, 2 per double, +1 where another company stands), each post
//! taken from the front of a chosen base column; then the rewards of the regions entered.
//!
//! A displaced post goes back to its base as soon as its region is entered (Ruling M5 lets
//! the active player choose the column). The text returns them "after spending"; doing it at
//! once changes nothing, because another company's base never affects the expanding
//! company's costs.

use crate::data::Reward;
use crate::error::Rule;
use crate::goods::{card_units, up_tile};
use crate::ids::{Company, Region, Unit, COLUMNS, NONE, REGIONS, SLOTS};
use crate::state::{Stage, State};

impl State {
    /// Expansion points on face-up cards and the unused expansion tile.
    pub fn expansion_points(&self, seat: u8) -> u8 {
        let Some(p) = self.player(seat) else { return 0 };
        let cards: u8 = (0..SLOTS)
            .filter_map(|s| p.up_card(s))
            .filter_map(|card| card_units(self, card))
            .filter(|(u, _)| *u == Unit::Expansion)
            .fold(0u8, |a, (_, v)| a.saturating_add(v));
        cards.saturating_add(up_tile(self.data(), p, Unit::Expansion).map_or(0, |(_, v)| v))
    }

    pub(crate) fn apply_expand(&mut self, seat: u8, company: Company) {
        let points = self.expansion_points(seat);
        let c = self.data();
        let Some(p) = self.player(seat) else { return };
        let used = (0..SLOTS)
            .filter(|&k| {
                p.up_card(k).is_some_and(|card| {
                    matches!(card_units(self, card), Some((Unit::Expansion, _)))
                })
            })
            .fold(0u8, |m, k| m | (1 << k));
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.face_up &= !used;
            if let Some((i, _)) = up_tile(c, p, Unit::Expansion) {
                p.tiles_up &= !(1 << i);
            }
        }
        self.stage = Stage::Expand {
            company,
            points,
            entered: 0,
        };
    }

    /// The cheapest way for `company` into `region`: the border from its base or from one of
    /// its regions, +1 when another company stands there. `None`: not adjacent.
    pub fn entry_cost(&self, company: Company, region: usize) -> Option<u8> {
        let c = self.data();
        if region >= REGIONS {
            return None;
        }
        let k = company as u8;
        let mut best = c.base_border[company.index()]
            .get(region)
            .copied()
            .filter(|&b| b > 0);
        for r in 0..REGIONS {
            if self.map[r] == k {
                let b = c.border[r][region];
                if b > 0 && best.is_none_or(|x| b < x) {
                    best = Some(b);
                }
            }
        }
        let other = self.map.get(region).is_some_and(|&o| o != NONE && o != k);
        best.map(|b| b + u8::from(other))
    }

    pub(crate) fn check_enter(
        &self,
        region: Region,
        column: u8,
        ret: Option<u8>,
    ) -> Result<(), Rule> {
        let Stage::Expand {
            company, points, ..
        } = self.stage
        else {
            return Err(Rule::WrongStep);
        };
        let r = usize::from(region.0);
        let holder = *self.map.get(r).ok_or(Rule::Unreachable)?;
        if holder == company as u8 {
            return Err(Rule::OwnRegion);
        }
        let cost = self.entry_cost(company, r).ok_or(Rule::Unreachable)?;
        if cost > points {
            return Err(Rule::NoPoints);
        }
        let col = self.bases[company.index()]
            .get(usize::from(column))
            .copied()
            .unwrap_or(0);
        if col == 0 {
            return Err(Rule::ColumnEmpty);
        }
        let displaced = Company::ALL.get(usize::from(holder)).copied();
        match (displaced, ret) {
            (None, None) => Ok(()),
            (Some(d), Some(k)) if usize::from(k) < COLUMNS => self
                .return_space(d, usize::from(k))
                .map(|_| ())
                .ok_or(Rule::ReturnColumn),
            (Some(d), None) if !self.can_return(d) => Ok(()),
            _ => Err(Rule::ReturnColumn),
        }
    }

    pub(crate) fn apply_enter(&mut self, region: Region, column: u8, ret: Option<u8>) {
        let Stage::Expand {
            company,
            points,
            entered,
        } = self.stage
        else {
            return;
        };
        let r = usize::from(region.0);
        let cost = self.entry_cost(company, r).unwrap_or(points);
        self.take_post(company, usize::from(column));
        if let Some(d) = Company::ALL.get(usize::from(self.map[r])).copied() {
            self.return_post(d, ret);
        }
        self.map[r] = company as u8;
        let left = points.saturating_sub(cost);
        self.stage = Stage::Expand {
            company,
            points: left,
            entered: entered | (1 << r),
        };
        if left == 0 {
            self.expansion_rewards(company, entered | (1 << r));
        }
    }

    /// Ends an expansion: the rewards of every region entered, then bookkeeping points.
    pub(crate) fn expansion_rewards(&mut self, company: Company, entered: u32) {
        let c = self.data();
        let seat = self.turn;
        let mut total = Reward::default();
        for (r, def) in c.regions.iter().enumerate() {
            if entered & (1 << r) != 0 {
                total.pounds = total.pounds.saturating_add(def.reward.pounds);
                total.diamonds = total.diamonds.saturating_add(def.reward.diamonds);
                total.track = total.track.saturating_add(def.reward.track);
                total.bookkeeping = total.bookkeeping.saturating_add(def.reward.bookkeeping);
            }
        }
        self.pay(seat, total, Some(company));
        self.spend_points_or_finish(total.bookkeeping);
    }
}
