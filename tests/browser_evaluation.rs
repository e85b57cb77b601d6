//! The evaluation under the board in a real browser (headless Chromium), served by `ludolog
//! serve` with its background review on: opening a finished sample game moves it to the front
//! of the queue and, once reviewed, the page draws the win-chance graph (one line per seat in
//! the seat's colour, the current ply marked), the judgement glyphs the API gives in the move
//! list, the judgement of the move shown with the better move, and each seat's accuracy at the
//! end; a click on the graph moves the board to that ply; `?eval=0` hides it all, on the full
//! page and in an embed. Screenshots: `target/browser-screenshots/evaluation-*.png`.

mod common;

use common::browser::{shots, Page};
use common::{data, gql, Server};
use serde_json::json;

fn at_ply(page: &mut Page, ply: u64) {
    page.wait_for(
        &format!("document.querySelector('#ply-current')?.dataset.ply === '{ply}' && window.ludologViewer?.view"),
        30,
    );
}

/// A real click at the page coordinates `(x, y)`.
fn click(page: &mut Page, x: f64, y: f64) {
    for kind in ["mousePressed", "mouseReleased"] {
        page.call(
            "Input.dispatchMouseEvent",
            json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
        );
    }
}

#[test]
fn the_win_chance_graph_judgements_and_accuracy_show_and_hide() {
    let server = Server::start(&["--review-threads", "1", "--review-iterations", "10"]);
    let v = gql(
        &server,
        None,
        "query { games(kind: FIVE_TRIBES, status: FINISHED, first: 20) { edges { node { id plies players } } } }",
        json!({}),
    );
    let games = data(&v)["games"]["edges"].as_array().unwrap().clone();
    let g = games
        .iter()
        .map(|e| &e["node"])
        .find(|n| n["players"].as_array().unwrap().len() == 3)
        .expect("a three-player sample")
        .clone();
    let (id, plies) = (g["id"].as_str().unwrap(), g["plies"].as_u64().unwrap());

    let mut page = Page::open(&format!("{}/games/{id}?ply=40", server.url), 1280, 1000);
    at_ply(&mut page, 40);
    // Opening the game queued it first; the page asks again until it is reviewed.
    page.wait_for(
        "document.querySelectorAll('#eval-graph path.series').length > 0",
        180,
    );
    assert_eq!(
        page.eval("document.querySelectorAll('#eval-graph path.series').length"),
        json!(3),
        "a line per seat"
    );
    let colours = page.eval(
        "[...document.querySelectorAll('#eval-graph path.series')].map((p) => p.getAttribute('stroke'))",
    );
    let colours: Vec<String> = serde_json::from_value(colours).unwrap();
    assert_eq!(
        colours
            .iter()
            .collect::<std::collections::HashSet<_>>()
            .len(),
        3,
        "each seat its own colour: {colours:?}"
    );

    // The API's judgements: the glyphs in the move list are exactly the judged moves with one.
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id) { evaluation { status moves { ply seat glyph judgement best } seats { seat accuracy } } } }",
        json!({ "id": id }),
    );
    let e = &data(&v)["game"]["evaluation"];
    assert_eq!(e["status"], "DONE");
    let mut glyphs: Vec<(u64, String)> = e["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["glyph"] != "")
        .map(|m| {
            (
                m["ply"].as_u64().unwrap(),
                m["glyph"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    glyphs.sort();
    let shown = page.eval(
        "[...document.querySelectorAll('#moves .judgement')].map((g) => [Number(g.closest('.move').dataset.ply), g.textContent])",
    );
    let mut shown: Vec<(u64, String)> = serde_json::from_value(shown).unwrap();
    shown.sort();
    assert_eq!(shown, glyphs, "the move list's glyphs are the API's");

    // The move shown is judged; where it was not the best, the better move is named.
    let judged = e["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["judgement"] != "BEST" && m["best"].is_string())
        .expect("a move that was not the search's first choice")
        .clone();
    let p = judged["ply"].as_u64().unwrap();
    page.eval(&format!("history.replaceState(null, '', '?ply={p}')"));
    page.navigate(&format!("{}/games/{id}?ply={p}", server.url));
    at_ply(&mut page, p);
    page.wait_for(
        "document.getElementById('eval-best').textContent.includes('Best was')",
        30,
    );
    assert_eq!(
        page.eval("document.getElementById('eval-best').dataset.judgement"),
        judged["judgement"]
    );
    page.screenshot(&shots().join("evaluation-five-tribes.png"));

    // A click on the graph moves the board to the ply under it.
    let target = plies / 4;
    let (x, y) = {
        let r = page.eval(&format!(
            "(() => {{ const s = document.getElementById('eval-graph'); s.scrollIntoView({{ block: 'center' }}); const b = s.getBoundingClientRect();
               const w = s.viewBox.baseVal.width;
               const vx = 34 + (w - 34 - 8) * {target} / {plies}; return [b.left + b.width * vx / w, b.top + b.height / 2]; }})()"
        ));
        (r[0].as_f64().unwrap(), r[1].as_f64().unwrap())
    };
    let hit = page.eval(&format!(
        "(() => {{ const e = document.elementFromPoint({x}, {y}); return e ? (e.closest('#eval-graph') ? 'graph' : e.outerHTML.slice(0, 120)) : 'nothing'; }})()"
    ));
    assert_eq!(
        hit,
        json!("graph"),
        "the click lands on the graph at ({x}, {y})"
    );
    click(&mut page, x, y);
    page.wait_for(
        &format!(
            "Math.abs(Number(document.querySelector('#ply-current').dataset.ply) - {target}) <= 1"
        ),
        10,
    );
    let cursor = page.eval("Number(document.getElementById('eval-cursor').getAttribute('x1'))");
    let ply_now = page.eval("Number(document.querySelector('#ply-current').dataset.ply)");
    let w = page
        .eval("document.getElementById('eval-graph').viewBox.baseVal.width")
        .as_f64()
        .unwrap();
    let want = 34.0 + (w - 42.0) * ply_now.as_f64().unwrap() / plies as f64;
    assert!(
        (cursor.as_f64().unwrap() - want).abs() < 0.5,
        "the cursor marks the ply"
    );

    // At the end: each seat's accuracy, as the API gives it.
    page.key("End");
    at_ply(&mut page, plies);
    page.wait_for("!document.getElementById('eval-accuracy').hidden", 10);
    let rows = page.eval(
        "[...document.querySelectorAll('#eval-accuracy tr')].map((r) => r.querySelector('.accuracy').textContent)",
    );
    let want: Vec<String> = e["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{:.1}", s["accuracy"].as_f64().unwrap()))
        .collect();
    assert_eq!(rows, json!(want));
    page.screenshot(&shots().join("evaluation-five-tribes-end.png"));

    // `?eval=0` hides it, on the page and in an embed; an embed shows it otherwise.
    for (path, hidden) in [
        (format!("/games/{id}?ply=10&eval=0"), true),
        (format!("/embed/games/{id}?ply=10&eval=0"), true),
        (format!("/embed/games/{id}?ply=10"), false),
    ] {
        page.navigate(&format!("{}{path}", server.url));
        at_ply(&mut page, 10);
        if hidden {
            assert_eq!(
                page.eval("document.getElementById('eval-pane').hidden"),
                json!(true),
                "{path}"
            );
            assert_eq!(
                page.eval("document.querySelectorAll('#moves .judgement').length"),
                json!(0),
                "{path}"
            );
        } else {
            page.wait_for(
                "document.querySelectorAll('#eval-graph path.series').length === 3",
                30,
            );
        }
    }
}

/// A game in play has no review: the page evaluates each position it shows, from the
/// perspective shown (a spectator's here), and the graph grows as moves arrive.
#[test]
fn a_game_in_play_is_evaluated_as_it_is_watched() {
    use common::{create_game, play_first};
    let server = Server::start(&["--no-samples"]);
    let (id, tokens) = create_game(&server, "five-tribes", 2, 11);
    for _ in 0..6 {
        play_first(&server, &id, &tokens).unwrap();
    }
    let mut page = Page::open(&format!("{}/games/{id}", server.url), 1280, 1000);
    page.wait_for("window.ludologViewer?.view", 30);
    page.wait_for(
        "document.getElementById('eval-status').textContent.includes('In play')",
        30,
    );
    page.wait_for(
        "document.querySelectorAll('#eval-here .chance').length === 2",
        60,
    );
    assert_eq!(
        page.eval("Number(document.getElementById('eval-graph').dataset.points)"),
        json!(1)
    );
    // Two more moves: the page follows to the tip and evaluates it too.
    let before = page.eval("Number(document.querySelector('#ply-current').dataset.ply)");
    play_first(&server, &id, &tokens).unwrap();
    play_first(&server, &id, &tokens).unwrap();
    page.wait_for(
        &format!("Number(document.querySelector('#ply-current').dataset.ply) > {before}"),
        30,
    );
    page.wait_for(
        "Number(document.getElementById('eval-graph').dataset.points) >= 2",
        60,
    );
    assert_eq!(
        page.eval("document.querySelectorAll('#eval-graph path.series').length"),
        json!(2)
    );
    page.screenshot(&shots().join("evaluation-live.png"));
}
