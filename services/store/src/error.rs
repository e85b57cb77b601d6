//! The store's errors: one enum, each variant a distinct thing a caller can act on.

use crate::id::GameId;
use rules_core::EntryError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("game {0} not found")]
    NotFound(GameId),
    #[error("game {game}: expected ply {expected}, but the game is at ply {current}")]
    VersionConflict {
        game: GameId,
        expected: u32,
        current: u32,
    },
    #[error("game {game}, ply {ply}: {error}")]
    Rejected {
        game: GameId,
        /// The refused entry's ply as README numbers them: the entry that would have turned
        /// position `ply - 1` into position `ply` (so the entry at index `ply - 1`).
        ply: u32,
        error: EntryError,
    },
    #[error("game {game}: ply {ply} is past the end of the game ({plies} entries)")]
    NoSuchPly { game: GameId, ply: u32, plies: u32 },
    #[error("game kind {0} is not served by this store")]
    UnknownKind(String),
    #[error("{0}")]
    BadInput(String),
    #[error("game {game}{}: stored record is corrupt ({what})", .ply.map(|p| format!(", ply {p}")).unwrap_or_default())]
    Corrupt {
        game: GameId,
        ply: Option<u32>,
        what: String,
    },
    #[error("game {0} already exists")]
    Exists(GameId),
    /// Another process (a running server) has the store open.
    #[error("the store in {dir} has layout {found}, newer than this build reads ({supported}): open it with a newer ludolog")]
    Format {
        dir: String,
        found: u32,
        supported: u32,
    },
    #[error("the store in {0} is in use by another process")]
    InUse(String),
    /// The filesystem has less free space than the configured reserve: nothing was written.
    #[error("storage full: {free} bytes free, below the {reserve}-byte reserve; free space or raise the disk, and writes resume by themselves")]
    StorageFull { free: u64, reserve: u64 },
    #[error("storage: {0}")]
    Sled(#[from] sled::Error),
    /// A networked backend cannot reach its cluster, or the cluster has no quorum: nothing
    /// was acknowledged that is not kept; the same request may be retried (with its
    /// idempotency key, an append is then applied once).
    #[error("store unavailable: {0}; retry")]
    Unavailable(String),
    /// This backend does not do that; the message says what does.
    #[error("not supported by this store: {0}")]
    Unsupported(String),
    /// A takeback that may not be asked or carried out (the message says why: it would
    /// withdraw a chance entry, nothing, or a finished game's; another is open).
    #[error("takeback refused: {0}")]
    TakebackRefused(String),
    /// An answer to a takeback request from someone it did not ask, or to one that is closed.
    #[error("{0}")]
    NotAsked(String),
    /// A change only a finished game takes (a correction) asked of one being played.
    #[error("game {0} is still being played: only a finished game's record is corrected")]
    NotFinished(GameId),
    /// A retried append whose first attempt was applied and then withdrawn by a takeback.
    #[error("game {game}: the move this idempotency key wrote (entry {ply}) was withdrawn by a takeback; send the move again under a new key")]
    Withdrawn { game: GameId, ply: u32 },
    /// A correction of a finished game that cannot be made: the corrected record would not
    /// replay, or would not end where the game ended (`ply`: the entry, numbered from 1, when
    /// one entry is to blame).
    #[error("correction refused{}: {why}", .ply.map(|p| format!(" at entry {p}")).unwrap_or_default())]
    CorrectionRefused { ply: Option<u32>, why: String },
    /// No study with this id.
    #[error("study {0} not found")]
    NoSuchStudy(String),
    /// An idempotency key of this actor that someone else entered a move under (the seat
    /// itself, or the game's recorder): one answer whatever the move sent, so that a retry
    /// under another's key cannot confirm or deny a guess of a hidden move.
    #[error("game {game}: this idempotency key was used by someone else entering this actor's moves; send the move under a key of your own")]
    KeyTaken { game: GameId },
    /// A note that would take the game's journal past its limits (`Config::max_journal_bytes`
    /// bytes, `journal::MAX_NOTES` notes; `why` says which): nothing was written.
    #[error("game {game}: its journal is full: {why}; nothing was written")]
    JournalFull { game: GameId, why: String },
}

impl StoreError {
    /// A stable code for APIs and logs.
    pub fn code(&self) -> &'static str {
        match self {
            StoreError::NotFound(_) => "NOT_FOUND",
            StoreError::VersionConflict { .. } => "VERSION_CONFLICT",
            StoreError::Rejected {
                error: EntryError::Notation(_),
                ..
            } => "BAD_NOTATION",
            StoreError::Rejected { .. } => "ILLEGAL_MOVE",
            StoreError::NoSuchPly { .. } => "NOT_FOUND",
            StoreError::UnknownKind(_) | StoreError::BadInput(_) => "BAD_INPUT",
            StoreError::Corrupt { .. } => "CORRUPT",
            StoreError::Exists(_) => "EXISTS",
            StoreError::StorageFull { .. } => "STORAGE_FULL",
            StoreError::InUse(_) => "IN_USE",
            StoreError::Format { .. } => "STORE_FORMAT",
            StoreError::Sled(_) => "STORAGE",
            StoreError::Unavailable(_) => "UNAVAILABLE",
            StoreError::Unsupported(_) => "UNSUPPORTED",
            StoreError::TakebackRefused(_) => "TAKEBACK_REFUSED",
            StoreError::NotAsked(_) => "NOT_ASKED",
            StoreError::NotFinished(_) => "GAME_ACTIVE",
            StoreError::NoSuchStudy(_) => "NOT_FOUND",
            StoreError::Withdrawn { .. } => "WITHDRAWN",
            StoreError::CorrectionRefused { .. } => "CORRECTION_REFUSED",
            StoreError::KeyTaken { .. } => "IDEMPOTENCY_KEY_TAKEN",
            StoreError::JournalFull { .. } => "LIMIT_EXCEEDED",
        }
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;
