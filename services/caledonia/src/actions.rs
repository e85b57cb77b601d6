//! The main actions on the map and the boards: expand (with the neighbour and building
//! bonuses it triggers), upgrade shipping, upgrade technology, hire a merchant, pass; and the
//! unit costs and reach they share with setup, ports and contracts.

use crate::data::components;
use crate::error::Rule;
use crate::ids::{Clan, Good, Hex, Tech, Unit};
use crate::map::Mode;
use crate::state::{Player, Rules, State, Turn};

impl State {
    /// Hexes `seat` can reach for an Expand or a port use.
    pub fn reach_of(&self, p: &Player) -> u128 {
        self.map()
            .reach(p.all_units(), p.shipping, self.rules >= Rules::V3)
    }

    /// Can `p` use the port on `hex`? A unit of its on the space (a fisherman) or sharing any
    /// edge with it (rivers included: Ruling C6), or the space within shipping reach across
    /// lochs. (River crossing reaches only edge neighbours, which C6 already counts.)
    pub fn port_in_reach(&self, p: &Player, hex: Hex) -> bool {
        let dry = self.rules >= Rules::V3;
        self.map()
            .port_in_reach(p.all_units(), p.shipping, dry, hex)
    }

    /// Hexes where `u` may stand by terrain (ignoring occupation and reach).
    pub fn terrain_for(&self, u: Unit) -> u128 {
        let m = self.map();
        match u {
            Unit::Woodcutter => m.forest,
            Unit::Miner => m.mountain,
            Unit::Fisherman => m.loch | m.port_mask,
            _ => m.grass,
        }
    }

    /// What placing `u` on `h` costs `p` (unit + land, clan discounts; `free`: no land cost).
    /// Checked and then paid for every expansion: the clans' rules behind one `match`.
    pub fn unit_cost(&self, p: &Player, u: Unit, h: Hex, free: bool) -> i32 {
        let c = components();
        let m = self.map();
        let i = usize::from(h.0).min(crate::ids::HEXES - 1);
        let land = if !free && m.land & h.bit() != 0 {
            i32::from(m.cost[i])
        } else {
            0
        };
        let unit = c.unit_cost[u.index().min(7)];
        let cost = match p.clan {
            Clan::MacDonald if u.worker() => c.clan.macdonald_cost + land,
            Clan::Campbell if u.factory() => {
                let slot = u.index().min(7);
                let placed = usize::from(c.supply[slot].saturating_sub(p.supply[slot]));
                let off = c.clan.campbell_discount.get(placed).copied().unwrap_or(0);
                unit - off + land
            }
            Clan::Robertson if m.delta & h.bit() != 0 => {
                let small = usize::from(self.mode() != Mode::Large);
                unit + land - c.clan.robertson_discount[1 - small]
            }
            _ => unit + land,
        };
        cost.max(0)
    }

    /// Terrain, emptiness and fishermen spacing for `u` on `h` (setup and Expand alike).
    pub fn check_spot(&self, p: &Player, u: Unit, h: Hex) -> Result<(), Rule> {
        if !h.valid() {
            return Err(Rule::NoSuchHex);
        }
        if u == Unit::Fisherman && p.clan != Clan::MacDonald {
            return Err(Rule::NotMacDonald);
        }
        let m = self.map();
        let active = m.land | m.loch | m.port_mask;
        if active & h.bit() == 0 {
            return Err(Rule::NoSuchHex);
        }
        if self.occupied() & h.bit() != 0 {
            return Err(Rule::Occupied);
        }
        if self.terrain_for(u) & h.bit() == 0 {
            return Err(Rule::WrongTerrain);
        }
        if u == Unit::Fisherman
            && crate::grid::ADJ[usize::from(h.0)] & p.units[Unit::Fisherman.index()] != 0
        {
            return Err(Rule::FishermenAdjacent);
        }
        if p.supply[p.slot(u)] == 0 {
            return Err(Rule::SupplyEmpty);
        }
        Ok(())
    }

    /// The Expand check; `Ok` holds the cost it checked the seat can pay, for
    /// [`State::apply_expand`] (an expansion in every fourth entry: its cost worked out once).
    pub fn check_expand(&self, seat: u8, u: Unit, h: Hex, free: bool) -> Result<i32, Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        self.check_spot(p, u, h)?;
        let dry = self.rules >= Rules::V3;
        if !self.map().reaches(p.all_units(), p.shipping, dry, h) {
            return Err(Rule::OutOfRange);
        }
        self.check_cost(p, u, h, free)
    }

    fn check_cost(&self, p: &Player, u: Unit, h: Hex, free: bool) -> Result<i32, Rule> {
        let cost = self.unit_cost(p, u, h, free);
        if p.money < cost {
            return Err(Rule::Money);
        }
        Ok(cost)
    }

    /// The Expand check with the seat's reach computed once (legal-move generation).
    pub fn check_expand_with(
        &self,
        p: &Player,
        u: Unit,
        h: Hex,
        free: bool,
        reach: u128,
    ) -> Result<(), Rule> {
        self.check_spot(p, u, h)?;
        if reach & h.bit() == 0 {
            return Err(Rule::OutOfRange);
        }
        self.check_cost(p, u, h, free).map(drop)
    }

    /// Puts `u` on `h` for `seat` and pays (`cost`, when `check_expand` just gave it, or
    /// worked out); sets up the neighbour and building bonuses.
    pub fn apply_expand(
        &mut self,
        t: &mut Turn,
        seat: u8,
        (u, h): (Unit, Hex),
        free: bool,
        cost: Option<i32>,
    ) {
        let Some(p) = self.seat(seat) else { return };
        let cost = cost.unwrap_or_else(|| self.unit_cost(p, u, h, free));
        debug_assert_eq!(
            cost,
            self.unit_cost(p, u, h, free),
            "a checked cost out of date"
        );
        self.place_unit(seat, u, h, cost);
        self.after_placement(t, seat, u, h, true);
    }

    pub fn place_unit(&mut self, seat: u8, u: Unit, h: Hex, cost: i32) {
        let Some(p) = self.seats.get_mut(usize::from(seat)) else {
            return;
        };
        let key = State::open_ports_key(p);
        let kept = p.open_ports.0.get(key);
        p.money -= cost;
        let slot = p.slot(u);
        p.supply[slot] = p.supply[slot].saturating_sub(1);
        p.put(u, h);
        if let Some(p) = self.seat(seat) {
            self.keep_open_ports(p, key, kept, h);
        }
    }

    /// The neighbour bonus (Ruling C6: any shared edge, also after shipping) and the building
    /// bonus (the fourth factory of a kind with an empty crate, Ruling C5).
    pub fn after_placement(&mut self, t: &mut Turn, seat: u8, u: Unit, h: Hex, neighbour: bool) {
        let around = crate::grid::ADJ[usize::from(h.0)];
        if neighbour && self.players() > 1 {
            let mut goods = 0u8;
            // One test for "no other seat's unit around" (most placements), not one a seat.
            let mine = self.seat(seat).map_or(0, Player::all_units);
            if self.occupied() & !mine & around != 0 {
                for (s, q) in self.seats.iter().enumerate() {
                    if s == usize::from(seat) || q.all_units() & around == 0 {
                        continue;
                    }
                    // Each kind's bit without a branch: which goods a neighbour has around is
                    // not something the processor can guess.
                    for unit in Unit::ALL {
                        if let Some(g) = unit.good() {
                            goods |= u8::from(q.units[unit.index()] & around != 0) << g.index();
                        }
                    }
                }
            }
            t.nb_pending = goods;
        }
        let c = components();
        if let Some(p) = self.seat(seat) {
            if u.factory() && p.supply[u.index().min(7)] == 0 && p.free_boxes() > 0 {
                let (draw, keep) = if p.clan == Clan::Buchanan {
                    (c.building.buchanan_draw, c.building.buchanan_keep)
                } else {
                    (c.building.draw, c.building.keep)
                };
                t.draw = draw;
                t.draw_keep = keep.min(p.free_boxes() as u8);
            }
        }
    }

    pub fn nb_cap(&self) -> u8 {
        let c = components();
        if self.players() == 2 {
            c.neighbour.cap_2p
        } else {
            c.neighbour.cap
        }
    }

    pub fn nb_price(&self, g: Good) -> i32 {
        let c = components();
        let d = if g.processed() {
            c.neighbour.discount_processed
        } else {
            c.neighbour.discount_basic
        };
        (self.price(g) - i32::from(d)).max(0)
    }

    pub fn check_neighbour(
        &self,
        t: &Turn,
        seat: u8,
        goods: u8,
        g: Good,
        n: u8,
    ) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        if goods & (1 << g.index()) == 0 {
            return Err(Rule::NotNeighbour);
        }
        if n == 0 {
            return Err(Rule::ZeroQuantity);
        }
        if u16::from(t.nb_bought[g.index()]) + u16::from(n) > u16::from(self.nb_cap()) {
            return Err(Rule::NeighbourCap);
        }
        if p.merchants_stock < n {
            return Err(Rule::NoMerchants);
        }
        if p.market_sell[g.index()] > 0 {
            return Err(Rule::BothSides);
        }
        let bonus = self.stewart_bonus(p) * i32::from(t.nb_bought[g.index()] == 0);
        if p.money + bonus < self.nb_price(g) * i32::from(n) {
            return Err(Rule::Money);
        }
        Ok(())
    }

    pub fn apply_neighbour(&mut self, t: &mut Turn, seat: u8, g: Good, n: u8) {
        let price = self.nb_price(g);
        let first = t.nb_bought[g.index()] == 0;
        t.nb_bought[g.index()] += n;
        let Some(bonus) = self.seat(seat).map(|p| self.stewart_bonus(p)) else {
            return;
        };
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.money += if first { bonus } else { 0 } - price * i32::from(n);
            p.merchants_stock -= n;
            p.market_buy[g.index()] += n;
            p.goods[g.index()] += u16::from(n);
        }
        self.move_price(g, i32::from(n));
    }

    pub fn stewart_bonus(&self, p: &Player) -> i32 {
        if p.clan == Clan::Stewart {
            components().clan.stewart_income
        } else {
            0
        }
    }

    pub fn move_price(&mut self, g: Good, by: i32) {
        let len = components().tracks[g.index()].prices.len() as i32;
        let i = &mut self.prices[g.index()];
        *i = (i32::from(*i) + by).clamp(0, len - 1) as u8;
    }

    pub fn check_trade(&self, seat: u8, g: Good, sell: bool, n: u8) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        if n == 0 {
            return Err(Rule::ZeroQuantity);
        }
        if p.merchants_stock < n {
            return Err(Rule::NoMerchants);
        }
        let other = if sell {
            p.market_buy[g.index()]
        } else {
            p.market_sell[g.index()]
        };
        if other > 0 {
            return Err(Rule::BothSides);
        }
        if sell {
            if p.goods[g.index()] < u16::from(n) {
                return Err(Rule::Goods);
            }
        } else if p.money + self.stewart_bonus(p) < self.price(g) * i32::from(n) {
            return Err(Rule::Money);
        }
        Ok(())
    }

    /// All units at the price before the trade; then the marker moves one step per unit.
    pub fn apply_trade(&mut self, seat: u8, g: Good, sell: bool, n: u8) {
        let price = self.price(g);
        let Some(bonus) = self.seat(seat).map(|p| self.stewart_bonus(p)) else {
            return;
        };
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.money += bonus;
            p.merchants_stock -= n;
            let i = g.index();
            if sell {
                p.money += price * i32::from(n);
                p.goods[i] -= u16::from(n);
                p.market_sell[i] += n;
            } else {
                p.money -= price * i32::from(n);
                p.goods[i] += u16::from(n);
                p.market_buy[i] += n;
            }
        }
        self.move_price(g, if sell { -i32::from(n) } else { i32::from(n) });
    }

    pub fn check_ship(&self, seat: u8) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        if p.shipping >= components().ship_max {
            return Err(Rule::ShippingMax);
        }
        if p.money < components().ship_cost {
            return Err(Rule::Money);
        }
        Ok(())
    }

    pub fn apply_ship(&mut self, seat: u8, free: bool) {
        let cost = if free { 0 } else { components().ship_cost };
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.money -= cost;
            p.shipping += 1;
        }
    }

    /// Ruling C10: one upgrade per worker type, £10 (bonus: £5); MacDonald has none.
    pub fn check_tech(&self, seat: u8, k: Tech, bonus: bool) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        if p.clan == Clan::MacDonald {
            return Err(Rule::UpgradeUnavailable);
        }
        if p.tech[k.index()] {
            return Err(Rule::TechDone);
        }
        let c = components();
        if p.money
            < if bonus {
                c.tech.bonus_cost
            } else {
                c.tech.cost
            }
        {
            return Err(Rule::Money);
        }
        Ok(())
    }

    pub fn apply_tech(&mut self, seat: u8, k: Tech, bonus: bool) {
        let c = components();
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.money -= if bonus {
                c.tech.bonus_cost
            } else {
                c.tech.cost
            };
            p.tech[k.index()] = true;
        }
    }

    pub fn check_hire(&self, seat: u8) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        if p.merchants_track == 0 {
            return Err(Rule::TrackEmpty);
        }
        if p.money < components().merchants.hire_cost {
            return Err(Rule::Money);
        }
        Ok(())
    }

    pub fn apply_hire(&mut self, seat: u8, free: bool) {
        let cost = if free {
            0
        } else {
            components().merchants.hire_cost
        };
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.money -= cost;
            p.merchants_track -= 1;
            p.merchants_stock += 1;
        }
    }

    /// Ruling C2: the space taken on next round's track pays its money, in round 5 too.
    pub fn apply_pass(&mut self, seat: u8) {
        let c = components();
        let table = &c.pass_money[usize::from(self.players()).min(4)];
        let money = if self.players() == 1 {
            table.first().copied().unwrap_or(0)
        } else {
            table.get(self.next_order.len()).copied().unwrap_or(0)
        };
        if !self.next_order.contains(&seat) {
            let _ = self.next_order.try_push(seat);
        }
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.money += money;
            p.passed = true;
        }
    }
}
