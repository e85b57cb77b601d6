#![allow(dead_code)]
//! Helpers shared by the end-to-end tests: the path of the `ludolog` binary Cargo built for
//! them, and a `ludolog serve` process on a free port.

pub mod browser;
pub mod revision;

use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// The `ludolog` binary Cargo built for these tests (same profile, no second build).
pub fn ludolog() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ludolog"))
}

/// Runs `ludolog args` on the store in `data` (`LUDOLOG_DATA_DIR`): (success, stdout, stderr).
pub fn ludolog_in(args: &[&str], data: &std::path::Path) -> (bool, String, String) {
    let out = Command::new(ludolog())
        .args(args)
        .env("LUDOLOG_DATA_DIR", data)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Runs `ludolog` with `args` and asserts that it succeeded (showing its standard error if
/// not); its standard output.
pub fn ludolog_ok<S: AsRef<std::ffi::OsStr>>(args: impl IntoIterator<Item = S>) -> Vec<u8> {
    let out = Command::new(ludolog()).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The records of a shipped sample file (`data/samples/<file>.ndjson`), each as JSON.
pub fn sample_records(file: &str) -> Vec<Value> {
    std::fs::read_to_string(format!(
        "{}/../../data/samples/{file}.ndjson",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .lines()
    .map(|l| serde_json::from_str(l).unwrap())
    .collect()
}

/// A `ludolog serve` process on a free port, killed when dropped.
pub struct Server {
    pub child: std::process::Child,
    pub url: String,
    pub dir: tempfile::TempDir,
}

impl Server {
    /// Starts `ludolog serve` on 127.0.0.1:0 with a fresh data directory and `extra` flags.
    pub fn start(extra: &[&str]) -> Server {
        Server::start_in(None, extra)
    }

    /// As `start`, on the store in `data_dir` when given.
    pub fn start_in(data_dir: Option<&std::path::Path>, extra: &[&str]) -> Server {
        use std::io::BufRead;
        let dir = tempfile::tempdir().expect("tempdir");
        let data = data_dir.map_or_else(|| dir.path().join("store"), |d| d.to_path_buf());
        let mut child = Command::new(ludolog())
            .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(data)
            .args(extra)
            // The tests drive the server harder than one client should; the rate limit has
            // its own test, which passes its own `--rate-limit`.
            .args(if extra.contains(&"--rate-limit") {
                &[][..]
            } else {
                &["--rate-limit", "0"][..]
            })
            // Reviews of finished games would take a core from every other test while the
            // suite runs; the review tests pass their own `--review-threads`.
            .args(if extra.contains(&"--review-threads") {
                &[][..]
            } else {
                &["--review-threads", "0"][..]
            })
            // Publishing the datasets writes every month's Parquet files at start; the
            // dataset tests pass their own `--dataset-interval`.
            .args(if extra.contains(&"--dataset-interval") {
                &[][..]
            } else {
                &["--dataset-interval", "0"][..]
            })
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start ludolog serve");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the listening line");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches("/graphql")
            .to_string();
        Server { child, url, dir }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs a GraphQL request (with a seat token if given) and returns the JSON answer, errors
/// included.
pub fn gql(server: &Server, token: Option<&str>, query: &str, vars: Value) -> Value {
    let mut req = ureq::post(&format!("{}/graphql", server.url)).timeout(Duration::from_secs(30));
    if let Some(t) = token {
        req = req.set("Authorization", &format!("Bearer {t}"));
    }
    match req.send_json(json!({ "query": query, "variables": vars })) {
        Ok(r) => r.into_json().unwrap(),
        Err(ureq::Error::Status(_, r)) => r.into_json().unwrap_or(Value::Null),
        Err(e) => panic!("{e}"),
    }
}

/// The entries a game has.
pub fn plies(server: &Server, id: &str) -> u64 {
    let v = gql(
        server,
        None,
        "query($id: ID!) { game(id: $id) { plies } }",
        json!({ "id": id }),
    );
    data(&v)["game"]["plies"].as_u64().unwrap()
}

/// A counter or gauge of the server's `/metrics` (panics if it is not there).
pub fn metric(server: &Server, name: &str) -> u64 {
    let text = ureq::get(&format!("{}/metrics", server.url))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in /metrics"))
}

/// The `data` of an answer that must have no errors.
pub fn data(v: &Value) -> &Value {
    assert!(v.get("errors").is_none(), "unexpected errors: {v}");
    &v["data"]
}

/// The `extensions.code` of an answer's first error.
pub fn code(v: &Value) -> String {
    v["errors"][0]["extensions"]["code"]
        .as_str()
        .unwrap_or_else(|| panic!("no error code in {v}"))
        .to_string()
}

/// Creates a game of `kind` dealt from `seed`; returns its id and seat tokens.
pub fn create_game(
    server: &Server,
    kind: &str,
    players: usize,
    seed: u64,
) -> (String, Vec<String>) {
    let names: Vec<String> = (0..players).map(|i| format!("p{i}")).collect();
    let v = gql(
        server,
        None,
        "mutation($k: GameKind!, $p: [String!]!, $s: String) { createGame(kind: $k, players: $p, seed: $s) { game { id } seatTokens } }",
        json!({ "k": kind.replace('-', "_").to_uppercase(), "p": names, "s": seed.to_string() }),
    );
    let c = &data(&v)["createGame"];
    (
        c["game"]["id"].as_str().unwrap().to_string(),
        c["seatTokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect(),
    )
}

/// Plays the first legal move of the first seat that may move. `Ok(Some((ply, move)))` when
/// acknowledged (the ply the move got, numbered as `moves` numbers it: from 1), `Ok(None)` when nobody may move, `Err(code)` when the
/// server refused.
pub fn play_first(
    server: &Server,
    id: &str,
    tokens: &[String],
) -> Result<Option<(u64, String)>, String> {
    let v = gql(
        server,
        None,
        "query($id: ID!) { game(id: $id) { plies position { seatsToAct } } }",
        json!({ "id": id }),
    );
    if v.get("errors").is_some() {
        return Err(code(&v));
    }
    let plies = v["data"]["game"]["plies"].as_u64().unwrap();
    let Some(seat) = v["data"]["game"]["position"]["seatsToAct"][0].as_u64() else {
        return Ok(None);
    };
    Ok(play_first_as(server, id, &tokens[seat as usize], plies)?.map(|m| (plies + 1, m)))
}

/// Plays the first legal move the seat of `token` has, at `plies`: `Ok(Some(move))` when
/// acknowledged, `Ok(None)` when the seat has no move, `Err(code)` when the server refused.
pub fn play_first_as(
    server: &Server,
    id: &str,
    token: &str,
    plies: u64,
) -> Result<Option<String>, String> {
    let v = gql(
        server,
        Some(token),
        "query($id: ID!) { game(id: $id) { position { legalMoves(first: 1) { moves } } } }",
        json!({ "id": id }),
    );
    let Some(m) = v["data"]["game"]["position"]["legalMoves"]["moves"][0].as_str() else {
        return Ok(None);
    };
    let m = m.to_string();
    let v = gql(
        server,
        Some(token),
        "mutation($id: ID!, $p: Int!, $m: String!) { playMove(gameId: $id, expectedPly: $p, move: $m) { game { plies } } }",
        json!({ "id": id, "p": plies, "m": m }),
    );
    if v.get("errors").is_some() {
        return Err(code(&v));
    }
    Ok(Some(m))
}

/// The moves of a game as stored: (ply, move) in order.
pub fn stored_moves(server: &Server, id: &str) -> Vec<(u64, String)> {
    stored_entries(server, id)
        .into_iter()
        .map(|(ply, _, m)| (ply, m))
        .collect()
}

/// The entries of a game as stored: (ply, actor, move) in order, page by page.
pub fn stored_entries(server: &Server, id: &str) -> Vec<(u64, String, String)> {
    stored_nodes(server, id, "ply actor move")
        .into_iter()
        .map(|n| {
            (
                n["ply"].as_u64().unwrap(),
                n["actor"].as_str().unwrap().to_string(),
                n["move"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Every `Move` of a game with the `fields` selected, in order, page by page.
pub fn stored_nodes(server: &Server, id: &str, fields: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut after: Option<String> = None;
    let query = format!("query($id: ID!, $a: String) {{ game(id: $id) {{ moves(first: 100, after: $a) {{ edges {{ cursor node {{ {fields} }} }} pageInfo {{ hasNextPage }} }} }} }}");
    loop {
        let v = gql(server, None, &query, json!({ "id": id, "a": after }));
        let m = &data(&v)["game"]["moves"];
        for e in m["edges"].as_array().unwrap() {
            out.push(e["node"].clone());
            after = Some(e["cursor"].as_str().unwrap().to_string());
        }
        if !m["pageInfo"]["hasNextPage"].as_bool().unwrap() {
            return out;
        }
    }
}

/// Subscribes to `gameUpdates` over graphql-transport-ws from `from`, and collects each
/// update with the moment it arrived, until the server completes or the socket closes (the
/// server killed).
pub fn subscribe_timed(
    server: &Server,
    id: &str,
    from: u64,
    token: Option<String>,
) -> std::thread::JoinHandle<Vec<(std::time::Instant, Value)>> {
    subscribe_fields(server, id, from, None, token, "ply actor move", usize::MAX)
}

/// As [`subscribe_timed`], from journal note `from_note` (none: from now), selecting `fields`
/// of each update, until `count` updates came.
pub fn subscribe_fields(
    server: &Server,
    id: &str,
    from: u64,
    from_note: Option<u64>,
    token: Option<String>,
    fields: &str,
    count: usize,
) -> std::thread::JoinHandle<Vec<(std::time::Instant, Value)>> {
    let query = format!(
        "subscription($id: ID!, $from: Int, $note: Int) {{ gameUpdates(gameId: $id, fromPly: $from, fromNote: $note) {{ {fields} }} }}"
    );
    let url = format!("{}/graphql/ws", server.url.replace("http://", "ws://"));
    let id = id.to_string();
    std::thread::spawn(move || {
        use tungstenite::client::IntoClientRequest;
        use tungstenite::Message;
        let mut req = url.into_client_request().unwrap();
        req.headers_mut().insert(
            "Sec-WebSocket-Protocol",
            "graphql-transport-ws".parse().unwrap(),
        );
        let (mut ws, _) = tungstenite::connect(req).expect("websocket");
        let auth = token.map(|t| format!("Bearer {t}"));
        ws.send(Message::text(
            json!({ "type": "connection_init", "payload": { "authorization": auth } }).to_string(),
        ))
        .unwrap();
        ws.send(Message::text(
            json!({
                "id": "1",
                "type": "subscribe",
                "payload": {
                    "query": query,
                    "variables": { "id": id, "from": from, "note": from_note }
                }
            })
            .to_string(),
        ))
        .unwrap();
        let mut got = Vec::new();
        loop {
            let msg = match ws.read() {
                Ok(m) => m,
                Err(_) => break,
            };
            let Message::Text(t) = msg else { continue };
            let v: Value = serde_json::from_str(&t).unwrap();
            match v["type"].as_str() {
                Some("next") => {
                    got.push((
                        std::time::Instant::now(),
                        v["payload"]["data"]["gameUpdates"].clone(),
                    ));
                    if got.len() >= count {
                        break;
                    }
                }
                Some("complete") | Some("error") => break,
                _ => {}
            }
        }
        got
    })
}

/// `s` percent-encoded for a URL's query (every byte but RFC 3986's unreserved ones).
pub fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A request's status, headers (lower-case names) and body, whatever the status.
pub fn fetch(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut req = ureq::request(method, url);
    for (k, v) in headers {
        req = req.set(k, v);
    }
    let resp = match req.call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {url}: {e}"),
    };
    let status = resp.status();
    let names = resp.headers_names();
    let hs = names
        .iter()
        .map(|n| {
            (
                n.to_lowercase(),
                resp.header(n).unwrap_or_default().to_string(),
            )
        })
        .collect();
    let mut body = Vec::new();
    std::io::Read::read_to_end(&mut resp.into_reader(), &mut body).unwrap();
    (status, hs, body)
}

/// The value of header `name` (lower case) in `fetch`'s headers.
pub fn header<'a>(hs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    hs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// Asserts that Python has the data tools `modules` (PyPI names with `-`, imported with `_`),
/// which `ops/test.sh` pip-installs at their pinned versions.
pub fn data_tools(modules: &[&str]) {
    let import = format!("import {}", modules.join(", ").replace('-', "_"));
    let ready = Command::new("python3")
        .args(["-c", &import])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ready,
        "{} are not installed: run ops/test.sh (it pip-installs the pinned versions)",
        modules.join(", ")
    );
}
