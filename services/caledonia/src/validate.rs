//! The invariants of the component data that the rules code relies on, so that no lookup
//! the rules make can go out of range: checked once when the embedded data is loaded.

use crate::data::{Components, PortKind};
use crate::ids::HEXES;

impl Components {
    /// The invariants the rules code relies on (so that it never indexes out of range).
    pub fn validate(&self) -> Result<(), String> {
        for (m, sides) in self.sides.iter().enumerate() {
            for (s, hexes) in sides.iter().enumerate() {
                if hexes.is_empty() {
                    return Err(format!("map: module {m} side {} missing", s + 1));
                }
                let small = hexes.iter().filter(|h| h.port_small == Some(true)).count();
                let large = hexes.iter().filter(|h| h.port_small == Some(false)).count();
                if small != 1 || large != 1 {
                    return Err(format!(
                        "map: module {m} side {} needs one port space per size",
                        s + 1
                    ));
                }
            }
        }
        let mut seen = [false; HEXES];
        for h in self.sides.iter().flat_map(|s| s[0].iter()) {
            seen[usize::from(h.hex.0)] = true;
        }
        if seen.iter().any(|s| !s) {
            return Err("map: the side-1 modules must cover the grid".into());
        }
        if self.contracts.len() != 50 || self.contracts.iter().any(|c| c.meat() > 4) {
            return Err("contracts: 50 contracts, at most 4 animals each".into());
        }
        if self.obtain_money.len() != 5 || self.boxes[1..].iter().any(|&b| b == 0 || b > 6) {
            return Err("contracts: 5 round costs, 1-6 boxes".into());
        }
        if self.building.buchanan_draw > 6 || self.building.draw > 6 || self.building.keep > 2 {
            return Err("building bonus: at most 6 drawn, 2 kept".into());
        }
        if self.tracks.iter().any(|t| {
            t.prices.is_empty()
                || t.prices.len() > 60
                || usize::from(t.start) >= t.prices.len()
                || t.bracket[0] > t.bracket[1]
        }) {
            return Err("market: bad track".into());
        }
        if self.drift.goods as usize > 6
            || self
                .drift
                .price_die
                .iter()
                .any(|&d| d == 0 || d.unsigned_abs() > 9)
        {
            return Err("market: bad drift dice".into());
        }
        if self.supply.iter().any(|&s| s == 0 || s > 8) || self.ship_max > 8 {
            return Err("board: bad supply or shipping".into());
        }
        for p in 1..=4 {
            if self.pass_money[p].len() < p {
                return Err(format!("board: pass money for {p} players"));
            }
        }
        if self.start_tiles.len() < 5 || self.clan.cellar.is_empty() || self.clan.cellar.len() > 4 {
            return Err("clans: start tiles or cellar".into());
        }
        if self.ports.len() != 9 || self.ports[8].kind != PortKind::Kickstarter {
            return Err("ports: 8 ports and the Kickstarter port".into());
        }
        if self.tiles.len() != 9 || self.merchants.track > self.merchants.track_spots {
            return Err("scoring: 8 tiles and the Kickstarter tile".into());
        }
        Ok(())
    }
}
