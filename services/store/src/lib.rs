//! Ludolog's event store: every game an append-only log, checksummed, durable before
//! acknowledgement, replayable to any ply through snapshots — behind the [`GameLog`] trait,
//! with sled on the local disk ([`Store`]) as the embedded default.
//!
//! This is the only crate that knows sled. It is generic over games: it sees them through
//! `rules_core`'s type-erased [`rules_core::GameRules`] registry, as notation text in and JSON
//! views out, so a new game plugs in by being registered.
//!
//! The store is synchronous, as sled is; async callers use `spawn_blocking`.
//!
//! # Layout
//! - [`log`]: [`GameLog`], the storage trait every caller uses, and its sled implementation
//!   ([`Store`], the embedded default).
//! - [`plan`]: what a creation or an append writes, decided by the rules alone (shared by
//!   every backend).
//! - [`id`]: `GameId`, sortable, with a fixed-width text form.
//! - [`record`]: headers, entries, and their checksummed framing.
//! - [`journal`]: what happens to a game beside its line of play — takebacks asked, answered
//!   and carried out (append-only: withdrawn entries stay in the journal), annotations — and
//!   the rules deciding them, shared by every backend.
//! - [`revision`]: corrections of finished games by an admin, as revisions that all stay
//!   readable and replayable.
//! - [`study`]: named, ordered sets of (game, ply, comment).
//! - [`store`]: opening, creating, appending (validation, dealing, idempotency, snapshots),
//!   reading entries and states, listing, rebuilding caches. The tree layout is documented there.
//! - [`durability`]: group commit, sharing one log write and `fdatasync` between writers.
//! - [`wal`]: the write-ahead log that makes acknowledged writes durable, and its recovery.
//! - [`portable`]: NDJSON game records: import (validated against the published schema) and
//!   export (byte-stable).
//! - [`space`]: the free-space guard that refuses writes before the disk fills.
//! - `error`: the one error enum, `StoreError`, with stable codes.

pub mod durability;
pub mod error;
pub mod id;
pub mod journal;
pub mod log;
pub mod plan;
pub mod portable;
pub mod record;
pub mod revision;
pub mod space;
pub mod store;
pub mod study;
pub mod wal;

pub use error::{Result, StoreError};
pub use id::GameId;
pub use log::{finished_games, GameLog};
pub use record::{EnteredBy, Entry, Header, Status};
pub use store::{
    Append, Appended, BackupReport, Config, Corrected, Filter, FinishHook, NewGame, Page,
    RebuildReport, Store,
};
