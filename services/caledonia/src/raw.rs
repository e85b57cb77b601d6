//! The shapes of the JSON data files, as read by serde before [`crate::data`] checks them.
//! Field names are the files' keys; the few shapes the rules read as they are (costs,
//! bonuses, scoring tables) are re-exported by [`crate::data`].

use serde::Deserialize;
use std::collections::BTreeMap;

// ----- raw file shapes ---------------------------------------------------------------------

#[derive(Deserialize)]
pub(crate) struct MapFile {
    pub(crate) module_sides: Vec<RawSide>,
    pub(crate) solo_blocking: SoloBlocking,
}
#[derive(Deserialize)]
pub(crate) struct SoloBlocking {
    pub(crate) land_cost: u8,
}
#[derive(Deserialize)]
pub(crate) struct RawSide {
    pub(crate) module: String,
    pub(crate) side: u8,
    pub(crate) hexes: Vec<RawHex>,
}
#[derive(Deserialize)]
pub(crate) struct RawHex {
    pub(crate) hex: String,
    pub(crate) terrain: Vec<String>,
    pub(crate) land_cost: u8,
    pub(crate) loch: bool,
    pub(crate) rivers: Vec<String>,
    pub(crate) delta: bool,
    pub(crate) mist: bool,
    pub(crate) port: Option<String>,
}

#[derive(Deserialize)]
pub(crate) struct ContractsFile {
    pub(crate) contracts: Vec<RawContract>,
    pub(crate) obtain_money_by_round: Values<i32>,
    pub(crate) boxes: Boxes,
    pub(crate) import_bonus_steps: Values<u16>,
    pub(crate) building_bonus: BuildingBonus,
    #[serde(default)]
    pub(crate) solo_removal: Option<SoloRemoval>,
}
/// The solo export board (the 1–2 player side): its boxes, and the price-die face shown on
/// each, box 1 first (rules 3: after each refill the box of the last price-die roll is
/// emptied, its contract out of the game).
#[derive(Debug, Clone, Deserialize)]
pub struct SoloRemoval {
    pub boxes: u8,
    pub die_faces: Vec<i8>,
}
/// A single number.
#[derive(Debug, Deserialize)]
pub(crate) struct Value<T> {
    pub(crate) value: T,
}
#[derive(Deserialize)]
pub(crate) struct Values<T> {
    pub(crate) value: Vec<T>,
}
#[derive(Deserialize)]
pub(crate) struct Boxes {
    pub(crate) by_players: BTreeMap<String, u8>,
}
#[derive(Debug, Deserialize)]
pub struct BuildingBonus {
    pub draw: u8,
    pub keep: u8,
    pub buchanan_draw: u8,
    pub buchanan_keep: u8,
}
#[derive(Deserialize)]
pub(crate) struct RawContract {
    pub(crate) id: u8,
    pub(crate) requires: BTreeMap<String, u8>,
    pub(crate) rewards: BTreeMap<String, u8>,
}

#[derive(Deserialize)]
pub(crate) struct MarketFile {
    pub(crate) tracks: Vec<RawTrack>,
    pub(crate) neighbour_bonus: NeighbourBonus,
    pub(crate) drift_dice: DriftDice,
}
#[derive(Deserialize)]
pub(crate) struct RawTrack {
    pub(crate) good: String,
    pub(crate) prices: Vec<u8>,
    pub(crate) start: u8,
    pub(crate) bracket: [u8; 2],
}
#[derive(Debug, Deserialize)]
pub struct NeighbourBonus {
    pub discount_basic: u8,
    pub discount_processed: u8,
    pub cap: u8,
    pub cap_2p: u8,
}
#[derive(Debug, Deserialize)]
pub struct DriftDice {
    pub goods: u8,
    pub price_die: Vec<i8>,
    /// The faces as bits (`d + 9`: the data check keeps every face within ±9), worked out
    /// at load: every preparation's rolls are checked against them.
    #[serde(skip)]
    faces: u32,
}

impl DriftDice {
    /// Sets [`DriftDice::faces`] from the faces read.
    pub(crate) fn with_faces(self) -> DriftDice {
        let faces = self
            .price_die
            .iter()
            .filter_map(|&d| u32::try_from(i32::from(d) + 9).ok())
            .filter(|&k| k < 32)
            .fold(0, |m, k| m | 1 << k);
        DriftDice { faces, ..self }
    }

    /// Is `d` a face of the price die?
    #[inline]
    pub fn is_face(&self, d: i8) -> bool {
        u32::try_from(i32::from(d) + 9).is_ok_and(|k| k < 32 && self.faces >> k & 1 != 0)
    }
}

#[derive(Deserialize)]
pub(crate) struct BoardFile {
    pub(crate) units: Vec<RawUnit>,
    pub(crate) income: Income,
    pub(crate) production: Production,
    pub(crate) technology: Technology,
    pub(crate) shipping: Shipping,
    pub(crate) merchants: Merchants,
    pub(crate) pass_money: Vec<PassMoney>,
}
#[derive(Deserialize)]
pub(crate) struct RawUnit {
    pub(crate) unit: String,
    pub(crate) cost: i32,
    pub(crate) supply: u8,
}
#[derive(Debug, Deserialize)]
pub struct Income {
    pub woodcutter: [i32; 2],
    pub miner: [i32; 2],
    pub macdonald_worker: i32,
}
#[derive(Debug, Deserialize)]
pub struct Production {
    pub sheep_wool: u16,
    pub cow_milk: u16,
    pub field_grain: u16,
}
#[derive(Debug, Deserialize)]
pub struct Technology {
    pub cost: i32,
    pub bonus_cost: i32,
}
#[derive(Deserialize)]
pub(crate) struct Shipping {
    pub(crate) cost: i32,
    pub(crate) levels: Vec<String>,
}
#[derive(Debug, Deserialize)]
pub struct Merchants {
    pub track: u8,
    pub stock: u8,
    pub hire_cost: i32,
    pub track_spots: u8,
}
#[derive(Deserialize)]
pub(crate) struct PassMoney {
    pub(crate) players: u8,
    pub(crate) value: Vec<i32>,
}

#[derive(Deserialize)]
pub(crate) struct ClansFile {
    pub(crate) clans: Vec<serde_json::Value>,
    pub(crate) start_tiles: Vec<RawStart>,
}
#[derive(Deserialize)]
pub(crate) struct RawStart {
    pub(crate) id: u8,
    pub(crate) money: i32,
    pub(crate) goods: BTreeMap<String, u16>,
}

#[derive(Deserialize)]
pub(crate) struct PortsFile {
    pub(crate) ports: Vec<RawPort>,
}
#[derive(Deserialize)]
pub(crate) struct RawPort {
    pub(crate) id: u8,
    pub(crate) effect: String,
    #[serde(default)]
    pub(crate) money: i32,
    #[serde(default)]
    pub(crate) glory: u16,
    #[serde(default)]
    pub(crate) steps: u8,
    #[serde(default)]
    pub(crate) gain: u8,
    #[serde(default)]
    pub(crate) units: u8,
    #[serde(default)]
    pub(crate) cost: i32,
}

#[derive(Deserialize)]
pub(crate) struct ScoringFile {
    pub(crate) round_tiles: Vec<RawTile>,
    #[serde(rename = "final")]
    pub(crate) final_: FinalScoring,
    pub(crate) solo: Solo,
    #[serde(default)]
    pub(crate) static_imports: Option<Value<i32>>,
}
#[derive(Deserialize)]
pub(crate) struct RawTile {
    pub(crate) id: u8,
    pub(crate) condition: String,
    pub(crate) per: u16,
    pub(crate) glory: u16,
    #[serde(default)]
    pub(crate) field_glory: u16,
}
#[derive(Debug, Deserialize)]
pub struct FinalScoring {
    pub basic: i32,
    pub processed: i32,
    pub money_per_point: i32,
    pub hops: i32,
    pub import_values: [i32; 3],
    pub exports: Vec<i32>,
    pub exports_2p: Vec<i32>,
    pub settlements: Vec<i32>,
    pub settlements_2p: Vec<i32>,
}
#[derive(Debug, Deserialize)]
pub struct Solo {
    pub exports: Vec<[i32; 2]>,
    pub settlements: Vec<[i32; 2]>,
}
