//! `player(name:)` against the games themselves, through the real server: a sample player's
//! results by kind are what their finished games say, their rating history has a point per
//! finished game against others (in creation order, each dated when its game ended) and ends
//! at the rating `ratings` lists; `last` bounds it; an unknown name is null, a name no game
//! could have is `BAD_INPUT` (never a crash); a name only in a game still played has games and
//! no results; `/players/{name}` serves the page with the viewer's policy.

mod common;
use common::{code, create_game, data, gql, ludolog_ok, Server};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// A seat of the random games kept as test data (`tests/data/random-samples/`), which seat a
/// name once per game and play all three games.
const PLAYER: &str = "bot-3";

/// A server over the random games kept as test data, not the shipped samples: their figures
/// are what the tests below work out.
fn random_games_server() -> (tempfile::TempDir, Server) {
    let dir = tempfile::tempdir().unwrap();
    for f in ["five-tribes", "caledonia", "mombasa"] {
        let file = format!(
            "{}/../../tests/data/random-samples/{f}.ndjson",
            env!("CARGO_MANIFEST_DIR")
        );
        ludolog_ok([
            "import".as_ref(),
            file.as_ref(),
            "--data-dir".as_ref(),
            dir.path().as_os_str(),
        ]);
    }
    let server = Server::start_in(Some(dir.path()), &[]);
    (dir, server)
}
const KINDS: [&str; 3] = ["FIVE_TRIBES", "CLANS_OF_CALEDONIA", "MOMBASA"];

/// Every finished game of `name`, oldest first, as `games(player:)` lists them (with outcome).
fn finished_games(server: &Server, name: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let v = gql(
            server,
            None,
            "query($p: String, $a: String) { games(player: $p, status: FINISHED, first: 100, after: $a) {
               pageInfo { hasNextPage endCursor }
               edges { node { id kind players updatedAt outcome { winners scores { seat total } } } } } }",
            json!({ "p": name, "a": after }),
        );
        let g = &data(&v)["games"];
        out.extend(
            g["edges"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["node"].clone()),
        );
        if !g["pageInfo"]["hasNextPage"].as_bool().unwrap() {
            break;
        }
        after = g["pageInfo"]["endCursor"].as_str().map(str::to_string);
    }
    out.reverse();
    out
}

/// What `results` should say for one kind, worked out here from the games: (games against
/// others, wins, shared wins, score sum, place sum, solo games).
#[derive(Default, Debug, PartialEq)]
struct Expected {
    games: u64,
    wins: u64,
    shared: u64,
    score: i64,
    place: u64,
    solo: u64,
    ids: Vec<(String, String)>,
}

fn expected(games: &[Value], name: &str) -> BTreeMap<String, Expected> {
    let mut by: BTreeMap<String, Expected> = BTreeMap::new();
    for g in games {
        let players: Vec<&str> = g["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let seats: Vec<usize> = (0..players.len()).filter(|&s| players[s] == name).collect();
        assert_eq!(seats.len(), 1, "the random games seat a name once per game");
        let e = by
            .entry(g["kind"].as_str().unwrap().to_string())
            .or_default();
        if players.len() < 2 {
            e.solo += 1;
            continue;
        }
        e.ids.push((
            g["id"].as_str().unwrap().to_string(),
            g["updatedAt"].as_str().unwrap().to_string(),
        ));
        let o = &g["outcome"];
        let total = |s: usize| {
            o["scores"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["seat"] == s)
                .unwrap()["total"]
                .as_i64()
                .unwrap()
        };
        let winners = o["winners"].as_array().unwrap();
        for &seat in &seats {
            let mine = total(seat);
            e.games += 1;
            if winners.iter().any(|w| w == seat) {
                e.wins += 1;
                e.shared += u64::from(winners.len() > 1);
            }
            e.score += mine;
            e.place += 1 + (0..players.len()).filter(|&s| total(s) > mine).count() as u64;
        }
    }
    by
}

fn round(x: f64, scale: f64) -> f64 {
    (x * scale).round() / scale
}

#[test]
fn a_players_results_and_rating_history_follow_their_games() {
    let (_dir, server) = random_games_server();
    let games = finished_games(&server, PLAYER);
    assert!(games.len() > 100, "{} finished games", games.len());
    let want = expected(&games, PLAYER);
    let history = KINDS
        .iter()
        .map(|k| format!("{}: ratingHistory(kind: {k}) {{ gameId endedAt rating uncertainty ordinal games }}", k.to_lowercase()))
        .collect::<Vec<_>>()
        .join(" ");
    let v = gql(
        &server,
        None,
        &format!(
            "query($n: String!) {{ player(name: $n) {{ name
               results {{ kind games wins sharedWins winRate meanScore meanRank soloGames
                 rating {{ player rating uncertainty ordinal games }}
                 byPlayerCount {{ players games wins winRate }} }}
               {history} }} }}"
        ),
        json!({ "n": PLAYER }),
    );
    let p = &data(&v)["player"];
    assert_eq!(p["name"], PLAYER);
    let results = p["results"].as_array().unwrap();
    assert_eq!(
        results
            .iter()
            .map(|r| r["kind"].as_str().unwrap())
            .collect::<Vec<_>>(),
        KINDS,
        "every kind the player finished a game of, in the order `rules` lists them"
    );
    for r in results {
        let kind = r["kind"].as_str().unwrap();
        let e = &want[kind];
        assert_eq!(r["games"], e.games, "{kind}");
        assert_eq!(r["wins"], e.wins, "{kind}");
        assert_eq!(r["sharedWins"], e.shared, "{kind}");
        assert_eq!(r["soloGames"], e.solo, "{kind}");
        let n = e.games as f64;
        assert_eq!(
            r["winRate"].as_f64().unwrap(),
            round(e.wins as f64 / n, 1e4),
            "{kind}"
        );
        assert_eq!(
            r["meanScore"].as_f64().unwrap(),
            round(e.score as f64 / n, 1e2),
            "{kind}"
        );
        assert_eq!(
            r["meanRank"].as_f64().unwrap(),
            round(e.place as f64 / n, 1e2),
            "{kind}"
        );
        // Per player count, the counts add up to the kind's, solo games included.
        let by = r["byPlayerCount"].as_array().unwrap();
        let sum: u64 = by.iter().map(|c| c["games"].as_u64().unwrap()).sum();
        assert_eq!(sum, e.games + e.solo, "{kind}");
        assert_eq!(by.iter().any(|c| c["players"] == 1), e.solo > 0, "{kind}");

        // The history: one point per finished game against others, in creation order, each
        // dated when the game ended; its last point is the rating `ratings` lists.
        let points = p[kind.to_lowercase()].as_array().unwrap();
        assert_eq!(
            points.len() as u64,
            e.games,
            "{kind}: a point per rated game"
        );
        let got: Vec<(String, String)> = points
            .iter()
            .map(|x| {
                (
                    x["gameId"].as_str().unwrap().into(),
                    x["endedAt"].as_str().unwrap().into(),
                )
            })
            .collect();
        assert_eq!(
            got, e.ids,
            "{kind}: the games, oldest first, dated when they ended"
        );
        for (i, x) in points.iter().enumerate() {
            assert_eq!(x["games"], i as u64 + 1, "{kind}");
            let (mu, sigma) = (
                x["rating"].as_f64().unwrap(),
                x["uncertainty"].as_f64().unwrap(),
            );
            assert!((x["ordinal"].as_f64().unwrap() - (mu - 3.0 * sigma)).abs() < 1e-9);
        }
        let v = gql(
            &server,
            None,
            "query($k: GameKind!) { ratings(kind: $k, first: 100) { player rating uncertainty ordinal games } }",
            json!({ "k": kind }),
        );
        let listed = data(&v)["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["player"] == PLAYER)
            .unwrap()
            .clone();
        assert_eq!(
            r["rating"], listed,
            "{kind}: the rating now is the listed one"
        );
        let last = points.last().unwrap();
        for f in ["rating", "uncertainty", "ordinal", "games"] {
            assert_eq!(last[f], listed[f], "{kind}: the last point's {f}");
        }
    }

    // `last` keeps the latest points, the same values; past the cap is refused.
    let v = gql(
        &server,
        None,
        "{ player(name: \"bot-3\") { all: ratingHistory(kind: MOMBASA) { gameId ordinal } five: ratingHistory(kind: MOMBASA, last: 5) { gameId ordinal } } }",
        json!({}),
    );
    let all = data(&v)["player"]["all"].as_array().unwrap().clone();
    let five = data(&v)["player"]["five"].as_array().unwrap();
    assert_eq!(five[..], all[all.len() - 5..]);
    for bad in [-1, 1001] {
        let v = gql(
            &server,
            None,
            "query($l: Int) { player(name: \"bot-3\") { ratingHistory(kind: MOMBASA, last: $l) { games } } }",
            json!({ "l": bad }),
        );
        assert_eq!(code(&v), "LIMIT_EXCEEDED", "{v}");
    }

    // `Player.games` pages as `games(player:)` does, newest first.
    let mut ids = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let v = gql(
            &server,
            None,
            "query($a: String) { player(name: \"bot-3\") { games(status: FINISHED, first: 100, after: $a) { pageInfo { hasNextPage endCursor } edges { node { id } } } } }",
            json!({ "a": after }),
        );
        let g = &data(&v)["player"]["games"];
        ids.extend(
            g["edges"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["node"]["id"].clone()),
        );
        if !g["pageInfo"]["hasNextPage"].as_bool().unwrap() {
            break;
        }
        after = g["pageInfo"]["endCursor"].as_str().map(str::to_string);
    }
    let mut want_ids: Vec<Value> = games.iter().map(|g| g["id"].clone()).collect();
    want_ids.reverse();
    assert_eq!(ids, want_ids);
}

#[test]
fn unknown_and_impossible_names_and_a_game_still_played() {
    let (_dir, server) = random_games_server();
    let q = "query($n: String!) { player(name: $n) { name results { kind } ratingHistory(kind: FIVE_TRIBES) { games } games { edges { node { id status } } } } }";
    // Unknown: null, as `game(id:)` answers an unknown id.
    let v = gql(&server, None, q, json!({ "n": "nobody-here" }));
    assert_eq!(data(&v)["player"], Value::Null);
    // Names no game could have: a typed error with a stable code, never a crash.
    let long = "x".repeat(100_000);
    for bad in ["", " bot-3", "bot\u{0}3", "bot\u{202e}3", long.as_str()] {
        let v = gql(&server, None, q, json!({ "n": bad }));
        assert_eq!(code(&v), "BAD_INPUT", "{:?}", &bad[..bad.len().min(20)]);
        assert!(v["errors"][0]["message"].as_str().unwrap().len() < 400);
    }
    // A name 64 characters long is a name; one seated only in a game still played has that
    // game, and no results or history.
    let v = gql(&server, None, q, json!({ "n": "é".repeat(64) }));
    assert_eq!(data(&v)["player"], Value::Null);
    let (id, _) = create_game(&server, "five-tribes", 2, 7);
    let v = gql(&server, None, q, json!({ "n": "p1" }));
    let p = &data(&v)["player"];
    assert_eq!(p["name"], "p1");
    assert_eq!(p["results"], json!([]));
    assert_eq!(p["ratingHistory"], json!([]));
    assert_eq!(
        p["games"]["edges"],
        json!([{ "node": { "id": id, "status": "ACTIVE" } }])
    );
    // The page: served under the viewer's policy, whatever the name.
    for path in [
        "/players/bot-3",
        "/players/no%20one",
        "/players/a%2Fb",
        "/players/%E2%80%AE",
    ] {
        let r = ureq::get(&format!("{}{path}", server.url)).call().unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert!(r.header("content-type").unwrap().starts_with("text/html"));
        let csp = r.header("content-security-policy").unwrap().to_string();
        assert!(
            csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{csp}"
        );
        assert!(r
            .into_string()
            .unwrap()
            .contains("/assets/viewer/player.js"));
    }
}
