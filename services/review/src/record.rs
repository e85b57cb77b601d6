//! What a review keeps of a game: the evaluation of every ply, under the game's revision, its
//! rules version and the evaluator's version, so that a review of another revision (a
//! correction made since) or of an older evaluator is recognised as stale and never shown.
//!
//! Kept in the store's node-local projection [`PROJECTION`], keyed by the game id's bytes,
//! as postcard bytes whose first fields are the [`Head`] (read alone when only freshness is
//! asked). An empty value is a review dropped (a correction): the projection has no delete.
use crate::ReviewError;
use serde::{Deserialize, Serialize};
use store::{GameId, GameLog, Header};

/// The projection holding reviews.
pub const PROJECTION: &str = "reviews";

/// The evaluator's version: bumped whenever the search, the calibration or what a review keeps
/// changes, which makes every stored review stale (and queued again).
pub const EVALUATOR: &str = "ismcts-3";

/// Who and what a review is of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    pub revision: u32,
    pub rules_version: String,
    pub evaluator: String,
    /// The search's iterations at each ply.
    pub iterations: u32,
}

impl Head {
    /// The head a current review of `h` at `iterations` has.
    pub fn of(h: &Header, iterations: u32) -> Head {
        Head {
            revision: h.revision,
            rules_version: h.rules_version.clone(),
            evaluator: EVALUATOR.to_string(),
            iterations,
        }
    }

    /// Whether a review with this head is current for `h` (any budget).
    pub fn is_current(&self, h: &Header) -> bool {
        self.revision == h.revision
            && self.rules_version == h.rules_version
            && self.evaluator == EVALUATOR
    }
}

/// One seat's chances at a ply (calibrated where a calibration exists).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Chances {
    pub win: f32,
    pub low: f32,
    pub high: f32,
    pub score: f32,
    pub rank: f32,
}

/// The evaluation of one position of the game (the one entry `ply` is played in).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlyEval {
    /// Every seat's chances, in seat order.
    pub seats: Vec<Chances>,
    /// The move the search liked best for the seat that moved here (none for chance and at
    /// the end), with that seat's chance after it.
    pub best: Option<(String, f32)>,
    /// The judgement's figures, raw (uncalibrated), from this position's own search: the
    /// mover's chance through the move the search liked best, and through the move it played
    /// (with at least [`crate::run::PLAYOUTS`] playouts). None where no seat moved, or the
    /// move was forced.
    pub raw: Option<(f32, f32)>,
    /// The seat had one legal move: no search, the next ply's chances.
    pub forced: bool,
    /// The game's outcome (the last ply).
    pub exact: bool,
}

/// A game reviewed: the evaluation at plies `0..=plies` (the last is the final outcome).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Review {
    pub head: Head,
    pub plies: Vec<PlyEval>,
    /// Whether the chances went through a calibration.
    pub calibrated: bool,
}

/// What the projection holds for a game.
#[derive(Debug)]
pub enum Kept {
    None,
    /// A review of another revision, rules version or evaluator.
    Stale(Head),
    Current(Review),
}

/// The review kept for `h`'s game.
pub fn read(store: &dyn GameLog, h: &Header) -> Result<Kept, ReviewError> {
    let key = h.id.to_bytes();
    let Some(bytes) = store
        .projection_range(PROJECTION, &key)?
        .next()
        .transpose()?
        .and_then(|(k, v)| (k == key).then_some(v))
    else {
        return Ok(Kept::None);
    };
    if bytes.is_empty() {
        return Ok(Kept::None);
    }
    // A review that does not decode is derived data: read as none, made again.
    Ok(match postcard::from_bytes::<Review>(&bytes) {
        Ok(r) if r.head.is_current(h) => Kept::Current(r),
        Ok(r) => Kept::Stale(r.head),
        Err(_) => Kept::None,
    })
}

/// The head of every review kept, by game (for the queue at start).
pub fn heads(store: &dyn GameLog) -> Result<Vec<(GameId, Head)>, ReviewError> {
    let mut out = Vec::new();
    for item in store.projection_iter(PROJECTION)? {
        let (k, v) = item?;
        let (Ok(key), false) = (<[u8; 8]>::try_from(k.as_slice()), v.is_empty()) else {
            continue;
        };
        if let Ok((head, _)) = postcard::take_from_bytes::<Head>(&v) {
            out.push((GameId(u64::from_be_bytes(key)), head));
        }
    }
    Ok(out)
}

/// Keeps `r` as `id`'s review.
pub fn write(store: &dyn GameLog, id: GameId, r: &Review) -> Result<(), ReviewError> {
    let bytes = postcard::to_allocvec(r).map_err(|e| ReviewError::Encode(e.to_string()))?;
    Ok(store.projection_put(PROJECTION, &id.to_bytes(), &bytes)?)
}

/// Drops `id`'s review (its game was corrected).
pub fn drop_review(store: &dyn GameLog, id: GameId) -> Result<(), ReviewError> {
    Ok(store.projection_put(PROJECTION, &id.to_bytes(), &[])?)
}

/// Every finished game (of `kind`, when given), oldest first.
pub fn finished_games(
    store: &dyn GameLog,
    kind: Option<rules_core::GameKind>,
) -> Result<Vec<Header>, ReviewError> {
    Ok(::store::finished_games(store, kind)?)
}
