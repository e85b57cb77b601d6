//! The running service against hostile requests, from outside: nested input cannot stop it
//! (HTTP and WebSocket), every error answer is JSON with a code, exports check their filter
//! before the first byte, the rate limit answers `RATE_LIMITED`, responses are bounded, and the
//! command line keeps its secrets and its manners (key file mode, CSV cells, closed pipes).

mod common;

use common::*;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::time::Duration;

/// A raw HTTP request; returns (status, content type, body).
fn http(
    server: &Server,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    let mut req =
        ureq::request(method, &format!("{}{path}", server.url)).timeout(Duration::from_secs(30));
    for (k, v) in headers {
        req = req.set(k, v);
    }
    let r = if body.is_empty() && method == "GET" {
        req.call()
    } else {
        req.send_string(body)
    };
    let r = match r {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {path}: {e}"),
    };
    let status = r.status();
    let ct = r.header("content-type").unwrap_or("").to_string();
    (status, ct, r.into_string().unwrap_or_default())
}

/// Asserts a JSON error answer with `status` and `code`; returns its first error.
fn json_error(answer: (u16, String, String), status: u16, code: &str) -> Value {
    let (s, ct, body) = answer;
    assert_eq!(s, status, "{body}");
    assert!(ct.starts_with("application/json"), "{ct}: {body}");
    let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(v["errors"][0]["extensions"]["code"], code, "{v}");
    assert!(v["errors"][0]["message"]
        .as_str()
        .is_some_and(|m| !m.is_empty()));
    v["errors"][0].clone()
}

#[test]
fn nested_input_cannot_stop_the_server() {
    let mut server = Server::start(&["--no-samples"]);
    let list = format!(
        "{{ games(first: {}1{}) {{ edges {{ cursor }} }} }}",
        "[".repeat(1_600),
        "]".repeat(1_600)
    );
    let object = format!(
        "mutation {{ createGame(kind: \"mombasa\", players: [\"a\", \"b\"], options: {}1{}) {{ seatTokens }} }}",
        "{a: ".repeat(1_400),
        "}".repeat(1_400)
    );
    for q in [&list, &object] {
        let v = gql(&server, None, q, json!({}));
        assert_eq!(code(&v), "LIMIT_EXCEEDED", "{v}");
    }
    // Over the WebSocket too (graphql-transport-ws).
    let ws_url = format!("{}/graphql/ws", server.url.replacen("http", "ws", 1));
    let mut req =
        tungstenite::client::IntoClientRequest::into_client_request(ws_url.as_str()).unwrap();
    req.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        "graphql-transport-ws".parse().unwrap(),
    );
    let (mut ws, _) = tungstenite::connect(req).unwrap();
    ws.send(tungstenite::Message::text(
        json!({"type": "connection_init"}).to_string(),
    ))
    .unwrap();
    loop {
        let m = ws.read().unwrap();
        if m.is_text() && m.to_text().unwrap().contains("connection_ack") {
            break;
        }
    }
    ws.send(tungstenite::Message::text(
        json!({"id": "1", "type": "subscribe", "payload": {"query": list}}).to_string(),
    ))
    .unwrap();
    let answer = loop {
        let m = ws.read().unwrap();
        if m.is_text() {
            break m.to_text().unwrap().to_string();
        }
    };
    assert!(answer.contains("LIMIT_EXCEEDED"), "{answer}");
    // Still serving.
    let v = gql(&server, None, "{ rules { kind } }", json!({}));
    assert_eq!(data(&v)["rules"][0]["kind"], "FIVE_TRIBES");
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the process is alive"
    );
}

#[test]
fn every_error_answer_is_json_with_a_code() {
    let server = Server::start(&["--no-samples", "--max-body", "4096"]);
    let post =
        |body: &str, ct: &str| http(&server, "POST", "/graphql", &[("Content-Type", ct)], body);
    json_error(post("{not json", "application/json"), 400, "BAD_REQUEST");
    json_error(post("[1, 2]", "application/json"), 400, "BAD_REQUEST");
    json_error(post("{}", "text/plain"), 415, "UNSUPPORTED_MEDIA_TYPE");
    // A request without a query is not a GraphQL-over-HTTP request: 400 (the spec's audits,
    // issue 38), as for any media type asked for.
    json_error(post("{}", "application/json"), 400, "BAD_REQUEST");
    // A document that does not parse is a GraphQL error: 200 under application/json.
    let (s, _, body) = post(r#"{"query": "{"}"#, "application/json");
    assert_eq!(s, 200, "{body}");
    assert!(body.contains("BAD_QUERY"), "{body}");
    json_error(
        http(
            &server,
            "GET",
            "/graphql",
            &[("Accept", "application/json")],
            "",
        ),
        400,
        "BAD_REQUEST",
    );
    json_error(
        http(&server, "GET", "/no/such/page", &[], ""),
        404,
        "NOT_FOUND",
    );
    json_error(
        http(&server, "POST", "/healthz", &[], "x"),
        405,
        "METHOD_NOT_ALLOWED",
    );
    let e = json_error(
        http(&server, "GET", "/exports/chess/games.csv", &[], ""),
        404,
        "NOT_FOUND",
    );
    assert!(
        e["message"].as_str().unwrap().contains("five-tribes"),
        "names the kinds: {e}"
    );
    json_error(
        http(&server, "GET", "/exports/five-tribes/nope.csv", &[], ""),
        404,
        "NOT_FOUND",
    );
    json_error(
        http(&server, "GET", "/charts/five-tribes/nope.svg", &[], ""),
        404,
        "NOT_FOUND",
    );
    json_error(
        http(
            &server,
            "GET",
            "/charts/chess/win-rate-by-seat.svg",
            &[],
            "",
        ),
        404,
        "NOT_FOUND",
    );
    let big = format!("{{\"query\": \"{}\"}}", " ".repeat(8_000));
    json_error(post(&big, "application/json"), 413, "LIMIT_EXCEEDED");
    // A malformed bearer header is refused, not read as a spectator or a near-miss seat.
    // (Trailing blanks are not in the list: HTTP strips them from every header value.)
    for auth in [
        "Bearer abc def",
        "Bearer  abc",
        "Token abc",
        "Bearer",
        "Bearer a\tb",
    ] {
        json_error(
            http(
                &server,
                "POST",
                "/graphql",
                &[
                    ("Content-Type", "application/json"),
                    ("Authorization", auth),
                ],
                r#"{"query": "{ rules { kind } }"}"#,
            ),
            401,
            "UNAUTHORIZED",
        );
    }
    // GET runs queries, never mutations.
    let (s, _, body) = http(
        &server,
        "GET",
        "/graphql?query=%7B%20rules%20%7B%20kind%20%7D%20%7D",
        &[("Accept", "application/json")],
        "",
    );
    assert_eq!(s, 200, "{body}");
    assert!(body.contains("FIVE_TRIBES"), "{body}");
    json_error(
        http(
            &server,
            "GET",
            "/graphql?query=mutation%20%7B%20importGame(record%3A%20%22%22)%20%7B%20id%20%7D%20%7D",
            &[("Accept", "application/json")],
            "",
        ),
        405,
        "METHOD_NOT_ALLOWED",
    );
    // A batch is a list of answers.
    let (s, _, body) = post(
        r#"[{"query": "{ rules { kind } }"}, {"query": "{ nope }"}]"#,
        "application/json",
    );
    assert_eq!(s, 200);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v[0]["data"]["rules"][0]["kind"], "FIVE_TRIBES");
    assert_eq!(v[1]["errors"][0]["extensions"]["code"], "BAD_QUERY");
}

#[test]
fn an_export_checks_its_filter_before_the_first_byte() {
    let server = Server::start(&[]);
    for filter in [
        "round",
        "phase",
        "seats[0].gold + 1",
        "seats.map(s, s.gold)",
    ] {
        let path = format!(
            "/exports/five-tribes/positions.ndjson?where={}",
            urlencode(filter)
        );
        let e = json_error(http(&server, "GET", &path, &[], ""), 400, "BAD_QUERY");
        assert!(
            e["message"].as_str().unwrap().contains("true or false"),
            "{e}"
        );
        assert_eq!(e["extensions"]["line"], 1, "{e}");
        assert!(e["extensions"]["column"].as_u64().is_some(), "{e}");
    }
    // A filter failing on its first positions (not visible from the text) is refused too.
    let path = format!(
        "/exports/five-tribes/positions.ndjson?where={}",
        urlencode("1 / (ply - ply) == 1")
    );
    json_error(http(&server, "GET", &path, &[], ""), 400, "BAD_QUERY");
    // A good one streams.
    let path = format!(
        "/exports/five-tribes/positions.ndjson?where={}",
        urlencode("round == 3")
    );
    let (s, ct, body) = http(&server, "GET", &path, &[], "");
    assert_eq!(s, 200);
    assert!(ct.starts_with("application/x-ndjson"));
    assert!(body.lines().count() > 10);
}

#[test]
fn a_client_over_its_rate_is_told_to_wait() {
    let server = Server::start(&["--no-samples", "--rate-limit", "1", "--rate-burst", "3"]);
    let q = r#"{"query": "{ rules { kind } }"}"#;
    let mut answers = Vec::new();
    for _ in 0..6 {
        answers.push(http(
            &server,
            "POST",
            "/graphql",
            &[("Content-Type", "application/json")],
            q,
        ));
    }
    assert!(
        answers[0].0 == 200 && answers[2].0 == 200,
        "the burst passes"
    );
    let limited = answers
        .into_iter()
        .find(|a| a.0 == 429)
        .expect("some request is limited");
    let e = json_error(limited, 429, "RATE_LIMITED");
    assert!(e["extensions"]["retryAfter"].as_u64().unwrap() >= 1);
}

#[test]
fn a_response_over_the_limit_is_an_error_not_a_flood() {
    let server = Server::start(&["--max-response-bytes", "4000"]);
    let v = gql(
        &server,
        None,
        "{ games(status: FINISHED, first: 1) { edges { node { id } } } }",
        json!({}),
    );
    let id = data(&v)["games"]["edges"][0]["node"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id) { replay { patch } } }",
        json!({ "id": id }),
    );
    assert_eq!(code(&v), "LIMIT_EXCEEDED", "{v}");
    assert!(v.to_string().len() < 4000);
}

#[test]
fn the_state_hash_key_is_private() {
    let server = Server::start(&["--no-samples"]);
    let path = server.dir.path().join("store").join("state-hash.key");
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&path).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
}

#[test]
fn csv_cells_never_start_a_formula() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("store");
    let line = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/samples/five-tribes.ndjson"
    ))
    .unwrap()
    .lines()
    .next()
    .unwrap()
    .to_string();
    let mut rec: Value = serde_json::from_str(&line).unwrap();
    rec["players"] = json!(["=HYPERLINK(\"http://x\")", "@SUM(A1)"]);
    let file = dir.path().join("evil.ndjson");
    std::fs::write(&file, format!("{rec}\n")).unwrap();
    common::ludolog_ok([
        "import",
        file.to_str().unwrap(),
        "--data-dir",
        data.to_str().unwrap(),
    ]);
    let out = std::process::Command::new(ludolog())
        .args([
            "table",
            "--kind",
            "five-tribes",
            "--table",
            "games",
            "--out",
            "-",
            "--data-dir",
            data.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(csv.contains("\"'=HYPERLINK(\"\"http://x\"\")\""), "{csv}");
    assert!(csv.contains(",'@SUM(A1),"), "{csv}");
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("store");
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/samples/five-tribes.ndjson"
    );
    let ok = std::process::Command::new(ludolog())
        .args(["import", sample, "--data-dir", data.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(ok.status.success());
    let mut child = std::process::Command::new(ludolog())
        .args(["export", "--out", "-", "--data-dir", data.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Read a little, as `head -c` would, then close the pipe.
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    out.read_exact(&mut first).unwrap();
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
    let by_signal = std::os::unix::process::ExitStatusExt::signal(&status);
    assert!(
        status.success() || by_signal == Some(13),
        "{status:?}: {err}"
    );
    let _ = std::io::stderr().flush();
}
