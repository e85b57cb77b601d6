//! Checks of who a journal and an idempotency key answer to, and how much a journal holds
//! (issue 36): the same on every backend.

use crate::{new_game, t0, Backend};
use rules_core::{Actor, ToAct};
use store::{Append, EnteredBy};

/// An idempotency key belongs to whoever entered the move under it. The seat's own retry
/// (and one that does not say who enters it, as the store's tools send) is replayed; the
/// recorder reusing the seat's key gets one answer, `IDEMPOTENCY_KEY_TAKEN` with the same
/// message, whether it sends the seat's move or another (it would otherwise confirm a guess
/// of a hidden move), and nothing is written. And the other way round: a key the recorder
/// used answers the seat the same way.
pub fn an_idempotency_key_belongs_to_whoever_entered_its_move(new: &dyn Fn() -> Backend) {
    let store = new();
    let id = new_game(&*store, 2, 9);
    let move_at = |ply: u32| {
        let s = store.state_at(id, ply).unwrap();
        let ToAct::Seat(seat) = s.to_act() else {
            panic!("a seat moves at ply {ply}")
        };
        let moves = s.legal_moves();
        (seat, moves[0].clone(), moves[1].clone())
    };
    let (seat, right, wrong) = move_at(1);
    let by_seat = Append {
        game: id,
        expected_ply: 1,
        actor: Actor::Seat(seat),
        notation: &right,
        key: Some("seat-key"),
        at: t0(),
        entered_by: Some(EnteredBy::Seat(seat)),
    };
    let first = store.append(by_seat.clone()).unwrap();
    let plies = store.header(id).unwrap().plies;
    let refused = |req: Append<'_>| store.append(req).unwrap_err();
    let as_recorder = Append {
        entered_by: Some(EnteredBy::Recorder),
        ..by_seat.clone()
    };
    let guesses = [
        refused(as_recorder.clone()),
        refused(Append {
            notation: &wrong,
            ..as_recorder.clone()
        }),
        refused(Append {
            notation: "not even notation",
            expected_ply: plies,
            ..as_recorder.clone()
        }),
    ];
    for e in &guesses {
        assert_eq!(e.code(), "IDEMPOTENCY_KEY_TAKEN", "{e}");
        assert_eq!(
            e.to_string(),
            guesses[0].to_string(),
            "one answer to every guess"
        );
    }
    assert_eq!(store.header(id).unwrap().plies, plies, "nothing written");
    let again = store.append(by_seat.clone()).unwrap();
    assert!(again.replayed);
    assert_eq!(again.entries, first.entries);
    let unsaid = store
        .append(Append {
            entered_by: None,
            ..by_seat
        })
        .unwrap();
    assert!(unsaid.replayed, "unsaid is the seat itself");

    // A key the recorder used is the recorder's.
    let (seat, right, _) = move_at(plies);
    let by_recorder = Append {
        game: id,
        expected_ply: plies,
        actor: Actor::Seat(seat),
        notation: &right,
        key: Some("recorder-key"),
        at: t0(),
        entered_by: Some(EnteredBy::Recorder),
    };
    store.append(by_recorder.clone()).unwrap();
    let plies = store.header(id).unwrap().plies;
    for by in [Some(EnteredBy::Seat(seat)), None] {
        let e = refused(Append {
            entered_by: by,
            ..by_recorder.clone()
        });
        assert_eq!(e.code(), "IDEMPOTENCY_KEY_TAKEN", "{e}");
    }
    assert!(store.append(by_recorder).unwrap().replayed);
    assert_eq!(store.header(id).unwrap().plies, plies, "nothing written");
}

/// A game's journal holds at most `Config::max_journal_bytes` (the default here, 1 MiB):
/// annotations are kept until the next would pass it, which is refused (`LIMIT_EXCEEDED`)
/// and writes nothing; the notes kept are all there, unchanged.
pub fn a_journal_refuses_a_note_past_its_byte_limit_and_writes_nothing(new: &dyn Fn() -> Backend) {
    use store::journal::{note_bytes, Author, JournalSize, NewNote, NoteRequest};
    let store = new();
    let id = new_game(&*store, 2, 8);
    let limit = store::Config::default().max_journal_bytes;
    // The longest comment there is, in characters of four bytes.
    let comment = "\u{1d11e}".repeat(store::journal::MAX_COMMENT);
    let annotate = |comment: &str| {
        store.write_note(NewNote {
            game: id,
            by: Author::Seat(rules_core::Seat(0)),
            at: t0(),
            request: NoteRequest::Annotate {
                ply: 1,
                glyph: None,
                comment: comment.into(),
            },
        })
    };
    let mut written = 0;
    let refusal = loop {
        match annotate(&comment) {
            Ok(_) => written += 1,
            Err(e) => break e,
        }
        assert!(written < 1000, "no limit was met");
    };
    assert_eq!(refusal.code(), "LIMIT_EXCEEDED", "{refusal}");
    let notes = store.journal(id).unwrap();
    assert_eq!(notes.len(), written, "nothing written by the refusal");
    let size = JournalSize::of(&notes);
    let next = note_bytes(&notes[notes.len() - 1]);
    assert!(size.bytes <= limit && size.bytes + next > limit, "{size:?}");
    assert!(
        written > 100,
        "a megabyte is some hundred of the longest comments"
    );
    // A shorter note that fits is still kept.
    let room = limit - size.bytes;
    if room > 400 {
        annotate("short").unwrap();
        assert_eq!(store.journal(id).unwrap().len(), written + 1);
    }
}
