//! Embeds the archived component-data versions (`data/mombasa/archive/<hash>/*.json`).
//!
//! Each directory of the archive is one earlier version of the data files, named by its hash.
//! This script writes `archive.rs` into `OUT_DIR`: a list of `(name, [file texts])` built from
//! `include_str!`, so the archive is embedded like the current files and a changed archive
//! rebuilds the crate. A directory missing one of the files fails the build.

use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The data files of one version, in the order `src/data/mod.rs` hashes them.
const FILES: [&str; 7] = [
    "cards.json",
    "map.json",
    "tracks.json",
    "books.json",
    "start_tiles.json",
    "bonus.json",
    "setup.json",
];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let archive = manifest.join("../../data/mombasa/archive");
    println!("cargo:rerun-if-changed={}", archive.display());
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&archive)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    let mut out = String::from(
        "/// Archived data versions: directory name (the version's hash) and its files.\n\
         pub const ARCHIVE: &[(&str, [&str; 7])] = &[\n",
    );
    for dir in &dirs {
        println!("cargo:rerun-if-changed={}", dir.display());
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let _ = writeln!(out, "    ({name:?}, [");
        for f in FILES {
            let path = dir.join(f);
            assert!(
                path.is_file(),
                "data/mombasa/archive/{name}: missing {f} (an archived version holds every data file)"
            );
            println!("cargo:rerun-if-changed={}", path.display());
            let abs = std::fs::canonicalize(&path).unwrap_or(path);
            let _ = writeln!(
                out,
                "        include_str!({:?}),",
                abs.display().to_string()
            );
        }
        out.push_str("    ]),\n");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap_or_default()).join("archive.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {e}", dest.display());
    }
}
