//! Free actions: port bonuses (once per port per player per game) and MacKenzie's cellar,
//! before or after the main action; MacDonald's rowing (before it); port 7's exchange step.
//!
//! Port 6 (rules 3) "moves the price of one good ... before trading that good": only before
//! the main action, only when a trade of that good can follow, and the main action must then
//! be that trade (rules 3: while it stays possible; rules 4: always, and nothing before it may
//! make it impossible). Port 1 binds the turn to its meat fulfilment the same way (rules 3:
//! while one is possible; rules 4: always, and nothing before it may make it impossible).

use crate::data::{components, PortKind};
use crate::error::Rule;
use crate::ids::{Clan, Good, Hex, PortId, Unit, KS_PORT};
use crate::moves::PortArgs;
use crate::state::{Player, Rules, State, Turn};

impl State {
    pub fn port_kind(&self, port: PortId) -> Option<PortKind> {
        usize::from(port.0)
            .checked_sub(1)
            .and_then(|i| components().ports.get(i))
            .map(|p| p.kind)
    }

    fn port_hex(&self, port: PortId) -> Option<Hex> {
        let m = self.map();
        self.ports
            .iter()
            .position(|&p| p == port)
            .map(|i| m.ports[i])
    }

    pub fn check_port(
        &self,
        t: &Turn,
        seat: u8,
        port: PortId,
        ks: bool,
        args: &PortArgs,
    ) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        let used_bit = |id: PortId| p.ports_used & (1u16 << (id.0 & 15)) != 0;
        // Through the Kickstarter port: its marker, its reach and its £3; then any other port
        // in play, even one already used.
        let marker = if ks { KS_PORT } else { port };
        let hex = self.port_hex(marker).ok_or(Rule::PortNotInPlay)?;
        if self.port_hex(port).is_none() || (ks && port == KS_PORT) {
            return Err(Rule::PortNotInPlay);
        }
        if used_bit(marker) {
            return Err(Rule::PortUsed);
        }
        if !self.port_in_reach(p, hex) {
            return Err(Rule::PortOutOfRange);
        }
        let fee = if ks { components().ports[8].cost } else { 0 };
        if p.money < fee {
            return Err(Rule::Money);
        }
        let kind = self.port_kind(port).ok_or(Rule::PortNotInPlay)?;
        match (kind, args) {
            (PortKind::Basic | PortKind::Processed, PortArgs::Goods { give, get }) => {
                let processed = kind == PortKind::Processed;
                let gain = usize::from(port.0)
                    .checked_sub(1)
                    .and_then(|i| components().ports.get(i))
                    .map_or(0, |d| d.gain);
                let n = usize::from(gain).min(3);
                // On the stack: this runs for every port at the end of every main action.
                let gets: arrayvec::ArrayVec<Good, 3> = get.iter().flatten().copied().collect();
                let shape = gets.len() == n && get[..n].iter().all(Option::is_some);
                if !shape
                    || give.processed() != processed
                    || gets.iter().any(|g| g.processed() != processed)
                    || !gets.windows(2).all(|w| w[0] <= w[1])
                {
                    return Err(Rule::PortArgs);
                }
                if p.goods[give.index()] == 0 {
                    return Err(Rule::Goods);
                }
                Ok(())
            }
            (PortKind::Price, PortArgs::Price { good, .. }) if self.rules >= Rules::V3 => {
                self.check_price_port(t, seat, port, ks, args, *good)
            }
            (PortKind::Price, PortArgs::Price { .. }) => Ok(()),
            // "In a turn in which you fulfil a contract requiring meat": before that
            // fulfilment, once, and only when the discounted fulfilment is possible.
            (PortKind::Meat, PortArgs::None) => {
                if t.main_done || t.meat_discount {
                    return Err(Rule::PortMeatTiming);
                }
                if self.price_forced(t, seat).is_some() {
                    return Err(Rule::PortPriceUnused);
                }
                let mut with = *t;
                with.meat_discount = true;
                if self.discount_usable(&with, seat) {
                    Ok(())
                } else {
                    Err(Rule::PortNoMeatContract)
                }
            }
            (
                PortKind::Upgrade | PortKind::Money | PortKind::Exchange | PortKind::Draw,
                PortArgs::None,
            ) => Ok(()),
            _ => Err(Rule::PortArgs),
        }
    }

    pub fn apply_port(&mut self, t: &mut Turn, seat: u8, port: PortId, ks: bool, args: &PortArgs) {
        let c = components();
        let marker = if ks { KS_PORT } else { port };
        let Some(data) = usize::from(port.0)
            .checked_sub(1)
            .and_then(|i| c.ports.get(i))
            .copied()
        else {
            return;
        };
        let Some(p) = self.seats.get_mut(usize::from(seat)) else {
            return;
        };
        p.ports_used |= 1u16 << (marker.0 & 15);
        if ks {
            p.money -= c.ports[8].cost;
        }
        match (data.kind, args) {
            (PortKind::Meat, _) => t.meat_discount = true,
            (PortKind::Basic | PortKind::Processed, PortArgs::Goods { give, get }) => {
                p.goods[give.index()] -= 1;
                for g in get.iter().flatten() {
                    p.goods[g.index()] += 1;
                }
            }
            (PortKind::Upgrade, _) => {
                p.glory += u32::from(data.glory);
                t.upgrades += 1;
            }
            (PortKind::Money, _) => p.money += data.money,
            (PortKind::Price, PortArgs::Price { good, up }) => {
                let steps = i32::from(data.steps);
                let good = *good;
                let up = *up;
                self.move_price(good, if up { steps } else { -steps });
                if self.rules >= Rules::V3 {
                    t.price_good = Some(good);
                }
            }
            (PortKind::Exchange, _) => t.exchange = data.units,
            (PortKind::Draw, _) => {
                p.money += data.money;
                if p.free_boxes() > 0 {
                    let b = &c.building;
                    let (draw, keep) = if p.clan == Clan::Buchanan {
                        (b.buchanan_draw, b.buchanan_keep)
                    } else {
                        (b.draw, b.keep)
                    };
                    t.draw = draw;
                    t.draw_keep = keep.min(p.free_boxes() as u8);
                }
            }
            _ => {}
        }
    }

    /// Rules 3's port 6: before the main action; one good a turn; not while port 1 binds the
    /// main action to a meat contract; and a trade of that good possible once the price has
    /// moved (and any Kickstarter fee is paid).
    #[allow(clippy::too_many_arguments)]
    fn check_price_port(
        &self,
        t: &Turn,
        seat: u8,
        port: PortId,
        ks: bool,
        args: &PortArgs,
        good: Good,
    ) -> Result<(), Rule> {
        if t.main_done || t.price_good.is_some_and(|g| g != good) {
            return Err(Rule::PortPriceTiming);
        }
        if self.meat_forced(t, seat) {
            return Err(Rule::PortMeatUnused);
        }
        let mut after = self.clone();
        let mut tt = *t;
        after.apply_port(&mut tt, seat, port, ks, args);
        if after.trade_possible(seat, good) {
            Ok(())
        } else {
            Err(Rule::PortPriceNoTrade)
        }
    }

    /// Whether `seat` could trade `good` now (one unit, bought or sold).
    pub fn trade_possible(&self, seat: u8, good: Good) -> bool {
        self.check_trade(seat, good, false, 1).is_ok()
            || self.check_trade(seat, good, true, 1).is_ok()
    }

    /// The good whose trade port 6 makes this turn's main action: under rules 3 while one is
    /// possible; under rules 4 until the main action, always (nothing before it may make the
    /// trade impossible: `check_price_kept`).
    pub fn price_forced(&self, t: &Turn, seat: u8) -> Option<Good> {
        if self.rules >= Rules::V4 {
            return t.price_good.filter(|_| !t.main_done);
        }
        t.price_good.filter(|&g| self.trade_possible(seat, g))
    }

    /// The port spaces (bits 0–3, as [`State::ports`]) whose port `p` has not used and whose
    /// space is within its reach: kept beside the player (`Player::open_ports`) for its
    /// shipping level and ports used, with the unused ones in bits 4–7, and worked out again
    /// after a unit moves (a unit placed adds what it reaches: `State::keep_open_ports`).
    #[inline(always)]
    pub fn open_ports(&self, p: &Player) -> u8 {
        let key = State::open_ports_key(p);
        let kept = match p.open_ports.0.get(key) {
            Some(kept) => {
                debug_assert_eq!(
                    kept,
                    self.work_out_open_ports(p),
                    "kept open ports out of date"
                );
                kept
            }
            None => self.keep_worked_out_open_ports(p, key),
        };
        kept & 15
    }

    /// The open ports worked out and kept under `key` (after a unit moved, or a port was used).
    #[cold]
    #[inline(never)]
    fn keep_worked_out_open_ports(&self, p: &Player, key: u64) -> u8 {
        let kept = self.work_out_open_ports(p);
        p.open_ports.0.set(key, kept);
        kept
    }

    /// The kept open ports of `p` (a [`Player::open_ports`] value read under `key` before a
    /// unit of its was put on `h`) kept on with what that unit reaches, rather than worked
    /// out again at the end of the turn: an Expand is the commonest main action. Nothing is
    /// kept when nothing was or the reach is beyond the tables.
    pub(crate) fn keep_open_ports(&self, p: &Player, key: u64, before: Option<u8>, h: Hex) {
        let dry = self.rules >= Rules::V3;
        if let (Some(before), Some(adds)) = (before, self.map().ports_of_hex(h, p.shipping, dry)) {
            // Bits 4–7 are the unused ports: what the unit reaches opens if unused.
            p.open_ports.0.set(key, before | adds & before >> 4);
        }
    }

    /// The key [`State::open_ports`] are kept under: what they depend on besides the units.
    #[inline(always)]
    pub(crate) fn open_ports_key(p: &Player) -> u64 {
        // Bit 40: never 0, the memo's nothing.
        1 << 40 | u64::from(p.shipping) << 16 | u64::from(p.ports_used)
    }

    #[inline(never)]
    fn work_out_open_ports(&self, p: &Player) -> u8 {
        let unused = self.ports.iter().enumerate().fold(0u8, |mask, (k, port)| {
            mask | (u8::from(p.ports_used & (1u16 << (port.0 & 15)) == 0) << k)
        });
        let dry = self.rules >= Rules::V3;
        let reach = self.map().ports_in_reach(p.all_units(), p.shipping, dry);
        unused << 4 | (unused & reach)
    }

    /// Is a port use or a cellar withdrawal legal for the seat now? Asked at the end of every
    /// main action, and mostly answered here: no cellar (only MacKenzie has one) and no
    /// unused port within reach, kept per player ([`State::open_ports`]). The search for a
    /// legal use is apart, so that this answer does not pay for its registers.
    #[inline(always)]
    pub fn free_action_possible(&self, t: &Turn) -> bool {
        let Some(p) = self.seat(t.seat) else {
            return false;
        };
        let reach = self.open_ports(p);
        (p.clan == Clan::MacKenzie || reach != 0) && self.free_action_found(t, p, reach)
    }

    /// [`State::free_action_possible`] past its first test: a cellar withdrawal, or one
    /// candidate per open port and way of using it (port 2/3 need a good of their class, port
    /// 6 any good) that `check_port` accepts.
    #[inline(never)]
    fn free_action_found(&self, t: &Turn, p: &Player, reach: u8) -> bool {
        let seat = t.seat;
        if p.clan == Clan::MacKenzie && (0..4).any(|i| self.check_cellar(seat, i).is_ok()) {
            return true;
        }
        // Necessary for any port use: an unused port's space within reach (for the
        // Kickstarter way, port 9's, and its fee).
        if reach == 0 {
            return false;
        }
        let open: [bool; 4] = std::array::from_fn(|k| reach & (1 << k) != 0);
        let ks_open = self
            .ports
            .iter()
            .position(|&port| port == KS_PORT)
            .is_some_and(|i| open.get(i) == Some(&true) && p.money >= components().ports[8].cost);
        let held = |processed: bool| {
            Good::ALL
                .iter()
                .copied()
                .find(|g| g.processed() == processed && p.goods[g.index()] > 0)
        };
        for (port, own_open) in self.ports.into_iter().zip(open) {
            let ways = [(false, own_open), (true, ks_open && port != KS_PORT)];
            if !ways.iter().any(|&(_, open)| open) {
                continue;
            }
            let kind = self.port_kind(port);
            // After the main action (which is when this is asked) port 6 under rules 3 and
            // port 1 are refused by their timing alone: not worth a candidate each.
            if t.main_done
                && (kind == Some(PortKind::Meat)
                    || kind == Some(PortKind::Price) && self.rules >= Rules::V3)
            {
                debug_assert!(ways.iter().all(|&(ks, open)| {
                    let args = match kind {
                        Some(PortKind::Price) => PortArgs::Price {
                            good: Good::Wool,
                            up: true,
                        },
                        _ => PortArgs::None,
                    };
                    !open || self.check_port(t, seat, port, ks, &args).is_err()
                }));
                continue;
            }
            let args = match kind {
                Some(PortKind::Basic) => match held(false) {
                    Some(g) => PortArgs::Goods {
                        give: g,
                        get: [Some(g); 3],
                    },
                    None => continue,
                },
                Some(PortKind::Processed) => match held(true) {
                    Some(g) => PortArgs::Goods {
                        give: g,
                        get: [Some(g), Some(g), None],
                    },
                    None => continue,
                },
                Some(PortKind::Price) => PortArgs::Price {
                    good: Good::Wool,
                    up: true,
                },
                _ => PortArgs::None,
            };
            if ways
                .iter()
                .any(|&(ks, open)| open && self.check_port(t, seat, port, ks, &args).is_ok())
            {
                return true;
            }
        }
        false
    }

    pub fn check_row(&self, t: &Turn, seat: u8, from: Hex, to: Hex) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        if p.clan != Clan::MacDonald {
            return Err(Rule::NotMacDonald);
        }
        if t.rowed {
            return Err(Rule::RowUsed);
        }
        if !from.valid() || p.units[Unit::Fisherman.index()] & from.bit() == 0 {
            return Err(Rule::NoFisherman);
        }
        let m = self.map();
        if !to.valid() || crate::grid::ADJ[usize::from(from.0)] & to.bit() == 0 {
            return Err(Rule::OutOfRange);
        }
        if (m.loch | m.port_mask) & to.bit() == 0 {
            return Err(Rule::WrongTerrain);
        }
        if self.occupied() & to.bit() != 0 {
            return Err(Rule::Occupied);
        }
        let others = p.units[Unit::Fisherman.index()] & !from.bit();
        if crate::grid::ADJ[usize::from(to.0)] & others != 0 {
            return Err(Rule::FishermenAdjacent);
        }
        Ok(())
    }

    /// Rowing never triggers the neighbour bonus.
    pub fn apply_row(&mut self, seat: u8, from: Hex, to: Hex) {
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.lift(Unit::Fisherman, from);
            p.put(Unit::Fisherman, to);
        }
    }

    pub fn check_cellar(&self, seat: u8, spot: u8) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        if p.clan != Clan::MacKenzie {
            return Err(Rule::NotMacKenzie);
        }
        let spots = components().clan.cellar.len();
        if usize::from(spot) >= spots || p.cellar[usize::from(spot)] == 0 {
            return Err(Rule::CellarEmpty);
        }
        Ok(())
    }

    pub fn apply_cellar(&mut self, seat: u8, spot: u8) {
        let pay = components()
            .clan
            .cellar
            .get(usize::from(spot))
            .copied()
            .unwrap_or(0);
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.cellar[usize::from(spot)] -= 1;
            p.goods[Good::Whisky.index()] += 1;
            p.money += pay;
        }
    }

    pub fn check_swap(&self, t: &Turn, seat: u8, h: Hex, new: Unit) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        if !h.valid() {
            return Err(Rule::NoSuchHex);
        }
        // Two of one's units are exchanged: not the same hex twice.
        if t.swapped & h.bit() != 0 {
            return Err(Rule::NoExchange);
        }
        let old = p.unit_at(h).ok_or(Rule::NoExchange)?;
        let excluded = |u: Unit| matches!(u, Unit::Field | Unit::Fisherman);
        if excluded(old) || excluded(new) || old == new {
            return Err(Rule::NoExchange);
        }
        if self.terrain_for(new) & self.map().land & h.bit() == 0 {
            return Err(Rule::WrongTerrain);
        }
        // The old unit goes back first, so a MacDonald worker may become another worker.
        let back = usize::from(p.slot(old) == p.slot(new));
        if usize::from(p.supply[p.slot(new)]) + back == 0 {
            return Err(Rule::SupplyEmpty);
        }
        Ok(())
    }

    pub fn apply_swap(&mut self, t: &mut Turn, seat: u8, h: Hex, new: Unit) {
        t.swapped |= h.bit();
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            if let Some(old) = p.unit_at(h) {
                p.lift(old, h);
                let slot = p.slot(old);
                p.supply[slot] += 1;
            }
        }
        self.place_unit(seat, new, h, 0);
        let nb = self.options.port7_neighbour_bonus;
        self.after_placement(t, seat, new, h, nb);
    }
}
