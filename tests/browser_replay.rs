//! What a replay's user does besides stepping, in a real browser (headless Chromium):
//! autoplay at a chosen speed, stopped by any step by hand; swiping on a phone; reading a
//! position's annotations beside its move and annotating from the page with a token; seats
//! named by their players; an embed's dark theme and transparent background.

mod common;

use common::browser::{shots, Page};
use common::{data, gql, urlencode, Server};
use serde_json::{json, Value};

/// The newest finished game of `kind` whose seats all have different names (where two share a
/// name the page adds the seat's number; `seats_are_named_by_their_players` wants none).
fn finished(server: &Server, kind: &str) -> (String, u64, Vec<String>) {
    let v = gql(
        server,
        None,
        "query($k: GameKind) { games(kind: $k, status: FINISHED, first: 50) { edges { node { id plies players } } } }",
        json!({ "k": kind }),
    );
    let distinct = |n: &&&Value| {
        let p = n["players"].as_array().unwrap();
        p.iter().collect::<std::collections::HashSet<_>>().len() == p.len()
    };
    let nodes: Vec<&Value> = data(&v)["games"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["node"])
        .collect();
    let n = *nodes
        .iter()
        .find(distinct)
        .expect("a game of distinct names");
    let players = n["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    (
        n["id"].as_str().unwrap().to_string(),
        n["plies"].as_u64().unwrap(),
        players,
    )
}

fn at_ply(page: &mut Page, ply: u64) {
    page.wait_for(
        &format!("document.querySelector('#ply-current')?.dataset.ply === '{ply}' && window.ludologViewer?.view"),
        30,
    );
}

fn ply(page: &mut Page) -> u64 {
    page.eval("window.ludologViewer.ply").as_u64().unwrap()
}

fn pause(page: &mut Page, ms: u64) {
    page.eval(&format!("new Promise((r) => setTimeout(r, {ms}))"));
}

#[test]
fn autoplay_plays_at_its_speed_and_stops_when_stepped_by_hand() {
    let server = Server::start(&[]);
    let (id, plies, _) = finished(&server, "FIVE_TRIBES");
    let mut page = Page::open(&format!("{}/games/{id}?ply=0", server.url), 1280, 900);
    at_ply(&mut page, 0);
    assert_eq!(
        page.eval("document.querySelector('#btn-play').getAttribute('aria-pressed')"),
        json!("false")
    );
    // The fastest speed, then Play: the position moves on by itself.
    page.eval("(() => { const s = document.querySelector('#play-speed'); s.value = '120'; s.dispatchEvent(new Event('change')); document.querySelector('#btn-play').click(); })()");
    page.wait_for("window.ludologViewer.ply >= 5", 10);
    assert_eq!(
        page.eval("document.querySelector('#btn-play').getAttribute('aria-pressed')"),
        json!("true")
    );
    // A step by hand stops it where it is.
    page.key("ArrowLeft");
    let stopped = ply(&mut page);
    pause(&mut page, 600);
    assert_eq!(ply(&mut page), stopped, "no step after a step by hand");
    assert_eq!(
        page.eval("document.querySelector('#btn-play').textContent"),
        json!("Play")
    );
    // `p` plays again; a slower speed steps less often; it stops by itself at the end.
    page.eval("(() => { const s = document.querySelector('#play-speed'); s.value = '1000'; s.dispatchEvent(new Event('change')); })()");
    page.key("p");
    pause(&mut page, 1600);
    let slow = ply(&mut page) - stopped;
    assert!(
        (1..=2).contains(&slow),
        "{slow} plies in 1.6 s at 1 s a ply"
    );
    page.key("p");
    page.eval(&format!("(() => {{ const s = document.querySelector('#ply-slider'); s.value = '{}'; s.dispatchEvent(new Event('input')); }})()", plies - 2));
    at_ply(&mut page, plies - 2);
    page.eval("(() => { const s = document.querySelector('#play-speed'); s.value = '120'; s.dispatchEvent(new Event('change')); document.querySelector('#btn-play').click(); })()");
    at_ply(&mut page, plies);
    page.wait_for(
        "document.querySelector('#btn-play').getAttribute('aria-pressed') === 'false'",
        5,
    );
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
}

#[test]
fn a_swipe_steps_on_a_phone() {
    let server = Server::start(&[]);
    let (id, _, _) = finished(&server, "MOMBASA");
    let mut page = Page::open(&format!("{}/games/{id}?ply=20", server.url), 390, 844);
    at_ply(&mut page, 20);
    page.call(
        "Emulation.setTouchEmulationEnabled",
        json!({ "enabled": true, "maxTouchPoints": 1 }),
    );
    let r = page.eval("(() => { const r = document.querySelector('#board').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()");
    let (x, y) = (r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
    page.swipe((x + 100.0, y), (x - 100.0, y + 5.0));
    at_ply(&mut page, 21);
    page.swipe((x - 100.0, y), (x + 100.0, y));
    at_ply(&mut page, 20);
    page.swipe((x - 100.0, y), (x + 100.0, y));
    at_ply(&mut page, 19);
    // Mostly vertical: a scroll, not a step.
    page.swipe((x, y + 100.0), (x + 30.0, y - 100.0));
    pause(&mut page, 300);
    assert_eq!(ply(&mut page), 19);
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
}

#[test]
fn annotations_show_beside_the_move_and_a_token_holder_annotates_from_the_page() {
    let token = "ann-token-0123456789abcdef";
    let server = Server::start(&["--annotators", &format!("ann={token}")]);
    let (id, _, _) = finished(&server, "CLANS_OF_CALEDONIA");

    // A spectator: no form.
    let mut page = Page::open(&format!("{}/games/{id}?ply=12", server.url), 1280, 900);
    at_ply(&mut page, 12);
    assert_eq!(
        page.eval("document.querySelector('#annotate-form').hidden"),
        json!(true)
    );

    // With an analyst's token, entered in the page.
    page.eval(&format!("(() => {{ document.querySelector('#token-input').value = '{token}'; document.querySelector('#token-form').requestSubmit(); }})()"));
    std::thread::sleep(std::time::Duration::from_millis(500)); // the page reloads with it
    at_ply(&mut page, 12);
    page.wait_for("!document.querySelector('#annotate-form').hidden", 10);
    page.eval("(() => { document.querySelector('#annotate-glyph').value = '!?'; document.querySelector('#annotate-comment').value = 'A <b>daring</b> expansion'; document.querySelector('#annotate-form').requestSubmit(); })()");
    page.wait_for(
        "document.querySelector('#current-notes').textContent.includes('daring')",
        10,
    );
    assert_eq!(
        page.eval("document.querySelector('#current-notes').textContent"),
        json!("A <b>daring</b> expansion — ann"),
        "the comment as text, with its author"
    );
    assert_eq!(
        page.eval("document.querySelector('#current-notes b')"),
        json!(null),
        "never markup"
    );
    assert_eq!(
        page.eval("document.querySelector('#current-move .glyph').textContent"),
        json!("!?")
    );
    assert_eq!(
        page.eval("document.querySelector('.move[data-ply=\"12\"] .glyph').textContent"),
        json!("!?"),
        "and in the move list"
    );
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id) { annotations { ply glyph comment author } } }",
        json!({ "id": id }),
    );
    assert_eq!(
        data(&v)["game"]["annotations"],
        json!([{ "ply": 12, "glyph": "!?", "comment": "A <b>daring</b> expansion", "author": "analyst:ann" }])
    );
    // The next position has none of it.
    page.key("ArrowRight");
    at_ply(&mut page, 13);
    assert_eq!(
        page.eval("document.querySelector('#current-notes').textContent"),
        json!("")
    );
    assert_eq!(
        page.eval("document.querySelector('#current-move .glyph')"),
        json!(null)
    );
    page.screenshot(&shots().join("annotate.png"));
    assert!(page.errors.is_empty(), "{:#?}", page.errors);

    // A token the server does not know: refused, said so, nothing written.
    let mut page = Page::open(&format!("{}/games/{id}?ply=3", server.url), 1280, 900);
    at_ply(&mut page, 3);
    page.eval("(() => { document.querySelector('#token-input').value = 'not-a-token-0123456789'; document.querySelector('#token-form').requestSubmit(); })()");
    std::thread::sleep(std::time::Duration::from_millis(500));
    at_ply(&mut page, 3);
    page.wait_for("!document.querySelector('#annotate-form').hidden", 10);
    page.eval("(() => { document.querySelector('#annotate-comment').value = 'sneaky'; document.querySelector('#annotate-form').requestSubmit(); })()");
    page.wait_for(
        "document.querySelector('#annotate-status').textContent.startsWith('Not saved')",
        10,
    );
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id) { annotations { ply } } }",
        json!({ "id": id }),
    );
    assert_eq!(data(&v)["game"]["annotations"].as_array().unwrap().len(), 1);
}

#[test]
fn seats_are_named_by_their_players() {
    let server = Server::start(&[]);
    for kind in ["FIVE_TRIBES", "CLANS_OF_CALEDONIA", "MOMBASA"] {
        let (id, plies, players) = finished(&server, kind);
        let mut page = Page::open(
            &format!("{}/games/{id}?ply={}", server.url, plies / 2),
            1280,
            900,
        );
        at_ply(&mut page, plies / 2);
        // The server's words say "Seat 2 …"; the page says the player's name.
        let seat_words = page.eval("[...document.querySelectorAll('#moves .desc, #moves .actor, #current-move, #result')].map((e) => e.textContent).filter((t) => /\\b[Ss]eat \\d/.test(t))");
        assert_eq!(seat_words, json!([]), "{kind}");
        let named = page.eval(&format!(
            "[...document.querySelectorAll('#moves .desc')].some((e) => e.textContent.startsWith({:?}))",
            players[0]
        ));
        assert_eq!(named, json!(true), "{kind}: moves name their players");
        // Each seat's panel is headed by its player's name, the seat's number apart.
        for (s, name) in players.iter().enumerate() {
            let head = page.eval(&format!(
                "document.querySelector('#board .seat-panel[data-seat=\"{s}\"] .seat-name').textContent"
            ));
            assert!(
                head.as_str().unwrap().starts_with(name.as_str()),
                "{kind}: {head}"
            );
            let no = page.eval(&format!(
                "document.querySelector('#board .seat-panel[data-seat=\"{s}\"] .seat-no').textContent"
            ));
            assert_eq!(no, json!(format!("seat {s}")));
        }
        // The title links every player to their page.
        let links = page.eval(
            "[...document.querySelectorAll('#game-title a.player')].map((a) => a.getAttribute('href'))",
        );
        let want: Vec<String> = players
            .iter()
            .map(|p| format!("/players/{}", urlencode(p)))
            .collect();
        assert_eq!(links, json!(want), "{kind}");
        assert!(page.errors.is_empty(), "{kind}: {:#?}", page.errors);
    }
}

#[test]
fn an_embed_takes_a_dark_theme_or_a_transparent_background() {
    let server = Server::start(&[]);
    let (id, _, _) = finished(&server, "FIVE_TRIBES");
    let background = "getComputedStyle(document.documentElement).backgroundColor";
    // The Share dialog gives the snippet with the look chosen.
    let mut page = Page::open(&format!("{}/games/{id}?ply=30", server.url), 1280, 900);
    at_ply(&mut page, 30);
    page.eval("document.querySelector('#btn-share').click()");
    let snippet = "document.querySelector('#share-embed').value";
    let plain = page.eval(snippet);
    assert!(!plain.as_str().unwrap().contains("theme="), "{plain}");
    page.eval("(() => { const b = document.querySelector('#share-dark'); b.checked = true; b.dispatchEvent(new Event('change')); })()");
    let dark = page.eval(snippet);
    assert!(
        dark.as_str().unwrap().contains(&format!(
            "/embed/games/{id}?ply=30&amp;perspective=omniscient&amp;theme=dark"
        )),
        "{dark}"
    );
    let mut page = Page::open(
        &format!("{}/embed/games/{id}?ply=30&theme=dark", server.url),
        800,
        600,
    );
    at_ply(&mut page, 30);
    let bg = page.eval(background);
    let rgb: Vec<u32> = bg
        .as_str()
        .unwrap()
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(',')
        .map(|x| x.trim().parse().unwrap())
        .collect();
    assert!(rgb.iter().all(|c| *c < 60), "a dark page: {bg}");
    page.key("ArrowRight");
    at_ply(&mut page, 31);
    page.wait_for("location.search.includes('ply=31')", 5);
    assert!(
        page.eval("location.search")
            .as_str()
            .unwrap()
            .contains("theme=dark"),
        "the theme stays in the link"
    );
    page.screenshot(&shots().join("embed-dark.png"));
    assert!(page.errors.is_empty(), "{:#?}", page.errors);

    let mut page = Page::open(
        &format!("{}/embed/games/{id}?ply=30&bg=transparent", server.url),
        800,
        600,
    );
    at_ply(&mut page, 30);
    assert_eq!(page.eval(background), json!("rgba(0, 0, 0, 0)"));
    assert_eq!(
        page.eval("getComputedStyle(document.querySelector('#board-wrap')).backgroundColor"),
        json!("rgba(0, 0, 0, 0)")
    );
    // Without either, the page's own light background.
    let mut page = Page::open(&format!("{}/embed/games/{id}?ply=30", server.url), 800, 600);
    at_ply(&mut page, 30);
    assert_eq!(page.eval(background), json!("rgb(246, 244, 239)"));
}
