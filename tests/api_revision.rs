//! Corrections over HTTP, from outside the binary: an admin corrects a finished game twice;
//! both revisions, and the game as recorded, replay (`Game.revisions { game { replay } }`,
//! `game(id:, revision:)`); statistics, the position index and cached answers follow the
//! latest; answers pinned to a revision are immutable for HTTP caches, answers about the
//! latest are not; and every refusal (an active game, a seat's token, an entry past the end,
//! a record that no longer replays) is a typed error that writes nothing.

mod common;

use common::revision::{correct, correctable, finished_game, log, replay};
use common::{code, data, gql, urlencode, Server};
use rules_core::{Actor, GameState};
use serde_json::{json, Value};

const ADMIN: &str = "root-secret-0123456789";

fn mean_scores(server: &Server, player: &str) -> Vec<f64> {
    let v = gql(
        server,
        None,
        "query($p: String) { statistics(kind: FIVE_TRIBES, filter: { player: $p }) { games byPlayerCount { bySeat { meanScore } } } }",
        json!({ "p": player }),
    );
    let s = &data(&v)["statistics"];
    assert_eq!(s["games"], 1, "{v}");
    s["byPlayerCount"][0]["bySeat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["meanScore"].as_f64().unwrap())
        .collect()
}

fn final_scores(state: &dyn GameState) -> Vec<f64> {
    let mut s = state.outcome().unwrap().scores;
    s.sort_by_key(|x| x.seat.0);
    s.iter().map(|x| f64::from(x.total)).collect()
}

/// The position index's row of game `id` at its last position: its seats' features.
fn indexed_end(server: &Server, id: &str, plies: usize) -> Value {
    let v = gql(
        server,
        None,
        "query($w: String) { positions(kind: FIVE_TRIBES, where: $w, first: 100) { edges { node { gameId seats { features { value } } } } } }",
        json!({ "w": format!("ply == {plies}") }),
    );
    data(&v)["positions"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["node"]["gameId"] == id)
        .map(|e| e["node"]["seats"].clone())
        .unwrap_or_else(|| panic!("game {id} is not in the index at ply {plies}: {v}"))
}

fn seat_features(state: &dyn GameState) -> Value {
    let mut f = rules_core::Features::default();
    state.features(&mut f);
    let seats = f.seats.len() / 2;
    json!((0..2)
        .map(|s| json!({ "features": f.seats[s * seats..(s + 1) * seats].iter().map(|v| json!({ "value": v })).collect::<Vec<_>>() }))
        .collect::<Vec<_>>())
}

#[test]
fn two_corrections_both_replay_and_everything_follows_the_latest() {
    let server = Server::start(&["--no-samples", "--admin-token", ADMIN]);
    let id = finished_game(&server, ["rev-ann", "rev-bob"]);
    let (log0, options) = log(&server, &id, None);
    let plies = log0.len();
    let end0 = replay(&options, &log0);
    assert_eq!(mean_scores(&server, "rev-ann"), final_scores(end0.as_ref()));
    assert_eq!(
        indexed_end(&server, &id, plies),
        seat_features(end0.as_ref())
    );

    // A cached answer about the latest revision, to see it follow the correction.
    let latest = "query($id: ID!) { game(id: $id) { revision outcome { scores { seat total } } } }";
    let before = gql(&server, None, latest, json!({ "id": id }));
    assert_eq!(data(&before)["game"]["revision"], 0);

    let (p1, m1) = correctable(&options, &log0);
    let v = correct(&server, Some(ADMIN), &id, p1 as i64, &m1);
    let c = &data(&v)["correctGame"];
    assert_eq!(c["game"]["revision"], 1);
    assert_eq!(c["revision"]["number"], 1);
    assert_eq!(c["revision"]["author"], "admin");
    assert_eq!(c["revision"]["changes"][0]["ply"], p1 as i64);
    assert_eq!(c["revision"]["changes"][0]["was"], log0[p1 - 1].1.as_str());
    assert_eq!(c["revision"]["changes"][0]["now"], m1.as_str());

    let (log1, _) = log(&server, &id, None);
    let end1 = replay(&options, &log1);
    assert_eq!(log1[p1 - 1].1, m1);
    assert_ne!(final_scores(end1.as_ref()), final_scores(end0.as_ref()));
    assert_ne!(seat_features(end1.as_ref()), seat_features(end0.as_ref()));
    let after = gql(&server, None, latest, json!({ "id": id }));
    assert_eq!(
        data(&after)["game"]["revision"],
        1,
        "the cache follows the correction"
    );
    assert_ne!(after, before);
    // Statistics and the position index follow the latest revision.
    assert_eq!(mean_scores(&server, "rev-ann"), final_scores(end1.as_ref()));
    assert_eq!(
        indexed_end(&server, &id, plies),
        seat_features(end1.as_ref())
    );

    // The second correction: of the first revision's record.
    let (p2, m2) = correctable(&options, &log1);
    let v = correct(&server, Some(ADMIN), &id, p2 as i64, &m2);
    assert_eq!(data(&v)["correctGame"]["game"]["revision"], 2, "{v}");
    let (log2, _) = log(&server, &id, None);
    let end2 = replay(&options, &log2);
    assert_eq!(mean_scores(&server, "rev-ann"), final_scores(end2.as_ref()));
    assert_eq!(
        indexed_end(&server, &id, plies),
        seat_features(end2.as_ref())
    );

    // Every revision reads back whole and replays: by `game(id:, revision:)` and by
    // `Game.revisions { game }`, its outcome its replay's.
    for (r, want) in [(0, &log0), (1, &log1), (2, &log2)] {
        let (got, _) = log(&server, &id, Some(r));
        assert_eq!(&got, want, "revision {r}");
    }
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id) { revision revisions { number reason changes { ply } game { revision outcome { scores { seat total } } replay { notation: move } } } } }",
        json!({ "id": id }),
    );
    let g = &data(&v)["game"];
    assert_eq!(g["revision"], 2);
    let revs = g["revisions"].as_array().unwrap();
    assert_eq!(revs.len(), 3);
    for (r, log) in [&log0, &log1, &log2].into_iter().enumerate() {
        assert_eq!(revs[r]["number"], r as i64);
        assert_eq!(revs[r]["game"]["revision"], r as i64);
        let notations: Vec<&str> = log.iter().map(|(_, n)| n.as_str()).collect();
        let replayed: Vec<&str> = revs[r]["game"]["replay"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["notation"].as_str().unwrap())
            .collect();
        assert_eq!(replayed, notations, "revision {r} replays");
        let mut totals: Vec<(i64, i64)> = revs[r]["game"]["outcome"]["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s["seat"].as_i64().unwrap(), s["total"].as_i64().unwrap()))
            .collect();
        totals.sort();
        let want: Vec<f64> = final_scores(replay(&options, log).as_ref());
        assert_eq!(
            totals.iter().map(|t| t.1 as f64).collect::<Vec<_>>(),
            want,
            "revision {r}'s outcome"
        );
    }
    assert_eq!(revs[0]["reason"], "");
    assert_eq!(revs[2]["changes"][0]["ply"], p2 as i64);

    // No such revision.
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id, revision: 3) { id } }",
        json!({ "id": id }),
    );
    assert_eq!(code(&v), "NOT_FOUND", "{v}");
}

#[test]
fn refused_corrections_are_typed_and_write_nothing() {
    let server = Server::start(&["--no-samples", "--admin-token", ADMIN]);
    let id = finished_game(&server, ["ref-ann", "ref-bob"]);
    let (log0, options) = log(&server, &id, None);
    let (p, m) = correctable(&options, &log0);
    let v = gql(
        &server,
        None,
        "mutation { createGame(kind: FIVE_TRIBES, players: [\"x\", \"y\"]) { game { id } seatTokens } }",
        json!({}),
    );
    let active = data(&v)["createGame"]["game"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let seat = data(&v)["createGame"]["seatTokens"][0]
        .as_str()
        .unwrap()
        .to_string();
    let plies = log0.len() as i64;
    let first_chance = log0
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, (a, _))| *a == Actor::Dealer)
        .map(|(i, _)| i as i64 + 1)
        .unwrap();
    for (token, game, ply, notation, want) in [
        (Some(ADMIN), active.as_str(), 1, m.as_str(), "GAME_ACTIVE"),
        (
            Some(seat.as_str()),
            id.as_str(),
            p as i64,
            m.as_str(),
            "UNAUTHORIZED",
        ),
        (None, id.as_str(), p as i64, m.as_str(), "UNAUTHORIZED"),
        (Some(ADMIN), id.as_str(), plies + 1, m.as_str(), "NOT_FOUND"),
        (Some(ADMIN), id.as_str(), 0, m.as_str(), "BAD_INPUT"),
        (
            Some(ADMIN),
            id.as_str(),
            p as i64,
            "bid 99",
            "CORRECTION_REFUSED",
        ),
        (
            Some(ADMIN),
            id.as_str(),
            first_chance,
            "anything",
            "CORRECTION_REFUSED",
        ),
        (
            Some(ADMIN),
            id.as_str(),
            p as i64,
            log0[p - 1].1.as_str(),
            "CORRECTION_REFUSED",
        ),
    ] {
        let v = correct(&server, token, game, ply, notation);
        assert_eq!(code(&v), want, "{game} entry {ply} `{notation}`: {v}");
        let v = gql(
            &server,
            None,
            "query($id: ID!) { game(id: $id) { revision revisions { number } } }",
            json!({ "id": id }),
        );
        assert_eq!(data(&v)["game"]["revision"], 0, "nothing written");
        assert_eq!(data(&v)["game"]["revisions"].as_array().unwrap().len(), 1);
        assert_eq!(log(&server, &id, None).0, log0);
    }
    // An active game has no revisions to pin.
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id, revision: 0) { id } }",
        json!({ "id": active }),
    );
    assert_eq!(code(&v), "GAME_ACTIVE", "{v}");
}

/// Over `GET`, an answer pinned to a revision is immutable; one about the latest revision
/// may be kept a minute and then revalidated, and after a correction it is a new answer
/// with a new tag.
#[test]
fn pinned_answers_are_immutable_and_latest_ones_are_revalidated() {
    let server = Server::start(&["--no-samples", "--admin-token", ADMIN]);
    let id = finished_game(&server, ["get-ann", "get-bob"]);
    let (log0, options) = log(&server, &id, None);
    let get = |query: &str| {
        let url = format!(
            "{}/graphql?query={}",
            server.url,
            urlencode(&query.replace("ID", &id))
        );
        let r = ureq::get(&url).call().unwrap();
        (
            r.header("cache-control").map(str::to_string),
            r.header("etag").map(str::to_string),
            r.into_string().unwrap(),
        )
    };
    let pinned = "{ game(id: \"ID\", revision: 0) { revision outcome { scores { total } } } }";
    let latest = "{ game(id: \"ID\") { revision outcome { scores { total } } } }";
    let (cc, tag0, body0) = get(pinned);
    assert_eq!(cc.as_deref(), Some("public, max-age=31536000, immutable"));
    assert!(tag0.is_some());
    let (cc, tag_latest, _) = get(latest);
    assert_eq!(cc.as_deref(), Some("public, max-age=60"));

    let (p, m) = correctable(&options, &log0);
    let v = correct(&server, Some(ADMIN), &id, p as i64, &m);
    assert_eq!(data(&v)["correctGame"]["game"]["revision"], 1, "{v}");
    let (_, tag_after, body_after) = get(latest);
    assert_ne!(tag_after, tag_latest, "a new answer, with a new tag");
    assert!(body_after.contains("\"revision\":1"), "{body_after}");
    let (_, tag, body) = get(pinned);
    assert_eq!((tag, body), (tag0, body0), "revision 0 reads as it did");
}
