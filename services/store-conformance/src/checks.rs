//! The checks of the conformance suite, one public function each, every one on fresh stores
//! from the backend's constructor. They were the store's own tests before a second backend
//! existed (issue 15), moved here unchanged but for taking `&dyn GameLog`.

mod owners;
mod revisions;
mod takebacks;
pub use owners::*;
pub use revisions::*;
pub use takebacks::*;

use crate::{new_game, play_out, t0, Backend};
use five_tribes::FiveTribes;
use rules_core::{Actor, Erased, Seat, ToAct};
use std::sync::{Arc, Mutex};
use store::{Append, Filter, GameId, Status, StoreError};

pub fn a_game_plays_to_the_end_and_every_ply_replays(new: &dyn Fn() -> Backend) {
    let store = new();
    let id = new_game(&*store, 3, 11);
    let plies = play_out(&*store, id, 3, 10_000);
    let h = store.header(id).unwrap();
    assert_eq!(h.status, Status::Finished);
    assert_eq!(h.plies, plies);
    let entries = store.entries(id, 0, plies).unwrap();
    assert_eq!(entries.len() as u32, plies);
    // Replaying from scratch agrees with the store's state at every ply.
    let rules = Erased::<FiveTribes>::new();
    let mut s =
        rules_core::GameRules::new_game(&rules, &serde_json::json!({"players": 3})).unwrap();
    for (i, e) in entries.iter().enumerate() {
        assert_eq!(e.ply, i as u32);
        assert_eq!(
            store.state_at(id, i as u32).unwrap().encode(),
            s.encode(),
            "ply {i}"
        );
        s.apply(e.actor, &e.notation).unwrap();
    }
    assert_eq!(store.state_at(id, plies).unwrap().encode(), s.encode());
    assert!(matches!(
        store.state_at(id, plies + 1),
        Err(StoreError::NoSuchPly { .. })
    ));
    assert!(store.state_at(id, plies).unwrap().outcome().is_some());
}

pub fn conflicts_illegal_moves_and_client_deals_are_refused_and_write_nothing(
    new: &dyn Fn() -> Backend,
) {
    let store = new();
    let id = new_game(&*store, 2, 5);
    let s = store.state_at(id, 1).unwrap();
    let ToAct::Seat(seat) = s.to_act() else {
        panic!()
    };
    let good = s.legal_moves()[0].clone();
    let base = Append {
        game: id,
        expected_ply: 1,
        actor: Actor::Seat(seat),
        notation: &good,
        key: None,
        at: t0(),
        entered_by: None,
    };

    let e = store
        .append(Append {
            expected_ply: 0,
            ..base.clone()
        })
        .unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::VersionConflict {
                current: 1,
                expected: 0,
                ..
            }
        ),
        "{e}"
    );
    let e = store
        .append(Append {
            notation: "pick z9",
            ..base.clone()
        })
        .unwrap_err();
    assert_eq!(e.code(), "BAD_NOTATION");
    let e = store
        .append(Append {
            notation: "end",
            ..base.clone()
        })
        .unwrap_err();
    assert_eq!(e.code(), "ILLEGAL_MOVE");
    // Named as `moves` numbers it: the deal was ply 1, this would have been ply 2.
    assert!(matches!(e, StoreError::Rejected { ply: 2, .. }), "{e}");
    assert!(e.to_string().contains("ply 2"), "{e}");
    let other = Seat(1 - seat.0);
    let e = store
        .append(Append {
            actor: Actor::Seat(other),
            ..base.clone()
        })
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::Rejected { error, .. } if error.code() == "turn.wrong-seat"),
        "{e}"
    );
    let e = store
        .append(Append {
            actor: Actor::Dealer,
            notation: "draw cards=fi",
            ..base.clone()
        })
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::Rejected { error, .. } if error.code() == "store.dealt-by-store"),
        "{e}"
    );
    let e = store
        .append(Append {
            game: GameId(12345),
            ..base.clone()
        })
        .unwrap_err();
    assert_eq!(e.code(), "NOT_FOUND");
    let long = "x".repeat(5000);
    assert_eq!(
        store
            .append(Append {
                notation: &long,
                ..base.clone()
            })
            .unwrap_err()
            .code(),
        "BAD_INPUT"
    );
    assert_eq!(store.header(id).unwrap().plies, 1, "nothing was written");

    let ok = store.append(base.clone()).unwrap();
    assert_eq!(ok.entries[0].ply, 1);
    assert_eq!(ok.header.plies, 2);
    let e = store.append(base).unwrap_err();
    assert!(matches!(e, StoreError::VersionConflict { current: 2, .. }));
}

pub fn an_idempotent_retry_returns_the_first_result_and_writes_nothing(new: &dyn Fn() -> Backend) {
    let store = new();
    let id = new_game(&*store, 2, 9);
    let s = store.state_at(id, 1).unwrap();
    let ToAct::Seat(seat) = s.to_act() else {
        panic!()
    };
    let m = s.legal_moves()[0].clone();
    let req = Append {
        game: id,
        expected_ply: 1,
        actor: Actor::Seat(seat),
        notation: &m,
        key: Some("k-1"),
        at: t0(),
        entered_by: None,
    };
    let first = store.append(req.clone()).unwrap();
    assert!(!first.replayed);
    let again = store.append(req.clone()).unwrap();
    assert!(again.replayed);
    assert_eq!(again.entries, first.entries);
    assert_eq!(store.header(id).unwrap().plies, first.header.plies);
    // The same key for another move is an error, not a silent replay.
    let e = store
        .append(Append {
            notation: "end",
            ..req
        })
        .unwrap_err();
    assert_eq!(e.code(), "BAD_INPUT");
}

pub fn sixteen_threads_racing_on_one_game_write_each_ply_once(new: &dyn Fn() -> Backend) {
    let store = Arc::new(new());
    let id = new_game(&**store, 4, 21);
    // All threads read the same ply before the first append, whatever the scheduler does:
    // at most one of those first appends can win, so conflicts are certain, not luck.
    let start = std::sync::Barrier::new(16);
    let results: Vec<(u32, u32)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..16)
            .map(|t| {
                let store = store.clone();
                let start = &start;
                scope.spawn(move || {
                    let (mut wins, mut conflicts) = (0u32, 0u32);
                    for i in 0..40 {
                        let h = store.header(id).unwrap();
                        if i == 0 {
                            start.wait();
                        }
                        let s = store.state_at(id, h.plies).unwrap();
                        let ToAct::Seat(seat) = s.to_act() else { break };
                        let moves = s.legal_moves();
                        let m = &moves[(t * 31 + i) % moves.len()];
                        match store.append(Append {
                            game: id,
                            expected_ply: h.plies,
                            actor: Actor::Seat(seat),
                            notation: m,
                            key: None,
                            at: t0(),
                            entered_by: None,
                        }) {
                            Ok(_) => wins += 1,
                            Err(StoreError::VersionConflict {
                                current, expected, ..
                            }) => {
                                assert!(current > expected, "the loser is told a later ply");
                                conflicts += 1;
                            }
                            Err(e) => panic!("{e}"),
                        }
                    }
                    (wins, conflicts)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let wins: u32 = results.iter().map(|r| r.0).sum();
    let conflicts: u32 = results.iter().map(|r| r.1).sum();
    assert!(
        conflicts >= 15,
        "16 racing threads at one ply: one wins, the rest conflict"
    );
    let h = store.header(id).unwrap();
    let entries = store.entries(id, 0, h.plies).unwrap();
    for (i, e) in entries.iter().enumerate() {
        assert_eq!(e.ply, i as u32, "each ply exactly once");
    }
    let seat_entries = entries.iter().filter(|e| e.actor != Actor::Dealer).count() as u32;
    assert_eq!(seat_entries, wins, "every win is one entry");
    // The stored log replays.
    store.state_at(id, h.plies).unwrap();
}

pub fn listing_pages_by_kind_status_and_player_with_stable_cursors(new: &dyn Fn() -> Backend) {
    let store = new();
    let ids: Vec<GameId> = (0..7).map(|i| new_game(&*store, 2, 100 + i)).collect();
    play_out(&*store, ids[2], 0, 10_000);
    let all = store.list(&Filter::default(), 3, None).unwrap();
    assert_eq!(
        all.games.iter().map(|h| h.id).collect::<Vec<_>>(),
        vec![ids[6], ids[5], ids[4]]
    );
    let next = store.list(&Filter::default(), 3, all.next).unwrap();
    assert_eq!(
        next.games.iter().map(|h| h.id).collect::<Vec<_>>(),
        vec![ids[3], ids[2], ids[1]]
    );
    let last = store.list(&Filter::default(), 3, next.next).unwrap();
    assert_eq!(last.games.len(), 1);
    assert!(last.next.is_none());
    let finished = store
        .list(
            &Filter {
                status: Some(Status::Finished),
                ..Filter::default()
            },
            10,
            None,
        )
        .unwrap();
    assert_eq!(
        finished.games.iter().map(|h| h.id).collect::<Vec<_>>(),
        vec![ids[2]]
    );
    let by_player = Filter {
        player: Some("player1".into()),
        kind: Some(rules_core::GameKind::FiveTribes),
        ..Filter::default()
    };
    assert_eq!(store.list(&by_player, 10, None).unwrap().games.len(), 7);
    let nobody = Filter {
        player: Some("player".into()),
        ..Filter::default()
    };
    assert_eq!(store.list(&nobody, 10, None).unwrap().games.len(), 0);
    let other_kind = Filter {
        kind: Some(rules_core::GameKind::Mombasa),
        ..Filter::default()
    };
    assert!(store.list(&other_kind, 10, None).unwrap().games.is_empty());
}

pub fn export_then_import_is_byte_identical(new: &dyn Fn() -> Backend) {
    let a = new();
    for i in 0..5 {
        let id = new_game(&*a, 2 + (i % 3) as u8, 300 + i);
        play_out(&*a, id, i, if i == 4 { 30 } else { 10_000 });
    }
    let mut first = Vec::new();
    assert_eq!(a.export(None, true, &mut first, &mut |_, _| {}).unwrap(), 5);
    let b = new();
    for (i, line) in String::from_utf8(first.clone())
        .unwrap()
        .lines()
        .enumerate()
    {
        b.import_line(i as u64 + 1, line).unwrap();
    }
    let mut second = Vec::new();
    b.export(None, true, &mut second, &mut |_, _| {}).unwrap();
    assert_eq!(
        String::from_utf8(first).unwrap(),
        String::from_utf8(second).unwrap()
    );
}

pub fn import_rejects_bad_records_whole_with_reasons(new: &dyn Fn() -> Backend) {
    let src = new();
    let id = new_game(&*src, 3, 77);
    play_out(&*src, id, 2, 10_000);
    let good = serde_json::to_value(src.record(id).unwrap()).unwrap();
    let store = new();
    let cases: Vec<(String, &str, Option<u32>)> = {
        let mut v = Vec::new();
        v.push(("{not json".to_string(), "bad JSON", None));
        let mut r = good.clone();
        r["kind"] = "chess".into();
        v.push((r.to_string(), "\"chess\" is not one of", None));
        let mut r = good.clone();
        r["players"] = serde_json::json!(["a", "b"]);
        v.push((r.to_string(), "2 players named for a 3-player game", None));
        let mut r = good.clone();
        r["entries"][40]["notation"] = "end".into();
        // Errors name plies as `moves` does: entries[i] is ply i + 1.
        v.push((r.to_string(), "", Some(41)));
        let mut r = good.clone();
        r["entries"][7]["ply"] = 8.into();
        v.push((r.to_string(), "without gap or repeat", Some(8)));
        let mut r = good.clone();
        r["entries"][9]["ply"] = 8.into();
        v.push((r.to_string(), "without gap or repeat", Some(10)));
        let mut r = good.clone();
        // A forged deal: the same deal under another seed.
        r["seed"] = 78.into();
        v.push((r.to_string(), "dealer entry disagrees", Some(1)));
        let mut r = good.clone();
        r["status"] = "active".into();
        v.push((r.to_string(), "status says active", None));
        let mut r = good.clone();
        r["players"][0] = "x".repeat(9 << 20).into();
        v.push((r.to_string(), "over the", None));
        let mut r = good.clone();
        r["surprise"] = 1.into();
        v.push((r.to_string(), "surprise", None));
        // Played under component data this build does not have: it cannot be replayed
        // faithfully, so it is refused rather than replayed under other data.
        let mut r = good.clone();
        r["data_hash"] = "0123456789abcdef".into();
        v.push((
            r.to_string(),
            "component data version 0123456789abcdef is not known",
            None,
        ));
        v
    };
    for (i, (line, reason, ply)) in cases.iter().enumerate() {
        let e = store.import_line(i as u64 + 1, line).unwrap_err();
        assert_eq!(e.line, i as u64 + 1);
        assert!(e.reason.contains(reason), "case {i}: {e}");
        assert_eq!(e.ply, *ply, "case {i}: {e}");
        assert_eq!(store.game_count(), 0, "case {i} wrote something");
    }
    store.import_line(99, &good.to_string()).unwrap();
    assert_eq!(store.game_count(), 1);
    let e = store.import_line(100, &good.to_string()).unwrap_err();
    assert!(e.reason.contains("already exists"), "{e}");
    assert_eq!(store.game_count(), 1);
}

pub fn paging_while_games_are_created_loses_and_repeats_nothing(new: &dyn Fn() -> Backend) {
    let store = new();
    let before: Vec<GameId> = (0..23).map(|i| new_game(&*store, 2, 500 + i)).collect();
    let mut seen = Vec::new();
    let mut after = None;
    let mut extra = 0;
    loop {
        let page = store.list(&Filter::default(), 5, after).unwrap();
        seen.extend(page.games.iter().map(|h| h.id));
        // Games created between pages are newer than every cursor: they belong to a fresh
        // listing, never to the pages still to come.
        new_game(&*store, 3, 900 + extra);
        extra += 1;
        match page.next {
            Some(n) => after = Some(n),
            None => break,
        }
    }
    let mut want = before.clone();
    want.reverse();
    assert_eq!(
        seen, want,
        "every game present at the start, once, newest first"
    );
    assert_eq!(store.game_count(), 23 + extra as usize);
}

/// A finish hook runs once for each game that ends — by an append or by an import — with
/// its final header and state, and never for a game still being played. A shared store may
/// run it a moment later (its projections follow the logs), so the check waits up to ten
/// seconds for it, and a little more to see it is not run twice.
pub fn finish_hooks_run_once_per_finished_game(new: &dyn Fn() -> Backend) {
    type Seen = Arc<Mutex<Vec<(GameId, u32, bool)>>>;
    let watch = |store: &Backend| -> Seen {
        let seen: Seen = Arc::default();
        let into = seen.clone();
        store.on_finish(Arc::new(move |_, header, state, _| {
            let over = state.outcome().is_some();
            into.lock().unwrap().push((header.id, header.plies, over));
            Ok(())
        }));
        seen
    };
    let store = new();
    let seen = watch(&store);
    let done = new_game(&*store, 2, 41);
    let plies = play_out(&*store, done, 1, 10_000);
    let active = new_game(&*store, 3, 42);
    play_out(&*store, active, 1, 20);
    eventually_exactly(&seen, vec![(done, plies, true)]);
    // Importing the finished game runs the other store's hooks once; the active one, never.
    let other = new();
    let seen = watch(&other);
    for (line, id) in [done, active].into_iter().enumerate() {
        let record = serde_json::to_string(&store.record(id).unwrap()).unwrap();
        other.import_line(line as u64 + 1, &record).unwrap();
    }
    eventually_exactly(&seen, vec![(done, plies, true)]);
}

/// Waits until `seen` holds `want` (at most ten seconds), then checks it still does a moment
/// later.
fn eventually_exactly<T: PartialEq + std::fmt::Debug>(seen: &Mutex<Vec<T>>, want: Vec<T>) {
    let start = std::time::Instant::now();
    while *seen.lock().unwrap() != want && start.elapsed() < std::time::Duration::from_secs(10) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(*seen.lock().unwrap(), want);
}

/// A projection keeps the last value put under each key, reads back in key order from any
/// key, and is emptied alone.
pub fn projections_keep_put_values_in_key_order_until_cleared(new: &dyn Fn() -> Backend) {
    let store = new();
    for (k, v) in [("b", "2"), ("a", "1"), ("c", "3"), ("b", "two")] {
        store
            .projection_put("conformance", k.as_bytes(), v.as_bytes())
            .unwrap();
    }
    store.projection_put("other", b"a", b"x").unwrap();
    let all: Vec<(Vec<u8>, Vec<u8>)> = store
        .projection_iter("conformance")
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let pair = |k: &str, v: &str| (k.as_bytes().to_vec(), v.as_bytes().to_vec());
    assert_eq!(all, vec![pair("a", "1"), pair("b", "two"), pair("c", "3")]);
    let from_b: Vec<Vec<u8>> = store
        .projection_range("conformance", b"b")
        .unwrap()
        .map(|kv| kv.unwrap().0)
        .collect();
    assert_eq!(from_b, vec![b"b".to_vec(), b"c".to_vec()]);
    store.projection_clear("conformance").unwrap();
    assert_eq!(store.projection_iter("conformance").unwrap().count(), 0);
    assert_eq!(
        store.projection_iter("other").unwrap().count(),
        1,
        "another projection is left as it was"
    );
}

/// Annotations are kept in the order written, numbered from 0, on a game being played and on
/// a finished one; one on a position past the end writes nothing; a game's record carries
/// them to another store; a study is kept whole and read back, and its id is taken once.
pub fn annotations_and_studies_are_kept(new: &dyn Fn() -> Backend) {
    use store::journal::{Author, Glyph, NewNote, NoteBody, NoteRequest};
    use store::study::{Study, StudyId, StudyItem};
    let store = new();
    let id = new_game(&*store, 2, 8);
    let annotate = |ply: u32, comment: &str| {
        store.write_note(NewNote {
            game: id,
            by: Author::Analyst("ana".into()),
            at: t0(),
            request: NoteRequest::Annotate {
                ply,
                glyph: Some(Glyph::Interesting),
                comment: comment.into(),
            },
        })
    };
    // One on the game in play, the rest once it is over (one `play_out`: its entry times
    // run forward, as a record's must).
    annotate(0, "before the deal").unwrap();
    let err = annotate(2, "past the end").unwrap_err();
    assert_eq!(err.code(), "NOT_FOUND");
    play_out(&*store, id, 3, 2000);
    assert_eq!(store.header(id).unwrap().status, Status::Finished);
    let plies = store.header(id).unwrap().plies;
    annotate(3, "an early bid").unwrap();
    annotate(plies, "after the end").unwrap();
    let notes = store.journal(id).unwrap();
    let said: Vec<(u32, u32, String)> = notes
        .iter()
        .map(|n| match &n.body {
            NoteBody::Annotation { ply, comment, .. } => (n.seq, *ply, comment.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        said,
        vec![
            (0, 0, "before the deal".to_string()),
            (1, 3, "an early bid".to_string()),
            (2, plies, "after the end".to_string()),
        ]
    );
    assert_eq!(
        store.journal(GameId(1)).unwrap_err().code(),
        "NOT_FOUND",
        "no such game"
    );
    // The game's record carries its annotations; importing it elsewhere writes them, with
    // their authors and times, and that store's record is the same, byte for byte.
    let line = serde_json::to_string(&store.record(id).unwrap()).unwrap();
    assert!(
        line.contains("\"annotations\":[{\"ply\":0,\"glyph\":\"!?\""),
        "{line}"
    );
    let other = new();
    let mut bad: serde_json::Value = serde_json::from_str(&line).unwrap();
    bad["annotations"][0]["ply"] = serde_json::json!(plies + 999);
    let err = other.import_line(1, &bad.to_string()).unwrap_err();
    assert!(err.reason.contains("past the end"), "{err}");
    let mut bad: serde_json::Value = serde_json::from_str(&line).unwrap();
    bad["annotations"][1]["comment"] = serde_json::json!("reversed \u{202e}text");
    let err = other.import_line(1, &bad.to_string()).unwrap_err();
    assert!(err.reason.contains("annotation 1"), "{err}");
    let mut bad: serde_json::Value = serde_json::from_str(&line).unwrap();
    bad["annotations"][0]["by"] = serde_json::json!("analyst:");
    assert!(other.import_line(1, &bad.to_string()).is_err());
    assert!(other.header(id).is_err(), "nothing written");
    other.import_line(1, &line).unwrap();
    // (Each note's own `plies` is the line's length when it was written: here, all of it.)
    assert_eq!(
        store::journal::annotations(&other.journal(id).unwrap()),
        store::journal::annotations(&notes)
    );
    assert_eq!(
        serde_json::to_string(&other.record(id).unwrap()).unwrap(),
        line
    );

    let study = Study {
        id: StudyId(GameId(0x0123_4567_89ab)),
        name: "Openings".into(),
        by: Author::Admin,
        created_at: t0(),
        items: vec![StudyItem {
            game: id,
            ply: 3,
            comment: "why?".into(),
            branch: vec![],
        }],
    };
    store.put_study(&study).unwrap();
    assert_eq!(store.study(study.id).unwrap(), study);
    assert_eq!(store.put_study(&study).unwrap_err().code(), "EXISTS");
    assert!(matches!(
        store.study(StudyId(GameId(7))),
        Err(StoreError::NoSuchStudy(_))
    ));
}
