//! The layout: what a viewer needs to draw a game and is in no view — the hex grid, both sides
//! of every map module hex by hex, the market tracks and the catalogues of contracts, port
//! tiles and scoring tiles — with `reconstructed` on every item (`schema/views/README.md`).
//!
//! Which side each module shows is dealt, so the options alone cannot assemble the map: the
//! layout gives both sides of each module (the quadrant's place on the grid is fixed), and the
//! view's `modules` names the side in play. A viewer draws, for each module, the side its view
//! names: 120 hexes from one layout and one view, and a replay fetches the layout once. What
//! the options do fix is the map's size (1–2 players play the small map, solo blocks the £1
//! hexes): each hex's `kind` says what it is in a game with these options.
//!
//! Everything comes from the component data (`data/caledonia/`), through the checked
//! [`components`] and, for the provenance flags and port texts the rules never read, the
//! embedded files themselves.

use crate::data::{components, FILES};
use crate::ids::Good as GoodId;
use crate::map::{map, Mode};
use crate::state::Options;
use crate::view::names::{terms, Ask, Good, Module, Pay, PortEffect, ScoringCondition};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// The static geometry and components of a game of Clans of Caledonia with given options.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Layout {
    /// The player count the options fix.
    pub players: u8,
    /// The map these players use: `small` for 1–2 players (the mist is off the map), `large`
    /// for 3–4.
    pub map_size: MapSize,
    /// The hex grid the modules lie on.
    pub grid: Grid,
    /// The four map modules, A–D, each with both of its sides: a view's `modules` says which
    /// side each shows.
    pub modules: Vec<MapModule>,
    /// The market: each good's price track.
    pub market: Vec<MarketTrack>,
    /// Every export contract.
    pub contracts: Vec<ContractCard>,
    /// The port tiles these options deal from.
    pub ports: Vec<PortTile>,
    /// The round scoring tiles these options deal from.
    pub scoring_tiles: Vec<ScoringTile>,
}

/// The map's size: `small` (1–2 players) or `large` (3–4 players).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MapSize {
    Small,
    Large,
}

/// Hex orientation: `pointy-top` (a vertex up, flat sides left and right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Orientation {
    PointyTop,
}

/// How rows are offset: `odd-r` (odd rows, counted from 0, shifted half a hex right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Offset {
    OddR,
}

/// The hex grid.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Grid {
    /// Columns, `a` first (hex ids start with the column letter).
    pub columns: u8,
    /// Rows, `1` first at the top (hex ids end with the row number).
    pub rows: u8,
    /// Hex orientation.
    pub orientation: Orientation,
    /// Row offset.
    pub offset: Offset,
    /// The grid's shape is part of the reconstructed map (no public per-hex data).
    pub reconstructed: bool,
}

/// A map module: its quadrant of the grid and both of its sides.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MapModule {
    /// The module.
    pub module: Module,
    /// Its first column (0-based) on the grid.
    pub first_column: u8,
    /// Its first row (0-based) on the grid.
    pub first_row: u8,
    /// Columns it spans.
    pub columns: u8,
    /// Rows it spans.
    pub rows: u8,
    /// The quadrant's geometry is part of the reconstruction of its sides.
    pub reconstructed: bool,
    /// Its two sides, 1 then 2.
    pub sides: Vec<ModuleSide>,
}

/// One side of a module, hex by hex.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModuleSide {
    /// The side, 1 or 2 (the view's `modules[].side`).
    pub side: u8,
    /// Whether the side is a reconstruction rather than the printed module.
    pub reconstructed: bool,
    /// Its hexes, row by row.
    pub hexes: Vec<MapHex>,
}

/// Terrain of a land hex: `grassland`, `forest`, `mountain` (a hex may have two).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Terrain {
    Grassland,
    Forest,
    Mountain,
}

/// A hex edge, by the direction of the neighbour across it: `e`, `ne`, `nw`, `w`, `sw`, `se`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    E,
    Ne,
    Nw,
    W,
    Sw,
    Se,
}

/// The data's direction order (`grid::DIRS`), as slugs.
const DIRECTIONS: [Direction; 6] = [
    Direction::E,
    Direction::Ne,
    Direction::Nw,
    Direction::W,
    Direction::Sw,
    Direction::Se,
];

/// Which player counts a port space serves: `small-map` (1–2 players) or `large-map` (3–4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PortSpace {
    SmallMap,
    LargeMap,
}

/// What a hex is in a game with these options: `land` (units may stand on it), `loch`,
/// `port` (the module's port space for this player count: a port tile lies on it), `blocked`
/// (solo: a neutral worker stands on it) or `off-map` (in the mist for 1–2 players, or a
/// port space for the other player counts without terrain).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HexKind {
    Land,
    Loch,
    Port,
    Blocked,
    OffMap,
}

/// One hex of a module side.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MapHex {
    /// The hex's id, as in the notation and the view: column letter and row number (`k10`).
    pub id: String,
    /// Column, 0-based (`a` = 0).
    pub column: u8,
    /// Row, 0-based (row `1` = 0).
    pub row: u8,
    /// Axial coordinate q (pointy-top: q = column − (row − row mod 2) / 2).
    pub q: i32,
    /// Axial coordinate r (= row).
    pub r: i32,
    /// The centre's x in half hex widths: 2 × column + row mod 2 (odd rows sit half a hex
    /// right). Multiply by √3 × size / 2 for pixels.
    pub x: u16,
    /// The centre's y in rows: multiply by 1.5 × size for pixels.
    pub y: u16,
    /// Its terrain (empty for lochs and port spaces without land).
    pub terrain: Vec<Terrain>,
    /// What expanding onto it costs on top of the unit (£).
    pub land_cost: u8,
    /// Whether it is a loch.
    pub loch: bool,
    /// The edges with a river along them (listed on both hexes of an edge).
    pub rivers: Vec<Direction>,
    /// Whether it is a river delta (Robertson's discount).
    pub delta: bool,
    /// Whether it is in the mist (off the map for 1–2 players).
    pub mist: bool,
    /// The port space on it, if any, and which player counts use it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "PortSpace")]
    pub port_space: Option<PortSpace>,
    /// What it is with these options.
    pub kind: HexKind,
    /// Whether this hex is a reconstruction (no public source has the per-hex map).
    pub reconstructed: bool,
}

/// A good's price track.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketTrack {
    /// The good.
    pub good: Good,
    /// The price at each step, the cheapest first (the view's `market[].step` indexes it).
    pub prices: Vec<u8>,
    /// The step the marker starts on.
    pub start: u8,
    /// Whether the track's start or drift bracket is reconstructed.
    pub reconstructed: bool,
}

/// An export contract in the catalogue.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContractCard {
    /// The contract's id, 1–50.
    pub id: u8,
    /// What fulfilling it takes.
    pub asks: Vec<Ask>,
    /// What fulfilling it gives.
    pub pays: Vec<Pay>,
    /// Whether its terms are reconstructed.
    pub reconstructed: bool,
}

/// A port tile.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PortTile {
    /// The tile, 1–9 (9: the Kickstarter port).
    pub port: u8,
    /// What it does.
    pub effect: PortEffect,
    /// Its effect in words.
    pub text: String,
    /// Whether its effect is reconstructed.
    pub reconstructed: bool,
}

/// A round scoring tile: at the end of its round, `glory` for every `per` of what its
/// condition counts.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScoringTile {
    /// The tile, 1–9 (9: the Kickstarter tile).
    pub tile: u8,
    /// What it counts.
    pub condition: ScoringCondition,
    /// How many of it score once.
    pub per: u16,
    /// Glory per `per`.
    pub glory: u16,
    /// Glory per field instead, where the tile scores fields apart (0 otherwise).
    pub field_glory: u16,
    /// Whether the tile is reconstructed.
    pub reconstructed: bool,
}

/// A data file's JSON (the embedded, checked files: `Null` is unreachable, and only loses
/// provenance flags and texts).
fn file(name: &str) -> Value {
    FILES
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, t)| serde_json::from_str(t).ok())
        .unwrap_or(Value::Null)
}

/// An item's provenance; an item without a flag counts as reconstructed (never claim more
/// than the data says).
fn flag(v: &Value) -> bool {
    v.get("reconstructed")
        .and_then(Value::as_bool)
        .unwrap_or(true)
}

/// The items of a list in a file, or none.
fn items<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn module_name(m: Module) -> &'static str {
    match m {
        Module::A => "A",
        Module::B => "B",
        Module::C => "C",
        Module::D => "D",
    }
}

/// The layout of a game with options `o`.
pub fn layout(o: &Options) -> Layout {
    let mode = Mode::of(o.players);
    let comp = components();
    let map_file = file("map.json");
    let sides_json = items(&map_file, "module_sides");
    let any_reconstructed = sides_json.is_empty() || sides_json.iter().any(flag);
    let quadrants = map_file.get("assembly").and_then(|a| a.get("quadrants"));
    let modules = Module::ALL
        .iter()
        .enumerate()
        .map(|(i, &module)| {
            let q = quadrants.and_then(|q| q.get(module_name(module)));
            let dim = |k: &str| {
                q.and_then(|q| q.get(k))
                    .and_then(Value::as_u64)
                    .map_or(0, |n| n.min(u64::from(u8::MAX)) as u8)
            };
            let sides: Vec<ModuleSide> = (1..=2u8)
                .map(|side| module_side(i, module, side, mode, sides_json))
                .collect();
            MapModule {
                module,
                first_column: dim("first_column"),
                first_row: dim("first_row"),
                columns: dim("columns"),
                rows: dim("rows"),
                reconstructed: sides.iter().any(|s| s.reconstructed),
                sides,
            }
        })
        .collect();
    let market_file = file("market.json");
    let tracks = items(&market_file, "tracks");
    let contracts_file = file("contracts.json");
    let contract_items = items(&contracts_file, "contracts");
    let ports_file = file("ports.json");
    let port_items = items(&ports_file, "ports");
    let scoring_file = file("scoring.json");
    let tile_items = items(&scoring_file, "round_tiles");
    // The Kickstarter port and tile (id 9) are dealt only with the Kickstarter option.
    let dealt = if o.kickstarter { 9 } else { 8 };
    Layout {
        players: o.players,
        map_size: if mode.small() {
            MapSize::Small
        } else {
            MapSize::Large
        },
        grid: Grid {
            columns: crate::ids::COLS,
            rows: crate::ids::ROWS,
            orientation: Orientation::PointyTop,
            offset: Offset::OddR,
            reconstructed: any_reconstructed,
        },
        modules,
        market: GoodId::ALL
            .iter()
            .zip(&comp.tracks)
            .map(|(&g, t)| MarketTrack {
                good: g.into(),
                prices: t.prices.clone(),
                start: t.start,
                reconstructed: tracks
                    .iter()
                    .find(|v| v.get("good").and_then(Value::as_str) == Some(g.name()))
                    .is_none_or(flag),
            })
            .collect(),
        contracts: comp
            .contracts
            .iter()
            .zip(1u8..)
            .map(|(k, id)| {
                let (asks, pays) = terms(k);
                ContractCard {
                    id,
                    asks,
                    pays,
                    reconstructed: contract_items.get(usize::from(id) - 1).is_none_or(flag),
                }
            })
            .collect(),
        ports: comp
            .ports
            .iter()
            .zip(1u8..)
            .take(dealt)
            .map(|(p, port)| {
                let v = port_items.get(usize::from(port) - 1);
                PortTile {
                    port,
                    effect: p.kind.into(),
                    text: v
                        .and_then(|v| v.get("text"))
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    reconstructed: v.is_none_or(flag),
                }
            })
            .collect(),
        scoring_tiles: comp
            .tiles
            .iter()
            .zip(1u8..)
            .take(dealt)
            .map(|(t, tile)| ScoringTile {
                tile,
                condition: t.condition.into(),
                per: t.per,
                glory: t.glory,
                field_glory: t.field_glory,
                reconstructed: tile_items.get(usize::from(tile) - 1).is_none_or(flag),
            })
            .collect(),
    }
}

/// Side `side` of module `index`: its hexes with what each is under `mode`, classified by the
/// rules' own assembled map with that side on every module (each module fills its own
/// quadrant, so the others do not matter).
fn module_side(
    index: usize,
    module: Module,
    side: u8,
    mode: Mode,
    sides_json: &[Value],
) -> ModuleSide {
    let m = map([side; 4], mode);
    let json = sides_json.iter().find(|s| {
        s.get("module").and_then(Value::as_str) == Some(module_name(module))
            && s.get("side").and_then(Value::as_u64) == Some(u64::from(side))
    });
    let hex_flags = json.map_or(&[][..], |s| items(s, "hexes"));
    let data = components()
        .sides
        .get(index)
        .and_then(|s| s.get(usize::from(side) - 1))
        .map_or(&[][..], Vec::as_slice);
    let hexes = data
        .iter()
        .map(|h| {
            let id = h.hex.to_string();
            let (col, row) = (h.hex.col(), h.hex.row());
            let b = h.hex.bit();
            let kind = if m.port_mask & b != 0 {
                HexKind::Port
            } else if m.loch & b != 0 {
                HexKind::Loch
            } else if m.land & b != 0 {
                HexKind::Land
            } else if m.blocked & b != 0 {
                HexKind::Blocked
            } else {
                HexKind::OffMap
            };
            let mut terrain = Vec::new();
            for (has, t) in [
                (h.grass, Terrain::Grassland),
                (h.forest, Terrain::Forest),
                (h.mountain, Terrain::Mountain),
            ] {
                if has {
                    terrain.push(t);
                }
            }
            MapHex {
                reconstructed: hex_flags
                    .iter()
                    .find(|v| v.get("hex").and_then(Value::as_str) == Some(id.as_str()))
                    .is_none_or(flag),
                id,
                column: col,
                row,
                q: i32::from(col) - (i32::from(row) - i32::from(row % 2)) / 2,
                r: i32::from(row),
                x: 2 * u16::from(col) + u16::from(row % 2),
                y: u16::from(row),
                terrain,
                land_cost: h.land_cost,
                loch: h.loch,
                rivers: DIRECTIONS
                    .iter()
                    .enumerate()
                    .filter(|(d, _)| h.rivers & (1 << d) != 0)
                    .map(|(_, &d)| d)
                    .collect(),
                delta: h.delta,
                mist: h.mist,
                port_space: h.port_small.map(|small| {
                    if small {
                        PortSpace::SmallMap
                    } else {
                        PortSpace::LargeMap
                    }
                }),
                kind,
            }
        })
        .collect();
    ModuleSide {
        side,
        reconstructed: json.is_none_or(flag),
        hexes,
    }
}
