//! Corrections of finished games (`store::revision`), on every backend: a correction is a new
//! revision whose log replays, every earlier revision stays readable from the journal, the
//! finish hooks run again for the new revision (so projections follow it), `revised_games`
//! names it, and every refusal writes nothing.

use crate::{new_game, play_out, t0, Backend};
use chrono::Duration;
use rules_core::{Actor, ToAct};
use std::sync::{Arc, Mutex};
use store::journal::Author;
use store::revision::{log_at, plan_correction, replay, revisions, Correction};
use store::{GameId, GameLog, StoreError};

/// An admin's correction of `changes` (ply, text) of game `id`, a day after [`t0`].
pub fn correction(id: GameId, changes: Vec<(u32, String)>, reason: &str) -> Correction {
    Correction {
        game: id,
        by: Author::Admin,
        at: t0() + Duration::days(1),
        changes,
        reason: reason.into(),
    }
}

/// A finished game and an entry its record still takes another text for (a legal move there
/// after which the rest still replays to the end), found from the end as a mistyped score
/// sheet would be.
fn finished_with_a_correction(store: &dyn GameLog, seed: u64) -> (GameId, u32, String) {
    let id = new_game(store, 2, seed);
    play_out(store, id, seed, 2000);
    let h = store.header(id).unwrap();
    assert_eq!(h.status, store::Status::Finished);
    let entries = store.entries(id, 0, h.plies).unwrap();
    for e in entries.iter().rev().filter(|e| e.actor != Actor::Dealer) {
        let state = store.state_at(id, e.ply).unwrap();
        for m in state.legal_moves() {
            if m == e.notation {
                continue;
            }
            let c = correction(id, vec![(e.ply, m.clone())], "typo");
            if plan_correction(store.registry(), 32, &h, &[], &entries, &c).is_ok() {
                return (id, e.ply, m);
            }
        }
    }
    panic!("seed {seed}: no correctable entry");
}

/// Waits (up to ten seconds: a shared store's hooks run from its follower) until `seen`
/// holds `want`.
fn eventually(seen: &Mutex<Vec<(GameId, u32)>>, want: (GameId, u32)) {
    let start = std::time::Instant::now();
    while !seen.lock().unwrap().contains(&want) {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "the hooks never ran for {want:?}: {:?}",
            seen.lock().unwrap()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

pub fn a_correction_is_a_new_revision_that_replays_and_projections_follow(
    new: &dyn Fn() -> Backend,
) {
    let store = new();
    let seen: Arc<Mutex<Vec<(GameId, u32)>>> = Arc::default();
    let into = seen.clone();
    store.on_finish(Arc::new(move |_, header, _, _| {
        into.lock().unwrap().push((header.id, header.revision));
        Ok(())
    }));
    let (id, p, m) = finished_with_a_correction(&*store, 7);
    eventually(&seen, (id, 0));
    let h0 = store.header(id).unwrap();
    let log0 = store.entries(id, 0, h0.plies).unwrap();
    let done = store
        .correct(correction(
            id,
            vec![(p, m.clone())],
            "score sheet: wrong move",
        ))
        .unwrap();
    assert_eq!(done.header.revision, 1);
    assert_eq!(store.header(id).unwrap().revision, 1);
    let log1 = store.entries(id, 0, h0.plies).unwrap();
    assert_eq!(log1[p as usize].notation, m);
    for (a, b) in log0.iter().zip(&log1) {
        if a.ply != p {
            assert_eq!(a, b, "only the corrected entry changes");
        }
    }
    // The latest revision's positions are its replay's.
    let end = replay(store.registry(), &done.header, &log1).unwrap();
    assert_eq!(end.to_act(), ToAct::Over);
    assert_eq!(store.state_at(id, h0.plies).unwrap().encode(), end.encode());
    // Revision 0 stays readable from the journal, and replays.
    let notes = store.journal(id).unwrap();
    let revs = revisions(&notes);
    assert_eq!(revs.iter().map(|r| r.number).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(revs[1].reason, "score sheet: wrong move");
    assert_eq!(revs[1].changes[0].was, log0[p as usize].notation);
    assert_eq!(log_at(&log1, &notes, 0).unwrap(), log0);
    // The projections follow: the hooks run again, for revision 1.
    eventually(&seen, (id, 1));
    assert_eq!(store.revised_games().unwrap(), vec![(id, 1)]);
    // Corrected back: revision 2 is revision 0's log again.
    let back = log0[p as usize].notation.clone();
    store
        .correct(correction(id, vec![(p, back)], "second look"))
        .unwrap();
    assert_eq!(store.header(id).unwrap().revision, 2);
    assert_eq!(store.entries(id, 0, h0.plies).unwrap(), log0);
    eventually(&seen, (id, 2));
}

pub fn refused_corrections_write_nothing(new: &dyn Fn() -> Backend) {
    let store = new();
    let (id, p, m) = finished_with_a_correction(&*store, 5);
    let h = store.header(id).unwrap();
    let log = store.entries(id, 0, h.plies).unwrap();
    let dealt = log
        .iter()
        .find(|e| e.actor == Actor::Dealer && e.ply > 0)
        .unwrap()
        .ply;
    let active = new_game(&*store, 2, 99);
    let cases: Vec<(Correction, &str)> = vec![
        (
            correction(active, vec![(0, m.clone())], "typo"),
            "GAME_ACTIVE",
        ),
        (
            correction(id, vec![(h.plies, m.clone())], "typo"),
            "NOT_FOUND",
        ),
        (correction(id, vec![(p, m.clone())], "  "), "BAD_INPUT"),
        (correction(id, vec![], "typo"), "BAD_INPUT"),
        (
            correction(id, vec![(p, m.clone()), (p, m.clone())], "typo"),
            "BAD_INPUT",
        ),
        (
            correction(id, vec![(p, log[p as usize].notation.clone())], "typo"),
            "CORRECTION_REFUSED",
        ),
        (
            correction(id, vec![(p, "not a move".into())], "typo"),
            "CORRECTION_REFUSED",
        ),
        (
            correction(id, vec![(dealt, "anything".into())], "typo"),
            "CORRECTION_REFUSED",
        ),
        (
            Correction {
                by: Author::Recorder,
                ..correction(id, vec![(p, m.clone())], "typo")
            },
            "BAD_INPUT",
        ),
    ];
    for (c, code) in cases {
        let err: StoreError = match store.correct(c.clone()) {
            Err(e) => e,
            Ok(_) => panic!("{c:?} was accepted"),
        };
        assert_eq!(err.code(), code, "{c:?}: {err}");
        assert_eq!(store.journal(id).unwrap(), vec![], "nothing written");
        assert_eq!(store.entries(id, 0, h.plies).unwrap(), log);
        assert_eq!(store.header(id).unwrap().revision, 0);
    }
    assert!(store.revised_games().unwrap().is_empty());
}
