//! Views: what a seat, a spectator or the omniscient viewer may see (Ruling 13, F15). Gold is
//! secret until the game ends (a seat sees its own); deck order is never in the state at all;
//! the djinns Sibittis drew are seen by their drawer until one is kept. Everything else on the
//! table is public. The omniscient viewer (a finished game's replay) sees every secret.
//!
//! The JSON follows `schema/views/README.md` (camelCase keys, fixed-field objects or lists
//! instead of maps, lowercase slugs, hidden = `null`): its JSON Schema, generated from these
//! types, is the contract of the typed API, so every type and field here is documented. The
//! static geometry (grid, tracks, catalogues of components) is the layout (`presentation`).

use crate::ids::{Colour, Djinn, Res, Tile};
use crate::state::{self, Phase, Stage, State, NOBODY};
use rules_core::{Seat, Viewer};
use schemars::JsonSchema;
use serde::Serialize;
use std::borrow::Cow;

/// What one viewer may see of a Five Tribes position. Tiles are named by the ids of the
/// layout's `spaces` (`c3`), seats by their number (0 first).
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct View {
    /// Whose eyes the view is seen through.
    pub perspective: Perspective,
    /// The seat seen through when `perspective` is `seat`; null otherwise.
    pub viewer_seat: Option<u8>,
    /// Number of seats (2 to 4).
    pub players: u8,
    /// Round number, from 1 (0 before the deal).
    pub round: u16,
    /// The phase of the round.
    pub phase: PhaseName,
    /// Why the game ends when this round does; null while it goes on.
    pub ending: Option<Ending>,
    /// The 30 tiles in layout order (row by row from `a1`); empty before the deal.
    pub tiles: Vec<BoardTile>,
    /// Meeples in the bag, by tribe.
    pub bag: Meeples,
    /// Palm trees left in the supply.
    pub palms_left: u8,
    /// Palaces left in the supply.
    pub palaces_left: u8,
    /// The market: face-up resource cards, front first (a market takes from the front).
    pub resource_row: Vec<RowCard>,
    /// Cards in the resource pile (its order is never known).
    pub resource_deck_size: u32,
    /// The resource discard pile: every card type of the layout's `cards`, in that order.
    pub resource_discard: Vec<CardCount>,
    /// The djinns on offer, in row order.
    pub djinn_row: Vec<Djinn>,
    /// Djinns in the pile (its order is never known).
    pub djinn_deck_size: u32,
    /// The djinn discard pile.
    pub djinn_discard: Vec<Djinn>,
    /// The bid order track: the seat of each marker, front (spot 0, bids next) first.
    pub bid_order: Vec<u8>,
    /// The turn order track: every spot of the layout's `turnOrderTrack`, with the marker on
    /// it.
    pub turn_order_track: Vec<TrackSpot>,
    /// The seats still to play this round, next first (markers on the turn order track,
    /// highest spot first).
    pub turn_order: Vec<u8>,
    /// Each seat's holdings, seat 0 first.
    pub seats: Vec<SeatView>,
    /// The turn being played; null outside the turn phase.
    pub turn: Option<TurnView>,
    /// The chance outcome the game waits on; null when a seat is to move or the game is over.
    pub waiting_on: Option<ChanceWait>,
}

/// Whose eyes a view is seen through: `spectator` (the public table), `seat` (the public
/// table and that seat's secrets) or `omniscient` (every secret, for finished games).
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Perspective {
    Spectator,
    Seat,
    Omniscient,
}

/// The phase of a round: `deal` (waiting on the initial deal), `bid` (markers bid for turn
/// order), `turn` (a seat plays its turn), `refill` (waiting on the clean-up draws), `over`.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum PhaseName {
    Deal,
    Bid,
    Turn,
    Refill,
    Over,
}

/// Why the game ends with the round: `last-camel` (a seat placed its last camel) or
/// `no-meeple-move` (a seat to play had no legal meeple move).
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    LastCamel,
    NoMeepleMove,
}

/// A tile's type, which decides its action: `large-market`, `small-market`, `oasis`,
/// `village`, `sacred-place`.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum TileType {
    LargeMarket,
    SmallMarket,
    Oasis,
    Village,
    SacredPlace,
}

impl From<crate::ids::TileType> for TileType {
    fn from(t: crate::ids::TileType) -> TileType {
        use crate::ids::TileType as T;
        match t {
            T::LargeMarket => TileType::LargeMarket,
            T::SmallMarket => TileType::SmallMarket,
            T::Oasis => TileType::Oasis,
            T::Village => TileType::Village,
            T::SacredPlace => TileType::SacredPlace,
        }
    }
}

/// One tile of the Sultanate and what stands on it.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BoardTile {
    /// The space the tile lies on: an id of the layout's `spaces`, as in notation (`c3`).
    pub id: Tile,
    /// The tile's type.
    #[serde(rename = "type")]
    pub tile_type: TileType,
    /// The tile's kind as in notation and the layout's `tileKinds` (`L4`, `P15`).
    pub code: String,
    /// Victory points printed on the tile.
    pub value: u8,
    /// Whether the value is on a blue background (builders count these tiles).
    pub blue: bool,
    /// Meeples on the tile, by tribe.
    pub meeples: Meeples,
    /// The seat whose camel stands on the tile; null when nobody controls it.
    pub owner: Option<u8>,
    /// Palm trees on the tile.
    pub palms: u8,
    /// Palaces on the tile.
    pub palaces: u8,
}

/// Meeples counted by tribe (each tribe has one colour: see the layout's `tribes`).
#[derive(Debug, Clone, Copy, Default, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Meeples {
    /// Yellow meeples.
    pub viziers: u8,
    /// White meeples.
    pub elders: u8,
    /// Green meeples.
    pub merchants: u8,
    /// Blue meeples.
    pub builders: u8,
    /// Red meeples.
    pub assassins: u8,
}

impl Meeples {
    pub fn of(h: &state::Hand) -> Meeples {
        Meeples {
            viziers: h[Colour::Yellow as usize],
            elders: h[Colour::White as usize],
            merchants: h[Colour::Green as usize],
            builders: h[Colour::Blue as usize],
            assassins: h[Colour::Red as usize],
        }
    }
}

/// A resource card type: nine kinds of merchandise, then the Fakir. The layout's `cards` gives
/// each its notation code and count.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum Card {
    Ivory,
    Jewels,
    Gold,
    Papyrus,
    Silk,
    Spice,
    Fish,
    Wheat,
    Pottery,
    Fakir,
}

impl Card {
    /// In `Res` order, which is the data's order (a test checks the data's names).
    pub const ALL: [Card; Res::COUNT] = [
        Card::Ivory,
        Card::Jewels,
        Card::Gold,
        Card::Papyrus,
        Card::Silk,
        Card::Spice,
        Card::Fish,
        Card::Wheat,
        Card::Pottery,
        Card::Fakir,
    ];
    pub fn of(r: Res) -> Card {
        Card::ALL
            .get(usize::from(r.0))
            .copied()
            .unwrap_or(Card::Fakir)
    }
}

/// How many cards of one type.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CardCount {
    /// The card type.
    pub card: Card,
    /// How many.
    pub count: u8,
}

fn card_counts(cards: &[u8; Res::COUNT]) -> Vec<CardCount> {
    Card::ALL
        .iter()
        .zip(cards)
        .map(|(&card, &count)| CardCount { card, count })
        .collect()
}

/// A card in the market row.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct RowCard {
    /// Its place in the row, from 1 at the front: the number a `buy` move names.
    pub position: u8,
    /// The card.
    pub card: Card,
}

/// One spot of the turn order track (the bid track).
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct TrackSpot {
    /// The spot's id in the layout's `turnOrderTrack`, from 0 (free, plays last) up.
    pub spot: u8,
    /// Gold a bid on this spot costs.
    pub cost: u32,
    /// The seat whose marker stands there; null when the spot is free.
    pub seat: Option<u8>,
}

/// One seat's holdings.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SeatView {
    /// The seat, from 0.
    pub seat: u8,
    /// Gold coins; null when hidden from this viewer (another seat's, before the end).
    pub gold: Option<u32>,
    /// Viziers in front of the seat.
    pub viziers: u8,
    /// Elders in front of the seat.
    pub elders: u8,
    /// Camels not yet placed.
    pub camels: u8,
    /// Tiles the seat controls (its camels on the board).
    pub tiles_owned: u8,
    /// Resource cards held: every card type, in the layout's `cards` order.
    pub cards: Vec<CardCount>,
    /// The seat's djinns.
    pub djinns: Vec<Djinn>,
}

/// Where a turn stands: `start` (before the meeple move), `moving` (dropping meeples),
/// `builders` (the builders' payout), `assassins` (the assassins' kill), `tile-action` (the
/// action of the tile where the move ended), `free` (djinns, sales, end of turn), `sibittis`
/// (keeping one of the djinns Sibittis drew).
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum StageName {
    Start,
    Moving,
    Builders,
    Assassins,
    TileAction,
    Free,
    Sibittis,
}

/// The turn being played.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct TurnView {
    /// The seat playing.
    pub seat: u8,
    /// Where the turn stands.
    pub stage: StageName,
    /// While moving: the tile where the walk stands.
    pub at: Option<Tile>,
    /// While moving: the tile the walk came from (null right after the pick-up).
    pub from: Option<Tile>,
    /// While moving: the meeples still in hand.
    pub hand: Option<Meeples>,
    /// From the end of the move: the tile where it ended (whose tribe and tile act).
    pub tile: Option<Tile>,
    /// Builders or assassins taken, awaiting their action.
    pub tribe_count: Option<u8>,
    /// The djinns Sibittis drew: for the drawer (and the omniscient viewer) only, else null.
    pub sibittis: Option<Vec<Djinn>>,
    /// How many djinns Sibittis drew, for every viewer.
    pub sibittis_count: Option<u8>,
    /// Djinns whose paid power was used this turn.
    pub djinns_used: Vec<Djinn>,
}

/// The chance outcome a game waits on: `deal` (the set-up), `refill` (the clean-up draws),
/// `cards` (resource cards for Sloar or Kandicha), `djinns` (Sibittis's draw), `meeples`
/// (Anun-Nak's meeples from the bag).
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum WaitKind {
    Deal,
    Refill,
    Cards,
    Djinns,
    Meeples,
}

/// What the table must supply next.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ChanceWait {
    /// Which draw.
    pub kind: WaitKind,
    /// Resource cards to draw.
    pub cards: u8,
    /// Djinns to draw.
    pub djinns: u8,
    /// Meeples to draw from the bag.
    pub meeples: u8,
    /// Where Anun-Nak's meeples go; null for other draws.
    pub tile: Option<Tile>,
}

impl ChanceWait {
    fn of(need: crate::Need) -> ChanceWait {
        let none = ChanceWait {
            kind: WaitKind::Deal,
            cards: 0,
            djinns: 0,
            meeples: 0,
            tile: None,
        };
        match need {
            crate::Need::Deal => none,
            crate::Need::Refill { cards, djinns } => ChanceWait {
                kind: WaitKind::Refill,
                cards,
                djinns,
                ..none
            },
            crate::Need::Draw(state::Draw::Cards(cards)) => ChanceWait {
                kind: WaitKind::Cards,
                cards,
                ..none
            },
            crate::Need::Draw(state::Draw::Djinns(djinns)) => ChanceWait {
                kind: WaitKind::Djinns,
                djinns,
                ..none
            },
            crate::Need::Draw(state::Draw::Meeples(meeples, tile)) => ChanceWait {
                kind: WaitKind::Meeples,
                meeples,
                tile: Some(tile),
                ..none
            },
        }
    }
}

// Tiles and djinns serialise as their text forms (`c3`, `al-amin`, in `ids`): their schemas
// say so here, where the view needs them, rather than in the rules' types.

impl JsonSchema for Tile {
    fn schema_name() -> Cow<'static, str> {
        "TileId".into()
    }
    // A plain string wherever a tile is named: a `$defs` entry for a string would become a
    // GraphQL type of its own.
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A space's id, as in notation: column a-f, then row 1-5 (a1 top-left)."
        })
    }
}

impl JsonSchema for Djinn {
    fn schema_name() -> Cow<'static, str> {
        "Djinn".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let slugs: Vec<&str> = Djinn::ALL.iter().map(|d| d.slug()).collect();
        schemars::json_schema!({
            "type": "string",
            "enum": slugs,
            "description": "A djinn, by the id of the layout's `djinns` (name, value, cost, power)."
        })
    }
}

impl State {
    pub fn view(&self, viewer: Viewer) -> View {
        let over = matches!(self.phase, Phase::Over);
        let (perspective, viewer_seat) = match viewer {
            Viewer::Spectator => (Perspective::Spectator, None),
            Viewer::Seat(s) => (Perspective::Seat, Some(s.0)),
            Viewer::Omniscient => (Perspective::Omniscient, None),
        };
        // Before the deal the board holds no tiles yet (its kinds are placeholders).
        let tiles = if matches!(self.phase, Phase::Deal) {
            Vec::new()
        } else {
            Tile::all().map(|t| self.tile_view(t)).collect()
        };
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, p)| SeatView {
                seat: i as u8,
                gold: (over || viewer.sees(Seat(i as u8))).then_some(p.gold),
                viziers: p.viziers,
                elders: p.elders,
                camels: p.camels,
                tiles_owned: self.board.owner.iter().filter(|&&o| o == i as u8).count() as u8,
                cards: card_counts(&p.cards),
                djinns: p.djinns.iter().collect(),
            })
            .collect();
        let (phase, turn) = match &self.phase {
            Phase::Deal => (PhaseName::Deal, None),
            Phase::Bid => (PhaseName::Bid, None),
            Phase::Refill => (PhaseName::Refill, None),
            Phase::Over => (PhaseName::Over, None),
            Phase::Turn { seat, stage } => {
                (PhaseName::Turn, Some(self.turn_view(*seat, stage, viewer)))
            }
        };
        let costs = &crate::data::components().bid_costs;
        View {
            perspective,
            viewer_seat,
            players: self.players,
            round: self.round,
            phase,
            ending: self.ending.map(|e| match e {
                state::Ending::LastCamel => Ending::LastCamel,
                state::Ending::NoMeepleMove => Ending::NoMeepleMove,
            }),
            tiles,
            bag: Meeples::of(&self.bag),
            palms_left: self.palms_left,
            palaces_left: self.palaces_left,
            resource_row: self
                .row
                .iter()
                .enumerate()
                .map(|(i, &r)| RowCard {
                    position: i as u8 + 1,
                    card: Card::of(r),
                })
                .collect(),
            resource_deck_size: self.deck_size(),
            resource_discard: card_counts(&self.discard),
            djinn_row: self.djinn_row.to_vec(),
            djinn_deck_size: self.djinn_deck.len(),
            djinn_discard: self.djinn_discard.iter().collect(),
            bid_order: self.bid_order.to_vec(),
            turn_order_track: self
                .turn_track
                .iter()
                .enumerate()
                .map(|(i, &s)| TrackSpot {
                    spot: i as u8,
                    cost: costs.get(i).copied().unwrap_or(0),
                    seat: (s != NOBODY).then_some(s),
                })
                .collect(),
            turn_order: self
                .turn_track
                .iter()
                .rev()
                .filter(|&&s| s != NOBODY)
                .copied()
                .collect(),
            seats,
            turn,
            waiting_on: self.need().map(ChanceWait::of),
        }
    }

    fn tile_view(&self, t: Tile) -> BoardTile {
        let i = usize::from(t.0);
        let k = self.board.kind_of(t);
        BoardTile {
            id: t,
            tile_type: k.tile_type.into(),
            code: k.code.clone(),
            value: k.vp,
            blue: k.blue,
            meeples: Meeples::of(&self.board.meeples()[i]),
            owner: (self.board.owner[i] != NOBODY).then_some(self.board.owner[i]),
            palms: self.board.palms[i],
            palaces: self.board.palaces[i],
        }
    }

    fn turn_view(&self, seat: u8, stage: &Stage, viewer: Viewer) -> TurnView {
        let mut v = TurnView {
            seat,
            stage: StageName::Start,
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
            Stage::Start => StageName::Start,
            Stage::Moving { at, from, hand } => {
                v.at = Some(*at);
                v.from = *from;
                v.hand = Some(Meeples::of(hand));
                StageName::Moving
            }
            Stage::Builders { tile, count } => {
                v.tile = Some(*tile);
                v.tribe_count = Some(*count);
                StageName::Builders
            }
            Stage::Assassins { tile, count } => {
                v.tile = Some(*tile);
                v.tribe_count = Some(*count);
                StageName::Assassins
            }
            Stage::TileAction { tile } => {
                v.tile = Some(*tile);
                StageName::TileAction
            }
            Stage::Free => StageName::Free,
            Stage::Sibittis { drawn, .. } => {
                v.sibittis_count = Some(drawn.len() as u8);
                if viewer.sees(Seat(seat)) {
                    v.sibittis = Some(drawn.to_vec());
                }
                StageName::Sibittis
            }
        };
        v
    }
}
