//! Data versions: the current files and every archived version (`data/mombasa/archive/<hash>/`,
//! embedded by `build.rs`), each parsed lazily on first use and checked like the current one.
//!
//! A version is named by [`hash_of`] its files, which is what a stored game records. A
//! correction changes what is printed on components (values, costs, borders, rewards), never
//! which components exist or what they are called: the notation names cards, books, tiles,
//! track sides and bonus spaces by the current data's ids, so an archived version must have the
//! same ids in the same order ([`same_names`]), or it is refused as broken.

use super::{data_hash, parse_files, Components, Files, CURRENT};
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/archive.rs"));

/// A 64-bit FNV-1a hash of a version's files, in [`super::FILE_NAMES`] order.
pub fn hash_of(files: &Files) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for file in files {
        for b in file.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// One embedded version and, once asked for, its parsed components.
struct Version {
    hash: u64,
    files: &'static Files,
    parsed: OnceLock<Result<Components, String>>,
}

/// Every version: the current one first, then the archive by directory name (an archived copy
/// identical to the current files is the current version, listed once).
fn versions() -> &'static [Version] {
    static V: OnceLock<Vec<Version>> = OnceLock::new();
    V.get_or_init(|| {
        let current = data_hash();
        let mut v = vec![Version {
            hash: current,
            files: &CURRENT,
            parsed: OnceLock::new(),
        }];
        for (_, files) in ARCHIVE {
            let hash = hash_of(files);
            if v.iter().all(|x| x.hash != hash) {
                v.push(Version {
                    hash,
                    files,
                    parsed: OnceLock::new(),
                });
            }
        }
        v
    })
}

/// The hashes of every version this build replays, the current one first.
pub fn version_hashes() -> Vec<u64> {
    versions().iter().map(|v| v.hash).collect()
}

/// The components of the version with this hash, parsed on first use; `None` for a version
/// this build does not have (or one that fails its checks, which the tests rule out).
pub fn version(hash: u64) -> Option<&'static Components> {
    let v = versions().iter().find(|v| v.hash == hash)?;
    v.parsed
        .get_or_init(|| {
            let c = parse_files(v.files)?;
            if v.hash != data_hash() {
                let now = parse_files(&CURRENT)?;
                same_names(&c, &now)?;
            }
            Ok(c)
        })
        .as_ref()
        .ok()
}

/// Checked parse of one version (for the tests: the error says what is wrong).
#[cfg(test)]
fn check(hash: u64) -> Result<(), String> {
    let v = versions()
        .iter()
        .find(|v| v.hash == hash)
        .ok_or_else(|| format!("no data version {hash:016x}"))?;
    let c = parse_files(v.files)?;
    same_names(&c, &parse_files(&CURRENT)?)
}

/// The ids the notation reads are the same in `a` and `b`, in the same order.
fn same_names(a: &Components, b: &Components) -> Result<(), String> {
    fn same<T: PartialEq>(
        what: &str,
        a: impl Iterator<Item = T>,
        b: impl Iterator<Item = T>,
    ) -> Result<(), String> {
        if a.eq(b) {
            Ok(())
        } else {
            Err(format!(
                "{what}: an archived version must name its components as the current data does"
            ))
        }
    }
    same(
        "cards",
        a.cards.iter().map(|c| &c.code),
        b.cards.iter().map(|c| &c.code),
    )?;
    same(
        "books",
        a.books.iter().map(|c| &c.code),
        b.books.iter().map(|c| &c.code),
    )?;
    same(
        "start tiles",
        a.start_tiles.iter().map(|c| &c.code),
        b.start_tiles.iter().map(|c| &c.code),
    )?;
    same(
        "track sides",
        a.sides.iter().map(|c| &c.name),
        b.sides.iter().map(|c| &c.name),
    )?;
    same(
        "bonus spaces",
        a.bonus.iter().map(|c| &c.code),
        b.bonus.iter().map(|c| &c.code),
    )?;
    // What each bonus space names after it in the notation (`bonus buy L2`, `bonus sell C3`,
    // `bonus coffee`), and the bookkeeping track's spaces (`flip 1`..`flip 10`): the notation
    // reads by them.
    fn takes(k: &super::BonusKind) -> &'static str {
        match k {
            super::BonusKind::BuyCard { .. } => "a display space",
            super::BonusKind::SellCard { .. } => "a card",
            super::BonusKind::FirstPlayer { .. } | super::BonusKind::Majority { .. } => "nothing",
        }
    }
    same(
        "bonus space arguments",
        a.bonus.iter().map(|c| takes(&c.kind)),
        b.bonus.iter().map(|c| takes(&c.kind)),
    )?;
    same(
        "bookkeeping track spaces",
        std::iter::once(a.bookkeeping.length),
        std::iter::once(b.bookkeeping.length),
    )?;
    same(
        "bonus tiles",
        a.bonus_tiles.iter().map(|c| &c.code),
        b.bonus_tiles.iter().map(|c| &c.code),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_archived_version_is_named_by_its_hash_and_passes_the_checks() {
        for (name, files) in ARCHIVE {
            assert_eq!(*name, format!("{:016x}", hash_of(files)), "archive/{name}");
        }
        for h in version_hashes() {
            check(h).unwrap_or_else(|e| panic!("data version {h:016x}: {e}"));
            assert!(version(h).is_some());
        }
        assert_eq!(version_hashes().first(), Some(&hash_of(&CURRENT)));
        assert!(version(0).is_none());
    }

    #[test]
    fn a_version_that_renames_a_component_is_refused() {
        let now = parse_files(&CURRENT).unwrap();
        let mut renamed = now.clone();
        renamed.books[3].code = "Z9".into();
        assert!(same_names(&renamed, &now).is_err());
        assert!(same_names(&now, &now).is_ok());
        // The notation reads a bonus space's argument by its kind, and `flip` by the track.
        let mut changed = now.clone();
        changed.bonus.swap(1, 2);
        changed.bonus[1].code.clone_from(&now.bonus[1].code);
        changed.bonus[2].code.clone_from(&now.bonus[2].code);
        assert!(same_names(&changed, &now).is_err());
        let mut longer = now.clone();
        longer.bookkeeping.length += 1;
        assert!(same_names(&longer, &now).is_err());
    }

    /// `flip` names a space of the bookkeeping track, 1..10 (`ids::BOOK_SPACES`): the track's
    /// positions are its start and those spaces.
    #[test]
    fn the_bookkeeping_track_has_the_spaces_the_notation_names() {
        for h in version_hashes() {
            let c = version(h).unwrap();
            assert_eq!(
                usize::from(c.bookkeeping.length),
                crate::ids::BOOK_SPACES + 1
            );
        }
    }
}
