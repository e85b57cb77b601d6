//! `Game.evaluation` and `Game.turningPoints`: a finished game as its review judges it (the
//! background projection, `review::Projection`) — where the review is, every ply's win
//! chances (the graph), every seat move judged with the better move, each seat's accuracy,
//! and the largest swings.
//!
//! Asking for a finished game's evaluation moves it to the front of the review queue: a game
//! someone opens is reviewed next. Everything here is of the game's current revision and the
//! evaluator's current version; a review of anything else is not shown. A game in play has
//! no review (its status is `PENDING`): each of its positions is evaluated on request
//! (`Position.evaluation`), from what the caller may see.
use crate::error::ApiError;
use crate::schema::{app, blocking};
use ai::judge::{self, Class};
use async_graphql::{Context, Enum, Object, SimpleObject};
use review::{Judged, Progress, Review};
use rules_core::{Actor, GameState, Viewer};
use std::sync::Arc;
use store::{Entry, GameLog, Header};

/// Where a game's review is.
#[derive(Enum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum ReviewStatus {
    /// Reviewed: every field below is filled.
    Done,
    /// Waiting in the review queue.
    Queued,
    /// Being reviewed now (`progress` says how far).
    Running,
    /// The game is in play: it is reviewed once it ends; `Position.evaluation` evaluates any
    /// position now, from what the caller may see.
    Pending,
    /// Not reviewed and not queued: this server reviews nothing (`--review-threads 0`), or
    /// the review failed (the server's log says why).
    Absent,
}

/// A move's judgement: best, good, or by the win chance it cost (see `ai::judge`).
#[derive(Enum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The search's own first choice.
    Best,
    /// Cost under 0.06 of win chance.
    Good,
    /// `?!`: cost 0.06 to 0.12.
    Inaccuracy,
    /// `?`: cost 0.12 to 0.20.
    Mistake,
    /// `??`: cost 0.20 or more.
    Blunder,
}

impl From<Class> for Judgement {
    fn from(c: Class) -> Self {
        match c {
            Class::Best => Judgement::Best,
            Class::Good => Judgement::Good,
            Class::Inaccuracy => Judgement::Inaccuracy,
            Class::Mistake => Judgement::Mistake,
            Class::Blunder => Judgement::Blunder,
        }
    }
}

/// Every seat's chances at one position.
#[derive(SimpleObject)]
pub struct PlyChances {
    pub ply: u32,
    /// Each seat's chance to win, in seat order.
    pub win_chances: Vec<f64>,
    /// Each seat's expected final score.
    pub expected_scores: Vec<f64>,
    /// The position's figures are the final outcome.
    pub exact: bool,
}

/// A seat move judged.
#[derive(SimpleObject)]
pub struct MoveJudgement {
    /// The ply the move leads to (as `Game.moves` numbers entries).
    pub ply: u32,
    pub seat: u8,
    #[graphql(name = "move")]
    pub notation: String,
    /// The move in words.
    pub description: String,
    /// The mover's chance to win before the move and after it, as the position's own search
    /// found them (through the move it liked best, and through the move played, with at least
    /// 100 playouts): raw, not calibrated — a calibration can be flat over a range of chances,
    /// which would hide the difference a judgement reads. The graph (`plies`) is calibrated.
    pub before: f64,
    pub after: f64,
    /// Win chance the move cost (`before - after`, at least 0).
    pub loss: f64,
    pub judgement: Judgement,
    /// `?!`, `?`, `??`, or empty.
    pub glyph: String,
    /// The move the search liked best there, in notation and in words, with the mover's
    /// chance after it (null where the review kept none).
    pub best: Option<String>,
    pub best_description: Option<String>,
    pub best_win_chance: Option<f64>,
    /// The move's accuracy, 0 to 100.
    pub accuracy: f64,
    /// The seat had this one legal move (left out of its accuracy and counts).
    pub forced: bool,
}

/// A seat's play over the game.
#[derive(SimpleObject)]
pub struct SeatAccuracy {
    pub seat: u8,
    pub player: String,
    /// 0 to 100 (lichess's formula on win chances; see `ai::judge`); null for a seat that
    /// never had a choice.
    pub accuracy: Option<f64>,
    /// Moves with a choice, and how many of them were of each class.
    pub moves: u32,
    pub best: u32,
    pub good: u32,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// One of the largest swings of win chance in the game, and the entry that caused it.
#[derive(SimpleObject)]
pub struct TurningPoint {
    /// The ply the entry leads to.
    pub ply: u32,
    /// The seat whose chance moved most.
    pub seat: u8,
    /// Its chance before and after, and the change (negative: a loss).
    pub before: f64,
    pub after: f64,
    pub swing: f64,
    /// Who made the entry: a seat number, or `dealer` for chance.
    pub actor: String,
    #[graphql(name = "move")]
    pub notation: String,
    pub description: String,
    /// The judgement of the move, when a seat made it.
    pub judgement: Option<Judgement>,
}

/// A finished game's review (see the module documentation).
pub struct GameEvaluation {
    header: Header,
    progress: Progress,
    review: Option<Arc<Reviewed>>,
}

/// A review with what reading it needs: the log and the words of every entry.
struct Reviewed {
    review: Review,
    entries: Vec<Entry>,
    judged: Vec<Judged>,
    /// The words of each entry, and of the best move at its position.
    words: Vec<(String, Option<String>)>,
}

impl GameEvaluation {
    /// `h`'s review as it stands; a finished game not yet reviewed jumps the queue.
    pub async fn of(ctx: &Context<'_>, h: &Header) -> Result<GameEvaluation, ApiError> {
        let app = app(ctx);
        let Some(reviews) = app.reviews.clone() else {
            // No search on this server: nothing will change, the answer may be kept.
            return Ok(GameEvaluation {
                header: h.clone(),
                progress: Progress::Absent,
                review: None,
            });
        };
        let header = h.clone();
        let (progress, review) = blocking(app, move |s| {
            let review = reviews
                .review(&header)
                .map_err(|e| ApiError::Internal(e.to_string()))?;
            let progress = match review {
                Some(_) => Progress::Done,
                None => {
                    reviews.prioritize(&header);
                    reviews.progress(&header)
                }
            };
            let review = review.map(|r| read(s, &header, r)).transpose()?;
            Ok((progress, review.map(Arc::new)))
        })
        .await?;
        if progress != Progress::Done {
            // A review still to come: this answer changes without a correction, so the answer
            // cache must not keep it.
            super::journal::volatile(ctx);
        }
        Ok(GameEvaluation {
            header: h.clone(),
            progress,
            review,
        })
    }

    /// The `first` largest swings (empty until reviewed).
    pub fn swings(&self, first: Option<i32>) -> Result<Vec<TurningPoint>, ApiError> {
        let first = match first {
            None => 5,
            Some(n) if (0..=100).contains(&n) => n as usize,
            Some(n) => return Err(ApiError::BadInput(format!("`first` is 0 to 100, not {n}"))),
        };
        let Some(r) = &self.review else {
            return Ok(Vec::new());
        };
        let chances = review::judged::chances(&r.review);
        Ok(judge::turning_points(&chances, first)
            .into_iter()
            .filter_map(|s| {
                let e = r.entries.get(s.ply as usize)?;
                let before = chances[s.ply as usize][s.seat];
                Some(TurningPoint {
                    ply: s.ply + 1,
                    seat: s.seat as u8,
                    before,
                    after: before + s.swing,
                    swing: s.swing,
                    actor: actor_text(e.actor),
                    notation: e.notation.clone(),
                    description: r.words[s.ply as usize].0.clone(),
                    judgement: r
                        .judged
                        .iter()
                        .find(|j| j.ply == s.ply)
                        .map(|j| j.class.into()),
                })
            })
            .collect())
    }
}

fn actor_text(a: Actor) -> String {
    match a {
        Actor::Seat(s) => s.0.to_string(),
        Actor::Dealer => "dealer".into(),
    }
}

/// The review of `h` with its log, judgements and words.
fn read(s: &dyn GameLog, h: &Header, review: Review) -> Result<Reviewed, ApiError> {
    let entries = s.entries(h.id, 0, h.plies)?;
    let judged = review::judgements(&review, &entries);
    let rules = s
        .registry()
        .get(h.kind)
        .ok_or_else(|| ApiError::Internal(format!("no rules for {}", h.kind)))?;
    let mut state: Box<dyn GameState> = rules
        .new_game_recorded(&h.options_json(), &h.rules_version, &h.data_hash)
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut words = Vec::with_capacity(entries.len());
    for (e, p) in entries.iter().zip(&review.plies) {
        let best = p
            .best
            .as_ref()
            .map(|(mv, _)| state.describe(e.actor, mv, Viewer::Omniscient));
        words.push((
            state.describe(e.actor, &e.notation, Viewer::Omniscient),
            best,
        ));
        state
            .apply(e.actor, &e.notation)
            .map_err(|err| ApiError::Internal(err.to_string()))?;
    }
    Ok(Reviewed {
        review,
        entries,
        judged,
        words,
    })
}

#[Object]
impl GameEvaluation {
    async fn status(&self) -> ReviewStatus {
        match self.progress {
            Progress::Done => ReviewStatus::Done,
            Progress::Queued { .. } => ReviewStatus::Queued,
            Progress::Running { .. } => ReviewStatus::Running,
            Progress::Active => ReviewStatus::Pending,
            Progress::Absent => ReviewStatus::Absent,
        }
    }
    /// How far the review is, 0 to 1 (1 once done).
    async fn progress(&self) -> f64 {
        match self.progress {
            Progress::Done => 1.0,
            Progress::Running { done, total } if total > 0 => f64::from(done) / f64::from(total),
            _ => 0.0,
        }
    }
    /// Games ahead of this one in the queue (while queued).
    async fn queued_ahead(&self) -> Option<u32> {
        match self.progress {
            Progress::Queued { ahead } => Some(ahead as u32),
            _ => None,
        }
    }
    /// The search's iterations at each position, once reviewed.
    async fn iterations(&self) -> Option<u32> {
        self.review.as_ref().map(|r| r.review.head.iterations)
    }
    /// The evaluator's version the review was made with.
    async fn evaluator(&self) -> Option<&str> {
        self.review
            .as_ref()
            .map(|r| r.review.head.evaluator.as_str())
    }
    /// Whether the chances went through the calibration of this game and player count.
    async fn calibrated(&self) -> Option<bool> {
        self.review.as_ref().map(|r| r.review.calibrated)
    }
    /// Every position's chances, ply 0 to the end: the win-chance graph (empty until
    /// reviewed).
    #[graphql(complexity = "50 + child_complexity")]
    async fn plies(&self) -> Vec<PlyChances> {
        let Some(r) = &self.review else {
            return Vec::new();
        };
        r.review
            .plies
            .iter()
            .enumerate()
            .map(|(i, p)| PlyChances {
                ply: i as u32,
                win_chances: p.seats.iter().map(|c| f64::from(c.win)).collect(),
                expected_scores: p.seats.iter().map(|c| f64::from(c.score)).collect(),
                exact: p.exact,
            })
            .collect()
    }
    /// Every seat move judged, in order (one seat's with `seat`; empty until reviewed).
    #[graphql(complexity = "50 + child_complexity")]
    async fn moves(&self, seat: Option<u8>) -> async_graphql::Result<Vec<MoveJudgement>> {
        let players = self.header.players.len();
        if let Some(s) = seat.filter(|s| usize::from(*s) >= players) {
            return Err(ApiError::BadInput(format!(
                "seat {s} is not in this {players}-player game"
            ))
            .into());
        }
        let Some(r) = &self.review else {
            return Ok(Vec::new());
        };
        Ok(r.judged
            .iter()
            .filter(|j| seat.is_none_or(|s| s == j.seat))
            .map(|j| {
                let words = &r.words[j.ply as usize];
                MoveJudgement {
                    ply: j.ply + 1,
                    seat: j.seat,
                    notation: j.notation.clone(),
                    description: words.0.clone(),
                    before: j.before,
                    after: j.after,
                    loss: j.loss(),
                    judgement: j.class.into(),
                    glyph: j.class.glyph().into(),
                    best: j.best.as_ref().map(|b| b.0.clone()),
                    best_description: words.1.clone(),
                    best_win_chance: j.best.as_ref().map(|b| b.1),
                    accuracy: j.accuracy,
                    forced: j.forced,
                }
            })
            .collect())
    }
    /// Each seat's accuracy and moves by class (empty until reviewed).
    async fn seats(&self) -> Vec<SeatAccuracy> {
        let Some(r) = &self.review else {
            return Vec::new();
        };
        review::seat_reports(&r.judged, self.header.players.len())
            .into_iter()
            .map(|s| SeatAccuracy {
                seat: s.seat,
                player: self
                    .header
                    .players
                    .get(usize::from(s.seat))
                    .cloned()
                    .unwrap_or_default(),
                accuracy: s.accuracy,
                moves: s.moves,
                best: s.classes[0],
                good: s.classes[1],
                inaccuracies: s.classes[2],
                mistakes: s.classes[3],
                blunders: s.classes[4],
            })
            .collect()
    }
    /// The `first` (default 5, at most 100) largest swings of any seat's win chance, largest
    /// first, each with the entry that caused it (empty until reviewed).
    async fn turning_points(&self, first: Option<i32>) -> async_graphql::Result<Vec<TurningPoint>> {
        Ok(self.swings(first)?)
    }
}
