//! Studies: a named, ordered set of moments — (game, ply, comment) — with its own id, for a
//! club's lesson or a strategy article. A study is written once, whole, and never changed;
//! a new version is a new study.

use crate::error::{Result, StoreError};
use crate::id::GameId;
use crate::journal::{check_comment, Author};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// Longest study name, in characters.
pub const MAX_NAME: usize = 200;
/// Most moments in one study.
pub const MAX_ITEMS: usize = 500;

/// A study's id: 64 random bits, written as a game id is (13 characters of base32).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct StudyId(pub GameId);

impl std::fmt::Display for StudyId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for StudyId {
    type Err = crate::id::BadGameId;
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        s.parse().map(StudyId)
    }
}

/// One moment of a study.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudyItem {
    pub game: GameId,
    /// The position: 0 is the start, n the position after entry n − 1.
    pub ply: u32,
    #[serde(default)]
    pub comment: String,
    /// Moves played from `ply` on an analysis board (`Position.explore`), as typed; only on a
    /// finished game's moment (the caller checks that they play).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branch: Vec<String>,
}

/// Most entries a moment's branch holds (as `Position.explore` plays at most).
pub const MAX_BRANCH: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Study {
    pub id: StudyId,
    pub name: String,
    pub by: Author,
    pub created_at: DateTime<Utc>,
    pub items: Vec<StudyItem>,
}

/// Checks a study's name, items and comments, and that every moment is a position of a
/// stored game (`plies_of` says how many entries a game has, or why it cannot be read).
pub fn check(study: &Study, plies_of: &dyn Fn(GameId) -> Result<u32>) -> Result<()> {
    let n = study.name.trim();
    if n.is_empty() || study.name.chars().count() > MAX_NAME {
        return Err(StoreError::BadInput(format!(
            "a study's name is 1 to {MAX_NAME} characters"
        )));
    }
    check_comment(&study.name)?;
    if study.items.is_empty() || study.items.len() > MAX_ITEMS {
        return Err(StoreError::BadInput(format!(
            "a study holds 1 to {MAX_ITEMS} moments"
        )));
    }
    for (i, item) in study.items.iter().enumerate() {
        check_comment(&item.comment)?;
        if item.branch.len() > MAX_BRANCH || item.branch.iter().any(|m| m.len() > 200) {
            return Err(StoreError::BadInput(format!(
                "moment {}: a branch is at most {MAX_BRANCH} entries of at most 200 bytes",
                i + 1
            )));
        }
        let plies = plies_of(item.game)?;
        if item.ply > plies {
            return Err(StoreError::BadInput(format!(
                "moment {}: game {} has positions 0 to {plies}, not {}",
                i + 1,
                item.game,
                item.ply
            )));
        }
    }
    Ok(())
}

pub fn encode(s: &Study) -> Vec<u8> {
    serde_json::to_vec(s).unwrap_or_default()
}

pub fn decode(bytes: &[u8], id: StudyId) -> Result<Study> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt {
        game: id.0,
        ply: None,
        what: format!("study: {e}"),
    })
}
