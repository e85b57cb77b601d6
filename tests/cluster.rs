//! `ludolog serve --store nats://…`: stateless nodes on one JetStream store. Two nodes on a
//! local `nats-server` (`store_nats::dev_server`) answer the same queries: a game created on
//! one is played on both, each node's projections catch up with games finished on the other
//! (`store { caughtUp }`, then equal `statistics` and explorer nodes), a takeback made through
//! one is read through the other, and when one node is killed the other serves on. `ludolog migrate` moves a store there and back, verified by its exports.

mod common;

use common::{create_game, data, gql, play_first, stored_entries, subscribe_timed, Server};
use serde_json::json;
use std::time::{Duration, Instant};

/// A `serve` node on the test server's stream `stream`, once ready.
fn node(stream: &str) -> Server {
    node_in(None, stream, &[])
}

/// As [`node`], in the data folder `dir` when given, with `extra` settings.
fn node_in(dir: Option<&std::path::Path>, stream: &str, extra: &[&str]) -> Server {
    let url = store_nats::dev_server::url();
    let mut args = vec![
        "--store",
        &url,
        "--store-replicas",
        "1",
        "--store-stream",
        stream,
        "--no-samples",
    ];
    args.extend_from_slice(extra);
    ready(Server::start_in(dir, &args))
}

/// `server` once its `/readyz` says so: a node listens before its shared store is open, and
/// a load balancer (here, the test) sends it nothing until then.
fn ready(server: Server) -> Server {
    let start = Instant::now();
    loop {
        match ureq::get(&format!("{}/readyz", server.url)).call() {
            Ok(_) => return server,
            Err(e) => assert!(
                start.elapsed() < Duration::from_secs(60),
                "{} not ready: {e}",
                server.url
            ),
        }
        std::thread::sleep(Duration::from_millis(100));
    }
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
    // Each node's explorer filed the game from the stream: its first decision's node is the
    // same through either, its key too — both nodes hash with the deployment's key.
    let explorer = |n: &Server| {
        let v = gql(
            n,
            None,
            "query($id: ID!) { game(id: $id) { position(ply: 1) { stateHash explorer { hash games moves { notation games wins } } } } }",
            json!({ "id": id }),
        );
        data(&v)["game"]["position"].clone()
    };
    let node = explorer(&a);
    assert_eq!(node["explorer"]["games"], 1, "{node}");
    assert_eq!(node, explorer(&b));
    // A hash read through one node finds the position through the other.
    let found = gql(
        &b,
        None,
        "query($h: String!) { positionsByHash(stateHash: $h) { gameId ply } }",
        json!({ "h": node["stateHash"] }),
    );
    assert!(
        data(&found)["positionsByHash"]
            .as_array()
            .unwrap()
            .contains(&json!({ "gameId": id, "ply": 1 })),
        "{found}"
    );
    // A node is killed; the other serves on.
    drop(a);
    assert_eq!(read(&b)["status"], "FINISHED");
    assert_eq!(finished_games(&b), (true, 1));
}

/// The state-hash key belongs to the deployment: kept on the stream by the first node, so a
/// node whose folder held a key of its own adopts it (its projections keyed again), and a
/// node given another key by configuration refuses hashes — `stateHash`, `positionsByHash`,
/// the explorer — with `HASH_KEY_MISMATCH` rather than answer with the wrong key, while it
/// serves everything else. Before, every node keyed hashes with its own folder's key.
#[test]
fn every_node_hashes_with_the_deployment_s_key_and_a_node_given_another_refuses_hashes() {
    let a = node("KEYS");
    let (id, tokens) = create_game(&a, "five-tribes", 2, 3);
    while play_first(&a, &id, &tokens).unwrap().is_some() {}
    let hash_of = |n: &Server| {
        gql(
            n,
            None,
            "query($id: ID!) { game(id: $id) { position(ply: 2) { stateHash } } }",
            json!({ "id": id }),
        )
    };
    let hash = data(&hash_of(&a))["game"]["position"]["stateHash"].clone();
    // A node whose folder already holds a key of its own (made by an earlier start).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("state-hash.key"),
        "00112233445566778899aabbccddeeff",
    )
    .unwrap();
    let b = node_in(Some(dir.path()), "KEYS", &[]);
    assert_eq!(data(&hash_of(&b))["game"]["position"]["stateHash"], hash);
    let start = Instant::now();
    let found = loop {
        let v = gql(
            &b,
            None,
            "query($h: String!) { positionsByHash(stateHash: $h) { gameId ply } }",
            json!({ "h": hash }),
        );
        let hits = data(&v)["positionsByHash"].clone();
        if hits.as_array().is_some_and(|h| !h.is_empty())
            || start.elapsed() > Duration::from_secs(15)
        {
            break hits;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        found
            .as_array()
            .unwrap()
            .contains(&json!({ "gameId": id, "ply": 2 })),
        "{found}"
    );
    let kept = std::fs::read_to_string(dir.path().join("state-hash.key")).unwrap();
    assert_ne!(
        kept.trim(),
        "00112233445566778899aabbccddeeff",
        "the folder follows the deployment"
    );
    // A node given another key: hashes refused, the rest served.
    let other = tempfile::tempdir().unwrap();
    let key_file = other.path().join("given.key");
    std::fs::write(&key_file, "ffeeddccbbaa99887766554433221100\n").unwrap();
    let c = node_in(
        None,
        "KEYS",
        &["--state-hash-key-file", key_file.to_str().unwrap()],
    );
    let refused = |v: &serde_json::Value| {
        let errors = v["errors"]
            .as_array()
            .unwrap_or_else(|| panic!("no error: {v}"));
        assert_eq!(errors[0]["extensions"]["code"], "HASH_KEY_MISMATCH", "{v}");
    };
    refused(&hash_of(&c));
    refused(&gql(
        &c,
        None,
        "query($h: String!) { positionsByHash(stateHash: $h) { gameId } }",
        json!({ "h": hash }),
    ));
    refused(&gql(
        &c,
        None,
        "query($id: ID!) { game(id: $id) { position(ply: 2) { explorer { games } } } }",
        json!({ "id": id }),
    ));
    let v = gql(
        &c,
        None,
        "query($id: ID!) { game(id: $id) { status plies } }",
        json!({ "id": id }),
    );
    assert_eq!(data(&v)["game"]["status"], "FINISHED", "{v}");
}

/// `ludolog migrate` from a folder to a stream and from the stream to a new folder: each time
/// every game, and the command itself checks that the exports are identical; `ludolog verify`
/// replays every game on the stream; a node serving the stream then lists them.
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
    common::ludolog_ok([
        "import",
        samples,
        "--allow-rejects",
        "--data-dir",
        src.to_str().unwrap(),
    ]);
    let migrate = |from: &str, to: &str| {
        let out = common::ludolog_ok([
            "migrate",
            "--from",
            from,
            "--to",
            to,
            "--replicas",
            "1",
            "--stream",
            "MIGRATED",
        ]);
        let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(report["identical"], true, "{report}");
        report
    };
    let there = migrate(src.to_str().unwrap(), &url);
    assert!(there["games"].as_u64().unwrap() > 10, "{there}");
    // `verify` replays every game on the stream as recorded.
    let out = common::ludolog_ok(["verify", "--store", &url, "--stream", "MIGRATED", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(report["problems"], json!([]), "{report}");
    assert_eq!(report["kinds"][0]["games"], there["games"], "{report}");
    assert_eq!(
        report["kinds"][0]["as_recorded"], there["games"],
        "{report}"
    );
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

/// `--store` that is neither `sled` nor `nats://…`, or a `nats://` that is no address:
/// `serve` stops at once with an error saying what to do, before it makes any projections.
#[test]
fn serve_refuses_a_store_setting_it_cannot_use() {
    for (setting, says) in [
        (["--store", "postgres://x"], "say `sled`"),
        (["--store", "nats://127.0.0.1:notaport"], "store URL"),
        (["--store-timeout-ms", "0"], "--store-timeout-ms"),
        (["--store-attempt-ms", "x"], "--store-attempt-ms"),
        (["--store-cache-mib", "0"], "--store-cache-mib"),
        (
            ["--state-hash-key-file", "/nonexistent/key"],
            "/nonexistent/key",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("node");
        let out = std::process::Command::new(common::ludolog())
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(setting)
            .arg("--data-dir")
            .arg(&data)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{setting:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{setting:?}: {err}");
        assert!(!data.join("projections").exists(), "{setting:?}");
    }
    // A key file that holds no key is named, and nothing is made.
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, "not a key").unwrap();
    let out = std::process::Command::new(common::ludolog())
        .args(["serve", "--listen", "127.0.0.1:0", "--state-hash-key-file"])
        .arg(&key)
        .arg("--data-dir")
        .arg(dir.path().join("node"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a state-hash key"), "{err}");
    assert!(!dir.path().join("node").exists());
}

/// A NATS store that nobody answers when the node starts: the node listens but is unready —
/// `/readyz` and `/graphql` answer 503 `UNAVAILABLE` saying it cannot reach the cluster,
/// `/healthz` says it lives — and makes no projections; once a server starts at that address,
/// the node opens the store by itself and serves.
#[test]
fn a_node_started_before_its_cluster_is_unready_then_serves_when_the_cluster_comes() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let store = format!("nats://127.0.0.1:{port}");
    let n = Server::start(&["--store", &store, "--store-replicas", "1", "--no-samples"]);
    assert_eq!(get(&n, "/healthz").0, 200);
    // (The first attempt to reach the cluster takes a moment to fail.)
    let (status, body) = wait_for(&n, "/readyz", |_, body| body.contains("cannot reach"));
    assert_eq!(status, 503, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(common::code(&v), "UNAVAILABLE", "{v}");
    assert!(body.contains("cannot reach"), "{body}");
    let v = gql(&n, None, "{ games(first: 1) { nodes { id } } }", json!({}));
    assert_eq!(common::code(&v), "UNAVAILABLE", "{v}");
    assert!(!n.dir.path().join("store/projections").exists());

    // The cluster comes: a server at that address.
    let bin = std::env::var("LUDOLOG_NATS_SERVER").unwrap_or_else(|_| "nats-server".into());
    let sd = tempfile::tempdir().unwrap();
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _nats = Kill(
        std::process::Command::new(bin)
            .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
            .arg(sd.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    wait_for(&n, "/readyz", |status, _| status == 200);
    let (id, _) = create_game(&n, "five-tribes", 2, 3);
    let v = gql(
        &n,
        None,
        "query($id: ID!) { game(id: $id) { plies } }",
        json!({ "id": id }),
    );
    assert_eq!(data(&v)["game"]["plies"], 1);
}

/// A stream someone else made with an age limit (events older than a day would vanish): the
/// node will not write to it and is unready, naming the limit, and leaves the stream as it
/// was; once its owner takes the limit off, the node opens the store by itself and serves.
#[test]
fn a_node_on_a_stream_with_limits_is_unready_until_its_owner_removes_them() {
    use store_nats::dev_server::{make_limited_stream, max_age, remove_age_limit, url};
    let day = Duration::from_secs(86_400);
    make_limited_stream(&url(), "LIMITED", "limited", day);
    let n = Server::start(&[
        "--store",
        &url(),
        "--store-replicas",
        "1",
        "--store-stream",
        "LIMITED",
        "--no-samples",
    ]);
    let (status, body) = wait_for(&n, "/readyz", |_, body| body.contains("max_age"));
    assert_eq!(status, 503, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(common::code(&v), "UNAVAILABLE", "{v}");
    assert_eq!(
        max_age(&url(), "LIMITED"),
        day,
        "the stream is left as it was"
    );
    remove_age_limit(&url(), "LIMITED");
    wait_for(&n, "/readyz", |status, _| status == 200);
    let (id, _) = create_game(&n, "mombasa", 2, 5);
    let v = gql(
        &n,
        None,
        "query($id: ID!) { game(id: $id) { status } }",
        json!({ "id": id }),
    );
    assert_eq!(data(&v)["game"]["status"], "ACTIVE");
}

/// A plain GET: its status and body.
/// A takeback asked through one node and accepted through the other: both nodes read the
/// shorter line and the journal, a move sent to the old ply through either is a conflict, and
/// play goes on from the cut through the node that did not carry it out.
#[test]
fn a_takeback_asked_on_one_node_and_accepted_on_the_other_cuts_the_line_for_both() {
    let (a, b) = (node("TAKEBACKS"), node("TAKEBACKS"));
    let (id, tokens) = create_game(&a, "five-tribes", 2, 7);
    // Play until the line ends on a seat's move that follows another seat move.
    let entries = loop {
        play_first(&a, &id, &tokens)
            .unwrap()
            .expect("the game goes on");
        let e = stored_entries(&a, &id);
        let n = e.len();
        if n >= 10 && e[n - 1].1 != "dealer" && e[n - 2].1 != "dealer" {
            break e;
        }
    };
    let n = entries.len() as u64;
    let seat: usize = entries[n as usize - 1].1.parse().unwrap();
    let takeback = "game { plies } takeback { request status }";
    let v = gql(
        &a,
        Some(&tokens[seat]),
        &format!("mutation($id: ID!, $t: Int!) {{ askTakeback(gameId: $id, toPly: $t) {{ {takeback} }} }}"),
        json!({ "id": id, "t": n - 1 }),
    );
    let request = data(&v)["askTakeback"]["takeback"]["request"]
        .as_i64()
        .unwrap();
    let v = gql(
        &b,
        Some(&tokens[1 - seat]),
        &format!("mutation($id: ID!, $r: Int!) {{ answerTakeback(gameId: $id, request: $r, accept: true) {{ {takeback} }} }}"),
        json!({ "id": id, "r": request }),
    );
    assert_eq!(
        data(&v)["answerTakeback"]["takeback"]["status"],
        "WITHDRAWN",
        "{v}"
    );
    for node in [&a, &b] {
        assert_eq!(stored_entries(node, &id), entries[..n as usize - 1]);
        let v = gql(
            node,
            None,
            "query($id: ID!) { game(id: $id) { takebacks { request status } } }",
            json!({ "id": id }),
        );
        assert_eq!(
            data(&v)["game"]["takebacks"],
            json!([{ "request": request, "status": "WITHDRAWN" }])
        );
        let stale = common::play_first_as(node, &id, &tokens[seat], n);
        assert_eq!(stale, Err("VERSION_CONFLICT".to_string()));
    }
    play_first(&b, &id, &tokens).unwrap().expect("play goes on");
    assert_eq!(common::plies(&a, &id), n);
}

fn get(n: &Server, path: &str) -> (u16, String) {
    match ureq::get(&format!("{}{path}", n.url)).call() {
        Ok(r) => (r.status(), r.into_string().unwrap()),
        Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap()),
        Err(e) => panic!("{path}: {e}"),
    }
}

/// GETs `path` until `until` holds of the answer (30 s at most); the last answer.
fn wait_for(n: &Server, path: &str, until: impl Fn(u16, &str) -> bool) -> (u16, String) {
    let start = Instant::now();
    loop {
        let (status, body) = get(n, path);
        if until(status, &body) {
            return (status, body);
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{path}: {status} {body}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A GraphQL request that may fail to reach its node: `Err` for a transport failure (the node
/// down, a reset, no answer in time), else the JSON answer, errors included.
fn post(
    url: &str,
    token: Option<&str>,
    query: &str,
    vars: serde_json::Value,
) -> Result<serde_json::Value, String> {
    let mut req = ureq::post(&format!("{url}/graphql")).timeout(Duration::from_secs(10));
    if let Some(t) = token {
        req = req.set("Authorization", &format!("Bearer {t}"));
    }
    match req.send_json(json!({ "query": query, "variables": vars })) {
        Ok(r) => r.into_json().map_err(|e| e.to_string()),
        Err(ureq::Error::Status(_, r)) => r.into_json().map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// The seats' moves of a game as stored (the dealer's left out): (ply, move) in order.
fn seat_moves(server: &Server, id: &str) -> Vec<(u64, String)> {
    common::stored_entries(server, id)
        .into_iter()
        .filter(|(_, actor, _)| actor != "dealer")
        .map(|(ply, _, m)| (ply, m))
        .collect()
}

/// What one writer saw: its games with the moves acknowledged in each, and its retriable
/// failures; any other failure fails the test at once.
#[derive(Default)]
struct Written {
    games: Vec<(String, Vec<(u64, String)>)>,
    retried: usize,
}

/// One writer: plays the first legal move of its game through the nodes in turn, each move
/// under an idempotency key and retried with it at the next node until acknowledged; a new
/// game when one ends; stops after `stop` is set, once its move in hand is acknowledged.
fn api_writer(
    w: usize,
    nodes: &std::sync::RwLock<Vec<String>>,
    stop: &std::sync::atomic::AtomicBool,
) -> Written {
    use std::sync::atomic::Ordering;
    let mut out = Written::default();
    let mut turn = w;
    // Each request goes to the next node; a failure is only ever retriable.
    let mut ask = |token: Option<&str>, q: &str, v: serde_json::Value, out: &mut Written| loop {
        let url = nodes.read().unwrap()[turn % 3].clone();
        turn += 1;
        match post(&url, token, q, v.clone()) {
            Ok(a) if a.get("errors").is_none() => return a["data"].clone(),
            Ok(a) => {
                assert_eq!(common::code(&a), "UNAVAILABLE", "writer {w}: {a}");
                out.retried += 1;
            }
            Err(_) => out.retried += 1,
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    while !stop.load(Ordering::SeqCst) {
        let d = ask(
            None,
            "mutation($p: [String!]!, $s: String) { createGame(kind: FIVE_TRIBES, players: $p, seed: $s) { game { id } seatTokens } }",
            json!({ "p": ["a", "b"], "s": (w * 1000 + out.games.len()).to_string() }),
            &mut out,
        );
        let id = d["createGame"]["game"]["id"].as_str().unwrap().to_string();
        let tokens: Vec<String> =
            serde_json::from_value(d["createGame"]["seatTokens"].clone()).unwrap();
        out.games.push((id.clone(), Vec::new()));
        loop {
            if stop.load(Ordering::SeqCst) {
                return out;
            }
            let d = ask(
                None,
                "query($id: ID!) { game(id: $id) { plies position { seatsToAct } } }",
                json!({ "id": id }),
                &mut out,
            );
            let plies = d["game"]["plies"].as_u64().unwrap();
            let Some(seat) = d["game"]["position"]["seatsToAct"][0].as_u64() else {
                break; // the game ended: a new one
            };
            let token = tokens[seat as usize].as_str();
            let d = ask(
                Some(token),
                "query($id: ID!) { game(id: $id) { position { legalMoves(first: 1) { moves } } } }",
                json!({ "id": id }),
                &mut out,
            );
            let m = d["game"]["position"]["legalMoves"]["moves"][0]
                .as_str()
                .unwrap()
                .to_string();
            let d = ask(
                Some(token),
                "mutation($id: ID!, $p: Int!, $m: String!, $k: String) { playMove(gameId: $id, expectedPly: $p, move: $m, idempotencyKey: $k) { entries { ply move } } }",
                json!({ "id": id, "p": plies, "m": m, "k": format!("{id}-{plies}") }),
                &mut out,
            );
            let first = &d["playMove"]["entries"][0];
            assert_eq!(first["move"].as_str(), Some(m.as_str()), "writer {w}: {d}");
            out.games
                .last_mut()
                .unwrap()
                .1
                .push((first["ply"].as_u64().unwrap(), m));
        }
    }
    out
}

/// Three `serve` nodes on a three-server JetStream cluster (3 replicas) under four writers
/// that spread their requests over all three nodes: one JetStream server is killed with
/// `kill -9` and restarted, then one API node is killed with `kill -9` and restarted on its
/// folder. Every acknowledged move is stored exactly once, at its place, every game replays,
/// and the writers saw only retriable failures (a node unreachable, `UNAVAILABLE`).
#[test]
fn kill_9_of_a_jetstream_server_then_of_an_api_node_loses_no_acknowledged_move() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::RwLock;
    let cluster = store_nats::dev_server::Cluster::start();
    let urls = cluster.urls();
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let start = |i: usize| {
        ready(Server::start_in(
            Some(&dirs[i].path().join("node")),
            &[
                "--store",
                &urls,
                "--store-stream",
                "FAILOVER",
                "--no-samples",
            ],
        ))
    };
    let mut servers: Vec<Server> = (0..3).map(start).collect();
    let nodes = RwLock::new(servers.iter().map(|s| s.url.clone()).collect::<Vec<_>>());
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let written: Vec<Written> = std::thread::scope(|scope| {
        let writers: Vec<_> = (0..4)
            .map(|w| {
                let (nodes, stop) = (&nodes, &stop);
                scope.spawn(move || api_writer(w, nodes, stop))
            })
            .collect();
        std::thread::sleep(Duration::from_secs(3));
        cluster.kill(1);
        std::thread::sleep(Duration::from_secs(3));
        cluster.start_node(1);
        std::thread::sleep(Duration::from_secs(3));
        // An API node crashes: its requests in flight fail; the writers go on at the others.
        let _ = servers[1].child.kill();
        let _ = servers[1].child.wait();
        std::thread::sleep(Duration::from_secs(2));
        servers[1] = start(1);
        nodes.write().unwrap()[1] = servers[1].url.clone();
        std::thread::sleep(Duration::from_secs(3));
        stop.store(true, Ordering::SeqCst);
        writers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let (mut acked, mut retried) = (0, 0);
    for (i, w) in written.iter().enumerate() {
        retried += w.retried;
        for (id, moves) in &w.games {
            acked += moves.len();
            // Read through a node the writers' failures never touched and through the
            // restarted one: the seats' moves are exactly the acknowledged ones, in order.
            for server in [&servers[2], &servers[1]] {
                let stored = seat_moves(server, id);
                assert_eq!(&stored, moves, "writer {i}, game {id}");
            }
            // Every game replays to its end.
            let v = gql(
                &servers[0],
                None,
                "query($id: ID!) { game(id: $id) { plies position { ply phase } } }",
                json!({ "id": id }),
            );
            let g = &data(&v)["game"];
            assert_eq!(g["position"]["ply"], g["plies"], "{v}");
        }
    }
    eprintln!(
        "API failover: {acked} moves acknowledged, 0 lost, {retried} retriable failures, {:?}",
        started.elapsed()
    );
    assert!(acked > 50, "the writers made progress: {acked}");
    assert!(retried > 0, "the failures reached the writers");
}
