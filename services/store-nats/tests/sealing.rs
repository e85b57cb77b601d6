//! Sealing (`store_nats::archive`): a finished game becomes one archive record and its own
//! subjects go, and nothing a reader sees changes — on the node that sealed it, on a node that
//! knew the game before, and on a node that starts afterwards.

mod server;

use rules_core::Actor;
use store::{Append, GameLog, StoreError};
use store_conformance::{new_game, play_out, t0};
use store_nats::NatsLog;

/// Everything a reader can ask of a game, as bytes: header, entries, a state at each tenth
/// ply and at the end, and its portable record.
fn everything(log: &dyn GameLog, id: store::GameId) -> Vec<String> {
    let h = log.header(id).unwrap();
    let mut out = vec![
        serde_json::to_string(&h).unwrap(),
        serde_json::to_string(&log.entries(id, 0, h.plies).unwrap()).unwrap(),
        serde_json::to_string(&log.record(id).unwrap()).unwrap(),
    ];
    for ply in (0..=h.plies).step_by(10).chain([h.plies]) {
        out.push(format!("{:?}", log.state_at(id, ply).unwrap().encode()));
    }
    out
}

fn node(config: &store_nats::NatsConfig, dir: &std::path::Path) -> NatsLog {
    NatsLog::open(config.clone(), store_conformance::registry(), dir).unwrap()
}

#[test]
fn a_sealed_game_reads_the_same_everywhere_and_keeps_no_subject() {
    let mut config = server::fresh_config();
    config.seal_after = None; // sealed here by hand, when the test says
    let (da, db, dc) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let (a, b) = (node(&config, da.path()), node(&config, db.path()));
    let seen_a = server::watch(&a);
    let ended = new_game(&a, 2, 61);
    play_out(&a, ended, 1, 10_000);
    let playing = new_game(&a, 3, 62);
    play_out(&a, playing, 1, 5);
    server::wait_for(&seen_a, &[ended]);
    let before_a = everything(&a, ended);
    assert_eq!(everything(&b, ended), before_a, "B reads what A wrote");
    assert_eq!(a.subjects().unwrap(), 4, "two subjects per game");

    // An active game is not sealed; the finished one is, once.
    assert!(!a.seal(playing).unwrap());
    assert!(a.seal(ended).unwrap());
    assert!(!a.seal(ended).unwrap(), "sealing twice does nothing");
    assert_eq!(
        a.subjects().unwrap(),
        3,
        "the active game's two subjects and the archive"
    );

    // Read the same on the node that sealed it, on a node that had read it live, and on one
    // that starts after it was sealed; each lists it.
    let c = node(&config, dc.path());
    for log in [&a, &b, &c] {
        assert_eq!(everything(log, ended), before_a);
        let page = log.list(&store::Filter::default(), 10, None).unwrap();
        let ids: Vec<_> = page.games.iter().map(|h| h.id).collect();
        assert_eq!(ids, vec![playing, ended]);
        assert_eq!(log.game_count(), 2);
        assert_eq!(
            log.game_ids().collect::<store::Result<Vec<_>>>().unwrap(),
            vec![ended, playing]
        );
    }

    // A sealed game takes no more entries, and its id is still taken.
    let h = a.header(ended).unwrap();
    let e = b
        .append(Append {
            game: ended,
            expected_ply: h.plies,
            actor: Actor::Seat(rules_core::Seat(0)),
            notation: "pass",
            key: None,
            at: t0(),
            entered_by: None,
        })
        .unwrap_err();
    assert!(
        matches!(e, StoreError::Rejected { .. } | StoreError::BadInput(_)),
        "{e:?}"
    );
    assert_eq!(b.header(ended).unwrap().plies, h.plies);
    let line = serde_json::to_string(&a.record(ended).unwrap()).unwrap();
    let refused = c.import_line(1, &line).unwrap_err();
    assert!(refused.reason.contains("already exists"), "{refused:?}");
    assert_eq!(everything(&c, ended), before_a);

    // Finish hooks: once on A (its last entry, not again for the record), once on C (the
    // record: the entries were purged before C started).
    let seen_c = server::watch(&c);
    server::wait_for(&seen_c, &[ended]);
    server::wait_for(&seen_a, &[ended]);
}

#[test]
fn a_finished_game_imported_is_born_sealed_and_the_keeper_seals_games_that_end() {
    let mut config = server::fresh_config();
    config.seal_after = Some(std::time::Duration::ZERO);
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = node(&config, da.path());
    let seen = server::watch(&a);
    let ended = new_game(&a, 2, 71);
    play_out(&a, ended, 2, 10_000);
    // The keeper (once a second) seals it: no subject of its own is left.
    let start = std::time::Instant::now();
    while a.subjects().unwrap() != 1 && start.elapsed() < std::time::Duration::from_secs(10) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(a.subjects().unwrap(), 1, "only the archive subject is left");
    server::wait_for(&seen, &[ended]);

    // Its record, imported into another stream, is born sealed: one record, no subjects.
    let line = serde_json::to_string(&a.record(ended).unwrap()).unwrap();
    let mut other = server::fresh_config();
    other.seal_after = None;
    let b = node(&other, db.path());
    let seen_b = server::watch(&b);
    let h = b.import_line(1, &line).unwrap();
    assert_eq!(h.id, ended);
    assert_eq!(b.subjects().unwrap(), 1);
    // (The header of an import is the record's, which keeps less than a live header.)
    assert_eq!(everything(&b, ended)[1..], everything(&a, ended)[1..]);
    server::wait_for(&seen_b, &[ended]);
}
