//! Export contracts: taking them from the board, fulfilling them (goods, slaughter, imports,
//! hops, direct export bonuses), the building-bonus keep, bonus upgrades and MacEwen's beer.

use crate::data::components;
use crate::error::Rule;
use crate::ids::{Clan, ContractId, Good, Hex, Unit};
use crate::moves::Upgrade;
use crate::state::{Rules, State, Step, Turn};

/// Contract ids listed once each, lowest first.
pub fn sorted_distinct<T: Ord>(list: &[T]) -> bool {
    list.windows(2).all(|w| w[0] < w[1])
}

impl State {
    pub fn contract(&self, id: ContractId) -> Option<&'static crate::data::Contract> {
        usize::from(id.0)
            .checked_sub(1)
            .and_then(|i| components().contracts.get(i))
    }

    pub fn check_obtain(&self, seat: u8, list: &[ContractId]) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        if list.is_empty() || !sorted_distinct(list) {
            return Err(Rule::ContractOrder);
        }
        if list.len() > p.free_boxes() {
            return Err(Rule::CrateFull);
        }
        if list.iter().any(|id| !self.boxes.contains(&Some(*id))) {
            return Err(Rule::ContractNotOffered);
        }
        if p.money + self.obtain_money() < 0 {
            return Err(Rule::Money);
        }
        Ok(())
    }

    /// Buchanan's two contracts in one action pay (or receive) the round's money once.
    pub fn apply_obtain(&mut self, seat: u8, list: &[ContractId]) {
        let money = self.obtain_money();
        for b in self.boxes.iter_mut() {
            if b.is_some_and(|id| list.contains(&id)) {
                *b = None;
            }
        }
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.money += money;
            for id in list {
                let _ = p.held.try_push(*id);
            }
        }
    }

    /// Goods and meat the listed contracts need; `discount`: port 1's one animal fewer.
    pub fn check_fulfil(
        &self,
        t: &Turn,
        seat: u8,
        list: &[ContractId],
        slaughter: &[Hex],
    ) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        let max = if p.clan == Clan::Buchanan { 2 } else { 1 };
        if list.is_empty() || list.len() > max || !sorted_distinct(list) {
            return Err(Rule::ContractOrder);
        }
        let mut goods = [0u16; 6];
        let (mut beef, mut mutton) = (0u8, 0u8);
        for id in list {
            if !p.held.contains(id) {
                return Err(Rule::ContractNotHeld);
            }
            let k = self.contract(*id).ok_or(Rule::ContractNotHeld)?;
            for (g, n) in goods.iter_mut().zip(k.goods) {
                *g += u16::from(n);
            }
            beef += k.beef;
            mutton += k.mutton;
        }
        if goods.iter().zip(p.goods).any(|(need, have)| *need > have) {
            return Err(Rule::Goods);
        }
        if !sorted_distinct(slaughter) {
            return Err(Rule::Slaughter);
        }
        // `Hex::bit` masks its index: an off-grid hex must not alias a unit's hex.
        if slaughter.iter().any(|h| !h.valid()) {
            return Err(Rule::NoSuchHex);
        }
        let cows = slaughter
            .iter()
            .filter(|h| p.units[Unit::Cow.index()] & h.bit() != 0)
            .count();
        let sheep = slaughter
            .iter()
            .filter(|h| p.units[Unit::Sheep.index()] & h.bit() != 0)
            .count();
        if cows + sheep != slaughter.len() {
            return Err(Rule::Slaughter);
        }
        let need = usize::from(beef + mutton);
        let need = if t.meat_discount {
            need.saturating_sub(1)
        } else {
            need
        };
        if cows > usize::from(beef) || sheep > usize::from(mutton) || cows + sheep != need {
            return Err(Rule::Slaughter);
        }
        Ok(())
    }

    /// Do the listed contracts ask for meat?
    pub fn has_meat(&self, list: &[ContractId]) -> bool {
        list.iter()
            .any(|id| self.contract(*id).is_some_and(|k| k.meat() > 0))
    }

    /// The Fulfil action in a turn: [`State::check_fulfil`], and after port 1 a contract
    /// asking for meat while one can be fulfilled (the discount is for that fulfilment).
    pub fn check_fulfil_turn(
        &self,
        t: &Turn,
        seat: u8,
        list: &[ContractId],
        slaughter: &[Hex],
    ) -> Result<(), Rule> {
        self.check_fulfil(t, seat, list, slaughter)?;
        if !self.has_meat(list) && self.meat_forced(t, seat) {
            return Err(Rule::PortMeatUnused);
        }
        if self.price_forced(t, seat).is_some() {
            return Err(Rule::PortPriceUnused);
        }
        Ok(())
    }

    /// Free expansions the listed contracts give.
    pub fn free_expands(&self, list: &[ContractId]) -> u8 {
        list.iter()
            .filter_map(|id| self.contract(*id))
            .fold(0u8, |n, k| n.saturating_add(k.free_expand))
    }

    /// The position a pending fulfilment (rules 3) would leave: where its free expansion is
    /// checked, so the two are legal together or not at all.
    pub fn after_fulfil(
        &self,
        t: &Turn,
        seat: u8,
        list: &[ContractId],
        slaughter: &[Hex],
    ) -> State {
        let mut s = self.clone();
        let mut tt = *t;
        s.apply_fulfil(&mut tt, seat, list, slaughter);
        s
    }

    /// Does port 1 bind this turn's main action to a fulfilment of a contract asking for
    /// meat? Under rules 3 while one is possible; under rules 4 until the main action, always
    /// (nothing before it may make that fulfilment impossible: `check_meat_kept`).
    pub fn meat_forced(&self, t: &Turn, seat: u8) -> bool {
        if self.rules >= Rules::V4 {
            return t.meat_discount && !t.main_done;
        }
        t.meat_discount && self.discount_usable(t, seat)
    }

    /// Can the seat fulfil a contract asking for meat now (with `t`'s port-1 discount)?
    pub fn discount_usable(&self, t: &Turn, seat: u8) -> bool {
        let mut found = false;
        self.fulfil_candidates(seat, |contracts, slaughter| {
            found = self.has_meat(contracts)
                && self.check_fulfil(t, seat, contracts, slaughter).is_ok();
            found
        });
        found
    }

    pub fn apply_fulfil(&mut self, t: &mut Turn, seat: u8, list: &[ContractId], slaughter: &[Hex]) {
        let c = components();
        let mut import_money = 0i32;
        let mut totals = [0u16; 3];
        for id in list {
            let Some(k) = self.contract(*id) else {
                continue;
            };
            for (i, &n) in k.imports.iter().enumerate() {
                totals[i] += u16::from(n);
                // The static-imports variant keeps no import track (no £1 steps).
                if self.options.static_imports {
                    continue;
                }
                let before = self.import_track[i];
                let after = before + u16::from(n);
                import_money += c
                    .import_steps
                    .iter()
                    .filter(|&&s| s > before && s <= after)
                    .count() as i32;
                self.import_track[i] = after;
            }
            t.expands += k.free_expand;
            t.upgrades += k.upgrades;
            if k.hops > 0 {
                t.brew = t.brew.saturating_add(k.hops.min(c.clan.macewen_max));
            }
        }
        t.meat_discount = false;
        let Some(p) = self.seats.get_mut(usize::from(seat)) else {
            return;
        };
        if p.clan != Clan::MacEwen {
            t.brew = 0;
        }
        for id in list {
            let Some(k) = usize::from(id.0)
                .checked_sub(1)
                .and_then(|i| c.contracts.get(i))
            else {
                continue;
            };
            for (g, n) in p.goods.iter_mut().zip(k.goods) {
                *g -= u16::from(n);
            }
            p.hops += u16::from(k.hops);
            p.money += k.money;
            p.meat += u16::from(k.meat());
            p.fulfilled |= 1u64 << (id.0 & 63);
            p.held.retain(|h| h != id);
        }
        for h in slaughter {
            for u in [Unit::Cow, Unit::Sheep] {
                if p.units(u) & h.bit() != 0 {
                    p.lift(u, *h);
                    p.supply[u.index()] += 1;
                }
            }
        }
        for (i, n) in totals.iter().enumerate() {
            p.imports[i] += n;
        }
        p.money += import_money;
    }

    pub fn check_keep(
        &self,
        seat: u8,
        drawn: &[ContractId],
        max: u8,
        list: &[ContractId],
    ) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        // A contract named twice is the mistake `obtain` and `fulfil` name so too.
        if !sorted_distinct(list) {
            return Err(Rule::ContractOrder);
        }
        if list.len() > usize::from(max) || list.iter().any(|id| !drawn.contains(id)) {
            return Err(Rule::KeepNotDrawn);
        }
        if !list.is_empty() && p.money + self.obtain_money() < 0 {
            return Err(Rule::Money);
        }
        Ok(())
    }

    /// Ruling C5: kept contracts pay the round's price (round 1: £5 received), once; the
    /// rest go under the pile in the order drawn.
    pub fn apply_keep(&mut self, seat: u8, step: &Step, list: &[ContractId]) {
        let Step::Keep { drawn, .. } = step else {
            return;
        };
        let money = if list.is_empty() {
            0
        } else {
            self.obtain_money()
        };
        for id in drawn {
            if !list.contains(id) {
                let _ = self.bottom.try_push(*id);
            }
        }
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.money += money;
            for id in list {
                let _ = p.held.try_push(*id);
            }
        }
    }

    pub fn check_upgrade(&self, t: &Turn, seat: u8, u: Upgrade) -> Result<(), Rule> {
        if t.upgrades == 0 {
            return Err(Rule::NoUpgrade);
        }
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        match u {
            Upgrade::Tech(k) => self.check_tech(seat, k, true),
            Upgrade::Ship => {
                if p.shipping >= components().ship_max {
                    Err(Rule::ShippingMax)
                } else {
                    Ok(())
                }
            }
            Upgrade::Hire => {
                if p.merchants_track == 0 {
                    Err(Rule::TrackEmpty)
                } else {
                    Ok(())
                }
            }
            Upgrade::Retrieve { good, sell } => {
                let on = if sell {
                    p.market_sell[good.index()]
                } else {
                    p.market_buy[good.index()]
                };
                if !self.options.bonus_retrieve || on == 0 {
                    Err(Rule::UpgradeUnavailable)
                } else {
                    Ok(())
                }
            }
        }
    }

    pub fn apply_upgrade(&mut self, seat: u8, u: Upgrade) {
        match u {
            Upgrade::Tech(k) => self.apply_tech(seat, k, true),
            Upgrade::Ship => self.apply_ship(seat, true),
            Upgrade::Hire => self.apply_hire(seat, true),
            Upgrade::Retrieve { good, sell } => {
                if let Some(p) = self.seats.get_mut(usize::from(seat)) {
                    let on = if sell {
                        &mut p.market_sell
                    } else {
                        &mut p.market_buy
                    };
                    on[good.index()] -= 1;
                    p.merchants_stock += 1;
                }
            }
        }
    }

    pub fn check_brew(&self, t: &Turn, seat: u8, k: u8) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        if p.clan != Clan::MacEwen
            || k == 0
            || k > t.brew
            || p.goods[Good::Grain.index()] < u16::from(k)
        {
            return Err(Rule::Brew);
        }
        Ok(())
    }

    pub fn apply_brew(&mut self, seat: u8, k: u8) {
        let money = components().clan.macewen_money;
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.goods[Good::Grain.index()] -= u16::from(k);
            p.money += money * i32::from(k);
        }
    }
}
