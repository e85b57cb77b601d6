//! `Position`: a game after some number of entries — who may move, the view (as JSON and
//! typed), legal moves, scores and a keyed state hash — each as the caller may see it.

use crate::error::ApiError;
use crate::perspective::{self, Perspective};
use crate::schema::{app, caller, page};
use crate::types::*;
use async_graphql::{Context, Json, Object, Result};
use rules_core::{GameState, Viewer};
use std::sync::Arc;
use store::{Header, Status};

/// A position of a game.
pub struct Position {
    header: Header,
    ply: u32,
    state: Arc<Box<dyn GameState>>,
    evaluations: super::evaluation::Evaluations,
    /// On an analysis board's branch (`explore`): the explorer's line key after it (the
    /// stored log no longer says it).
    branch_line: Option<u64>,
}

impl Position {
    pub fn new(header: Header, ply: u32, state: Arc<Box<dyn GameState>>) -> Position {
        Position {
            header,
            ply,
            state,
            evaluations: Default::default(),
            branch_line: None,
        }
    }

    /// The explorer's line key of this position: the stored game's, or the branch's.
    async fn line(&self, ctx: &Context<'_>) -> Result<u64, crate::error::ApiError> {
        if let Some(l) = self.branch_line {
            return Ok(l);
        }
        let state: &dyn GameState = self.state.as_ref().as_ref();
        let by = super::explorer::ExplorerKey::Line;
        super::explorer::key_of(ctx, &self.header, self.ply, state, by).await
    }

    async fn evaluated(
        &self,
        ctx: &Context<'_>,
        iterations: Option<i32>,
        seat: Option<u8>,
        perspective: Option<Perspective>,
    ) -> Result<super::evaluation::Evaluation> {
        let viewer = perspective::viewer(&self.header, &caller(ctx), seat, perspective)?;
        let e = self
            .evaluations
            .get(ctx, &self.header, self.ply, &self.state, viewer, iterations)
            .await?;
        Ok(super::evaluation::Evaluation {
            e,
            state: self.state.clone(),
            viewer,
        })
    }
}

#[Object]
impl Position {
    /// Entries applied: position `n` is the game after entry `n`.
    async fn ply(&self) -> u32 {
        self.ply
    }
    async fn round(&self) -> u32 {
        self.state.round()
    }
    async fn phase(&self) -> &str {
        self.state.phase()
    }
    /// Every seat that may move now: the seat to act, or, in a simultaneous step (Mombasa's
    /// planning), every seat still deciding, in any order.
    async fn seats_to_act(&self) -> Vec<u8> {
        self.state.seats_to_act().iter().map(|s| s.0).collect()
    }
    async fn to_act(&self) -> ToActInfo {
        self.state.to_act().into()
    }
    /// The position as JSON, as the chosen perspective sees it (default: the caller's while
    /// the game is on, everything once it is over). `schema/views/<kind>.schema.json` describes
    /// it; `board` is the same data, typed.
    #[graphql(complexity = 20)]
    async fn view(
        &self,
        ctx: &Context<'_>,
        seat: Option<u8>,
        perspective: Option<Perspective>,
    ) -> Result<Json<serde_json::Value>> {
        let viewer = perspective::viewer(&self.header, &caller(ctx), seat, perspective)?;
        let view = self.state.view(viewer);
        crate::budget::charge_json(ctx, &view)?;
        Ok(Json(view))
    }
    /// The same as `view`, typed: one member of `GameView` per game (`schema/views/`).
    #[graphql(complexity = 20)]
    async fn board(
        &self,
        ctx: &Context<'_>,
        seat: Option<u8>,
        perspective: Option<Perspective>,
    ) -> Result<crate::typed::Board> {
        let viewer = perspective::viewer(&self.header, &caller(ctx), seat, perspective)?;
        Ok(crate::typed::Board::new(
            self.header.kind,
            self.state.view(viewer),
        ))
    }
    /// Legal moves, in notation, of the caller's seat when it may move now (the seat to act,
    /// or any seat still deciding in a simultaneous step). Empty for anyone else — a spectator,
    /// a seat whose turn it is not (see `seatsToAct`) — and once the game is over: another
    /// seat's moves would tell what it holds. On an analysis board's branch (`explore`), every
    /// seat's that may move (the branch is played on what the caller knows), each as
    /// `<seat>: <move>` when several seats may move.
    #[graphql(complexity = "first.unwrap_or(100).max(0) as usize + 10")]
    async fn legal_moves(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        offset: Option<i32>,
        #[graphql(desc = "Only moves whose notation or words hold this text (any case).")]
        search: Option<String>,
    ) -> Result<LegalMoves> {
        let app = app(ctx);
        let first = page(app, first.or(Some(100)))?;
        if offset.is_some_and(|o| o < 0) {
            return Err(ApiError::BadInput("`offset` is 0 or more".into()).into());
        }
        if search.as_ref().is_some_and(|t| t.chars().count() > 100) {
            return Err(ApiError::BadInput("`search` is at most 100 characters".into()).into());
        }
        let search = search
            .map(|t| t.trim().to_lowercase())
            .filter(|t| !t.is_empty());
        let seats = if self.branch_line.is_some() {
            // A branch is played on what the caller knows: every seat's moves are its own.
            self.state.seats_to_act()
        } else {
            match caller(ctx).viewer(&self.header) {
                Viewer::Seat(v)
                    if self.header.status == Status::Active
                        && self.state.seats_to_act().contains(&v) =>
                {
                    vec![v]
                }
                _ => vec![],
            }
        };
        let several = self.branch_line.is_some() && seats.len() > 1;
        let words = |v: rules_core::Seat, m: &str| {
            self.state
                .describe(rules_core::Actor::Seat(v), m, Viewer::Seat(v))
        };
        let all: Vec<(rules_core::Seat, String)> = seats
            .iter()
            .flat_map(|&v| {
                self.state
                    .legal_moves_of(v)
                    .into_iter()
                    .map(move |m| (v, m))
            })
            .filter(|(v, m)| {
                search.as_deref().is_none_or(|t| {
                    m.to_lowercase().contains(t) || words(*v, m).to_lowercase().contains(t)
                })
            })
            .collect();
        let offset = offset.unwrap_or(0) as usize;
        let page: Vec<&(rules_core::Seat, String)> = all.iter().skip(offset).take(first).collect();
        Ok(LegalMoves {
            total: all.len(),
            moves: page
                .iter()
                .map(|(v, m)| {
                    if several {
                        format!("{}: {m}", v.0)
                    } else {
                        m.clone()
                    }
                })
                .collect(),
            words: page.iter().map(|(v, m)| words(*v, m)).collect(),
        })
    }
    /// Scores as they stand, with their breakdown, as the perspective allows: while the game
    /// is on a seat sees only its own (a score can hold secret gold).
    #[graphql(complexity = "5 + child_complexity")]
    async fn scores(
        &self,
        ctx: &Context<'_>,
        seat: Option<u8>,
        perspective: Option<Perspective>,
    ) -> Result<Vec<Score>> {
        let viewer = perspective::viewer(&self.header, &caller(ctx), seat, perspective)?;
        Ok(self
            .state
            .scores()
            .iter()
            .filter(|s| viewer.sees(s.seat))
            .map(Score::from)
            .collect())
    }
    /// The position judged by a search of `iterations` (default 1,000; at most the server's
    /// `--bot-max-iterations`) from what the perspective may see (as `view`: the caller's
    /// while the game is on, everything once it is over): each seat's chance to win with its
    /// interval, expected score and rank, and the best moves of the seat to act. A finished
    /// game's last position is its outcome, exactly. The chances are the search's own, not
    /// yet calibrated. Costly: a request holds at most five; refused `LIMIT_EXCEEDED` when
    /// every evaluation slot (`--eval-threads`) stays busy.
    #[graphql(complexity = 2000)]
    async fn evaluation(
        &self,
        ctx: &Context<'_>,
        iterations: Option<i32>,
        seat: Option<u8>,
        perspective: Option<Perspective>,
    ) -> Result<super::evaluation::Evaluation> {
        self.evaluated(ctx, iterations, seat, perspective).await
    }
    /// The seat to act's best moves by `evaluation` (the same search: asking both costs one),
    /// most tried first: `first` up to 10, 3 when not given.
    #[graphql(complexity = 2000)]
    async fn best_moves(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        iterations: Option<i32>,
        seat: Option<u8>,
        perspective: Option<Perspective>,
    ) -> Result<Vec<super::evaluation::BestMove>> {
        let e = self.evaluated(ctx, iterations, seat, perspective).await?;
        Ok(e.best(first)?)
    }
    /// The explorer at this position: the moves that finished games played from here (found
    /// `by` line, the default, or by position), with how they went for their movers. Counted
    /// from finished games only; asked from a game in play, the node is found from what a
    /// spectator knows.
    #[graphql(complexity = 50)]
    async fn explorer(
        &self,
        ctx: &Context<'_>,
        by: Option<super::explorer::ExplorerKey>,
        filter: Option<super::explorer::ExplorerFilterInput>,
    ) -> Result<super::explorer::ExplorerNode> {
        let by = by.unwrap_or_default();
        let state: &dyn GameState = self.state.as_ref().as_ref();
        let key = match by {
            super::explorer::ExplorerKey::Line => self.line(ctx).await?,
            super::explorer::ExplorerKey::Position => {
                super::explorer::key_of(ctx, &self.header, self.ply, state, by).await?
            }
        };
        let players = self.state.player_count();
        Ok(super::explorer::node(ctx, self.header.kind, players, by, key, filter, false).await?)
    }
    /// The analysis board: `moves` played from here without storing anything, and the
    /// position they reach (its view, legal moves, evaluation, best moves and explorer as for
    /// any position). Each is the seat to act's move (`<seat>: <move>` names one of several
    /// seats that may move), or at a chance node an outcome in the game's notation or `*`, dealt
    /// from `seed` (default 0). A finished game's branch plays on the position itself; a game in
    /// play's on the position as the caller might believe it to be (the game's determinization
    /// from the caller's perspective, from `seed`), so a branch never shows a secret. At most
    /// 200 entries; the first refused is `ILLEGAL_MOVE` (or `BAD_NOTATION`) with its rule and
    /// `ply`, and nothing is kept.
    #[graphql(complexity = 100)]
    async fn explore(
        &self,
        ctx: &Context<'_>,
        moves: Vec<String>,
        seed: Option<String>,
        seat: Option<u8>,
        perspective: Option<Perspective>,
    ) -> Result<Position> {
        let viewer = perspective::viewer(&self.header, &caller(ctx), seat, perspective)?;
        let seed = match seed.as_deref() {
            None => 0,
            Some(t) => t.trim().parse::<u64>().map_err(|_| {
                ApiError::BadInput(format!(
                    "a seed is a whole number from 0 to 2^64-1, not `{}`",
                    t.chars().take(40).collect::<String>()
                ))
            })?,
        };
        if moves.len() > super::branch::MAX_BRANCH {
            return Err(ApiError::LimitExceeded(format!(
                "a branch holds at most {} entries, not {}",
                super::branch::MAX_BRANCH,
                moves.len()
            ))
            .into());
        }
        let line = (self.line(ctx).await?, app(ctx).analysis.explorer().key());
        let state: &dyn GameState = self.state.as_ref().as_ref();
        let b = super::branch::play(
            &self.header,
            self.ply,
            state,
            viewer,
            &moves,
            seed,
            Some(line),
        )?;
        Ok(Position {
            header: self.header.clone(),
            ply: self.ply + b.entries.len() as u32,
            state: Arc::new(b.state),
            evaluations: Default::default(),
            branch_line: b.line,
        })
    }
    /// A keyed hash of the full state. In finished games equal positions have equal hashes
    /// (`positionsByHash` finds them all); the key is the server's, so a client cannot hash
    /// candidate states itself. While a game is on, the game's id is mixed into the key: a
    /// copy of the game played on the same server (same seed, each candidate secret move)
    /// would otherwise reveal a secret choice by matching hashes. The key is the deployment's
    /// (every node of a cluster hashes alike); a node given another key answers
    /// `HASH_KEY_MISMATCH`.
    #[graphql(complexity = 5)]
    async fn state_hash(&self, ctx: &Context<'_>) -> Result<String> {
        app(ctx).hashes_served()?;
        let mut key = app(ctx).config.state_hash_key;
        if self.header.status != Status::Finished {
            for (k, b) in key.iter_mut().zip(self.header.id.to_bytes()) {
                *k ^= b;
            }
        }
        Ok(format!("{:016x}", self.state.state_hash(key)))
    }
}
