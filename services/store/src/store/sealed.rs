//! A finished game's log as one record: how a finished game is written when it arrives whole
//! (an import). A finished game never changes, so its entries need not be a key each: one
//! record under `game id + SEALED` replaces ~250 B-tree inserts (most of an import's time in
//! sled) and ~250 keys in sled's page table (most of its memory per game). Reads slice it.
//!
//! Layout, inside the usual frame (crc32 + payload): the entry count `n` (u32 LE), `n + 1`
//! offsets (u32 LE) into the body, then the body: each entry in postcard, one after another.
//! A read checks the frame once and decodes only the entries it asks for.

use super::*;

/// The ply part of the key of a sealed log: after every real ply, so that a range over a
/// game's plies never meets it.
pub(crate) const SEALED: u32 = u32::MAX;

/// The record of `entries` (a finished game's whole log, plies `0..n`).
pub(crate) fn seal(entries: &[Entry]) -> Vec<u8> {
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

/// Entries `from..to` of a sealed log (clamped to its length), each checked to be the ply it
/// stands for.
pub(crate) fn unseal(bytes: &[u8], id: GameId, from: u32, to: u32) -> Result<Vec<Entry>> {
    let corrupt = |ply: Option<u32>, what: &str| StoreError::Corrupt {
        game: id,
        ply,
        what: format!("sealed log: {what}"),
    };
    let payload = unframe(bytes).ok_or_else(|| corrupt(None, "checksum mismatch"))?;
    // Checked arithmetic throughout: the count and offsets are bytes from disk.
    let word = |i: usize| -> Option<u32> {
        let at = i.checked_mul(4)?;
        let b = payload.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let n = word(0).ok_or_else(|| corrupt(None, "no count"))?;
    let body = usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_add(2)?.checked_mul(4))
        .and_then(|at| payload.get(at..))
        .ok_or_else(|| corrupt(None, "shorter than its offsets"))?;
    let to = to.min(n);
    let mut out = Vec::with_capacity(to.saturating_sub(from) as usize);
    for ply in from..to {
        let at = |p: u32| word(usize::try_from(p).ok()?.checked_add(1)?).map(|o| o as usize);
        let bytes = at(ply)
            .zip(at(ply + 1))
            .and_then(|(a, b)| body.get(a..b))
            .ok_or_else(|| corrupt(Some(ply), "offsets out of bounds"))?;
        let e: Entry =
            postcard::from_bytes(bytes).map_err(|e| corrupt(Some(ply), &e.to_string()))?;
        if e.ply != ply {
            return Err(corrupt(Some(ply), "entry in the wrong place"));
        }
        out.push(e);
    }
    Ok(out)
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
            })
            .collect()
    }

    #[test]
    fn any_range_of_a_sealed_log_reads_back_as_written() {
        let id = GameId(42);
        for n in [0, 1, 2, 31, 250] {
            let all = entries(n);
            let sealed = seal(&all);
            assert_eq!(unseal(&sealed, id, 0, n).unwrap(), all);
            assert_eq!(unseal(&sealed, id, 0, n + 10).unwrap(), all, "clamped");
            if n >= 2 {
                assert_eq!(
                    unseal(&sealed, id, 1, n - 1).unwrap(),
                    all[1..(n - 1) as usize]
                );
            }
            assert!(unseal(&sealed, id, n, n).unwrap().is_empty());
            assert!(unseal(&sealed, id, n + 3, n + 5).unwrap().is_empty());
        }
    }

    #[test]
    fn a_damaged_sealed_log_is_corrupt_not_a_panic() {
        let id = GameId(7);
        let sealed = seal(&entries(40));
        for i in [0, 3, 4, 9, 60, sealed.len() - 1] {
            let mut bad = sealed.clone();
            bad[i] ^= 0x5a;
            assert!(matches!(
                unseal(&bad, id, 0, 40),
                Err(StoreError::Corrupt { .. })
            ));
        }
        assert!(matches!(
            unseal(&sealed[..sealed.len() / 2], id, 0, 40),
            Err(StoreError::Corrupt { .. })
        ));
        // Well framed but lying offsets or count: still an error, never an index out of range.
        let mut payload = unframe(&sealed).unwrap().to_vec();
        payload[0..4].copy_from_slice(&1000u32.to_le_bytes());
        assert!(unseal(&frame(&payload), id, 0, 40).is_err());
        let mut payload = unframe(&sealed).unwrap().to_vec();
        payload[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(unseal(&frame(&payload), id, 0, 40).is_err());
    }
}
