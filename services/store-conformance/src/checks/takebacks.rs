//! Takebacks (`store::journal`), on every backend: a request reaches back exactly as far as
//! the last chance entry allows; seats answer it, the asker may withdraw it, a line that has
//! moved on refuses it; bots' acceptances are written with the ask; the line, the journal and
//! the state agree after it; the same move played again where it was withdrawn is kept; a
//! retry under the key of a withdrawn move is told so; every refusal writes nothing.

use crate::{new_game, play_out, t0, Backend};
use chrono::Duration;
use rules_core::{Actor, Seat};
use store::journal::TakebackOutcome;
use store::journal::{annotations, takebacks, Author, Glyph, NewNote, NoteBody, NoteRequest};
use store::{Append, GameId, GameLog, StoreError};

/// Plays until the line ends with two seats' moves after its last chance entry; returns its
/// length.
pub fn play_to_two_moves(store: &dyn GameLog, id: GameId) -> u32 {
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

/// The recorder takes the line back to `to_ply` (carried out at once, or refused).
pub fn recorder_takes_back(
    store: &dyn GameLog,
    id: GameId,
    to_ply: u32,
) -> store::Result<store::journal::Noted> {
    store.write_note(note(
        Author::Recorder,
        id,
        NoteRequest::AskTakeback {
            to_ply,
            accepted_by: vec![],
        },
    ))
}

pub fn note(by: Author, id: GameId, request: NoteRequest) -> NewNote {
    NewNote {
        game: id,
        by,
        at: t0() + Duration::hours(1),
        request,
    }
}

fn replay(
    store: &dyn GameLog,
    id: GameId,
    e: &store::Entry,
    key: Option<&str>,
) -> store::Result<store::Appended> {
    store.append(Append {
        game: id,
        expected_ply: e.ply,
        actor: e.actor,
        notation: &e.notation,
        key,
        at: e.recorded_at,
        entered_by: None,
    })
}

/// For every ply a takeback could aim at, the recorder's request is carried out exactly when
/// no chance entry lies between it and the end; every refusal writes nothing. The one carried
/// out leaves the line shorter by the entries its note keeps; the line, the journal and the
/// state read the same through the store; the very moves withdrawn, played again, are kept
/// (a new line, not duplicates of the old one), and the game plays on.
pub fn a_takeback_withdraws_up_to_the_last_chance_entry(new: &dyn Fn() -> Backend) {
    let store = new();
    let id = new_game(&*store, 2, 42);
    let plies = play_to_two_moves(&*store, id);
    let line = store.entries(id, 0, plies).unwrap();
    let last_chance = line.iter().rposition(|e| e.actor == Actor::Dealer).unwrap() as u32;
    let to = last_chance + 1;
    for aim in 0..to {
        let got = recorder_takes_back(&*store, id, aim);
        match got {
            Err(StoreError::TakebackRefused(why)) => assert!(why.contains("chance"), "{why}"),
            other => panic!("to {aim}: {other:?}"),
        }
    }
    assert_eq!(store.journal(id).unwrap(), vec![], "nothing written");
    assert_eq!(store.header(id).unwrap().plies, plies);

    let noted = recorder_takes_back(&*store, id, to).unwrap();
    assert_eq!(noted.withdrawn_to, Some(to));
    assert_eq!(noted.header.plies, to);
    let h = store.header(id).unwrap();
    assert_eq!((h.plies, h.status), (to, store::Status::Active));
    assert_eq!(store.entries(id, 0, plies).unwrap(), line[..to as usize]);
    let journal = store.journal(id).unwrap();
    assert_eq!(journal.len(), 2, "asked, then withdrawn: {journal:?}");
    assert_eq!(journal, noted.notes);
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
    assert!(matches!(
        store.state_at(id, to + 1),
        Err(StoreError::NoSuchPly { .. })
    ));

    // The same moves again, at the same plies and times: a new line, kept.
    for e in &line[to as usize..] {
        let again = replay(&*store, id, e, None).unwrap();
        assert!(!again.replayed, "ply {}", e.ply);
    }
    assert_eq!(store.entries(id, 0, plies).unwrap(), line);
    assert_eq!(store.header(id).unwrap().plies, plies);
    assert!(play_out(&*store, id, 5, 3) > plies, "the line goes on");
}

/// A move appended under an idempotency key and then taken back: a retry under the key by
/// whoever entered it is told the move was withdrawn, by anyone else that the key is taken;
/// neither writes anything.
pub fn a_retry_of_a_withdrawn_move_is_told_so(new: &dyn Fn() -> Backend) {
    let store = new();
    let id = new_game(&*store, 2, 42);
    let plies = play_to_two_moves(&*store, id);
    let last = store.entries(id, plies - 1, plies).unwrap().remove(0);
    recorder_takes_back(&*store, id, plies - 1).unwrap();
    let keyed = replay(&*store, id, &last, Some("k1")).unwrap();
    assert!(!keyed.replayed);
    // The retry of a keyed move that stands is its first answer.
    assert!(replay(&*store, id, &last, Some("k1")).unwrap().replayed);
    recorder_takes_back(&*store, id, plies - 1).unwrap();
    match replay(&*store, id, &last, Some("k1")) {
        Err(StoreError::Withdrawn { game, ply }) => assert_eq!((game, ply), (id, plies - 1)),
        other => panic!("{other:?}"),
    }
    let stranger = store.append(Append {
        entered_by: Some(store::EnteredBy::Recorder),
        ..Append {
            game: id,
            expected_ply: last.ply,
            actor: last.actor,
            notation: &last.notation,
            key: Some("k1"),
            at: last.recorded_at,
            entered_by: None,
        }
    });
    assert!(
        matches!(stranger, Err(StoreError::KeyTaken { .. })),
        "{stranger:?}"
    );
    assert_eq!(
        store.header(id).unwrap().plies,
        plies - 1,
        "nothing written"
    );
    // The move itself, under a new key, is kept.
    assert!(!replay(&*store, id, &last, Some("k2")).unwrap().replayed);
}

/// A seat's request waits on the other seat; the asker may not answer it; a refusal closes
/// it; a request whose line has moved on is not carried out; annotations on any position are
/// kept in order with their authors, and a takeback marks those on positions it withdrew.
pub fn seats_answer_takebacks_and_annotations_on_withdrawn_plies_are_marked(
    new: &dyn Fn() -> Backend,
) {
    let store = new();
    let id = new_game(&*store, 2, 42);
    let plies = play_to_two_moves(&*store, id);
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

    let ask = |by: Author| {
        store
            .write_note(note(
                by,
                id,
                NoteRequest::AskTakeback {
                    to_ply: to,
                    accepted_by: vec![],
                },
            ))
            .unwrap()
    };
    let asked = ask(Author::Seat(Seat(0)));
    assert_eq!(asked.withdrawn_to, None);
    let request = asked.notes[0].seq;
    let answer = |by: Author, request: u32, accept: bool| {
        store.write_note(note(
            by,
            id,
            NoteRequest::AnswerTakeback { request, accept },
        ))
    };
    assert!(matches!(
        answer(Author::Seat(Seat(0)), request, true),
        Err(StoreError::NotAsked(_))
    ));
    assert!(matches!(
        answer(Author::Analyst("Ana".into()), request, true),
        Err(StoreError::NotAsked(_))
    ));
    let done = answer(Author::Seat(Seat(1)), request, true).unwrap();
    assert_eq!(done.withdrawn_to, Some(to));
    assert_eq!(store.header(id).unwrap().plies, to);
    assert!(matches!(
        answer(Author::Seat(Seat(1)), request, true),
        Err(StoreError::NotAsked(_))
    ));

    // The asker may take its own request back by refusing it.
    replay(&*store, id, &line[to as usize], None).unwrap();
    let request = ask(Author::Seat(Seat(1))).notes[0].seq;
    let cancelled = answer(Author::Seat(Seat(1)), request, false).unwrap();
    assert_eq!(cancelled.withdrawn_to, None);
    let states = takebacks(&store.journal(id).unwrap());
    assert_eq!(
        states.last().map(|t| t.outcome),
        Some(TakebackOutcome::Refused)
    );
    assert_eq!(store.header(id).unwrap().plies, to + 1);

    // A request whose line has moved on since it was asked is not carried out.
    let request = ask(Author::Seat(Seat(0))).notes[0].seq;
    replay(&*store, id, &line[to as usize + 1], None).unwrap();
    match answer(Author::Seat(Seat(1)), request, true) {
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

/// Seats that accept with the ask (the server's bots) are written in the same write as the
/// request: with every asked seat among them the line is taken back at once; with some, the
/// request waits on the rest with their acceptances recorded; an accepting seat that was not
/// asked (the asker itself, a seat twice, a seat the game lacks, any seat beside the
/// recorder's request) is refused and nothing is written.
pub fn seats_accepting_with_the_ask_are_written_with_it(new: &dyn Fn() -> Backend) {
    let store = new();
    let id = new_game(&*store, 3, 7);
    let plies = play_to_two_moves(&*store, id);
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
    let t = takebacks(&store.journal(id).unwrap());
    assert_eq!(t[0].accepted, vec![Seat(2)]);
    assert_eq!(t[0].outcome, TakebackOutcome::Open);
    // The accepting seat cannot accept again; the asker closes it by refusing.
    let answer = |by: Author, accept: bool| {
        store.write_note(note(
            by,
            id,
            NoteRequest::AnswerTakeback { request, accept },
        ))
    };
    let again = answer(Author::Seat(Seat(2)), true);
    assert!(matches!(again, Err(StoreError::NotAsked(_))), "{again:?}");
    answer(Author::Seat(Seat(0)), false).unwrap();

    // Every asked seat accepts with the ask: carried out in the same write.
    let all = ask(Author::Seat(Seat(1)), vec![Seat(0), Seat(2)]).unwrap();
    assert_eq!(all.withdrawn_to, Some(to));
    assert_eq!(all.header.plies, to);
    assert_eq!(store.header(id).unwrap().plies, to);
    assert_eq!(store.entries(id, 0, plies).unwrap().len() as u32, to);
    let t = takebacks(&store.journal(id).unwrap());
    assert_eq!(t.len(), 2);
    assert_eq!(t[0].outcome, TakebackOutcome::Refused);
    assert_eq!(t[1].accepted, vec![Seat(0), Seat(2)]);
    assert_eq!(t[1].outcome, TakebackOutcome::Withdrawn);
}
