//! What the store keeps, and how each record is framed on disk.
//!
//! Every stored value is `[crc32 of payload, 4 bytes LE][payload]`, the payload postcard.
//! A record whose checksum fails is reported as `Corrupt` with its game and ply — never
//! skipped, never served.

use crate::error::{Result, StoreError};
use crate::id::GameId;
use chrono::{DateTime, Utc};
use rules_core::{Actor, GameKind};
use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// Whether a game is still being played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Active,
    Finished,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Finished => "finished",
        }
    }
}

/// A game's header: everything about it but its entries. Stored in two parts
/// (`StoredHeader`, `StoredTip`) by the sled store; whole, as JSON, by the JetStream one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub id: GameId,
    pub kind: GameKind,
    pub players: Vec<String>,
    /// Canonical JSON text of the options.
    pub options: String,
    /// The seed the store deals from; `None` for games dealt at a real table (imported), whose
    /// dealer entries come with the record.
    pub seed: Option<u64>,
    pub rules_version: String,
    pub data_hash: String,
    #[serde(with = "nanos")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "nanos")]
    pub updated_at: DateTime<Utc>,
    pub status: Status,
    /// Number of entries.
    pub plies: u32,
    /// Hashes of the seats' secret tokens (filled by the API; empty for imports).
    pub seat_token_hashes: Vec<String>,
    /// Hash of the recorder's token: one person entering every seat's moves and every chance
    /// entry of a game played at a real table (filled by the API; none for imports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorder_token_hash: Option<String>,
    /// How many times an admin has corrected the finished game's record (0: as recorded; see
    /// [`crate::revision`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub revision: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Header {
    pub fn options_json(&self) -> serde_json::Value {
        serde_json::from_str(&self.options).unwrap_or(serde_json::Value::Null)
    }
}

/// What of a header never changes after creation (the `games` tree).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredHeader {
    pub id: GameId,
    pub kind: GameKind,
    pub players: Vec<String>,
    pub options: String,
    pub seed: Option<u64>,
    pub rules_version: String,
    pub data_hash: String,
    #[serde(with = "nanos")]
    pub created_at: DateTime<Utc>,
    pub seat_token_hashes: Vec<String>,
}

/// What of a header every append changes (the `tips` tree): kept apart so that an append
/// rewrites a few bytes, not the players, options and hashes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredTip {
    pub plies: u32,
    pub status: Status,
    #[serde(with = "nanos")]
    pub updated_at: DateTime<Utc>,
}

impl Header {
    pub(crate) fn split(&self) -> (StoredHeader, StoredTip) {
        (
            StoredHeader {
                id: self.id,
                kind: self.kind,
                players: self.players.clone(),
                options: self.options.clone(),
                seed: self.seed,
                rules_version: self.rules_version.clone(),
                data_hash: self.data_hash.clone(),
                created_at: self.created_at,
                // The recorder's hash rides after the seats' (one more than the players):
                // the sled layout of `StoredHeader` stays as it was.
                seat_token_hashes: self
                    .seat_token_hashes
                    .iter()
                    .chain(&self.recorder_token_hash)
                    .cloned()
                    .collect(),
            },
            self.tip(),
        )
    }

    pub(crate) fn tip(&self) -> StoredTip {
        StoredTip {
            plies: self.plies,
            status: self.status,
            updated_at: self.updated_at,
        }
    }

    pub(crate) fn join(h: StoredHeader, t: StoredTip) -> Header {
        let mut seat_token_hashes = h.seat_token_hashes;
        let recorder_token_hash = if seat_token_hashes.len() > h.players.len() {
            seat_token_hashes.pop()
        } else {
            None
        };
        Header {
            id: h.id,
            kind: h.kind,
            players: h.players,
            options: h.options,
            seed: h.seed,
            rules_version: h.rules_version,
            data_hash: h.data_hash,
            created_at: h.created_at,
            updated_at: t.updated_at,
            status: t.status,
            plies: t.plies,
            seat_token_hashes,
            recorder_token_hash,
            revision: 0,
        }
    }
}

/// One log entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub ply: u32,
    pub actor: Actor,
    pub notation: String,
    #[serde(with = "nanos")]
    pub recorded_at: DateTime<Utc>,
    pub key: Option<String>,
    /// Who typed the entry in, when it was said. Last, and left out when `None`: an entry
    /// without it is stored exactly as entries were before it existed ([`decode_entry`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entered_by: Option<EnteredBy>,
}

/// Who typed an entry in: a seat, its own move, the person recording the whole table, or a
/// bot the service plays for the seat (self-play, or a seat given to a bot by `createGame`).
/// Text: the seat number, `recorder` or `bot`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EnteredBy {
    Seat(rules_core::Seat),
    Recorder,
    Bot,
}

impl EnteredBy {
    /// Who entered an entry of `actor`, `said` or not: when it was not said (the store's own
    /// tools, records written before it was kept), a seat's entry is taken as the seat's own
    /// and a chance entry as the recorder's (no seat enters chance entries).
    pub fn of(actor: Actor, said: Option<EnteredBy>) -> EnteredBy {
        match (said, actor) {
            (Some(by), _) => by,
            (None, Actor::Seat(s)) => EnteredBy::Seat(s),
            (None, Actor::Dealer) => EnteredBy::Recorder,
        }
    }
}

impl std::fmt::Display for EnteredBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EnteredBy::Seat(s) => write!(f, "{}", s.0),
            EnteredBy::Recorder => f.write_str("recorder"),
            EnteredBy::Bot => f.write_str("bot"),
        }
    }
}

impl std::str::FromStr for EnteredBy {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "recorder" => Ok(EnteredBy::Recorder),
            "bot" => Ok(EnteredBy::Bot),
            _ => s
                .parse::<u8>()
                .map(|n| EnteredBy::Seat(rules_core::Seat(n)))
                .map_err(|_| format!("`{s}`: a seat number, `recorder` or `bot`")),
        }
    }
}

impl Serialize for EnteredBy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for EnteredBy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// An entry's fields before `entered_by`, as postcard lays them out.
#[derive(Serialize, Deserialize)]
struct EntryCore {
    ply: u32,
    actor: Actor,
    notation: String,
    #[serde(with = "nanos")]
    recorded_at: DateTime<Utc>,
    key: Option<String>,
}

/// An entry from its postcard bytes: its fields, then `entered_by` if anything follows (an
/// entry stored before `entered_by` existed, or without it, ends after `key`).
pub(crate) fn entry_from_postcard(bytes: &[u8]) -> std::result::Result<Entry, postcard::Error> {
    let (core, rest) = postcard::take_from_bytes::<EntryCore>(bytes)?;
    let entered_by = if rest.is_empty() {
        None
    } else {
        postcard::from_bytes::<Option<EnteredBy>>(rest)?
    };
    Ok(Entry {
        ply: core.ply,
        actor: core.actor,
        notation: core.notation,
        recorded_at: core.recorded_at,
        key: core.key,
        entered_by,
    })
}

/// A framed entry (see [`entry_from_postcard`]).
pub fn decode_entry(bytes: &[u8], game: GameId, ply: Option<u32>) -> Result<Entry> {
    let payload = unframe(bytes).ok_or_else(|| StoreError::Corrupt {
        game,
        ply,
        what: "checksum mismatch".into(),
    })?;
    entry_from_postcard(payload).map_err(|e| StoreError::Corrupt {
        game,
        ply,
        what: e.to_string(),
    })
}

/// Timestamps as nanoseconds since the epoch: exact, compact, and they round-trip the text of
/// imported records to the nanosecond.
mod nanos {
    use chrono::{DateTime, Utc};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        let secs = t.timestamp();
        let n = i128::from(secs) * 1_000_000_000 + i128::from(t.timestamp_subsec_nanos());
        s.serialize_i128(n)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
        let n = i128::deserialize(d)?;
        let secs = i64::try_from(n.div_euclid(1_000_000_000)).map_err(serde::de::Error::custom)?;
        let sub = n.rem_euclid(1_000_000_000) as u32;
        DateTime::from_timestamp(secs, sub)
            .ok_or_else(|| serde::de::Error::custom("time out of range"))
    }
}

/// Frames `payload` with its checksum.
pub fn frame(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 4);
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The checked payload of a framed record.
pub fn unframe(bytes: &[u8]) -> Option<&[u8]> {
    if bytes.len() < 4 {
        return None;
    }
    let (crc, payload) = bytes.split_at(4);
    let want = u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]);
    (crc32fast::hash(payload) == want).then_some(payload)
}

pub fn encode<T: Serialize>(v: &T) -> Vec<u8> {
    // Serialising these plain structs into a Vec cannot fail.
    frame(&postcard::to_allocvec(v).unwrap_or_default())
}

pub fn decode<T: DeserializeOwned>(bytes: &[u8], game: GameId, ply: Option<u32>) -> Result<T> {
    let payload = unframe(bytes).ok_or_else(|| StoreError::Corrupt {
        game,
        ply,
        what: "checksum mismatch".into(),
    })?;
    postcard::from_bytes(payload).map_err(|e| StoreError::Corrupt {
        game,
        ply,
        what: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flipped_bit_is_detected() {
        let e = Entry {
            ply: 3,
            actor: Actor::Dealer,
            notation: "draw cards=fi".into(),
            recorded_at: DateTime::from_timestamp(1_700_000_000, 123_456_789).unwrap(),
            key: Some("k".into()),
            entered_by: Some(EnteredBy::Recorder),
        };
        let bytes = encode(&e);
        assert_eq!(decode_entry(&bytes, GameId(1), Some(3)).unwrap(), e);
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            let err = decode_entry(&bad, GameId(1), Some(3)).unwrap_err();
            assert!(
                matches!(err, StoreError::Corrupt { ply: Some(3), .. }),
                "{err}"
            );
        }
        assert!(decode_entry(&[1, 2], GameId(1), None).is_err());
    }

    /// The recorder's token hash is kept by the sled layout without changing it: a header
    /// with one comes back with it, and one without (every header written before recorders)
    /// comes back without.
    #[test]
    fn the_recorder_hash_survives_the_stored_layout() {
        let at = DateTime::from_timestamp(1_700_000_000, 0).unwrap();
        let mut h = Header {
            id: GameId(9),
            kind: GameKind::Mombasa,
            players: vec!["a".into(), "b".into()],
            options: "{}".into(),
            seed: None,
            rules_version: "mombasa/1".into(),
            data_hash: "x".into(),
            created_at: at,
            updated_at: at,
            status: Status::Active,
            plies: 0,
            seat_token_hashes: vec!["s0".into(), "s1".into()],
            recorder_token_hash: Some("r".into()),
            revision: 0,
        };
        for _ in 0..2 {
            let (fixed, tip) = h.split();
            let fixed: StoredHeader = decode(&encode(&fixed), h.id, None).unwrap();
            assert_eq!(Header::join(fixed, tip), h);
            h.recorder_token_hash = None;
        }
        let (fixed, _) = h.split();
        assert_eq!(
            fixed.seat_token_hashes,
            vec!["s0", "s1"],
            "the old layout, unchanged"
        );
    }

    /// Who typed an entry in is kept after the fields entries had before it, so an entry
    /// without it is stored byte for byte as before and an entry stored before reads back.
    #[test]
    fn entered_by_follows_the_older_fields_and_older_entries_read() {
        let at = DateTime::from_timestamp(1_700_000_000, 5).unwrap();
        let mut e = Entry {
            ply: 4,
            actor: Actor::Seat(rules_core::Seat(1)),
            notation: "bid 3".into(),
            recorded_at: at,
            key: None,
            entered_by: None,
        };
        let before = encode(&EntryCore {
            ply: 4,
            actor: e.actor,
            notation: "bid 3".into(),
            recorded_at: at,
            key: None,
        });
        assert_eq!(encode(&e), before, "without it, the old layout");
        assert_eq!(decode_entry(&before, GameId(1), Some(4)).unwrap(), e);
        for by in [EnteredBy::Recorder, EnteredBy::Seat(rules_core::Seat(1))] {
            e.entered_by = Some(by);
            assert_eq!(decode_entry(&encode(&e), GameId(1), Some(4)).unwrap(), e);
            let json = serde_json::to_string(&e).unwrap();
            assert_eq!(serde_json::from_str::<Entry>(&json).unwrap(), e);
        }
        assert!(decode_entry(&frame(&[4, 0]), GameId(1), Some(4)).is_err());
    }
}
