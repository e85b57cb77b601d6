//! Component data, read from `data/caledonia/*.json` (embedded at compile time) and checked.
//!
//! The rules code knows behaviours (what a port or a clan does); the data says how much and
//! how many (costs, prices, contracts, start tiles, the map). A correction — including the
//! replacement of a reconstructed map side by the printed one — is an edit to `data/` alone.
//! The data is a build input, not user input: the tests below prove the embedded files parse
//! and pass [`Components::validate`], so the `expect` in [`components`] is unreachable.

use crate::ids::{Clan, Good, Hex, Import};
use rules_core::DataCoverage;
use std::sync::OnceLock;

pub const FILES: [(&str, &str); 7] = [
    ("map.json", include_str!("../../../data/caledonia/map.json")),
    (
        "contracts.json",
        include_str!("../../../data/caledonia/contracts.json"),
    ),
    (
        "market.json",
        include_str!("../../../data/caledonia/market.json"),
    ),
    (
        "player_board.json",
        include_str!("../../../data/caledonia/player_board.json"),
    ),
    (
        "clans.json",
        include_str!("../../../data/caledonia/clans.json"),
    ),
    (
        "ports.json",
        include_str!("../../../data/caledonia/ports.json"),
    ),
    (
        "scoring.json",
        include_str!("../../../data/caledonia/scoring.json"),
    ),
];

/// A 64-bit FNV-1a hash of the embedded data files.
pub fn data_hash() -> u64 {
    // Hashed once: a game's setup asks for it, and hashing the files byte by byte showed in
    // profiles of the API.
    static HASH: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *HASH.get_or_init(|| hash_files(&FILES))
}

/// The FNV-1a hash of data files, in [`FILES`] order: a data version's name.
pub fn hash_files(files: &[(&str, &str)]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (_, file) in files {
        for b in file.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Verified and reconstructed items over all data files (objects with `reconstructed`).
pub fn coverage() -> DataCoverage {
    FILES.iter().fold(DataCoverage::default(), |c, (_, t)| {
        c.plus(DataCoverage::of_json(t))
    })
}

use crate::raw::{
    BoardFile, ClansFile, ContractsFile, MapFile, MarketFile, PortsFile, ScoringFile,
};
pub use crate::raw::{
    BuildingBonus, DriftDice, FinalScoring, Income, Merchants, NeighbourBonus, Production, Solo,
    SoloRemoval, Technology,
};

// ----- checked components ------------------------------------------------------------------

/// One hex of a module side.
#[derive(Debug, Clone)]
pub struct HexData {
    pub hex: Hex,
    pub grass: bool,
    pub forest: bool,
    pub mountain: bool,
    pub land_cost: u8,
    pub loch: bool,
    /// Bit `d` set: a river runs along edge `d` (e ne nw w sw se).
    pub rivers: u8,
    pub delta: bool,
    pub mist: bool,
    /// `Some(true)`: the 1–2 player port space; `Some(false)`: the 3–4 player one.
    pub port_small: Option<bool>,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Contract {
    /// Goods asked, by [`Good`] index (contracts ask for wool and processed goods only).
    pub goods: [u8; 6],
    pub beef: u8,
    pub mutton: u8,
    pub imports: [u8; 3],
    pub hops: u8,
    pub money: i32,
    pub free_expand: u8,
    pub upgrades: u8,
}

impl Contract {
    pub fn meat(&self) -> u8 {
        self.beef + self.mutton
    }
}

#[derive(Debug, Clone)]
pub struct Track {
    pub prices: Vec<u8>,
    pub start: u8,
    pub bracket: [u8; 2],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortKind {
    Meat,
    Basic,
    Processed,
    Upgrade,
    Money,
    Price,
    Exchange,
    Draw,
    Kickstarter,
}

#[derive(Debug, Clone, Copy)]
pub struct PortData {
    pub kind: PortKind,
    pub money: i32,
    pub glory: u16,
    pub steps: u8,
    pub gain: u8,
    pub units: u8,
    pub cost: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    Basic,
    Processed,
    Production,
    Workers,
    Border,
    Imports,
    Meat,
    Upgrades,
    Expensive,
}

#[derive(Debug, Clone, Copy)]
pub struct RoundTile {
    pub condition: Condition,
    pub per: u16,
    pub glory: u16,
    pub field_glory: u16,
}

#[derive(Debug, Clone, Default)]
pub struct ClanData {
    pub campbell_discount: [i32; 4],
    pub cunningham_milk: i32,
    pub fergusson_workers: u8,
    pub fergusson_ship: [u8; 2],
    pub macdonald_cost: i32,
    pub macdonald_pool: u8,
    pub macdonald_ship: [u8; 2],
    pub mackenzie_income: i32,
    pub cellar: Vec<i32>,
    pub robertson_discount: [i32; 2],
    pub stewart_stock: u8,
    pub stewart_ship: u8,
    pub stewart_income: i32,
    pub macewen_max: u8,
    pub macewen_money: i32,
}

#[derive(Debug, Clone, Copy)]
pub struct StartTile {
    pub money: i32,
    pub goods: [u16; 6],
}

#[derive(Debug)]
pub struct Components {
    /// `sides[module][side-1]`, modules A–D.
    pub sides: [[Vec<HexData>; 2]; 4],
    pub solo_block_cost: u8,
    /// Index `id - 1`.
    pub contracts: Vec<Contract>,
    pub obtain_money: Vec<i32>,
    pub boxes: [u8; 5],
    pub import_steps: Vec<u16>,
    pub building: BuildingBonus,
    pub tracks: Vec<Track>,
    pub neighbour: NeighbourBonus,
    pub drift: DriftDice,
    /// By [`crate::ids::Unit`] index for the first eight units.
    pub unit_cost: [i32; 8],
    pub supply: [u8; 8],
    pub income: Income,
    pub production: Production,
    pub tech: Technology,
    pub ship_cost: i32,
    pub ship_max: u8,
    pub merchants: Merchants,
    pub pass_money: [Vec<i32>; 5],
    pub clan: ClanData,
    pub start_tiles: Vec<StartTile>,
    /// Index `id - 1`.
    pub ports: Vec<PortData>,
    pub tiles: Vec<RoundTile>,
    pub final_: FinalScoring,
    pub solo: Solo,
    /// Rules 3, solo: the export-board boxes of the 1–2 player side and the price-die face
    /// each shows (`None` in data versions made before it existed).
    pub solo_removal: Option<SoloRemoval>,
    /// The static-imports variant's value of every import (`None`: not in this version).
    pub static_import_value: Option<i32>,
}

fn good_index(name: &str) -> Result<usize, String> {
    Good::parse(name)
        .map(Good::index)
        .ok_or_else(|| format!("unknown good {name}"))
}

fn parse_err<T>(file: &str, r: serde_json::Result<T>) -> Result<T, String> {
    r.map_err(|e| format!("{file}: {e}"))
}

fn text<'a>(files: &[(&str, &'a str)], name: &str) -> &'a str {
    files
        .iter()
        .find(|(n, _)| *n == name)
        .map_or("", |(_, t)| t)
}

fn clan_field(v: &[serde_json::Value], clan: Clan, key: &str) -> Result<serde_json::Value, String> {
    v.iter()
        .find(|c| c.get("id").and_then(|x| x.as_str()) == Some(clan.name()))
        .and_then(|c| c.get(key))
        .cloned()
        .ok_or_else(|| format!("clans.json: {clan} lacks {key}"))
}

fn int(v: &serde_json::Value) -> Result<i64, String> {
    v.as_i64().ok_or_else(|| format!("not an integer: {v}"))
}

fn ints(v: &serde_json::Value) -> Result<Vec<i64>, String> {
    v.as_array()
        .ok_or_else(|| format!("not a list: {v}"))?
        .iter()
        .map(int)
        .collect()
}

impl Components {
    /// The embedded data files, checked.
    pub fn load() -> Result<Components, String> {
        Components::load_from(&FILES)
    }

    /// Data files given as (name, text), checked: the embedded ones, or an archived version
    /// (`data/caledonia/archive/`, see [`crate::versions`]).
    pub fn load_from(files: &[(&str, &str)]) -> Result<Components, String> {
        let map: MapFile = parse_err("map.json", serde_json::from_str(text(files, "map.json")))?;
        let mut sides: [[Vec<HexData>; 2]; 4] = Default::default();
        for s in &map.module_sides {
            let m = match s.module.as_str() {
                "A" => 0,
                "B" => 1,
                "C" => 2,
                "D" => 3,
                x => return Err(format!("map.json: unknown module {x}")),
            };
            if !(1..=2).contains(&s.side) {
                return Err(format!("map.json: bad side {}", s.side));
            }
            let mut hexes = Vec::new();
            for h in &s.hexes {
                let hex = Hex::parse(&h.hex).ok_or_else(|| format!("bad hex {}", h.hex))?;
                let mut rivers = 0u8;
                for r in &h.rivers {
                    let d = crate::grid::DIRS
                        .iter()
                        .position(|x| x == r)
                        .ok_or_else(|| format!("bad direction {r}"))?;
                    rivers |= 1 << d;
                }
                let has = |t: &str| h.terrain.iter().any(|x| x == t);
                if h.terrain
                    .iter()
                    .any(|t| !["grassland", "forest", "mountain"].contains(&t.as_str()))
                {
                    return Err(format!("{}: unknown terrain", h.hex));
                }
                hexes.push(HexData {
                    hex,
                    grass: has("grassland"),
                    forest: has("forest"),
                    mountain: has("mountain"),
                    land_cost: h.land_cost,
                    loch: h.loch,
                    rivers,
                    delta: h.delta,
                    mist: h.mist,
                    port_small: match h.port.as_deref() {
                        None => None,
                        Some("1-2") => Some(true),
                        Some("3-4") => Some(false),
                        Some(x) => return Err(format!("bad port space {x}")),
                    },
                });
            }
            sides[m][usize::from(s.side - 1)] = hexes;
        }

        let cf: ContractsFile = parse_err(
            "contracts.json",
            serde_json::from_str(text(files, "contracts.json")),
        )?;
        let mut contracts = vec![Contract::default(); cf.contracts.len()];
        for (i, c) in cf.contracts.iter().enumerate() {
            if usize::from(c.id) != i + 1 {
                return Err(format!(
                    "contracts.json: ids must run 1.. in order ({})",
                    c.id
                ));
            }
            let k = &mut contracts[i];
            for (g, &n) in &c.requires {
                match g.as_str() {
                    "beef" => k.beef = n,
                    "mutton" => k.mutton = n,
                    g => k.goods[good_index(g)?] = n,
                }
            }
            for (r, &n) in &c.rewards {
                match r.as_str() {
                    "hops" => k.hops = n,
                    "money" => k.money = i32::from(n),
                    "free_land_expand" => k.free_expand = n,
                    "bonus_upgrade" => k.upgrades = n,
                    r => {
                        let i = Import::parse(r).ok_or_else(|| format!("unknown reward {r}"))?;
                        k.imports[i.index()] = n;
                    }
                }
            }
        }
        let mut boxes = [0u8; 5];
        for (p, n) in &cf.boxes.by_players {
            let p: usize = p.parse().map_err(|_| format!("bad player count {p}"))?;
            *boxes.get_mut(p).ok_or("player count out of range")? = *n;
        }

        let mf: MarketFile = parse_err(
            "market.json",
            serde_json::from_str(text(files, "market.json")),
        )?;
        let mut tracks = vec![None; 6];
        for t in mf.tracks {
            let g = good_index(&t.good)?;
            tracks[g] = Some(Track {
                prices: t.prices,
                start: t.start,
                bracket: t.bracket,
            });
        }
        let tracks: Vec<Track> = tracks
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .ok_or("market.json: a good has no track")?;

        let bf: BoardFile = parse_err(
            "player_board.json",
            serde_json::from_str(text(files, "player_board.json")),
        )?;
        let mut unit_cost = [0; 8];
        let mut supply = [0; 8];
        for u in &bf.units {
            let i = crate::ids::Unit::parse(&u.unit)
                .map(crate::ids::Unit::index)
                .filter(|&i| i < 8)
                .ok_or_else(|| format!("unknown unit {}", u.unit))?;
            unit_cost[i] = u.cost;
            supply[i] = u.supply;
        }
        let mut pass_money: [Vec<i32>; 5] = Default::default();
        for p in bf.pass_money {
            *pass_money
                .get_mut(usize::from(p.players))
                .ok_or("bad pass money")? = p.value;
        }

        let cl: ClansFile = parse_err(
            "clans.json",
            serde_json::from_str(text(files, "clans.json")),
        )?;
        let f = |c, k| clan_field(&cl.clans, c, k);
        let d4 = ints(&f(Clan::Campbell, "factory_discount")?)?;
        let cellar = f(Clan::MacKenzie, "cellar")?;
        let clan = ClanData {
            campbell_discount: [0, 1, 2, 3].map(|i| d4.get(i).copied().unwrap_or(0) as i32),
            cunningham_milk: int(&f(Clan::Cunningham, "milk_price")?)? as i32,
            fergusson_workers: int(&f(Clan::Fergusson, "start_workers")?)? as u8,
            fergusson_ship: [
                int(&f(Clan::Fergusson, "start_shipping_small")?)? as u8,
                int(&f(Clan::Fergusson, "start_shipping_large")?)? as u8,
            ],
            macdonald_cost: int(&f(Clan::MacDonald, "worker_cost")?)? as i32,
            macdonald_pool: int(&f(Clan::MacDonald, "worker_pool")?)? as u8,
            macdonald_ship: [
                int(&f(Clan::MacDonald, "start_shipping_small")?)? as u8,
                int(&f(Clan::MacDonald, "start_shipping_large")?)? as u8,
            ],
            mackenzie_income: int(&f(Clan::MacKenzie, "whisky_income")?)? as i32,
            cellar: ints(cellar.get("spots").ok_or("cellar spots")?)?
                .into_iter()
                .map(|x| x as i32)
                .collect(),
            robertson_discount: [
                int(&f(Clan::Robertson, "delta_discount_small")?)? as i32,
                int(&f(Clan::Robertson, "delta_discount_large")?)? as i32,
            ],
            stewart_stock: int(&f(Clan::Stewart, "start_merchants_stock")?)? as u8,
            stewart_ship: int(&f(Clan::Stewart, "start_shipping")?)? as u8,
            stewart_income: int(&f(Clan::Stewart, "trade_income")?)? as i32,
            macewen_max: int(&f(Clan::MacEwen, "beer_max")?)? as u8,
            macewen_money: int(f(Clan::MacEwen, "beer_money")?
                .get("value")
                .ok_or("beer money")?)? as i32,
        };
        let mut start_tiles = Vec::new();
        for (i, s) in cl.start_tiles.iter().enumerate() {
            if usize::from(s.id) != i + 1 {
                return Err("clans.json: start tile ids must run 1.. in order".into());
            }
            let mut goods = [0u16; 6];
            for (g, &n) in &s.goods {
                goods[good_index(g)?] = n;
            }
            start_tiles.push(StartTile {
                money: s.money,
                goods,
            });
        }

        let pf: PortsFile = parse_err(
            "ports.json",
            serde_json::from_str(text(files, "ports.json")),
        )?;
        let mut ports = Vec::new();
        for (i, p) in pf.ports.iter().enumerate() {
            if usize::from(p.id) != i + 1 {
                return Err("ports.json: ids must run 1.. in order".into());
            }
            let kind = match p.effect.as_str() {
                "meat" => PortKind::Meat,
                "basic_exchange" => PortKind::Basic,
                "processed_exchange" => PortKind::Processed,
                "upgrade_glory" => PortKind::Upgrade,
                "money" => PortKind::Money,
                "price" => PortKind::Price,
                "exchange" => PortKind::Exchange,
                "money_draw" => PortKind::Draw,
                "kickstarter" => PortKind::Kickstarter,
                x => return Err(format!("ports.json: unknown effect {x}")),
            };
            ports.push(PortData {
                kind,
                money: p.money,
                glory: p.glory,
                steps: p.steps,
                gain: p.gain,
                units: p.units,
                cost: p.cost,
            });
        }

        let sf: ScoringFile = parse_err(
            "scoring.json",
            serde_json::from_str(text(files, "scoring.json")),
        )?;
        let mut tiles = Vec::new();
        for (i, t) in sf.round_tiles.iter().enumerate() {
            if usize::from(t.id) != i + 1 {
                return Err("scoring.json: ids must run 1.. in order".into());
            }
            let condition = match t.condition.as_str() {
                "basic_goods" => Condition::Basic,
                "processed_goods" => Condition::Processed,
                "production_units" => Condition::Production,
                "workers" => Condition::Workers,
                "border_units" => Condition::Border,
                "imports" => Condition::Imports,
                "meat" => Condition::Meat,
                "upgrades" => Condition::Upgrades,
                "expensive_land" => Condition::Expensive,
                x => return Err(format!("scoring.json: unknown condition {x}")),
            };
            tiles.push(RoundTile {
                condition,
                per: t.per.max(1),
                glory: t.glory,
                field_glory: t.field_glory,
            });
        }

        let c = Components {
            sides,
            solo_block_cost: map.solo_blocking.land_cost,
            contracts,
            obtain_money: cf.obtain_money_by_round.value,
            boxes,
            import_steps: cf.import_bonus_steps.value,
            building: cf.building_bonus,
            tracks,
            neighbour: mf.neighbour_bonus,
            drift: mf.drift_dice.with_faces(),
            unit_cost,
            supply,
            income: bf.income,
            production: bf.production,
            tech: bf.technology,
            ship_cost: bf.shipping.cost,
            ship_max: (bf.shipping.levels.len() as u8).saturating_sub(1),
            merchants: bf.merchants,
            pass_money,
            clan,
            start_tiles,
            ports,
            tiles,
            final_: sf.final_,
            solo: sf.solo,
            solo_removal: cf.solo_removal,
            static_import_value: sf.static_imports.map(|v| v.value),
        };
        c.validate()?;
        Ok(c)
    }
}

static COMPONENTS: OnceLock<Components> = OnceLock::new();

/// The embedded components (checked).
pub fn components() -> &'static Components {
    COMPONENTS.get_or_init(|| {
        #[allow(clippy::expect_used)]
        Components::load().expect("embedded data is checked by the data tests")
    })
}

#[cfg(test)]
#[path = "data_tests.rs"]
mod tests;
