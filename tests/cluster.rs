//! `ludolog serve --store nats://…`: stateless nodes on one JetStream store. Two nodes on a
//! local `nats-server` (`store_nats::dev_server`) answer the same queries: a game created on
//! one is played on both, each node's projections catch up with games finished on the other
//! (`store { caughtUp }`, then equal `statistics`), and when one node is killed the other
//! serves on. `ludolog migrate` moves a store there and back, verified by its exports.

mod common;

use common::{create_game, data, gql, play_first, subscribe_timed, Server};
use serde_json::json;
use std::time::{Duration, Instant};

/// A `serve` node on the test server's stream `stream`.
fn node(stream: &str) -> Server {
    let url = store_nats::dev_server::url();
    Server::start(&[
        "--store",
        &url,
        "--store-replicas",
        "1",
        "--store-stream",
        stream,
        "--no-samples",
    ])
}

fn finished_games(server: &Server) -> (bool, u64) {
    let v = gql(
        server,
        None,
        "{ store { backend caughtUp } statistics(kind: FIVE_TRIBES) { games } }",
        json!({}),
    );
    let d = data(&v);
    assert_eq!(d["store"]["backend"], "nats-jetstream");
    (
        d["store"]["caughtUp"].as_bool().unwrap(),
        d["statistics"]["games"].as_u64().unwrap(),
    )
}

#[test]
fn two_nodes_on_one_jetstream_store_play_one_game_and_agree_on_statistics() {
    let (a, b) = (node("NODES"), node("NODES"));
    for n in [&a, &b] {
        let ready = ureq::get(&format!("{}/readyz", n.url)).call().unwrap();
        assert_eq!(ready.status(), 200);
    }
    let (id, tokens) = create_game(&a, "five-tribes", 2, 7);
    // Moves alternate between the nodes; each reads what the other wrote.
    let mut turn = 0;
    let on = |turn: usize| if turn.is_multiple_of(2) { &a } else { &b };
    while play_first(on(turn), &id, &tokens).unwrap().is_some() {
        turn += 1;
        assert!(turn < 2_000, "the game does not end");
    }
    let read = |n: &Server| {
        let v = gql(
            n,
            None,
            "query($id: ID!) { game(id: $id) { plies status } }",
            json!({ "id": id }),
        );
        data(&v)["game"].clone()
    };
    assert_eq!(read(&a), read(&b));
    assert_eq!(read(&a)["status"], "FINISHED");
    // Both nodes' projections read the finished game: caught up, the same statistics.
    let start = Instant::now();
    while [&a, &b].iter().any(|n| finished_games(n) != (true, 1)) {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "not caught up: {:?} {:?}",
            finished_games(&a),
            finished_games(&b)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // A node is killed; the other serves on.
    drop(a);
    assert_eq!(read(&b)["status"], "FINISHED");
    assert_eq!(finished_games(&b), (true, 1));
}

/// `ludolog migrate` from a folder to a stream and from the stream to a new folder: each time
/// every game, and the command itself checks that the exports are identical; a node serving
/// the stream then lists them.
#[test]
fn migrate_moves_every_game_to_jetstream_and_back_with_identical_exports() {
    let url = store_nats::dev_server::url();
    let work = tempfile::tempdir().unwrap();
    let (src, back) = (work.path().join("src"), work.path().join("back"));
    // A folder holding the sample games, active and finished.
    let samples = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/samples/mombasa.ndjson"
    );
    let out = std::process::Command::new(common::ludolog())
        .args(["import", samples, "--allow-rejects", "--data-dir"])
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let migrate = |from: &str, to: &str| {
        let out = std::process::Command::new(common::ludolog())
            .args(["migrate", "--from", from, "--to", to, "--replicas", "1"])
            .args(["--stream", "MIGRATED"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["identical"], true, "{report}");
        report
    };
    let there = migrate(src.to_str().unwrap(), &url);
    assert!(there["games"].as_u64().unwrap() > 10, "{there}");
    let home = migrate(&url, back.to_str().unwrap());
    assert_eq!(home["games"], there["games"]);
    assert_eq!(home["export_bytes"], there["export_bytes"]);
    // Into a store that holds games already: refused, nothing written.
    let out = std::process::Command::new(common::ludolog())
        .args(["migrate", "--from", src.to_str().unwrap(), "--to", &url])
        .args(["--replicas", "1", "--stream", "MIGRATED"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("already holds games"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let n = node("MIGRATED");
    let v = gql(
        &n,
        None,
        "{ games(first: 100) { nodes { id } } }",
        json!({}),
    );
    let listed = data(&v)["games"]["nodes"].as_array().unwrap().len() as u64;
    assert_eq!(listed, there["games"].as_u64().unwrap().min(100));
}

/// A move played on node A reaches `gameUpdates` subscribers on node B within 100 ms (the
/// median of ten moves, each timed from before its `playMove` request was sent: an upper
/// bound), and every move reaches them.
#[test]
fn a_move_on_one_node_reaches_subscribers_on_the_other_within_100_ms() {
    let (a, b) = (node("LIVE"), node("LIVE"));
    let (id, tokens) = create_game(&a, "five-tribes", 3, 11);
    let sub = subscribe_timed(&b, &id, 0, None);
    std::thread::sleep(Duration::from_millis(300));
    let mut sent = Vec::new();
    for _ in 0..10 {
        let before = Instant::now();
        let (ply, _) = play_first(&a, &id, &tokens)
            .unwrap()
            .expect("a move to play");
        sent.push((ply, before));
    }
    std::thread::sleep(Duration::from_millis(500));
    drop(b);
    let got = sub.join().unwrap();
    let mut lags: Vec<Duration> = sent
        .iter()
        .map(|(ply, before)| {
            let (at, _) = got
                .iter()
                .find(|(_, u)| u["ply"].as_u64() == Some(*ply))
                .unwrap_or_else(|| panic!("ply {ply} never reached node B: {got:?}"));
            at.duration_since(*before)
        })
        .collect();
    lags.sort();
    eprintln!("cross-node lags: {lags:?}");
    assert!(
        lags[lags.len() / 2] < Duration::from_millis(100),
        "{lags:?}"
    );
    assert!(lags.iter().all(|l| *l < Duration::from_secs(1)), "{lags:?}");
}

/// `--store` that is neither `sled` nor `nats://…`, and a NATS store nobody answers: `serve`
/// stops at once with an error saying what to do, before it makes any projections.
#[test]
fn serve_refuses_a_store_it_cannot_use_before_serving() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let nobody = format!("nats://127.0.0.1:{port}");
    for (store, says) in [
        ("postgres://x", "say `sled`"),
        (nobody.as_str(), "cannot reach"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("node");
        let started = Instant::now();
        let out = std::process::Command::new(common::ludolog())
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--store",
                store,
                "--data-dir",
            ])
            .arg(&data)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{store}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{store}: {err}");
        assert!(started.elapsed() < Duration::from_secs(30), "{store}");
        assert!(
            !data.join("projections").exists(),
            "{store}: no projections made before the store answered"
        );
    }
}
