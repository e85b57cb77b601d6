//! Journals in the embedded store (`store::journal`): a takeback is durable with the line it
//! shortens (read back after the store is reopened), and a journal holds at most its bound.
//! What takebacks do on every backend is the conformance suite's (`checks::takebacks`).

use rules_core::Actor;
use store::journal::{Author, Glyph, NoteBody, NoteRequest};
use store::{Store, StoreError};
use store_conformance::checks::{note, play_to_two_moves, recorder_takes_back};
use store_conformance::{new_game, play_out, registry};

fn open(dir: &std::path::Path) -> Store {
    Store::open(dir, registry(), store::Config::default()).unwrap()
}

/// A takeback carried out leaves the line shorter by the entries its note keeps, and after a
/// reopen the line, the journal and the state all read as before it.
#[test]
fn a_takeback_is_durable() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let id = new_game(&store, 2, 42);
    let plies = play_to_two_moves(&store, id);
    let line = store.entries(id, 0, plies).unwrap();
    let to = line.iter().rposition(|e| e.actor == Actor::Dealer).unwrap() as u32 + 1;
    let noted = recorder_takes_back(&store, id, to).unwrap();
    assert_eq!(noted.withdrawn_to, Some(to));
    let expect_state = store.state_at(id, to).unwrap().encode();
    drop(store);

    let store = open(dir.path());
    assert_eq!(store.header(id).unwrap().plies, to);
    assert_eq!(store.entries(id, 0, plies).unwrap(), line[..to as usize]);
    assert_eq!(store.state_at(id, to).unwrap().encode(), expect_state);
    let journal = store.journal(id).unwrap();
    assert_eq!(journal, noted.notes);
    match &journal[1].body {
        NoteBody::Withdrawn { entries, .. } => assert_eq!(entries[..], line[to as usize..]),
        other => panic!("{other:?}"),
    }
    // The line goes on from where it was taken back to.
    assert!(play_out(&store, id, 5, 3) > to);
}

#[test]
fn a_journal_holds_at_most_its_bound() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let id = new_game(&store, 2, 7);
    let annotate = || {
        store.write_note(note(
            Author::Admin,
            id,
            NoteRequest::Annotate {
                ply: 0,
                glyph: Some(Glyph::Good),
                comment: String::new(),
            },
        ))
    };
    for _ in 0..store::journal::MAX_NOTES {
        annotate().unwrap();
    }
    let e = annotate().unwrap_err();
    assert!(matches!(e, StoreError::JournalFull { .. }), "{e}");
    assert_eq!(e.code(), "LIMIT_EXCEEDED");
    assert_eq!(store.journal(id).unwrap().len(), store::journal::MAX_NOTES);
}
