//! What a viewer may see. Everything on the table is public (Ruling C11); the contract pile's
//! order is hidden from everyone (only its size shows), and contracts drawn for a building
//! bonus are seen by their drawer alone until chosen.

use crate::ids::{bits, Clan, Good, Unit};
use crate::state::{Phase, State, Step};
use rules_core::{Seat, ToAct, Viewer};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct UnitView {
    pub hex: String,
    pub unit: Unit,
}

#[derive(Debug, Serialize)]
pub struct SeatView {
    pub seat: u8,
    pub clan: Option<Clan>,
    pub start_tile: u8,
    pub money: i32,
    pub goods: Vec<(Good, u16)>,
    pub hops: u16,
    pub imports: [u16; 3],
    pub glory: u32,
    pub units: Vec<UnitView>,
    pub supply: [u8; 8],
    pub shipping: u8,
    pub tech: [bool; 2],
    pub merchants_track: u8,
    pub merchants_stock: u8,
    pub market_buy: [u8; 6],
    pub market_sell: [u8; 6],
    pub held: Vec<u8>,
    pub fulfilled: Vec<u8>,
    pub ports_used: Vec<u8>,
    pub cellar: [u8; 4],
    pub passed: bool,
}

#[derive(Debug, Serialize)]
pub struct View {
    pub round: u8,
    pub phase: &'static str,
    pub to_act: Option<u8>,
    pub sides: [u8; 4],
    /// (port space, port tile) per corner A–D.
    pub ports: Vec<(String, u8)>,
    pub scoring_tiles: Vec<u8>,
    pub prices: Vec<(Good, i32)>,
    pub boxes: Vec<Option<u8>>,
    /// The number of contracts in the pile; its order is secret.
    pub pile: usize,
    pub import_track: [u16; 3],
    pub order: Vec<u8>,
    pub next_order: Vec<u8>,
    pub offer: Vec<(Clan, u8)>,
    pub seats: Vec<SeatView>,
    /// Contracts drawn for a building bonus, shown to the drawer only.
    pub drawn: Option<Vec<u8>>,
    /// Solo: hexes blocked by neutral workers.
    pub blocked: Vec<String>,
}

impl State {
    pub fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Deal => "deal",
            Phase::Clans { .. } => "clans",
            Phase::Workers { .. } => "workers",
            Phase::Prep => "prep",
            Phase::Action(_) | Phase::Draw(_) => "action",
            Phase::Production { .. } => "production",
            Phase::Over => "over",
        }
    }

    pub fn view(&self, viewer: Viewer) -> View {
        let m = self.map();
        let drawn = match &self.phase {
            Phase::Action(t) => match &t.step {
                Step::Keep { drawn, .. } if viewer == Viewer::Seat(Seat(t.seat)) => {
                    Some(drawn.iter().map(|c| c.0).collect())
                }
                _ => None,
            },
            _ => None,
        };
        let dealt = self.phase != Phase::Deal;
        View {
            round: self.round,
            phase: self.phase_name(),
            to_act: match self.to_act() {
                ToAct::Seat(s) => Some(s.0),
                _ => None,
            },
            sides: self.sides,
            ports: if dealt {
                m.ports
                    .iter()
                    .zip(self.ports)
                    .map(|(h, p)| (h.to_string(), p.0))
                    .collect()
            } else {
                Vec::new()
            },
            scoring_tiles: if dealt {
                self.tiles.iter().map(|t| t.0).collect()
            } else {
                Vec::new()
            },
            prices: Good::ALL.iter().map(|&g| (g, self.price(g))).collect(),
            boxes: self.boxes.iter().map(|b| b.map(|c| c.0)).collect(),
            pile: self.pile_len(),
            import_track: self.import_track,
            order: self.order.to_vec(),
            next_order: self.next_order.to_vec(),
            offer: self.offer.to_vec(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, p)| SeatView {
                    seat: i as u8,
                    clan: (p.start_tile != 0).then_some(p.clan),
                    start_tile: p.start_tile,
                    money: p.money,
                    goods: Good::ALL.iter().map(|&g| (g, p.goods[g.index()])).collect(),
                    hops: p.hops,
                    imports: p.imports,
                    glory: p.glory,
                    units: Unit::ALL
                        .iter()
                        .flat_map(|&u| {
                            bits(p.units[u.index()]).map(move |h| UnitView {
                                hex: h.to_string(),
                                unit: u,
                            })
                        })
                        .collect(),
                    supply: p.supply,
                    shipping: p.shipping,
                    tech: p.tech,
                    merchants_track: p.merchants_track,
                    merchants_stock: p.merchants_stock,
                    market_buy: p.market_buy,
                    market_sell: p.market_sell,
                    held: p.held.iter().map(|c| c.0).collect(),
                    fulfilled: (1..=50u8)
                        .filter(|i| p.fulfilled & (1u64 << i) != 0)
                        .collect(),
                    ports_used: (1..=9u8)
                        .filter(|i| p.ports_used & (1u16 << i) != 0)
                        .collect(),
                    cellar: p.cellar,
                    passed: p.passed,
                })
                .collect(),
            drawn,
            blocked: bits(m.blocked).map(|h| h.to_string()).collect(),
        }
    }
}
