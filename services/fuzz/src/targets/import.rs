//! `import`: mutated game records through `Store::import_line`, the NDJSON importer.
//!
//! One store (in a temporary folder, on /dev/shm when there is one) per process, with the
//! analysis attached as `ludolog import` attaches it, so an accepted finished game also runs
//! the finish hooks (summary, position index). The store is replaced by a fresh one after a
//! few thousand accepted records, to bound its size. Seeds are sample records
//! (`data/samples/*.ndjson`); besides the driver's text mutations, a JSON-aware mutation edits
//! one field or entry (notation, actor, ply, times, keys, players, options, seed, status, a
//! fresh id so the record is new, a cut log left active).
//!
//! Invariants: no panic; an accepted record reads back (`Store::record`) as it was given
//! (options canonical), its final state is readable, and the store's own export of it passes
//! the importer's validation (it is refused only because the game exists).

use crate::mutate::{mutate, Sources};
use crate::rng::Rng;
use crate::target::{Feedback, Target, Violation};
use rules_core::{Actor, GameKind, ToAct};
use serde_json::{json, Value};
use std::sync::Arc;
use store::portable::GameRecord;
use store::{Config, GameId, GameLog, Status, Store};

/// Accepted records before the store is replaced.
const RECYCLE_AFTER: u64 = 3_000;

struct Open {
    store: Store,
    _analysis: Arc<analysis::Analysis>,
    _dir: tempfile::TempDir,
}

/// Why the import target could not start.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("temporary folder: {0}")]
    Io(#[from] std::io::Error),
    #[error("store: {0}")]
    Store(#[from] store::StoreError),
    #[error("analysis: {0}")]
    Analysis(#[from] analysis::index::AnalysisError),
}

/// A temporary folder for a store, in memory where possible.
pub fn temp_dir(prefix: &str) -> std::io::Result<tempfile::TempDir> {
    let shm = std::path::Path::new("/dev/shm");
    let mut b = tempfile::Builder::new();
    b.prefix(prefix);
    if shm.is_dir() {
        b.tempdir_in(shm)
    } else {
        b.tempdir()
    }
}

fn open_store() -> Result<Open, SetupError> {
    let dir = temp_dir("ludolog-fuzz-import-")?;
    let store = Store::open(dir.path(), crate::games::registry(), Config::default())?;
    let analysis = analysis::Analysis::attach(&store, [3; 16])?;
    Ok(Open {
        store,
        _analysis: analysis,
        _dir: dir,
    })
}

pub struct Import {
    open: Open,
    accepted: u64,
    samples: Vec<String>,
}

impl Import {
    pub fn new() -> Result<Import, SetupError> {
        let mut samples = Vec::new();
        for kind in GameKind::ALL {
            // Every tenth sample: all player counts, a range of lengths.
            samples.extend(crate::games::sample_lines(kind).into_iter().step_by(10));
        }
        Ok(Import {
            open: open_store()?,
            accepted: 0,
            samples,
        })
    }
}

/// The stable part of a refusal's reason (no numbers or quoted text), for features.
fn reason_class(reason: &str) -> String {
    reason
        .chars()
        .take_while(|c| !matches!(c, ':' | '`' | '"' | '(' | '\''))
        .filter(|c| !c.is_ascii_digit())
        .take(48)
        .collect()
}

fn same_actor(a: &str, b: &str) -> bool {
    a.parse::<Actor>().ok() == b.parse::<Actor>().ok()
}

impl Import {
    fn check_accepted(&self, text: &str, id: GameId) -> Result<(), Violation> {
        let store = &self.open.store;
        let given: GameRecord = serde_json::from_str(text).map_err(|e| {
            Violation::new(
                "accepted-unparsable",
                format!("accepted, yet not a record: {e}"),
            )
        })?;
        let back = store.record(id).map_err(|e| {
            Violation::new(
                "import-unreadable",
                format!("game {id} imported but unreadable: {e}"),
            )
        })?;
        let mut differ: Vec<String> = Vec::new();
        let mut same = |what: &str, eq: bool| {
            if !eq {
                differ.push(what.to_string());
            }
        };
        same("id", given.id == back.id);
        same("kind", given.kind == back.kind);
        same("players", given.players == back.players);
        same("seed", given.seed == back.seed);
        same("rules_version", given.rules_version == back.rules_version);
        same("data_hash", given.data_hash == back.data_hash);
        same("created_at", given.created_at == back.created_at);
        // Known, reported with the fuzzing results: an active game reads back with its last
        // entry's time as `updated_at`, whatever the record said. Compared for finished games
        // only until that is decided.
        same(
            "updated_at",
            given.updated_at == back.updated_at || back.status == Status::Active,
        );
        same("status", given.status == back.status);
        same("entries", given.entries.len() == back.entries.len());
        for (a, b) in given.entries.iter().zip(&back.entries) {
            let ply = a.ply;
            same(&format!("entries[{ply}].ply"), a.ply == b.ply);
            same(
                &format!("entries[{ply}].actor ({:?} → {:?})", a.actor, b.actor),
                same_actor(&a.actor, &b.actor),
            );
            same(
                &format!("entries[{ply}].at ({} → {})", a.at, b.at),
                a.at == b.at,
            );
            same(&format!("entries[{ply}].key"), a.key == b.key);
        }
        if !differ.is_empty() {
            differ.truncate(6);
            return Err(Violation::new(
                "import-export-round-trip",
                format!(
                    "game {id} reads back differently from the record imported: {}",
                    differ.join(", ")
                ),
            ));
        }
        let plies = back.entries.len() as u32;
        let state = store.state_at(id, plies).map_err(|e| {
            Violation::new(
                "import-unreplayable",
                format!("game {id} at ply {plies}: {e}"),
            )
        })?;
        if (state.to_act() == ToAct::Over) != (back.status == Status::Finished) {
            return Err(Violation::new(
                "import-status",
                format!(
                    "game {id}: status {:?} but to act {:?}",
                    back.status,
                    state.to_act()
                ),
            ));
        }
        let line = serde_json::to_string(&back)
            .map_err(|e| Violation::new("export-unserializable", e.to_string()))?;
        match store.import_line(2, &line) {
            Err(e) if e.reason.contains("already exists") => Ok(()),
            Err(e) => Err(Violation::new(
                "export-not-reimportable",
                format!("the store's own export of game {id} is refused: {e}"),
            )),
            Ok(_) => Err(Violation::new(
                "duplicate-import",
                format!("game {id} was imported twice"),
            )),
        }
    }
}

impl Target for Import {
    fn name(&self) -> &str {
        "import"
    }

    fn seeds(&self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for s in &self.samples {
            out.push(s.as_bytes().to_vec());
            // The same game cut short (active, under a new id): smaller, so cheaper to mutate
            // and to run, while the whole records reach the endings.
            if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(s) {
                for (i, keep) in [12usize, 40].into_iter().enumerate() {
                    let mut cut = o.clone();
                    if let Some(Value::Array(e)) = cut.get_mut("entries") {
                        e.truncate(keep);
                    }
                    cut.insert("status".into(), json!("active"));
                    if let Some(Value::String(id)) = o.get("id") {
                        // A sibling id: the last character changed.
                        let mut id = id.clone();
                        id.pop();
                        id.push(['x', 'y'][i]);
                        cut.insert("id".into(), json!(id));
                    }
                    if let Ok(t) = serde_json::to_vec(&cut) {
                        out.push(t);
                    }
                }
            }
        }
        out
    }

    fn dictionary(&self) -> Vec<Vec<u8>> {
        [
            "\"dealer\"",
            "\"active\"",
            "\"finished\"",
            "null",
            "\"key\":\"k\",",
            "\"seed\":",
            "\"players\":",
            "\"entries\":[]",
            "T00:00:00Z",
            "T00:00:00.123456789+02:00",
            "\"five-tribes\"",
            "\"clans-of-caledonia\"",
            "\"mombasa\"",
            "\"five-tribes/1\"",
            "\"mombasa/1\"",
            "true",
            "false",
            "{}",
            "[]",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect()
    }

    fn max_len(&self) -> usize {
        64 * 1024
    }

    fn run(&mut self, input: &[u8], fb: &mut Feedback) -> Result<(), Violation> {
        let text = String::from_utf8_lossy(input);
        match self.open.store.import_line(1, &text) {
            Err(e) => {
                let bucket = e.ply.map_or(0, |p| 1 + p / 64).to_le_bytes();
                fb.note(&[b"refused", reason_class(&e.reason).as_bytes(), &bucket]);
                Ok(())
            }
            Ok(h) => {
                fb.note(&[
                    b"accepted",
                    h.kind.as_str().as_bytes(),
                    h.status.as_str().as_bytes(),
                ]);
                self.accepted += 1;
                let r = self.check_accepted(&text, h.id);
                if self.accepted.is_multiple_of(RECYCLE_AFTER) {
                    if let Ok(fresh) = open_store() {
                        self.open = fresh;
                    }
                }
                r
            }
        }
    }

    fn mutate(&self, input: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
        let mut v: Value = serde_json::from_slice(input).ok()?;
        mutate_record(&mut v, rng);
        serde_json::to_vec(&v).ok()
    }
}

fn weird_string(rng: &mut Rng) -> Value {
    let options = [
        "",
        " ",
        "ann",
        "=cmd",
        "\u{202e}evil",
        "a\u{0}b",
        "tab\there",
        "😀",
        "dealer",
        "-1",
        "0",
        "99",
        "2026-01-01 00:00:00Z",
        "-0001-01-01T00:00:00Z",
        "2026-02-30T00:00:00Z",
        "9999-12-31T23:59:59.999999999Z",
        "1970-01-01T00:00:00Z",
    ];
    json!(options[rng.below(options.len())])
}

fn weird_number(rng: &mut Rng) -> Value {
    match rng.below(6) {
        0 => json!(0),
        1 => json!(-1),
        2 => json!(u64::MAX),
        3 => json!(i64::MIN),
        4 => json!(1.5),
        _ => json!(rng.below(1000)),
    }
}

/// One structure-aware edit of a game record.
fn mutate_record(v: &mut Value, rng: &mut Rng) {
    let Some(obj) = v.as_object_mut() else {
        return;
    };
    let entries_len = obj
        .get("entries")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    match rng.below(12) {
        0 if entries_len > 0 => {
            // A cut log: an active game (or a lie about its status).
            let keep = rng.below(entries_len);
            if let Some(Value::Array(e)) = obj.get_mut("entries") {
                e.truncate(keep);
            }
            if !rng.one_in(8) {
                obj.insert("status".into(), json!("active"));
            }
        }
        1 => {
            obj.insert("id".into(), json!(GameId(rng.next_u64() >> 1).to_string()));
        }
        2..=5 if entries_len > 0 => {
            let i = rng.below(entries_len);
            let other = rng.below(entries_len);
            let Some(Value::Array(e)) = obj.get_mut("entries") else {
                return;
            };
            let other_text = e[other]
                .get("notation")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let Some(entry) = e[i].as_object_mut() else {
                return;
            };
            match rng.below(8) {
                0..=3 => {
                    let old = entry
                        .get("notation")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .as_bytes()
                        .to_vec();
                    let corpus = [other_text.into_bytes()];
                    let m = mutate(
                        &old,
                        &Sources {
                            dictionary: &[],
                            corpus: &corpus,
                            max_len: 512,
                        },
                        rng,
                    );
                    entry.insert("notation".into(), json!(String::from_utf8_lossy(&m)));
                }
                4 => {
                    entry.insert("actor".into(), weird_string(rng));
                }
                5 => {
                    entry.insert("ply".into(), weird_number(rng));
                }
                6 => {
                    let key = "k".repeat(1 + rng.small(300));
                    entry.insert("key".into(), json!(key));
                }
                _ => {
                    entry.insert("at".into(), weird_string(rng));
                }
            }
        }
        6 if entries_len > 1 => {
            let Some(Value::Array(e)) = obj.get_mut("entries") else {
                return;
            };
            let i = rng.below(entries_len);
            let j = rng.below(entries_len);
            match rng.below(3) {
                0 => e.swap(i, j),
                1 => {
                    e.remove(i);
                }
                _ => {
                    let x = e[i].clone();
                    e.insert(j, x);
                }
            }
        }
        7 => {
            let field = [
                "seed",
                "created_at",
                "updated_at",
                "rules_version",
                "data_hash",
                "kind",
                "status",
            ][rng.below(7)];
            let val = match rng.below(3) {
                0 => Value::Null,
                1 => weird_number(rng),
                _ => weird_string(rng),
            };
            obj.insert(field.into(), val);
        }
        8 => {
            if let Some(Value::Array(p)) = obj.get_mut("players") {
                match rng.below(3) {
                    0 if !p.is_empty() => {
                        let i = rng.below(p.len());
                        p[i] = weird_string(rng);
                    }
                    1 => p.push(weird_string(rng)),
                    _ => {
                        p.pop();
                    }
                }
            }
        }
        9 => {
            if let Some(Value::Object(o)) = obj.get_mut("options") {
                let keys: Vec<String> = o.keys().cloned().collect();
                if let Some(k) = rng.pick(&keys) {
                    let val = match o.get(k) {
                        Some(Value::Bool(b)) => json!(!b),
                        _ => weird_number(rng),
                    };
                    o.insert(k.clone(), val);
                } else {
                    o.insert("players".into(), weird_number(rng));
                }
            }
        }
        10 => {
            let keys: Vec<String> = obj.keys().cloned().collect();
            if let Some(k) = rng.pick(&keys) {
                obj.remove(k);
            }
        }
        _ => {
            if let Some(Value::Number(n)) = obj.get("seed") {
                let s = n.as_u64().unwrap_or(0).wrapping_add(1);
                obj.insert("seed".into(), json!(s));
            }
        }
    }
}
