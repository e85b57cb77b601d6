//! Over plain HTTP: fragment fan-out and repeated fields (defect 1), slow headers (2),
//! persisted mutations over GET (6), oversized chunked bodies (9).

use crate::common::*;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The server's socket address.
pub fn addr(server: &Server) -> SocketAddr {
    server
        .url
        .trim_start_matches("http://")
        .parse()
        .expect("the server's address")
}

/// A TCP connection to the server from `from` (another loopback address: a stranger, whose
/// connections count against its own caps, not the caller's).
pub fn connect_from(server: &Server, from: [u8; 4]) -> std::io::Result<TcpStream> {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None)?;
    socket.bind(&SocketAddr::from((from, 0)).into())?;
    socket.connect_timeout(&addr(server).into(), Duration::from_secs(5))?;
    let stream: TcpStream = socket.into();
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    Ok(stream)
}

/// How long `/healthz` takes to answer `ok` (panics if it does not within 5 s).
pub fn healthz(server: &Server) -> Duration {
    let start = Instant::now();
    let r = ureq::get(&format!("{}/healthz", server.url))
        .timeout(Duration::from_secs(5))
        .call()
        .expect("/healthz answers");
    assert_eq!(r.into_string().unwrap(), "ok");
    start.elapsed()
}

/// Thirty fragments, each spreading the next twice: 2^30 copies of the last one's fields.
pub fn fan_out(levels: usize) -> String {
    let mut q = String::from("query FanOut { ...F0 }");
    for i in 0..levels {
        q += &format!(" fragment F{i} on Query {{ ...F{} ...F{} }}", i + 1, i + 1);
    }
    q += &format!(" fragment F{levels} on Query {{ __typename rules {{ kind }} }}");
    q
}

/// POSTs `body` as JSON and returns (status, body as JSON) however the server answered.
fn post(server: &Server, body: &Value) -> (u16, Value) {
    let r = ureq::post(&format!("{}/graphql", server.url))
        .timeout(Duration::from_secs(60))
        .send_json(body.clone());
    match r {
        Ok(r) => (r.status(), r.into_json().unwrap()),
        Err(ureq::Error::Status(s, r)) => (s, r.into_json().unwrap_or(Value::Null)),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn fragment_fan_out_and_repeated_fields_are_refused_before_validation() {
    let server = Server::start(&["--no-samples"]);
    let fan = fan_out(30);
    assert!(fan.len() < 1_500, "a small document: {} bytes", fan.len());
    // Two at once, as the review sent them; each refused at once, and /healthz unhindered.
    let attackers: Vec<_> = (0..2)
        .map(|_| {
            let (url, q) = (server.url.clone(), fan.clone());
            std::thread::spawn(move || {
                let start = Instant::now();
                let v: Value = ureq::post(&format!("{url}/graphql"))
                    .timeout(Duration::from_secs(60))
                    .send_json(json!({ "query": q }))
                    .unwrap()
                    .into_json()
                    .unwrap();
                (start.elapsed(), v)
            })
        })
        .collect();
    assert!(healthz(&server) < Duration::from_secs(1));
    for a in attackers {
        let (took, v) = a.join().unwrap();
        assert_eq!(code(&v), "LIMIT_EXCEEDED", "{v}");
        let message = v["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains("fragments are expanded"), "{message}");
        assert!(took < Duration::from_secs(2), "refused in {took:?}");
    }
    // The same by GET.
    let (status, v) =
        match ureq::get(&format!("{}/graphql?query={}", server.url, urlencode(&fan))).call() {
            Ok(r) => (r.status(), r.into_json::<Value>().unwrap()),
            Err(ureq::Error::Status(s, r)) => (s, r.into_json().unwrap()),
            Err(e) => panic!("{e}"),
        };
    assert_eq!(code(&v), "LIMIT_EXCEEDED", "{status}: {v}");
    // One field repeated 4,900 times (73 KB), under the complexity limit.
    let repeated = format!("{{ {} }}", "rules { kind } ".repeat(4_900));
    let start = Instant::now();
    let (_, v) = post(&server, &json!({ "query": repeated }));
    assert_eq!(code(&v), "LIMIT_EXCEEDED", "{v}");
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    // A cycle of spreads is named, not walked.
    let (_, v) = post(
        &server,
        &json!({ "query": "{ ...A } fragment A on Query { ...B } fragment B on Query { __typename ...A }" }),
    );
    assert_eq!(code(&v), "BAD_QUERY", "{v}");
    assert!(
        v["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("cycle"),
        "{v}"
    );
    // What a client really sends passes: fragments, spread more than once.
    let (_, v) = post(
        &server,
        &json!({ "query": "{ ...R ...R } fragment R on Query { rules { kind playerCounts } }" }),
    );
    assert_eq!(data(&v)["rules"][0]["kind"], "FIVE_TRIBES");
    assert!(server_alive(&server));
}

/// The process is still running.
fn server_alive(server: &Server) -> bool {
    std::fs::metadata(format!("/proc/{}", server.pid())).is_ok()
}

/// Whether the server has closed `c` (a read ends at once instead of waiting).
fn closed(c: &mut TcpStream) -> bool {
    c.set_read_timeout(Some(Duration::from_millis(20))).unwrap();
    let mut buf = [0u8; 512];
    loop {
        match c.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue, // an answer before the close: read on
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => return false,
            Err(_) => return true,
        }
    }
}

#[test]
fn slow_headers_are_cut_off_at_the_deadline_and_cannot_fill_a_cap() {
    let server = Server::start(&[
        "--no-samples",
        "--header-timeout-secs",
        "2",
        "--timeout-secs",
        "4",
        "--max-connections-per-addr",
        "20",
    ]);
    let stranger = [127, 0, 0, 2];
    // Sixty connections from one address send part of a head each. At its cap of twenty, each
    // new one takes the place of the oldest that holds no request: at most twenty stay open.
    let mut slow: Vec<TcpStream> = (0..60)
        .map(|_| {
            let mut c = connect_from(&server, stranger).unwrap();
            c.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
                .unwrap();
            c
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let open = slow.iter_mut().map(closed).filter(|gone| !gone).count();
    assert!(open <= 20, "{open} slow connections open from one address");
    assert!(
        slow[..40].iter_mut().all(closed),
        "the oldest made room for the newest"
    );
    // Everyone else is served meanwhile.
    assert!(healthz(&server) < Duration::from_secs(1));
    // The rest trickle a byte every half second: each is closed at its deadline anyway.
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(6) {
        for c in &mut slow {
            let _ = c.write_all(b"X");
        }
        if slow.iter_mut().all(closed) {
            break;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    assert!(
        slow.iter_mut().all(closed),
        "slow heads still open after {:?}",
        start.elapsed()
    );
    // Twenty connections with requests in progress (bodies sent slowly) do fill the
    // address's cap: the twenty-first is refused at once, in JSON with a code.
    let busy: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut c = connect_from(&server, stranger).unwrap();
            c.write_all(
                b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
            )
            .unwrap();
            c
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut extra = connect_from(&server, stranger).unwrap();
    let mut answer = String::new();
    let _ = extra.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer:?}");
    assert!(answer.contains(r#""code":"LIMIT_EXCEEDED""#), "{answer}");
    assert!(healthz(&server) < Duration::from_secs(1));
    drop(busy);
    // With the slots given back, the stranger is served again.
    std::thread::sleep(Duration::from_millis(200));
    let mut c = connect_from(&server, stranger).unwrap();
    c.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    c.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[test]
fn get_runs_no_mutation_registered_under_a_persisted_hash() {
    use sha2::Digest;
    let server = Server::start(&["--no-samples"]);
    let mutation = r#"mutation { createGame(kind: MOMBASA, players: ["a", "b"]) { game { id } } }"#;
    let hash = hex::encode(sha2::Sha256::digest(mutation.as_bytes()));
    let ext = json!({ "persistedQuery": { "version": 1, "sha256Hash": hash } });
    // Registered by POST (a mutation by POST is fine, and makes one game).
    let (_, v) = post(&server, &json!({ "query": mutation, "extensions": ext }));
    assert!(data(&v)["createGame"]["game"]["id"].is_string(), "{v}");
    let count = || {
        let v = gql(
            &server,
            None,
            "{ games(first: 100) { edges { cursor } } }",
            json!({}),
        );
        data(&v)["games"]["edges"].as_array().unwrap().len()
    };
    assert_eq!(count(), 1);
    // By GET, under the hash alone: refused, and nothing made, however often.
    for _ in 0..3 {
        let url = format!(
            "{}/graphql?extensions={}",
            server.url,
            urlencode(&ext.to_string())
        );
        let r = ureq::get(&url).call();
        let (status, v): (u16, Value) = match r {
            Ok(r) => (r.status(), r.into_json().unwrap()),
            Err(ureq::Error::Status(s, r)) => (s, r.into_json().unwrap()),
            Err(e) => panic!("{e}"),
        };
        assert_eq!(status, 405, "{v}");
        assert_eq!(code(&v), "METHOD_NOT_ALLOWED", "{v}");
    }
    assert_eq!(count(), 1, "no game was made by GET");
    // A document of a query and a mutation with no operation name: GET cannot tell, refuses.
    let both = "query Q { rules { kind } } mutation M { createGame(kind: MOMBASA, players: [\"a\", \"b\"]) { game { id } } }";
    let r = ureq::get(&format!("{}/graphql?query={}", server.url, urlencode(both))).call();
    let v: Value = match r {
        Ok(r) => r.into_json().unwrap(),
        Err(ureq::Error::Status(_, r)) => r.into_json().unwrap(),
        Err(e) => panic!("{e}"),
    };
    assert!(v.get("errors").is_some(), "{v}");
    assert_eq!(count(), 1);
}

#[test]
fn an_oversized_chunked_body_is_413_as_with_a_length() {
    let server = Server::start(&["--no-samples", "--max-body", "4096"]);
    let body =
        json!({ "query": format!("{{ rules {{ kind }} }} # {}", "x".repeat(10_000)) }).to_string();
    // With a Content-Length.
    let mut c = TcpStream::connect(addr(&server)).unwrap();
    write!(
        c,
        "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let sized = read_answer(&mut c);
    // Chunked, in pieces of 1,000 bytes.
    let mut c = TcpStream::connect(addr(&server)).unwrap();
    write!(
        c,
        "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    // The server may answer and close before the last piece: later writes may fail.
    for piece in body.as_bytes().chunks(1_000) {
        let _ = write!(c, "{:x}\r\n", piece.len());
        let _ = c.write_all(piece);
        let _ = c.write_all(b"\r\n");
    }
    let _ = c.write_all(b"0\r\n\r\n");
    let chunked = read_answer(&mut c);
    for (what, (status, body)) in [("sized", sized), ("chunked", chunked)] {
        assert_eq!(status, 413, "{what}: {body}");
        let v: Value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("{what}: {e}: {body}"));
        assert_eq!(code(&v), "LIMIT_EXCEEDED", "{what}: {v}");
    }
}

/// Reads a whole HTTP/1.1 answer (the connection closes after it): status and body, a chunked
/// body joined.
fn read_answer(c: &mut TcpStream) -> (u16, String) {
    c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut raw = Vec::new();
    let _ = c.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let mut out = String::new();
        let mut rest = body;
        while let Some((size, after)) = rest.split_once("\r\n") {
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if n == 0 || after.len() < n {
                break;
            }
            out += &after[..n];
            rest = after[n..].trim_start_matches("\r\n");
        }
        out
    } else {
        body.to_string()
    };
    (status, body)
}

#[test]
fn every_limit_is_a_setting_with_its_default_in_the_example_file() {
    let help = String::from_utf8(ludolog_ok(["serve", "--help"])).unwrap();
    let example = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../ops/ludolog.example.toml"
    ))
    .unwrap();
    for name in [
        "max-selections",
        "max-recursion",
        "header-timeout-secs",
        "max-connections",
        "max-connections-per-addr",
        "max-sockets",
        "max-sockets-per-addr",
        "max-socket-operations",
        "socket-init-timeout-secs",
        "max-journal-bytes",
    ] {
        assert!(
            help.contains(&format!("--{name}")),
            "serve --help lacks --{name}"
        );
        let key = format!("{} =", name.replace('-', "_"));
        assert!(example.contains(&key), "the example file lacks {key}");
    }
    // The example file is read as it stands (unknown keys would stop the server).
    let server = Server::start(&["--no-samples", "--config", "ops/ludolog.example.toml"]);
    assert!(healthz(&server) < Duration::from_secs(1));
}

#[test]
fn the_time_limit_answers_while_a_heavy_document_validates_and_health_goes_on() {
    // An operator who raised the field and complexity limits lets through a document whose
    // validation alone takes seconds (seventeen levels of fan-out: 2^17 copies). The time limit
    // still answers at its time, and /healthz all along, even with two such at once.
    let server = Server::start(&[
        "--no-samples",
        "--max-selections",
        "100000000",
        "--max-complexity",
        "1000000000",
        "--timeout-secs",
        "1",
    ]);
    let heavy = fan_out(17);
    let attackers: Vec<_> = (0..2)
        .map(|_| {
            let (url, q) = (server.url.clone(), heavy.clone());
            std::thread::spawn(move || {
                let start = Instant::now();
                let r = ureq::post(&format!("{url}/graphql"))
                    .timeout(Duration::from_secs(60))
                    .send_json(json!({ "query": q }));
                let (status, v): (u16, Value) = match r {
                    Ok(r) => (r.status(), r.into_json().unwrap()),
                    Err(ureq::Error::Status(s, r)) => (s, r.into_json().unwrap()),
                    Err(e) => panic!("{e}"),
                };
                (start.elapsed(), status, v)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    for _ in 0..5 {
        assert!(healthz(&server) < Duration::from_secs(1));
        std::thread::sleep(Duration::from_millis(100));
    }
    for a in attackers {
        let (took, status, v) = a.join().unwrap();
        assert_eq!((status, code(&v).as_str()), (408, "TIMEOUT"), "{v}");
        assert!(
            took < Duration::from_millis(2_500),
            "answered after {took:?}"
        );
    }
}
