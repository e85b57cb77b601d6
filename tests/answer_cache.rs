//! The answer cache of finished games, from outside: a cached answer is byte for byte the
//! answer computed afresh (and the answer of a server with the cache off), `GET` answers carry
//! an entity tag — `immutable` when they name the revision they read, since an admin may
//! correct a finished game (`tests/api_revision.rs`) — and honour `If-None-Match`, persisted
//! queries over `GET` are served from it, and nothing about an active game, nor any error, is
//! ever kept.

mod common;
use common::{create_game, data, gql, metric, play_first, Server};
use serde_json::{json, Value};

const POSITION: &str = "query($id: ID!, $p: Int) { game(id: $id) { plies status position(ply: $p) { ply phase toAct { kind seat } view } } }";

/// POSTs `query` and returns the raw body.
fn post_raw(server: &Server, token: Option<&str>, query: &str, vars: Value) -> String {
    let mut req = ureq::post(&format!("{}/graphql", server.url));
    if let Some(t) = token {
        req = req.set("Authorization", &format!("Bearer {t}"));
    }
    req.send_json(json!({ "query": query, "variables": vars }))
        .unwrap()
        .into_string()
        .unwrap()
}

/// GETs `/graphql` with the given parameters and headers: (status, ETag, Cache-Control, body).
fn get_raw(
    server: &Server,
    params: &[(&str, &str)],
    if_none_match: Option<&str>,
) -> (u16, Option<String>, Option<String>, String) {
    let mut req = ureq::get(&format!("{}/graphql", server.url));
    for (k, v) in params {
        req = req.query(k, v);
    }
    if let Some(t) = if_none_match {
        req = req.set("If-None-Match", t);
    }
    let r = match req.call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{e}"),
    };
    let (status, etag, cc) = (
        r.status(),
        r.header("etag").map(str::to_string),
        r.header("cache-control").map(str::to_string),
    );
    (status, etag, cc, r.into_string().unwrap())
}

fn finished_games(server: &Server) -> Vec<(String, u64)> {
    let v = gql(
        server,
        None,
        "{ games(status: FINISHED, first: 5) { edges { node { id plies } } } }",
        json!({}),
    );
    data(&v)["games"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["node"]["id"].as_str().unwrap().to_string(),
                e["node"]["plies"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn cached_answers_are_the_answers_computed_afresh() {
    let cached = Server::start(&[]);
    let fresh = Server::start(&["--cache-mib", "0"]);
    let games = finished_games(&cached);
    assert_eq!(
        games,
        finished_games(&fresh),
        "both servers load the same samples"
    );
    let hits = metric(&cached, "ludolog_answer_cache_hits_total");
    for (id, plies) in &games {
        for ply in [0, 1, plies / 2, *plies] {
            let vars = json!({ "id": id, "p": ply });
            let first = post_raw(&cached, None, POSITION, vars.clone());
            let again = post_raw(&cached, None, POSITION, vars.clone());
            let afresh = post_raw(&fresh, None, POSITION, vars);
            assert!(first.contains("\"view\""), "{first}");
            assert_eq!(first, again, "game {id} ply {ply}: the kept answer differs");
            assert_eq!(
                first, afresh,
                "game {id} ply {ply}: the cached server differs"
            );
        }
    }
    // Every second request was a hit: the cache served them, and the off one kept nothing.
    let served = metric(&cached, "ludolog_answer_cache_hits_total") - hits;
    assert_eq!(served, games.len() as u64 * 4);
    assert_eq!(metric(&fresh, "ludolog_answer_cache_hits_total"), 0);
    assert_eq!(metric(&fresh, "ludolog_answer_cache_inserts_total"), 0);
    // The kept answers' weight is shown, at least their bytes; nothing when the cache is off.
    let kept = metric(&cached, "ludolog_answer_cache_inserts_total");
    assert!(kept > 0 && metric(&cached, "ludolog_answer_cache_bytes") >= kept * 100);
    assert_eq!(metric(&fresh, "ludolog_answer_cache_bytes"), 0);
}

#[test]
fn get_answers_about_finished_games_carry_an_entity_tag_and_pinned_ones_are_immutable() {
    let server = Server::start(&[]);
    let (id, _) = finished_games(&server).remove(0);
    let vars = json!({ "id": id, "p": 3 }).to_string();
    // Pinned to a revision, the answer never changes: HTTP caches keep it for good.
    let pinned = POSITION.replace("game(id: $id)", "game(id: $id, revision: 0)");
    let (status, etag, cc, pinned_body) = get_raw(
        &server,
        &[("query", &pinned), ("variables", vars.as_str())],
        None,
    );
    assert_eq!(status, 200, "{pinned_body}");
    assert!(etag.is_some());
    assert_eq!(cc.as_deref(), Some("public, max-age=31536000, immutable"));
    // The latest revision: kept a minute, then revalidated by its tag.
    let params = [("query", POSITION), ("variables", vars.as_str())];
    let (status, etag, cc, body) = get_raw(&server, &params, None);
    assert_eq!(status, 200, "{body}");
    let etag = etag.expect("an ETag on a finished game's answer");
    assert_eq!(cc.as_deref(), Some("public, max-age=60"));
    assert_eq!(
        pinned_body, body,
        "a game never corrected reads the same at revision 0"
    );
    // The same again, from the cache: same bytes, same tag.
    let (_, etag2, _, body2) = get_raw(&server, &params, None);
    assert_eq!((etag2.as_deref(), &body2), (Some(etag.as_str()), &body));
    // A client that holds it is told so, without a body.
    let (status, etag3, _, empty) = get_raw(&server, &params, Some(&etag));
    assert_eq!(
        (status, etag3.as_deref(), empty.as_str()),
        (304, Some(etag.as_str()), "")
    );
    let (status, _, _, again) = get_raw(&server, &params, Some("\"something-else\""));
    assert_eq!((status, &again), (200, &body));
    // POST gets the same bytes.
    assert_eq!(
        post_raw(&server, None, POSITION, json!({ "id": id, "p": 3 })),
        body
    );
}

#[test]
fn persisted_queries_over_get_are_served_from_the_cache() {
    use sha2::Digest;
    let server = Server::start(&[]);
    let (id, _) = finished_games(&server).remove(0);
    let hash = hex::encode(sha2::Sha256::digest(POSITION.as_bytes()));
    let ext = json!({ "persistedQuery": { "version": 1, "sha256Hash": hash } }).to_string();
    let vars = json!({ "id": id, "p": 2 }).to_string();
    // Unknown yet: the client is asked for the text.
    let (_, etag, _, body) = get_raw(&server, &[("extensions", &ext), ("variables", &vars)], None);
    assert!(body.contains("PERSISTED_QUERY_NOT_FOUND"), "{body}");
    assert!(etag.is_none(), "an error is never kept");
    let (status, etag, _, with_text) = get_raw(
        &server,
        &[
            ("query", POSITION),
            ("extensions", &ext),
            ("variables", &vars),
        ],
        None,
    );
    assert_eq!(status, 200, "{with_text}");
    // By its hash alone, now: the same answer, kept the first time and served the second.
    let hits = metric(&server, "ludolog_answer_cache_hits_total");
    for _ in 0..2 {
        let (status, etag2, _, by_hash) =
            get_raw(&server, &[("extensions", &ext), ("variables", &vars)], None);
        assert_eq!((status, &by_hash, &etag2), (200, &with_text, &etag));
    }
    assert_eq!(metric(&server, "ludolog_answer_cache_hits_total"), hits + 1);
}

/// Apollo's link sends a query with its hash once, then the hash alone: the hash is
/// registered even when the answer to that text was already kept (once it was not, and every
/// later hash-only request was `PERSISTED_QUERY_NOT_FOUND`); a wrong hash is refused as ever.
#[test]
fn a_hash_sent_with_a_kept_answer_s_text_is_registered() {
    use sha2::Digest;
    let server = Server::start(&[]);
    let (id, _) = finished_games(&server).remove(0);
    let vars = json!({ "id": id, "p": 3 });
    let plain = post_raw(&server, None, POSITION, vars.clone());
    let post = |body: Value| -> String {
        match ureq::post(&format!("{}/graphql", server.url)).send_json(body) {
            Ok(r) => r.into_string().unwrap(),
            Err(ureq::Error::Status(_, r)) => r.into_string().unwrap(),
            Err(e) => panic!("{e}"),
        }
    };
    let hash = hex::encode(sha2::Sha256::digest(POSITION.as_bytes()));
    let ext = json!({ "persistedQuery": { "version": 1, "sha256Hash": hash } });
    let hits = metric(&server, "ludolog_answer_cache_hits_total");
    let with_text = post(json!({ "query": POSITION, "variables": vars, "extensions": ext }));
    assert_eq!(with_text, plain);
    assert_eq!(
        metric(&server, "ludolog_answer_cache_hits_total"),
        hits + 1,
        "answered from the cache"
    );
    let by_hash = post(json!({ "variables": vars, "extensions": ext }));
    assert_eq!(by_hash, plain);
    let wrong = json!({ "persistedQuery": { "version": 1, "sha256Hash": "0".repeat(64) } });
    let refused = post(json!({ "query": POSITION, "variables": vars, "extensions": wrong }));
    assert!(refused.contains("not the hash of the query"), "{refused}");
}

/// Fields come back in the order the query asks for them (GraphQL §7.2.2), with the cache
/// and without it: async-graphql inserts them as they complete, and a finished game's
/// `outcome` (a replay) used to come last.
#[test]
fn fields_come_back_in_selection_order_cached_or_not() {
    for flags in [&[][..], &["--cache-mib", "0"][..]] {
        let server = Server::start(flags);
        let (id, _) = finished_games(&server).remove(0);
        let q = "query($id: ID!) { game(id: $id) { outcome { winners scores { total seat } } plies ...K id } } \
                 fragment K on Game { kind status }";
        for _ in 0..2 {
            let body = post_raw(&server, None, q, json!({ "id": id }));
            let at = |k: &str| {
                body.find(&format!("\"{k}\""))
                    .unwrap_or_else(|| panic!("{k}: {body}"))
            };
            assert!(
                at("outcome") < at("plies")
                    && at("plies") < at("kind")
                    && at("kind") < at("status")
                    && at("status") < at("id")
                    && at("total") < at("seat"),
                "{flags:?}: {body}"
            );
        }
    }
}

/// Over a WebSocket too, an operation's answer has its fields in selection order.
#[test]
fn a_socket_answers_in_selection_order_too() {
    use tungstenite::client::IntoClientRequest;
    use tungstenite::Message;
    let server = Server::start(&[]);
    let (id, _) = finished_games(&server).remove(0);
    let mut req = format!("{}/graphql/ws", server.url.replace("http://", "ws://"))
        .into_client_request()
        .unwrap();
    req.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        "graphql-transport-ws".parse().unwrap(),
    );
    let (mut ws, _) = tungstenite::connect(req).unwrap();
    ws.send(Message::text(
        json!({ "type": "connection_init", "payload": {} }).to_string(),
    ))
    .unwrap();
    ws.send(Message::text(
        json!({ "id": "1", "type": "subscribe", "payload": {
            "query": "query($id: ID!) { game(id: $id) { outcome { winners } plies id } }",
            "variables": { "id": id } } })
        .to_string(),
    ))
    .unwrap();
    let text = loop {
        let Message::Text(t) = ws.read().unwrap() else {
            continue;
        };
        if t.contains("\"next\"") {
            break t.to_string();
        }
        assert!(!t.contains("\"error\""), "{t}");
    };
    let at = |k: &str| {
        text.find(&format!("\"{k}\""))
            .unwrap_or_else(|| panic!("{k}: {text}"))
    };
    assert!(
        at("outcome") < at("plies") && Some(at("plies")) < text.find(&format!("\"id\":\"{id}\"")),
        "{text}"
    );
}

#[test]
fn nothing_about_an_active_game_and_no_error_is_kept() {
    let server = Server::start(&[]);
    let (id, tokens) = create_game(&server, "five-tribes", 2, 7);
    let q = "query($id: ID!) { game(id: $id) { plies status } }";
    let vars = json!({ "id": id }).to_string();
    let params = [("query", q), ("variables", vars.as_str())];
    let (status, etag, cc, before) = get_raw(&server, &params, None);
    assert_eq!(status, 200);
    assert!(
        etag.is_none() && cc.is_none(),
        "an active game is not immutable"
    );
    let inserts = metric(&server, "ludolog_answer_cache_inserts_total");
    play_first(&server, &id, &tokens)
        .unwrap()
        .expect("a seat may move");
    let (_, _, _, after) = get_raw(&server, &params, None);
    assert_ne!(before, after, "the answer follows the game");
    // Errors: a ply past the end of a finished game; a game that does not exist; a finished
    // game beside another root field.
    let (fid, plies) = finished_games(&server).remove(0);
    for (query, vars) in [
        (POSITION, json!({ "id": fid, "p": plies + 1 })),
        (POSITION, json!({ "id": "999999999", "p": 1 })),
        (
            "query($id: ID!) { game(id: $id) { plies } games(first: 1) { edges { cursor } } }",
            json!({ "id": fid }),
        ),
    ] {
        let vars = vars.to_string();
        let (_, etag, _, body) = get_raw(&server, &[("query", query), ("variables", &vars)], None);
        assert!(etag.is_none(), "kept: {body}");
    }
    assert_eq!(
        metric(&server, "ludolog_answer_cache_inserts_total"),
        inserts,
        "nothing was kept"
    );
}
