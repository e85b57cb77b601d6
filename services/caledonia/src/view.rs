//! What a viewer may see. Everything on the table is public (Ruling C11); the contract pile's
//! order is hidden from everyone (only its size shows), and contracts drawn for a building
//! bonus are seen by their drawer alone until chosen (and by the omniscient viewer).
//!
//! The view follows `schema/views/README.md` (camelCase keys, objects, lowercase slugs) and
//! derives its JSON Schema (`Presentation::view_schema`). Hexes are named as in the notation
//! (`k10`), the ids the layout gives them ([`crate::layout`]); the layout holds what never
//! changes in a game (both sides of every module, the component catalogues), the view which
//! module sides are in play and everything that moves.

pub mod names;

use crate::ids::{bits, Good as GoodId, Unit as UnitId};
use crate::state::{Phase as RulesPhase, State, Step as RulesStep};
use names::{contract, Clan, Contract, Good, GoodCounts, ImportCounts, Module, PortEffect, Unit};
use rules_core::{Seat, ToAct, Viewer};
use schemars::JsonSchema;
use serde::Serialize;

/// One position of Clans of Caledonia as one viewer may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct View {
    /// The round, 1–5; 0 during setup.
    pub round: u8,
    /// Where the game stands.
    pub phase: Phase,
    /// The seat to decide now; null while the dealer is to act or the game is over.
    pub to_act: Option<u8>,
    /// The turn in progress (action phase), absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "TurnView")]
    pub turn: Option<TurnView>,
    /// The side each map module shows, modules A–D (empty before the deal). The layout
    /// holds both sides of every module; draw the side named here.
    pub modules: Vec<ModuleInPlay>,
    /// The four port tiles in play, one on a port space of each module (empty before the
    /// deal).
    pub ports: Vec<PortInPlay>,
    /// The scoring tiles of rounds 1–5 (empty before the deal); the layout describes each.
    pub scoring_tiles: Vec<RoundScoring>,
    /// This round's scoring tile (null during setup).
    pub scoring_tile: Option<u8>,
    /// The market: each good's price marker and prices.
    pub market: Vec<MarketPrice>,
    /// The export board's boxes, in box order, with the contract on offer in each.
    pub export_boxes: Vec<ExportBox>,
    /// How many contracts the pile holds (which ones, and their order, are hidden).
    pub pile: u8,
    /// Contracts out of the game (rules version 3, solo: emptied by the price die).
    pub removed_contracts: Vec<u8>,
    /// The import track: imports delivered by all players so far (zero with the
    /// static-imports option, which keeps no track).
    pub import_track: ImportCounts,
    /// This round's turn order, by seat.
    pub turn_order: Vec<u8>,
    /// Next round's turn order: the seats that have passed, in passing order.
    pub next_turn_order: Vec<u8>,
    /// The clans offered at setup, each with its paired start tile.
    pub clan_offer: Vec<ClanOffer>,
    /// Every seat's board, holdings and units, seat 0 first.
    pub seats: Vec<SeatView>,
    /// A building-bonus draw waiting for its drawer to keep contracts (absent otherwise):
    /// everyone sees that it happened and how many were drawn; the contracts only its drawer
    /// (and the omniscient viewer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "DrawView")]
    pub draw: Option<DrawView>,
    /// Solo: hexes blocked by neutral workers (hex ids of the layout; empty before the deal).
    pub blocked: Vec<String>,
}

/// Where the game stands: `deal` (waiting on the initial deal), `clans` (seats choose clans),
/// `workers` (initial workers), `prep` (a round's preparation: contract refills and market
/// drift), `action`, `production`, `over`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Deal,
    Clans,
    Workers,
    Prep,
    Action,
    Production,
    Over,
}

/// What the seat in turn decides next: `start` (free actions, then the main action),
/// `draw` (waiting for the dealer's building-bonus draw), `keep` (keep drawn contracts),
/// `neighbour` (buy neighbours' goods at a discount), `exchange` (port 7), `fulfil` (rules
/// version 3: a fulfilment waiting for its free expansion), `bonus` (free expansions, bonus
/// upgrades, beer), `after` (free actions after the main action).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    Start,
    Draw,
    Keep,
    Neighbour,
    Exchange,
    Fulfil,
    Bonus,
    After,
}

/// The turn in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TurnView {
    /// The seat whose turn it is.
    pub seat: u8,
    /// What it decides next.
    pub step: Step,
    /// Whether its main action is taken.
    pub main_action_done: bool,
    /// Contracts being fulfilled, waiting for their free expansion (step `fulfil`).
    pub fulfilling: Vec<u8>,
    /// Free expansions still to take (step `bonus`).
    pub free_expansions: u8,
    /// Bonus upgrades still to take.
    pub bonus_upgrades: u8,
    /// Port 7 exchanges still to make.
    pub exchanges: u8,
    /// MacEwen: beer it may still brew.
    pub beer: u8,
}

/// A module and the side it shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModuleInPlay {
    /// The module (quadrant).
    pub module: Module,
    /// Its side, 1 or 2: the layout's `modules[].sides[].side`.
    pub side: u8,
}

/// A port tile on the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PortInPlay {
    /// The module whose port space holds it.
    pub module: Module,
    /// The port space (hex id of the layout).
    pub hex: String,
    /// The port tile, 1–9 (9: the Kickstarter port); the layout's `ports` describe them.
    pub port: u8,
    /// What it does.
    pub effect: PortEffect,
}

/// The scoring tile of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoundScoring {
    /// The round, 1–5.
    pub round: u8,
    /// The tile, 1–9 (9: the Kickstarter tile); the layout's `scoringTiles` describe them.
    pub tile: u8,
}

/// A good's place on the market.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketPrice {
    /// The good.
    pub good: Good,
    /// The price marker's step on the good's track (0 = the cheapest; the layout's
    /// `market[].prices` lists the track).
    pub step: u8,
    /// What one unit costs to buy now.
    pub buy_price: i32,
    /// What one unit pays when sold now (the modelled market has one price per step, so it
    /// equals `buyPrice`).
    pub sell_price: i32,
    /// What one unit costs through the neighbour bonus (the price less its discount).
    pub neighbour_price: i32,
}

/// A box of the export board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportBox {
    /// The box, 1 first.
    pub number: u8,
    /// The contract on offer in it; absent when the box is empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Contract")]
    pub contract: Option<Contract>,
}

/// A clan offered at setup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClanOffer {
    /// The clan.
    pub clan: Clan,
    /// Its paired start tile.
    pub start_tile: u8,
}

/// A building-bonus draw waiting to be kept from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DrawView {
    /// The seat that drew.
    pub seat: u8,
    /// How many contracts it drew.
    pub count: u8,
    /// How many it may keep.
    pub keep: u8,
    /// The contracts drawn: null for a viewer who may not see them.
    pub contracts: Option<Vec<Contract>>,
}

/// One seat's board, holdings and units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatView {
    /// The seat, 0 first.
    pub seat: u8,
    /// Its clan; absent until chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Clan")]
    pub clan: Option<Clan>,
    /// Its start tile; null until its clan is chosen.
    pub start_tile: Option<u8>,
    /// Money (£).
    pub money: i32,
    /// Goods in its storage.
    pub goods: GoodCounts,
    /// Hops from contracts.
    pub hops: u16,
    /// Imports from contracts.
    pub imports: ImportCounts,
    /// Animals slaughtered for contracts.
    pub meat: u16,
    /// Glory (points on the glory track).
    pub glory: i32,
    /// Its units on the map.
    pub units: Vec<PlacedUnit>,
    /// Units left on its player board.
    pub supply: UnitSupply,
    /// Shipping level: 0 none, 1 crosses rivers, n ≥ 2 crosses up to n − 1 lochs.
    pub shipping: u8,
    /// Technology upgrades taken.
    pub technology: Technology,
    /// Its merchants.
    pub merchants: Merchants,
    /// Its merchants on the market, per good (all six goods, in market order).
    pub market: Vec<MarketMerchants>,
    /// Contracts in its export crate(s), not yet fulfilled.
    pub held_contracts: Vec<Contract>,
    /// Contracts fulfilled, by id (the layout's `contracts` describe them).
    pub fulfilled_contracts: Vec<u8>,
    /// Port tiles used, by id (each once per game).
    pub ports_used: Vec<u8>,
    /// MacKenzie's cellar, spot by spot (empty for other clans).
    pub cellar: Vec<CellarSpot>,
    /// Whether it has passed this round.
    pub passed: bool,
}

/// A unit on a hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlacedUnit {
    /// The hex (id of the layout, as in the notation: `k10`).
    pub hex: String,
    /// The unit.
    pub unit: Unit,
}

/// Units left on a player board. MacDonald's workers share one pool, counted as `woodcutter`
/// (its `miner` is then 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnitSupply {
    /// Sheep.
    pub sheep: u8,
    /// Cows.
    pub cow: u8,
    /// Fields.
    pub field: u8,
    /// Cheese dairies.
    pub dairy: u8,
    /// Bakeries.
    pub bakery: u8,
    /// Distilleries.
    pub distillery: u8,
    /// Woodcutters (MacDonald: its whole worker pool).
    pub woodcutter: u8,
    /// Miners.
    pub miner: u8,
}

/// Technology upgrades, one per worker type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Technology {
    /// The woodcutters' upgrade (more income).
    pub woodcutter: bool,
    /// The miners' upgrade (more income).
    pub miner: bool,
}

/// A seat's merchants off the market.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Merchants {
    /// Still on the merchant track (to hire).
    pub track: u8,
    /// In stock, ready to trade.
    pub stock: u8,
}

/// A seat's merchants on one good's market row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketMerchants {
    /// The good.
    pub good: Good,
    /// Merchants on its buying side this round.
    pub buying: u8,
    /// Merchants on its selling side this round.
    pub selling: u8,
}

/// One spot of MacKenzie's whisky cellar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CellarSpot {
    /// The spot, 0 first (a barrel ages from spot to spot each round).
    pub spot: u8,
    /// Barrels on it.
    pub barrels: u8,
}

impl State {
    /// The phase's name for statistics and features (`Game::phase`).
    pub fn phase_name(&self) -> &'static str {
        match self.phase {
            RulesPhase::Deal => "deal",
            RulesPhase::Clans { .. } => "clans",
            RulesPhase::Workers { .. } => "workers",
            RulesPhase::Prep => "prep",
            RulesPhase::Action(_) | RulesPhase::Draw(_) => "action",
            RulesPhase::Production { .. } => "production",
            RulesPhase::Over => "over",
        }
    }

    fn view_phase(&self) -> Phase {
        match self.phase {
            RulesPhase::Deal => Phase::Deal,
            RulesPhase::Clans { .. } => Phase::Clans,
            RulesPhase::Workers { .. } => Phase::Workers,
            RulesPhase::Prep => Phase::Prep,
            RulesPhase::Action(_) | RulesPhase::Draw(_) => Phase::Action,
            RulesPhase::Production { .. } => Phase::Production,
            RulesPhase::Over => Phase::Over,
        }
    }

    fn turn_view(&self) -> Option<TurnView> {
        let t = self.turn()?;
        let (step, fulfilling) = match (&self.phase, &t.step) {
            (RulesPhase::Draw(_), _) => (Step::Draw, Vec::new()),
            (_, RulesStep::Start) => (Step::Start, Vec::new()),
            (_, RulesStep::Keep { .. }) => (Step::Keep, Vec::new()),
            (_, RulesStep::Neighbour { .. }) => (Step::Neighbour, Vec::new()),
            (_, RulesStep::Exchange { .. }) => (Step::Exchange, Vec::new()),
            (_, RulesStep::Fulfil { contracts, .. }) => {
                (Step::Fulfil, contracts.iter().map(|c| c.0).collect())
            }
            (_, RulesStep::Bonus) => (Step::Bonus, Vec::new()),
            (_, RulesStep::After) => (Step::After, Vec::new()),
        };
        Some(TurnView {
            seat: t.seat,
            step,
            main_action_done: t.main_done,
            fulfilling,
            free_expansions: t.expands,
            bonus_upgrades: t.upgrades,
            exchanges: t.exchange,
            beer: t.brew,
        })
    }

    /// The pending building-bonus draw: its contracts only for a viewer who sees the drawer's
    /// secrets (the drawer, or the omniscient viewer: Ruling C11).
    fn draw_view(&self, viewer: Viewer) -> Option<DrawView> {
        let RulesPhase::Action(t) = &self.phase else {
            return None;
        };
        let RulesStep::Keep { drawn, max } = &t.step else {
            return None;
        };
        Some(DrawView {
            seat: t.seat,
            count: drawn.len() as u8,
            keep: *max,
            contracts: viewer
                .sees(Seat(t.seat))
                .then(|| drawn.iter().map(|&c| contract(c)).collect()),
        })
    }

    pub fn view(&self, viewer: Viewer) -> View {
        let m = self.map();
        let dealt = self.phase != RulesPhase::Deal;
        View {
            round: self.round,
            phase: self.view_phase(),
            to_act: match self.to_act() {
                ToAct::Seat(s) => Some(s.0),
                _ => None,
            },
            turn: self.turn_view(),
            modules: if dealt {
                Module::ALL
                    .iter()
                    .zip(self.sides())
                    .map(|(&module, side)| ModuleInPlay { module, side })
                    .collect()
            } else {
                Vec::new()
            },
            ports: if dealt {
                Module::ALL
                    .iter()
                    .zip(m.ports.iter().zip(self.ports))
                    .filter_map(|(&module, (h, p))| {
                        Some(PortInPlay {
                            module,
                            hex: h.to_string(),
                            port: p.0,
                            effect: self.port_kind(p)?.into(),
                        })
                    })
                    .collect()
            } else {
                Vec::new()
            },
            scoring_tiles: if dealt {
                self.tiles
                    .iter()
                    .zip(1u8..)
                    .map(|(t, round)| RoundScoring { round, tile: t.0 })
                    .collect()
            } else {
                Vec::new()
            },
            scoring_tile: usize::from(self.round)
                .checked_sub(1)
                .and_then(|i| self.tiles.get(i))
                .filter(|_| dealt)
                .map(|t| t.0),
            market: GoodId::ALL
                .iter()
                .map(|&g| MarketPrice {
                    good: g.into(),
                    step: self.prices[g.index()],
                    buy_price: self.price(g),
                    sell_price: self.price(g),
                    neighbour_price: self.nb_price(g),
                })
                .collect(),
            export_boxes: self
                .boxes
                .iter()
                .zip(1u8..)
                .map(|(b, number)| ExportBox {
                    number,
                    contract: b.map(contract),
                })
                .collect(),
            pile: self.pile_len().min(usize::from(u8::MAX)) as u8,
            removed_contracts: (1..=50u8)
                .filter(|i| self.removed & (1u64 << i) != 0)
                .collect(),
            import_track: ImportCounts::of(self.import_track),
            turn_order: self.order.to_vec(),
            next_turn_order: self.next_order.to_vec(),
            clan_offer: self
                .offer
                .iter()
                .map(|&(clan, start_tile)| ClanOffer {
                    clan: clan.into(),
                    start_tile,
                })
                .collect(),
            seats: (0u8..)
                .zip(&self.seats)
                .map(|(i, p)| self.seat_view(i, p))
                .collect(),
            draw: self.draw_view(viewer),
            // Before the deal the sides are placeholders: no map, nothing blocked yet.
            blocked: if dealt {
                bits(m.blocked).map(|h| h.to_string()).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// Everything on a player's board is public (Ruling C11).
    fn seat_view(&self, seat: u8, p: &crate::state::Player) -> SeatView {
        let chosen = p.start_tile != 0;
        let s = p.supply;
        SeatView {
            seat,
            clan: chosen.then(|| p.clan.into()),
            start_tile: chosen.then_some(p.start_tile),
            money: p.money,
            goods: GoodCounts::of(p.goods),
            hops: p.hops,
            imports: ImportCounts::of(p.imports),
            meat: p.meat,
            glory: i32::try_from(p.glory).unwrap_or(i32::MAX),
            units: UnitId::ALL
                .iter()
                .flat_map(|&u| {
                    bits(p.units[u.index()]).map(move |h| PlacedUnit {
                        hex: h.to_string(),
                        unit: u.into(),
                    })
                })
                .collect(),
            supply: UnitSupply {
                sheep: s[0],
                cow: s[1],
                field: s[2],
                dairy: s[3],
                bakery: s[4],
                distillery: s[5],
                woodcutter: s[6],
                miner: s[7],
            },
            shipping: p.shipping,
            technology: Technology {
                woodcutter: p.tech[0],
                miner: p.tech[1],
            },
            merchants: Merchants {
                track: p.merchants_track,
                stock: p.merchants_stock,
            },
            market: GoodId::ALL
                .iter()
                .map(|&g| MarketMerchants {
                    good: g.into(),
                    buying: p.market_buy[g.index()],
                    selling: p.market_sell[g.index()],
                })
                .collect(),
            held_contracts: p.held.iter().map(|&c| contract(c)).collect(),
            fulfilled_contracts: (1..=50u8)
                .filter(|i| p.fulfilled & (1u64 << i) != 0)
                .collect(),
            ports_used: (1..=9u8)
                .filter(|i| p.ports_used & (1u16 << i) != 0)
                .collect(),
            cellar: if p.clan == crate::ids::Clan::MacKenzie && chosen {
                (0u8..)
                    .zip(p.cellar)
                    .map(|(spot, barrels)| CellarSpot { spot, barrels })
                    .collect()
            } else {
                Vec::new()
            },
            passed: p.passed,
        }
    }
}
