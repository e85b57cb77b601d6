//! No request may crash, exhaust or fool the server: nesting, aliases, cost, response size and
//! batches are refused before the work with a coded error, and a panic anywhere in a request
//! becomes a coded `INTERNAL` error instead of a dropped connection.

mod common;

use api::guard::Guarded;
use api::limits::Limits;
use api::ApiConfig;
use async_graphql::{EmptyMutation, EmptySubscription, Executor, Object, Request, Schema};
use common::{codes, Service};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::sync::{Arc, OnceLock};

fn service() -> &'static Service {
    static S: OnceLock<Service> = OnceLock::new();
    S.get_or_init(|| Service::new(2, ApiConfig::default()))
}

fn refused(v: &Value, code: &str) {
    assert_eq!(codes(v), vec![code.to_string()], "{v}");
    assert!(v["data"].is_null(), "refused before any work: {v}");
}

#[test]
fn deeply_nested_literals_are_refused_before_parsing() {
    let s = service();
    // Deep enough to overflow a worker's stack in the parser, had it been parsed.
    for depth in [100, 1_600, 10_000, 100_000] {
        let q = format!(
            "{{ games(first: {}1{}) {{ edges {{ cursor }} }} }}",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        refused(&s.run(None, &q, json!({})), "LIMIT_EXCEEDED");
        let q = format!(
            "mutation {{ createGame(kind: MOMBASA, players: [\"a\", \"b\"], options: {}1{}) {{ seatTokens }} }}",
            "{a: ".repeat(depth),
            "}".repeat(depth)
        );
        refused(&s.run(None, &q, json!({})), "LIMIT_EXCEEDED");
    }
    // Variables are bounded the same way (serde_json stops at 128 levels on the wire; a value
    // built in process is checked without recursion).
    let mut v = json!(1);
    for _ in 0..1_400 {
        v = json!({ "a": v });
    }
    let r = s.run(
        None,
        "mutation($o: JSON) { createGame(kind: MOMBASA, players: [\"a\", \"b\"], options: $o) { seatTokens } }",
        json!({ "o": v }),
    );
    refused(&r, "LIMIT_EXCEEDED");
    // Brackets inside strings and comments are not nesting.
    let q = format!(
        "# {}\n{{ games(first: 1, player: \"{}\") {{ edges {{ cursor }} }} }}",
        "[".repeat(500),
        "[".repeat(500)
    );
    assert!(codes(&s.run(None, &q, json!({}))).is_empty());
    // Nothing was written by the refused mutations.
    let v = s.run(
        None,
        "{ games(first: 100) { edges { cursor } } }",
        json!({}),
    );
    assert_eq!(v["data"]["games"]["edges"].as_array().unwrap().len(), 6);
}

#[test]
fn aliases_and_cost_are_bounded_before_the_work() {
    let s = service();
    let id = s.game_id("five-tribes", "finished");
    // The reported attack: a thousand replays of one game in 23 KB.
    let fields: String = (0..1_000)
        .map(|i| format!("r{i}: replay {{ patch }} "))
        .collect();
    let q = format!("{{ game(id: \"{id}\") {{ {fields} }} }}");
    refused(&s.run(None, &q, json!({})), "LIMIT_EXCEEDED");
    // Within the alias limit, the cost still counts every frame: two whole replays are too much,
    // one is fine.
    let q = format!("{{ game(id: \"{id}\") {{ a: replay {{ patch }} b: replay {{ patch }} }} }}");
    refused(&s.run(None, &q, json!({})), "LIMIT_EXCEEDED");
    let q = format!("{{ game(id: \"{id}\") {{ replay {{ patch }} }} }}");
    assert!(codes(&s.run(None, &q, json!({}))).is_empty());
    // A bounded range costs what it holds.
    let q = format!(
        "{{ game(id: \"{id}\") {{ {} }} }}",
        (0..20)
            .map(|i| format!("r{i}: replay(fromPly: 0, toPly: 10) {{ patch }} "))
            .collect::<String>()
    );
    assert!(codes(&s.run(None, &q, json!({}))).is_empty());
    // Views cost per position.
    let q = format!(
        "{{ game(id: \"{id}\") {{ {} }} }}",
        (0..60)
            .map(|i| format!("p{i}: position(ply: {i}) {{ view }} "))
            .collect::<String>()
    );
    refused(&s.run(None, &q, json!({})), "LIMIT_EXCEEDED");
}

#[test]
fn a_streamed_answer_over_the_limit_is_replaced_by_an_error() {
    // Over HTTP the answer is measured where it is serialised (tested end to end); over a
    // WebSocket each streamed answer is measured by the guard.
    let s = Service::new(
        1,
        ApiConfig {
            limits: Limits {
                max_response_bytes: 300,
                ..Limits::default()
            },
            ..ApiConfig::default()
        },
    );
    let id = s.game_id("five-tribes", "finished");
    let sub = |fields: &str| {
        let q = format!("subscription {{ gameUpdates(gameId: \"{id}\") {{ {fields} }} }}");
        s.rt.block_on(
            s.guarded
                .answer_stream(Request::new(q), None)
                .take(2)
                .collect::<Vec<_>>(),
        )
    };
    // Ply 0 is the deal, hundreds of characters of notation: over the limit.
    let items = sub("ply move");
    let v = serde_json::to_value(&items[0]).unwrap();
    assert_eq!(codes(&v), vec!["LIMIT_EXCEEDED".to_string()], "{v}");
    // Asking for less passes.
    let items = sub("ply");
    assert!(items.iter().all(|r| r.errors.is_empty()));
}

#[test]
fn batches_are_bounded() {
    let s = service();
    let one = || Request::new("{ rules { kind } }");
    let ok = s.rt.block_on(
        s.guarded
            .answer_batch(async_graphql::BatchRequest::Batch(vec![one(), one()])),
    );
    assert!(
        matches!(ok, async_graphql::BatchResponse::Batch(ref v) if v.len() == 2 && v.iter().all(|r| r.errors.is_empty()))
    );
    let many =
        s.rt.block_on(s.guarded.answer_batch(async_graphql::BatchRequest::Batch(
            (0..17).map(|_| one()).collect(),
        )));
    let v = serde_json::to_value(&many).unwrap();
    refused(&v, "LIMIT_EXCEEDED");
}

/// A schema with a resolver that panics, to prove the net.
struct Boom;

#[Object]
impl Boom {
    async fn fine(&self) -> i32 {
        1
    }
    async fn boom(&self) -> i32 {
        let v: Vec<i32> = Vec::new();
        v[3]
    }
}

#[test]
fn a_panic_in_a_resolver_is_a_coded_internal_error() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let g = Guarded::new(
        Schema::new(Boom, EmptyMutation, EmptySubscription),
        Arc::new(Limits::default()),
    );
    let r = rt.block_on(g.execute(Request::new("{ fine boom }")));
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(codes(&v), vec!["INTERNAL".to_string()], "{v}");
    // The same executor still answers afterwards.
    let r = rt.block_on(g.execute(Request::new("{ fine }")));
    assert!(r.errors.is_empty());
    // And over a stream (the WebSocket path): one coded error, then the stream ends.
    let items = rt.block_on(
        g.execute_stream(Request::new("{ boom }"), None)
            .collect::<Vec<_>>(),
    );
    assert_eq!(items.len(), 1);
    let v = serde_json::to_value(&items[0]).unwrap();
    assert_eq!(codes(&v), vec!["INTERNAL".to_string()], "{v}");
}

/// A schema whose one field takes its time, and a subscription that ticks slowly.
struct Slow;

#[Object]
impl Slow {
    async fn slow(&self) -> i32 {
        tokio::time::sleep(std::time::Duration::from_secs(5)).await;
        1
    }
}

struct Ticks;

#[async_graphql::Subscription]
impl Ticks {
    async fn ticks(&self) -> impl futures_util::Stream<Item = i32> {
        futures_util::stream::iter(0..3).then(|i| async move {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            i
        })
    }
}

#[test]
fn a_query_over_a_stream_answers_within_the_time_limit_and_a_subscription_outlives_it() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let limits = Limits {
        timeout: std::time::Duration::from_millis(200),
        ..Limits::default()
    };
    let g = Guarded::new(Schema::new(Slow, EmptyMutation, Ticks), Arc::new(limits));
    let start = std::time::Instant::now();
    let items = rt.block_on(
        g.execute_stream(Request::new("{ slow }"), None)
            .collect::<Vec<_>>(),
    );
    assert!(
        start.elapsed() < std::time::Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(items.len(), 1);
    let v = serde_json::to_value(&items[0]).unwrap();
    assert_eq!(codes(&v), vec!["TIMEOUT".to_string()], "{v}");
    // A subscription is not a request with a deadline: it runs past the limit to its end.
    let items = rt.block_on(
        g.execute_stream(Request::new("subscription { ticks }"), None)
            .collect::<Vec<_>>(),
    );
    assert_eq!(items.len(), 3, "{items:?}");
    assert!(items.iter().all(|r| r.errors.is_empty()));
}
