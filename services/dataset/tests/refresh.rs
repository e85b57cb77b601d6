//! A dataset kept current: the first refresh writes every month, the next keeps them all
//! (same fingerprints, same files), a missing file or a newly finished game writes its month
//! again and only it, and every file always matches the manifest's size and SHA-256.

use caledonia::Caledonia;
use dataset::{Dataset, Manifest};
use five_tribes::FiveTribes;
use mombasa::Mombasa;
use rules_core::{Erased, GameKind, Registry};
use std::path::Path;
use store::{GameLog, Store};

fn registry() -> Registry {
    Registry::new()
        .with(Erased::<FiveTribes>::new())
        .with(Erased::<Caledonia>::new())
        .with(Erased::<Mombasa>::new())
}

fn sample_lines(file: &str) -> Vec<String> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../data/samples/{file}.ndjson"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn only_months_that_changed_are_written_again() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(
        dir.path().join("store"),
        registry(),
        store::Config::default(),
    )
    .unwrap();
    let analysis = analysis::Analysis::attach(&store, *b"dataset-tests!!!").unwrap();
    // Every sample but the last Mombasa game.
    let mombasa = sample_lines("mombasa");
    let mut n = 0;
    for file in ["five-tribes", "caledonia"] {
        for line in sample_lines(file) {
            n += 1;
            store.import_line(n, &line).unwrap();
        }
    }
    for line in &mombasa[..mombasa.len() - 1] {
        n += 1;
        store.import_line(n, line).unwrap();
    }
    let out = dir.path().join("datasets");
    let mut ds = Dataset::open(&out).unwrap();
    let done = ds.refresh(&store, &analysis, &GameKind::ALL).unwrap();
    assert_eq!((done.written.len(), done.kept), (3, 0));
    assert!(ds.manifest().verify(&out).is_empty());
    assert_eq!(ds.manifest().files().count(), 15);
    let first = ds.manifest().clone();

    // Nothing changed: nothing written, the manifest the same on disk.
    let mut again = Dataset::open(&out).unwrap();
    let done = again.refresh(&store, &analysis, &GameKind::ALL).unwrap();
    assert_eq!((done.written.len(), done.kept), (0, 3));
    assert_eq!(Manifest::read(&out).unwrap().unwrap(), first);

    // A file gone: its month, and only it, is written again, to the same bytes.
    let gone = "kind=clans-of-caledonia/month=2026-01/seats.parquet";
    std::fs::remove_file(out.join(gone)).unwrap();
    assert_eq!(again.manifest().verify(&out), vec![gone.to_string()]);
    let done = again.refresh(&store, &analysis, &GameKind::ALL).unwrap();
    assert_eq!(
        done.written,
        vec![(GameKind::ClansOfCaledonia, "2026-01".to_string())]
    );
    assert_eq!(
        again.manifest().months,
        first.months,
        "the same games, the same bytes"
    );

    // Another game of a month: that month's files change, the others' do not.
    n += 1;
    store.import_line(n, mombasa.last().unwrap()).unwrap();
    let done = again.refresh(&store, &analysis, &GameKind::ALL).unwrap();
    assert_eq!(
        done.written,
        vec![(GameKind::Mombasa, "2026-01".to_string())]
    );
    let m = again.manifest();
    for (old, new) in first.months.iter().zip(&m.months) {
        if new.kind == "mombasa" {
            assert_eq!(new.games, old.games + 1);
            let moves = |x: &dataset::MonthEntry| {
                x.files.iter().find(|f| f.table == "moves").unwrap().clone()
            };
            assert!(moves(new).rows > moves(old).rows);
            assert_ne!(moves(new).sha256, moves(old).sha256);
        } else {
            assert_eq!(new, old);
        }
    }
    assert!(m.verify(&out).is_empty());
    assert_eq!(store.game_count(), n as usize);
}
