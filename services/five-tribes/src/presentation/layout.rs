//! The layout: what a viewer needs to draw Five Tribes and is in no view — the 6×5 grid of
//! spaces (tiles are dealt onto them at random, so a tile's type is in the view), the two
//! tracks, the markets' terms, and the catalogues of tiles, tribes, cards and djinns.
//!
//! Everything comes from `data/five-tribes/*.json`: the checked numbers through
//! `data::components()`, and the texts and `reconstructed` flags the rules never read from the
//! files themselves. Nothing in the data is reconstructed today; the flags are carried over so
//! that a correction to the data shows in the layout without a code change.

use crate::data::{self, components, DjinnCost};
use crate::ids::{Djinn, Tile};
use crate::view::{Card, TileType};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The static geometry of a Five Tribes game for its number of players.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Layout {
    /// Rows of the grid (5), numbered 1 to 5 from the top in notation.
    pub rows: u8,
    /// Columns of the grid (6), lettered a to f from the left in notation.
    pub columns: u8,
    /// The 30 spaces a tile is dealt onto, row by row from `a1`; the view's `tiles[].id`
    /// names them.
    pub spaces: Vec<Space>,
    /// The kinds of tile (type and value), with how many the game has; the view's
    /// `tiles[].code` names them.
    pub tile_kinds: Vec<TileKind>,
    /// The turn order track, where markers bid: cheapest spot first. The marker on the
    /// highest spot plays first; the free spots hold the latest bidder highest.
    pub turn_order_track: Vec<TrackSpot>,
    /// The bid order track, where markers queue to bid: front (bids next) first. The view's
    /// `bidOrder[i]` stands on spot `i`.
    pub bid_order_track: Vec<QueueSpot>,
    /// What a Small Market sells.
    pub small_market: Market,
    /// What a Large Market sells.
    pub large_market: Market,
    /// Cards the market row holds after each clean-up.
    pub resource_row_size: u8,
    /// Djinns on offer after each clean-up.
    pub djinn_row_size: u8,
    /// The five tribes of meeples and their colours, in the order of the view's `Meeples`.
    pub tribes: Vec<TribeInfo>,
    /// The resource cards, in the order the view lists card counts.
    pub cards: Vec<CardInfo>,
    /// Gold for selling a set of distinct merchandise, by its size (1 to 9).
    pub suit_values: Vec<SuitValue>,
    /// The 22 djinns.
    pub djinns: Vec<DjinnInfo>,
    /// The supplies of palm trees and palaces.
    pub supply: Supply,
    /// What each seat starts with for this number of players.
    pub seat_setup: SeatSetup,
}

/// A space of the grid.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Space {
    /// The space's id, as in notation (`c3`: column c, row 3).
    pub id: Tile,
    /// Row from 0 at the top (notation row − 1).
    pub row: u8,
    /// Column from 0 at the left (`a` = 0).
    pub column: u8,
    /// Whether this item is not verified against a public source.
    pub reconstructed: bool,
}

/// A kind of tile: rules-identical tiles (same type and value).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TileKind {
    /// The kind as in notation (type letter and value: `L4`, `P15`).
    pub code: String,
    /// The tile type.
    #[serde(rename = "type")]
    pub tile_type: TileType,
    /// Victory points printed on the tile.
    pub value: u8,
    /// Whether the value is on a blue background.
    pub blue: bool,
    /// How many tiles of this kind the game has.
    pub count: u8,
    /// Whether this item is not verified against a public source.
    pub reconstructed: bool,
}

/// A spot of the turn order track.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrackSpot {
    /// The spot's id, from 0 (cheapest, plays last).
    pub spot: u8,
    /// Gold a bid on this spot costs (the number a `bid` move names).
    pub cost: u32,
    /// Whether the spot is one of the free spots (a bid of 0).
    pub free: bool,
    /// Whether this item is not verified against a public source.
    pub reconstructed: bool,
}

/// A spot of the bid order track.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueSpot {
    /// The spot's id, from 0 at the front.
    pub spot: u8,
    /// Whether this item is not verified against a public source.
    pub reconstructed: bool,
}

/// A market's terms.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Market {
    /// Gold paid.
    pub cost: u32,
    /// How many cards at the front of the row it chooses among.
    pub window: u8,
    /// How many of those it takes.
    pub take: u8,
    /// Whether this item is not verified against a public source.
    pub reconstructed: bool,
}

/// A tribe's slug: `vizier`, `elder`, `merchant`, `builder`, `assassin`.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Tribe {
    Vizier,
    Elder,
    Merchant,
    Builder,
    Assassin,
}

/// A meeple colour: `yellow`, `white`, `green`, `blue`, `red`.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MeepleColour {
    Yellow,
    White,
    Green,
    Blue,
    Red,
}

/// A tribe of meeples.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TribeInfo {
    /// The tribe (the view's `Meeples` field is its plural: `viziers`).
    pub tribe: Tribe,
    /// Its colour.
    pub colour: MeepleColour,
    /// Its letter in notation (`Y`, `W`, `G`, `B`, `R`).
    pub letter: String,
    /// How many meeples of it the game has.
    pub count: u8,
    /// Whether this item is not verified against a public source.
    pub reconstructed: bool,
}

/// A card's kind: `merchandise` (sold in sets) or `fakir` (pays for djinns and range).
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CardKind {
    Merchandise,
    Fakir,
}

/// A resource card type.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardInfo {
    /// The card, as the view names it.
    pub card: Card,
    /// Its code in notation (`iv`, `fk`).
    pub code: String,
    /// Merchandise or Fakir.
    pub kind: CardKind,
    /// How many of it the deck has.
    pub count: u8,
    /// Whether this item is not verified against a public source.
    pub reconstructed: bool,
}

/// The gold for one set of distinct merchandise.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SuitValue {
    /// Distinct merchandise in the set.
    pub size: u8,
    /// Gold it sells for (and scores at the end).
    pub gold: u32,
}

/// How a djinn's power is paid: `none` (no paid power), `elder-or-fakir`,
/// `two-elders-or-elder-and-fakir`, `fakir`, `fakirs` (Kumarbi: one or more).
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DjinnCostKind {
    None,
    ElderOrFakir,
    TwoEldersOrElderAndFakir,
    Fakir,
    Fakirs,
}

/// A djinn.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DjinnInfo {
    /// The djinn's id, as the view and notation name it.
    pub djinn: Djinn,
    /// Its printed name.
    pub name: String,
    /// Victory points.
    pub vp: u8,
    /// How its power is paid.
    pub cost: DjinnCostKind,
    /// Its power, in words.
    pub power: String,
    /// Whether this item is not verified against a public source.
    pub reconstructed: bool,
}

/// The common supplies.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Supply {
    /// Palm trees in the game.
    pub palm_trees: u8,
    /// Palaces in the game.
    pub palaces: u8,
    /// Whether this item is not verified against a public source.
    pub reconstructed: bool,
}

/// Each seat's starting components.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatSetup {
    /// Seats in this game.
    pub players: u8,
    /// Camels each seat has.
    pub camels: u8,
    /// Turn markers each seat has (two in a two-player game).
    pub markers: u8,
    /// Gold each seat starts with.
    pub start_gold: u32,
    /// Whether this item is not verified against a public source.
    pub reconstructed: bool,
}

// The parts of the data files only the layout reads: texts and provenance flags.

#[derive(Deserialize)]
struct Flag {
    reconstructed: bool,
}

#[derive(Deserialize)]
struct TilesFile {
    board: Flag,
    tiles: Vec<TileRow>,
}

#[derive(Deserialize)]
struct TileRow {
    code: String,
    reconstructed: bool,
}

#[derive(Deserialize)]
struct DjinnsFile {
    djinns: Vec<DjinnRow>,
}

#[derive(Deserialize)]
struct DjinnRow {
    id: String,
    power: String,
    reconstructed: bool,
}

#[derive(Deserialize)]
struct MeeplesFile {
    meeples: Flag,
    supply: Flag,
    players: Flag,
    bid_track: Flag,
}

fn flag_of(text: &str) -> Option<bool> {
    serde_json::from_str::<Flag>(text)
        .ok()
        .map(|f| f.reconstructed)
}

/// The layout for `players` seats; `None` for a player count the game does not have.
pub fn layout(players: u8) -> Option<Layout> {
    let c = components();
    let camels = *c.camels.get(usize::from(players))?;
    let markers = *c.markers.get(usize::from(players))?;
    if camels == 0 || markers == 0 {
        return None;
    }
    let tf: TilesFile = serde_json::from_str(data::TILES_JSON).ok()?;
    let df: DjinnsFile = serde_json::from_str(data::DJINNS_JSON).ok()?;
    let mf: MeeplesFile = serde_json::from_str(data::MEEPLES_JSON).ok()?;
    let resources = flag_of(data::RESOURCES_JSON)?;
    let tribes = [
        Tribe::Vizier,
        Tribe::Elder,
        Tribe::Merchant,
        Tribe::Builder,
        Tribe::Assassin,
    ];
    let colours = [
        MeepleColour::Yellow,
        MeepleColour::White,
        MeepleColour::Green,
        MeepleColour::Blue,
        MeepleColour::Red,
    ];
    let market = |m: data::MarketRow| Market {
        cost: m.cost,
        window: m.window as u8,
        take: m.take as u8,
        reconstructed: resources,
    };
    Some(Layout {
        rows: c.rows as u8,
        columns: c.columns as u8,
        spaces: Tile::all()
            .map(|t| Space {
                id: t,
                row: t.row(),
                column: t.col(),
                reconstructed: tf.board.reconstructed,
            })
            .collect(),
        tile_kinds: c
            .kinds
            .iter()
            .map(|k| TileKind {
                code: k.code.clone(),
                tile_type: k.tile_type.into(),
                value: k.vp,
                blue: k.blue,
                count: k.count,
                reconstructed: tf.tiles.iter().any(|t| t.code == k.code && t.reconstructed),
            })
            .collect(),
        turn_order_track: c
            .bid_costs
            .iter()
            .enumerate()
            .map(|(i, &cost)| TrackSpot {
                spot: i as u8,
                cost,
                free: i < c.zero_spots,
                reconstructed: mf.bid_track.reconstructed,
            })
            .collect(),
        bid_order_track: (0..players * markers)
            .map(|spot| QueueSpot {
                spot,
                reconstructed: mf.players.reconstructed,
            })
            .collect(),
        small_market: market(c.small_market),
        large_market: market(c.large_market),
        resource_row_size: c.row_size as u8,
        djinn_row_size: c.djinn_row as u8,
        tribes: (0..5)
            .map(|i| TribeInfo {
                tribe: tribes[i],
                colour: colours[i],
                letter: c.meeple_codes.get(i).cloned().unwrap_or_default(),
                count: c.meeple_counts.get(i).copied().unwrap_or(0),
                reconstructed: mf.meeples.reconstructed,
            })
            .collect(),
        cards: Card::ALL
            .iter()
            .enumerate()
            .map(|(i, &card)| CardInfo {
                card,
                code: c.card_codes.get(i).cloned().unwrap_or_default(),
                kind: if card == Card::Fakir {
                    CardKind::Fakir
                } else {
                    CardKind::Merchandise
                },
                count: c.card_counts.get(i).copied().unwrap_or(0),
                reconstructed: resources,
            })
            .collect(),
        suit_values: c
            .suit_values
            .iter()
            .enumerate()
            .skip(1)
            .map(|(size, &gold)| SuitValue {
                size: size as u8,
                gold,
            })
            .collect(),
        djinns: Djinn::ALL
            .iter()
            .filter_map(|&d| {
                let def = c.djinns.get(d as usize)?;
                let row = df.djinns.iter().find(|r| r.id == d.slug());
                Some(DjinnInfo {
                    djinn: d,
                    name: def.name.clone(),
                    vp: def.vp,
                    cost: match def.cost {
                        DjinnCost::None => DjinnCostKind::None,
                        DjinnCost::ElderOrFakir => DjinnCostKind::ElderOrFakir,
                        DjinnCost::TwoElderOrElderFakir => DjinnCostKind::TwoEldersOrElderAndFakir,
                        DjinnCost::Fakir => DjinnCostKind::Fakir,
                        DjinnCost::FakirsOneOrMore => DjinnCostKind::Fakirs,
                    },
                    power: row.map(|r| r.power.clone()).unwrap_or_default(),
                    reconstructed: row.is_none_or(|r| r.reconstructed),
                })
            })
            .collect(),
        supply: Supply {
            palm_trees: c.palms,
            palaces: c.palaces,
            reconstructed: mf.supply.reconstructed,
        },
        seat_setup: SeatSetup {
            players,
            camels,
            markers,
            start_gold: c.start_gold,
            reconstructed: mf.players.reconstructed,
        },
    })
}
