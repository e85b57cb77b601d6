//! The player page (`/players/<name>`) in a real browser (headless Chromium over the DevTools
//! protocol), served by `ludolog serve` with its sample games: for a sample player it checks
//! the results table and the rating lines against the API, follows a game link and a player
//! link, and holds the page to no console error and no request answered 404 (or any error)
//! while it loads, on a desktop and on a phone, where nothing may scroll sideways. An unknown
//! player gets a message. Screenshots go to `target/browser-screenshots/player-*.png`.

mod common;

use common::browser::{shots, Page, MESSAGE_SHOWN};
use common::{data, gql, urlencode, Server};
use serde_json::{json, Value};

const PLAYER: &str = "mcts:1000";

/// True once the page has drawn what its first request brought.
const READY: &str = "document.body?.dataset.ready === 'true'";

/// Every request the page made that was answered with an error status (the page itself
/// included), and how many it made: the browser's own record of its loads.
const FAILED_LOADS: &str = "(() => { \
    const all = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]; \
    return { count: all.length, failed: all.filter((e) => !(e.responseStatus >= 200 && e.responseStatus < 400)).map((e) => `${e.responseStatus} ${e.name}`) }; })()";

fn no_failed_loads(page: &mut Page, what: &str) {
    let loads = page.eval(FAILED_LOADS);
    assert!(loads["count"].as_u64().unwrap() >= 5, "{what}: {loads}");
    assert_eq!(loads["failed"], json!([]), "{what}: requests that failed");
    assert!(page.errors.is_empty(), "{what}: {:?}", page.errors);
}

/// The whole page as a PNG, beyond the window's height.
fn full_screenshot(page: &mut Page, path: &std::path::Path) {
    use base64::Engine;
    let r = page.call(
        "Page.captureScreenshot",
        json!({ "format": "png", "captureBeyondViewport": true }),
    );
    let png = base64::engine::general_purpose::STANDARD
        .decode(r["data"].as_str().unwrap())
        .unwrap();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, png).unwrap();
}

#[test]
fn a_players_page_shows_their_results_ratings_and_games() {
    let server = Server::start(&[]);
    let v = gql(
        &server,
        None,
        "query($n: String!) { player(name: $n) {
           results { kind games wins winRate rating { ordinal } }
           ft: ratingHistory(kind: FIVE_TRIBES) { gameId }
           cal: ratingHistory(kind: CLANS_OF_CALEDONIA) { gameId }
           mom: ratingHistory(kind: MOMBASA) { gameId }
           games(first: 25) { edges { node { id players } } } } }",
        json!({ "n": PLAYER }),
    );
    let api = data(&v)["player"].clone();
    let points = |kind: &str| {
        let alias = match kind {
            "FIVE_TRIBES" => "ft",
            "CLANS_OF_CALEDONIA" => "cal",
            _ => "mom",
        };
        api[alias].as_array().unwrap().len() as u64
    };
    let game_ids: Vec<Value> = api["games"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["node"]["id"].clone())
        .collect();
    assert_eq!(game_ids.len(), 25);

    for (width, height) in [(1366, 768), (390, 844)] {
        let mut page = Page::open(&format!("{}/players/{PLAYER}", server.url), width, height);
        page.wait_for(READY, 30);
        assert_eq!(page.eval("innerWidth"), json!(width));
        assert_eq!(
            page.eval("document.querySelector('h1').textContent"),
            json!(PLAYER)
        );
        assert_eq!(page.eval(MESSAGE_SHOWN), json!(false));

        // The results table: a row per kind, with the API's games, wins and win rate.
        let rows = page.eval(
            "[...document.querySelectorAll('#results-body tr[data-solo=\"false\"]')].map((r) => ({ \
               kind: r.dataset.kind, games: Number(r.dataset.games), wins: Number(r.dataset.wins), \
               cells: [...r.cells].map((c) => c.textContent.trim()) }))",
        );
        let results = api["results"].as_array().unwrap();
        assert_eq!(rows.as_array().unwrap().len(), results.len(), "{rows}");
        for (row, r) in rows.as_array().unwrap().iter().zip(results) {
            assert_eq!(row["kind"], r["kind"]);
            assert_eq!(row["games"], r["games"]);
            assert_eq!(row["wins"], r["wins"]);
            let rate = format!("{:.1}%", r["winRate"].as_f64().unwrap() * 100.0);
            assert_eq!(row["cells"][3], json!(rate), "{row}");
            let rating = format!("{:.1}", r["rating"]["ordinal"].as_f64().unwrap());
            assert!(
                row["cells"][6].as_str().unwrap().starts_with(&rating),
                "{row}: {rating}"
            );
        }
        // The statistics links: the kind's charts of the games this player sat at.
        let charts = page.eval(
            "Promise.all([...document.querySelectorAll('#results-body td.stats a')].map(async (a) => { \
               const r = await fetch(a.href); return `${r.status} ${r.headers.get('content-type')} ${new URL(a.href).pathname}`; }))",
        );
        let charts = charts.as_array().unwrap();
        assert_eq!(charts.len(), 2 * results.len());
        for c in charts {
            assert!(
                c.as_str()
                    .unwrap()
                    .starts_with("200 image/svg+xml /charts/"),
                "{c}"
            );
        }
        // Caledonia's solo games have a row of their own.
        assert_eq!(
            page.eval("document.querySelectorAll('#results-body tr[data-solo=\"true\"]').length"),
            json!(1)
        );

        // A rating line per kind, with as many points as the API's history, inside the page.
        for r in results {
            let kind = r["kind"].as_str().unwrap();
            let drawn = page.eval(&format!(
                "(() => {{ const f = document.querySelector('.rating-chart[data-kind=\"{kind}\"]'); \
                   const line = f.querySelector('polyline.rating-line'); \
                   const box = f.getBoundingClientRect(), svg = f.querySelector('svg').getBoundingClientRect(); \
                   return {{ points: line.getAttribute('points').trim().split(/\\s+/).length, \
                     markers: f.querySelectorAll('a.point').length, \
                     ticks: f.querySelectorAll('text.tick').length, \
                     titles: [...f.querySelectorAll('text.axis-title')].map((t) => t.textContent), \
                     inside: svg.left >= box.left && svg.right <= box.right + 0.5 && svg.width > 200 }}; }})()"
            ));
            assert_eq!(drawn["points"], json!(points(kind)), "{kind}: {drawn}");
            assert_eq!(drawn["markers"], json!(points(kind)), "{kind}");
            assert!(drawn["ticks"].as_u64().unwrap() >= 5, "{kind}: {drawn}");
            assert_eq!(drawn["titles"], json!(["rated games played", "rating"]));
            assert_eq!(drawn["inside"], json!(true), "{kind} at {width}: {drawn}");
        }

        // The games: the API's first page, newest first, each linked to its viewer; every
        // other seat linked to its own player page.
        let links = page.eval(
            "[...document.querySelectorAll('#games-body tr')].map((r) => ({ id: r.dataset.game, \
               href: r.querySelector('a.game-link').getAttribute('href'), \
               me: r.querySelectorAll('.me').length, others: [...r.querySelectorAll('a.player')].map((a) => a.getAttribute('href')), \
               result: r.querySelector('.result').textContent }))",
        );
        let links = links.as_array().unwrap();
        assert_eq!(
            links.iter().map(|l| l["id"].clone()).collect::<Vec<_>>(),
            game_ids
        );
        for l in links {
            assert_eq!(
                l["href"],
                json!(format!("/games/{}", l["id"].as_str().unwrap()))
            );
            // A bot's name may hold two seats of a 4-player game (three levels rotate).
            assert!(l["me"].as_u64() >= Some(1), "{l}");
            for o in l["others"].as_array().unwrap() {
                assert!(o.as_str().unwrap().starts_with("/players/"), "{l}");
            }
            assert!(!l["result"].as_str().unwrap().is_empty());
        }
        // Nothing scrolls sideways; no error, no failed request.
        assert_eq!(
            page.eval("document.documentElement.scrollWidth <= innerWidth"),
            json!(true),
            "{width}: the page is wider than the window"
        );
        no_failed_loads(&mut page, &format!("player page at {width}"));
        page.screenshot(&shots().join(format!("player-{width}.png")));
        full_screenshot(&mut page, &shots().join(format!("player-{width}-full.png")));
        page.eval("document.getElementById('games-title').scrollIntoView()");
        page.screenshot(&shots().join(format!("player-{width}-games.png")));

        // "More games" adds the next page.
        page.eval("document.getElementById('more').click()");
        page.wait_for(
            "document.querySelectorAll('#games-body tr').length === 50",
            20,
        );

        if width == 1366 {
            // A game link opens the viewer at that game; another seat's link, their page.
            let first = game_ids[0].as_str().unwrap();
            // Clicked after the evaluation returns: the navigation would otherwise cut its answer.
            page.eval(
                "setTimeout(() => document.querySelector('#games-body a.game-link').click(), 0)",
            );
            page.wait_for(&format!("location.pathname === '/games/{first}'"), 10);
            page.wait_for(
                "document.querySelector('#ply-current')?.dataset.ply !== undefined",
                30,
            );
            assert!(page.errors.is_empty(), "viewer: {:?}", page.errors);
            page.navigate(&format!("{}/players/{PLAYER}", server.url));
            page.wait_for(
                &format!("location.pathname === '/players/{PLAYER}' && {READY}"),
                30,
            );
            let other = page.eval("document.querySelector('#games-body a.player').textContent");
            page.eval(
                "setTimeout(() => document.querySelector('#games-body a.player').click(), 0)",
            );
            page.wait_for(
                // The page links a name as `encodeURIComponent` writes it (`mcts%3A500`).
                &format!(
                    "location.pathname === '/players/{}'",
                    urlencode(other.as_str().unwrap())
                ),
                10,
            );
            page.wait_for(READY, 30);
            assert_eq!(page.eval("document.querySelector('h1').textContent"), other);
            no_failed_loads(&mut page, "another player's page");
        }
    }
}

#[test]
fn an_unknown_player_gets_a_message() {
    let server = Server::start(&[]);
    let mut page = Page::open(&format!("{}/players/nobody%20here", server.url), 1366, 768);
    page.wait_for(MESSAGE_SHOWN, 30);
    assert_eq!(
        page.eval("document.getElementById('message').textContent"),
        json!("No game has a player named “nobody here”.")
    );
    no_failed_loads(&mut page, "unknown player");
    // A name no game could have: the API's own words.
    page.navigate(&format!("{}/players/{}", server.url, "x".repeat(80)));
    page.wait_for(
        "document.getElementById('message')?.textContent.includes('1 to 64 characters')",
        30,
    );
    assert!(page.errors.is_empty(), "{:?}", page.errors);
}
