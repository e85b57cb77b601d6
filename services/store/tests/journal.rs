//! Journals in the embedded store (`store::journal`): a takeback reaches back exactly as far
//! as the last chance entry allows, is durable with the line it shortens (read back after the
//! store is reopened), and annotations are kept in order.

use chrono::Duration;
use rules_core::{Actor, Seat};
use store::journal::{annotations, Author, Glyph, NewNote, NoteBody, NoteRequest};
use store::{Store, StoreError};
use store_conformance::{new_game, play_out, registry, t0};

fn open(dir: &std::path::Path) -> Store {
    Store::open(dir, registry(), store::Config::default()).unwrap()
}

/// Plays until the line ends with two seats' moves after its last chance entry; returns its
/// length.
fn play_to_two_moves(store: &Store, id: store::GameId) -> u32 {
    for i in 0..300 {
        let h = store.header(id).unwrap();
        let line = store.entries(id, 0, h.plies).unwrap();
        let last = line.iter().rposition(|e| e.actor == Actor::Dealer).unwrap() as u32;
        if i >= 10 && h.plies >= last + 3 {
            return h.plies;
        }
        play_out(store, id, i, 1);
    }
    panic!("no two seats' moves in a row");
}

fn note(by: Author, id: store::GameId, request: NoteRequest) -> NewNote {
    NewNote {
        game: id,
        by,
        at: t0() + Duration::hours(1),
        request,
    }
}

/// For every ply a takeback could aim at, the recorder's request is carried out exactly when
/// no chance entry lies between it and the end; every refusal writes nothing. The one
/// carried out leaves the line shorter by the entries its note keeps, and after a reopen the
/// line, the journal and the state all read the same.
#[test]
fn a_takeback_withdraws_up_to_the_last_chance_entry_and_is_durable() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let id = new_game(&store, 2, 42);
    let plies = play_to_two_moves(&store, id);
    let line = store.entries(id, 0, plies).unwrap();
    let last_chance = line.iter().rposition(|e| e.actor == Actor::Dealer).unwrap() as u32;
    for to in 0..plies {
        let got = store.write_note(note(
            Author::Recorder,
            id,
            NoteRequest::AskTakeback {
                to_ply: to,
                accepted_by: vec![],
            },
        ));
        if to <= last_chance {
            match got {
                Err(StoreError::TakebackRefused(why)) => {
                    assert!(why.contains("chance"), "{why}")
                }
                other => panic!("to {to}: {other:?}"),
            }
            assert_eq!(store.journal(id).unwrap(), vec![], "nothing written");
            assert_eq!(store.header(id).unwrap().plies, plies);
            continue;
        }
        let noted = got.unwrap();
        assert_eq!(noted.withdrawn_to, Some(to));
        assert_eq!(noted.header.plies, to);
        break;
    }
    let to = last_chance + 1;
    let expect_state = store.state_at(id, to).unwrap().encode();
    drop(store);

    let store = open(dir.path());
    assert_eq!(store.header(id).unwrap().plies, to);
    assert_eq!(store.entries(id, 0, plies).unwrap(), line[..to as usize]);
    assert_eq!(store.state_at(id, to).unwrap().encode(), expect_state);
    let journal = store.journal(id).unwrap();
    assert_eq!(journal.len(), 2, "asked, then withdrawn: {journal:?}");
    match &journal[1].body {
        NoteBody::Withdrawn {
            request,
            to_ply,
            entries,
        } => {
            assert_eq!((*request, *to_ply), (0, to));
            assert_eq!(entries[..], line[to as usize..]);
        }
        other => panic!("{other:?}"),
    }
    // The line goes on from where it was taken back to.
    assert!(play_out(&store, id, 5, 3) > to);
}

/// A seat's request waits on the other seat; the asker may not answer it; a refusal closes
/// it; annotations on any position are kept in order with their authors, and a takeback marks
/// those on positions it withdrew.
#[test]
fn seats_answer_requests_and_annotations_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let id = new_game(&store, 2, 42);
    let plies = play_to_two_moves(&store, id);
    let line = store.entries(id, 0, plies).unwrap();
    let to = line.iter().rposition(|e| e.actor == Actor::Dealer).unwrap() as u32 + 1;
    let annotate = |by: Author, ply: u32, comment: &str| {
        store.write_note(note(
            by,
            id,
            NoteRequest::Annotate {
                ply,
                glyph: Some(Glyph::Interesting),
                comment: comment.into(),
            },
        ))
    };
    annotate(Author::Seat(Seat(0)), plies, "at the end").unwrap();
    annotate(Author::Analyst("Ana".into()), 0, "at the start").unwrap();
    assert!(matches!(
        annotate(Author::Admin, plies + 1, "past the end"),
        Err(StoreError::NoSuchPly { .. })
    ));

    let ask = store
        .write_note(note(
            Author::Seat(Seat(0)),
            id,
            NoteRequest::AskTakeback {
                to_ply: to,
                accepted_by: vec![],
            },
        ))
        .unwrap();
    assert_eq!(ask.withdrawn_to, None);
    let request = ask.notes[0].seq;
    let answer = |by: Author, accept: bool| {
        store.write_note(note(
            by,
            id,
            NoteRequest::AnswerTakeback { request, accept },
        ))
    };
    assert!(matches!(
        answer(Author::Seat(Seat(0)), true),
        Err(StoreError::NotAsked(_))
    ));
    assert!(matches!(
        answer(Author::Analyst("Ana".into()), true),
        Err(StoreError::NotAsked(_))
    ));
    let done = answer(Author::Seat(Seat(1)), true).unwrap();
    assert_eq!(done.withdrawn_to, Some(to));
    assert_eq!(store.header(id).unwrap().plies, to);
    assert!(matches!(
        answer(Author::Seat(Seat(1)), true),
        Err(StoreError::NotAsked(_))
    ));

    // The asker may take its own request back by refusing it.
    let e = &line[to as usize];
    store
        .append(store::Append {
            game: id,
            expected_ply: to,
            actor: e.actor,
            notation: &e.notation,
            key: None,
            at: t0() + Duration::hours(2),
            entered_by: None,
        })
        .unwrap();
    let again = store
        .write_note(note(
            Author::Seat(Seat(1)),
            id,
            NoteRequest::AskTakeback {
                to_ply: to,
                accepted_by: vec![],
            },
        ))
        .unwrap();
    let request = again.notes[0].seq;
    let cancelled = store
        .write_note(note(
            Author::Seat(Seat(1)),
            id,
            NoteRequest::AnswerTakeback {
                request,
                accept: false,
            },
        ))
        .unwrap();
    assert_eq!(cancelled.withdrawn_to, None);
    let states = store::journal::takebacks(&store.journal(id).unwrap());
    assert_eq!(
        states.last().map(|t| t.outcome),
        Some(store::journal::TakebackOutcome::Refused)
    );
    assert_eq!(store.header(id).unwrap().plies, to + 1);

    // A request whose line has moved on since it was asked is not carried out.
    let asked = store
        .write_note(note(
            Author::Seat(Seat(0)),
            id,
            NoteRequest::AskTakeback {
                to_ply: to,
                accepted_by: vec![],
            },
        ))
        .unwrap();
    let e = &line[to as usize + 1];
    store
        .append(store::Append {
            game: id,
            expected_ply: to + 1,
            actor: e.actor,
            notation: &e.notation,
            key: None,
            at: t0() + Duration::hours(3),
            entered_by: None,
        })
        .unwrap();
    let moved = store.write_note(note(
        Author::Seat(Seat(1)),
        id,
        NoteRequest::AnswerTakeback {
            request: asked.notes[0].seq,
            accept: true,
        },
    ));
    match moved {
        Err(StoreError::TakebackRefused(why)) => assert!(why.contains("moved on"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(store.header(id).unwrap().plies, to + 2);

    let notes = annotations(&store.journal(id).unwrap());
    let kept: Vec<(u32, &str, String, bool)> = notes
        .iter()
        .map(|a| (a.ply, a.comment.as_str(), a.by.to_string(), a.withdrawn))
        .collect();
    assert_eq!(
        kept,
        [
            (plies, "at the end", "0".to_string(), true),
            (0, "at the start", "analyst:Ana".to_string(), false),
        ]
    );
}

/// A journal is bounded: past `MAX_NOTES` a note is refused and nothing is written.
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

/// Seats that accept with the ask (the server's bots) are written in the same write as the
/// request: with every asked seat among them the line is taken back at once; with some, the
/// request waits on the rest with their acceptances recorded; an accepting seat that was not
/// asked (the asker itself, a seat twice, a seat the game lacks, any seat beside the
/// recorder's request) is refused and nothing is written. All of it reads the same after a
/// reopen.
#[test]
fn seats_accepting_with_the_ask_are_written_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let (id, to, plies) = {
        let store = open(dir.path());
        let id = new_game(&store, 3, 7);
        let plies = play_to_two_moves(&store, id);
        let to = plies - 1;
        let ask = |by: Author, accepted_by: Vec<Seat>| {
            store.write_note(note(
                by,
                id,
                NoteRequest::AskTakeback {
                    to_ply: to,
                    accepted_by,
                },
            ))
        };
        for (by, bad) in [
            (Author::Seat(Seat(0)), vec![Seat(0)]),
            (Author::Seat(Seat(0)), vec![Seat(1), Seat(1)]),
            (Author::Seat(Seat(0)), vec![Seat(3)]),
            (Author::Recorder, vec![Seat(1)]),
        ] {
            match ask(by.clone(), bad.clone()) {
                Err(StoreError::BadInput(why)) => assert!(why.contains("accept"), "{why}"),
                other => panic!("{by} with {bad:?}: {other:?}"),
            }
            assert_eq!(store.journal(id).unwrap(), vec![], "nothing written");
            assert_eq!(store.header(id).unwrap().plies, plies);
        }

        // One of the two asked seats accepts with the ask: the request waits on the other.
        let part = ask(Author::Seat(Seat(0)), vec![Seat(2)]).unwrap();
        assert_eq!(part.withdrawn_to, None);
        let request = part.notes[0].seq;
        assert_eq!(part.notes.len(), 2);
        assert_eq!(part.notes[1].by, Author::Seat(Seat(2)));
        assert_eq!(
            part.notes[1].body,
            NoteBody::TakebackAnswered {
                request,
                accept: true
            }
        );
        let t = store::journal::takebacks(&store.journal(id).unwrap());
        assert_eq!(t[0].accepted, vec![Seat(2)]);
        assert_eq!(t[0].outcome, store::journal::TakebackOutcome::Open);
        // The accepting seat cannot accept again; the asker closes it by refusing.
        let again = store.write_note(note(
            Author::Seat(Seat(2)),
            id,
            NoteRequest::AnswerTakeback {
                request,
                accept: true,
            },
        ));
        assert!(matches!(again, Err(StoreError::NotAsked(_))), "{again:?}");
        store
            .write_note(note(
                Author::Seat(Seat(0)),
                id,
                NoteRequest::AnswerTakeback {
                    request,
                    accept: false,
                },
            ))
            .unwrap();

        // Every asked seat accepts with the ask: carried out in the same write.
        let all = ask(Author::Seat(Seat(1)), vec![Seat(0), Seat(2)]).unwrap();
        assert_eq!(all.withdrawn_to, Some(to));
        assert_eq!(all.header.plies, to);
        assert_eq!(store.header(id).unwrap().plies, to);
        (id, to, plies)
    };
    let store = open(dir.path());
    assert_eq!(store.header(id).unwrap().plies, to);
    assert_eq!(store.entries(id, 0, plies).unwrap().len() as u32, to);
    let t = store::journal::takebacks(&store.journal(id).unwrap());
    assert_eq!(t.len(), 2);
    assert_eq!(t[0].outcome, store::journal::TakebackOutcome::Refused);
    assert_eq!(t[1].accepted, vec![Seat(0), Seat(2)]);
    assert_eq!(t[1].outcome, store::journal::TakebackOutcome::Withdrawn);
}
