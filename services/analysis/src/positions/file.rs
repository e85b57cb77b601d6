//! The position index's blocks, one file per game kind beside the store (`<data dir>/positions/
//! <kind>.blocks`), outside sled.
//!
//! Why not a sled projection (as the index was until PROJECTIONS_VERSION 4): a reader of the
//! index then had to open the store, and sled's open grows with the whole store (about 0.14 s
//! and 110 MB per 10,000 games, measured in ops/BENCHMARKS.md "Growth"), which was most of
//! what `ludolog positions` cost. The blocks are derived data, appended once when a game
//! finishes, never updated: a log-structured file is all they need, and a reader — the CLI,
//! even while `serve` writes — opens it with a directory read, not the store.
//!
//! # Format
//! A 16-byte header `[MAGIC u32][FORMAT u32][kind u8][0; 7]`, then records `[len u32][crc32 u32
//! of id and block][game id u64][block: len bytes, see `columns`]`, all little-endian. Reading
//! stops at the first record that is not whole and sound: a write torn by a crash, which the
//! writer seals when it next opens the file — it writes a record header over the torn bytes,
//! making them one whole record of the game [`FILLER`], which readers skip — so that what it
//! appends after is read. A game indexed twice (a heal after a crash that had in fact written
//! it) is found by its last record.
//!
//! # Durability
//! Appends are not synced: the blocks are a projection of the logs. Every writer, on opening,
//! indexes again the finished games the file lacks (`Analysis::attach`), so a crash loses
//! nothing that is not put back.
//!
//! # Readers
//! A reader maps the file (no copy: the blocks are read from the page cache) and checks every
//! record's checksum when it opens it; it serves the records that were whole then. A writer
//! reads blocks from the file.
//!
//! # Why a mapping is safe here
//! A mapped page past the end of a file kills its reader (SIGBUS) when touched, so the file is
//! never cut below a point a reader may touch while one has it open. Appends only lengthen the
//! file; torn bytes are sealed in place, never cut (above). Only emptying the file (`clear`,
//! for a rebuild; a file of another format) cuts it: a reader holds a shared lock (`flock`) on
//! the file for as long as it is open, and a writer empties the file only under the exclusive
//! lock, waiting up to [`CUT_WAIT`] for readers to finish, then failing with an error that says
//! so (a rebuild leaves everything as it was: see `Analysis::clear`). So does cutting damage
//! too long to seal (bytes changed in the middle of the file, not a torn write).

use super::PositionsError;
use rules_core::GameKind;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, RwLock};
use std::time::{Duration, Instant};
use store::GameId;

const MAGIC: u32 = 0x5844_504C; // "LPDX"
/// The block format of `columns` this file holds; a file of another format is refused by
/// readers and rewritten by writers.
const FORMAT: u32 = 1;
const HEADER: usize = 16;
const RECORD: usize = 4 + 4 + 8;
/// The largest block a record may claim (a game of a few thousand plies is far below it): a
/// damaged length must not make a reader allocate gigabytes.
const MAX_BLOCK: usize = 64 << 20;

/// The game id of a record that holds torn bytes sealed in place (readers skip it; no game
/// has this id: `append` refuses it).
pub const FILLER: u64 = u64::MAX;

/// How long a writer that must cut the file waits for readers to close it.
const CUT_WAIT: Duration = Duration::from_secs(30);

/// Blocks read together: the bytes, and each game's block in them.
/// A reader's batch borrows its snapshot; a writer's is read from the file.
pub type Batch<'f> = (Cow<'f, [u8]>, Vec<(GameId, std::ops::Range<usize>)>);

/// Where a game's block lies in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    pub offset: u64,
    pub len: u32,
}

/// The blocks of one game kind: the open file and its directory (game id → extent).
pub struct BlockFile {
    /// A reader's map of the file (the records whole at opening are read from it; the
    /// shared lock on `file` keeps them mapped). First, so that it is unmapped before the
    /// lock is released (fields drop in order).
    snapshot: Option<Snapshot>,
    file: File,
    path: PathBuf,
    directory: RwLock<BTreeMap<GameId, Extent>>,
    /// Held while a record is appended (a writer's threads append one at a time).
    appending: Mutex<()>,
}

/// A reader's view of its file: mapped, or (an empty file cannot be mapped) empty.
enum Snapshot {
    Mapped(memmap2::Mmap),
    Empty,
}

impl Snapshot {
    fn bytes(&self) -> &[u8] {
        match self {
            Snapshot::Mapped(m) => m,
            Snapshot::Empty => &[],
        }
    }
}

/// The folder that holds the block files of a store in `data_dir`.
pub fn folder(data_dir: &Path) -> PathBuf {
    data_dir.join("positions")
}

fn file_name(kind: GameKind) -> String {
    format!("{kind}.blocks")
}

fn header(kind: GameKind) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[0..4].copy_from_slice(&MAGIC.to_le_bytes());
    h[4..8].copy_from_slice(&FORMAT.to_le_bytes());
    h[8] = kind_byte(kind);
    h
}

fn kind_byte(kind: GameKind) -> u8 {
    GameKind::ALL.iter().position(|k| *k == kind).unwrap_or(0) as u8
}

fn crc(id: u64, block: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&id.to_le_bytes());
    h.update(block);
    h.finalize()
}

/// Reads the records of `bytes` (a whole file): the directory and the end of the last whole
/// record. `None` if the header is not this format's for `kind`.
fn parse(bytes: &[u8], kind: GameKind) -> Option<(BTreeMap<GameId, Extent>, u64)> {
    if bytes.get(..HEADER)? != header(kind) {
        return None;
    }
    let mut directory = BTreeMap::new();
    let mut at = HEADER;
    while let Some(head) = bytes.get(at..at + RECORD) {
        let len = u32::from_le_bytes(head[0..4].try_into().ok()?) as usize;
        let sum = u32::from_le_bytes(head[4..8].try_into().ok()?);
        let id = u64::from_le_bytes(head[8..16].try_into().ok()?);
        if len > MAX_BLOCK {
            break;
        }
        let Some(block) = bytes.get(at + RECORD..at + RECORD + len) else {
            break;
        };
        if crc(id, block) != sum {
            break;
        }
        if id == FILLER {
            at += RECORD + len;
            continue;
        }
        directory.insert(
            GameId(id),
            Extent {
                offset: (at + RECORD) as u64,
                len: len as u32,
            },
        );
        at += RECORD + len;
    }
    Some((directory, at as u64))
}

impl BlockFile {
    /// Opens `kind`'s file for reading; `Ok(None)` when there is none, or when it was written in
    /// another format (a writer brings it up to date: `serve`, `import`, `rebuild`).
    pub fn open_read(data_dir: &Path, kind: GameKind) -> Result<Option<BlockFile>, PositionsError> {
        let path = folder(data_dir).join(file_name(kind));
        let file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        // Held until the reader is dropped (closing the file releases it): see the module docs.
        file.lock_shared()?;
        let snapshot = if file.metadata()?.len() == 0 {
            Snapshot::Empty
        } else {
            // SAFETY: the map is only read, and the part of the file it is read from (the
            // records whole now) is never cut while this reader's shared lock is held; no
            // writer changes a byte of a whole record. See the module docs.
            Snapshot::Mapped(unsafe { memmap2::Mmap::map(&file)? })
        };
        Ok(
            parse(snapshot.bytes(), kind).map(|(directory, _)| BlockFile {
                file,
                path,
                directory: RwLock::new(directory),
                appending: Mutex::new(()),
                snapshot: Some(snapshot),
            }),
        )
    }

    /// Makes the torn bytes of `path` from `from` to its end `to` one whole record of game
    /// [`FILLER`]: a header written over their first bytes (zeros added first if they are
    /// fewer than a header) whose length and checksum cover the rest. Nothing is cut, so a
    /// reader that has the file mapped is never hurt; one reading the torn bytes while they
    /// are sealed finds them unsound and stops there, as it did before. `false` when there
    /// are more bytes than one record may hold (damage in the middle of the file, not a torn
    /// write): the caller then cuts them.
    fn seal(path: &Path, from: u64, to: u64) -> Result<bool, PositionsError> {
        // Not the append handle: on Linux a positioned write to a file opened for appending
        // lands at the end.
        let f = OpenOptions::new().read(true).write(true).open(path)?;
        let mut to = to;
        if to - from < RECORD as u64 {
            f.write_all_at(&[0; RECORD][..(from + RECORD as u64 - to) as usize], to)?;
            to = from + RECORD as u64;
        }
        let len = to - from - RECORD as u64;
        if len > MAX_BLOCK as u64 {
            return Ok(false);
        }
        let mut block = vec![0; len as usize];
        f.read_exact_at(&mut block, from + RECORD as u64)?;
        let mut head = [0u8; RECORD];
        head[0..4].copy_from_slice(&(len as u32).to_le_bytes());
        head[4..8].copy_from_slice(&crc(FILLER, &block).to_le_bytes());
        head[8..16].copy_from_slice(&FILLER.to_le_bytes());
        f.write_all_at(&head, from)?;
        Ok(true)
    }

    /// Cuts `file` to `len` under the exclusive lock, waiting for readers (see the module
    /// docs); the lock is released before returning.
    fn cut(file: &File, len: u64) -> Result<(), PositionsError> {
        let deadline = Instant::now() + CUT_WAIT;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(PositionsError::Io(io::Error::other(
                        "the position index is being read by another process; try again",
                    )))
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(e.into()),
            }
        }
        let cut = file.set_len(len);
        let unlocked = file.unlock();
        cut?;
        unlocked?;
        Ok(())
    }

    /// Opens (or makes) `kind`'s file for writing: a file of another format, or none, starts
    /// empty; a torn last record is cut off.
    pub fn open_write(data_dir: &Path, kind: GameKind) -> Result<BlockFile, PositionsError> {
        let dir = folder(data_dir);
        std::fs::create_dir_all(&dir)?;
        let path = dir.join(file_name(kind));
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        let (directory, end) = match parse(&bytes, kind) {
            Some(found) => found,
            None => {
                Self::cut(&file, 0)?;
                file.write_all(&header(kind))?;
                (BTreeMap::new(), HEADER as u64)
            }
        };
        if end < bytes.len() as u64 && !Self::seal(&path, end, bytes.len() as u64)? {
            Self::cut(&file, end)?;
        }
        Ok(BlockFile {
            file,
            path,
            directory: RwLock::new(directory),
            appending: Mutex::new(()),
            snapshot: None,
        })
    }

    /// Appends the block of game `id` (a later record of the same game replaces an earlier).
    pub fn append(&self, id: GameId, block: &[u8]) -> Result<(), PositionsError> {
        if self.snapshot.is_some() {
            return Err(PositionsError::Io(io::Error::other(
                "the position index was opened for reading",
            )));
        }
        if block.len() > MAX_BLOCK || id.0 == FILLER {
            return Err(PositionsError::BadBlock(id));
        }
        let mut record = Vec::with_capacity(RECORD + block.len());
        record.extend_from_slice(&(block.len() as u32).to_le_bytes());
        record.extend_from_slice(&crc(id.0, block).to_le_bytes());
        record.extend_from_slice(&id.0.to_le_bytes());
        record.extend_from_slice(block);
        // The file is opened for appending: a record always lands at the end, whoever else
        // has the file open for writing (a second attach in one process, say), and the
        // handle's position after the write says where it landed.
        let _one_at_a_time = self.appending.lock().unwrap_or_else(|e| e.into_inner());
        let before = self.file.metadata()?.len();
        if let Err(e) = (&self.file).write_all(&record) {
            // Seal a partial record (a full disk), so that what follows stays readable; if
            // even that fails, the next writer to open the file seals it.
            if let Ok(now) = self.file.metadata().map(|m| m.len()) {
                if now > before {
                    let _ = Self::seal(&self.path, before, now);
                }
            }
            return Err(e.into());
        }
        let after = (&self.file).stream_position()?;
        let extent = Extent {
            offset: after - block.len() as u64,
            len: block.len() as u32,
        };
        self.directory
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, extent);
        Ok(())
    }

    /// Empties the file (before a rebuild indexes every game again).
    pub fn clear(&self) -> Result<(), PositionsError> {
        if self.snapshot.is_some() {
            return Err(PositionsError::Io(io::Error::other(
                "the position index was opened for reading",
            )));
        }
        let _one_at_a_time = self.appending.lock().unwrap_or_else(|e| e.into_inner());
        Self::cut(&self.file, HEADER as u64)?;
        self.directory
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        Ok(())
    }

    /// Whether game `id` has a block.
    pub fn contains(&self, id: GameId) -> bool {
        self.directory
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&id)
    }

    /// The games with a block and where each lies, in game order, from `from` on.
    pub fn extents(&self, from: Option<GameId>) -> Vec<(GameId, Extent)> {
        let dir = self.directory.read().unwrap_or_else(|e| e.into_inner());
        match from {
            Some(id) => dir.range(id..).map(|(g, e)| (*g, *e)).collect(),
            None => dir.iter().map(|(g, e)| (*g, *e)).collect(),
        }
    }

    /// Fills `buf` from `offset`: from the reader's snapshot, or from the file.
    fn read_at(&self, id: GameId, offset: u64, buf: &mut [u8]) -> Result<(), PositionsError> {
        match self.snapshot.as_ref().map(Snapshot::bytes) {
            Some(bytes) => {
                let from = usize::try_from(offset).map_err(|_| PositionsError::BadBlock(id))?;
                let src = bytes
                    .get(from..from + buf.len())
                    .ok_or(PositionsError::BadBlock(id))?;
                buf.copy_from_slice(src);
                Ok(())
            }
            None => self
                .file
                .read_exact_at(buf, offset)
                .map_err(|_| PositionsError::BadBlock(id)),
        }
    }

    /// Reads the blocks of `extents` (in file order where they are adjacent, one read for a
    /// run of them) into one buffer; returns the buffer and each block's range in it.
    pub fn read_many(&self, extents: &[(GameId, Extent)]) -> Result<Batch<'_>, PositionsError> {
        if let Some(snapshot) = &self.snapshot {
            return Self::borrow_many(snapshot.bytes(), extents);
        }
        let mut buf = Vec::new();
        let mut out = Vec::with_capacity(extents.len());
        let mut i = 0;
        while i < extents.len() {
            // A run of records that follow each other in the file: one read.
            let start = extents[i].1.offset;
            let mut j = i + 1;
            let mut stop = start + u64::from(extents[i].1.len);
            while j < extents.len() && extents[j].1.offset == stop + RECORD as u64 {
                stop = extents[j].1.offset + u64::from(extents[j].1.len);
                j += 1;
            }
            let base = buf.len();
            buf.resize(base + (stop - start) as usize, 0);
            self.read_at(extents[i].0, start, &mut buf[base..])?;
            for (id, e) in &extents[i..j] {
                let from = base + (e.offset - start) as usize;
                out.push((*id, from..from + e.len as usize));
            }
            i = j;
        }
        Ok((Cow::Owned(buf), out))
    }

    /// [`BlockFile::read_many`] from a reader's snapshot: the bytes from the first block to
    /// the last, borrowed (every byte is already in memory; a copy would cost as much again).
    fn borrow_many<'s>(
        snapshot: &'s [u8],
        extents: &[(GameId, Extent)],
    ) -> Result<Batch<'s>, PositionsError> {
        let span = |(id, e): &(GameId, Extent)| {
            let from = usize::try_from(e.offset).map_err(|_| PositionsError::BadBlock(*id))?;
            let to = from
                .checked_add(e.len as usize)
                .ok_or(PositionsError::BadBlock(*id))?;
            match snapshot.get(from..to) {
                Some(_) => Ok(from..to),
                None => Err(PositionsError::BadBlock(*id)),
            }
        };
        let spans = extents.iter().map(span).collect::<Result<Vec<_>, _>>()?;
        let start = spans.iter().map(|r| r.start).min().unwrap_or(0);
        let end = spans.iter().map(|r| r.end).max().unwrap_or(0);
        let out = extents
            .iter()
            .zip(spans)
            .map(|((id, _), r)| (*id, r.start - start..r.end - start))
            .collect();
        Ok((Cow::Borrowed(&snapshot[start..end]), out))
    }

    /// Where the file is (for messages).
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_come_back_until_a_torn_record_which_a_writer_seals() {
        let dir = tempfile::tempdir().unwrap();
        let kind = GameKind::FiveTribes;
        assert!(BlockFile::open_read(dir.path(), kind).unwrap().is_none());
        let w = BlockFile::open_write(dir.path(), kind).unwrap();
        w.append(GameId(7), b"seven").unwrap();
        w.append(GameId(3), b"three").unwrap();
        w.append(GameId(7), b"seven again").unwrap();
        let r = BlockFile::open_read(dir.path(), kind).unwrap().unwrap();
        let all = r.extents(None);
        assert_eq!(all.iter().map(|(g, _)| g.0).collect::<Vec<_>>(), [3, 7]);
        let (bytes, ranges) = r.read_many(&all[1..]).unwrap();
        assert_eq!(&bytes[ranges[0].1.clone()], b"seven again");
        // The writer reads the same from the file as the reader from its snapshot; a reader
        // writes nothing.
        let blocks = |(bytes, ranges): Batch<'_>| -> Vec<(GameId, Vec<u8>)> {
            let bytes = &bytes;
            ranges
                .into_iter()
                .map(|(g, r)| (g, bytes[r].to_vec()))
                .collect()
        };
        let written = blocks(w.read_many(&all).unwrap());
        assert_eq!(written, blocks(r.read_many(&all).unwrap()));
        assert_eq!(written[1], (GameId(7), b"seven again".to_vec()));
        assert!(r.append(GameId(8), b"eight").is_err() && r.clear().is_err());
        let (bytes, ranges) = r.read_many(&all).unwrap();
        assert_eq!(&bytes[ranges[0].1.clone()], b"three");
        assert_eq!(&bytes[ranges[1].1.clone()], b"seven again");
        assert_eq!(r.extents(Some(GameId(4))).len(), 1);
        drop((w, r));

        // A torn record: a reader stops before it; a writer seals it in place (no waiting for
        // the reader, whose mapped blocks stay readable) and appends after it.
        let path = folder(dir.path()).join(file_name(kind));
        let whole = std::fs::metadata(&path).unwrap().len();
        let f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all_at(&[9, 0, 0, 0, 1, 2], whole).unwrap();
        drop(f);
        let r = BlockFile::open_read(dir.path(), kind).unwrap().unwrap();
        assert_eq!(r.extents(None).len(), 2);
        let started = Instant::now();
        let w = BlockFile::open_write(dir.path(), kind).unwrap();
        assert!(
            started.elapsed() < CUT_WAIT / 10,
            "sealing waited for the reader"
        );
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            whole + RECORD as u64,
            "six torn bytes became one empty record, nothing cut"
        );
        assert_eq!(blocks(r.read_many(&r.extents(None)).unwrap()).len(), 2);
        w.append(GameId(9), b"nine").unwrap();
        let r2 = BlockFile::open_read(dir.path(), kind).unwrap().unwrap();
        assert_eq!(
            r2.extents(None)
                .iter()
                .map(|(g, _)| g.0)
                .collect::<Vec<_>>(),
            [3, 7, 9],
            "the sealed record is skipped, what follows it is read"
        );
        // A longer torn record (a header and part of its block) is sealed the same way.
        let end = std::fs::metadata(&path).unwrap().len();
        let f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all_at(
            &[200, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 42, 42, 42],
            end,
        )
        .unwrap();
        drop(f);
        let w2 = BlockFile::open_write(dir.path(), kind).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), end + 19);
        w2.append(GameId(10), b"ten").unwrap();
        let r3 = BlockFile::open_read(dir.path(), kind).unwrap().unwrap();
        assert_eq!(r3.extents(None).len(), 4);
        assert!(
            w.append(GameId(FILLER), b"x").is_err(),
            "no game is the filler"
        );

        // Damage longer than one record may be (bytes changed mid-file, not a torn write) is
        // cut instead, under the lock: here 70 MB of zeros, sparse, after the last record.
        let end = std::fs::metadata(&path).unwrap().len();
        drop((r, r2, r3));
        OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(end + (70 << 20))
            .unwrap();
        let w3 = BlockFile::open_write(dir.path(), kind).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), end);
        assert_eq!(w3.extents(None).len(), 4);
        drop(w3);
        let r = BlockFile::open_read(dir.path(), kind).unwrap().unwrap();
        let r2 = BlockFile::open_read(dir.path(), kind).unwrap().unwrap();
        let r3 = BlockFile::open_read(dir.path(), kind).unwrap().unwrap();

        // Emptying the file waits for its readers to close it.
        let started = Instant::now();
        let held = std::thread::scope(|s| {
            let cleared = s.spawn(|| w.clear());
            std::thread::sleep(Duration::from_millis(200));
            let held = std::fs::metadata(&path).unwrap().len();
            drop((r, r2, r3));
            cleared.join().unwrap().unwrap();
            held
        });
        assert!(started.elapsed() >= Duration::from_millis(200));
        assert!(
            held > HEADER as u64,
            "emptied while readers had the file open"
        );
        assert_eq!(std::fs::metadata(&path).unwrap().len(), HEADER as u64);
        w.append(GameId(3), b"three").unwrap();
        w.append(GameId(7), b"seven again").unwrap();
        w.append(GameId(9), b"nine").unwrap();
        drop((w, w2));

        // A damaged byte inside a block ends the readable part there.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER + RECORD] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        let r = BlockFile::open_read(dir.path(), kind).unwrap().unwrap();
        assert!(r.extents(None).is_empty());
        drop(r);

        // Two writers of one file (two attaches in one process) append without overwriting
        // each other: every record of both is read back.
        let w1 = BlockFile::open_write(dir.path(), kind).unwrap();
        let w2 = BlockFile::open_write(dir.path(), kind).unwrap();
        for i in 0..20u64 {
            let w = if i % 2 == 0 { &w1 } else { &w2 };
            w.append(GameId(100 + i), format!("block {i}").as_bytes())
                .unwrap();
        }
        let r = BlockFile::open_read(dir.path(), kind).unwrap().unwrap();
        let found = r.extents(Some(GameId(100)));
        assert_eq!(found.len(), 20);
        let (bytes, ranges) = r.read_many(&found).unwrap();
        for (i, (_, range)) in ranges.into_iter().enumerate() {
            assert_eq!(&bytes[range], format!("block {i}").as_bytes());
        }
        // Each writer's own directory places its records right.
        let mine = w2.extents(Some(GameId(100)));
        let (bytes, ranges) = w2.read_many(&mine).unwrap();
        assert_eq!(&bytes[ranges[0].1.clone()], b"block 1");
        drop((w1, w2, r));

        // Another format (or kind) is not read; a writer starts the file again.
        std::fs::write(&path, b"not a block file at all").unwrap();
        assert!(BlockFile::open_read(dir.path(), kind).unwrap().is_none());
        let w = BlockFile::open_write(dir.path(), kind).unwrap();
        assert!(w.extents(None).is_empty());
        w.clear().unwrap();
        assert!(BlockFile::open_read(dir.path(), GameKind::Mombasa)
            .unwrap()
            .is_none());
    }
}
