//! The shapes of the data files as serde reads them, before [`super::parse`] turns them into
//! [`super::Components`].

use super::Reward;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
pub(super) struct CardRow {
    pub(super) id: String,
    #[serde(default)]
    pub(super) letter: Option<String>,
    #[serde(rename = "type")]
    pub(super) kind: String,
    #[serde(default)]
    pub(super) good: Option<String>,
    pub(super) value: u8,
    pub(super) cost: u8,
    #[serde(default)]
    pub(super) pounds: u8,
    #[serde(default)]
    pub(super) mines_company: Option<String>,
    #[serde(default)]
    pub(super) steps_per_mines: u8,
    #[serde(default)]
    pub(super) shares: BTreeMap<String, u8>,
    #[serde(default)]
    pub(super) seat: Option<u8>,
}

#[derive(Deserialize)]
pub(super) struct CardsFile {
    pub(super) display_deck: Vec<CardRow>,
    pub(super) start_deck: Vec<CardRow>,
    pub(super) expansion_one: Vec<CardRow>,
    pub(super) display_spaces: Vec<PriceRow>,
}

#[derive(Deserialize)]
pub(super) struct PriceRow {
    pub(super) price: u8,
}

#[derive(Deserialize)]
pub(super) struct MapFile {
    pub(super) companies: Vec<CompanyRow>,
    pub(super) base_layout: BaseLayout,
    pub(super) regions: Vec<RegionRow>,
    pub(super) borders: Vec<BorderRow>,
}

#[derive(Deserialize)]
pub(super) struct CompanyRow {
    pub(super) id: String,
    pub(super) first_game_track: String,
    pub(super) base_borders: Vec<BaseBorderRow>,
}

#[derive(Deserialize)]
pub(super) struct BaseBorderRow {
    pub(super) region: u8,
    pub(super) border: String,
}

#[derive(Deserialize)]
pub(super) struct BaseLayout {
    pub(super) columns: u8,
    pub(super) coins_front_to_rear: Vec<u8>,
    pub(super) recoverable_front_to_rear: Vec<bool>,
}

#[derive(Deserialize)]
pub(super) struct RegionRow {
    pub(super) id: u8,
    pub(super) name: String,
    pub(super) reward: Reward,
    pub(super) mines: u8,
}

#[derive(Deserialize)]
pub(super) struct BorderRow {
    pub(super) a: u8,
    pub(super) b: u8,
    pub(super) border: String,
}

#[derive(Deserialize)]
pub(super) struct TracksFile {
    pub(super) action_slots: SlotsRow,
    pub(super) company_sides: Vec<SideRow>,
    pub(super) diamond_track: ValueTrackRow,
    pub(super) bookkeeping_track: ValueTrackRow,
}

#[derive(Deserialize)]
pub(super) struct SlotsRow {
    pub(super) start: u8,
    pub(super) max: u8,
}

#[derive(Deserialize)]
pub(super) struct SideRow {
    pub(super) side: String,
    pub(super) length: u8,
    pub(super) shares: Vec<AtShares>,
    pub(super) rewards: Vec<AtReward>,
}

#[derive(Deserialize)]
pub(super) struct AtShares {
    pub(super) at: u8,
    pub(super) shares: u8,
}

#[derive(Deserialize)]
pub(super) struct AtReward {
    pub(super) at: u8,
    #[serde(default)]
    pub(super) pounds: u8,
    #[serde(default)]
    pub(super) diamonds: u8,
    #[serde(default)]
    pub(super) bonus_marker: u8,
}

#[derive(Deserialize)]
pub(super) struct ValueTrackRow {
    pub(super) length: u8,
    pub(super) values: Vec<AtValue>,
    pub(super) unlocks_slot_at: u8,
    #[serde(default)]
    pub(super) overflow_pounds_per_step: u8,
}

#[derive(Deserialize)]
pub(super) struct AtValue {
    pub(super) at: u8,
    pub(super) value: u8,
}

#[derive(Deserialize)]
pub(super) struct BooksFile {
    pub(super) bookkeeping_point_costs: BTreeMap<String, serde_json::Value>,
    pub(super) books: Vec<BookRow>,
    pub(super) display_spaces: Vec<BookSpaceRow>,
}

#[derive(Deserialize)]
pub(super) struct BookRow {
    pub(super) id: String,
    pub(super) letter: String,
    pub(super) requires: BTreeMap<String, u8>,
    pub(super) reward: Reward,
}

#[derive(Deserialize)]
pub(super) struct BookSpaceRow {
    pub(super) letter: String,
}

#[derive(Deserialize)]
pub(super) struct StartFile {
    pub(super) tiles: Vec<StartRow>,
}

#[derive(Deserialize)]
pub(super) struct StartRow {
    pub(super) id: String,
    pub(super) rest_cards: Vec<String>,
    pub(super) bonus: BTreeMap<String, serde_json::Value>,
    pub(super) first_game_seat: Option<u8>,
}

#[derive(Deserialize)]
pub(super) struct BonusFile {
    pub(super) markers: MarkersRow,
    pub(super) spaces: Vec<BonusRow>,
    pub(super) tiles: Vec<BonusTileRow>,
}

#[derive(Deserialize)]
pub(super) struct MarkersRow {
    pub(super) per_player: u8,
    pub(super) start: BTreeMap<String, u8>,
}

#[derive(Deserialize)]
pub(super) struct BonusRow {
    pub(super) id: String,
    pub(super) kind: String,
    #[serde(default)]
    pub(super) bookkeeping: u8,
    #[serde(default)]
    pub(super) fee: u8,
    #[serde(default)]
    pub(super) per_red: u8,
    #[serde(default)]
    pub(super) of: Option<String>,
    #[serde(default)]
    pub(super) track_steps: u8,
    #[serde(default)]
    pub(super) tile: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct BonusTileRow {
    pub(super) id: String,
    pub(super) kind: String,
    pub(super) value: u8,
}

#[derive(Deserialize)]
pub(super) struct SetupFile {
    pub(super) round_track_coins: BTreeMap<String, serde_json::Value>,
    pub(super) start_pounds: BTreeMap<String, serde_json::Value>,
    pub(super) rounds: BTreeMap<String, serde_json::Value>,
}
