//! The viewer's pages at the sizes people open them, in a real browser (headless Chromium):
//! a desktop at 1366×768 shows the board and its controls without scrolling; the embed fits
//! the `<iframe>` its Share button gives (800×600) and the other frames blogs use (640×360,
//! a 390 px phone) with the controls inside; on a phone the board is as wide as the screen
//! and nothing scrolls sideways; no text of a board runs out of its room; a page load asks
//! for nothing that is not there and logs no error. Screenshots of each game at each size go
//! to `target/browser-screenshots/` (looked at; the README shows three of them).

mod common;

use common::browser::{shots, Page};
use common::{data, gql, Server};
use serde_json::json;

const KINDS: [(&str, &str); 3] = [
    ("FIVE_TRIBES", "five-tribes"),
    ("CLANS_OF_CALEDONIA", "caledonia"),
    ("MOMBASA", "mombasa"),
];

/// A finished sample game of `kind` with the most seats: (id, plies).
fn sample(server: &Server, kind: &str) -> (String, u64) {
    let v = gql(
        server,
        None,
        "query($k: GameKind) { games(kind: $k, status: FINISHED, first: 20) { edges { node { id plies players } } } }",
        json!({ "k": kind }),
    );
    data(&v)["games"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["node"])
        .max_by_key(|n| n["players"].as_array().unwrap().len())
        .map(|n| {
            (
                n["id"].as_str().unwrap().to_string(),
                n["plies"].as_u64().unwrap(),
            )
        })
        .unwrap()
}

fn loaded(page: &mut Page, ply: u64) {
    page.wait_for(
        &format!("document.querySelector('#ply-current')?.dataset.ply === '{ply}' && window.ludologViewer?.view && document.querySelector('#board text')"),
        30,
    );
    // Fonts and layout settle before anything is measured.
    page.eval("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
}

/// `[scrollWidth, scrollHeight, innerWidth, innerHeight]` of the page.
fn extent(page: &mut Page) -> Vec<f64> {
    let v = page.eval("[document.documentElement.scrollWidth, document.documentElement.scrollHeight, innerWidth, innerHeight]");
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// The bottom edge of an element on screen.
fn bottom(page: &mut Page, selector: &str) -> f64 {
    page.eval(&format!(
        "document.querySelector('{selector}').getBoundingClientRect().bottom"
    ))
    .as_f64()
    .unwrap()
}

#[test]
fn every_page_fits_the_screen_or_frame_it_is_opened_in() {
    let server = Server::start(&[]);
    for (kind, name) in KINDS {
        let (id, plies) = sample(&server, kind);
        let ply = plies / 2;

        // An embed, in the frame the Share button gives and in two others: nothing scrolls,
        // the controls and the move are inside the frame.
        for (w, h) in [(800, 600), (640, 360), (390, 844)] {
            let mut page = Page::open(&format!("{}/embed/games/{id}?ply={ply}", server.url), w, h);
            loaded(&mut page, ply);
            let e = extent(&mut page);
            assert!(
                e[0] <= e[2] && e[1] <= e[3],
                "{kind} embed at {w}×{h}: the page is {}×{}",
                e[0],
                e[1]
            );
            for part in ["#btn-next", "#ply-slider", "#current-move", "#board"] {
                let b = bottom(&mut page, part);
                assert!(
                    b <= h as f64 + 0.5,
                    "{kind} embed at {w}×{h}: {part} ends at {b}"
                );
            }
            page.screenshot(&shots().join(format!("embed-{name}-{w}x{h}.png")));
            assert!(page.errors.is_empty(), "{kind}: {:#?}", page.errors);
        }

        // A laptop: the board, the controls and the current move above the fold.
        let mut page = Page::open(&format!("{}/games/{id}?ply={ply}", server.url), 1366, 768);
        loaded(&mut page, ply);
        for part in ["#btn-next", "#btn-play", "#current-move", "#board"] {
            let b = bottom(&mut page, part);
            assert!(b <= 768.5, "{kind} at 1366×768: {part} ends at {b}");
        }
        let board_h = page
            .eval("document.querySelector('#board').getBoundingClientRect().height")
            .as_f64()
            .unwrap();
        assert!(
            board_h > 450.0,
            "{kind}: a board of {board_h} px is too small"
        );
        page.screenshot(&shots().join(format!("desktop-{name}.png")));
        assert!(page.errors.is_empty(), "{kind}: {:#?}", page.errors);

        // A phone: the board as wide as the screen, nothing sideways, the move list below.
        let mut page = Page::open(&format!("{}/games/{id}?ply={ply}", server.url), 390, 844);
        loaded(&mut page, ply);
        let e = extent(&mut page);
        assert!(e[0] <= e[2], "{kind} on a phone: {} px wide", e[0]);
        let board = page.eval("(() => { const r = document.querySelector('#board').getBoundingClientRect(); return [r.left, r.right, r.width]; })()");
        let b: Vec<f64> = board
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert!(
            b[0] >= 0.0 && b[1] <= 390.0 && b[2] > 330.0,
            "{kind} on a phone: the board spans {b:?}"
        );
        let below = page.eval("document.querySelector('#moves-pane').getBoundingClientRect().top >= document.querySelector('#board').getBoundingClientRect().bottom");
        assert_eq!(below, json!(true), "{kind}: the moves below the board");
        page.screenshot(&shots().join(format!("phone-{name}.png")));
        assert!(page.errors.is_empty(), "{kind}: {:#?}", page.errors);
    }

    // The game list on a phone: no sideways scrolling.
    let mut page = Page::open(&format!("{}/", server.url), 390, 844);
    page.wait_for(
        "document.querySelectorAll('#games-body tr[data-game]').length > 5",
        30,
    );
    let e = extent(&mut page);
    assert!(e[0] <= e[2], "the game list on a phone: {} px wide", e[0]);
    // The footer names the open datasets' manifest.
    assert_eq!(
        page.eval("document.querySelector('.index-footer a').getAttribute('href')"),
        json!("/datasets/manifest.json")
    );
    page.eval("document.querySelector('.index-footer').scrollIntoView()");
    page.screenshot(&shots().join("index-phone.png"));
}

/// Every text a board keeps to a width (`data-fit`) stays inside it, every text stays inside
/// the board, a Five Tribes camel never covers its tile's name, and Caledonia's modules are
/// outlined by one line where two meet.
#[test]
fn no_text_on_a_board_runs_out_of_its_room() {
    let server = Server::start(&[]);
    let check = "(() => {
        const svg = document.querySelector('#board');
        const vb = svg.viewBox.baseVal;
        const out = [];
        for (const t of svg.querySelectorAll('text[data-fit]')) {
            const max = Number(t.dataset.fit);
            const w = t.hasAttribute('textLength') ? Number(t.getAttribute('textLength')) : t.getComputedTextLength();
            if (w > max + 0.5) out.push(`over ${max}: ${t.textContent}`);
        }
        for (const t of svg.querySelectorAll('text')) {
            if (!t.textContent.trim()) continue;
            const b = t.getBBox();
            if (b.x < vb.x - 0.5 || b.x + b.width > vb.x + vb.width + 0.5) out.push(`outside the board: ${t.textContent}`);
        }
        for (const tile of svg.querySelectorAll('.tile')) {
            const camel = tile.querySelector('.camel');
            const name = tile.querySelector('.tile-type');
            if (!camel || !name) continue;
            const c = camel.getBBox(), n = name.getBBox();
            if (c.x < n.x + n.width && n.x < c.x + c.width && c.y < n.y + n.height && n.y < c.y + c.height) out.push(`a camel covers ${name.textContent} on ${tile.dataset.id}`);
        }
        return out;
    })()";
    for (kind, _) in KINDS {
        let (id, plies) = sample(&server, kind);
        let mut page = Page::open(&format!("{}/games/{id}?ply=0", server.url), 1366, 768);
        loaded(&mut page, 0);
        let mut camels = 0;
        for ply in [plies / 4, plies / 2, 3 * plies / 4, plies] {
            page.eval(&format!("window.ludologViewer && document.querySelector('#ply-slider') && (document.querySelector('#ply-slider').value = '{ply}', document.querySelector('#ply-slider').dispatchEvent(new Event('input')))"));
            loaded(&mut page, ply);
            let bad = page.eval(check);
            assert_eq!(bad, json!([]), "{kind} at ply {ply}");
            camels += page
                .eval("document.querySelectorAll('#board .tile .camel').length")
                .as_u64()
                .unwrap();
        }
        match kind {
            "FIVE_TRIBES" => assert!(camels > 0, "some camel was checked"),
            "CLANS_OF_CALEDONIA" => {
                assert_eq!(
                    page.eval("document.querySelectorAll('#board rect.module-outline').length"),
                    json!(0),
                    "modules outlined by their hex edges, not by overlapping boxes"
                );
                assert_eq!(
                    page.eval("document.querySelectorAll('#board path.module-outline').length"),
                    json!(1)
                );
            }
            _ => {}
        }
        // The end of a game says so in words, not with an internal code.
        let status = page.eval("document.querySelector('#board .status').textContent");
        assert_eq!(status, json!("Game over"), "{kind}");
        assert!(page.errors.is_empty(), "{kind}: {:#?}", page.errors);
    }
}

/// Loading each page asks only for what exists, each answer with the type its name says, and
/// logs no error: the list, a game, its embed, a study-less GraphiQL.
#[test]
fn a_page_load_asks_for_nothing_that_is_not_there() {
    let server = Server::start(&[]);
    let (id, plies) = sample(&server, "MOMBASA");
    let pages = [
        (
            "/".to_string(),
            "document.querySelectorAll('#games-body tr[data-game]').length > 0",
        ),
        (format!("/games/{id}"), "window.ludologViewer?.view"),
        (
            format!("/embed/games/{id}?theme=dark"),
            "window.ludologViewer?.view",
        ),
        (
            "/graphql".to_string(),
            "document.querySelector('.graphiql-container')",
        ),
    ];
    for (path, ready) in pages {
        let mut page = Page::open(&format!("{}{path}", server.url), 1280, 900);
        page.wait_for(ready, 30);
        if path.contains("games/") {
            loaded(&mut page, plies);
        }
        // Let late requests (scores, fonts, icons) arrive.
        page.eval("new Promise((r) => setTimeout(r, 600))");
        assert!(
            !page.responses.is_empty(),
            "{path}: responses were recorded"
        );
        for r in &page.responses {
            assert!(r.status < 400, "{path}: {} answered {}", r.url, r.status);
            let want = if r.url.ends_with(".js") {
                Some("javascript")
            } else if r.url.ends_with(".css") {
                Some("text/css")
            } else if r.url.ends_with("/graphql") && !path.starts_with("/graphql") {
                Some("json")
            } else {
                None
            };
            if let Some(want) = want {
                assert!(
                    r.mime.contains(want),
                    "{path}: {} answered as {}",
                    r.url,
                    r.mime
                );
            }
        }
        assert!(page.errors.is_empty(), "{path}: {:#?}", page.errors);
    }
}

/// A page reloaded is revalidated (`304`): the answer carries no policy of its own, so the
/// browser keeps the page's (a policy chosen for a body-less answer sandboxed the reloaded
/// viewer, which then could not read its token and never started).
#[test]
fn a_reloaded_page_keeps_its_policy_and_starts() {
    let server = Server::start(&[]);
    let (id, plies) = sample(&server, "FIVE_TRIBES");
    let url = format!("{}/games/{id}", server.url);
    let first = ureq::get(&url).call().unwrap();
    let etag = first.header("etag").unwrap().to_string();
    assert!(!first
        .header("content-security-policy")
        .unwrap()
        .contains("sandbox"));
    let again = ureq::get(&url).set("If-None-Match", &etag).call().unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(again.header("content-security-policy"), None);

    let mut page = Page::open(&format!("{url}?ply=9"), 1280, 900);
    loaded(&mut page, 9);
    page.eval("sessionStorage.setItem('probe', '1'); location.reload(); true");
    std::thread::sleep(std::time::Duration::from_millis(500));
    loaded(&mut page, 9);
    assert_eq!(page.eval("sessionStorage.getItem('probe')"), json!("1"));
    assert!(plies > 9);
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
}
