//! Imported games written together (`Store::commit_imports`: one sled transaction for a batch)
//! are answered exactly as one by one: a game that exists by now, or a record naming the same
//! game as one before it in the batch, is refused alone, the others written; asked to stop at
//! a refusal, nothing after it is written.

mod support;

use serde_json::Value;
use store::{GameLog, Status};
use support::*;

/// Exported records of `n` finished games (ids rewritten to be distinct).
fn records(n: usize) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    (0..n)
        .map(|i| {
            let id = new_game(&store, 2 + (i % 3) as u8, 100 + i as u64);
            play_out(&store, id, i as u64, 10_000);
            let r: Value = serde_json::to_value(store.record(id).unwrap()).unwrap();
            assert_eq!(r["status"], "finished");
            r.to_string()
        })
        .collect()
}

fn prepared(store: &store::Store, lines: &[String]) -> Vec<store::portable::PreparedImport> {
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| store.prepare_import(i as u64 + 1, l).unwrap())
        .collect()
}

#[test]
fn a_batch_is_written_whole_and_each_record_answered() {
    let lines = records(5);
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let answers = store.commit_imports(prepared(&store, &lines), false);
    assert_eq!(answers.len(), 5);
    for (a, l) in answers.iter().zip(&lines) {
        let h = a.as_ref().unwrap();
        assert_eq!(h.status, Status::Finished);
        // What is stored is what was imported, and exports back as it came.
        let back = serde_json::to_value(store.record(h.id).unwrap()).unwrap();
        assert_eq!(back, serde_json::from_str::<Value>(l).unwrap());
    }
    assert_eq!(store.game_count(), 5);
}

#[test]
fn a_game_that_exists_is_refused_alone_and_the_rest_written() {
    let lines = records(4);
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    store.import_line(1, &lines[2]).unwrap();
    // The third exists; the fourth repeats the first.
    let batch = [
        lines[0].clone(),
        lines[1].clone(),
        lines[2].clone(),
        lines[0].clone(),
        lines[3].clone(),
    ];
    let answers = store.commit_imports(prepared(&store, &batch), false);
    let refused: Vec<usize> = (0..answers.len())
        .filter(|&i| answers[i].is_err())
        .collect();
    assert_eq!(refused, [2, 3]);
    for i in refused {
        let e = answers[i].as_ref().unwrap_err();
        assert!(e.reason.contains("already exists"), "{e}");
        assert_eq!(e.line, i as u64 + 1);
    }
    assert_eq!(store.game_count(), 4);
}

#[test]
fn asked_to_stop_at_a_refusal_nothing_after_it_is_written() {
    let lines = records(3);
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    store.import_line(1, &lines[1]).unwrap();
    let answers = store.commit_imports(prepared(&store, &lines), true);
    assert_eq!(
        answers.len(),
        2,
        "the first written, the second refused, the third not tried"
    );
    assert!(answers[0].is_ok() && answers[1].is_err());
    assert_eq!(store.game_count(), 2);
}
