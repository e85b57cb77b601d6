//! `manifest.json`: every file of the dataset with its rows, bytes and SHA-256, grouped by
//! kind and month with each month's fingerprint, and the data versions behind them — so a
//! client finds every file without listing a folder, and anyone can check a file's bytes.
//!
//! Written last, under a temporary name, synced and renamed: a reader sees the old manifest
//! or the new one, and a manifest never names a file that is not whole.

use crate::{hex, DatasetError, Result};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

pub const FILE: &str = "manifest.json";

/// One Parquet file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// Relative to the dataset's root, `/`-separated.
    pub path: String,
    pub table: String,
    pub rows: u64,
    pub bytes: u64,
    pub sha256: String,
}

/// One kind's month.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonthEntry {
    pub kind: String,
    /// `YYYY-MM`, UTC, of the games' ends.
    pub month: String,
    pub games: u64,
    /// Moves when a game of the month finishes or is corrected.
    pub fingerprint: String,
    /// Moves when a game of the month gets a review (only `evaluations` is written again).
    #[serde(default)]
    pub reviews: String,
    pub files: Vec<FileEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    pub generated_at: DateTime<Utc>,
    /// `format`, `evaluator`, and `rules.<kind>` for each kind.
    pub versions: BTreeMap<String, String>,
    /// By kind, then month.
    pub months: Vec<MonthEntry>,
}

impl Default for Manifest {
    fn default() -> Self {
        Manifest {
            format: crate::FORMAT,
            generated_at: DateTime::<Utc>::UNIX_EPOCH,
            versions: BTreeMap::new(),
            months: Vec::new(),
        }
    }
}

impl Manifest {
    /// The manifest in `dir`; `Ok(None)` if there is none.
    pub fn read(dir: &Path) -> Result<Option<Manifest>> {
        let path = dir.join(FILE);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(DatasetError::Io { path, source }),
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| DatasetError::BadManifest {
                path,
                reason: e.to_string(),
            })
    }

    /// Writes the manifest into `dir`: a temporary file, synced, renamed, the folder synced.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let bytes = serde_json::to_vec_pretty(self).map_err(|e| DatasetError::BadManifest {
            path: dir.join(FILE),
            reason: e.to_string(),
        })?;
        crate::tables::write_atomically(&dir.join(FILE), &bytes)
    }

    pub fn month(&self, kind: rules_core::GameKind, month: &str) -> Option<&MonthEntry> {
        let kind = kind.to_string();
        self.months
            .iter()
            .find(|m| m.kind == kind && m.month == month)
    }

    /// Puts `m` in its place (kind, then month order), replacing the month's old entry.
    pub fn put(&mut self, m: MonthEntry) {
        match self
            .months
            .binary_search_by(|x| (&x.kind, &x.month).cmp(&(&m.kind, &m.month)))
        {
            Ok(i) => self.months[i] = m,
            Err(i) => self.months.insert(i, m),
        }
    }

    pub fn remove(&mut self, kind: &str, month: &str) -> Option<MonthEntry> {
        let i = self
            .months
            .iter()
            .position(|m| m.kind == kind && m.month == month)?;
        Some(self.months.remove(i))
    }

    /// Every file, in manifest order.
    pub fn files(&self) -> impl Iterator<Item = &FileEntry> {
        self.months.iter().flat_map(|m| m.files.iter())
    }

    /// The entry of the file at `path` (relative to the root).
    pub fn file(&self, path: &str) -> Option<&FileEntry> {
        self.files().find(|f| f.path == path)
    }

    /// The files under `dir` whose size or SHA-256 is not what the manifest says (or that
    /// cannot be read), by path.
    pub fn verify(&self, dir: &Path) -> Vec<String> {
        self.files()
            .filter(|f| {
                sha256_file(&dir.join(&f.path))
                    .map_or(true, |(bytes, sum)| bytes != f.bytes || sum != f.sha256)
            })
            .map(|f| f.path.clone())
            .collect()
    }
}

/// The size and SHA-256 (hex) of the file at `path`.
pub fn sha256_file(path: &Path) -> std::io::Result<(u64, String)> {
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut n = 0u64;
    loop {
        let got = f.read(&mut buf)?;
        if got == 0 {
            break;
        }
        n += got as u64;
        h.update(&buf[..got]);
    }
    Ok((n, hex(&h.finalize())))
}
