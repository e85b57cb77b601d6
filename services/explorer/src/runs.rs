//! The rows of a game kind's explorer, sorted by node key, in run files beside the store:
//! `<data dir>/explorer/<kind>/run-<n>.rows`, listed by `manifest`.
//!
//! A row is one decision filed under one key, 20 bytes little-endian: key (8), the game's
//! ordinal (4), the move's id (4), the ply (2), the seat (1), flags (1: [`BY_POSITION`],
//! [`BOT`]). A run is rows sorted by (key, game, ply), read through a memory map: a node's
//! rows are found by binary search, one contiguous slice per run.
//!
//! Runs are written whole, never changed (a new file, then the manifest replaced by rename),
//! and merged size-tiered: after a run is added, while the run before the last is at most
//! twice the last's size the two are merged, so a kind holds O(log rows) runs and each row
//! is rewritten O(log rows) times. The manifest says which games' rows the runs hold (every
//! ordinal below `covered`); the rows of later games wait in memory (see `crate::Explorer`)
//! and in the store's projection. A run is synced before the manifest names it; a file
//! missing or cut short is found at open, and the explorer files every game again.

use memmap2::Mmap;
use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Bytes of a row.
pub const ROW: usize = 20;
/// Flag: the key is a position key (else a line key).
pub const BY_POSITION: u8 = 1;
/// Flag: a bot entered the move.
pub const BOT: u8 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Row {
    pub key: u64,
    pub game: u32,
    pub ply: u16,
    pub mv: u32,
    pub seat: u8,
    pub flags: u8,
}

impl Row {
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.key.to_le_bytes());
        out.extend_from_slice(&self.game.to_le_bytes());
        out.extend_from_slice(&self.mv.to_le_bytes());
        out.extend_from_slice(&self.ply.to_le_bytes());
        out.push(self.seat);
        out.push(self.flags);
    }

    /// The row at the start of `b` (at least [`ROW`] bytes).
    pub fn read(b: &[u8]) -> Row {
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap_or([0; 4]));
        Row {
            key: u64_at(0),
            game: u32_at(8),
            mv: u32_at(12),
            ply: u16::from_le_bytes([b[16], b[17]]),
            seat: b[18],
            flags: b[19],
        }
    }

    fn key_at(b: &[u8], i: usize) -> u64 {
        u64::from_le_bytes(b[i * ROW..i * ROW + 8].try_into().unwrap_or([0; 8]))
    }
}

/// Rows packed one after another, as runs and the projection keep them.
pub fn pack(rows: &[Row]) -> Vec<u8> {
    let mut out = Vec::with_capacity(rows.len() * ROW);
    for r in rows {
        r.write(&mut out);
    }
    out
}

/// The rows of packed bytes (a trailing partial row is ignored).
pub fn unpack(b: &[u8]) -> impl Iterator<Item = Row> + '_ {
    b.chunks_exact(ROW).map(Row::read)
}

/// One run file, mapped.
struct Run {
    name: String,
    map: Option<Mmap>,
    rows: usize,
}

impl Run {
    fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }

    /// The rows filed under `key`.
    fn find(&self, key: u64) -> &[u8] {
        let b = self.bytes();
        let (mut lo, mut hi) = (0, self.rows);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if Row::key_at(b, mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let start = lo;
        let mut end = start;
        while end < self.rows && Row::key_at(b, end) == key {
            end += 1;
        }
        &b[start * ROW..end * ROW]
    }
}

/// A kind's runs.
pub struct Runs {
    dir: PathBuf,
    runs: Vec<Run>,
    /// Every game ordinal below this has its rows in the runs.
    covered: u32,
    next_file: u64,
}

/// Why the runs could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum RunsError {
    #[error("explorer runs in {dir}: {source}")]
    Io {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("explorer runs in {0}: the manifest does not match the files")]
    Mismatch(PathBuf),
}

impl Runs {
    /// Opens the runs listed by `dir`'s manifest (none if it has none). Files the manifest
    /// does not list (a merge a crash interrupted) are removed.
    pub fn open(dir: &Path) -> Result<Runs, RunsError> {
        let io = |source| RunsError::Io {
            dir: dir.to_path_buf(),
            source,
        };
        fs::create_dir_all(dir).map_err(io)?;
        let mut runs = Vec::new();
        let mut covered = 0;
        let mut next_file = 0;
        let manifest = dir.join("manifest");
        if let Ok(text) = fs::read_to_string(&manifest) {
            let mut lines = text.lines();
            covered = lines
                .next()
                .and_then(|l| l.strip_prefix("covered "))
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| RunsError::Mismatch(dir.to_path_buf()))?;
            for line in lines {
                let mut parts = line.split(' ');
                let (Some(name), Some(rows), None) = (parts.next(), parts.next(), parts.next())
                else {
                    return Err(RunsError::Mismatch(dir.to_path_buf()));
                };
                let rows: usize = rows
                    .parse()
                    .map_err(|_| RunsError::Mismatch(dir.to_path_buf()))?;
                let path = dir.join(name);
                let len = fs::metadata(&path).map(|m| m.len()).unwrap_or(u64::MAX);
                if len != (rows * ROW) as u64 {
                    return Err(RunsError::Mismatch(dir.to_path_buf()));
                }
                runs.push(Run {
                    name: name.to_string(),
                    map: map(&path).map_err(io)?,
                    rows,
                });
                if let Some(n) = file_number(name) {
                    next_file = next_file.max(n + 1);
                }
            }
        }
        for e in fs::read_dir(dir).map_err(io)?.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(n) = file_number(&name) {
                next_file = next_file.max(n + 1);
                if !runs.iter().any(|r| r.name == name) {
                    let _ = fs::remove_file(e.path());
                }
            }
        }
        Ok(Runs {
            dir: dir.to_path_buf(),
            runs,
            covered,
            next_file,
        })
    }

    /// Every game ordinal below this has its rows in the runs.
    pub fn covered(&self) -> u32 {
        self.covered
    }

    /// Rows held, and bytes on disk.
    pub fn size(&self) -> (usize, u64) {
        let rows: usize = self.runs.iter().map(|r| r.rows).sum();
        (rows, (rows * ROW) as u64)
    }

    /// The runs' rows filed under `key`, run by run (each sorted by game, then ply).
    pub fn find(&self, key: u64) -> impl Iterator<Item = &[u8]> {
        self.runs.iter().map(move |r| r.find(key))
    }

    /// Each run's bytes, oldest first.
    pub fn all(&self) -> impl Iterator<Item = &[u8]> {
        self.runs.iter().map(|r| r.bytes())
    }

    /// Adds `rows` (every row of the games `covered..until`) as a run, then merges by size.
    pub fn add(&mut self, mut rows: Vec<Row>, until: u32) -> Result<(), RunsError> {
        rows.sort_unstable();
        if !rows.is_empty() {
            let run = self.write_run(|w| {
                for r in &rows {
                    let mut b = Vec::with_capacity(ROW);
                    r.write(&mut b);
                    w.write_all(&b)?;
                }
                Ok(rows.len())
            })?;
            self.runs.push(run);
        }
        while self.runs.len() >= 2 {
            let n = self.runs.len();
            if self.runs[n - 2].rows > 2 * self.runs[n - 1].rows {
                break;
            }
            let (b, a) = (self.runs.pop(), self.runs.pop());
            let (Some(a), Some(b)) = (a, b) else { break };
            let merged = self.write_run(|w| merge(a.bytes(), b.bytes(), w))?;
            self.runs.push(merged);
            for old in [a, b] {
                drop(old.map);
                let _ = fs::remove_file(self.dir.join(&old.name));
            }
            // The manifest is rewritten below; a crash before it finds the merged file
            // unlisted (removed at open) and the old ones missing: rebuilt from the store.
        }
        self.covered = self.covered.max(until);
        self.write_manifest()
    }

    /// Removes every run.
    pub fn clear(&mut self) -> Result<(), RunsError> {
        for r in self.runs.drain(..) {
            drop(r.map);
            let _ = fs::remove_file(self.dir.join(&r.name));
        }
        self.covered = 0;
        self.write_manifest()
    }

    fn write_run(
        &mut self,
        fill: impl FnOnce(&mut BufWriter<fs::File>) -> std::io::Result<usize>,
    ) -> Result<Run, RunsError> {
        let io = |source| RunsError::Io {
            dir: self.dir.clone(),
            source,
        };
        let name = format!("run-{}.rows", self.next_file);
        self.next_file += 1;
        let path = self.dir.join(&name);
        let file = fs::File::create(&path).map_err(io)?;
        let mut w = BufWriter::with_capacity(1 << 20, file);
        let rows = fill(&mut w).map_err(io)?;
        w.flush().map_err(io)?;
        // Synced before the manifest names it: the store's copy of its rows is dropped then.
        w.get_ref().sync_all().map_err(io)?;
        drop(w);
        Ok(Run {
            name,
            map: map(&path).map_err(io)?,
            rows,
        })
    }

    fn write_manifest(&self) -> Result<(), RunsError> {
        let io = |source| RunsError::Io {
            dir: self.dir.clone(),
            source,
        };
        let mut text = format!("covered {}\n", self.covered);
        for r in &self.runs {
            text.push_str(&format!("{} {}\n", r.name, r.rows));
        }
        let tmp = self.dir.join("manifest.tmp");
        let mut f = fs::File::create(&tmp).map_err(io)?;
        f.write_all(text.as_bytes()).map_err(io)?;
        f.sync_all().map_err(io)?;
        fs::rename(&tmp, self.dir.join("manifest")).map_err(io)
    }
}

fn file_number(name: &str) -> Option<u64> {
    name.strip_prefix("run-")?
        .strip_suffix(".rows")?
        .parse()
        .ok()
}

/// A file mapped read-only; `None` for an empty one (which cannot be mapped).
fn map(path: &Path) -> std::io::Result<Option<Mmap>> {
    let file = fs::File::open(path)?;
    if file.metadata()?.len() == 0 {
        return Ok(None);
    }
    // SAFETY: run files are written whole before they are mapped and never changed after;
    // they are removed (not truncated) when merged, which leaves an existing map valid.
    unsafe { Mmap::map(&file) }.map(Some)
}

/// Merges two sorted runs' bytes into `w`; answers the rows written.
fn merge(a: &[u8], b: &[u8], w: &mut impl Write) -> std::io::Result<usize> {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if Row::read(&a[i..]) <= Row::read(&b[j..]) {
            w.write_all(&a[i..i + ROW])?;
            i += ROW;
        } else {
            w.write_all(&b[j..j + ROW])?;
            j += ROW;
        }
    }
    w.write_all(&a[i..])?;
    w.write_all(&b[j..])?;
    Ok((a.len() + b.len()) / ROW)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_and_sort_by_key_first() {
        let r = Row {
            key: 0x0102_0304_0506_0708,
            game: 77,
            ply: 513,
            mv: 9,
            seat: 3,
            flags: BOT | BY_POSITION,
        };
        let b = pack(&[r]);
        assert_eq!(b.len(), ROW);
        assert_eq!(Row::read(&b), r);
        let lower = Row {
            key: 1,
            game: 99,
            ..r
        };
        assert!(lower < r);
    }
}
