//! A finished game's log as a few records ("sealed"): how a finished game is written when it
//! arrives whole (an import). A finished game changes only by a correction (which rewrites
//! the records holding the entries it changes), so its entries need not be a key each: one
//! record per [`CHUNK`] plies replaces ~250 B-tree inserts with ~8 (most of an import's time
//! went to sled) and as many keys in sled's page table (most of its memory per
//! game), while a read of a position still fetches only the few entries after its snapshot
//! (snapshots fall every 32 plies too).
//!
//! Chunk `c` (plies `32c..32c+32`) lies under `game id + SEALED_BASE + c`, after every real
//! ply. Its layout, inside the usual frame (crc32 + payload): the entry count `n` (u32 LE),
//! `n + 1` offsets (u32 LE) into the body, then the body: each entry in postcard. A read checks
//! a chunk's frame once and decodes only the entries it asks for.

use super::*;

/// Entries per sealed record.
pub(crate) const CHUNK: u32 = 32;

/// The ply part of the key of chunk 0: after every real ply (no game has 2³¹ entries), so
/// that a range over a game's plies never meets a chunk.
pub(crate) const SEALED_BASE: u32 = 0x8000_0000;

/// The records of `entries` (a finished game's whole log, plies `0..n`): each chunk's key
/// ply and bytes.
pub(crate) fn seal(entries: &[Entry]) -> Vec<(u32, Vec<u8>)> {
    entries
        .chunks(CHUNK as usize)
        .enumerate()
        .map(|(c, chunk)| (SEALED_BASE + c as u32, record(chunk)))
        .collect()
}

fn record(entries: &[Entry]) -> Vec<u8> {
    let mut body = Vec::with_capacity(entries.len() * 48);
    let mut offsets = Vec::with_capacity(entries.len() + 1);
    for e in entries {
        offsets.push(body.len() as u32);
        // Serialising these plain structs cannot fail (as `encode` says).
        body.extend(postcard::to_allocvec(e).unwrap_or_default());
    }
    offsets.push(body.len() as u32);
    let mut payload = Vec::with_capacity(4 + offsets.len() * 4 + body.len());
    payload.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for o in offsets {
        payload.extend_from_slice(&o.to_le_bytes());
    }
    payload.extend_from_slice(&body);
    frame(&payload)
}

/// The chunks that hold plies `from..to`, as a key range of the `entries` tree.
pub(crate) fn keys(id: GameId, from: u32, to: u32) -> std::ops::RangeInclusive<[u8; 12]> {
    let last = to.saturating_sub(1).max(from);
    key(id, SEALED_BASE + from / CHUNK)..=key(id, SEALED_BASE + last / CHUNK)
}

/// Entries `from..to` from `chunks` (key ply and bytes, in key order, as [`keys`] finds them),
/// clamped to the log's end. A chunk missing between others, or one that is not full before
/// another, is corruption: the log would have a hole.
pub(crate) fn read(
    chunks: impl Iterator<Item = Result<(u32, sled::IVec)>>,
    id: GameId,
    from: u32,
    to: u32,
) -> Result<Vec<Entry>> {
    let mut out = Vec::new();
    let mut ended = false;
    for (want, chunk) in (from / CHUNK..).zip(chunks) {
        let (key_ply, bytes) = chunk?;
        let c = key_ply.wrapping_sub(SEALED_BASE);
        if c != want || ended {
            return Err(corrupt(
                id,
                Some(want.saturating_mul(CHUNK)),
                "a chunk is missing",
            ));
        }
        let first = c.saturating_mul(CHUNK);
        let (entries, full) = unseal(&bytes, id, first, from.max(first), to)?;
        out.extend(entries);
        ended = !full;
    }
    Ok(out)
}

fn corrupt(id: GameId, ply: Option<u32>, what: &str) -> StoreError {
    StoreError::Corrupt {
        game: id,
        ply,
        what: format!("sealed log: {what}"),
    }
}

/// Entries `from..to` of the chunk whose first ply is `first` (clamped to the chunk), each
/// checked to be the ply it stands for; and whether the chunk is full ([`CHUNK`] entries).
fn unseal(bytes: &[u8], id: GameId, first: u32, from: u32, to: u32) -> Result<(Vec<Entry>, bool)> {
    let payload = unframe(bytes).ok_or_else(|| corrupt(id, Some(first), "checksum mismatch"))?;
    // Checked arithmetic throughout: the count and offsets are bytes from disk.
    let word = |i: usize| -> Option<u32> {
        let at = i.checked_mul(4)?;
        let b = payload.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let n = word(0)
        .filter(|&n| n <= CHUNK)
        .ok_or_else(|| corrupt(id, Some(first), "bad count"))?;
    let body = usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_add(2)?.checked_mul(4))
        .and_then(|at| payload.get(at..))
        .ok_or_else(|| corrupt(id, Some(first), "shorter than its offsets"))?;
    let at = |i: u32| word(i as usize + 1).map(|o| o as usize);
    let (lo, hi) = (from.saturating_sub(first), to.saturating_sub(first).min(n));
    let mut out = Vec::with_capacity(hi.saturating_sub(lo) as usize);
    for i in lo..hi {
        let ply = first.saturating_add(i);
        let bytes = at(i)
            .zip(at(i + 1))
            .and_then(|(a, b)| body.get(a..b))
            .ok_or_else(|| corrupt(id, Some(ply), "offsets out of bounds"))?;
        let e = crate::record::entry_from_postcard(bytes)
            .map_err(|e| corrupt(id, Some(ply), &e.to_string()))?;
        if e.ply != ply {
            return Err(corrupt(id, Some(ply), "entry in the wrong place"));
        }
        out.push(e);
    }
    Ok((out, n == CHUNK))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(n: u32) -> Vec<Entry> {
        (0..n)
            .map(|ply| Entry {
                ply,
                actor: if ply % 3 == 0 {
                    Actor::Dealer
                } else {
                    Actor::Seat(rules_core::Seat((ply % 2) as u8))
                },
                notation: format!("move {ply}"),
                recorded_at: DateTime::from_timestamp(1_767_225_600 + i64::from(ply), 0)
                    .unwrap_or_default(),
                key: (ply % 5 == 0).then(|| format!("k{ply}")),
                // Some entries say who typed them in: the sealed body holds both kinds.
                entered_by: (ply % 4 == 1).then_some(crate::record::EnteredBy::Recorder),
            })
            .collect()
    }

    /// What a read over the `entries` tree finds: the sealed chunks that [`keys`] covers.
    fn find(sealed: &[(u32, Vec<u8>)], id: GameId, from: u32, to: u32) -> Result<Vec<Entry>> {
        let range = keys(id, from, to);
        let ply_of = |k: &[u8; 12]| u32::from_be_bytes([k[8], k[9], k[10], k[11]]);
        let (lo, hi) = (ply_of(range.start()), ply_of(range.end()));
        let chunks = sealed
            .iter()
            .filter(|(p, _)| (lo..=hi).contains(p))
            .map(|(p, b)| Ok((*p, sled::IVec::from(b.as_slice()))));
        read(chunks, id, from, to)
    }

    #[test]
    fn any_range_of_a_sealed_log_reads_back_as_written() {
        let id = GameId(42);
        for n in [0u32, 1, 2, 31, 32, 33, 64, 250] {
            let all = entries(n);
            let sealed = seal(&all);
            assert_eq!(sealed.len(), n.div_ceil(CHUNK) as usize);
            for (from, to) in [
                (0, n),
                (0, n + 10),
                (1, n.saturating_sub(1)),
                (31, 33),
                (32, 64),
                (n, n),
                (n + 3, n + 5),
                (5, 6),
            ] {
                let want: Vec<Entry> = all
                    .iter()
                    .filter(|e| e.ply >= from && e.ply < to)
                    .cloned()
                    .collect();
                assert_eq!(
                    find(&sealed, id, from, to).unwrap(),
                    want,
                    "{n} entries, {from}..{to}"
                );
            }
        }
    }

    #[test]
    fn a_damaged_or_missing_chunk_is_corrupt_not_a_panic() {
        let id = GameId(7);
        let mut sealed = seal(&entries(100));
        let good = sealed[1].1.clone();
        for i in [0, 3, 4, 9, 60, good.len() - 1] {
            sealed[1].1 = good.clone();
            sealed[1].1[i] ^= 0x5a;
            assert!(matches!(
                find(&sealed, id, 0, 100),
                Err(StoreError::Corrupt { .. })
            ));
        }
        sealed[1].1 = good[..good.len() / 2].to_vec();
        assert!(matches!(
            find(&sealed, id, 0, 100),
            Err(StoreError::Corrupt { .. })
        ));
        // Well framed but lying count or offsets: still an error, never an index out of range.
        for (at, v) in [(0usize, 33u32), (0, u32::MAX), (8, u32::MAX)] {
            let mut payload = unframe(&good).unwrap().to_vec();
            payload[at..at + 4].copy_from_slice(&v.to_le_bytes());
            sealed[1].1 = frame(&payload);
            assert!(find(&sealed, id, 0, 100).is_err());
        }
        // A hole: the second chunk gone, or a short chunk followed by another.
        sealed[1].1 = good;
        let hole: Vec<_> = sealed
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != 1)
            .map(|(_, c)| c.clone())
            .collect();
        assert!(matches!(
            find(&hole, id, 0, 100),
            Err(StoreError::Corrupt { .. })
        ));
        let mut short = sealed.clone();
        short[1].1 = seal(&entries(40))[1].1.clone();
        assert!(matches!(
            find(&short, id, 0, 100),
            Err(StoreError::Corrupt { .. })
        ));
    }
}
