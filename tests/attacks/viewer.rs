//! Issue 36, defect 5: the viewer took its API origin from the URL (`?api=https://evil` got the
//! seat's token and put that server's answers into the page unescaped), and no page sent a
//! Content-Security-Policy, `X-Frame-Options` or `nosniff`.
//!
//! In headless Chromium: pages opened with `?api=` pointing at a recording server of the
//! test's own talk only to their origin (the recorder hears nothing, the page shows this
//! server's games); markup in names, comments and studies shows as text, and markup that
//! slipped into a page could not run under its policy; every page (the list, the viewer, the
//! embed, a study, GraphiQL) renders and works under its policy with no violation reported
//! (screenshots in `target/browser-screenshots/csp-*.png`). Over HTTP: the headers each
//! answer carries, and a forged `Host` kept out of the policy.

use crate::common::browser::{shots, Page, MESSAGE_SHOWN};
use crate::common::{create_game, data, gql, play_first, urlencode, Server};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Markup that runs a script wherever it is taken as HTML, in an attribute or in text.
const PWN: &str = r#""><img src=x onerror="document.title='pwned'">"#;
const ADMIN: &str = "admin-secret-0123456789";

/// Reports every Content-Security-Policy violation of a page into `window.__csp` (installed
/// before the page's own scripts, from the DevTools side, which no policy governs).
const PROBE: &str = "window.__csp = []; document.addEventListener('securitypolicyviolation', \
     (e) => window.__csp.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));";

/// True once a viewer follows its game live (its WebSocket acknowledged).
const LIVE: &str = "document.querySelector('#live-status')?.dataset.state === 'on'";

/// A server on another origin that records every request (its head and body) and answers
/// as a permissive GraphQL API would, with markup in every value a page might show.
struct Evil {
    origin: String,
    heard: Arc<Mutex<Vec<String>>>,
}

impl Evil {
    fn start() -> Evil {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let heard = Arc::new(Mutex::new(Vec::new()));
        let log = heard.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let log = log.clone();
                // One thread a connection: Chromium opens sockets it may never send on.
                std::thread::spawn(move || answer(stream, &log));
            }
        });
        Evil { origin, heard }
    }

    fn heard(&self) -> Vec<String> {
        self.heard.lock().unwrap().clone()
    }
}

fn nobody_heard(evil: &Evil, what: &str) {
    assert_eq!(
        evil.heard(),
        Vec::<String>::new(),
        "{what}: the other origin heard these"
    );
}

fn answer(stream: std::net::TcpStream, log: &Mutex<Vec<String>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(&stream);
    let (mut head, mut length) = (String::new(), 0);
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
            break;
        }
        if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        head.push_str(&h);
    }
    if head.is_empty() {
        return;
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    let body = String::from_utf8_lossy(&body).into_owned();
    let preflight = head.starts_with("OPTIONS");
    let (status, reply) = match preflight {
        true => ("204 No Content", String::new()),
        false => ("200 OK", fake(&body).to_string()),
    };
    log.lock().unwrap().push(format!("{head}\n{body}"));
    let _ = write!(
        &stream,
        "HTTP/1.1 {status}\r\naccess-control-allow-origin: *\r\naccess-control-allow-methods: GET, POST, OPTIONS\r\n\
         access-control-allow-headers: content-type, authorization\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{reply}",
        reply.len()
    );
}

/// An answer shaped for what the pages ask (`games` for the list, `study` for a study), with
/// markup where the old pages wrote values into HTML unescaped.
fn fake(body: &str) -> Value {
    if body.contains("games(") {
        json!({ "data": { "games": {
            "pageInfo": { "hasNextPage": false, "endCursor": null },
            "edges": [{ "node": {
                "id": "0evil0", "kind": PWN, "status": PWN, "plies": PWN,
                "players": ["mallory"], "createdAt": "2024-01-01T00:00:00Z"
            } }]
        } } })
    } else if body.contains("study(") {
        json!({ "data": { "study": {
            "name": "A forged study", "author": "analyst:mallory", "createdAt": "2024-01-01T00:00:00Z",
            "items": [{ "gameId": "0evil0", "ply": PWN, "comment": "", "url": "/", "game": null }]
        } } })
    } else {
        json!({ "data": { "game": null } })
    }
}

/// A page with the violation probe in place before `url` loads.
fn open(url: &str, width: u32, height: u32) -> Page {
    let mut page = Page::open("about:blank", width, height);
    page.call(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": PROBE }),
    );
    page.navigate(url);
    page
}

/// The policy violations the page reported so far.
fn violations(page: &mut Page) -> Vec<Value> {
    page.eval("window.__csp || []")
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Asserts that the page logged no error, reported no policy violation, and that no markup
/// value ran (the title it sets) or became an element (an `<img>`: no page has one).
fn clean(page: &mut Page, what: &str) {
    assert!(page.errors.is_empty(), "{what}: {:#?}", page.errors);
    assert_eq!(violations(page), Vec::<Value>::new(), "{what}: violations");
    assert_ne!(page.eval("document.title"), "pwned", "{what}: a script ran");
    let imgs = page.eval("document.querySelectorAll('img').length");
    assert_eq!(imgs, 0, "{what}: markup became an element");
}

fn wait(page: &mut Page, expr: &str) {
    page.wait_for(expr, 30);
}

/// The text of the first element `selector` finds.
fn text(page: &mut Page, selector: &str) -> Value {
    page.eval(&format!(
        "document.querySelector({}).textContent",
        json!(selector)
    ))
}

/// Asserts that the page's policy is in force: a script element added with inline text does
/// not run, and the page reports the refusal (which is then forgotten).
fn policy_in_force(page: &mut Page, what: &str) {
    let r = page.eval(
        "(async () => { const s = document.createElement('script'); s.textContent = 'window.__inline = 1'; \
         document.head.append(s); await new Promise((r) => setTimeout(r, 200)); \
         const seen = window.__csp.some((v) => v.startsWith('script-src')); window.__csp = []; \
         return window.__inline === undefined && seen; })()",
    );
    assert_eq!(
        r, true,
        "{what}: an inline script ran, or no refusal was reported"
    );
}

/// Keeps a seat's token in the tab's session, where the viewer reads it from.
fn hold_token(page: &mut Page, game: &str, token: &str) {
    page.eval(&format!(
        "sessionStorage.setItem('ludolog.token.{game}', '{token}')"
    ));
}

/// The ids of the first 25 games `games({args}…)` lists.
fn ids(server: &Server, args: &str) -> Vec<String> {
    let q = format!("{{ games({args} first: 25) {{ edges {{ node {{ id }} }} }} }}");
    let v = gql(server, None, &q, json!({}));
    let edges = data(&v)["games"]["edges"].as_array().unwrap().iter();
    edges
        .map(|e| e["node"]["id"].as_str().unwrap().to_string())
        .collect()
}

fn study(server: &Server, name: &str, items: Value) -> String {
    let v = gql(
        server,
        Some(ADMIN),
        "mutation($n: String!, $i: [StudyItemInput!]!) { createStudy(name: $n, items: $i) { id } }",
        json!({ "n": name, "i": items }),
    );
    data(&v)["createStudy"]["id"].as_str().unwrap().to_string()
}

/// `?api=` naming another origin is not honoured on any page the binary serves: the seat's
/// token, the list and the study are asked of this origin only, and the recording server
/// hears nothing at all (no preflight, no `Authorization`, no WebSocket).
#[test]
fn no_page_takes_its_api_from_the_url() {
    let server = Server::start(&["--admin-token", ADMIN]);
    let evil = Evil::start();
    let api = urlencode(&evil.origin);
    let (id, tokens) = create_game(&server, "five-tribes", 2, 5);
    for _ in 0..4 {
        play_first(&server, &id, &tokens).unwrap();
    }
    let finished = ids(&server, "status: FINISHED,");
    let item = json!([{ "gameId": finished[0], "ply": 3, "comment": "too early?" }]);
    let sid = study(&server, "Early bids", item);
    let (base, shown) = (&server.url, MESSAGE_SHOWN);

    let mut page = open(&format!("{base}/games/{id}"), 1280, 1000);
    wait(&mut page, "window.ludologViewer?.game");
    hold_token(&mut page, &id, &tokens[0]);
    for url in [
        format!("{base}/games/{id}?api={api}&seat=0"),
        format!("{base}/assets/viewer/game.html?game={id}&api={api}&seat=0"),
    ] {
        page.navigate(&url);
        wait(&mut page, &format!("window.ludologViewer?.view || {shown}"));
        nobody_heard(&evil, &url);
        // The token went to this server, which opened seat 0's view and its live updates.
        assert_eq!(page.eval("window.ludologViewer.game.mySeat"), 0, "{url}");
        let persp = page.eval("document.querySelector('#perspective-select').dataset.perspective");
        assert_eq!(persp, "seat:0", "{url}");
        wait(&mut page, LIVE);
        clean(&mut page, &url);
    }

    let listed = ids(&server, "");
    for url in [
        format!("{base}/?api={api}"),
        format!("{base}/assets/viewer/index.html?api={api}"),
    ] {
        page.navigate(&url);
        wait(
            &mut page,
            &format!("document.querySelector('#games-body tr') || {shown}"),
        );
        nobody_heard(&evil, &url);
        let rows = page
            .eval("[...document.querySelectorAll('#games-body tr')].map((r) => r.dataset.game)");
        assert_eq!(rows, json!(listed), "{url}: this server's games");
        clean(&mut page, &url);
    }

    let url = format!("{base}/study/{sid}?api={api}");
    page.navigate(&url);
    wait(
        &mut page,
        &format!("document.querySelector('#moments li') || {shown}"),
    );
    nobody_heard(&evil, &url);
    assert_eq!(text(&mut page, "#study-name"), "Early bids");
    clean(&mut page, &url);

    // Whatever a page might still try later (a reconnecting socket) reaches no one else.
    std::thread::sleep(Duration::from_millis(500));
    nobody_heard(&evil, "at the end");
}

/// Names, annotation comments and a study's name and comments are free text (a player's
/// name refuses only control and format characters): each shows as the very text on every
/// page that shows it, never as markup. And markup that did slip into a page could not run:
/// the page's policy refuses inline scripts and handlers.
#[test]
fn markup_from_the_api_is_text_and_could_not_run() {
    let server = Server::start(&["--no-samples", "--admin-token", ADMIN]);
    let base = &server.url;
    let names = [
        r#"<img src=x onerror="document.title='pwned'">"#.to_string(),
        format!("Bob {PWN}"),
    ];
    let v = gql(
        &server,
        None,
        "mutation($p: [String!]!) { createGame(kind: FIVE_TRIBES, players: $p, seed: \"7\") { game { id } seatTokens } }",
        json!({ "p": names }),
    );
    let c = &data(&v)["createGame"];
    let id = c["game"]["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = serde_json::from_value(c["seatTokens"].clone()).unwrap();
    for _ in 0..3 {
        play_first(&server, &id, &tokens).unwrap();
    }
    let comment = format!("<script>document.title='pwned'</script>{PWN}");
    let v = gql(
        &server,
        Some(&tokens[0]),
        "mutation($id: ID!, $c: String) { annotate(gameId: $id, ply: 1, glyph: \"!?\", comment: $c) { id } }",
        json!({ "id": id, "c": comment }),
    );
    data(&v);
    let study_name = format!("Study {PWN}");
    let sid = study(
        &server,
        &study_name,
        json!([{ "gameId": id, "ply": 2, "comment": comment }]),
    );

    // The list: each name is a link's text.
    let mut page = open(&format!("{base}/"), 1280, 800);
    wait(&mut page, "document.querySelector('#games-body a.player')");
    let shown = page
        .eval("[...document.querySelectorAll('#games-body a.player')].map((a) => a.textContent)");
    assert_eq!(shown, json!(names), "the list");
    clean(&mut page, "the list");

    // The viewer, as seat 0: the title, the perspective menu, the score table's heads, the
    // board's words, the move list's annotation.
    hold_token(&mut page, &id, &tokens[0]);
    page.navigate(&format!("{base}/games/{id}?ply=3"));
    wait(
        &mut page,
        "document.querySelector('#ply-current')?.dataset.ply === '3' && document.querySelector('#score-table th[data-seat]')",
    );
    let both = format!("{}, {}", names[0], names[1]);
    assert_eq!(
        text(&mut page, "#game-title"),
        format!("Five Tribes: {both}")
    );
    let mine = text(&mut page, "#perspective-select option:checked");
    assert_eq!(mine, format!("My seat: {} (seat 0)", names[0]));
    let heads = page.eval(
        "[...document.querySelectorAll('#score-table th[data-seat]')].map((th) => [Number(th.dataset.seat), th.textContent])",
    );
    for h in heads.as_array().unwrap() {
        assert_eq!(
            h[1],
            names[h[0].as_u64().unwrap() as usize].as_str(),
            "{heads}"
        );
    }
    for (s, name) in names.iter().enumerate() {
        // Each seat's panel is headed by its player's name, as text.
        let drawn = page.eval(&format!(
            "document.querySelector('#board .seat-panel[data-seat=\"{s}\"] .seat-name').textContent.startsWith({})",
            json!(name)
        ));
        assert_eq!(drawn, true, "the board names seat {s}");
    }
    let note = text(&mut page, ".move[data-ply=\"1\"] .annotation");
    assert_eq!(note, format!("{comment} — 0"));
    clean(&mut page, "the viewer");
    policy_in_force(&mut page, "the viewer");
    // Markup put into the page as a missed escape would put it: its handler is refused.
    let slip = json!(PWN);
    page.eval(&format!(
        "document.querySelector('#moves').insertAdjacentHTML('beforeend', {slip})"
    ));
    page.wait_for("window.__csp.length > 0", 10);
    std::thread::sleep(Duration::from_millis(300));
    assert_ne!(
        page.eval("document.title"),
        "pwned",
        "a slipped handler ran"
    );
    let v = violations(&mut page);
    let refused = v
        .iter()
        .any(|v| v.as_str().is_some_and(|v| v.starts_with("script-src")));
    assert!(refused, "{v:?}");

    // A study: its name, its moment's words and link, its comment.
    let mut page = open(&format!("{base}/study/{sid}"), 1000, 700);
    wait(
        &mut page,
        "document.querySelector('#moments .moment-comment')",
    );
    assert_eq!(text(&mut page, "#study-name"), study_name.as_str());
    assert_eq!(
        text(&mut page, "#moments .moment-comment"),
        comment.as_str()
    );
    let link = text(&mut page, "#moments li a");
    assert_eq!(link, format!("Five Tribes: {both} · position 2"));
    let href = page.eval("document.querySelector('#moments li a').getAttribute('href')");
    assert_eq!(href, format!("/games/{id}?ply=2"));
    clean(&mut page, "the study");
    policy_in_force(&mut page, "the study");
}

/// Every page renders and works under its policy, which is in force: no error, no violation
/// reported, and an inline script refused. The list lists, the viewer steps and follows a
/// game live over its WebSocket (`connect-src`), the embed draws, the study lists, GraphiQL
/// runs its first query and opens a dialog (which inserts a style of its own).
#[test]
fn every_page_works_under_its_policy() {
    let server = Server::start(&["--admin-token", ADMIN]);
    let base = &server.url;
    let finished = ids(&server, "status: FINISHED,");
    let (live, tokens) = create_game(&server, "five-tribes", 2, 9);
    play_first(&server, &live, &tokens).unwrap();
    let item = json!([{ "gameId": finished[0], "ply": 5, "comment": "the first bids" }]);
    let sid = study(&server, "A look at the start", item);
    let shoot = |page: &mut Page, name: &str| {
        policy_in_force(page, name);
        clean(page, name);
        page.screenshot(&shots().join(format!("csp-{name}.png")));
    };
    let at = |ply: u64| format!("document.querySelector('#ply-current')?.dataset.ply === '{ply}'");

    let mut page = open(&format!("{base}/"), 1280, 800);
    wait(
        &mut page,
        "document.querySelectorAll('#games-body tr[data-game]').length > 3",
    );
    shoot(&mut page, "index");

    page.navigate(&format!("{base}/games/{}?ply=20", finished[0]));
    wait(&mut page, &at(20));
    page.key("ArrowRight");
    wait(
        &mut page,
        &format!(
            "{} && document.querySelector('#score-table')?.dataset.ply === '21'",
            at(21)
        ),
    );
    wait(
        &mut page,
        "document.querySelectorAll('#board .seat-panel').length > 0",
    );
    // The swatches' colours are set through the style object (no inline style).
    let swatch = page
        .eval("getComputedStyle(document.querySelector('#score-table .swatch')).backgroundColor");
    assert_ne!(swatch, "rgba(0, 0, 0, 0)");
    shoot(&mut page, "viewer");

    // A game in play: a move made elsewhere reaches the page over its socket.
    page.navigate(&format!("{base}/games/{live}"));
    wait(&mut page, LIVE);
    let (ply, _) = play_first(&server, &live, &tokens).unwrap().unwrap();
    wait(&mut page, &at(ply));
    shoot(&mut page, "live");

    page.navigate(&format!("{base}/embed/games/{}?ply=12", finished[1]));
    wait(&mut page, &at(12));
    shoot(&mut page, "embed");

    let mut page = open(&format!("{base}/study/{sid}"), 1000, 500);
    wait(&mut page, "document.querySelector('#moments li a')");
    shoot(&mut page, "study");

    // GraphiQL (a browser asks for HTML): the first query runs, a dialog opens.
    let mut page = open(&format!("{base}/graphql"), 1280, 800);
    wait(
        &mut page,
        "document.querySelector('.graphiql-query-editor')?.textContent.includes('FirstLook')",
    );
    page.eval("document.querySelector('.graphiql-execute-button').click()");
    wait(
        &mut page,
        "document.querySelector('.result-window')?.textContent.includes('rulesVersion')",
    );
    page.eval("document.querySelector('[aria-label=\"Open settings dialog\"]').click()");
    wait(&mut page, "document.querySelector('[role=\"dialog\"]')");
    page.screenshot(&shots().join("csp-graphiql-dialog.png"));
    page.key("Escape");
    std::thread::sleep(Duration::from_millis(300));
    shoot(&mut page, "graphiql");
}

/// An answer's status and headers (names in lower case), over HTTP/1.1 with `host` as `Host`.
fn head_of(
    server: &Server,
    method: &str,
    path: &str,
    host: &str,
    accept: &str,
) -> (u16, HashMap<String, String>) {
    let mut s = std::net::TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let body = if method == "POST" {
        r#"{"query":"{ rules { kind } }"}"#
    } else {
        ""
    };
    let n = body.len();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nhost: {host}\r\naccept: {accept}\r\n\
         content-type: application/json\r\ncontent-length: {n}\r\nconnection: close\r\n\r\n{body}"
    )
    .unwrap();
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    let mut lines = text.split("\r\n\r\n").next().unwrap_or("").lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok());
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status.unwrap_or(0), headers)
}

/// The policy's directives, by name, from an answer's headers (none: empty).
fn directives(h: &HashMap<String, String>) -> HashMap<String, String> {
    let policy = h.get("content-security-policy").map_or("", String::as_str);
    policy
        .split(';')
        .filter_map(|d| d.trim().split_once(' '))
        .map(|(k, v)| (k.to_string(), v.trim().to_string()))
        .collect()
}

/// Each page carries its policy, `nosniff` and its framing rule; every other answer (JSON,
/// assets, errors, health) `nosniff`, no framing and a policy that allows nothing; a `Host`
/// that is not a plain authority is left out of the policy rather than copied into it.
#[test]
fn every_answer_carries_its_security_headers() {
    let server = Server::start(&["--admin-token", ADMIN]);
    let host = server.url.trim_start_matches("http://").to_string();
    let game = ids(&server, "status: FINISHED,").remove(0);
    let sid = study(&server, "Headers", json!([{ "gameId": game, "ply": 1 }]));
    let html = "text/html,application/xhtml+xml";
    let get = |h: &HashMap<String, String>, k: &str| h.get(k).cloned().unwrap_or_default();
    for path in [
        "/".to_string(),
        format!("/games/{game}"),
        format!("/study/{sid}"),
        format!("/embed/games/{game}"),
        "/graphql".to_string(),
        "/assets/viewer/game.html".to_string(),
    ] {
        let (status, h) = head_of(&server, "GET", &path, &host, html);
        assert_eq!(status, 200, "{path}");
        assert!(get(&h, "content-type").starts_with("text/html"), "{path}");
        assert_eq!(get(&h, "x-content-type-options"), "nosniff", "{path}");
        let d = directives(&h);
        let ws = format!("'self' ws://{host} wss://{host}");
        let style = if path == "/graphql" {
            "'self' 'unsafe-inline'"
        } else {
            "'self'"
        };
        let embed = path.starts_with("/embed/");
        for (k, v) in [
            ("default-src", "'self'"),
            ("script-src", "'self'"),
            ("style-src", style),
            ("connect-src", &ws),
            ("base-uri", "'none'"),
            ("object-src", "'none'"),
            ("frame-ancestors", if embed { "*" } else { "'none'" }),
        ] {
            assert_eq!(get(&d, k), v, "{path}: {k} in {h:?}");
        }
        assert_eq!(
            get(&h, "x-frame-options"),
            if embed { "" } else { "DENY" },
            "{path}"
        );
    }

    let query = format!("/graphql?query={}", urlencode("{ rules { kind } }"));
    for (method, path, accept, status) in [
        ("POST", "/graphql", "application/json", 200),
        ("GET", query.as_str(), "application/json", 200),
        ("GET", "/graphql", "application/json", 400),
        ("GET", "/assets/viewer/viewer.js", "*/*", 200),
        ("GET", "/assets/viewer/style.css", "*/*", 200),
        ("GET", "/assets/graphiql/graphiql.min.js", "*/*", 200),
        ("GET", "/no/such/page", html, 404),
        ("GET", "/healthz", "*/*", 200),
    ] {
        let (got, h) = head_of(&server, method, path, &host, accept);
        assert_eq!(got, status, "{method} {path}");
        assert_eq!(
            get(&h, "x-content-type-options"),
            "nosniff",
            "{method} {path}"
        );
        assert_eq!(get(&h, "x-frame-options"), "DENY", "{method} {path}");
        let d = directives(&h);
        assert_eq!(get(&d, "default-src"), "'none'", "{method} {path}: {h:?}");
        assert_eq!(
            get(&d, "frame-ancestors"),
            "'none'",
            "{method} {path}: {h:?}"
        );
    }

    // A forged Host cannot write directives into the policy: it is left out.
    for forged in ["evil.example; script-src *", "x 'unsafe-inline'", "a,b"] {
        let (status, h) = head_of(&server, "GET", "/", forged, html);
        assert_eq!(status, 200, "{forged}");
        let d = directives(&h);
        assert_eq!(get(&d, "connect-src"), "'self'", "{forged}: {h:?}");
        assert_eq!(get(&d, "script-src"), "'self'", "{forged}: {h:?}");
        let policy = get(&h, "content-security-policy");
        assert!(
            !policy.contains("evil") && !policy.contains("unsafe"),
            "{policy}"
        );
    }
}
