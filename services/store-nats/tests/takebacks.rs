//! Takebacks across nodes (`store_nats::line`): a line cut on one node is read, listed and
//! appended to on another whose warm copy predates the cut; a takeback racing an append on
//! another node never loses an acknowledged move; a sealed game keeps its takebacks' notes.

mod server;

use rules_core::{Actor, ToAct};
use store::journal::NoteBody;
use store::{Append, Entry, GameId, GameLog, Status, StoreError};
use store_conformance::checks::{play_to_two_moves, recorder_takes_back};
use store_conformance::{new_game, play_out, t0};
use store_nats::{NatsConfig, NatsLog};

fn two_nodes(config: NatsConfig) -> (NatsLog, NatsLog, tempfile::TempDir, tempfile::TempDir) {
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = NatsLog::open(config.clone(), store_conformance::registry(), da.path()).unwrap();
    let b = NatsLog::open(config, store_conformance::registry(), db.path()).unwrap();
    (a, b, da, db)
}

/// The last legal move at the game's tip as `log` sees it.
fn last_move(log: &dyn GameLog, id: GameId) -> Append<'static> {
    let h = log.header(id).unwrap();
    let s = log.state_at(id, h.plies).unwrap();
    let ToAct::Seat(seat) = s.to_act() else {
        panic!("the game waits on no seat")
    };
    let m = s.legal_moves().pop().unwrap();
    Append {
        game: id,
        expected_ply: h.plies,
        actor: Actor::Seat(seat),
        notation: Box::leak(m.into_boxed_str()),
        key: None,
        at: t0(),
        entered_by: None,
    }
}

fn play_last_move(log: &dyn GameLog, id: GameId) -> store::Result<store::Appended> {
    log.append(last_move(log, id))
}

#[test]
fn a_line_cut_on_one_node_is_read_listed_and_played_on_by_another() {
    let (a, b, _da, _db) = two_nodes(server::fresh_config());
    let id = new_game(&a, 2, 42);
    let plies = play_to_two_moves(&a, id);
    let line = a.entries(id, 0, plies).unwrap();
    let to = line.iter().rposition(|e| e.actor == Actor::Dealer).unwrap() as u32 + 1;
    // B holds a warm copy of the game at its end.
    assert_eq!(
        b.state_at(id, plies).unwrap().encode(),
        a.state_at(id, plies).unwrap().encode()
    );

    recorder_takes_back(&a, id, to).unwrap();
    let h = b.header(id).unwrap();
    assert_eq!((h.plies, h.status), (to, Status::Active));
    assert_eq!(b.entries(id, 0, plies).unwrap(), line[..to as usize]);
    assert_eq!(b.journal(id).unwrap(), a.journal(id).unwrap());
    let listed = b.list(&store::Filter::default(), 10, None).unwrap();
    let seen = listed.games.iter().find(|g| g.id == id).unwrap();
    assert_eq!(seen.plies, to, "B's catalog follows the cut");

    // Other moves, played through A, bring the line back to its old length: B's warm copy at
    // that length is stale and must not be answered.
    while a.header(id).unwrap().plies < plies {
        play_last_move(&a, id).unwrap();
    }
    let now = a.entries(id, 0, plies).unwrap();
    assert_ne!(now, line, "another line");
    assert_eq!(
        b.state_at(id, plies).unwrap().encode(),
        a.state_at(id, plies).unwrap().encode()
    );
    // B appends on the new line (its copy is reloaded on the conflict).
    let on_b = play_last_move(&b, id).unwrap();
    assert_eq!(a.header(id).unwrap(), on_b.header);
}

/// A takeback through one node and an append through the other, started together with the
/// append held back longer each round (so that each lands first in some): whichever lands
/// first, an acknowledged move is on the line or among the entries a later withdrawal holds —
/// never lost — and the line replays the same on both nodes.
#[test]
fn a_takeback_racing_an_append_on_another_node_never_loses_an_acknowledged_move() {
    let (a, b, _da, _db) = two_nodes(server::fresh_config());
    let id = new_game(&a, 2, 42);
    let mut outcomes = std::collections::BTreeSet::new();
    for round in 0..8u64 {
        play_to_two_moves(&a, id);
        let h = a.header(id).unwrap();
        let line = a.entries(id, 0, h.plies).unwrap();
        let to = h.plies - 1;
        // Both nodes warm.
        b.state_at(id, h.plies).unwrap();
        let append = last_move(&b, id);
        let start = std::sync::Barrier::new(2);
        let (cut, moved) = std::thread::scope(|s| {
            let cut = s.spawn(|| {
                start.wait();
                recorder_takes_back(&a, id, to)
            });
            let moved = s.spawn(|| {
                start.wait();
                std::thread::sleep(std::time::Duration::from_millis(40 * round));
                b.append(append)
            });
            (cut.join().unwrap(), moved.join().unwrap())
        });
        let after = b.header(id).unwrap();
        let now = b.entries(id, 0, after.plies).unwrap();
        let journal = a.journal(id).unwrap();
        let withdrawn: Vec<Entry> = match journal.last().map(|n| &n.body) {
            Some(NoteBody::Withdrawn { entries, .. }) if cut.is_ok() => entries.clone(),
            _ => Vec::new(),
        };
        if let Ok(m) = &moved {
            let kept = |e: &Entry| now.contains(e) || withdrawn.contains(e);
            assert!(
                m.entries.iter().all(kept),
                "round {round}: an acknowledged move was lost"
            );
        }
        assert_eq!(now[..to as usize], line[..to as usize]);
        outcomes.insert(match (&cut, &moved) {
            (Ok(_), Ok(_)) => "append, then takeback",
            (Ok(_), Err(StoreError::VersionConflict { .. })) => "takeback, append refused",
            (Err(StoreError::TakebackRefused(_)), Ok(_)) => "append dealt, takeback refused",
            other => panic!("round {round}: {other:?}"),
        });
        // The line replays to the same state on both nodes.
        assert_eq!(
            a.state_at(id, after.plies).unwrap().encode(),
            b.state_at(id, after.plies).unwrap().encode()
        );
        play_out(&a, id, round, 2);
    }
    assert!(
        outcomes.len() >= 2,
        "both orders are met once the append waits long enough: {outcomes:?}"
    );
}

#[test]
fn a_sealed_game_keeps_its_takebacks_in_its_journal() {
    let mut config = server::fresh_config();
    config.seal_after = None; // sealed here by hand
    let (a, b, _da, _db) = two_nodes(config);
    let id = new_game(&a, 2, 42);
    let plies = play_to_two_moves(&a, id);
    recorder_takes_back(&a, id, plies - 1).unwrap();
    play_out(&a, id, 3, 2000);
    let h = a.header(id).unwrap();
    assert_eq!(h.status, Status::Finished);
    let (entries, journal) = (a.entries(id, 0, h.plies).unwrap(), a.journal(id).unwrap());
    assert_eq!(journal.len(), 2);
    assert!(a.seal(id).unwrap());
    for log in [&a, &b] {
        assert_eq!(log.header(id).unwrap(), h);
        assert_eq!(log.entries(id, 0, h.plies).unwrap(), entries);
        assert_eq!(
            log.journal(id).unwrap(),
            journal,
            "the takeback's notes kept"
        );
    }
}
