//! Setup decisions: clans chosen in reverse turn order (each with its paired start tile) and
//! the initial workers placed in snake order, paying worker and land (Fergusson: a third,
//! all on border spaces).

use crate::data::components;
use crate::error::Rule;
use crate::ids::{Clan, Hex, Unit};
use crate::map::Mode;
use crate::state::{Player, State};
use arrayvec::ArrayVec;
use rules_core::Kept;

impl Player {
    /// A seat before choosing a clan (`start_tile == 0`).
    pub fn unchosen() -> Player {
        let c = components();
        Player {
            clan: Clan::Buchanan,
            start_tile: 0,
            money: 0,
            goods: [0; 6],
            hops: 0,
            imports: [0; 3],
            meat: 0,
            glory: 0,
            units: [0; 9],
            supply: c.supply,
            shipping: 0,
            tech: [false; 2],
            merchants_track: c.merchants.track,
            merchants_stock: c.merchants.stock,
            market_buy: [0; 6],
            market_sell: [0; 6],
            held: ArrayVec::new(),
            fulfilled: 0,
            ports_used: 0,
            cellar: [0; 4],
            passed: false,
            all: Kept(0),
            open_ports: Kept::default(),
            counts: Kept([0; 9]),
        }
    }
}

impl State {
    pub fn check_clan(&self, clan: Clan) -> Result<(), Rule> {
        let offered = self.offer.iter().any(|(c, _)| *c == clan);
        let taken = self
            .seats
            .iter()
            .any(|p| p.start_tile != 0 && p.clan == clan);
        if !offered || taken {
            return Err(Rule::ClanUnavailable);
        }
        Ok(())
    }

    pub fn apply_clan(&mut self, seat: u8, clan: Clan) {
        let c = components();
        let tile = self
            .offer
            .iter()
            .find(|(k, _)| *k == clan)
            .map_or(1, |(_, t)| *t);
        let small = self.mode() != Mode::Large;
        let Some(p) = self.seats.get_mut(usize::from(seat)) else {
            return;
        };
        p.clan = clan;
        p.start_tile = tile;
        if let Some(st) = usize::from(tile)
            .checked_sub(1)
            .and_then(|i| c.start_tiles.get(i))
        {
            p.money = st.money;
            p.goods = st.goods;
        }
        match clan {
            Clan::Fergusson => p.shipping = c.clan.fergusson_ship[usize::from(!small)],
            Clan::MacDonald => {
                p.shipping = c.clan.macdonald_ship[usize::from(!small)];
                // One pool of workers (slot 6), none in slot 7.
                p.supply[Unit::Woodcutter.index()] = c.clan.macdonald_pool;
                p.supply[Unit::Miner.index()] = 0;
            }
            Clan::Stewart => {
                p.shipping = c.clan.stewart_ship;
                let total = p.merchants_track + p.merchants_stock;
                p.merchants_stock = c.clan.stewart_stock.min(total);
                p.merchants_track = total - p.merchants_stock;
            }
            _ => {}
        }
        p.shipping = p.shipping.min(c.ship_max);
    }

    fn placing_fergusson_third(&self) -> bool {
        matches!(self.phase, crate::state::Phase::Workers { idx } if usize::from(idx) == 2 * self.order.len())
    }

    pub fn check_place(&self, seat: u8, u: Unit, h: Hex) -> Result<(), Rule> {
        let p = self.seat(seat).ok_or(Rule::WrongStep)?;
        if !u.worker() {
            return Err(Rule::UnitNotWorker);
        }
        self.check_spot(p, u, h)?;
        if p.clan == Clan::Fergusson && self.map().border & h.bit() == 0 {
            return Err(Rule::NotBorder);
        }
        let _ = self.placing_fergusson_third();
        if p.money < self.unit_cost(p, u, h, false) {
            return Err(Rule::Money);
        }
        Ok(())
    }

    /// `done` only when no worker can be placed (so setup never stalls).
    pub fn check_place_done(&self, seat: u8) -> Result<(), Rule> {
        let m = self.map();
        let spots = m.land | m.loch | m.port_mask;
        for u in [Unit::Woodcutter, Unit::Miner, Unit::Fisherman] {
            for h in crate::ids::bits(spots & self.terrain_for(u)) {
                if self.check_place(seat, u, h).is_ok() {
                    return Err(Rule::NothingToPlace);
                }
            }
        }
        Ok(())
    }

    pub fn apply_place(&mut self, seat: u8, u: Unit, h: Hex) {
        let Some(p) = self.seat(seat) else { return };
        let cost = self.unit_cost(p, u, h, false);
        self.place_unit(seat, u, h, cost);
    }
}
