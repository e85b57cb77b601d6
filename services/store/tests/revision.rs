//! Corrections of finished games (`store::revision`) in the embedded store: a correction is a
//! new revision that replays, every earlier revision stays readable and replays, a game that
//! arrived whole (sealed) is corrected like one played here, everything survives a reopen,
//! and every refusal writes nothing.

use chrono::Duration;
use rules_core::{Actor, ToAct};
use store::journal::Author;
use store::revision::{log_at, plan_correction, replay, revisions};
use store::{GameId, GameLog, Store, StoreError};
use store_conformance::checks::correction;
use store_conformance::{new_game, play_out, registry, t0};

fn open(dir: &std::path::Path) -> Store {
    Store::open(dir, registry(), store::Config::default()).unwrap()
}

/// A store that keeps a snapshot every other ply: a correction has snapshots to rewrite
/// after whichever entry it changes.
fn open_dense(dir: &std::path::Path) -> Store {
    let config = store::Config {
        snapshot_every: 2,
        ..store::Config::default()
    };
    Store::open(dir, registry(), config).unwrap()
}

/// A finished game and the corrections of one entry that its record still takes (another
/// legal move at that entry, after which the rest of the record still replays to its end),
/// found by trying each seat's entry from the end, as a mistyped score sheet would be.
fn finished_with_corrections(store: &Store, seed: u64) -> (GameId, Vec<(u32, String)>) {
    let id = new_game(store, 2, seed);
    play_out(store, id, seed, 2000);
    let h = store.header(id).unwrap();
    assert_eq!(h.status, store::Status::Finished);
    let entries = store.entries(id, 0, h.plies).unwrap();
    let mut found = Vec::new();
    for e in entries.iter().rev().filter(|e| e.actor != Actor::Dealer) {
        let state = store.state_at(id, e.ply).unwrap();
        for m in state.legal_moves() {
            if m == e.notation {
                continue;
            }
            let c = correction(id, vec![(e.ply, m.clone())], "typo");
            if plan_correction(store.registry(), 32, &h, &[], &entries, &c).is_ok() {
                found.push((e.ply, m));
                if found.len() == 2 {
                    return (id, found);
                }
                break;
            }
        }
    }
    panic!("seed {seed}: fewer than two correctable entries");
}

fn ends(store: &Store, id: GameId, log: &[store::Entry]) -> Vec<u8> {
    let h = store.header(id).unwrap();
    let state = replay(store.registry(), &h, log).unwrap();
    assert_eq!(
        state.to_act(),
        ToAct::Over,
        "every revision replays to its end"
    );
    state.encode()
}

#[test]
fn two_corrections_make_two_revisions_and_every_revision_replays() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dense(dir.path());
    let (id, found) = finished_with_corrections(&store, 7);
    let h0 = store.header(id).unwrap();
    let log0 = store.entries(id, 0, h0.plies).unwrap();
    assert_eq!(h0.revision, 0);

    let (p1, m1) = found[0].clone();
    let done = store
        .correct(correction(
            id,
            vec![(p1, m1.clone())],
            "score sheet: wrong move",
        ))
        .unwrap();
    assert_eq!(done.header.revision, 1);
    assert_eq!(store.header(id).unwrap().revision, 1);
    let log1 = store.entries(id, 0, h0.plies).unwrap();
    // What one correction changes, and what its note says, is the conformance suite's check
    // (`a_correction_is_a_new_revision_that_replays_and_projections_follow`); this test
    // keeps two distinct revisions, the snapshots rewritten, a reopen and a backup.
    assert_eq!(log1[p1 as usize].notation, m1);
    // The second correction is of the first revision's record: the entry found for the
    // original may no longer be correctable, so take any that is.
    let (p2, m2) = found[1].clone();
    let second = store.correct(correction(id, vec![(p2, m2.clone())], "second look"));
    let (p2, m2) = match second {
        Ok(_) => (p2, m2),
        Err(StoreError::CorrectionRefused { .. }) => {
            // Correct the first correction back, which the record certainly takes.
            let back = log0[p1 as usize].notation.clone();
            store
                .correct(correction(id, vec![(p1, back.clone())], "second look"))
                .unwrap();
            (p1, back)
        }
        Err(e) => panic!("{e}"),
    };
    let h2 = store.header(id).unwrap();
    assert_eq!(h2.revision, 2);
    let log2 = store.entries(id, 0, h2.plies).unwrap();
    assert_eq!(log2[p2 as usize].notation, m2);

    let notes = store.journal(id).unwrap();
    let revs = revisions(&notes);
    assert_eq!(revs.iter().map(|r| r.number).collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(log_at(&log2, &notes, 0).unwrap(), log0);
    assert_eq!(log_at(&log2, &notes, 1).unwrap(), log1);
    assert_eq!(log_at(&log2, &notes, 2).unwrap(), log2);
    assert!(log_at(&log2, &notes, 3).is_none());
    for log in [&log0, &log1, &log2] {
        ends(&store, id, log);
    }
    // Every position of the latest revision reads as its replay (snapshots rewritten).
    let end = ends(&store, id, &log2);
    assert_eq!(store.state_at(id, h2.plies).unwrap().encode(), end);
    for ply in 0..=h2.plies {
        let want = replay(store.registry(), &h2, &log2[..ply as usize]).unwrap();
        assert_eq!(
            store.state_at(id, ply).unwrap().encode(),
            want.encode(),
            "ply {ply}"
        );
    }
    drop(store);

    let store = open_dense(dir.path());
    assert_eq!(store.header(id).unwrap().revision, 2);
    assert_eq!(store.entries(id, 0, h2.plies).unwrap(), log2);
    assert_eq!(store.state_at(id, h2.plies).unwrap().encode(), end);
    assert_eq!(store.revised_games().unwrap(), vec![(id, 2)]);
    // An online backup keeps the revisions: the copy reads as the store does.
    let copy = dir.path().join("copy");
    store.backup_to(&copy).unwrap();
    let notes = store.journal(id).unwrap();
    drop(store);
    let copy = open_dense(&copy);
    assert_eq!(copy.header(id).unwrap().revision, 2);
    assert_eq!(copy.entries(id, 0, h2.plies).unwrap(), log2);
    assert_eq!(copy.journal(id).unwrap(), notes);
    assert_eq!(copy.revised_games().unwrap(), vec![(id, 2)]);
}

#[test]
fn a_sealed_game_is_corrected_like_one_played_here() {
    let dir = tempfile::tempdir().unwrap();
    let played = open(&dir.path().join("a"));
    let (id, found) = finished_with_corrections(&played, 11);
    let line = serde_json::to_string(&played.record(id).unwrap()).unwrap();
    let sealed = open(&dir.path().join("b"));
    sealed.import_line(1, &line).unwrap();
    let (p, m) = found[0].clone();
    for s in [&played, &sealed] {
        s.correct(correction(id, vec![(p, m.clone())], "typo"))
            .unwrap();
    }
    let plies = played.header(id).unwrap().plies;
    assert_eq!(
        sealed.entries(id, 0, plies).unwrap(),
        played.entries(id, 0, plies).unwrap()
    );
    for ply in 0..=plies {
        assert_eq!(
            sealed.state_at(id, ply).unwrap().encode(),
            played.state_at(id, ply).unwrap().encode(),
            "ply {ply}"
        );
    }
    drop(sealed);
    let sealed = open(&dir.path().join("b"));
    assert_eq!(
        sealed.entries(id, 0, plies).unwrap(),
        played.entries(id, 0, plies).unwrap()
    );
}

#[test]
fn a_refused_chance_entry_is_named_and_a_game_keeps_at_most_its_revisions() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let (id, found) = finished_with_corrections(&store, 5);
    let h = store.header(id).unwrap();
    let log = store.entries(id, 0, h.plies).unwrap();
    let (p, m) = found[0].clone();
    let first_chance_after = log
        .iter()
        .find(|e| e.actor == Actor::Dealer && e.ply > 0)
        .unwrap()
        .ply;
    // The other refusals are the conformance suite's, on every backend
    // (`store_conformance::checks::refused_corrections_write_nothing`).
    // A chance entry is refused as the seed's, by its entry number.
    let err = store
        .correct(correction(
            id,
            vec![(first_chance_after, m.clone())],
            "typo",
        ))
        .unwrap_err();
    assert!(
        err.to_string()
            .contains(&format!("entry {}", first_chance_after + 1))
            && err.to_string().contains("seed"),
        "{err}"
    );
    // A game keeps at most MAX_REVISIONS revisions: back and forth to it, then no more.
    let texts = [m.clone(), log[p as usize].notation.clone()];
    for r in 0..store::revision::MAX_REVISIONS {
        let text = texts[r as usize % 2].clone();
        store
            .correct(correction(id, vec![(p, text)], "again"))
            .unwrap();
    }
    let notes = store.journal(id).unwrap();
    let err = store
        .correct(correction(id, vec![(p, texts[0].clone())], "once more"))
        .unwrap_err();
    assert_eq!(err.code(), "CORRECTION_REFUSED");
    assert!(err.to_string().contains("the most a game keeps"), "{err}");
    assert_eq!(store.journal(id).unwrap(), notes, "nothing written");
}

/// The record before a point a takeback went back to stands: the withdrawn moves were played
/// on it (and are shown replayed there). Entries from that point on may be corrected.
#[test]
fn entries_before_a_takeback_point_are_not_corrected() {
    use store::journal::{NewNote, NoteRequest};
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let id = new_game(&store, 2, 23);
    // Play until the line ends with two seats' moves, then the recorder takes one back.
    let to_ply = loop {
        play_out(&store, id, 3, 1);
        let h = store.header(id).unwrap();
        let line = store.entries(id, 0, h.plies).unwrap();
        if h.plies > 10
            && line[line.len() - 2..]
                .iter()
                .all(|e| e.actor != Actor::Dealer)
        {
            break h.plies - 1;
        }
    };
    store
        .write_note(NewNote {
            game: id,
            by: Author::Recorder,
            at: t0() + Duration::hours(1),
            request: NoteRequest::AskTakeback {
                to_ply,
                accepted_by: vec![],
            },
        })
        .unwrap();
    play_out(&store, id, 3, 2000);
    let h = store.header(id).unwrap();
    assert_eq!(h.status, store::Status::Finished);
    let notes = store.journal(id).unwrap();
    let entries = store.entries(id, 0, h.plies).unwrap();
    // Every seat's entry before the point, changed to another legal move, is refused as such.
    let mut refused = 0;
    for e in entries[..to_ply as usize]
        .iter()
        .filter(|e| e.actor != Actor::Dealer)
    {
        let state = store.state_at(id, e.ply).unwrap();
        let Some(m) = state.legal_moves().into_iter().find(|m| *m != e.notation) else {
            continue;
        };
        let err = store
            .correct(correction(id, vec![(e.ply, m)], "typo"))
            .unwrap_err();
        assert_eq!(err.code(), "CORRECTION_REFUSED");
        assert!(err.to_string().contains("takeback request 0"), "{err}");
        refused += 1;
    }
    assert!(refused > 0);
    assert_eq!(store.journal(id).unwrap(), notes, "nothing written");
    // From the point on, the record takes corrections as any other.
    let later = entries[to_ply as usize..]
        .iter()
        .rev()
        .filter(|e| e.actor != Actor::Dealer)
        .find_map(|e| {
            let state = store.state_at(id, e.ply).unwrap();
            state.legal_moves().into_iter().find_map(|m| {
                let c = correction(id, vec![(e.ply, m.clone())], "typo");
                (m != e.notation
                    && plan_correction(store.registry(), 32, &h, &notes, &entries, &c).is_ok())
                .then_some(c)
            })
        })
        .expect("a correctable entry after the takeback point");
    assert!(later.changes[0].0 >= to_ply);
    store.correct(later).unwrap();
    assert_eq!(store.header(id).unwrap().revision, 1);
}

/// The records of the write-ahead log's current epoch, read from a copy of the file (the store
/// keeps it open).
fn logged(dir: &std::path::Path) -> Vec<Vec<store::wal::WalWrite>> {
    let copy = tempfile::tempdir().unwrap();
    let path = copy.path().join("ludolog.wal");
    std::fs::copy(dir.join("ludolog.wal"), &path).unwrap();
    store::wal::WalFile::open(&path, store::wal::CAPACITY)
        .unwrap()
        .1
}

/// A correction rewrites keys that earlier records of the log wrote (the entry, its snapshots,
/// the revision). Were it logged only after sled has it, sled could keep it through a crash
/// whose log ends before its record, and the replay of those earlier records would undo it:
/// a journal naming the later revision over a header and line back at the earlier one
/// (`tests/crash.rs` found that state). So it is logged before sled has it as well as after: in the log, the
/// correction's record comes twice, and a store reopened from sled holding the correction and
/// a log holding everything up to the record written before it ends at the correction.
#[test]
fn a_correction_is_in_the_log_before_sled_has_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let (id, found) = finished_with_corrections(&store, 5);
    let (p, m) = found[0].clone();
    store
        .correct(correction(id, vec![(p, m.clone())], "typo"))
        .unwrap();
    let before = logged(dir.path());
    let (p2, m2) = found[1].clone();
    let c = store
        .correct(correction(id, vec![(p2, m2.clone())], "second look"))
        .unwrap();
    assert_eq!(c.header.revision, 2);
    let after = logged(dir.path());
    let new: Vec<_> = after[before.len()..].to_vec();
    assert_eq!(
        new.len(),
        2,
        "the correction's record, before and after sled has it"
    );
    assert_eq!(new[0], new[1]);
    // The crash the first of them guards against: sled kept the correction, the log ends with
    // its record written ahead (the earlier correction's record still in it, to replay).
    let plies = store.header(id).unwrap().plies;
    let line = store.entries(id, 0, plies).unwrap();
    drop(store);
    let crashed = tempfile::tempdir().unwrap();
    let reopened = {
        // sled as the correction left it (a clean drop flushed it), and a log of this epoch's
        // records up to the one written ahead, as a crash before the second would leave.
        let copy = |from: &std::path::Path, to: &std::path::Path| {
            for e in walk(from) {
                let rel = e.strip_prefix(from).unwrap();
                let dest = to.join(rel);
                std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
                std::fs::copy(&e, &dest).unwrap();
            }
        };
        copy(dir.path(), crashed.path());
        let wal = crashed.path().join("ludolog.wal");
        std::fs::remove_file(&wal).unwrap();
        let (mut log, none) = store::wal::WalFile::open(&wal, store::wal::CAPACITY).unwrap();
        assert!(none.is_empty());
        for r in &after[..before.len() + 1] {
            log.write_batch(&store::wal::record(r)).unwrap();
        }
        drop(log);
        open(crashed.path())
    };
    let h = reopened.header(id).unwrap();
    assert_eq!(h.revision, 2);
    assert_eq!(store::revision::latest(&reopened.journal(id).unwrap()), 2);
    assert_eq!(reopened.entries(id, 0, plies).unwrap(), line);
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
