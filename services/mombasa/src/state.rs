//! The position: the table (display, deck, books, map, bases, bonus spaces) and each seat's
//! board, hand and action area, plus where the round stands.

use crate::data::{self, Card, Components};
use crate::ids::{CardId, Company, DECK_CARDS, MAX_SEATS, NONE, OWN_CARDS, SLOTS};
use crate::track::Track;
use crate::undo::Spare;
pub use crate::undo::Undo;
use rules_core::Kept;
use serde::{Deserialize, Serialize};

/// Options of a game.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub players: u8,
    /// Step 17: each seat gets its fixed start tile instead of choosing one of two (Ruling M1).
    #[serde(default)]
    pub first_game: bool,
    /// The track cards pick which track side goes to which company (a chance at setup);
    /// without them, A1–D1 as the text says for the first game.
    #[serde(default)]
    pub track_cards: bool,
    /// Step 13, for a table game: the first player, chosen at the table. Without it (rules
    /// version 2) the setup deal draws the first player; rules version 1 always had seat 0.
    #[serde(default)]
    pub first_player: Option<u8>,
}

/// Written by hand for one reason: the stored, canonical options (JSON) leave `first_player`
/// out when it is not given, so the options of games made before it existed read the same; a
/// snapshot (postcard, which has no field names to skip by) keeps every field.
impl Serialize for Options {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let skip = s.is_human_readable() && self.first_player.is_none();
        let mut st = s.serialize_struct("Options", 4)?;
        st.serialize_field("players", &self.players)?;
        st.serialize_field("first_game", &self.first_game)?;
        st.serialize_field("track_cards", &self.track_cards)?;
        if skip {
            st.skip_field("first_player")?;
        } else {
            st.serialize_field("first_player", &self.first_player)?;
        }
        st.end()
    }
}

/// The rules version a game plays under (`Game::rules_versions`): a stored game keeps the
/// behaviour it was recorded with, and the rules branch on this where behaviour changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Rules {
    /// `mombasa/1`: seat 0 starts; a displaced post never re-covers a rear space; books taken
    /// are replaced at preparation; no `cancel`; rest piles stay at the end.
    V1,
    /// `mombasa/2` (issue 13): the first player is drawn or chosen at setup and the "1"
    /// cards and first-game tiles count from them; M5 as written; a book taken is replaced at
    /// once; an unfinished action can be cancelled; rest piles go back to hand at the end.
    V2,
    /// `mombasa/3` (issue 37): no company-track space pays a bonus marker (a seat has only the
    /// markers of setup step 11: ruling M15); a bonus tile another seat holds cannot be won
    /// (ruling M16: its majority space pays its steps alone).
    V3,
    /// `mombasa/4` (issue 39): one `cancel` a turn (ruling MB18): an action begun after a
    /// cancel cannot be cancelled, so no seat can begin and take back actions forever.
    V4,
}

impl Rules {
    /// The version new games are created under.
    pub const CURRENT: Rules = Rules::V4;
    /// Every version this build replays, the current one first.
    pub const ALL: [Rules; 4] = [Rules::V4, Rules::V3, Rules::V2, Rules::V1];

    /// The version's name, as stored with a game.
    pub const fn name(self) -> &'static str {
        match self {
            Rules::V1 => "mombasa/1",
            Rules::V2 => "mombasa/2",
            Rules::V3 => "mombasa/3",
            Rules::V4 => "mombasa/4",
        }
    }

    pub fn from_name(name: &str) -> Option<Rules> {
        Rules::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Waiting on the setup deal (display, book display, track sides).
    Setup,
    /// Waiting on the 2 start tiles of the first seat not yet dealt.
    StartDeal,
    /// Seats choose a start tile, in secret.
    StartKeep,
    /// Waiting on the reveal of the kept start tiles.
    StartReveal,
    /// Seats place cards face down, in secret.
    Planning,
    /// Waiting on the reveal of every plan.
    Reveal,
    /// The action phase.
    Actions,
    /// The preparation phase: waiting on the display and book refill.
    Prep,
    Over,
}

/// Where a turn in the action phase stands: `Top` between actions, otherwise inside one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stage {
    Top,
    /// Goods units to spend (buy at most one card, step company tracks).
    Goods {
        units: u8,
        bought: bool,
    },
    /// Expansion points to spend for `company`; `entered` the regions entered so far.
    Expand {
        company: Company,
        points: u8,
        entered: u32,
    },
    /// A bookkeeper moving the ink marker; `points` come after it stops.
    Clerk {
        points: u8,
        flipped: bool,
        moved: u8,
    },
    /// Bookkeeping points that must be spent now.
    Points {
        left: u8,
    },
    /// Company-track steps from a majority space.
    Steps {
        left: u8,
    },
}

/// One seat's board, hand and action area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Player {
    pub pounds: u16,
    /// Cards in hand, as a mask over [`CardId`]s.
    pub hand: u128,
    /// The rest piles above slots 1..5.
    pub piles: [u128; SLOTS],
    /// The card planned in each action slot ([`NONE`] for none).
    pub slots: [u8; SLOTS],
    /// Slots whose card is face up (revealed and not yet used).
    pub face_up: u8,
    /// Bonus tiles in the action area (mask over tiles) and those still unused.
    pub tiles: u8,
    pub tiles_up: u8,
    pub diamond: u8,
    pub ink: u8,
    /// Books on the bookkeeping track, in order (space 1 first).
    pub books: Track,
    /// Books turned face down (mask over track spaces, bit 0 = space 1).
    pub flipped: u16,
    /// Marker position on each company track.
    pub track: [u8; 4],
    /// Bonus markers owned and placed this round.
    pub markers: u8,
    pub markers_used: u8,
    pub ready: bool,
    pub ended: bool,
    /// The two start tiles dealt and the one kept ([`NONE`] before).
    pub dealt: [u8; 2],
    pub start: u8,
}

impl Player {
    pub fn new(pounds: u16, markers: u8) -> Self {
        Player {
            pounds,
            hand: 0,
            piles: [0; SLOTS],
            slots: [NONE; SLOTS],
            face_up: 0,
            tiles: 0,
            tiles_up: 0,
            diamond: 0,
            ink: 0,
            books: Track::default(),
            flipped: 0,
            track: [0; 4],
            markers,
            markers_used: 0,
            ready: false,
            ended: false,
            dealt: [NONE; 2],
            start: NONE,
        }
    }

    /// Action slots open: 3, one more for each of the diamond and bookkeeping unlock spaces
    /// reached (on the tracks of `c`, the game's data: [`State::data`]).
    pub fn open_slots(&self, c: &Components) -> usize {
        usize::from(c.slots_start)
            + usize::from(self.diamond >= c.diamond.unlock)
            + usize::from(self.ink >= c.bookkeeping.unlock)
    }

    /// The face-up card in `slot`, if any.
    pub fn up_card(&self, slot: usize) -> Option<CardId> {
        let id = *self.slots.get(slot)?;
        (id != NONE && self.face_up & (1 << slot) != 0).then_some(CardId(id))
    }

    /// Every card the seat owns, wherever it is.
    pub fn all_cards(&self) -> u128 {
        let mut m = self.hand;
        for p in self.piles {
            m |= p;
        }
        for &s in &self.slots {
            if s != NONE {
                m |= CardId(s).bit();
            }
        }
        m
    }

    pub fn markers_left(&self) -> u8 {
        self.markers.saturating_sub(self.markers_used)
    }
}

/// The whole position.
///
/// Serialised as its fields (the derive, under `remote = "Self"`, writes `State::serialize` and
/// `State::deserialize`; the trait impls below call them), so that reading a state can set the
/// component data it keeps beside the position ([`State::data`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct State {
    pub options: Options,
    pub players: u8,
    pub phase: Phase,
    /// 1..=7 once the game has started, 0 during setup.
    pub round: u8,
    /// The first player this round, and the one the first-player space named for the next.
    pub first: u8,
    pub next_first: u8,
    /// The first player of the setup (step 13), from whom the "1" cards (step 14) and the
    /// first-game start tiles (step 17) are counted.
    pub setup_first: u8,
    /// The seat whose turn it is in the action phase.
    pub turn: u8,
    pub stage: Stage,
    pub seats: Vec<Player>,
    /// Card display, by [`crate::ids::DisplayPos`] ([`NONE`] = empty).
    pub display: [u8; 12],
    /// Deck cards not yet drawn (mask over deck card ids): their order is never stored.
    pub deck: u64,
    /// Deck cards on the discard pile.
    pub discard: u64,
    /// Start cards sold to the box.
    pub boxed: u128,
    /// Book display by [`crate::ids::BookSpace`], the coins on each space, and the books
    /// still in the supply (face down, order never stored).
    pub book_display: [u8; 12],
    pub book_coins: [u8; 12],
    pub book_supply: u128,
    /// Coins still on round-track spaces 2..7.
    pub round_coins: [u8; 6],
    /// The track side (index into the data's sides) of each company.
    pub sides: [u8; 4],
    /// Each company base: one mask per column, bit 0 = the front space (nearest the map).
    pub bases: [[u8; 3]; 4],
    /// Trading posts no longer in play (a displaced post with no space to return to).
    pub boxed_posts: [u8; 4],
    /// The company holding each region (`NONE` = empty).
    pub map: [u8; 24],
    /// The seat whose marker is on each bonus space this round.
    pub bonus: [u8; 8],
    /// The seat in whose action area each bonus tile is, and who won it this round (rules 3:
    /// a tile is held from the moment it is won until it returns, and no other seat wins it
    /// meanwhile: [`State::may_win_tile`]).
    pub tile_at: [u8; 8],
    pub tile_won: [u8; 8],
    /// The rules version the game plays under.
    pub rules: Rules,
    /// Rules 2: the book display space whose book was just taken, waiting on the chance entry
    /// that replaces it from the same pile ([`NONE`]: none).
    pub book_refill: u8,
    /// Rules 2: the position before the unfinished action of the seat to act began, which
    /// `cancel` restores ([`Undo`]); nothing between actions and once the action has drawn
    /// from a pile (what was revealed cannot be taken back); rules 4: spent once a cancel was
    /// used this turn.
    pub undo: Undo,
    /// The box of the last kept position, for the next one ([`crate::undo`]): not part of
    /// the position.
    #[serde(skip)]
    pub(crate) spare: Spare,
    /// The hash of the component-data version the game is played under (`data_hash` of its
    /// record): every rule reads that version's tables through [`State::data`]. Last, so that
    /// a snapshot made before this field existed fails to decode (and the store replays the
    /// log) instead of being misread. Never changed after the state is made, so neither are
    /// its tables, kept beside it.
    pub data: u64,
    /// The tables of `data`, which rules read several times an entry: finding them among the
    /// versions each time cost a twentieth of a replay. Not part of the position; set when a
    /// state is made or read.
    #[serde(skip, default = "current_components")]
    pub(crate) components: Kept<&'static Components>,
}

/// Only for the moment between reading a state's fields and setting its tables.
fn current_components() -> Kept<&'static Components> {
    Kept(data::components())
}

/// The tables of the data version `hash`; the current data for a version this build does not
/// have (a decoded state naming one), rather than a panic.
fn components_of(hash: u64) -> Kept<&'static Components> {
    Kept(data::version(hash).unwrap_or_else(data::components))
}

impl Serialize for State {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The inherent function the derive wrote: the fields, as before the tables were kept.
        State::serialize(self, serializer)
    }
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<State, D::Error> {
        let mut s = State::deserialize(deserializer)?;
        s.components = components_of(s.data);
        Ok(s)
    }
}

impl State {
    /// A game waiting on its setup deal, under the current rules and component data.
    pub fn new(options: &Options) -> State {
        let hash = data::data_hash();
        State::with(options, Rules::CURRENT, hash, data::components())
    }

    /// A game waiting on its setup deal under the current rules and the data version `hash`;
    /// `None` when this build does not have that version.
    pub fn new_under(options: &Options, hash: u64) -> Option<State> {
        State::new_versioned(options, Rules::CURRENT, hash)
    }

    /// A game under the rules version `rules` and the data version `hash`.
    pub fn new_versioned(options: &Options, rules: Rules, hash: u64) -> Option<State> {
        data::version(hash).map(|c| State::with(options, rules, hash, c))
    }

    fn with(options: &Options, rules: Rules, hash: u64, c: &'static Components) -> State {
        let n = usize::from(options.players);
        State {
            options: options.clone(),
            rules,
            book_refill: NONE,
            undo: Undo::None,
            spare: Spare::default(),
            data: hash,
            components: Kept(c),
            players: options.players,
            phase: Phase::Setup,
            round: 0,
            first: 0,
            next_first: NONE,
            setup_first: 0,
            turn: 0,
            stage: Stage::Top,
            seats: (0..n)
                .map(|_| Player::new(u16::from(c.start_pounds), c.markers_start[n.min(4)]))
                .collect(),
            display: [NONE; 12],
            deck: c.letter_mask.iter().fold(0, |a, m| a | m),
            discard: 0,
            boxed: 0,
            book_display: [NONE; 12],
            book_coins: [0; 12],
            book_supply: c.book_letter_mask.iter().fold(0, |a, m| a | m),
            round_coins: c.round_coins[n.min(4)],
            sides: c.first_game_side,
            bases: [[0b1_1111; 3]; 4],
            boxed_posts: [0; 4],
            map: [NONE; 24],
            bonus: [NONE; 8],
            tile_at: [NONE; 8],
            tile_won: [NONE; 8],
        }
    }

    /// The component data this game is played under. A state names a version this build has
    /// (it was made by [`State::new_under`]); a decoded state naming an unknown one falls back
    /// to the current data rather than panic.
    #[inline]
    pub fn data(&self) -> &'static Components {
        self.components.0
    }

    /// The component data of card `id` in this game. The cards of a seat's colour are the
    /// same for every seat but the "1" card, which step 14 hands out by place in turn order:
    /// under rules 2 counted from the setup's first player, under rules 1 seat k had the
    /// k-th (seat 0 always started).
    pub fn card_def(&self, id: CardId) -> Option<&'static Card> {
        let c = self.data();
        let mut index = id.0;
        if let Some(seat) = id.owner().filter(|&s| usize::from(s) < MAX_SEATS) {
            let k = (id.0 - DECK_CARDS) % OWN_CARDS;
            if k == OWN_CARDS - 1 {
                index = DECK_CARDS + self.setup_place(seat) * OWN_CARDS + k;
            }
        }
        c.cards.get(usize::from(index))
    }

    /// The place in turn order of `seat` counted from the setup's first player (0 = first),
    /// which picks its "1" card and its first-game start tile; under rules 1, the seat.
    pub fn setup_place(&self, seat: u8) -> u8 {
        if self.rules == Rules::V1 {
            return seat;
        }
        let n = self.players.max(1);
        (seat % n + n - self.setup_first % n) % n
    }

    /// Action slots open for `seat` (0 for no such seat).
    pub fn open_slots(&self, seat: u8) -> usize {
        self.player(seat).map_or(0, |p| p.open_slots(self.data()))
    }

    pub fn player(&self, seat: u8) -> Option<&Player> {
        self.seats.get(usize::from(seat))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state keeps the tables of its own data version, made or read (as postcard and as
    /// JSON), and a clone keeps them too.
    #[test]
    fn a_state_made_or_read_keeps_the_tables_of_its_data_version() {
        let o = Options {
            players: 3,
            first_game: false,
            track_cards: true,
            first_player: None,
        };
        for h in data::version_hashes() {
            let want = data::version(h).unwrap();
            let s = State::new_under(&o, h).unwrap();
            assert!(std::ptr::eq(s.data(), want));
            assert!(std::ptr::eq(s.clone().data(), want));
            let bytes = postcard::to_allocvec(&s).unwrap();
            let read: State = postcard::from_bytes(&bytes).unwrap();
            assert!(std::ptr::eq(read.data(), want), "{h:016x} from postcard");
            let json = serde_json::to_string(&s).unwrap();
            let read: State = serde_json::from_str(&json).unwrap();
            assert!(std::ptr::eq(read.data(), want), "{h:016x} from JSON");
            assert!(!json.contains("components"), "the tables are not written");
        }
        // A state naming a version this build does not have reads with the current tables.
        let s = State::new(&o);
        let json = serde_json::to_string(&s)
            .unwrap()
            .replace(&format!("\"data\":{}", s.data), "\"data\":7");
        let read: State = serde_json::from_str(&json).unwrap();
        assert_eq!(read.data, 7);
        assert!(std::ptr::eq(read.data(), data::components()));
    }
}
