//! The store's write-ahead log: what makes an acknowledged append durable.
//!
//! Why not `sled::Db::flush`: on the 2-core machines this project runs on, a sled flush seals
//! sled's 512 KiB I/O buffer and hands it to sled's I/O threads; its cost grows with the
//! writers waiting on it (0.12 ms alone, 0.5 ms with 16 writers) and throughput plateaued near
//! 10,000 appends/s (see ops/BENCHMARKS.md). Here a batch of records from many writers is one
//! `pwrite` into a preallocated file and one `fdatasync` (about 0.1 ms on that machine),
//! whatever the batch holds. sled is still written first (in a transaction) and serves every
//! read; the log only has to survive a crash, after which [`WalFile::open`] hands back every
//! complete batch to be applied to sled again.
//!
//! # Format
//! A file of fixed capacity, preallocated with zeros so that a write never changes its size
//! (an `fdatasync` then has no metadata to commit). Block 0 holds `[MAGIC u32][epoch u64]
//! [crc32 u32]`. Batches follow from offset 4096: `[MAGIC u32][epoch u64][len u32][crc32 u32 of
//! epoch, len and payload][payload]`; the payload is a sequence of `[len u32][postcard
//! Vec<WalWrite>]` records. A checkpoint (sled flushed, so everything logged is durable there)
//! bumps the epoch and starts again at 4096: batches of an older epoch left behind are not
//! read. Reading stops at the first frame that is not a complete batch of the current epoch —
//! a torn write that was never acknowledged.

use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

const MAGIC: u32 = 0x4C57_414C;
const HEADER: u64 = 4096;
const FRAME: usize = 4 + 8 + 4 + 4;
/// Default capacity: a checkpoint happens when this fills.
pub const CAPACITY: u64 = 64 << 20;

/// One key written to one tree (index into `TREES`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WalWrite {
    pub tree: u8,
    pub key: Vec<u8>,
    pub value: Vec<u8>,
}

/// A writer's record: its writes, length-prefixed, ready to join a batch.
pub fn record(writes: &[WalWrite]) -> Vec<u8> {
    let body = postcard::to_allocvec(writes).unwrap_or_default();
    let mut out = Vec::with_capacity(body.len() + 4);
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

fn crc(epoch: u64, len: u32, payload: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&epoch.to_le_bytes());
    h.update(&len.to_le_bytes());
    h.update(payload);
    h.finalize()
}

pub struct WalFile {
    file: File,
    epoch: u64,
    offset: u64,
    capacity: u64,
}

impl WalFile {
    /// Opens (creating and preallocating if needed) the log at `path`, returning it and every
    /// record of the complete batches of the current epoch, in order.
    pub fn open(path: &Path, capacity: u64) -> io::Result<(WalFile, Vec<Vec<WalWrite>>)> {
        let fresh = !path.exists();
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        if fresh || file.metadata()?.len() < capacity {
            let zeros = vec![0u8; 1 << 20];
            file.seek(SeekFrom::Start(0))?;
            let mut left = capacity;
            while left > 0 {
                let n = left.min(zeros.len() as u64) as usize;
                file.write_all(&zeros[..n])?;
                left -= n as u64;
            }
            let mut wal = WalFile {
                file,
                epoch: 0,
                offset: HEADER,
                capacity,
            };
            wal.reset()?;
            return Ok((wal, Vec::new()));
        }
        let mut head = [0u8; 16];
        file.read_exact_at(&mut head, 0)?;
        let magic = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        let epoch = u64::from_le_bytes(head[4..12].try_into().unwrap_or_default());
        let hcrc = u32::from_le_bytes([head[12], head[13], head[14], head[15]]);
        let mut wal = WalFile {
            file,
            epoch,
            offset: HEADER,
            capacity,
        };
        if magic != MAGIC || hcrc != crc(epoch, 0, &[]) {
            wal.reset()?;
            return Ok((wal, Vec::new()));
        }
        let mut out = Vec::new();
        let mut frame = [0u8; FRAME];
        loop {
            if wal.offset + FRAME as u64 > capacity
                || wal.file.read_exact_at(&mut frame, wal.offset).is_err()
            {
                break;
            }
            let magic = u32::from_le_bytes([frame[0], frame[1], frame[2], frame[3]]);
            let e = u64::from_le_bytes(frame[4..12].try_into().unwrap_or_default());
            let len = u32::from_le_bytes([frame[12], frame[13], frame[14], frame[15]]);
            let want = u32::from_le_bytes([frame[16], frame[17], frame[18], frame[19]]);
            if magic != MAGIC
                || e != epoch
                || wal.offset + (FRAME as u64) + u64::from(len) > capacity
            {
                break;
            }
            let mut payload = vec![0u8; len as usize];
            if wal
                .file
                .read_exact_at(&mut payload, wal.offset + FRAME as u64)
                .is_err()
                || crc(e, len, &payload) != want
            {
                break;
            }
            let mut rest = payload.as_slice();
            while rest.len() >= 4 {
                let n = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
                let Some(body) = rest.get(4..4 + n) else {
                    break;
                };
                if let Ok(writes) = postcard::from_bytes::<Vec<WalWrite>>(body) {
                    out.push(writes);
                }
                rest = &rest[4 + n..];
            }
            wal.offset += FRAME as u64 + u64::from(len);
        }
        Ok((wal, out))
    }

    /// Whether a batch of `payload` bytes fits before the next checkpoint.
    pub fn has_room(&self, payload: usize) -> bool {
        self.offset + (FRAME + payload) as u64 <= self.capacity
    }

    /// Writes one batch and makes it durable.
    pub fn write_batch(&mut self, payload: &[u8]) -> io::Result<()> {
        let len = payload.len() as u32;
        let mut buf = Vec::with_capacity(FRAME + payload.len());
        buf.extend_from_slice(&MAGIC.to_le_bytes());
        buf.extend_from_slice(&self.epoch.to_le_bytes());
        buf.extend_from_slice(&len.to_le_bytes());
        buf.extend_from_slice(&crc(self.epoch, len, payload).to_le_bytes());
        buf.extend_from_slice(payload);
        self.file.write_all_at(&buf, self.offset)?;
        self.file.sync_data()?;
        self.offset += buf.len() as u64;
        Ok(())
    }

    /// Starts a new epoch: everything logged so far is durable elsewhere (sled was flushed).
    pub fn reset(&mut self) -> io::Result<()> {
        self.epoch += 1;
        let mut head = [0u8; 16];
        head[..4].copy_from_slice(&MAGIC.to_le_bytes());
        head[4..12].copy_from_slice(&self.epoch.to_le_bytes());
        head[12..].copy_from_slice(&crc(self.epoch, 0, &[]).to_le_bytes());
        self.file.write_all_at(&head, 0)?;
        self.file.sync_data()?;
        self.offset = HEADER;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(tree: u8, k: &[u8], v: &[u8]) -> WalWrite {
        WalWrite {
            tree,
            key: k.to_vec(),
            value: v.to_vec(),
        }
    }

    #[test]
    fn batches_come_back_until_a_torn_one_and_not_after_a_reset() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("wal");
        {
            let (mut wal, got) = WalFile::open(&path, 1 << 20).unwrap();
            assert!(got.is_empty());
            let mut batch = record(&[w(1, b"a", b"1")]);
            batch.extend(record(&[w(2, b"b", b"2"), w(0, b"c", b"3")]));
            wal.write_batch(&batch).unwrap();
            wal.write_batch(&record(&[w(3, b"d", b"4")])).unwrap();
            // A torn third batch: its frame written, its payload not.
            let off = wal.offset;
            wal.write_batch(&record(&[w(4, b"e", b"5")])).unwrap();
            wal.file
                .write_all_at(&[0xFF], off + FRAME as u64 + 2)
                .unwrap();
        }
        let (mut wal, got) = WalFile::open(&path, 1 << 20).unwrap();
        assert_eq!(
            got,
            vec![
                vec![w(1, b"a", b"1")],
                vec![w(2, b"b", b"2"), w(0, b"c", b"3")],
                vec![w(3, b"d", b"4")]
            ]
        );
        wal.reset().unwrap();
        wal.write_batch(&record(&[w(5, b"f", b"6")])).unwrap();
        drop(wal);
        let (_, got) = WalFile::open(&path, 1 << 20).unwrap();
        assert_eq!(
            got,
            vec![vec![w(5, b"f", b"6")]],
            "older epochs are not replayed"
        );
    }

    #[test]
    fn room_runs_out_at_capacity() {
        let dir = tempfile::tempdir().unwrap();
        let (wal, _) = WalFile::open(&dir.path().join("wal"), 8192).unwrap();
        assert!(wal.has_room(4000));
        assert!(!wal.has_room(5000));
    }
}
