//! Views: what a seat or a spectator may see (Ruling 13). Gold is secret until the game ends
//! (a seat sees its own); deck order is never in the state at all; the djinns Sibittis drew
//! are seen by their drawer until one is kept. Everything else on the table is public.

use crate::ids::{Colour, Djinn, Res, Tile};
use crate::state::{Ending, Phase, Stage, State, NOBODY};
use rules_core::{Seat, Viewer};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TileView {
    pub tile: Tile,
    pub kind: String,
    pub vp: u8,
    pub blue: bool,
    pub meeples: BTreeMap<&'static str, u8>,
    pub owner: Option<Seat>,
    pub palms: u8,
    pub palaces: u8,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PlayerView {
    pub seat: Seat,
    /// `None` when hidden from this viewer.
    pub gold: Option<u32>,
    pub viziers: u8,
    pub elders: u8,
    pub camels: u8,
    pub cards: BTreeMap<&'static str, u8>,
    pub djinns: Vec<Djinn>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TurnView {
    pub seat: Seat,
    pub stage: &'static str,
    /// During a move: where the walk stands, where it came from, and the meeples in hand.
    pub at: Option<Tile>,
    pub from: Option<Tile>,
    pub hand: Option<BTreeMap<&'static str, u8>>,
    /// After the move: the tile where it ended.
    pub tile: Option<Tile>,
    /// Assassins or builders returned to the bag, awaiting their action.
    pub tribe_count: Option<u8>,
    /// Sibittis's draw: the djinns for the drawer, only their number for others.
    pub sibittis: Option<Vec<Djinn>>,
    pub sibittis_count: Option<usize>,
    pub djinns_used: Vec<Djinn>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct View {
    pub viewer: String,
    pub players: u8,
    pub round: u16,
    pub phase: &'static str,
    pub ending: Option<Ending>,
    pub board: Vec<TileView>,
    pub bag: BTreeMap<&'static str, u8>,
    pub palms_left: u8,
    pub palaces_left: u8,
    pub resource_row: Vec<Res>,
    pub resource_deck_size: u32,
    pub resource_discard: BTreeMap<&'static str, u8>,
    pub djinn_row: Vec<Djinn>,
    pub djinn_deck_size: u32,
    pub djinn_discard: Vec<Djinn>,
    /// Markers on the bid order track, front first.
    pub bid_order: Vec<Seat>,
    /// The marker on each turn order spot (index = spot, costs in the data).
    pub turn_track: Vec<Option<Seat>>,
    pub seats: Vec<PlayerView>,
    pub turn: Option<TurnView>,
    /// The chance outcome the game waits on, if any.
    pub waiting_on: Option<String>,
}

fn by_colour(h: &[u8; 5]) -> BTreeMap<&'static str, u8> {
    Colour::ALL
        .iter()
        .filter(|c| h[**c as usize] > 0)
        .map(|c| (c.tribe(), h[*c as usize]))
        .collect()
}

fn by_card(cards: &[u8; 10]) -> BTreeMap<&'static str, u8> {
    (0..10u8)
        .filter(|&i| cards[usize::from(i)] > 0)
        .map(|i| (Res(i).code(), cards[usize::from(i)]))
        .collect()
}

impl State {
    pub fn view(&self, viewer: Viewer) -> View {
        let over = matches!(self.phase, Phase::Over);
        let sees_gold = |seat: u8| over || viewer == Viewer::Seat(Seat(seat));
        let board = Tile::all()
            .map(|t| {
                let i = usize::from(t.0);
                let k = self.board.kind_of(t);
                TileView {
                    tile: t,
                    kind: k.code.clone(),
                    vp: k.vp,
                    blue: k.blue,
                    meeples: by_colour(&self.board.meeples[i]),
                    owner: (self.board.owner[i] != NOBODY).then_some(Seat(self.board.owner[i])),
                    palms: self.board.palms[i],
                    palaces: self.board.palaces[i],
                }
            })
            .collect();
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, p)| PlayerView {
                seat: Seat(i as u8),
                gold: sees_gold(i as u8).then_some(p.gold),
                viziers: p.viziers,
                elders: p.elders,
                camels: p.camels,
                cards: by_card(&p.cards),
                djinns: p.djinns.iter().collect(),
            })
            .collect();
        let (phase, turn) = match &self.phase {
            Phase::Deal => ("deal", None),
            Phase::Bid => ("bid", None),
            Phase::Refill => ("refill", None),
            Phase::Over => ("over", None),
            Phase::Turn { seat, stage } => ("turn", Some(self.turn_view(*seat, stage, viewer))),
        };
        View {
            viewer: viewer.to_string(),
            players: self.players,
            round: self.round,
            phase,
            ending: self.ending,
            board,
            bag: by_colour(&self.bag),
            palms_left: self.palms_left,
            palaces_left: self.palaces_left,
            resource_row: self.row.to_vec(),
            resource_deck_size: self.deck_size(),
            resource_discard: by_card(&self.discard),
            djinn_row: self.djinn_row.to_vec(),
            djinn_deck_size: self.djinn_deck.len(),
            djinn_discard: self.djinn_discard.iter().collect(),
            bid_order: self.bid_order.iter().map(|&s| Seat(s)).collect(),
            turn_track: self
                .turn_track
                .iter()
                .map(|&s| (s != NOBODY).then_some(Seat(s)))
                .collect(),
            seats,
            turn,
            waiting_on: self.need().map(|n| n.to_string()),
        }
    }

    fn turn_view(&self, seat: u8, stage: &Stage, viewer: Viewer) -> TurnView {
        let mut v = TurnView {
            seat: Seat(seat),
            stage: "",
            at: None,
            from: None,
            hand: None,
            tile: None,
            tribe_count: None,
            sibittis: None,
            sibittis_count: None,
            djinns_used: self.djinns_used.iter().collect(),
        };
        v.stage = match stage {
            Stage::Start => "start",
            Stage::Moving { at, from, hand } => {
                v.at = Some(*at);
                v.from = *from;
                v.hand = Some(by_colour(hand));
                "moving"
            }
            Stage::Builders { tile, count } => {
                v.tile = Some(*tile);
                v.tribe_count = Some(*count);
                "builders"
            }
            Stage::Assassins { tile, count } => {
                v.tile = Some(*tile);
                v.tribe_count = Some(*count);
                "assassins"
            }
            Stage::TileAction { tile } => {
                v.tile = Some(*tile);
                "tile-action"
            }
            Stage::Free => "free",
            Stage::Sibittis { drawn, .. } => {
                v.sibittis_count = Some(drawn.len());
                if viewer == Viewer::Seat(Seat(seat)) {
                    v.sibittis = Some(drawn.to_vec());
                }
                "sibittis"
            }
        };
        v
    }
}
