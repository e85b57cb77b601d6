//! A game's journal over HTTP and WebSocket, from outside the binary: takebacks asked,
//! refused, accepted and refused for reaching past a chance entry; annotations by each kind
//! of author; studies; the comments of a game text kept as annotations; and what each of them
//! keeps from a spectator.

mod common;

use common::{
    code, data, gql, play_first, plies, stored_entries, subscribe_fields, urlencode, Server,
};
use serde_json::{json, Value};

const ANA: &str = "ana-token-0123456789";

/// A seeded game of `kind` for two: id, seat tokens, recorder token.
fn create(server: &Server, kind: &str, seed: &str) -> (String, Vec<String>, String) {
    let v = gql(
        server,
        None,
        "mutation($k: GameKind!, $s: String) { createGame(kind: $k, players: [\"ann\", \"bob\"], seed: $s) { game { id } seatTokens recorderToken } }",
        json!({ "k": kind, "s": seed }),
    );
    let c = &data(&v)["createGame"];
    (
        c["game"]["id"].as_str().unwrap().to_string(),
        serde_json::from_value(c["seatTokens"].clone()).unwrap(),
        c["recorderToken"].as_str().unwrap().to_string(),
    )
}

const TAKEBACK: &str = "game { plies } takeback { request askedBy toPly acceptedBy status }";

fn ask(server: &Server, token: Option<&str>, id: &str, to: i64) -> Value {
    gql(
        server,
        token,
        &format!("mutation($id: ID!, $t: Int!) {{ askTakeback(gameId: $id, toPly: $t) {{ {TAKEBACK} }} }}"),
        json!({ "id": id, "t": to }),
    )
}

fn answer(server: &Server, token: Option<&str>, id: &str, request: i64, accept: bool) -> Value {
    gql(
        server,
        token,
        &format!("mutation($id: ID!, $r: Int!, $a: Boolean!) {{ answerTakeback(gameId: $id, request: $r, accept: $a) {{ {TAKEBACK} }} }}"),
        json!({ "id": id, "r": request, "a": accept }),
    )
}

fn takeback_count(server: &Server, id: &str) -> usize {
    let v = gql(
        server,
        None,
        "query($id: ID!) { game(id: $id) { takebacks { request } } }",
        json!({ "id": id }),
    );
    data(&v)["game"]["takebacks"].as_array().unwrap().len()
}

fn view(server: &Server, id: &str, ply: u64) -> Value {
    let v = gql(
        server,
        None,
        "query($id: ID!, $p: Int) { game(id: $id) { position(ply: $p) { view } } }",
        json!({ "id": id, "p": ply }),
    );
    data(&v)["game"]["position"]["view"].clone()
}

/// A seat asks to take its last move back: the other seat refuses, then accepts a second
/// request; the withdrawn move stays readable; a request past a chance entry, before the
/// start, or from anyone not asked is refused and writes nothing; the recorder's request is
/// carried out at once; a retried append that was withdrawn is recognised; and `gameUpdates`
/// tells every step, its withdrawal patch bringing a live board back.
#[test]
fn takebacks_are_asked_refused_accepted_and_never_reach_past_a_reveal() {
    let server = Server::start(&["--no-samples"]);
    let (id, tokens, recorder) = create(&server, "FIVE_TRIBES", "5");
    // Play until the last two entries are seats' moves (the bids follow the deal).
    let last_dealer = |entries: &[(u64, String, String)]| {
        entries
            .iter()
            .rev()
            .find(|e| e.1 == "dealer")
            .map_or(0, |e| e.0)
    };
    for _ in 0..200 {
        let e = stored_entries(&server, &id);
        if e.len() as u64 >= last_dealer(&e) + 2 {
            break;
        }
        play_first(&server, &id, &tokens).unwrap().unwrap();
    }
    let before = stored_entries(&server, &id);
    let n = before.len() as u64;
    let dealer = last_dealer(&before);
    assert!(dealer >= 1 && n >= dealer + 2, "{before:?}");
    let last = before.last().unwrap().clone();
    let seat: usize = last.1.parse().unwrap();
    let (asker, other) = (tokens[seat].as_str(), tokens[1 - seat].as_str());
    let board_before = view(&server, &id, n);

    let fields = "kind ply actor move patch journal takeback { request status }";
    let updates = subscribe_fields(&server, &id, n, None, None, fields, 8);
    std::thread::sleep(std::time::Duration::from_millis(500));

    // Asked, then refused: the line is untouched.
    let v = ask(&server, Some(asker), &id, n as i64 - 1);
    let t = &data(&v)["askTakeback"];
    assert_eq!(t["takeback"]["status"], "OPEN", "{v}");
    assert_eq!(t["takeback"]["askedBy"], seat.to_string());
    assert_eq!(t["game"]["plies"], n);
    let request = t["takeback"]["request"].as_i64().unwrap();

    // Nobody else may answer; nor a second request while one is open.
    assert_eq!(
        code(&answer(&server, Some(asker), &id, request, true)),
        "NOT_ASKED"
    );
    assert_eq!(
        code(&answer(&server, None, &id, request, true)),
        "UNAUTHORIZED"
    );
    assert_eq!(
        code(&answer(&server, Some(other), &id, request + 100, true)),
        "NOT_ASKED"
    );
    assert_eq!(
        code(&ask(&server, Some(other), &id, n as i64 - 1)),
        "TAKEBACK_REFUSED"
    );

    let v = answer(&server, Some(other), &id, request, false);
    assert_eq!(data(&v)["answerTakeback"]["takeback"]["status"], "REFUSED");
    assert_eq!(stored_entries(&server, &id), before);
    assert_eq!(
        code(&answer(&server, Some(other), &id, request, true)),
        "NOT_ASKED",
        "closed"
    );

    // Past the chance entry before the bids (it dealt the board: everyone has seen it),
    // before the start, or to where the line already is: refused, nothing written.
    let v = ask(&server, Some(asker), &id, dealer as i64 - 1);
    assert_eq!(code(&v), "TAKEBACK_REFUSED", "{v}");
    let msg = v["errors"][0]["message"].as_str().unwrap();
    assert!(
        msg.contains("chance") && msg.contains(&format!("ply {dealer} at most")),
        "{msg}"
    );
    assert_eq!(code(&ask(&server, Some(asker), &id, -1)), "BAD_INPUT");
    assert_eq!(
        code(&ask(&server, Some(asker), &id, n as i64)),
        "TAKEBACK_REFUSED"
    );
    assert_eq!(code(&ask(&server, None, &id, n as i64 - 1)), "UNAUTHORIZED");
    assert_eq!(takeback_count(&server, &id), 1);
    assert_eq!(stored_entries(&server, &id), before);

    // Asked again and accepted: the line is one shorter, the move kept as withdrawn.
    let v = ask(&server, Some(asker), &id, n as i64 - 1);
    let request = data(&v)["askTakeback"]["takeback"]["request"]
        .as_i64()
        .unwrap();
    let v = answer(&server, Some(other), &id, request, true);
    let t = &data(&v)["answerTakeback"];
    assert_eq!(t["takeback"]["status"], "WITHDRAWN", "{v}");
    assert_eq!(t["takeback"]["acceptedBy"], json!([1 - seat]));
    assert_eq!(t["game"]["plies"], n - 1);
    assert_eq!(stored_entries(&server, &id), before[..before.len() - 1]);
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id) { withdrawals { request toPly by moves { ply actor move } } } }",
        json!({ "id": id }),
    );
    let w = &data(&v)["game"]["withdrawals"];
    assert_eq!(
        *w,
        json!([{ "request": request, "toPly": n - 1, "by": (1 - seat).to_string(),
                 "moves": [{ "ply": n, "actor": last.1, "move": last.2 }] }])
    );

    // `playMove`'s expected ply counts the line as it now is.
    let play = "mutation($id: ID!, $p: Int!, $m: String!, $k: String) { playMove(gameId: $id, expectedPly: $p, move: $m, idempotencyKey: $k) { game { plies } } }";
    let v = gql(
        &server,
        Some(asker),
        play,
        json!({ "id": id, "p": n, "m": last.2, "k": "k1" }),
    );
    assert_eq!(code(&v), "VERSION_CONFLICT");
    let v = gql(
        &server,
        Some(asker),
        play,
        json!({ "id": id, "p": n - 1, "m": last.2, "k": "k1" }),
    );
    assert_eq!(data(&v)["playMove"]["game"]["plies"], n);

    // The recorder's request is carried out at once; a retry of the withdrawn append is
    // recognised, not applied again.
    let v = ask(&server, Some(&recorder), &id, n as i64 - 1);
    let t = &data(&v)["askTakeback"];
    assert_eq!(t["takeback"]["status"], "WITHDRAWN", "{v}");
    assert_eq!(t["takeback"]["askedBy"], "recorder");
    assert_eq!(t["game"]["plies"], n - 1);
    let v = gql(
        &server,
        Some(asker),
        play,
        json!({ "id": id, "p": n - 1, "m": last.2, "k": "k1" }),
    );
    assert_eq!(code(&v), "WITHDRAWN", "{v}");
    assert_eq!(plies(&server, &id), n - 1);

    // What the live subscriber saw: every request, answer and withdrawal, in order.
    let got: Vec<Value> = updates
        .join()
        .unwrap()
        .into_iter()
        .map(|(_, u)| u)
        .collect();
    let kinds: Vec<&str> = got.iter().map(|u| u["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "TAKEBACK_ASKED",
            "TAKEBACK_ANSWERED",
            "TAKEBACK_ASKED",
            "TAKEBACK_ANSWERED",
            "WITHDRAWN",
            "ENTRY",
            "TAKEBACK_ASKED",
            "WITHDRAWN"
        ],
        "{got:#?}"
    );
    assert_eq!(got[1]["takeback"]["status"], "REFUSED");
    assert_eq!(got[4]["ply"], n - 1);
    assert_eq!(got[5]["move"], last.2);
    assert_eq!(got[5]["ply"], n);
    // The withdrawal's patch takes the board of position n back to position n − 1.
    let mut board = board_before;
    let patch: json_patch::Patch = serde_json::from_value(got[4]["patch"].clone()).unwrap();
    json_patch::patch(&mut board, &patch).unwrap();
    assert_eq!(board, view(&server, &id, n - 1));
    assert_eq!(
        got.iter()
            .map(|u| u["journal"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 5, 6, 7],
        "each update says how much of the journal it has told"
    );

    // A subscriber that was away since position n, journal note 0, is told the same story
    // afterwards, from the store: withdrawn entries as they were, then their withdrawal.
    let replayed: Vec<Value> = subscribe_fields(&server, &id, n, Some(0), None, fields, 8)
        .join()
        .unwrap()
        .into_iter()
        .map(|(_, u)| u)
        .collect();
    assert_eq!(replayed, got);
    // Resuming after the third update: the rest, and nothing twice.
    let rest: Vec<Value> = subscribe_fields(&server, &id, n, Some(3), None, fields, 5)
        .join()
        .unwrap()
        .into_iter()
        .map(|(_, u)| u)
        .collect();
    assert_eq!(rest, got[3..]);
    // A journal position past its end is refused.
    let refused = first_message(
        &server,
        &format!("subscription {{ gameUpdates(gameId: \"{id}\", fromNote: 99) {{ ply }} }}"),
    );
    assert_eq!(
        refused["payload"]["errors"][0]["extensions"]["code"], "BAD_INPUT",
        "{refused}"
    );
}

/// A Mombasa start tile kept in secret and then taken back stays hidden from the other seat
/// and from spectators in the withdrawn history, as it was in the line; its seat sees it.
#[test]
fn a_withdrawn_secret_move_stays_secret() {
    let server = Server::start(&["--no-samples"]);
    let (id, tokens, recorder) = create(&server, "MOMBASA", "11");
    let n = plies(&server, &id);
    let v = gql(
        &server,
        Some(&tokens[1]),
        "query($id: ID!) { game(id: $id) { position { legalMoves(first: 1) { moves } } } }",
        json!({ "id": id }),
    );
    let m = data(&v)["game"]["position"]["legalMoves"]["moves"][0]
        .as_str()
        .unwrap()
        .to_string();
    assert!(m.starts_with("keep "), "{m}");
    let v = gql(
        &server,
        Some(&tokens[1]),
        "mutation($id: ID!, $p: Int!, $m: String!) { playMove(gameId: $id, expectedPly: $p, move: $m) { game { plies } } }",
        json!({ "id": id, "p": n, "m": m }),
    );
    data(&v);
    let v = ask(&server, Some(&recorder), &id, n as i64);
    assert_eq!(
        data(&v)["askTakeback"]["takeback"]["status"],
        "WITHDRAWN",
        "{v}"
    );
    let withdrawn = |token: Option<&str>| {
        let v = gql(
            &server,
            token,
            "query($id: ID!) { game(id: $id) { withdrawals { moves { move description } } } }",
            json!({ "id": id }),
        );
        data(&v)["game"]["withdrawals"][0]["moves"][0].clone()
    };
    let own = withdrawn(Some(&tokens[1]));
    assert_eq!(own["move"], m.as_str());
    for other in [None, Some(tokens[0].as_str()), Some(recorder.as_str())] {
        let w = withdrawn(other);
        assert_eq!(w["move"], "hidden", "{w}");
        assert_ne!(w["description"], own["description"], "{w}");
    }
}

fn annotate(
    server: &Server,
    token: Option<&str>,
    id: &str,
    ply: i64,
    glyph: Option<&str>,
    comment: &str,
) -> Value {
    gql(
        server,
        token,
        "mutation($id: ID!, $p: Int!, $g: String, $c: String) { annotate(gameId: $id, ply: $p, glyph: $g, comment: $c) { id ply glyph comment author withdrawn } }",
        json!({ "id": id, "p": ply, "g": glyph, "c": comment }),
    )
}

fn annotations(server: &Server, id: &str) -> Vec<Value> {
    let v = gql(
        server,
        None,
        "query($id: ID!) { game(id: $id) { annotations { ply glyph comment author } } }",
        json!({ "id": id }),
    );
    data(&v)["game"]["annotations"].as_array().unwrap().clone()
}

/// Seats, the recorder, an analyst and the admin annotate; anyone else, a ply that does not
/// exist, a bad glyph or comment is refused and writes nothing. Annotations show on the game
/// and in replay frames, and a finished game's cached answers follow them. A study is made by
/// an analyst, read back by anyone at its own URL, and refused when it names a game or a
/// position that does not exist.
#[test]
fn annotations_and_studies_over_http() {
    let server = Server::start(&[
        "--admin-token",
        "root-secret-0123456789",
        "--annotators",
        &format!("Ana={ANA},Bea=bea-token-0123456789"),
    ]);
    let (id, tokens, recorder) = create(&server, "FIVE_TRIBES", "9");
    for _ in 0..3 {
        play_first(&server, &id, &tokens).unwrap().unwrap();
    }
    let n = plies(&server, &id) as i64;
    let v = annotate(
        &server,
        Some(&tokens[0]),
        &id,
        1,
        Some("!?"),
        "a bold layout",
    );
    assert_eq!(
        data(&v)["annotate"],
        json!({ "id": 0, "ply": 1, "glyph": "!?", "comment": "a bold layout", "author": "0", "withdrawn": false })
    );
    data(&annotate(
        &server,
        Some(&recorder),
        &id,
        n,
        None,
        "as played at the club",
    ));
    data(&annotate(&server, Some(ANA), &id, 0, Some("?!"), ""));
    data(&annotate(
        &server,
        Some("root-secret-0123456789"),
        &id,
        2,
        None,
        "line one\nline two",
    ));
    let want = json!([
        { "ply": 1, "glyph": "!?", "comment": "a bold layout", "author": "0" },
        { "ply": n, "glyph": null, "comment": "as played at the club", "author": "recorder" },
        { "ply": 0, "glyph": "?!", "comment": "", "author": "analyst:Ana" },
        { "ply": 2, "glyph": null, "comment": "line one\nline two", "author": "admin" },
    ]);
    assert_eq!(json!(annotations(&server, &id)), want);

    for (token, ply, glyph, comment, expect) in [
        (None, 1, None, "anonymous", "UNAUTHORIZED"),
        (
            Some("not-a-token-at-all"),
            1,
            None,
            "stranger",
            "UNAUTHORIZED",
        ),
        (Some(ANA), n + 1, None, "past the end", "NOT_FOUND"),
        (Some(ANA), -1, None, "before the start", "BAD_INPUT"),
        (Some(ANA), 1, Some("!!!"), "", "BAD_INPUT"),
        (Some(ANA), 1, None, "", "BAD_INPUT"),
        (Some(ANA), 1, None, &"x".repeat(2001), "BAD_INPUT"),
        (Some(ANA), 1, None, "evil \u{202e}txet", "BAD_INPUT"),
    ] {
        let v = annotate(&server, token, &id, ply, glyph, comment);
        assert_eq!(code(&v), expect, "{comment:.20}: {v}");
    }
    assert_eq!(
        code(&annotate(&server, Some(ANA), "0000000000000", 0, None, "x")),
        "NOT_FOUND"
    );
    assert_eq!(json!(annotations(&server, &id)), want, "nothing written");

    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id) { replay(toPly: 2) { ply annotations { comment } } } }",
        json!({ "id": id }),
    );
    assert_eq!(
        data(&v)["game"]["replay"],
        json!([{ "ply": 1, "annotations": [{ "comment": "a bold layout" }] },
               { "ply": 2, "annotations": [{ "comment": "line one\nline two" }] }])
    );

    // A finished sample game: its answers are cached, yet an annotation shows at once.
    let v = gql(
        &server,
        None,
        "{ games(status: FINISHED, first: 1) { edges { node { id plies } } } }",
        json!({}),
    );
    let done = data(&v)["games"]["edges"][0]["node"].clone();
    let done_id = done["id"].as_str().unwrap().to_string();
    let get = |q: &str| {
        let url = format!("{}/graphql?query={}", server.url, urlencode(q));
        ureq::get(&url)
            .call()
            .unwrap()
            .into_json::<Value>()
            .unwrap()
    };
    let q = format!("{{ game(id: \"{done_id}\") {{ annotations {{ comment }} }} }}");
    assert_eq!(get(&q)["data"]["game"]["annotations"], json!([]));
    assert_eq!(get(&q)["data"]["game"]["annotations"], json!([]));
    data(&annotate(
        &server,
        Some(ANA),
        &done_id,
        done["plies"].as_i64().unwrap(),
        Some("!!"),
        "the winning move",
    ));
    assert_eq!(
        get(&q)["data"]["game"]["annotations"],
        json!([{ "comment": "the winning move" }])
    );

    // A study.
    let make = "mutation($n: String!, $i: [StudyItemInput!]!) { createStudy(name: $n, items: $i) { id name author url items { gameId ply comment url game { id } } } }";
    let items = json!([
        { "gameId": done_id, "ply": 3, "comment": "the opening" },
        { "gameId": id, "ply": 0 },
    ]);
    let v = gql(
        &server,
        Some(ANA),
        make,
        json!({ "n": "Club lesson 1", "i": items }),
    );
    let s = data(&v)["createStudy"].clone();
    let sid = s["id"].as_str().unwrap().to_string();
    assert_eq!(s["name"], "Club lesson 1");
    assert_eq!(s["author"], "analyst:Ana");
    assert_eq!(s["url"], format!("/study/{sid}"));
    assert_eq!(s["items"][0]["url"], format!("/games/{done_id}?ply=3"));
    assert_eq!(s["items"][0]["game"]["id"], done_id);
    assert_eq!(s["items"][1]["comment"], "");
    let v = gql(
        &server,
        None,
        "query($id: ID!) { study(id: $id) { id name author url items { gameId ply comment url game { id } } } }",
        json!({ "id": sid }),
    );
    assert_eq!(data(&v)["study"], s);
    let page = ureq::get(&format!("{}/study/{sid}", server.url))
        .call()
        .unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.content_type().starts_with("text/html"));

    let v = gql(
        &server,
        None,
        "{ study(id: \"0000000000000\") { id } }",
        json!({}),
    );
    assert_eq!(data(&v)["study"], Value::Null);
    assert_eq!(
        code(&gql(
            &server,
            None,
            "{ study(id: \"nope\") { id } }",
            json!({})
        )),
        "BAD_INPUT"
    );
    for (token, name, items, expect) in [
        (
            Some(tokens[0].as_str()),
            "mine",
            json!([{ "gameId": id, "ply": 0 }]),
            "UNAUTHORIZED",
        ),
        (
            None,
            "anon",
            json!([{ "gameId": id, "ply": 0 }]),
            "UNAUTHORIZED",
        ),
        (
            Some(ANA),
            "ghost",
            json!([{ "gameId": "0000000000000", "ply": 0 }]),
            "NOT_FOUND",
        ),
        (
            Some(ANA),
            "too far",
            json!([{ "gameId": id, "ply": n + 1 }]),
            "BAD_INPUT",
        ),
        (
            Some(ANA),
            "bad id",
            json!([{ "gameId": "x", "ply": 0 }]),
            "BAD_INPUT",
        ),
        (Some(ANA), "empty", json!([]), "BAD_INPUT"),
        (
            Some(ANA),
            " ",
            json!([{ "gameId": id, "ply": 0 }]),
            "BAD_INPUT",
        ),
    ] {
        let v = gql(&server, token, make, json!({ "n": name, "i": items }));
        assert_eq!(code(&v), expect, "{name}: {v}");
    }
    // An annotation on a position a takeback then withdrew is kept, marked withdrawn.
    let v = ask(&server, Some(&recorder), &id, n - 1);
    assert_eq!(
        data(&v)["askTakeback"]["takeback"]["status"],
        "WITHDRAWN",
        "{v}"
    );
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id) { annotations { comment } all: annotations(includeWithdrawn: true) { comment withdrawn } } }",
        json!({ "id": id }),
    );
    let g = &data(&v)["game"];
    assert_eq!(g["annotations"].as_array().unwrap().len(), 3);
    assert_eq!(
        g["all"][1],
        json!({ "comment": "as played at the club", "withdrawn": true })
    );
}

/// The comments of a game text become the game's annotations (a glyph opening a comment is
/// its glyph), and `export --text` writes them back where they were.
#[test]
fn a_game_texts_comments_are_kept_as_annotations_and_written_back() {
    let text =
        "Game: five-tribes\nPlayers: Ana, Bruno\nDate: 2026-11-28\nSeed: 7\n\n# a club evening\n";
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    // The first entries of a seeded game, as the store deals it: a dealt game text.
    let out = std::process::Command::new(common::ludolog())
        .args([
            "simulate",
            "--game",
            "five-tribes",
            "--players",
            "2",
            "--games",
            "1",
            "--log",
            "--seed",
            "7",
        ])
        .output()
        .unwrap();
    let log = String::from_utf8(out.stderr).unwrap();
    let mut lines = log.lines();
    let seed = lines
        .next()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string();
    let entries: Vec<(String, String)> = lines
        .take(4)
        .map(|l| {
            let (a, n) = l.split_once(' ').unwrap();
            (a.to_string(), n.to_string())
        })
        .collect();
    let mut t = text.replace("Seed: 7", &format!("Seed: {seed}"));
    for (i, (a, n)) in entries.iter().enumerate() {
        let who = match a.as_str() {
            "0" => "Ana",
            "1" => "Bruno",
            other => other,
        };
        t.push_str(&format!("{who}: {n}\n"));
        if i == 2 {
            t.push_str("# !? an early bid\n# worth a look\n");
        }
    }
    let file = dir.path().join("game.txt");
    std::fs::write(&file, &t).unwrap();
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--data-dir", store.to_str().unwrap()]);
        common::ludolog_ok(all)
    };
    run(&["import", "--text", file.to_str().unwrap(), "--strict"]);
    let out = dir.path().join("out.txt");
    run(&[
        "export",
        "--text",
        "--include-active",
        "--out",
        out.to_str().unwrap(),
    ]);
    let back = std::fs::read_to_string(&out).unwrap();
    assert!(back.contains("\n\n# a club evening\n"), "{back}");
    assert!(
        back.contains(&format!(
            "{}\n# !? an early bid\n# worth a look\n",
            entries[2].1
        )),
        "{back}"
    );

    // The same text over HTTP: its annotations, by `imported`.
    let server = Server::start(&["--no-samples", "--admin-token", "root-secret-0123456789"]);
    let v = gql(
        &server,
        Some("root-secret-0123456789"),
        "mutation($t: String!) { importGame(text: $t) { id annotations { ply glyph comment author } } }",
        json!({ "t": t }),
    );
    assert_eq!(
        data(&v)["importGame"]["annotations"],
        json!([
            { "ply": 0, "glyph": null, "comment": "a club evening", "author": "imported" },
            { "ply": 3, "glyph": "!?", "comment": "an early bid\nworth a look", "author": "imported" },
        ])
    );
}

/// The first message the server sends for one subscription over graphql-transport-ws.
fn first_message(server: &Server, query: &str) -> Value {
    use tungstenite::client::IntoClientRequest;
    use tungstenite::Message;
    let url = format!("{}/graphql/ws", server.url.replace("http://", "ws://"));
    let mut req = url.into_client_request().unwrap();
    req.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        "graphql-transport-ws".parse().unwrap(),
    );
    let (mut ws, _) = tungstenite::connect(req).unwrap();
    ws.send(Message::text(
        json!({ "type": "connection_init" }).to_string(),
    ))
    .unwrap();
    ws.send(Message::text(
        json!({ "id": "1", "type": "subscribe", "payload": { "query": query } }).to_string(),
    ))
    .unwrap();
    loop {
        let Message::Text(t) = ws.read().unwrap() else {
            continue;
        };
        let v: Value = serde_json::from_str(&t).unwrap();
        if v["type"] != "connection_ack" {
            return v;
        }
    }
}

/// A malformed annotator setting stops `serve` before it listens, saying what is wrong without
/// repeating the token.
#[test]
fn a_bad_annotator_setting_is_refused_at_start_without_echoing_a_token() {
    let dir = tempfile::tempdir().unwrap();
    for (setting, says) in [
        (
            "Ana=short-secret",
            "annotator Ana: a token is 16 to 256 characters",
        ),
        ("no-equals-sign-secret", "one item has no `=`"),
        (
            "Ana=aaaaaaaaaaaaaaaaaaaa,Ana=bbbbbbbbbbbbbbbbbbbb",
            "annotator Ana (or its token) is given twice",
        ),
    ] {
        let mut child = std::process::Command::new(common::ludolog())
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--no-samples",
                "--data-dir",
            ])
            .arg(dir.path().join("store"))
            .args(["--annotators", setting])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if started.elapsed() > std::time::Duration::from_secs(20) {
                let _ = child.kill();
                panic!("{setting}: serve started");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert!(!status.success(), "{setting}");
        assert!(err.contains(says), "{setting}: {err}");
        assert!(!err.contains("secret"), "the token is not repeated: {err}");
    }
}
