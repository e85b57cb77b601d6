//! Games behind trait objects, speaking notation text and JSON.
//!
//! The store, the API and the analysis code handle every game alike; they must not be generic
//! over each game's Rust types (a store holds games of all kinds at once). [`Erased<G>`] wraps a
//! [`Game`] with its [`Notation`] as a [`GameRules`] (one per kind, in a registry) whose states are
//! [`GameState`] trait objects: entries go in as (actor, notation), views come out as JSON, and
//! snapshots are bytes.
//!
//! Snapshot bytes are postcard (a stable, documented serde format) of the game's state, prefixed
//! by the build's current rules version, which fixes the state's layout: a snapshot made by a
//! build of another version is refused and rebuilt from the log. Which rules a state plays
//! under (an older version, for an old game) is recorded inside the state itself.

use crate::dealer::Dealer;
use crate::error::{NotationError, RuleViolation};
use crate::features::{DataCoverage, FeatureSchema, Features};
use crate::game::{Game, MoveBuf, ToAct};
use crate::ids::{Actor, GameKind, Ply, Viewer};
use crate::notation::Notation;
use crate::outcome::{Outcome, SeatScore};
use crate::presentation::Presentation;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::marker::PhantomData;
use thiserror::Error;

/// Why an entry, options or a snapshot was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EntryError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A rule of the game (or of turns) was broken; `rule` is the stable code.
    #[error("{message}")]
    Rule { rule: &'static str, message: String },
    #[error("bad options: {0}")]
    Options(String),
    #[error("bad snapshot: {0}")]
    Snapshot(String),
    /// The game was recorded under component data this build does not have.
    #[error("component data version {0} is not known to this build")]
    UnknownData(String),
    /// The game was recorded under a rules version this build does not replay.
    #[error("rules version {0} is not known to this build")]
    UnknownRules(String),
}

impl EntryError {
    /// A stable code: the rule code, or `notation` / `options` / `snapshot`.
    pub fn code(&self) -> &'static str {
        match self {
            EntryError::Notation(_) => "notation",
            EntryError::Rule { rule, .. } => rule,
            EntryError::Options(_) => "options",
            EntryError::Snapshot(_) => "snapshot",
            EntryError::UnknownData(_) => "data",
            EntryError::UnknownRules(_) => "rules-version",
        }
    }
}

/// A game kind's rules, object-safe.
pub trait GameRules: Send + Sync + 'static {
    fn kind(&self) -> GameKind;
    fn rules_version(&self) -> &'static str;
    /// A hash of the component data the rules read; stored with every game.
    fn data_hash(&self) -> String;
    fn player_counts(&self) -> &'static [u8];
    /// A new game from JSON options (e.g. `{"players": 3}`), waiting on its deal, under the
    /// current component data.
    fn new_game(&self, options: &serde_json::Value) -> Result<Box<dyn GameState>, EntryError>;
    /// The same under the component data with hash `data_hash`, and the current rules
    /// version. A stored game is replayed with [`GameRules::new_game_recorded`] instead, which
    /// also takes the rules version it was recorded under.
    fn new_game_under(
        &self,
        options: &serde_json::Value,
        data_hash: &str,
    ) -> Result<Box<dyn GameState>, EntryError>;
    /// A new game under the rules version and the component data a game was recorded with
    /// (its header's `rules_version` and `data_hash`): how every stored game is replayed.
    fn new_game_recorded(
        &self,
        options: &serde_json::Value,
        rules_version: &str,
        data_hash: &str,
    ) -> Result<Box<dyn GameState>, EntryError>;
    /// Every data version this build replays, the current one first.
    fn data_versions(&self) -> Vec<String>;
    /// Every rules version this build replays, the current one first.
    fn rules_versions(&self) -> Vec<&'static str>;
    /// The canonical JSON of these options (unknown fields refused).
    fn normalize_options(
        &self,
        options: &serde_json::Value,
    ) -> Result<serde_json::Value, EntryError>;
    /// Rebuilds a state from [`GameState::encode`] bytes.
    fn decode_state(&self, bytes: &[u8]) -> Result<Box<dyn GameState>, EntryError>;
    /// The position features the game declares (see [`Game::feature_schema`]).
    fn feature_schema(&self) -> FeatureSchema;
    /// Verified and reconstructed component data items.
    fn data_coverage(&self) -> DataCoverage;
    /// The JSON Schema of this game's views (see [`Presentation::view_schema`]).
    fn view_schema(&self) -> serde_json::Value;
    /// The static geometry of a game with these options (see [`Presentation::layout`]).
    fn layout(&self, options: &serde_json::Value) -> Result<serde_json::Value, EntryError>;
    /// The JSON Schema of the layout.
    fn layout_schema(&self) -> serde_json::Value;
}

/// A position of some game, object-safe.
pub trait GameState: Send + Sync {
    fn kind(&self) -> GameKind;
    fn to_act(&self) -> ToAct;
    fn player_count(&self) -> u8;
    /// Applies one entry given as text. On error the state is unchanged.
    fn apply(&mut self, actor: Actor, notation: &str) -> Result<(), EntryError>;
    /// The canonical text of an entry (parsed, then formatted): what a log stores, so that
    /// `bid 0`, ` bid 0` and `bid 00` are one move, written one way. Refuses what does not
    /// parse; says nothing of legality.
    fn canonical(&self, actor: Actor, notation: &str) -> Result<String, EntryError>;
    /// The dealer's outcome for the chance node at `ply` of a game seeded with `seed`.
    fn deal(&self, seed: u64, ply: Ply) -> Option<String>;
    /// Every legal move of the seat to act, as notation.
    fn legal_moves(&self) -> Vec<String>;
    /// Every seat that may move now (see [`Game::seats_to_act`]).
    fn seats_to_act(&self) -> Vec<crate::ids::Seat>;
    /// Every legal move of `seat`, as notation (empty unless it may move now).
    fn legal_moves_of(&self, seat: crate::ids::Seat) -> Vec<String>;
    fn view(&self, viewer: Viewer) -> serde_json::Value;
    fn round(&self) -> u32;
    fn phase(&self) -> &'static str;
    /// Per-seat labels for statistics (see [`Game::tags`]).
    fn tags(&self) -> Vec<Vec<String>>;
    /// The text `viewer` may see of an entry applied to this position: the notation itself,
    /// or, for a chance outcome or a secret move the rules keep from this viewer, `hidden`.
    fn entry_text(&self, actor: Actor, notation: &str, viewer: Viewer) -> String;
    fn outcome(&self) -> Option<Outcome>;
    fn scores(&self) -> Vec<SeatScore>;
    fn clone_box(&self) -> Box<dyn GameState>;
    /// Snapshot bytes.
    fn encode(&self) -> Vec<u8>;
    /// A keyed hash of the full state: equal states give equal hashes for the same key. Keyed,
    /// so that a client cannot confirm a guess of hidden information by hashing candidates.
    fn state_hash(&self, key: [u8; 16]) -> u64;
    /// A keyed hash of what is public: the state as a spectator might believe it to be
    /// ([`Game::determinize`] for the spectator, from one fixed stream), hashed like
    /// [`GameState::state_hash`]. Positions a spectator cannot tell apart hash alike (the
    /// determinization reads nothing hidden, checked by `determinize::check_at`), so what is
    /// secret leaks nothing into it, and it equals `state_hash` where nothing is hidden.
    fn public_hash(&self, key: [u8; 16]) -> u64;
    /// This position as `viewer` might believe it to be ([`Game::determinize`], from the
    /// stream `seed`): what an analysis board plays on in a game whose secrets the viewer
    /// may not see.
    fn determinized(&self, viewer: Viewer, seed: u64) -> Box<dyn GameState>;
    /// Fills `out` with this position's declared features (see [`Game::features`]).
    fn features(&self, out: &mut Features);
    /// An entry applied to this position, in words, as `viewer` may know it (see
    /// [`Presentation`]); the notation itself when it does not parse.
    fn describe(&self, actor: Actor, notation: &str, viewer: Viewer) -> String;
    /// The state as `Any`, for [`typed`]: the way back to a game's own types for code that is
    /// generic over games (a bot's search) and handed an erased state.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// `state`'s typed state when it is a state of game `G` (made by `Erased<G>`).
pub fn typed<G>(state: &dyn GameState) -> Option<&G::State>
where
    G: Game + 'static,
{
    state
        .as_any()
        .downcast_ref::<ErasedState<G>>()
        .map(|s| &s.0)
}

impl Clone for Box<dyn GameState> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The type-erased face of a game `G`.
pub struct Erased<G>(PhantomData<fn() -> G>);

impl<G> Erased<G> {
    pub const fn new() -> Self {
        Erased(PhantomData)
    }
}

impl<G> Default for Erased<G> {
    fn default() -> Self {
        Self::new()
    }
}

struct ErasedState<G: Game>(G::State);

/// The stream [`GameState::public_hash`] determinizes with: any fixed value does, since a
/// determinization reads only what its viewer knows; this one is fixed forever, as hashes are kept.
const PUBLIC_SEED: u64 = 0x7075_626c_6963; // "public"

fn rule_error<E: RuleViolation>(e: E) -> EntryError {
    EntryError::Rule {
        rule: e.rule(),
        message: e.to_string(),
    }
}

/// One log entry applied from its notation: a seat's move parsed and played, or the dealer's
/// outcome parsed and resolved. What a stored game's every entry goes through, here behind
/// [`GameState::apply`] and, without the trait object, in [`crate::replay`].
#[inline]
pub fn apply_entry<G: Game + Notation>(
    s: &mut G::State,
    actor: Actor,
    notation: &str,
) -> Result<(), EntryError> {
    // The fast reading first, as `parse_*` would, but without building their `Result` (with
    // its error's two strings) around a move that is then taken straight back out of it.
    //
    // The read move is played where the reading left it, by reference: moved out of its
    // `Option` first, it was copied in 8-byte words just after being written a byte or two at
    // a time, and that load, which the processor cannot forward from the stores before it,
    // stalled every entry (Caledonia's replay took 77.7 ns an entry with the copy, 74.4
    // without: ops/BENCHMARKS.md).
    match actor {
        Actor::Seat(seat) => {
            let fast = G::read_move(notation);
            let parsed;
            let m = match &fast {
                Some(m) => m,
                None => {
                    parsed = G::parse_move(notation)?;
                    &parsed
                }
            };
            G::play(s, seat, m).map_err(rule_error)
        }
        Actor::Dealer => {
            let mut fast = None;
            G::read_chance_into(notation, &mut fast);
            let parsed;
            let c = match &fast {
                Some(c) => c,
                None => {
                    parsed = G::parse_chance(notation)?;
                    &parsed
                }
            };
            G::resolve(s, c).map_err(rule_error)
        }
    }
}

impl<G> GameRules for Erased<G>
where
    G: Game + Notation + Presentation,
    G::State: Serialize + DeserializeOwned + Send + Sync,
{
    fn kind(&self) -> GameKind {
        G::KIND
    }
    fn rules_version(&self) -> &'static str {
        G::RULES_VERSION
    }
    fn data_hash(&self) -> String {
        G::data_hash()
    }
    fn player_counts(&self) -> &'static [u8] {
        G::player_counts()
    }
    fn new_game(&self, options: &serde_json::Value) -> Result<Box<dyn GameState>, EntryError> {
        let o: G::Options = serde_json::from_value(options.clone())
            .map_err(|e| EntryError::Options(e.to_string()))?;
        let s = G::new_game(&o).map_err(|e| EntryError::Options(e.to_string()))?;
        Ok(Box::new(ErasedState::<G>(s)))
    }
    fn new_game_under(
        &self,
        options: &serde_json::Value,
        data_hash: &str,
    ) -> Result<Box<dyn GameState>, EntryError> {
        let o: G::Options = serde_json::from_value(options.clone())
            .map_err(|e| EntryError::Options(e.to_string()))?;
        let s = G::new_game_with_data(&o, data_hash)
            .ok_or_else(|| EntryError::UnknownData(data_hash.chars().take(32).collect()))?
            .map_err(|e| EntryError::Options(e.to_string()))?;
        Ok(Box::new(ErasedState::<G>(s)))
    }
    fn new_game_recorded(
        &self,
        options: &serde_json::Value,
        rules_version: &str,
        data_hash: &str,
    ) -> Result<Box<dyn GameState>, EntryError> {
        let o: G::Options = serde_json::from_value(options.clone())
            .map_err(|e| EntryError::Options(e.to_string()))?;
        if !G::rules_versions().contains(&rules_version) {
            return Err(EntryError::UnknownRules(
                rules_version.chars().take(40).collect(),
            ));
        }
        let s = G::new_game_versioned(&o, rules_version, data_hash)
            .ok_or_else(|| EntryError::UnknownData(data_hash.chars().take(32).collect()))?
            .map_err(|e| EntryError::Options(e.to_string()))?;
        Ok(Box::new(ErasedState::<G>(s)))
    }
    fn data_versions(&self) -> Vec<String> {
        G::data_versions()
    }
    fn rules_versions(&self) -> Vec<&'static str> {
        G::rules_versions()
    }
    fn normalize_options(
        &self,
        options: &serde_json::Value,
    ) -> Result<serde_json::Value, EntryError> {
        let o: G::Options = serde_json::from_value(options.clone())
            .map_err(|e| EntryError::Options(e.to_string()))?;
        G::new_game(&o).map_err(|e| EntryError::Options(e.to_string()))?;
        serde_json::to_value(&o).map_err(|e| EntryError::Options(e.to_string()))
    }
    fn decode_state(&self, bytes: &[u8]) -> Result<Box<dyn GameState>, EntryError> {
        let version = G::RULES_VERSION.as_bytes();
        let body = bytes
            .strip_prefix(version)
            .and_then(|b| b.strip_prefix(&[0u8]))
            .ok_or_else(|| EntryError::Snapshot("made under another rules version".into()))?;
        let s: G::State =
            postcard::from_bytes(body).map_err(|e| EntryError::Snapshot(e.to_string()))?;
        Ok(Box::new(ErasedState::<G>(s)))
    }
    fn feature_schema(&self) -> FeatureSchema {
        G::feature_schema()
    }
    fn data_coverage(&self) -> DataCoverage {
        G::data_coverage()
    }
    fn view_schema(&self) -> serde_json::Value {
        G::view_schema()
    }
    fn layout(&self, options: &serde_json::Value) -> Result<serde_json::Value, EntryError> {
        let o: G::Options = serde_json::from_value(options.clone())
            .map_err(|e| EntryError::Options(e.to_string()))?;
        Ok(G::layout(&o))
    }
    fn layout_schema(&self) -> serde_json::Value {
        G::layout_schema()
    }
}

impl<G> GameState for ErasedState<G>
where
    G: Game + Notation + Presentation + 'static,
    G::State: Serialize + DeserializeOwned + Send + Sync,
{
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn kind(&self) -> GameKind {
        G::KIND
    }
    fn to_act(&self) -> ToAct {
        G::to_act(&self.0)
    }
    fn player_count(&self) -> u8 {
        G::player_count(&self.0)
    }
    fn apply(&mut self, actor: Actor, notation: &str) -> Result<(), EntryError> {
        apply_entry::<G>(&mut self.0, actor, notation)
    }
    fn canonical(&self, actor: Actor, notation: &str) -> Result<String, EntryError> {
        Ok(match actor {
            Actor::Seat(_) => G::format_move(&G::parse_move(notation)?),
            Actor::Dealer => G::format_chance(&G::parse_chance(notation)?),
        })
    }
    fn deal(&self, seed: u64, ply: Ply) -> Option<String> {
        let mut dealer = Dealer::for_ply(seed, ply);
        dealer.deal::<G>(&self.0).map(|c| G::format_chance(&c))
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut list = G::MoveList::default();
        G::legal_moves(&self.0, &mut list);
        list.as_slice().iter().map(G::format_move).collect()
    }
    fn seats_to_act(&self) -> Vec<crate::ids::Seat> {
        G::seats_to_act(&self.0)
    }
    fn legal_moves_of(&self, seat: crate::ids::Seat) -> Vec<String> {
        let mut list = G::MoveList::default();
        G::legal_moves_of(&self.0, seat, &mut list);
        list.as_slice().iter().map(G::format_move).collect()
    }
    fn view(&self, viewer: Viewer) -> serde_json::Value {
        serde_json::to_value(G::view(&self.0, viewer)).unwrap_or(serde_json::Value::Null)
    }
    fn round(&self) -> u32 {
        G::round(&self.0)
    }
    fn phase(&self) -> &'static str {
        G::phase(&self.0)
    }
    fn tags(&self) -> Vec<Vec<String>> {
        G::tags(&self.0)
    }
    fn entry_text(&self, actor: Actor, notation: &str, viewer: Viewer) -> String {
        if G::to_act(&self.0) != ToAct::Over {
            let visible = match actor {
                Actor::Dealer => G::parse_chance(notation)
                    .map_or(true, |c| G::chance_visible(&self.0, &c, viewer)),
                Actor::Seat(seat) => G::parse_move(notation)
                    .map_or(true, |m| G::move_visible(&self.0, seat, &m, viewer)),
            };
            if !visible {
                return "hidden".to_string();
            }
        }
        notation.to_string()
    }
    fn outcome(&self) -> Option<Outcome> {
        G::outcome(&self.0)
    }
    fn scores(&self) -> Vec<SeatScore> {
        G::scores(&self.0)
    }
    fn clone_box(&self) -> Box<dyn GameState> {
        Box::new(ErasedState::<G>(self.0.clone()))
    }
    fn encode(&self) -> Vec<u8> {
        let mut out = G::RULES_VERSION.as_bytes().to_vec();
        out.push(0);
        // Serialising plain data into a Vec cannot fail; an empty snapshot would be refused
        // on decode and rebuilt from the log.
        if let Ok(body) = postcard::to_allocvec(&self.0) {
            out.extend_from_slice(&body);
        }
        out
    }
    fn state_hash(&self, key: [u8; 16]) -> u64 {
        crate::state_hash::HashBytes::with(|by_hand| {
            if G::encode_by_hand(&self.0, by_hand) {
                crate::state_hash::keyed_hash_of_bytes(key, G::RULES_VERSION, by_hand.as_slice())
            } else {
                crate::state_hash::keyed_hash(key, G::RULES_VERSION, &self.0)
            }
        })
    }
    fn public_hash(&self, key: [u8; 16]) -> u64 {
        let mut rng = Dealer::new(PUBLIC_SEED, 0);
        let seen = G::determinize(&self.0, Viewer::Spectator, &mut rng);
        ErasedState::<G>(seen).state_hash(key)
    }
    fn determinized(&self, viewer: Viewer, seed: u64) -> Box<dyn GameState> {
        let mut rng = Dealer::new(seed, 1);
        Box::new(ErasedState::<G>(G::determinize(&self.0, viewer, &mut rng)))
    }
    fn features(&self, out: &mut Features) {
        out.clear();
        G::features(&self.0, out);
    }
    fn describe(&self, actor: Actor, notation: &str, viewer: Viewer) -> String {
        let visible = self.entry_text(actor, notation, viewer) != "hidden";
        match actor {
            Actor::Seat(seat) => match G::parse_move(notation) {
                Ok(m) if visible => G::describe_move(&self.0, seat, &m),
                Ok(_) => format!("Seat {} moves (hidden until revealed)", seat.0),
                Err(_) => notation.to_string(),
            },
            Actor::Dealer => match G::parse_chance(notation) {
                Ok(c) => G::describe_chance(&self.0, &c, visible),
                Err(_) => notation.to_string(),
            },
        }
    }
}

/// The games a process serves, by kind.
#[derive(Clone, Default)]
pub struct Registry {
    games: Vec<std::sync::Arc<dyn GameRules>>,
}

impl Registry {
    pub fn new() -> Self {
        Registry::default()
    }

    /// Adds a game's rules (replacing any of the same kind).
    pub fn with(mut self, rules: impl GameRules) -> Self {
        self.games.retain(|g| g.kind() != rules.kind());
        self.games.push(std::sync::Arc::new(rules));
        self.games.sort_by_key(|g| g.kind());
        self
    }

    pub fn get(&self, kind: GameKind) -> Option<&dyn GameRules> {
        self.games
            .iter()
            .find(|g| g.kind() == kind)
            .map(|g| g.as_ref())
    }

    pub fn kinds(&self) -> impl Iterator<Item = GameKind> + '_ {
        self.games.iter().map(|g| g.kind())
    }

    pub fn iter(&self) -> impl Iterator<Item = &dyn GameRules> + '_ {
        self.games.iter().map(|g| g.as_ref())
    }
}
