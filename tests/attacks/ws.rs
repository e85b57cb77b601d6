//! Over WebSocket: idle sockets and the socket caps (defect 3); the rate limit, the origin list
//! and the fan-out check on a socket (7). The time limit on a socket's operations is held by
//! `Guarded`'s unit test (no operation of the service is slow enough to show it from outside).

use crate::common::*;
use crate::http::{connect_from, fan_out, healthz};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tungstenite::client::IntoClientRequest;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::{Message, WebSocket};

type Socket = WebSocket<std::net::TcpStream>;

/// Opens `/graphql/ws` (graphql-transport-ws) from loopback address `from`, with `origin` if
/// given; the handshake's error answer (status, body) if it was refused.
fn open(server: &Server, from: [u8; 4], origin: Option<&str>) -> Result<Socket, (u16, String)> {
    let url = format!("{}/graphql/ws", server.url.replace("http://", "ws://"));
    let mut req = url.into_client_request().unwrap();
    req.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        "graphql-transport-ws".parse().unwrap(),
    );
    if let Some(o) = origin {
        req.headers_mut().insert("Origin", o.parse().unwrap());
    }
    let stream = connect_from(server, from).unwrap();
    match tungstenite::client(req, stream) {
        Ok((ws, _)) => Ok(ws),
        Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(r))) => Err((
            r.status().as_u16(),
            String::from_utf8_lossy(r.body().as_deref().unwrap_or_default()).to_string(),
        )),
        Err(e) => panic!("handshake: {e}"),
    }
}

/// Sends `connection_init` and waits for the ack.
fn init(ws: &mut Socket) {
    ws.send(Message::text(
        json!({"type": "connection_init"}).to_string(),
    ))
    .unwrap();
    loop {
        let m = ws.read().unwrap();
        if m.to_text().is_ok_and(|t| t.contains("connection_ack")) {
            return;
        }
    }
}

/// Sends operation `id` and returns the first answer to it (`next` or `error` payload).
fn operate(ws: &mut Socket, id: &str, query: &str) -> Value {
    send(ws, id, query);
    answer(ws, id)
}

fn send(ws: &mut Socket, id: &str, query: &str) {
    ws.send(Message::text(
        json!({"id": id, "type": "subscribe", "payload": {"query": query}}).to_string(),
    ))
    .unwrap();
}

fn answer(ws: &mut Socket, id: &str) -> Value {
    loop {
        let m = ws.read().unwrap();
        let Ok(t) = m.to_text() else { continue };
        let Ok(v) = serde_json::from_str::<Value>(t) else {
            continue;
        };
        if v["id"] == id && (v["type"] == "next" || v["type"] == "error") {
            return v["payload"].clone();
        }
    }
}

#[test]
fn a_socket_without_init_is_closed_with_4408_and_sockets_are_capped() {
    let server = Server::start(&[
        "--no-samples",
        "--socket-init-timeout-secs",
        "1",
        "--max-sockets-per-addr",
        "3",
        "--max-socket-operations",
        "2",
    ]);
    let stranger = [127, 0, 0, 2];
    // Silent after the upgrade: closed with 4408 once the init timeout passes.
    let mut idle = open(&server, stranger, None).unwrap();
    let start = Instant::now();
    let close = loop {
        match idle.read() {
            Ok(Message::Close(frame)) => break frame,
            Ok(_) => continue,
            Err(e) => panic!("no close frame before the socket ended: {e}"),
        }
    };
    let frame = close.expect("a close frame with a code");
    assert_eq!(frame.code, CloseCode::from(4408), "{frame:?}");
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );
    drop(idle);
    std::thread::sleep(Duration::from_millis(200));
    // Three sockets from one address, initialised (past the timeout, still open); a fourth
    // is refused before the upgrade, in JSON with a code.
    let mut held: Vec<Socket> = (0..3)
        .map(|_| {
            let mut ws = open(&server, stranger, None).unwrap();
            init(&mut ws);
            ws
        })
        .collect();
    let (status, body) = open(&server, stranger, None).expect_err("refused");
    assert_eq!(status, 503, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(code(&v), "LIMIT_EXCEEDED", "{v}");
    // Another address is not held to this one's count.
    let mut other = open(&server, [127, 0, 0, 3], None).unwrap();
    init(&mut other);
    assert!(healthz(&server) < Duration::from_secs(1));
    std::thread::sleep(Duration::from_millis(1_500));
    // Operations on one socket: two run at once, a third is refused; a finished one frees its
    // place.
    let (game, _) = create_game(&server, "mombasa", 2, 7);
    let ws = &mut held[0];
    let updates = format!("subscription {{ gameUpdates(gameId: \"{game}\") {{ ply }} }}");
    let updates = updates.as_str();
    send(ws, "a", updates);
    send(ws, "b", updates);
    let third = operate(ws, "c", "{ rules { kind } }");
    let third = if third.is_array() {
        third[0].clone()
    } else {
        third["errors"][0].clone()
    };
    assert_eq!(third["extensions"]["code"], "LIMIT_EXCEEDED", "{third}");
    // Stop one: a query runs again.
    ws.send(Message::text(
        json!({"id": "a", "type": "complete"}).to_string(),
    ))
    .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let v = operate(ws, "d", "{ rules { kind } }");
    assert_eq!(v["data"]["rules"][0]["kind"], "FIVE_TRIBES", "{v}");
}

#[test]
fn a_socket_is_held_to_the_rate_limit_the_origin_list_and_the_fan_out_check() {
    let server = Server::start(&[
        "--no-samples",
        "--rate-limit",
        "5",
        "--rate-burst",
        "10",
        "--cors-origin",
        "https://good.example",
    ]);
    let stranger = [127, 0, 0, 2];
    // A page from an origin not on the list cannot open a socket.
    let (status, body) =
        open(&server, stranger, Some("https://evil.example")).expect_err("refused");
    assert_eq!(status, 403, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(code(&v), "FORBIDDEN", "{v}");
    // One from the list can, and so can the service's own pages.
    let mut ws = open(&server, stranger, Some("https://good.example")).unwrap();
    init(&mut ws);
    let own = format!("http://{}", crate::http::addr(&server));
    drop(open(&server, [127, 0, 0, 3], Some(&own)).expect("the service's own origin"));
    // Fifty mutations over the one socket: those over the rate are refused, and made nothing.
    let create = r#"mutation { createGame(kind: MOMBASA, players: ["a", "b"]) { game { id } } }"#;
    let mut made = 0;
    let mut limited = 0;
    for i in 0..50 {
        let v = operate(&mut ws, &format!("m{i}"), create);
        let error = if v.is_array() {
            Some(&v[0])
        } else {
            v["errors"].get(0)
        };
        match error {
            None => made += 1,
            Some(e) => {
                assert_eq!(e["extensions"]["code"], "RATE_LIMITED", "{e}");
                limited += 1;
            }
        }
    }
    assert!(limited >= 30, "{made} made, {limited} refused");
    let v = gql(
        &server,
        None,
        "{ games(first: 100) { edges { cursor } } }",
        json!({}),
    );
    assert_eq!(
        data(&v)["games"]["edges"].as_array().unwrap().len(),
        made,
        "a refused mutation wrote nothing"
    );
    // The fan-out is refused on a socket as over HTTP (after the bucket refills).
    std::thread::sleep(Duration::from_secs(3));
    let v = operate(&mut ws, "fan", &fan_out(30));
    let e = if v.is_array() {
        v[0].clone()
    } else {
        v["errors"][0].clone()
    };
    assert_eq!(e["extensions"]["code"], "LIMIT_EXCEEDED", "{v}");
}
