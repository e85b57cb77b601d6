//! The replay viewer in a real browser (headless Chromium over the DevTools protocol), served
//! by `ludolog serve` as a user gets it: for a sample game of each kind it opens a deep link,
//! steps with the keyboard, and checks what the page holds and draws against the API's view
//! at that ply; it switches perspective by link; it follows a live game while moves are played
//! through the API, with a secret absent for the spectator and present for its seat; no page
//! may log an error. Screenshots go to `target/browser-screenshots/` (the README shows them),
//! and the step times measured in the page are printed (`viewer:` lines, for BENCHMARKS.md).

mod common;

use common::browser::{shots, Page, MESSAGE_SHOWN};
use common::{create_game, data, gql, play_first, Server};
use serde_json::{json, Value};

/// The API's view of `id` at `ply`, with `args` (e.g. `(seat: 1)`).
fn api_view(server: &Server, id: &str, ply: u64, args: &str) -> Value {
    let q = format!(
        "query($id: ID!, $p: Int) {{ game(id: $id) {{ position(ply: $p) {{ view{args} }} }} }}"
    );
    let v = gql(server, None, &q, json!({ "id": id, "p": ply }));
    data(&v)["game"]["position"]["view"].clone()
}

fn at_ply(page: &mut Page, ply: u64) {
    page.wait_for(
        &format!("document.querySelector('#ply-current')?.dataset.ply === '{ply}' && window.ludologViewer?.view"),
        30,
    );
}

/// A detail the board draws, read from the page's DOM, and the same from the API's view.
fn drawn_detail(page: &mut Page, kind: &str, view: &Value) -> (Value, Value) {
    match kind {
        "FIVE_TRIBES" => {
            let tile = &view["tiles"][7];
            let meeples: u64 = tile["meeples"]
                .as_object()
                .unwrap()
                .values()
                .map(|v| v.as_u64().unwrap())
                .sum();
            let id = tile["id"].as_str().unwrap();
            let drawn = page.eval(&format!(
                "Number(document.querySelector('.tile[data-id=\"{id}\"]').dataset.meeples)"
            ));
            (drawn, json!(meeples))
        }
        "CLANS_OF_CALEDONIA" => {
            let drawn = page.eval(
                "Number(document.querySelector('.seat-panel[data-seat=\"0\"]').dataset.money)",
            );
            (drawn, view["seats"][0]["money"].clone())
        }
        _ => {
            let drawn = page.eval(
                "Number(document.querySelector('.seat-panel[data-seat=\"0\"]').dataset.pounds)",
            );
            (drawn, view["seats"][0]["pounds"].clone())
        }
    }
}

#[test]
fn the_viewer_shows_every_game_as_the_api_does() {
    let server = Server::start(&[]);
    let mut step_times = Vec::new();
    for (kind, slug) in [
        ("FIVE_TRIBES", "five-tribes"),
        ("CLANS_OF_CALEDONIA", "caledonia"),
        ("MOMBASA", "mombasa"),
    ] {
        let v = gql(
            &server,
            None,
            "query($k: GameKind) { games(kind: $k, status: FINISHED, first: 1) { edges { node { id plies } } } }",
            json!({ "k": kind }),
        );
        let game = &data(&v)["games"]["edges"][0]["node"];
        let id = game["id"].as_str().unwrap().to_string();
        let plies = game["plies"].as_u64().unwrap();

        // A deep link opens at its ply; the keyboard steps from there.
        let mut page = Page::open(&format!("{}/games/{id}?ply=40", server.url), 1280, 1000);
        at_ply(&mut page, 40);
        for _ in 0..5 {
            page.key("ArrowRight");
        }
        at_ply(&mut page, 45);
        page.key("ArrowLeft");
        at_ply(&mut page, 44);
        let view = api_view(&server, &id, 44, "");
        assert_eq!(
            page.eval("window.ludologViewer.view"),
            view,
            "{kind}: the page's view at ply 44"
        );
        let (drawn, want) = drawn_detail(&mut page, kind, &view);
        assert_eq!(drawn, want, "{kind}: the board draws the view");
        page.key("End");
        at_ply(&mut page, plies);
        page.key("Home");
        at_ply(&mut page, 0);
        // Through the whole game and back, a step at a time (the speed the page measures).
        for _ in 0..plies {
            page.key("ArrowRight");
        }
        at_ply(&mut page, plies);
        let end = api_view(&server, &id, plies, "");
        assert_eq!(
            page.eval("window.ludologViewer.view"),
            end,
            "{kind}: the last view"
        );
        // The score panel follows the ply: the final totals as the API gives them.
        page.wait_for(
            &format!("document.querySelector('#score-table')?.dataset.ply === '{plies}'"),
            30,
        );
        let v = gql(
            &server,
            None,
            "query($id: ID!) { game(id: $id) { position { scores { seat total } } } }",
            json!({ "id": id }),
        );
        for s in data(&v)["game"]["position"]["scores"].as_array().unwrap() {
            let seat = &s["seat"];
            let shown = page.eval(&format!(
                "Number(document.querySelector('#score-table td.total[data-seat=\"{seat}\"]').dataset.total)"
            ));
            assert_eq!(shown, s["total"], "{kind}: seat {seat}'s total");
        }
        let heap = page.eval("performance.memory ? performance.memory.usedJSHeapSize : 0");
        println!(
            "viewer: {kind} {plies} plies stepped through, page heap {:.1} MB",
            heap.as_f64().unwrap_or(0.0) / 1e6
        );
        let times = page.eval("window.ludologViewer.stepTimes.slice()");
        step_times.extend(times.as_array().unwrap().iter().filter_map(Value::as_f64));
        page.screenshot(&shots().join(format!("{slug}.png")));

        // A link to a seat's perspective at a ply reloads to that moment, as that seat saw it
        // (timed: the first render of a whole game, from the request to the drawn board).
        let start = std::time::Instant::now();
        page.navigate(&format!("{}/games/{id}?ply=7&seat=1", server.url));
        at_ply(&mut page, 7);
        println!(
            "viewer: {kind} {plies} plies, first render {} ms",
            start.elapsed().as_millis()
        );
        page.wait_for(
            "document.querySelector('#perspective-select')?.dataset.perspective === 'seat:1'",
            10,
        );
        assert_eq!(
            page.eval("window.ludologViewer.view"),
            api_view(&server, &id, 7, "(seat: 1)"),
            "{kind}: seat 1's view at ply 7"
        );
        // The embeddable board and a bad ply: a message in the page, no error.
        page.navigate(&format!("{}/embed/games/{id}?ply=9999", server.url));
        page.wait_for(MESSAGE_SHOWN, 30);
        let text = page.eval("document.querySelector('#message').textContent");
        assert!(
            text.as_str().unwrap().contains("9999"),
            "{kind}: names the ply: {text}"
        );
        assert_eq!(
            page.eval("document.querySelector('#chrome')?.offsetParent === null"),
            true,
            "{kind}: no page chrome in the embed"
        );
        assert!(page.errors.is_empty(), "{kind}: {:#?}", page.errors);
    }
    step_times.sort_by(f64::total_cmp);
    let p = |q: f64| step_times[((step_times.len() - 1) as f64 * q) as usize];
    println!(
        "viewer: {} steps, p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        step_times.len(),
        p(0.5),
        p(0.95),
        p(1.0)
    );
    // An unknown game, an unknown seat: each says so in the page.
    let v = gql(
        &server,
        None,
        "{ games(kind: MOMBASA, status: FINISHED, first: 1) { edges { node { id } } } }",
        json!({}),
    );
    let id = data(&v)["games"]["edges"][0]["node"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut page = Page::open(&format!("{}/games/{id}?seat=9", server.url), 800, 600);
    page.wait_for(MESSAGE_SHOWN, 30);
    let text = page.eval("document.querySelector('#message').textContent");
    assert!(text.as_str().unwrap().contains("no seat 9"), "{text}");
    drop(page);
    let mut page = Page::open(&format!("{}/games/036vpvam0zzzz", server.url), 800, 600);
    page.wait_for(MESSAGE_SHOWN, 30);
    let text = page.eval("document.querySelector('#message').textContent");
    assert!(
        text.as_str().unwrap().to_lowercase().contains("no game"),
        "{text}"
    );
}

#[test]
fn the_viewer_follows_a_live_game_and_keeps_secrets() {
    let server = Server::start(&["--no-samples"]);
    let (id, tokens) = create_game(&server, "five-tribes", 2, 11);
    for _ in 0..12 {
        play_first(&server, &id, &tokens).unwrap();
    }
    let plies = |s: &Server| {
        let v = gql(
            s,
            None,
            "query($id: ID!) { game(id: $id) { plies } }",
            json!({ "id": id }),
        );
        data(&v)["game"]["plies"].as_u64().unwrap()
    };
    let url = format!("{}/games/{id}", server.url);
    let mut page = Page::open(&url, 1280, 1000);
    at_ply(&mut page, plies(&server));
    // A spectator of a game in play sees no seat's gold.
    page.wait_for("document.querySelector('.seat-panel[data-seat=\"0\"]')", 10);
    assert_eq!(
        page.eval("document.querySelector('.seat-panel[data-seat=\"0\"]').dataset.gold"),
        ""
    );
    // Moves played through the API reach the open page.
    for _ in 0..3 {
        play_first(&server, &id, &tokens).unwrap();
        at_ply(&mut page, plies(&server));
    }
    // With seat 0's token (kept in the tab's session, never in the URL) the page shows that
    // seat's gold as the API gives it to the seat.
    page.eval(&format!(
        "sessionStorage.setItem('ludolog.token.{id}', '{}')",
        tokens[0]
    ));
    page.navigate(&url);
    at_ply(&mut page, plies(&server));
    page.wait_for(
        "document.querySelector('.seat-panel[data-seat=\"0\"]')?.dataset.gold !== ''",
        10,
    );
    let v = gql(
        &server,
        Some(&tokens[0]),
        "query($id: ID!) { game(id: $id) { position { view } } }",
        json!({ "id": id }),
    );
    let gold = data(&v)["game"]["position"]["view"]["seats"][0]["gold"].clone();
    assert!(gold.is_number(), "the seat sees its gold: {gold}");
    assert_eq!(
        page.eval("Number(document.querySelector('.seat-panel[data-seat=\"0\"]').dataset.gold)"),
        gold
    );
    assert!(
        !page
            .eval("location.href")
            .as_str()
            .unwrap()
            .contains(&tokens[0]),
        "no token in the URL"
    );
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
    // A token that opens no seat is named as such, and the page stays the spectator's.
    page.eval(&format!(
        "sessionStorage.setItem('ludolog.token.{id}', 'not-a-seat-token')"
    ));
    page.navigate(&url);
    at_ply(&mut page, plies(&server));
    page.wait_for(MESSAGE_SHOWN, 30);
    let text = page.eval("document.querySelector('#message').textContent");
    assert!(text.as_str().unwrap().contains("opens no seat"), "{text}");
    assert_eq!(
        page.eval("document.querySelector('.seat-panel[data-seat=\"0\"]').dataset.gold"),
        ""
    );
}

/// An annotation shows in the viewer's move list (its glyph after the move, its comment and
/// author under it), and a study has its own page listing its moments, each a link to the
/// viewer at that position with its comment.
#[test]
fn annotations_show_in_the_move_list_and_a_study_has_its_page() {
    let ana = "ana-token-0123456789";
    let server = Server::start(&["--annotators", &format!("Ana={ana}")]);
    let v = gql(
        &server,
        None,
        "{ games(kind: FIVE_TRIBES, status: FINISHED, first: 1) { edges { node { id } } } }",
        json!({}),
    );
    let id = data(&v)["games"]["edges"][0]["node"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let v = gql(
        &server,
        Some(ana),
        "mutation($id: ID!) { annotate(gameId: $id, ply: 3, glyph: \"!?\", comment: \"A bold bid: <b>not</b> markup\") { id } }",
        json!({ "id": id }),
    );
    data(&v);

    let mut page = Page::open(&format!("{}/games/{id}?ply=3", server.url), 1280, 1000);
    at_ply(&mut page, 3);
    page.wait_for(
        "!!document.querySelector('.move[data-ply=\"3\"] .annotation')",
        30,
    );
    assert_eq!(
        page.eval("document.querySelector('.move[data-ply=\"3\"] .glyph').textContent"),
        "!?"
    );
    assert_eq!(
        page.eval("document.querySelector('.move[data-ply=\"3\"] .annotation').textContent"),
        "A bold bid: <b>not</b> markup — Ana",
        "the comment is text, never markup"
    );
    assert_eq!(
        page.eval("document.querySelectorAll('#moves .annotation').length"),
        1
    );
    // Beside the current move too, with its glyph.
    assert_eq!(
        page.eval("document.querySelector('#current-notes').textContent"),
        "A bold bid: <b>not</b> markup — Ana"
    );
    assert_eq!(
        page.eval("document.querySelector('#current-move .glyph').textContent"),
        "!?"
    );
    page.eval(
        "document.querySelector('.move[data-ply=\"3\"]').scrollIntoView({ block: 'center' })",
    );
    page.screenshot(&shots().join("annotations.png"));
    assert!(page.errors.is_empty(), "{:#?}", page.errors);

    let v = gql(
        &server,
        Some(ana),
        "mutation($i: [StudyItemInput!]!) { createStudy(name: \"Bidding in Five Tribes\", items: $i) { id url } }",
        json!({ "i": [
            { "gameId": id, "ply": 3, "comment": "Why bid this high so early?" },
            { "gameId": id, "ply": 10 },
        ] }),
    );
    let url = data(&v)["createStudy"]["url"].as_str().unwrap().to_string();
    let mut page = Page::open(&format!("{}{url}", server.url), 1000, 700);
    page.wait_for("document.querySelectorAll('#moments li').length === 2", 30);
    assert_eq!(
        page.eval("document.querySelector('#study-name').textContent"),
        "Bidding in Five Tribes"
    );
    assert_eq!(
        page.eval("document.querySelector('#moments li a').getAttribute('href')"),
        format!("/games/{id}?ply=3")
    );
    assert_eq!(
        page.eval("document.querySelector('#moments .moment-comment').textContent"),
        "Why bid this high so early?"
    );
    page.screenshot(&shots().join("study.png"));
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
    // An unknown study says so.
    let mut page = Page::open(&format!("{}/study/0000000000000", server.url), 800, 400);
    page.wait_for(MESSAGE_SHOWN, 30);
    assert_eq!(
        page.eval("document.querySelector('#message').textContent"),
        "No study 0000000000000."
    );
}

/// A corrected game says so above the board: which revision is shown, what each correction
/// changed and why (as text), with a link to every revision; the link to the record as it
/// was opens that revision, whose move list shows the entry as first recorded.
#[test]
fn a_corrected_game_shows_its_revisions_and_opens_an_earlier_one() {
    use common::revision::{correctable, finished_game, log};
    let admin = "root-secret-0123456789";
    let server = Server::start(&["--no-samples", "--admin-token", admin]);
    let id = finished_game(&server, ["ann", "bob"]);
    let (log0, options) = log(&server, &id, None);
    let (ply, now) = correctable(&options, &log0);
    let was = log0[ply - 1].1.clone();
    let v = gql(
        &server,
        Some(admin),
        "mutation($id: ID!, $c: [CorrectionInput!]!) { correctGame(gameId: $id, corrections: $c, reason: \"<i>sheet</i> said so\") { game { revision } } }",
        json!({ "id": id, "c": [{ "ply": ply, "notation": now }] }),
    );
    assert_eq!(data(&v)["correctGame"]["game"]["revision"], 1);

    let move_text = |page: &mut Page| {
        page.eval(&format!(
            "document.querySelector('.move[data-ply=\"{ply}\"] .notation').textContent"
        ))
    };
    let mut page = Page::open(&format!("{}/games/{id}?ply={ply}", server.url), 1280, 1000);
    at_ply(&mut page, ply as u64);
    page.wait_for("!document.querySelector('#revisions').hidden", 30);
    let text = page.eval("document.querySelector('#revisions').textContent");
    let text = text.as_str().unwrap();
    assert!(text.contains("revision 1, the latest"), "{text}");
    assert!(
        text.contains("<i>sheet</i> said so"),
        "the reason is text: {text}"
    );
    assert!(
        text.contains(&format!("entry {ply}: {was} → {now}")),
        "{text}"
    );
    assert_eq!(
        page.eval("document.querySelectorAll('#revisions i').length"),
        0,
        "never markup"
    );
    assert_eq!(move_text(&mut page), now.as_str());
    page.screenshot(&shots().join("revisions.png"));
    assert!(page.errors.is_empty(), "{:#?}", page.errors);

    let href = page.eval("document.querySelector('#revisions li a').getAttribute('href')");
    assert_eq!(href, format!("/games/{id}?revision=0"));
    let mut page = Page::open(
        &format!("{}/games/{id}?revision=0&ply={ply}", server.url),
        1280,
        1000,
    );
    at_ply(&mut page, ply as u64);
    page.wait_for("!document.querySelector('#revisions').hidden", 30);
    let text = page.eval("document.querySelector('#revisions p').textContent");
    assert_eq!(
        text,
        "An earlier revision of a corrected record: revision 0 of 1."
    );
    assert_eq!(move_text(&mut page), was.as_str());
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
}

/// A takeback made while the page follows a game live: the page reads the record again, its
/// line ends where it was taken back to, the withdrawn moves stay in the move list struck
/// through (not links, not positions), and the moves played after it follow as usual.
#[test]
fn the_viewer_follows_a_takeback_and_shows_what_it_withdrew() {
    use common::stored_entries;
    let server = Server::start(&["--no-samples"]);
    let v = gql(
        &server,
        None,
        "mutation { createGame(kind: FIVE_TRIBES, players: [\"ann\", \"bob\"], seed: \"11\") { game { id } seatTokens recorderToken } }",
        json!({}),
    );
    let c = &data(&v)["createGame"];
    let id = c["game"]["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = serde_json::from_value(c["seatTokens"].clone()).unwrap();
    let recorder = c["recorderToken"].as_str().unwrap().to_string();
    // Play until the line ends with two seats' moves after its last chance entry.
    let entries = loop {
        play_first(&server, &id, &tokens)
            .unwrap()
            .expect("a seat may move");
        let e = stored_entries(&server, &id);
        if e.len() >= 12 && e[e.len() - 3..].iter().all(|(_, a, _)| a != "dealer") {
            break e;
        }
    };
    let plies = entries.len() as u64;
    let mut page = Page::open(&format!("{}/games/{id}", server.url), 1280, 1000);
    at_ply(&mut page, plies);
    page.wait_for(
        "document.querySelector('#live-status').dataset.state === 'on'",
        30,
    );

    let v = gql(
        &server,
        Some(&recorder),
        "mutation($id: ID!, $t: Int!) { askTakeback(gameId: $id, toPly: $t) { game { plies } } }",
        json!({ "id": id, "t": plies - 2 }),
    );
    assert_eq!(data(&v)["askTakeback"]["game"]["plies"], plies - 2);
    at_ply(&mut page, plies - 2);
    page.wait_for(
        "document.querySelectorAll('.move.withdrawn').length === 2",
        30,
    );
    let withdrawn = page.eval(
        "[...document.querySelectorAll('.move.withdrawn .notation')].map((e) => e.textContent)",
    );
    let want: Vec<&str> = entries[entries.len() - 2..]
        .iter()
        .map(|(_, _, m)| m.as_str())
        .collect();
    assert_eq!(withdrawn, json!(want));
    assert_eq!(
        page.eval(
            "document.querySelectorAll('.withdrawn-group a, .withdrawn-group [data-ply]').length"
        ),
        0,
        "withdrawn moves are not positions of the line"
    );
    assert_eq!(
        page.eval("document.querySelectorAll('#moves .move[data-ply]').length"),
        plies - 2 + 1,
        "the start and the line's moves"
    );

    // The game goes on from the position taken back to.
    let (ply, m) = play_first(&server, &id, &tokens).unwrap().unwrap();
    assert_eq!(ply, plies - 1);
    at_ply(&mut page, plies - 1);
    assert_eq!(
        page.eval(&format!(
            "document.querySelector('.move[data-ply=\"{ply}\"] .notation').textContent"
        )),
        m.as_str()
    );
    page.eval("document.querySelector('.withdrawn-group').scrollIntoView({ block: 'nearest' })");
    page.screenshot(&shots().join("takeback.png"));
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
}

/// The move list always shows the current move: after a deep link far into a game, after
/// each step and after End and Home, on a desktop and on a phone (the list once scrolled by
/// too little, and at ply 121 the current move was below its visible box).
#[test]
fn the_current_move_is_always_inside_the_move_list() {
    let server = Server::start(&[]);
    let v = gql(
        &server,
        None,
        "{ games(kind: FIVE_TRIBES, status: FINISHED, first: 20) { edges { node { id plies } } } }",
        json!({}),
    );
    let (id, plies) = data(&v)["games"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["node"]["id"].as_str().unwrap().to_string(),
                e["node"]["plies"].as_u64().unwrap(),
            )
        })
        .max_by_key(|(_, p)| *p)
        .unwrap();
    assert!(plies > 150, "a long game: {plies}");
    let visible = "(() => { const box = document.getElementById('moves'); \
        const el = box && box.querySelector('.move.current'); if (!el) return false; \
        const b = box.getBoundingClientRect(), e = el.getBoundingClientRect(); \
        const h = box.querySelector('h3'); const top = b.top + (h ? h.getBoundingClientRect().height : 0); \
        return e.top >= top - 1 && e.bottom <= b.top + box.clientHeight + 1; })()";
    for (width, height) in [(1280, 1000), (390, 844)] {
        let mut page = Page::open(&format!("{}/games/{id}?ply=121", server.url), width, height);
        at_ply(&mut page, 121);
        page.wait_for(visible, 5);
        page.screenshot(&shots().join(format!("move-list-{width}.png")));
        for ply in 122..132 {
            page.key("ArrowRight");
            at_ply(&mut page, ply);
            page.wait_for(visible, 5);
        }
        for ply in (112..131).rev() {
            page.key("ArrowLeft");
            at_ply(&mut page, ply);
            page.wait_for(visible, 5);
        }
        page.key("End");
        at_ply(&mut page, plies);
        page.wait_for(visible, 5);
        page.key("Home");
        at_ply(&mut page, 0);
        // Position 0 has no move: nothing is current, and the list is at its top.
        page.wait_for("document.getElementById('moves').scrollTop === 0", 5);
        page.key("ArrowRight");
        at_ply(&mut page, 1);
        page.wait_for(visible, 5);
        assert_eq!(
            page.eval(MESSAGE_SHOWN),
            json!(false),
            "{width}: an error shown"
        );
    }
}

/// The end of a finished game shows its result — the winner by name, with the totals as the
/// API gives them — and no internal code; before the end, no result.
#[test]
fn the_last_ply_shows_the_result() {
    let server = Server::start(&[]);
    for kind in ["FIVE_TRIBES", "CLANS_OF_CALEDONIA", "MOMBASA"] {
        let v = gql(
            &server,
            None,
            "query($k: GameKind) { games(kind: $k, status: FINISHED, first: 1) { edges { node { id plies players outcome { winners scores { seat total } } } } } }",
            json!({ "k": kind }),
        );
        let g = &data(&v)["games"]["edges"][0]["node"];
        let (id, plies) = (g["id"].as_str().unwrap(), g["plies"].as_u64().unwrap());
        let mut page = Page::open(
            &format!("{}/games/{id}?ply={}", server.url, plies - 1),
            1280,
            1000,
        );
        at_ply(&mut page, plies - 1);
        assert_eq!(
            page.eval("document.getElementById('result').hidden"),
            json!(true)
        );
        page.key("End");
        at_ply(&mut page, plies);
        page.wait_for("!document.getElementById('result').hidden", 5);
        let shown = page.eval("document.getElementById('result').textContent");
        let shown = shown.as_str().unwrap();
        let winner = g["outcome"]["winners"][0].as_u64().unwrap() as usize;
        let name = g["players"][winner].as_str().unwrap();
        let total = g["outcome"]["scores"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["seat"].as_u64() == Some(winner as u64))
            .unwrap()["total"]
            .clone();
        assert!(
            shown.contains(name) && shown.contains(&format!("with {total}")),
            "{kind}: {shown}"
        );
        let status = page.eval("document.querySelector('#board .status').textContent");
        assert!(!status.as_str().unwrap().contains('('), "{kind}: {status}");
        if kind == "FIVE_TRIBES" {
            page.screenshot(&shots().join("result-five-tribes.png"));
            assert_eq!(status, json!("Game over"));
        }
        page.key("ArrowLeft");
        at_ply(&mut page, plies - 1);
        page.wait_for("document.getElementById('result').hidden", 5);
    }
}

/// The game list has a result column: a finished game's winner by name and its totals, best
/// first, as the API gives them; an active game a dash.
#[test]
fn the_game_list_shows_each_result() {
    let server = Server::start(&[]);
    let mut page = Page::open(&format!("{}/", server.url), 1280, 1000);
    page.wait_for(
        "document.querySelectorAll('#games-body tr[data-status=\"FINISHED\"] td.result').length > 0",
        30,
    );
    let rows = page.eval(
        "[...document.querySelectorAll('#games-body tr[data-game]')].slice(0, 10).map((r) => [r.dataset.game, r.dataset.status, r.querySelector('td.result').textContent])",
    );
    let mut finished = 0;
    for r in rows.as_array().unwrap() {
        let (id, status, shown) = (r[0].as_str().unwrap(), &r[1], r[2].as_str().unwrap());
        let v = gql(
            &server,
            None,
            "query($id: ID!) { game(id: $id) { players outcome { winners scores { total } } } }",
            json!({ "id": id }),
        );
        let g = &data(&v)["game"];
        if status != "FINISHED" {
            assert_eq!(shown, "—", "{id}");
            continue;
        }
        finished += 1;
        let winner = g["players"][g["outcome"]["winners"][0].as_u64().unwrap() as usize]
            .as_str()
            .unwrap();
        let mut totals: Vec<i64> = g["outcome"]["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["total"].as_i64().unwrap())
            .collect();
        totals.sort_unstable_by(|a, b| b.cmp(a));
        let totals: Vec<String> = totals.iter().map(i64::to_string).collect();
        assert!(
            shown.starts_with(winner) && shown.ends_with(&totals.join("–")),
            "{id}: {shown}"
        );
    }
    assert!(finished > 0);
    page.screenshot(&shots().join("game-list.png"));
    assert_eq!(page.eval(MESSAGE_SHOWN), json!(false));
}

/// A finished game's page offers its record, its text and its positions for download; what
/// each button saves is the API's record and text, and a view per position.
#[test]
fn a_finished_game_downloads_its_record_text_and_positions() {
    let server = Server::start(&[]);
    let v = gql(
        &server,
        None,
        "{ games(kind: CLANS_OF_CALEDONIA, status: FINISHED, first: 1) { edges { node { id plies record text } } } }",
        json!({}),
    );
    let g = &data(&v)["games"]["edges"][0]["node"];
    let (id, plies) = (g["id"].as_str().unwrap(), g["plies"].as_u64().unwrap());
    let mut page = Page::open(&format!("{}/games/{id}?ply=0", server.url), 1280, 1000);
    at_ply(&mut page, 0);
    page.wait_for("!document.getElementById('downloads').hidden", 10);
    // What would be saved is caught before the browser saves it.
    page.eval(
        "window.saved = []; URL.createObjectURL = (b) => { window.saved.push(b); return 'blob:caught'; }; \
         HTMLAnchorElement.prototype.click = function () { window.saved[window.saved.length - 1].name = this.download; }; true",
    );
    for (button, n) in [("dl-record", 1), ("dl-text", 2), ("dl-positions", 3)] {
        page.eval(&format!(
            "document.getElementById('{button}').click(); true"
        ));
        page.wait_for(&format!("window.saved.length === {n}"), 10);
        page.eval(&format!(
            "window.saved[{}].text().then((t) => {{ window.savedText = t; }}); true",
            n - 1
        ));
        page.wait_for("typeof window.savedText === 'string'", 10);
        let name = page.eval(&format!("window.saved[{}].name", n - 1));
        let text = page.eval("window.savedText");
        let text = text.as_str().unwrap();
        match button {
            "dl-record" => {
                assert_eq!(name, json!(format!("{id}.ndjson")));
                assert_eq!(text.trim_end(), g["record"].as_str().unwrap());
            }
            "dl-text" => {
                assert_eq!(name, json!(format!("{id}.txt")));
                assert_eq!(text, g["text"].as_str().unwrap());
            }
            _ => {
                assert_eq!(name, json!(format!("{id}-positions.json")));
                let views: Value = serde_json::from_str(text).unwrap();
                assert_eq!(views.as_array().unwrap().len() as u64, plies + 1);
                assert_eq!(
                    views[plies as usize]["view"],
                    api_view(&server, id, plies, "")
                );
            }
        }
        page.eval("delete window.savedText; true");
    }
    assert_eq!(page.eval(MESSAGE_SHOWN), json!(false));
}
