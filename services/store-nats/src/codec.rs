//! Messages to and from the store's records, and the cluster's errors to `StoreError`.
//!
//! Entries and headers travel as JSON: readable with the `nats` tool, and independent of the
//! Rust types' layout (the sled store's postcard is not).

use async_nats::jetstream::context::{PublishError, PublishErrorKind};
use async_nats::HeaderMap;
use bytes::Bytes;
use std::hash::Hasher;
use store::{Entry, GameId, Header, StoreError};

/// Message header: the entry's ply.
pub const PLY: &str = "Ludolog-Ply";
/// Message header on the entry that ends a game: `finished`.
pub const STATUS: &str = "Ludolog-Status";
/// Message header on a journal note that corrects a finished game: the revision it makes.
pub const REVISION: &str = "Ludolog-Revision";
/// Message header on a withdrawal marker on a game's entries subject (a takeback carried
/// out, see `crate::line`): the line's length after it.
pub const WITHDRAWN: &str = "Ludolog-Withdrawn";
/// Message header on an entry written after a takeback: how many withdrawal markers precede
/// it on its line (absent: none).
pub const GENERATION: &str = "Ludolog-Generation";
/// With `Nats-Expected-Last-Subject-Sequence`, the subject (wildcards allowed) whose last
/// message is expected (nats-server 2.11 and later): a game's journal writes expect the last
/// message of all of its subjects at once (see `crate::journal`).
pub const EXPECTED_SUBJECT: &str = "Nats-Expected-Last-Subject-Sequence-Subject";

/// The `Nats-Msg-Id` of an entry: game, ply and a hash of what it says, so a retry of the
/// same entry is recognised and a different entry at that ply is a conflict, not a duplicate
/// (the server checks ids before expected sequences). A line that has had takebacks adds its
/// generation (how many): the same move played again at a ply it was withdrawn from is a new
/// message, not a duplicate of the withdrawn one.
pub fn msg_id(game: GameId, generation: u32, e: &Entry) -> String {
    let mut h = siphasher::sip::SipHasher13::new_with_keys(0x4c75_646f, 0x006c_6f67);
    h.write(e.actor.to_string().as_bytes());
    h.write(&[0]);
    h.write(e.notation.as_bytes());
    h.write(&[0]);
    h.write(e.key.as_deref().unwrap_or("").as_bytes());
    match generation {
        0 => format!("{game}:{}:{:016x}", e.ply, h.finish()),
        g => format!("{game}:{}:{:016x}:g{g}", e.ply, h.finish()),
    }
}

pub fn entry_payload(e: &Entry) -> store::Result<Bytes> {
    serde_json::to_vec(e)
        .map(Bytes::from)
        .map_err(|err| StoreError::BadInput(err.to_string()))
}

pub fn entry_headers(e: &Entry, finished: bool, generation: u32) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(PLY, e.ply.to_string().as_str());
    if generation > 0 {
        h.insert(GENERATION, generation.to_string().as_str());
    }
    if finished {
        h.insert(STATUS, "finished");
    }
    h
}

pub fn header_payload(h: &Header) -> store::Result<Bytes> {
    serde_json::to_vec(h)
        .map(Bytes::from)
        .map_err(|err| StoreError::BadInput(err.to_string()))
}

pub fn decode_entry(game: GameId, payload: &[u8]) -> store::Result<Entry> {
    serde_json::from_slice(payload).map_err(|e| StoreError::Corrupt {
        game,
        ply: None,
        what: format!("entry message: {e}"),
    })
}

pub fn decode_header(game: GameId, payload: &[u8]) -> store::Result<Header> {
    serde_json::from_slice(payload).map_err(|e| StoreError::Corrupt {
        game,
        ply: None,
        what: format!("header message: {e}"),
    })
}

/// Whether the entry message marks the end of its game.
pub fn is_finished(headers: Option<&HeaderMap>) -> bool {
    headers
        .and_then(|h| h.get(STATUS))
        .is_some_and(|v| v.as_str() == "finished")
}

/// How many withdrawal markers precede an entry's message on its line.
pub fn generation_of(headers: Option<&HeaderMap>) -> u32 {
    headers
        .and_then(|h| h.get(GENERATION))
        .and_then(|v| v.as_str().parse().ok())
        .unwrap_or(0)
}

/// The line's length after a withdrawal marker; `None` for any other message.
pub fn withdrawn_to(headers: Option<&HeaderMap>) -> Option<u32> {
    headers
        .and_then(|h| h.get(WITHDRAWN))
        .and_then(|v| v.as_str().parse().ok())
}

/// The revision a journal note's message makes, if it is a correction's.
pub fn revision_of(headers: Option<&HeaderMap>) -> Option<u32> {
    headers
        .and_then(|h| h.get(REVISION))
        .and_then(|v| v.as_str().parse().ok())
}

/// The JetStream error code somewhere in an error's chain (10071: wrong last sequence).
fn js_code(e: &(dyn std::error::Error + 'static)) -> Option<u64> {
    let mut cur = Some(e);
    while let Some(x) = cur {
        if let Some(j) = x.downcast_ref::<async_nats::jetstream::Error>() {
            return Some(j.error_code().0);
        }
        cur = x.source();
    }
    None
}

/// What a failed publish means.
pub enum Refused {
    /// Another entry took the expected place first (10071; 10164 while it was in flight).
    Conflict,
    /// The stream could not be reached or answered in time: the entry may or may not be
    /// kept — a retry with the same message id finds out.
    Unavailable(String),
    /// Anything else: a lasting error.
    Other(String),
}

pub fn refused(e: &PublishError) -> Refused {
    match e.kind() {
        PublishErrorKind::WrongLastSequence => Refused::Conflict,
        // During a leader election nothing answers on the stream's subjects: "no responders".
        PublishErrorKind::StreamNotFound
        | PublishErrorKind::TimedOut
        | PublishErrorKind::BrokenPipe
        | PublishErrorKind::MaxAckPending => Refused::Unavailable(e.to_string()),
        _ => match js_code(e) {
            Some(10071 | 10164) => Refused::Conflict,
            // 10163: the expected sequence per subject is not ready yet; 10008: JetStream
            // temporarily unavailable (no quorum); 10158: this message id is still in
            // process (an earlier attempt of the same publish, not yet decided).
            Some(10163 | 10008 | 10158) => Refused::Unavailable(e.to_string()),
            _ => Refused::Other(e.to_string()),
        },
    }
}

/// Any failure to reach or ask the cluster.
pub fn unavailable(e: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(e.to_string())
}
