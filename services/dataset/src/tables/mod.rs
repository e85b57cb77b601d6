//! The five tables of a month, written in one pass over its games (each game's entries,
//! review and position block read once), every table streamed to its file a batch at a time:
//! memory holds a batch and the row group being encoded, never the month.
//!
//! Every file: ZSTD, row groups of [`ROW_GROUP`] rows (a reader fetching two columns of a
//! filter's row groups reads those column chunks and nothing else), statistics per page (the
//! page index) and per row group, sorted by game and ply (and said so in the footer's
//! sorting columns), strings dictionary-encoded where that is smaller (Parquet falls back to
//! plain past a dictionary page's size), plies and times delta-encoded.

mod evaluations;
mod games;
mod moves;
mod positions;
mod seats;

use crate::manifest::FileEntry;
use crate::{hex, DatasetError, Result};
use analysis::GameSummary;
use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::metadata::SortingColumn;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;
use rules_core::GameKind;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use store::{GameId, GameLog, Header};

/// Rows a row group holds at most.
pub const ROW_GROUP: usize = 64 * 1024;
/// Rows built up before they go to the writer as one batch.
const BATCH: usize = 8 * 1024;
/// Games whose position blocks are read at once.
const CHUNK: usize = 512;

/// The tables, in the order the manifest lists a month's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Table {
    Games,
    Seats,
    Moves,
    Positions,
    Evaluations,
}

impl Table {
    pub const ALL: [Table; 5] = [
        Table::Games,
        Table::Seats,
        Table::Moves,
        Table::Positions,
        Table::Evaluations,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Table::Games => "games",
            Table::Seats => "seats",
            Table::Moves => "moves",
            Table::Positions => "positions",
            Table::Evaluations => "evaluations",
        }
    }

    /// The columns the rows are sorted by (indexes into the schema).
    fn sorted_by(self) -> &'static [usize] {
        match self {
            Table::Games => &[0],
            Table::Seats | Table::Moves | Table::Positions => &[0, 1],
            // game_id, ply, seat
            Table::Evaluations => &[0, 1, 2],
        }
    }
}

/// A table's rows being built: a batch at a time.
trait Rows {
    fn len(&self) -> usize;
    /// The rows built so far as a batch of `schema`, the builders emptied.
    fn finish(&mut self, schema: &SchemaRef) -> Result<RecordBatch>;
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, synced, renamed over it,
/// the folder synced.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| DatasetError::Io { path, source }
    };
    let tmp = tmp_path(path);
    let mut f = std::fs::File::create(&tmp).map_err(io(&tmp))?;
    f.write_all(bytes).map_err(io(&tmp))?;
    f.sync_all().map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))?;
    sync_dir(path)
}

fn tmp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

fn sync_dir(path: &Path) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|source| DatasetError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
    }
    Ok(())
}

/// A file being written: its bytes counted and hashed as they go.
struct Hashing {
    inner: std::io::BufWriter<std::fs::File>,
    sha: Sha256,
    bytes: u64,
}

impl Write for Hashing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.sha.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The writer properties of `table` over `schema`.
fn properties(table: Table, schema: &SchemaRef) -> Result<WriterProperties> {
    let mut b = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(3)?))
        .set_max_row_group_row_count(Some(ROW_GROUP))
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_created_by(format!(
            "ludolog {} (dataset format {})",
            env!("CARGO_PKG_VERSION"),
            crate::FORMAT
        ))
        .set_sorting_columns(Some(
            table
                .sorted_by()
                .iter()
                .map(|&i| SortingColumn {
                    column_idx: i as i32,
                    descending: false,
                    nulls_first: false,
                })
                .collect(),
        ));
    // Plies and times grow steadily within a game: deltas, not a dictionary.
    for name in ["ply", "recorded_at", "created_at", "ended_at"] {
        if schema.field_with_name(name).is_ok() {
            let path = ColumnPath::from(name);
            b = b
                .set_column_dictionary_enabled(path.clone(), false)
                .set_column_encoding(path, Encoding::DELTA_BINARY_PACKED);
        }
    }
    Ok(b.build())
}

/// One table's file of a month, written a batch at a time.
struct Out<R: Rows> {
    table: Table,
    rows: R,
    schema: SchemaRef,
    writer: ArrowWriter<Hashing>,
    tmp: PathBuf,
    path: PathBuf,
    rel: String,
    written: u64,
}

impl<R: Rows> Out<R> {
    fn create(
        root: &Path,
        rel_dir: &str,
        table: Table,
        schema: SchemaRef,
        rows: R,
    ) -> Result<Self> {
        let rel = format!("{rel_dir}/{}.parquet", table.name());
        let path = root.join(&rel);
        let tmp = tmp_path(&path);
        let file = std::fs::File::create(&tmp).map_err(|source| DatasetError::Io {
            path: tmp.clone(),
            source,
        })?;
        let sink = Hashing {
            inner: std::io::BufWriter::with_capacity(1 << 20, file),
            sha: Sha256::new(),
            bytes: 0,
        };
        let props = properties(table, &schema)?;
        let writer = ArrowWriter::try_new(sink, schema.clone(), Some(props))?;
        Ok(Out {
            table,
            rows,
            schema,
            writer,
            tmp,
            path,
            rel,
            written: 0,
        })
    }

    /// Sends the rows built to the writer once a batch is full (`force`: whatever there is).
    fn flush(&mut self, force: bool) -> Result<()> {
        let n = self.rows.len();
        if n == 0 || (!force && n < BATCH) {
            return Ok(());
        }
        let batch = self.rows.finish(&self.schema)?;
        self.writer.write(&batch)?;
        self.written += n as u64;
        Ok(())
    }

    /// Closes the file (footer written, synced) and renames it into place.
    fn close(mut self) -> Result<FileEntry> {
        self.flush(true)?;
        let sink = self.writer.into_inner()?;
        let Hashing { inner, sha, bytes } = sink;
        let file = inner.into_inner().map_err(|e| DatasetError::Io {
            path: self.tmp.clone(),
            source: e.into_error(),
        })?;
        file.sync_all().map_err(|source| DatasetError::Io {
            path: self.tmp.clone(),
            source,
        })?;
        std::fs::rename(&self.tmp, &self.path).map_err(|source| DatasetError::Io {
            path: self.path.clone(),
            source,
        })?;
        Ok(FileEntry {
            path: self.rel,
            table: self.table.name().to_string(),
            rows: self.written,
            bytes,
            sha256: hex(&sha.finalize()),
        })
    }
}

/// The score categories of a kind, in score-sheet order, from the month's first game.
fn categories(games: &[Header], summaries: &HashMap<GameId, GameSummary>) -> Vec<String> {
    games
        .iter()
        .find_map(|h| summaries.get(&h.id))
        .and_then(|s| s.seats.first())
        .map(|s| s.breakdown.iter().map(|(c, _)| c.clone()).collect())
        .unwrap_or_default()
}

/// The month being written: which tables, and where.
pub struct Month<'a> {
    pub kind: GameKind,
    /// Finished, in id order.
    pub games: &'a [Header],
    pub root: &'a Path,
    /// `kind=<kind>/month=<YYYY-MM>`.
    pub rel_dir: &'a str,
    /// The tables to write (every one for a dataset; one at a time to time them apart).
    pub tables: &'a [Table],
}

/// Writes the files of `month`'s tables; their manifest entries, in [`Table::ALL`] order. A
/// game without a summary is left out of every table, as it is of the CSV exports.
pub fn write_month(
    store: &dyn GameLog,
    analysis: &analysis::Analysis,
    summaries: &HashMap<GameId, GameSummary>,
    month: &Month<'_>,
) -> Result<Vec<FileEntry>> {
    let Month {
        kind,
        games,
        root,
        rel_dir,
        tables,
    } = *month;
    let dir = root.join(rel_dir);
    std::fs::create_dir_all(&dir).map_err(|source| DatasetError::Io {
        path: dir.clone(),
        source,
    })?;
    let features = analysis::positions::schema(store.registry(), kind)?;
    let cats = categories(games, summaries);
    let want = |t: Table| tables.contains(&t);
    let mut g = want(Table::Games)
        .then(|| {
            Out::create(
                root,
                rel_dir,
                Table::Games,
                games::schema(),
                games::Builder::default(),
            )
        })
        .transpose()?;
    let mut s = want(Table::Seats)
        .then(|| {
            Out::create(
                root,
                rel_dir,
                Table::Seats,
                seats::schema(&cats),
                seats::Builder::new(&cats),
            )
        })
        .transpose()?;
    let mut m = want(Table::Moves)
        .then(|| {
            Out::create(
                root,
                rel_dir,
                Table::Moves,
                moves::schema(),
                moves::Builder::default(),
            )
        })
        .transpose()?;
    let mut p = want(Table::Positions)
        .then(|| {
            Out::create(
                root,
                rel_dir,
                Table::Positions,
                positions::schema(&features),
                positions::Builder::new(features),
            )
        })
        .transpose()?;
    let mut e = want(Table::Evaluations)
        .then(|| {
            Out::create(
                root,
                rel_dir,
                Table::Evaluations,
                evaluations::schema(),
                evaluations::Builder::default(),
            )
        })
        .transpose()?;
    let need_entries = m.is_some() || e.is_some();
    for chunk in games.chunks(CHUNK) {
        let blocks: HashMap<GameId, Vec<u8>> = match &p {
            Some(_) => {
                let ids: Vec<GameId> = chunk
                    .iter()
                    .filter(|h| summaries.contains_key(&h.id))
                    .map(|h| h.id)
                    .collect();
                analysis
                    .positions()
                    .blocks_of(kind, &ids)?
                    .into_iter()
                    .collect()
            }
            None => HashMap::new(),
        };
        for h in chunk {
            let Some(summary) = summaries.get(&h.id) else {
                continue;
            };
            let entries = if need_entries {
                store.entries(h.id, 0, h.plies)?
            } else {
                Vec::new()
            };
            if let Some(g) = &mut g {
                g.rows.push(h, summary);
                g.flush(false)?;
            }
            if let Some(s) = &mut s {
                s.rows.push(h, summary);
                s.flush(false)?;
            }
            if let Some(m) = &mut m {
                m.rows.push(h, &entries);
                m.flush(false)?;
            }
            if let Some(p) = &mut p {
                match blocks.get(&h.id) {
                    Some(b) => p.rows.push(h, b)?,
                    None => {
                        tracing::warn!("game {}: no position block; left out of positions", h.id)
                    }
                }
                p.flush(false)?;
            }
            if let Some(e) = &mut e {
                if let review::record::Kept::Current(r) = review::record::read(store, h)? {
                    e.rows.push(h, &r, &entries);
                }
                e.flush(false)?;
            }
        }
    }
    let mut files = Vec::new();
    if let Some(g) = g {
        files.push(g.close()?);
    }
    if let Some(s) = s {
        files.push(s.close()?);
    }
    if let Some(m) = m {
        files.push(m.close()?);
    }
    if let Some(p) = p {
        files.push(p.close()?);
    }
    if let Some(e) = e {
        files.push(e.close()?);
    }
    sync_dir(&dir.join("x"))?;
    Ok(files)
}
