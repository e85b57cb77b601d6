//! GraphQL object types that are plain data.

use async_graphql::{Enum, Json, SimpleObject};
use rules_core::{Outcome, SeatScore, ToAct};
use store::Entry;

/// The games this server plays (the kinds `rules` lists).
#[derive(Enum, Copy, Clone, Eq, PartialEq, Debug)]
#[graphql(remote = "rules_core::GameKind")]
pub enum GameKind {
    FiveTribes,
    ClansOfCaledonia,
    Mombasa,
}

/// One seat's score at every position of a game.
#[derive(SimpleObject)]
pub struct ScoreSeries {
    pub seat: u8,
    /// `totals[n]`: the score after `n` entries; null before the seat exists (the deal) or
    /// where the perspective may not see it.
    pub totals: Vec<Option<i32>>,
}

#[derive(SimpleObject, Clone)]
pub struct RulesInfo {
    pub kind: GameKind,
    pub player_counts: Vec<u8>,
    pub rules_version: String,
    pub data_hash: String,
    /// How much of the component data is verified against public sources.
    pub data: DataCoverageInfo,
    /// Every component-data version this server replays (hashes), the current one first:
    /// a game keeps replaying under the data it was played with after a correction.
    pub data_versions: Vec<String>,
    /// The features position queries can filter on.
    pub features: FeaturesInfo,
}

/// Component data items, verified or reconstructed (each marked so in `data/`).
#[derive(SimpleObject, Clone)]
pub struct DataCoverageInfo {
    pub verified: u32,
    pub reconstructed: u32,
    /// Verified items whose values the rules texts themselves state (part of `verified`).
    pub verified_by_text: u32,
    /// verified / (verified + reconstructed), to 4 decimals.
    pub verified_share: f64,
}

/// A game's position features: besides `ply`, `round`, `phase`, `toAct`, `players`.
#[derive(SimpleObject, Clone)]
pub struct FeaturesInfo {
    /// Values `phase` takes.
    pub phases: Vec<String>,
    /// Game-wide features.
    pub global: Vec<String>,
    /// Features of each seat (in `seats[]`, beside `seat`).
    pub seat: Vec<String>,
}

impl RulesInfo {
    pub fn of(g: &dyn rules_core::GameRules) -> RulesInfo {
        let c = g.data_coverage();
        let f = g.feature_schema();
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
        RulesInfo {
            kind: g.kind().into(),
            player_counts: g.player_counts().to_vec(),
            rules_version: g.rules_version().to_string(),
            data_hash: g.data_hash(),
            data_versions: g.data_versions(),
            data: DataCoverageInfo {
                verified: c.verified,
                reconstructed: c.reconstructed,
                verified_by_text: c.by_text,
                verified_share: (c.verified_share() * 1e4).round() / 1e4,
            },
            features: FeaturesInfo {
                phases: names(f.phases),
                global: names(f.global),
                seat: names(f.seat),
            },
        }
    }
}

/// A named feature value.
#[derive(SimpleObject)]
pub struct Feature {
    pub name: String,
    pub value: i64,
}

/// One seat's features in an indexed position.
#[derive(SimpleObject)]
pub struct SeatFeatures {
    pub seat: u8,
    pub features: Vec<Feature>,
}

/// What a `positions` page did besides its rows.
#[derive(SimpleObject)]
pub struct PositionScan {
    /// Positions examined for this page.
    pub scanned: u64,
    /// True when the page stopped at the server's scan budget rather than at `first` rows:
    /// fewer rows than asked does not then mean there are no more (`hasNextPage` says).
    pub budget_exhausted: bool,
    /// Where the scan stopped, to pass as `after`; null when it reached the end. Equal to
    /// `pageInfo.endCursor` when the page has edges, and the only cursor when the budget ran
    /// out before any match.
    pub resume_after: Option<String>,
}

/// A (game, ply) whose state has a given hash.
#[derive(SimpleObject)]
pub struct PositionHit {
    pub game_id: async_graphql::ID,
    pub kind: GameKind,
    pub ply: u32,
}

/// Who deals a game's chance entries (the layout, every draw and refill, a first player).
#[derive(Enum, Copy, Clone, Eq, PartialEq, Default)]
pub enum Dealing {
    /// The store, from the game's seed (dealt the moment the rules ask).
    #[default]
    Seeded,
    /// The players, at a real table: the recorder types each outcome in as it was dealt, and
    /// the rules check it against the components left.
    Table,
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
pub enum GameStatus {
    Active,
    Finished,
}

impl From<store::Status> for GameStatus {
    fn from(s: store::Status) -> Self {
        match s {
            store::Status::Active => GameStatus::Active,
            store::Status::Finished => GameStatus::Finished,
        }
    }
}

/// One log entry as a viewer may see it.
#[derive(SimpleObject, Clone)]
pub struct Move {
    /// The ply this entry leads to: entry *n* turns position *n − 1* into position *n* (the
    /// deal is entry 1).
    pub ply: u32,
    /// A seat number, or `dealer`.
    pub actor: String,
    /// The move (or chance outcome) in the game's notation; `hidden` where the rules keep it
    /// from this viewer.
    #[graphql(name = "move")]
    pub notation: String,
    /// The same in words, as this viewer may know it.
    pub description: String,
    pub recorded_at: chrono::DateTime<chrono::Utc>,
    /// Who typed it in: the seat number (its own move), `recorder` (the person recording the
    /// whole table) or `bot` (a bot playing the seat: the server's, or self-play's); null for
    /// the store's own deals and where nobody said (imports).
    pub entered_by: Option<String>,
}

impl Move {
    pub fn from_entry(e: &Entry, text: String, description: String) -> Move {
        Move {
            ply: e.ply + 1,
            actor: e.actor.to_string(),
            notation: text,
            description,
            recorded_at: e.recorded_at,
            entered_by: e.entered_by.map(|b| b.to_string()),
        }
    }
}

#[derive(Enum, Copy, Clone, Eq, PartialEq)]
pub enum ToActKind {
    Seat,
    Chance,
    Over,
}

#[derive(SimpleObject)]
pub struct ToActInfo {
    pub kind: ToActKind,
    pub seat: Option<u8>,
}

impl From<ToAct> for ToActInfo {
    fn from(t: ToAct) -> Self {
        match t {
            ToAct::Seat(s) => ToActInfo {
                kind: ToActKind::Seat,
                seat: Some(s.0),
            },
            ToAct::Chance => ToActInfo {
                kind: ToActKind::Chance,
                seat: None,
            },
            ToAct::Over => ToActInfo {
                kind: ToActKind::Over,
                seat: None,
            },
        }
    }
}

#[derive(SimpleObject)]
pub struct ScoreItem {
    pub category: String,
    pub points: i32,
}

#[derive(SimpleObject)]
pub struct Score {
    pub seat: u8,
    pub total: i32,
    pub breakdown: Vec<ScoreItem>,
}

impl From<&SeatScore> for Score {
    fn from(s: &SeatScore) -> Self {
        Score {
            seat: s.seat.0,
            total: s.total,
            breakdown: s
                .breakdown
                .iter()
                .map(|(c, p)| ScoreItem {
                    category: (*c).to_string(),
                    points: *p,
                })
                .collect(),
        }
    }
}

#[derive(SimpleObject)]
pub struct OutcomeInfo {
    pub scores: Vec<Score>,
    /// Every seat with the best score: ties share the win.
    pub winners: Vec<u8>,
}

impl From<&Outcome> for OutcomeInfo {
    fn from(o: &Outcome) -> Self {
        OutcomeInfo {
            scores: o.scores.iter().map(Score::from).collect(),
            winners: o.winners.iter().map(|s| s.0).collect(),
        }
    }
}

/// One step of a replay: entry `ply` (the one that leads to position `ply`), and the RFC 6902
/// JSON Patch that turns the viewer's view at `ply − 1` into the view at `ply`.
#[derive(SimpleObject)]
#[graphql(complex)]
pub struct ReplayFrame {
    pub ply: u32,
    pub actor: String,
    #[graphql(name = "move")]
    pub notation: String,
    /// The entry in words, as this viewer may know it.
    pub description: String,
    /// Shown by [`ReplayFrame::patch`], which charges the response budget.
    #[graphql(skip)]
    pub patch: serde_json::Value,
    /// Annotations on the position this entry leads to (not those a takeback withdrew).
    pub annotations: Vec<crate::objects::journal::Annotation>,
}

#[async_graphql::ComplexObject]
impl ReplayFrame {
    /// The JSON Patch (RFC 6902) from the view before this entry to the view after it.
    async fn patch(
        &self,
        ctx: &async_graphql::Context<'_>,
    ) -> async_graphql::Result<Json<&serde_json::Value>> {
        crate::budget::charge_json(ctx, &self.patch)?;
        Ok(Json(&self.patch))
    }
}

#[derive(SimpleObject)]
pub struct LegalMoves {
    pub total: usize,
    pub moves: Vec<String>,
    /// Each of `moves` in words, as its seat reads it.
    pub words: Vec<String>,
}

/// A player's Weng-Lin (OpenSkill) rating in one game kind.
#[derive(SimpleObject)]
pub struct PlayerRating {
    pub player: String,
    /// Estimated skill (μ; 25 to start).
    pub rating: f64,
    /// Uncertainty (σ; 25/3 to start).
    pub uncertainty: f64,
    /// μ − 3σ, the order of the list.
    pub ordinal: f64,
    pub games: u64,
}
