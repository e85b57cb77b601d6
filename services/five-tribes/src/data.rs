//! Component data, read from `data/five-tribes/*.json` (embedded at compile time).
//!
//! The rules code knows *behaviours* (what an Oasis or the Djinn Enki does); the data files say
//! *how many* and *how much* (tile values, djinn VP and costs, deck composition, bid costs,
//! supplies). A correction to a count or a value is an edit to `data/` alone.
//!
//! The data is parsed once, on first use. It is a build input, not user input: the tests in
//! this module prove the embedded files parse and hold the published counts, so the
//! `expect` below is unreachable in a tested build.

use crate::ids::{Djinn, TileType};
use serde::Deserialize;
use std::sync::OnceLock;

pub(crate) const TILES_JSON: &str = include_str!("../../../data/five-tribes/tiles.json");
pub(crate) const DJINNS_JSON: &str = include_str!("../../../data/five-tribes/djinns.json");
pub(crate) const RESOURCES_JSON: &str = include_str!("../../../data/five-tribes/resources.json");
pub(crate) const MEEPLES_JSON: &str = include_str!("../../../data/five-tribes/meeples.json");

/// Verified and reconstructed items of the data files (every item says which it is).
pub fn data_coverage() -> rules_core::DataCoverage {
    [TILES_JSON, DJINNS_JSON, RESOURCES_JSON, MEEPLES_JSON]
        .into_iter()
        .map(rules_core::DataCoverage::of_json)
        .fold(
            rules_core::DataCoverage::default(),
            rules_core::DataCoverage::plus,
        )
}

/// A 64-bit FNV-1a hash of the embedded data files, recorded with stored games so that a
/// data correction is visible in their headers.
pub fn data_hash() -> u64 {
    // Hashed once, not per game set up.
    static HASH: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *HASH.get_or_init(|| {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for file in [TILES_JSON, DJINNS_JSON, RESOURCES_JSON, MEEPLES_JSON] {
            for b in file.bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
        h
    })
}

#[derive(Debug, Deserialize)]
struct TilesFile {
    board: BoardDims,
    tiles: Vec<TileRow>,
}

#[derive(Debug, Deserialize)]
struct BoardDims {
    rows: usize,
    columns: usize,
}

#[derive(Debug, Deserialize)]
struct TileRow {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    vp: u8,
    blue: bool,
    code: String,
}

#[derive(Debug, Deserialize)]
struct DjinnsFile {
    djinns: Vec<DjinnRow>,
}

#[derive(Debug, Deserialize)]
struct DjinnRow {
    id: String,
    name: String,
    vp: u8,
    cost: String,
}

#[derive(Debug, Deserialize)]
struct ResourcesFile {
    cards: Vec<CardRow>,
    suit_values: SuitValues,
    row_size: usize,
    small_market: MarketRow,
    large_market: MarketRow,
}

#[derive(Debug, Deserialize)]
struct CardRow {
    id: String,
    kind: String,
    count: u8,
}

#[derive(Debug, Deserialize)]
struct SuitValues {
    values: Vec<u32>,
}

/// A market tile's price and choice.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct MarketRow {
    pub cost: u32,
    pub window: usize,
    pub take: usize,
}

#[derive(Debug, Deserialize)]
struct MeeplesFile {
    meeples: MeepleRow,
    supply: SupplyRow,
    players: PlayersRow,
    bid_track: BidTrackRow,
    djinn_row: usize,
    scoring: Scoring,
}

#[derive(Debug, Deserialize)]
struct MeepleRow {
    codes: Vec<String>,
    counts: Vec<u8>,
    per_tile: usize,
}

#[derive(Debug, Deserialize)]
struct SupplyRow {
    palm_trees: u8,
    palaces: u8,
}

#[derive(Debug, Deserialize)]
struct PlayersRow {
    camels: std::collections::BTreeMap<String, u8>,
    turn_markers: std::collections::BTreeMap<String, u8>,
    start_gold: u32,
}

#[derive(Debug, Deserialize)]
struct BidTrackRow {
    costs: Vec<u32>,
    zero_spots: usize,
}

/// Points per item on the score sheet.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct Scoring {
    pub gold: i32,
    pub vizier: i32,
    pub vizier_majority_per_opponent: i32,
    pub elder: i32,
    pub palm: i32,
    pub palace: i32,
    pub jafaar_vizier: i32,
    pub shamhat_elder: i32,
    pub haurvatat_palm: i32,
}

/// A rules-identical group of tiles (same type and value).
#[derive(Debug, Clone)]
pub struct TileKind {
    pub tile_type: TileType,
    pub vp: u8,
    pub blue: bool,
    /// Notation code, e.g. `P15`.
    pub code: String,
    /// How many tiles of this kind the game has.
    pub count: u8,
}

/// How a djinn's power is paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DjinnCost {
    None,
    ElderOrFakir,
    TwoElderOrElderFakir,
    Fakir,
    FakirsOneOrMore,
}

#[derive(Debug, Clone)]
pub struct DjinnDef {
    pub name: String,
    pub slug: String,
    pub vp: u8,
    pub cost: DjinnCost,
}

/// Everything the rules read from data.
#[derive(Debug)]
pub struct Components {
    pub rows: usize,
    pub columns: usize,
    pub kinds: Vec<TileKind>,
    /// The 30 tiles as kind indices, in data order.
    pub tiles: Vec<u8>,
    pub tile_ids: Vec<String>,
    /// Indexed by `Djinn as usize`.
    pub djinns: Vec<DjinnDef>,
    /// Resource card codes, indexed by `Res`; the last is the Fakir.
    pub card_codes: Vec<String>,
    pub card_counts: Vec<u8>,
    pub suit_values: Vec<u32>,
    pub row_size: usize,
    pub small_market: MarketRow,
    pub large_market: MarketRow,
    pub meeple_codes: Vec<String>,
    pub meeple_counts: [u8; 5],
    pub meeples_per_tile: usize,
    pub palms: u8,
    pub palaces: u8,
    pub camels: [u8; 5],
    pub markers: [u8; 5],
    pub start_gold: u32,
    pub bid_costs: Vec<u32>,
    pub zero_spots: usize,
    pub djinn_row: usize,
    pub scoring: Scoring,
}

/// Why the embedded data was refused.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("{file}: {source}")]
    Json {
        file: &'static str,
        source: serde_json::Error,
    },
    #[error("{0}")]
    Invalid(String),
}

fn json<T: for<'de> Deserialize<'de>>(file: &'static str, text: &str) -> Result<T, DataError> {
    serde_json::from_str(text).map_err(|source| DataError::Json { file, source })
}

fn tile_type(s: &str) -> Result<TileType, DataError> {
    Ok(match s {
        "large_market" => TileType::LargeMarket,
        "small_market" => TileType::SmallMarket,
        "oasis" => TileType::Oasis,
        "village" => TileType::Village,
        "sacred_place" => TileType::SacredPlace,
        other => return Err(DataError::Invalid(format!("unknown tile type {other}"))),
    })
}

fn djinn_cost(s: &str) -> Result<DjinnCost, DataError> {
    Ok(match s {
        "none" => DjinnCost::None,
        "elder_or_fakir" => DjinnCost::ElderOrFakir,
        "elder_plus_elder_or_fakir" => DjinnCost::TwoElderOrElderFakir,
        "fakir" => DjinnCost::Fakir,
        "fakirs_1_or_more" => DjinnCost::FakirsOneOrMore,
        other => return Err(DataError::Invalid(format!("unknown djinn cost {other}"))),
    })
}

fn per_count(map: &std::collections::BTreeMap<String, u8>) -> Result<[u8; 5], DataError> {
    let mut out = [0u8; 5];
    for (n, slot) in out.iter_mut().enumerate().skip(2) {
        *slot = *map
            .get(&n.to_string())
            .ok_or_else(|| DataError::Invalid(format!("no entry for {n} players")))?;
    }
    Ok(out)
}

/// Parses and checks the embedded data.
pub fn load() -> Result<Components, DataError> {
    let tf: TilesFile = json("tiles.json", TILES_JSON)?;
    let df: DjinnsFile = json("djinns.json", DJINNS_JSON)?;
    let rf: ResourcesFile = json("resources.json", RESOURCES_JSON)?;
    let mf: MeeplesFile = json("meeples.json", MEEPLES_JSON)?;

    if tf.board.rows * tf.board.columns != crate::board::TILES
        || tf.tiles.len() != crate::board::TILES
    {
        return Err(DataError::Invalid(
            "the board must be 5 x 6 = 30 tiles".into(),
        ));
    }
    let mut kinds: Vec<TileKind> = Vec::new();
    let mut tiles = Vec::new();
    for t in &tf.tiles {
        let tile_type = tile_type(&t.kind)?;
        let k = match kinds.iter().position(|k| k.code == t.code) {
            Some(k) => {
                if kinds[k].tile_type != tile_type || kinds[k].vp != t.vp || kinds[k].blue != t.blue
                {
                    return Err(DataError::Invalid(format!(
                        "tile code {} used for two kinds",
                        t.code
                    )));
                }
                kinds[k].count += 1;
                k
            }
            None => {
                kinds.push(TileKind {
                    tile_type,
                    vp: t.vp,
                    blue: t.blue,
                    code: t.code.clone(),
                    count: 1,
                });
                kinds.len() - 1
            }
        };
        tiles.push(k as u8);
    }

    let mut djinns: Vec<Option<DjinnDef>> = vec![None; Djinn::ALL.len()];
    for d in &df.djinns {
        let which = Djinn::from_slug(&d.id).ok_or_else(|| {
            DataError::Invalid(format!("djinn {} has no power in the code", d.id))
        })?;
        djinns[which as usize] = Some(DjinnDef {
            name: d.name.clone(),
            slug: d.id.clone(),
            vp: d.vp,
            cost: djinn_cost(&d.cost)?,
        });
    }
    let djinns = djinns
        .into_iter()
        .enumerate()
        .map(|(i, d)| {
            d.ok_or_else(|| {
                DataError::Invalid(format!("djinn {:?} missing from data", Djinn::ALL[i]))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;

    if rf.cards.len() != 10
        || rf.cards[9].kind != "fakir"
        || rf.cards[..9].iter().any(|c| c.kind != "merchandise")
    {
        return Err(DataError::Invalid(
            "resources: 9 merchandise types then the fakir".into(),
        ));
    }
    if rf.suit_values.values.len() != 10 {
        return Err(DataError::Invalid("suit values for 0..=9 goods".into()));
    }
    if mf.meeples.codes.len() != 5 || mf.meeples.counts.len() != 5 {
        return Err(DataError::Invalid("five tribes of meeples".into()));
    }
    if mf.bid_track.costs.len() != crate::state::BID_SPOTS || mf.bid_track.zero_spots != 3 {
        return Err(DataError::Invalid(
            "the bid track has 9 spots, 3 of them free".into(),
        ));
    }
    let meeple_counts = [
        mf.meeples.counts[0],
        mf.meeples.counts[1],
        mf.meeples.counts[2],
        mf.meeples.counts[3],
        mf.meeples.counts[4],
    ];
    if meeple_counts.iter().map(|&c| usize::from(c)).sum::<usize>()
        != mf.meeples.per_tile * crate::board::TILES
    {
        return Err(DataError::Invalid(
            "the bag must fill every tile exactly".into(),
        ));
    }
    Ok(Components {
        rows: tf.board.rows,
        columns: tf.board.columns,
        kinds,
        tiles,
        tile_ids: tf.tiles.iter().map(|t| t.id.clone()).collect(),
        djinns,
        card_codes: rf.cards.iter().map(|c| c.id.clone()).collect(),
        card_counts: rf.cards.iter().map(|c| c.count).collect(),
        suit_values: rf.suit_values.values,
        row_size: rf.row_size,
        small_market: rf.small_market,
        large_market: rf.large_market,
        meeple_codes: mf.meeples.codes,
        meeple_counts,
        meeples_per_tile: mf.meeples.per_tile,
        palms: mf.supply.palm_trees,
        palaces: mf.supply.palaces,
        camels: per_count(&mf.players.camels)?,
        markers: per_count(&mf.players.turn_markers)?,
        start_gold: mf.players.start_gold,
        bid_costs: mf.bid_track.costs,
        zero_spots: mf.bid_track.zero_spots,
        djinn_row: mf.djinn_row,
        scoring: mf.scoring,
    })
}

static COMPONENTS: OnceLock<Components> = OnceLock::new();

/// The game's component data.
pub fn components() -> &'static Components {
    COMPONENTS.get_or_init(|| load().expect("embedded Five Tribes data is checked by tests"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_data_holds_the_published_counts() {
        let c = load().unwrap();
        assert_eq!(c.tiles.len(), 30);
        let blue: usize = c
            .tiles
            .iter()
            .filter(|&&k| c.kinds[k as usize].blue)
            .count();
        assert_eq!(blue, 12);
        let vp: u32 = c
            .tiles
            .iter()
            .map(|&k| u32::from(c.kinds[k as usize].vp))
            .sum();
        assert_eq!(vp, 198);
        let count = |t: TileType| {
            c.tiles
                .iter()
                .filter(|&&k| c.kinds[k as usize].tile_type == t)
                .count()
        };
        assert_eq!(count(TileType::LargeMarket), 4);
        assert_eq!(count(TileType::SmallMarket), 8);
        assert_eq!(count(TileType::Oasis), 6);
        assert_eq!(count(TileType::Village), 5);
        assert_eq!(count(TileType::SacredPlace), 7);
        assert_eq!(c.meeple_counts, [16, 20, 18, 18, 18]);
        assert_eq!(c.card_counts.iter().map(|&n| u32::from(n)).sum::<u32>(), 54);
        assert_eq!(c.card_counts[9], 18);
        assert_eq!(c.djinns.len(), 22);
        assert_eq!(c.djinns.iter().map(|d| u32::from(d.vp)).sum::<u32>(), 141);
        assert_eq!(c.suit_values, vec![0, 1, 3, 7, 13, 21, 30, 40, 50, 60]);
        assert_eq!(c.bid_costs, vec![0, 0, 0, 1, 3, 5, 8, 12, 18]);
        assert_eq!((c.palms, c.palaces), (12, 10));
        assert_eq!(&c.camels[2..], &[11, 8, 8]);
        assert_eq!(&c.markers[2..], &[2, 1, 1]);
        assert_eq!(c.start_gold, 50);
    }

    #[test]
    fn every_data_item_states_its_provenance() {
        for (name, text) in [("tiles", TILES_JSON), ("djinns", DJINNS_JSON)] {
            let v: serde_json::Value = serde_json::from_str(text).unwrap();
            let items = v[name].as_array().unwrap();
            for item in items {
                assert!(
                    item["sources"].as_array().is_some_and(|s| !s.is_empty()),
                    "{name}: {item}"
                );
                assert!(item["reconstructed"].is_boolean(), "{name}: {item}");
            }
        }
    }
}
