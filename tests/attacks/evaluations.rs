//! Evaluations are CPU: one client sending many cannot take every slot. Each client runs one
//! at a time (the next waits behind it, and past 2 s is refused `LIMIT_EXCEEDED`), so another
//! client is served while the first one's long search runs.

use crate::common::*;
use crate::http::connect_from;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::time::Duration;

const EVAL: &str = "query($id: ID!, $n: Int) { game(id: $id) { position(ply: 1) { evaluation(iterations: $n) { iterations } } } }";

/// `EVAL` sent from another loopback address, over one raw HTTP/1.1 request.
fn eval_from(server: &Server, from: [u8; 4], id: &str, n: u32) -> Value {
    let body = json!({ "query": EVAL, "variables": { "id": id, "n": n } }).to_string();
    let mut s = connect_from(server, from).expect("connect from another address");
    write!(
        s,
        "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let json = answer.split("\r\n\r\n").nth(1).expect("a body");
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {answer}"))
}

#[test]
fn one_client_cannot_take_every_evaluation_slot() {
    let server = Server::start(&[
        "--no-samples",
        "--eval-threads",
        "2",
        "--bot-max-iterations",
        "200000",
    ]);
    let (id, _) = create_game(&server, "five-tribes", 2, 7);
    // A long search for this client, left running (the server is killed at the end).
    let url = format!("{}/graphql", server.url);
    let long_id = id.clone();
    std::thread::spawn(move || {
        let _ = ureq::post(&url)
            .timeout(Duration::from_secs(120))
            .send_json(json!({ "query": EVAL, "variables": { "id": long_id, "n": 200000 } }));
    });
    std::thread::sleep(Duration::from_millis(500));

    // The same client again: behind its own search, refused after its wait.
    let v = gql(&server, None, EVAL, json!({ "id": id, "n": 10 }));
    assert_eq!(code(&v), "LIMIT_EXCEEDED", "{v}");
    assert!(v.to_string().contains("this client"), "{v}");

    // Another client takes the free slot at once.
    let v = eval_from(&server, [127, 0, 0, 2], &id, 10);
    assert_eq!(
        v["data"]["game"]["position"]["evaluation"]["iterations"], 10,
        "{v}"
    );
}
