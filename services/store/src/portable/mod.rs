//! Portable game records: one game per NDJSON line (`schema/game-record.schema.json`).
//!
//! Import validates every entry with the game's reducer — and, for games the store dealt (a
//! `seed` is present), that every dealer entry is exactly what the seed deals — and writes a
//! game whole or not at all. Export writes the same shape back; for records it wrote, import
//! then export is byte-identical (field order is fixed, options are canonical JSON with sorted
//! keys, timestamps keep their precision). A record carries the game's annotations (with
//! their authors and times), which an import writes into the game's journal. Export and the
//! record of one game are
//! [`crate::GameLog::export`] and [`crate::GameLog::record`], the same for every backend.

use crate::error::StoreError;
use crate::id::GameId;
use crate::record::{Entry, Header, Status};
use crate::store::{check_name, new_game_writes, Config, Store};
use chrono::{DateTime, Utc};
use rules_core::Registry;
use rules_core::{Actor, GameKind, Ply, ToAct};
use serde::{Deserialize, Serialize};

pub mod check;
pub mod fast;
pub mod text;
pub mod time;

/// Largest record (one line) accepted.
pub const MAX_RECORD_BYTES: usize = 8 << 20;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    pub id: GameId,
    pub kind: String,
    pub players: Vec<String>,
    pub options: serde_json::Value,
    /// Present in every record (null for a table game): a record without it is refused.
    #[serde(deserialize_with = "present")]
    pub seed: Option<u64>,
    pub rules_version: String,
    pub data_hash: String,
    #[serde(deserialize_with = "time::deserialize")]
    pub created_at: DateTime<Utc>,
    #[serde(deserialize_with = "time::deserialize")]
    pub updated_at: DateTime<Utc>,
    pub status: Status,
    pub entries: Vec<RecordEntry>,
    /// Comments and glyphs on its positions, in the order written; absent when none, so a
    /// record without them reads and writes as records always did.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<RecordAnnotation>,
}

/// An annotation in a record: what the journal keeps of it (`crate::journal`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordAnnotation {
    pub ply: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub glyph: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comment: String,
    /// `crate::journal::Author` in text.
    pub by: String,
    #[serde(deserialize_with = "time::deserialize")]
    pub at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordEntry {
    pub ply: u32,
    /// A seat number or `dealer`.
    pub actor: String,
    pub notation: String,
    #[serde(deserialize_with = "time::deserialize")]
    pub at: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Who typed it in: a seat number or `recorder` (absent when not said).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entered_by: Option<String>,
}

/// Reads an optional value whose field must be there (`deserialize_with` turns off serde's
/// missing-means-`None`).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Option::<u64>::deserialize(d)
}

/// Why a record was refused: where, and the first failing ply if it got that far (as README
/// numbers plies: the entry at index `i` of a record is ply `i + 1`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}{}: {reason}", .ply.map(|p| format!(", ply {p}")).unwrap_or_default())]
pub struct RecordError {
    pub line: u64,
    pub game: Option<String>,
    pub ply: Option<u32>,
    pub reason: String,
}

/// A record checked whole and ready to write ([`Store::prepare_import`]): its header, its
/// entries in canonical text, the snapshots due and the final state.
pub struct PreparedImport {
    line: u64,
    header: Header,
    entries: Vec<Entry>,
    snaps: Vec<(u32, Vec<u8>)>,
    state: Box<dyn rules_core::GameState>,
    annotations: Vec<crate::journal::NewNote>,
}

impl PreparedImport {
    /// Why writing this record failed, as a record error.
    fn refused(&self, e: StoreError) -> RecordError {
        RecordError {
            line: self.line,
            game: Some(self.header.id.to_string()),
            ply: None,
            reason: match e {
                StoreError::Exists(id) => format!("game {id} already exists"),
                other => other.to_string(),
            },
        }
    }
    /// The game's header, as it will be written.
    pub fn header(&self) -> &Header {
        &self.header
    }
    /// Its entries, in canonical text.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }
    /// Its state after the last entry.
    pub fn state(&self) -> &dyn rules_core::GameState {
        self.state.as_ref()
    }
    /// The line it came from.
    pub fn line(&self) -> u64 {
        self.line
    }
    /// Its annotations, checked, as journal notes to write once the game is.
    pub fn annotations(&self) -> &[crate::journal::NewNote] {
        &self.annotations
    }
}

impl Store {
    /// Writes a record [`Store::prepare_import`] accepted, and runs the finish hooks for a
    /// finished game. Refused, with nothing written, when the game exists by now.
    pub fn commit_import(&self, p: PreparedImport) -> Result<Header, RecordError> {
        // Not logged: an import is made durable as a whole by `Store::flush` at its end.
        self.write_new_game(&p.header, &p.entries, &p.snaps)
            .map_err(|e| p.refused(e))?;
        self.after_written(p)
    }

    /// Writes the records [`Store::prepare_import`] accepted, in order: the answer for each,
    /// as [`Store::commit_import`] one by one would give it, or, with `stop_at_refusal`, the
    /// answers up to the first refusal and nothing after it written. Their games are written in one
    /// sled transaction, not one each: a transaction writes out and syncs sled's I/O buffer
    /// (see `Store::commit_writes`), which cost an import of Five Tribes games a fifth of its
    /// time. When the transaction is refused (a game exists by now, two records name one
    /// game, the disk is full), nothing of it is written and the records are committed one
    /// by one, so each gets its own answer.
    pub fn commit_imports(
        &self,
        batch: Vec<PreparedImport>,
        stop_at_refusal: bool,
    ) -> Vec<Result<Header, RecordError>> {
        let ids: Vec<GameId> = batch.iter().map(|p| p.header.id).collect();
        let distinct = ids.iter().collect::<std::collections::HashSet<_>>().len() == ids.len();
        if batch.len() > 1 && distinct {
            let writes: Vec<_> = batch
                .iter()
                .flat_map(|p| new_game_writes(&p.header, &p.entries, &p.snaps))
                .collect();
            if self.commit_writes_as(&writes, &ids, false).is_ok() {
                return batch.into_iter().map(|p| self.after_written(p)).collect();
            }
        }
        one_by_one(batch, stop_at_refusal, |p| self.commit_import(p))
    }

    /// What follows the writing of an imported game: its annotations, and the finish hooks.
    fn after_written(&self, p: PreparedImport) -> Result<Header, RecordError> {
        for n in &p.annotations {
            self.write_note(n.clone()).map_err(|e| p.refused(e))?;
        }
        if p.header.status == Status::Finished {
            self.finished(&p.header, p.state.as_ref(), Some(&p.entries));
        }
        Ok(p.header)
    }

    /// Checks one NDJSON line whole — its JSON, its schema, every entry replayed by the rules
    /// and every dealt entry against the seed — without writing anything. It reads only the
    /// rules and the configuration, so an import can check the next record on another thread
    /// while this one is written.
    pub fn prepare_import(&self, line_no: u64, line: &str) -> Result<PreparedImport, RecordError> {
        prepare_import(self.registry(), self.config(), line_no, line)
    }
}

/// `commit` of each record of `batch` in order, stopping after the first refused when asked.
pub(crate) fn one_by_one(
    batch: Vec<PreparedImport>,
    stop_at_refusal: bool,
    mut commit: impl FnMut(PreparedImport) -> Result<Header, RecordError>,
) -> Vec<Result<Header, RecordError>> {
    let mut answers = Vec::with_capacity(batch.len());
    for p in batch {
        let answer = commit(p);
        let refused = answer.is_err();
        answers.push(answer);
        if refused && stop_at_refusal {
            break;
        }
    }
    answers
}

/// A record line read and held to the record schema: the record, or the game it names (when
/// it names one) and why it is refused. Records in the usual shapes are read by
/// [`fast::read`]; the others by [`read_by_schema`], which gives the same record or says what
/// is wrong.
pub fn read_record(line: &str) -> Result<GameRecord, (Option<String>, String)> {
    match fast::read(line) {
        Some(r) => Ok(r),
        None => read_by_schema(line),
    }
}

/// [`read_record`]'s full path: the text read into a JSON tree (no key twice in an object),
/// the tree checked against the schema file, then read into the record.
pub fn read_by_schema(line: &str) -> Result<GameRecord, (Option<String>, String)> {
    let value = check::parse_without_duplicates(line).map_err(|e| {
        // A repeated key is refused in the same pass that reads the text; the game it names
        // (for the message) is read again from the text only on that way out.
        let gid = e.is_data().then(|| game_id_of(line)).flatten();
        (gid, format!("bad JSON: {e}"))
    })?;
    let gid = game_id_of_value(&value);
    check::against_schema(&value).map_err(|e| (gid.clone(), e))?;
    serde_json::from_value(value).map_err(|e| (gid, format!("bad record: {e}")))
}

/// The first 20 characters of a record's `id`, when it has one (for messages).
fn game_id_of_value(value: &serde_json::Value) -> Option<String> {
    value
        .get("id")
        .and_then(|v| v.as_str())
        .map(|s| s.chars().take(20).collect())
}

/// [`game_id_of_value`] of a text that is JSON apart from a repeated key.
fn game_id_of(line: &str) -> Option<String> {
    game_id_of_value(&serde_json::from_str(line).ok()?)
}

/// [`Store::prepare_import`] for any backend: it reads only the rules and the configuration.
pub fn prepare_import(
    registry: &Registry,
    config: &Config,
    line_no: u64,
    line: &str,
) -> Result<PreparedImport, RecordError> {
    let err = |game: Option<String>, ply: Option<u32>, reason: String| RecordError {
        line: line_no,
        game,
        ply,
        reason,
    };
    if line.len() > MAX_RECORD_BYTES {
        return Err(err(
            None,
            None,
            format!(
                "record of {} bytes is over the {MAX_RECORD_BYTES}-byte limit",
                line.len()
            ),
        ));
    }
    let rec = read_record(line).map_err(|(game, reason)| err(game, None, reason))?;
    let gid = Some(rec.id.to_string());
    check::times_in_order(
        rec.created_at,
        rec.updated_at,
        rec.entries.iter().map(|e| (e.ply, e.at)),
    )
    .map_err(|(index, m)| err(gid.clone(), index.map(|i| i + 1), m))?;
    let kind: GameKind = rec.kind.parse().map_err(|_| {
        err(
            gid.clone(),
            None,
            format!("unknown game kind `{}`", rec.kind),
        )
    })?;
    let rules =
        crate::plan::rules(registry, kind).map_err(|e| err(gid.clone(), None, e.to_string()))?;
    if !rules.rules_versions().contains(&rec.rules_version.as_str()) {
        return Err(err(
            gid,
            None,
            format!(
                "rules version `{}` is not served (this store plays `{}`)",
                rec.rules_version,
                rules.rules_versions().join("`, `")
            ),
        ));
    }
    let options = rules
        .normalize_options(&rec.options)
        .map_err(|e| err(gid.clone(), None, e.to_string()))?;
    // A record replays under the rules version and the component data it was played with
    // (its `rules_version` and `data_hash`), which this build must still have.
    let mut state = rules
        .new_game_recorded(&options, &rec.rules_version, &rec.data_hash)
        .map_err(|e| err(gid.clone(), None, e.to_string()))?;
    if rec.players.len() != usize::from(state.player_count()) {
        return Err(err(
            gid,
            None,
            format!(
                "{} players named for a {}-player game",
                rec.players.len(),
                state.player_count()
            ),
        ));
    }
    for p in &rec.players {
        check_name(p).map_err(|e| err(gid.clone(), None, e.to_string()))?;
    }
    let every = config.snapshot_every;
    let mut entries = Vec::with_capacity(rec.entries.len());
    let mut snaps = Vec::new();
    for (i, e) in rec.entries.iter().enumerate() {
        let ply = i as u32;
        // Errors name the entry's ply as README numbers them; the record counts from 0.
        let refuse = |game: Option<String>, reason: String| err(game, Some(ply + 1), reason);
        if e.ply != ply {
            return Err(refuse(
                gid,
                format!(
                    "entries[{i}] has \"ply\": {}; a record's entries count 0, 1, 2, ... \
                     without gap or repeat",
                    e.ply
                ),
            ));
        }
        let actor: Actor = e
            .actor
            .parse()
            .map_err(|_| refuse(gid.clone(), format!("bad actor `{}`", e.actor)))?;
        // Stored as its canonical text, like every append.
        let notation = state
            .canonical(actor, &e.notation)
            .map_err(|x| refuse(gid.clone(), x.to_string()))?;
        if let (Some(seed), Actor::Dealer) = (rec.seed, actor) {
            let dealt = state.deal(seed, Ply(ply));
            if dealt.as_deref() != Some(notation.as_str()) {
                return Err(refuse(
                    gid,
                    "dealer entry disagrees with what the seed deals".into(),
                ));
            }
        }
        state
            .apply(actor, &notation)
            .map_err(|x| refuse(gid.clone(), x.to_string()))?;
        if (ply + 1).is_multiple_of(every) {
            snaps.push((ply + 1, state.encode()));
        }
        entries.push(Entry {
            ply,
            actor,
            notation,
            recorded_at: e.at,
            key: e.key.clone(),
            entered_by: match &e.entered_by {
                None => None,
                Some(by) => Some(by.parse().map_err(|x| refuse(gid.clone(), x))?),
            },
        });
    }
    let status = if state.to_act() == ToAct::Over {
        Status::Finished
    } else {
        Status::Active
    };
    if status != rec.status {
        return Err(err(
            gid,
            None,
            format!(
                "status says {} but the log leaves the game {}",
                rec.status.as_str(),
                status.as_str()
            ),
        ));
    }
    let annotations = rec
        .annotations
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let bad = |why: String| err(gid.clone(), None, format!("annotation {i}: {why}"));
            if a.ply as usize > entries.len() {
                return Err(bad(format!(
                    "ply {} is past the end ({} entries)",
                    a.ply,
                    entries.len()
                )));
            }
            let glyph = match &a.glyph {
                None => None,
                Some(g) => Some(
                    crate::journal::Glyph::parse(g).ok_or_else(|| bad(format!("glyph `{g}`")))?,
                ),
            };
            crate::journal::check_comment(&a.comment).map_err(|e| bad(e.to_string()))?;
            if glyph.is_none() && a.comment.trim().is_empty() {
                return Err(bad("an annotation needs a comment or a glyph".into()));
            }
            Ok(crate::journal::NewNote {
                game: rec.id,
                by: a.by.parse().map_err(bad)?,
                at: a.at,
                request: crate::journal::NoteRequest::Annotate {
                    ply: a.ply,
                    glyph,
                    comment: a.comment.clone(),
                },
            })
        })
        .collect::<Result<Vec<_>, RecordError>>()?;
    // The notes they become must fit a journal (refused here, before the game is written).
    let notes: Vec<crate::journal::Note> = annotations
        .iter()
        .enumerate()
        .filter_map(|(i, n)| match &n.request {
            crate::journal::NoteRequest::Annotate {
                ply,
                glyph,
                comment,
            } => Some(crate::journal::Note {
                seq: i as u32,
                plies: entries.len() as u32,
                at: n.at,
                by: n.by.clone(),
                body: crate::journal::NoteBody::Annotation {
                    ply: *ply,
                    glyph: *glyph,
                    comment: comment.clone(),
                },
            }),
            _ => None,
        })
        .collect();
    crate::journal::check_room(rec.id, Default::default(), config.max_journal_bytes, &notes)
        .map_err(|e| err(gid.clone(), None, format!("annotations: {e}")))?;
    let header = Header {
        id: rec.id,
        kind,
        players: rec.players,
        options: options.to_string(),
        seed: rec.seed,
        rules_version: rec.rules_version,
        data_hash: rec.data_hash,
        created_at: rec.created_at,
        updated_at: rec.updated_at,
        status,
        plies: entries.len() as u32,
        seat_token_hashes: Vec::new(),
        recorder_token_hash: None,
        revision: 0,
    };
    Ok(PreparedImport {
        line: line_no,
        header,
        entries,
        snaps,
        state,
        annotations,
    })
}
