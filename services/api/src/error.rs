//! The one place where errors become GraphQL errors with a stable `extensions.code`.
//!
//! Codes: `ILLEGAL_MOVE` (with `rule`), `VERSION_CONFLICT` (with `currentPly`), `NOT_FOUND`,
//! `BAD_NOTATION`, `UNAUTHORIZED`, `BAD_RECORD` (with `line`/`ply` when known),
//! `LIMIT_EXCEEDED` (also a journal past its byte cap, and an answer past the response
//! budget: `budget`), `BAD_INPUT`, `CORRUPT`, `INTERNAL`, the journal's `TAKEBACK_REFUSED`,
//! `NOT_ASKED`, `WITHDRAWN`, `GAME_ACTIVE` and `CORRECTION_REFUSED`, and
//! `IDEMPOTENCY_KEY_TAKEN` (another's key: the store's own codes, `StoreError::code`); a game's
//! bots refused: `BOTS_DISABLED`, `UNKNOWN_BOT`, `BOT_BUDGET`, `SEAT_TAKEN`; and `BAD_QUERY` for what
//! async-graphql itself refuses (set in `http`, with `LIMIT_EXCEEDED` for its depth and
//! complexity limits).

use async_graphql::{Error, ErrorExtensions};
use rules_core::EntryError;
use store::StoreError;

/// Deliberately not `Display`: async-graphql turns any `Display` error into a GraphQL error
/// without a code, and this way the `From` below — the one place codes are set — is the only
/// conversion there is.
#[derive(Debug)]
pub enum ApiError {
    Store(StoreError),
    Unauthorized(String),
    LimitExceeded(String),
    BadInput(String),
    NotFound(String),
    BadRecord(store::portable::RecordError),
    /// A position filter that does not compile or fails to evaluate.
    BadQuery(analysis::positions::FilterError),
    Internal(String),
    /// A `createGame` whose bots were refused.
    Bot(crate::bots::BotRefused),
    /// A hash asked of a node keyed otherwise than its deployment (`HASH_KEY_MISMATCH`).
    HashKeyMismatch(String),
}

impl From<explorer::ExplorerError> for ApiError {
    fn from(e: explorer::ExplorerError) -> Self {
        use explorer::ExplorerError as X;
        match e {
            X::Filter(_) => ApiError::BadInput(e.to_string()),
            X::Store(s) => ApiError::Store(s),
            X::Runs(_) | X::Replay { .. } | X::BadProjection(_) => {
                ApiError::Internal(e.to_string())
            }
        }
    }
}

impl From<analysis::positions::PositionsError> for ApiError {
    fn from(e: analysis::positions::PositionsError) -> Self {
        use analysis::positions::PositionsError as P;
        match e {
            P::Filter(f) => ApiError::BadQuery(f),
            P::Store(s) => ApiError::Store(s),
            P::UnknownKind(_) | P::BadCursor(_) => ApiError::BadInput(e.to_string()),
            P::BadBlock(_) | P::Io(_) | P::Cancelled => ApiError::Internal(e.to_string()),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        ApiError::Store(e)
    }
}

impl ApiError {
    pub fn message(&self) -> String {
        match self {
            ApiError::Store(e) => e.to_string(),
            ApiError::Unauthorized(m)
            | ApiError::LimitExceeded(m)
            | ApiError::BadInput(m)
            | ApiError::NotFound(m)
            | ApiError::HashKeyMismatch(m) => m.clone(),
            ApiError::BadRecord(r) => format!("bad record: {r}"),
            ApiError::BadQuery(f) => f.to_string(),
            ApiError::Internal(m) => format!("internal error: {m}"),
            ApiError::Bot(b) => b.to_string(),
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Store(e) => match e {
                StoreError::NoSuchPly { .. } | StoreError::NotFound(_) => "NOT_FOUND",
                StoreError::BadInput(_) | StoreError::UnknownKind(_) | StoreError::Exists(_) => {
                    "BAD_INPUT"
                }
                other => other.code(),
            },
            ApiError::Unauthorized(_) => "UNAUTHORIZED",
            ApiError::LimitExceeded(_) => "LIMIT_EXCEEDED",
            ApiError::BadInput(_) => "BAD_INPUT",
            ApiError::NotFound(_) => "NOT_FOUND",
            ApiError::BadRecord(_) => "BAD_RECORD",
            ApiError::BadQuery(_) => "BAD_QUERY",
            ApiError::Internal(_) => "INTERNAL",
            ApiError::Bot(b) => b.code(),
            ApiError::HashKeyMismatch(_) => "HASH_KEY_MISMATCH",
        }
    }
}

impl From<ApiError> for Error {
    fn from(e: ApiError) -> Error {
        let code = e.code();
        Error::new(e.message()).extend_with(|_, ext| {
            ext.set("code", code);
            match &e {
                ApiError::Store(StoreError::VersionConflict {
                    current, expected, ..
                }) => {
                    ext.set("currentPly", *current);
                    ext.set("expectedPly", *expected);
                }
                ApiError::Store(StoreError::Rejected { ply, error, .. }) => {
                    ext.set("ply", *ply);
                    if let EntryError::Rule { rule, .. } = error {
                        ext.set("rule", *rule);
                    }
                }
                ApiError::BadQuery(f) => {
                    if let Some(line) = f.line() {
                        ext.set("line", line);
                    }
                    if let Some(column) = f.column() {
                        ext.set("column", column);
                    }
                }
                ApiError::BadRecord(r) => {
                    ext.set("line", r.line);
                    if let Some(p) = r.ply {
                        ext.set("ply", p);
                    }
                }
                _ => {}
            }
        })
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
