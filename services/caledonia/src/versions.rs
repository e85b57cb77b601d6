//! Component-data versions: a stored game replays under the data it was recorded with.
//!
//! Every version the archive (`data/caledonia/archive/<hash>/`) keeps differs from the current
//! files only in what no rule of its time read: provenance marks and notes, and data added
//! since (the solo board's die faces, the static-imports value, both read only by rules or
//! options that did not exist then). Its files therefore parse to the same values as the
//! current ones for everything they hold, which the tests below check for each archived
//! version; a game recorded under one plays with the current tables. A correction that changes
//! a value the rules read needs versioned tables instead (as Mombasa's data does): these tests
//! fail until it has them.

/// The hashes of the archived data versions (directory names in `data/caledonia/archive/`).
pub const ARCHIVED: &[&str] = &["dbffe44d9273be93"];

/// Every data version this build replays, the current one first (16 lowercase hex digits).
pub fn version_hashes() -> Vec<String> {
    std::iter::once(format!("{:016x}", crate::data::data_hash()))
        .chain(ARCHIVED.iter().map(|h| h.to_string()))
        .collect()
}

/// Whether a game recorded under data version `hash` can be replayed.
pub fn known(hash: &str) -> bool {
    version_hashes().iter().any(|h| h == hash)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{hash_files, Components, FILES};

    macro_rules! archived {
        ($hash:literal) => {
            [
                (
                    "map.json",
                    include_str!(concat!(
                        "../../../data/caledonia/archive/",
                        $hash,
                        "/map.json"
                    )),
                ),
                (
                    "contracts.json",
                    include_str!(concat!(
                        "../../../data/caledonia/archive/",
                        $hash,
                        "/contracts.json"
                    )),
                ),
                (
                    "market.json",
                    include_str!(concat!(
                        "../../../data/caledonia/archive/",
                        $hash,
                        "/market.json"
                    )),
                ),
                (
                    "player_board.json",
                    include_str!(concat!(
                        "../../../data/caledonia/archive/",
                        $hash,
                        "/player_board.json"
                    )),
                ),
                (
                    "clans.json",
                    include_str!(concat!(
                        "../../../data/caledonia/archive/",
                        $hash,
                        "/clans.json"
                    )),
                ),
                (
                    "ports.json",
                    include_str!(concat!(
                        "../../../data/caledonia/archive/",
                        $hash,
                        "/ports.json"
                    )),
                ),
                (
                    "scoring.json",
                    include_str!(concat!(
                        "../../../data/caledonia/archive/",
                        $hash,
                        "/scoring.json"
                    )),
                ),
            ]
        };
    }

    /// Every archived version, as (its name, its files in [`FILES`] order).
    fn archive() -> Vec<(&'static str, [(&'static str, &'static str); 7])> {
        vec![("dbffe44d9273be93", archived!("dbffe44d9273be93"))]
    }

    #[test]
    fn the_archive_is_listed_and_named_by_its_hashes() {
        let a = archive();
        assert_eq!(a.len(), ARCHIVED.len());
        for ((name, files), listed) in a.iter().zip(ARCHIVED) {
            assert_eq!(name, listed);
            assert_eq!(format!("{:016x}", hash_files(files)), *name);
            for ((n, _), (m, _)) in files.iter().zip(FILES) {
                assert_eq!(n, &m);
            }
        }
        let v = version_hashes();
        assert_eq!(v[0], format!("{:016x}", crate::data::data_hash()));
        assert!(
            !ARCHIVED.contains(&v[0].as_str()),
            "the current data is not archived"
        );
        assert!(known("dbffe44d9273be93") && !known("0000000000000000"));
    }

    #[test]
    fn an_archived_version_holds_the_same_values_as_the_current_data() {
        for (name, files) in archive() {
            let old = Components::load_from(&files).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut now = Components::load().unwrap_or_else(|e| panic!("{e}"));
            // Data added since, read only by later rules or options: absent from the archive.
            if old.solo_removal.is_none() {
                now.solo_removal = None;
            }
            if old.static_import_value.is_none() {
                now.static_import_value = None;
            }
            assert_eq!(format!("{old:?}"), format!("{now:?}"), "{name}");
        }
    }
}
