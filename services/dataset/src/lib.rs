//! Open datasets: every finished game of a store as Parquet files that DuckDB, polars and
//! pyarrow read in place, over HTTP included. One folder per game kind and month of the game's
//! end, Hive-style, five tables in each:
//!
//! ```text
//! <dir>/manifest.json
//! <dir>/kind=five-tribes/month=2026-11/games.parquet
//!                                      seats.parquet
//!                                      moves.parquet
//!                                      positions.parquet
//!                                      evaluations.parquet
//! ```
//!
//! The columns are stated in `schema/datasets.md`; the manifest names every file with its
//! rows, bytes and SHA-256, each month's fingerprint and the data versions behind them.
//!
//! Only finished games, and of them only what a finished game shows anyone: no seed, no
//! options, no token hashes, no idempotency keys.
//!
//! Kept current by [`Dataset::refresh`]: each month's two fingerprints — its games with their
//! revisions, and which of them have a current review — are compared with the manifest's; a
//! month whose games moved is written again whole, one whose reviews alone moved gets a new
//! `evaluations` file only — each file under a temporary name, synced, renamed over the old
//! one, then the manifest. Other months keep their bytes, so
//! their checksums (the server's ETags) never change.
//!
//! # Layout
//! - [`tables`]: the five tables' schemas and the writing of one month (one pass over its
//!   games, each read once).
//! - [`manifest`]: the manifest: reading, writing, checking files against it.
//! - this file: [`Dataset`] — planning months, writing those that changed.

pub mod manifest;
pub mod tables;

pub use manifest::{FileEntry, Manifest, MonthEntry};
pub use tables::{write_month, Month as MonthFiles, Table};

use chrono::{DateTime, Datelike, Utc};
use rules_core::GameKind;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use store::{GameId, GameLog, Header};

/// The layout's version: bumped when a column is added, removed or retyped.
pub const FORMAT: u32 = 1;

#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error(transparent)]
    Review(#[from] review::ReviewError),
    #[error(transparent)]
    Positions(#[from] analysis::positions::PositionsError),
    #[error("writing Parquet: {0}")]
    Parquet(#[from] parquet::errors::ParquetError),
    #[error("building a column: {0}")]
    Arrow(#[from] arrow_schema::ArrowError),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the manifest {path} does not read: {reason}")]
    BadManifest { path: PathBuf, reason: String },
    #[error("game {0}: {1}")]
    BadGame(GameId, String),
}

pub type Result<T, E = DatasetError> = std::result::Result<T, E>;

/// `YYYY-MM` of a time, in UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Month {
    pub year: i32,
    pub month: u32,
}

impl Month {
    pub fn of(t: DateTime<Utc>) -> Month {
        Month {
            year: t.year(),
            month: t.month(),
        }
    }
}

impl std::fmt::Display for Month {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

/// The folder of a kind's month, relative to the dataset's root.
pub fn month_dir(kind: GameKind, month: &str) -> String {
    month_dir_str(&kind.to_string(), month)
}

/// [`month_dir`] of a kind's name.
pub fn month_dir_str(kind: &str, month: &str) -> String {
    format!("kind={kind}/month={month}")
}

/// What a refresh did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Refreshed {
    /// Months written again (kind, month).
    pub written: Vec<(GameKind, String)>,
    /// Months removed (no finished game ends in them any more).
    pub removed: Vec<(GameKind, String)>,
    /// Months kept as they were.
    pub kept: usize,
}

/// A dataset folder and its manifest.
pub struct Dataset {
    dir: PathBuf,
    manifest: Manifest,
}

impl Dataset {
    /// Opens the dataset in `dir` (made if missing). A manifest that does not read is set
    /// aside (every month is then written again), never trusted.
    pub fn open(dir: &Path) -> Result<Dataset> {
        std::fs::create_dir_all(dir).map_err(|source| DatasetError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let manifest = match Manifest::read(dir) {
            Ok(m) => m.unwrap_or_default(),
            Err(e) => {
                tracing::warn!("{e}; every month is written again");
                Manifest::default()
            }
        };
        Ok(Dataset {
            dir: dir.to_path_buf(),
            manifest,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// Checks every file the manifest names against its size and SHA-256; the months whose
    /// files are missing or differ are forgotten, so the next refresh writes them again.
    /// Returns the files that failed, relative to the root.
    pub fn verify(&mut self) -> Vec<String> {
        let bad = self.manifest.verify(&self.dir);
        if !bad.is_empty() {
            self.manifest
                .months
                .retain(|m| !m.files.iter().any(|f| bad.contains(&f.path)));
        }
        bad
    }

    /// Brings the dataset up to date with the store's finished games of `kinds`: writes the
    /// months whose fingerprint moved (or whose files are missing), removes months no game
    /// ends in any more, then writes the manifest.
    pub fn refresh(
        &mut self,
        store: &dyn GameLog,
        analysis: &analysis::Analysis,
        kinds: &[GameKind],
    ) -> Result<Refreshed> {
        let reviewed: HashMap<GameId, review::record::Head> =
            review::record::heads(store)?.into_iter().collect();
        let mut plan: BTreeMap<(GameKind, String), Vec<Header>> = BTreeMap::new();
        for &kind in kinds {
            for h in store::finished_games(store, Some(kind))? {
                plan.entry((kind, Month::of(h.updated_at).to_string()))
                    .or_default()
                    .push(h);
            }
        }
        let mut done = Refreshed::default();
        let versions = versions(store);
        let mut summaries: Option<HashMap<GameId, analysis::GameSummary>> = None;
        for ((kind, month), games) in &plan {
            let (print, reviews) = fingerprints(games, &reviewed);
            let dir = month_dir(*kind, month);
            let on_disk = |f: &FileEntry| {
                std::fs::metadata(self.dir.join(&f.path)).is_ok_and(|md| md.len() == f.bytes)
            };
            let old = self.manifest.month(*kind, month);
            // Its games as they were, and their files whole: at most the reviews moved.
            let games_same = old.is_some_and(|m| {
                m.fingerprint == print
                    && m.files
                        .iter()
                        .all(|f| f.table == Table::Evaluations.name() || on_disk(f))
            });
            let reviews_same = old.is_some_and(|m| {
                m.reviews == reviews
                    && m.files
                        .iter()
                        .all(|f| f.table != Table::Evaluations.name() || on_disk(f))
            });
            if games_same && reviews_same {
                done.kept += 1;
                continue;
            }
            let summaries = summaries.get_or_insert_with(|| {
                analysis
                    .summaries()
                    .into_iter()
                    .map(|s| (s.id, s))
                    .collect()
            });
            // Only reviews made since: the evaluations alone are written again.
            let tables: &[Table] = if games_same {
                &[Table::Evaluations]
            } else {
                &Table::ALL
            };
            let written = tables::write_month(
                store,
                analysis,
                summaries,
                &tables::Month {
                    kind: *kind,
                    games,
                    root: &self.dir,
                    rel_dir: &dir,
                    tables,
                },
            )?;
            let files = match old {
                Some(m) if games_same => m
                    .files
                    .iter()
                    .map(|f| {
                        written
                            .iter()
                            .find(|w| w.table == f.table)
                            .unwrap_or(f)
                            .clone()
                    })
                    .collect(),
                _ => written,
            };
            self.manifest.put(MonthEntry {
                kind: kind.to_string(),
                month: month.clone(),
                games: games.len() as u64,
                fingerprint: print,
                reviews,
                files,
            });
            done.written.push((*kind, month.clone()));
        }
        // Months of these kinds that no finished game ends in any more.
        let gone: Vec<(String, String)> = self
            .manifest
            .months
            .iter()
            .filter(|m| {
                kinds.iter().any(|k| k.to_string() == m.kind)
                    && !plan
                        .keys()
                        .any(|(k, month)| k.to_string() == m.kind && *month == m.month)
            })
            .map(|m| (m.kind.clone(), m.month.clone()))
            .collect();
        for (kind, month) in gone {
            if let Some(m) = self.manifest.remove(&kind, &month) {
                for f in &m.files {
                    let _ = std::fs::remove_file(self.dir.join(&f.path));
                }
                let _ = std::fs::remove_dir(self.dir.join(month_dir_str(&kind, &month)));
            }
            if let Ok(k) = kind.parse::<GameKind>() {
                done.removed.push((k, month));
            }
        }
        if !done.written.is_empty()
            || !done.removed.is_empty()
            || self.manifest.versions != versions
        {
            self.manifest.versions = versions;
            self.manifest.format = FORMAT;
            self.manifest.generated_at = Utc::now();
            self.manifest.write(&self.dir)?;
        }
        Ok(done)
    }
}

/// A month's two fingerprints: of its games (in id order, each with its revision, entries,
/// end and rules) — what every table but `evaluations` is made of — and of which of them have
/// a current review (what `evaluations` adds).
fn fingerprints(
    games: &[Header],
    reviewed: &HashMap<GameId, review::record::Head>,
) -> (String, String) {
    let (mut g, mut r) = (Sha256::new(), Sha256::new());
    g.update(FORMAT.to_le_bytes());
    r.update(FORMAT.to_le_bytes());
    for h in games {
        g.update(h.id.0.to_le_bytes());
        g.update(h.revision.to_le_bytes());
        g.update(h.plies.to_le_bytes());
        g.update(h.updated_at.timestamp_micros().to_le_bytes());
        g.update(h.rules_version.as_bytes());
        if let Some(head) = reviewed.get(&h.id).filter(|x| x.is_current(h)) {
            r.update(h.id.0.to_le_bytes());
            r.update(head.iterations.to_le_bytes());
        }
    }
    r.update(review::record::EVALUATOR.as_bytes());
    (hex(&g.finalize()[..16]), hex(&r.finalize()[..16]))
}

/// The versions behind the files: the layout, each kind's rules, the evaluator.
fn versions(store: &dyn GameLog) -> BTreeMap<String, String> {
    let mut v = BTreeMap::new();
    v.insert("format".to_string(), FORMAT.to_string());
    v.insert(
        "evaluator".to_string(),
        review::record::EVALUATOR.to_string(),
    );
    for k in GameKind::ALL {
        if let Some(rules) = store.registry().get(k) {
            v.insert(format!("rules.{k}"), rules.rules_version().to_string());
        }
    }
    v
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
