//! What only a shared, networked store has: two nodes on one stream (each with its own warm
//! tips), their races, a retry arriving at the other node, a stream someone else made with
//! limits that delete events, a cluster that cannot be reached, and a game whose appender
//! stopped before it dealt.

mod server;

use rules_core::{Actor, ToAct};
use std::time::{Duration, Instant};
use store::{Append, GameLog, StoreError};
use store_conformance::{new_game, t0};
use store_nats::{NatsConfig, NatsLog};

/// Two nodes on the same stream, each with its own folder.
fn two_nodes() -> (NatsLog, NatsLog, tempfile::TempDir, tempfile::TempDir) {
    let config = server::fresh_config();
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = NatsLog::open(config.clone(), store_conformance::registry(), da.path()).unwrap();
    let b = NatsLog::open(config, store_conformance::registry(), db.path()).unwrap();
    (a, b, da, db)
}

/// `seat` plays `m` at `ply` through node `log`.
fn play(
    log: &NatsLog,
    id: store::GameId,
    ply: u32,
    seat: rules_core::Seat,
    m: &str,
) -> store::Result<store::Appended> {
    log.append(Append {
        game: id,
        expected_ply: ply,
        actor: Actor::Seat(seat),
        notation: m,
        key: None,
        at: t0(),
        entered_by: None,
    })
}

/// The first legal move at the game's tip, as node `log` sees it.
fn a_move(log: &dyn GameLog, id: store::GameId) -> (u32, rules_core::Seat, String) {
    let h = log.header(id).unwrap();
    let s = log.state_at(id, h.plies).unwrap();
    let ToAct::Seat(seat) = s.to_act() else {
        panic!("the game waits on no seat")
    };
    (h.plies, seat, s.legal_moves()[0].clone())
}

#[test]
fn a_move_on_one_node_is_read_on_the_other_and_a_stale_node_gets_a_conflict() {
    let (a, b, _da, _db) = two_nodes();
    let id = new_game(&a, 2, 7);
    // Node A warms its tip; node B plays.
    let (ply, seat, m) = a_move(&a, id);
    let on_b = play(&b, id, ply, seat, &m).unwrap();
    assert_eq!(a.header(id).unwrap(), on_b.header, "A reads what B wrote");
    assert_eq!(a.entries(id, ply, on_b.header.plies).unwrap(), on_b.entries);
    // A's tip is stale: the same ply again is a conflict naming the ply B reached.
    let e = play(&a, id, ply, seat, &m).unwrap_err();
    assert!(
        matches!(e, StoreError::VersionConflict { current, .. } if current == on_b.header.plies),
        "{e}"
    );
    // At the right ply A appends, and B sees it.
    let (ply, seat, m) = a_move(&a, id);
    let on_a = play(&a, id, ply, seat, &m).unwrap();
    assert_eq!(b.header(id).unwrap(), on_a.header);
}

#[test]
fn writers_racing_on_two_nodes_write_each_ply_once() {
    let (a, b, _da, _db) = two_nodes();
    let id = new_game(&a, 4, 21);
    let start = std::sync::Barrier::new(8);
    let wins: u32 = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|t| {
                let log: &NatsLog = if t % 2 == 0 { &a } else { &b };
                let start = &start;
                scope.spawn(move || {
                    let mut wins = 0u32;
                    for i in 0..25 {
                        let h = log.header(id).unwrap();
                        if i == 0 {
                            start.wait();
                        }
                        let Ok(s) = log.state_at(id, h.plies) else {
                            continue;
                        };
                        let ToAct::Seat(seat) = s.to_act() else { break };
                        let moves = s.legal_moves();
                        // Threads 0-3 (two on each node) pick the same move at the same ply:
                        // an identical entry at a taken place is a conflict, not a win.
                        let pick = if t < 4 { i } else { t * 31 + i };
                        match log.append(Append {
                            game: id,
                            expected_ply: h.plies,
                            actor: Actor::Seat(seat),
                            notation: &moves[pick % moves.len()],
                            key: None,
                            at: t0(),
                            entered_by: None,
                        }) {
                            Ok(_) => wins += 1,
                            Err(StoreError::VersionConflict { .. }) => {}
                            Err(e) => panic!("{e}"),
                        }
                    }
                    wins
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    for log in [&a, &b] {
        let h = log.header(id).unwrap();
        let entries = log.entries(id, 0, h.plies).unwrap();
        for (i, e) in entries.iter().enumerate() {
            assert_eq!(e.ply, i as u32, "each ply exactly once");
        }
        let seat_entries = entries.iter().filter(|e| e.actor != Actor::Dealer).count();
        assert_eq!(
            seat_entries as u32, wins,
            "every win is one entry, on both nodes"
        );
        log.state_at(id, h.plies).unwrap();
    }
    assert!(wins > 0);
}

#[test]
fn a_retry_with_its_key_at_the_other_node_is_recognised_not_applied_twice() {
    let (a, b, _da, _db) = two_nodes();
    let id = new_game(&a, 2, 9);
    // B warms its tip before A's append, so B's retry starts from a stale ply.
    let (ply, seat, m) = a_move(&b, id);
    let req = Append {
        game: id,
        expected_ply: ply,
        actor: Actor::Seat(seat),
        notation: &m,
        key: Some("k-1"),
        at: t0(),
        entered_by: None,
    };
    let first = a.append(req.clone()).unwrap();
    assert!(!first.replayed);
    let again = b.append(req).unwrap();
    assert!(
        again.replayed,
        "the key is found once B reads the log again"
    );
    assert_eq!(again.entries, first.entries);
    assert_eq!(b.header(id).unwrap().plies, first.header.plies);
}

#[test]
fn a_stream_made_by_someone_else_with_limits_is_refused_and_left_alone() {
    let config = server::fresh_config();
    // Someone made the stream with an age limit: events older than a day would vanish.
    let day = Duration::from_secs(86_400);
    store_nats::dev_server::make_limited_stream(
        &server::url(),
        &config.stream,
        &config.prefix,
        day,
    );
    let dir = tempfile::tempdir().unwrap();
    let e = NatsLog::open(config.clone(), store_conformance::registry(), dir.path())
        .err()
        .expect("a stream with limits is refused");
    assert_eq!(e.code(), "BAD_INPUT");
    assert!(e.to_string().contains("max_age"), "{e}");
    assert_eq!(
        store_nats::dev_server::max_age(&server::url(), &config.stream),
        day,
        "the stream is left as it was"
    );
}

#[test]
fn an_unreachable_cluster_is_a_clear_retriable_error_within_the_timeout() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut config = NatsConfig::from_urls(&format!("nats://127.0.0.1:{port}"));
    config.timeout = Duration::from_secs(1);
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let e = NatsLog::open(config, store_conformance::registry(), dir.path())
        .err()
        .expect("nobody listens there");
    assert_eq!(e.code(), "UNAVAILABLE", "{e}");
    assert!(e.to_string().contains(&port.to_string()), "{e}");
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn every_node_s_projections_follow_games_finished_on_any_node_and_resume_after_a_restart() {
    let mut config = server::fresh_config();
    // Sealing (its own test, `sealing.rs`) would add records to the stream while this test
    // compares how far B has read with the stream's end.
    config.seal_after = None;
    let open = |dir: &std::path::Path| {
        NatsLog::open(config.clone(), store_conformance::registry(), dir).unwrap()
    };
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = open(da.path());
    let first = new_game(&a, 2, 51);
    store_conformance::play_out(&a, first, 1, 10_000);
    // B starts after the first game ended: it catches up from the start of the logs.
    let b = open(db.path());
    let on_b = server::watch(&b);
    server::wait_for(&on_b, &[first]);
    let (read, head) = b.caught_up_to().unwrap();
    assert_eq!(read, head, "caught up: B has read to the end of the logs");
    // A game finished on A reaches B's projections.
    let second = new_game(&a, 3, 52);
    store_conformance::play_out(&a, second, 1, 10_000);
    server::wait_for(&on_b, &[first, second]);
    // B stops; a third game ends meanwhile; B, restarted on its folder, resumes where it
    // stopped: the third game, and not the first two again.
    drop(b);
    std::thread::sleep(Duration::from_millis(1200));
    let third = new_game(&a, 2, 53);
    store_conformance::play_out(&a, third, 1, 10_000);
    let b = open(db.path());
    let on_b = server::watch(&b);
    server::wait_for(&on_b, &[third]);
    assert_eq!(b.caught_up_to().unwrap().0, b.caught_up_to().unwrap().1);
}

/// A node that stops between a move's publish and the dealer's entry after it leaves the game
/// waiting on chance, where no seat has a legal move. Whoever reads the game next deals it,
/// from its seed, once (issue 43).
#[test]
fn a_game_left_waiting_on_a_deal_is_dealt_by_whoever_reads_it_next() {
    use async_nats::jetstream::message::PublishMessage;
    use store_nats::codec;
    let config = server::fresh_config();
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = NatsLog::open(config.clone(), store_conformance::registry(), da.path()).unwrap();
    let id = new_game(&a, 2, 9);
    // Plays until the next move is one the dealer must follow.
    let (ply, seat, m) = (0..400)
        .find_map(|_| {
            let (ply, seat, m) = a_move(&a, id);
            let mut next = a.state_at(id, ply).unwrap();
            next.apply(Actor::Seat(seat), &m).unwrap();
            if next.to_act() == ToAct::Chance {
                return Some((ply, seat, m));
            }
            play(&a, id, ply, seat, &m).unwrap();
            None
        })
        .expect("a move the dealer follows");
    // The appender publishes the move, as it would, and stops before the deal.
    let entry = store::Entry {
        ply,
        actor: Actor::Seat(seat),
        notation: m.clone(),
        recorded_at: t0(),
        key: None,
        entered_by: None,
    };
    let subject = format!("{}.e.{id}", config.prefix);
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let client = async_nats::connect(server::url()).await.unwrap();
        let js = async_nats::jetstream::new(client);
        let stream = js.get_stream(&config.stream).await.unwrap();
        let last = stream
            .get_last_raw_message_by_subject(&subject)
            .await
            .unwrap()
            .sequence;
        let msg = PublishMessage::build()
            .payload(codec::entry_payload(&entry).unwrap())
            .headers(codec::entry_headers(&entry, false, 0))
            .message_id(codec::msg_id(id, 0, &entry))
            .expected_last_subject_sequence(last);
        js.send_publish(subject.clone(), msg)
            .await
            .unwrap()
            .await
            .unwrap();
    });
    // Another node reads the game: dealt, a seat to move with legal moves.
    let b = NatsLog::open(config, store_conformance::registry(), db.path()).unwrap();
    let h = b.header(id).unwrap();
    assert!(h.plies > ply + 1, "the deal after the move is in the log");
    let entries = b.entries(id, ply, h.plies).unwrap();
    assert_eq!(entries[0].notation, m);
    assert!(entries[1..].iter().all(|e| e.actor == Actor::Dealer));
    let st = b.state_at(id, h.plies).unwrap();
    assert!(matches!(st.to_act(), ToAct::Seat(_)), "a seat to move");
    assert!(!st.legal_moves().is_empty());
    // The first node reads the same log (its warm tip is behind): nothing dealt twice.
    assert_eq!(a.header(id).unwrap().plies, h.plies);
    assert_eq!(
        a.entries(id, 0, h.plies).unwrap(),
        b.entries(id, 0, h.plies).unwrap()
    );
    // And it plays on from there.
    let (next, seat, m) = a_move(&a, id);
    assert_eq!(next, h.plies);
    play(&a, id, next, seat, &m).unwrap();
}

/// A finish hook that could not read the store (the stream electing a leader) says so, and the
/// node's follower offers the game again rather than marking it done: before, the game was
/// left out of that node's projections for good (issue 43).
#[test]
fn a_finish_hook_that_found_the_store_unavailable_runs_again_until_it_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    let log = server::fresh_log(dir.path());
    let calls: std::sync::Arc<std::sync::Mutex<Vec<store::GameId>>> = Default::default();
    let into = calls.clone();
    log.on_finish(std::sync::Arc::new(move |_, h, _, _| {
        let mut calls = into.lock().unwrap();
        calls.push(h.id);
        if calls.len() == 1 {
            return Err(StoreError::Unavailable("no leader (in this test)".into()));
        }
        Ok(())
    }));
    let id = new_game(&log, 2, 12);
    store_conformance::play_out(&log, id, 1, 10_000);
    assert_eq!(log.header(id).unwrap().status, store::Status::Finished);
    let start = Instant::now();
    while calls.lock().unwrap().len() < 2 && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    // Done once it succeeded: not offered a third time.
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(*calls.lock().unwrap(), vec![id, id]);
}

/// A correction made through one node is the other's too: its reads give the new revision's
/// log, and its projections' hooks run again for that revision.
#[test]
fn a_correction_on_one_node_is_read_and_followed_on_the_other() {
    let (a, b, _da, _db) = two_nodes();
    let revisions: std::sync::Arc<std::sync::Mutex<Vec<(store::GameId, u32)>>> = Default::default();
    let into = revisions.clone();
    b.on_finish(std::sync::Arc::new(move |_, h, _, _| {
        into.lock().unwrap().push((h.id, h.revision));
        Ok(())
    }));
    let id = new_game(&a, 2, 21);
    store_conformance::play_out(&a, id, 3, 10_000);
    let h = a.header(id).unwrap();
    let log = a.entries(id, 0, h.plies).unwrap();
    // The last seat entry, given another legal text the record still takes.
    let (ply, text) = log
        .iter()
        .rev()
        .filter(|e| e.actor != Actor::Dealer)
        .find_map(|e| {
            let st = a.state_at(id, e.ply).unwrap();
            st.legal_moves()
                .into_iter()
                .find(|m| {
                    *m != e.notation
                        && store::revision::plan_correction(
                            a.registry(),
                            32,
                            &h,
                            &[],
                            &log,
                            &correction(id, e.ply, m),
                        )
                        .is_ok()
                })
                .map(|m| (e.ply, m))
        })
        .expect("a correctable entry");
    a.correct(correction(id, ply, &text)).unwrap();
    let start = Instant::now();
    while !revisions.lock().unwrap().contains(&(id, 1)) {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "{:?}",
            revisions.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(b.header(id).unwrap().revision, 1);
    assert_eq!(b.entries(id, ply, ply + 1).unwrap()[0].notation, text);
    assert_eq!(b.revised_games().unwrap(), vec![(id, 1)]);
}

fn correction(id: store::GameId, ply: u32, text: &str) -> store::revision::Correction {
    store::revision::Correction {
        game: id,
        by: store::journal::Author::Admin,
        at: t0(),
        changes: vec![(ply, text.to_string())],
        reason: "the score sheet".into(),
    }
}
