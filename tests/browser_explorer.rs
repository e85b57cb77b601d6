//! The Explorer panel in a real browser (headless Chromium), on the sample games `ludolog
//! serve` loads: at a game's first decision it lists the moves the API's `Position.explorer`
//! gives, in its order, with a win-rate bar each; stepping to the next ply asks for the next
//! node; "by position" asks the other key; a move is a link to the last game that played it,
//! opened at that move, where the panel shows the same node; embeds have no panel. The
//! analysis board: a branch played and reopened from its link, saved as a study by an
//! analyst (the study page names its moves; its moment reopens it).
//! Screenshots: `target/browser-screenshots/explorer*.png`, `study-branch.png`.

mod common;

use common::browser::{shots, Page};
use common::{data, gql, Server};
use serde_json::{json, Value};

fn at_ply(page: &mut Page, ply: u64) {
    page.wait_for(
        &format!("document.querySelector('#ply-current')?.dataset.ply === '{ply}' && window.ludologViewer?.view"),
        30,
    );
}

fn first_five_tribes(server: &Server) -> String {
    let v = gql(
        server,
        None,
        "query { games(kind: FIVE_TRIBES, status: FINISHED, first: 1) { edges { node { id } } } }",
        json!({}),
    );
    data(&v)["games"]["edges"][0]["node"]["id"]
        .as_str()
        .unwrap()
        .to_string()
}

fn api_moves(server: &Server, id: &str, ply: u64, by: &str) -> Vec<String> {
    let v = gql(
        server,
        None,
        "query($id: ID!, $p: Int, $by: ExplorerKey) { game(id: $id) { position(ply: $p) { explorer(by: $by) { moves(first: 12) { notation } } } } }",
        json!({ "id": id, "p": ply, "by": by }),
    );
    data(&v)["game"]["position"]["explorer"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap().to_string())
        .collect()
}

/// The panel's moves once it lists some.
fn panel_listed(page: &mut Page) -> Vec<String> {
    page.wait_for(
        "document.querySelectorAll('#explorer-moves tr.explorer-move').length > 0",
        30,
    );
    panel_moves(page)
}

fn panel_moves(page: &mut Page) -> Vec<String> {
    serde_json::from_value(page.eval(
        "[...document.querySelectorAll('#explorer-moves tr.explorer-move')].map((r) => r.dataset.notation)",
    ))
    .unwrap()
}

#[test]
fn the_explorer_panel_lists_the_nodes_moves_and_links_to_games_that_played_them() {
    let server = Server::start(&[]);
    let id = first_five_tribes(&server);
    let want = api_moves(&server, &id, 1, "LINE");
    assert!(want.len() >= 2, "{want:?}");

    let mut page = Page::open(&format!("{}/games/{id}?ply=1", server.url), 1366, 900);
    at_ply(&mut page, 1);
    assert_eq!(
        panel_listed(&mut page),
        want,
        "the API's moves, in its order"
    );
    let bars =
        page.eval("[...document.querySelectorAll('#explorer-moves meter')].map((m) => m.value)");
    assert_eq!(
        bars.as_array().unwrap().len(),
        want.len(),
        "a bar a move: {bars}"
    );
    assert!(page
        .eval("document.querySelector('#explorer-status').textContent")
        .as_str()
        .unwrap()
        .contains("finished games reached this point"));
    page.screenshot(&shots().join("explorer.png"));

    // The next ply's node.
    page.key("ArrowRight");
    at_ply(&mut page, 2);
    let next = api_moves(&server, &id, 2, "LINE");
    page.wait_for(
        &format!(
            "JSON.stringify([...document.querySelectorAll('#explorer-moves tr.explorer-move')].map((r) => r.dataset.notation)) === {}",
            serde_json::to_string(&serde_json::to_string(&next).unwrap()).unwrap()
        ),
        30,
    );
    // By position: this game's own setup, so its own move alone.
    page.eval("(() => { const s = document.querySelector('#explorer-by'); s.value = 'POSITION'; s.dispatchEvent(new Event('change')); })()");
    let own = api_moves(&server, &id, 2, "POSITION");
    assert_eq!(own.len(), 1, "{own:?}");
    page.wait_for(
        &format!(
            "document.querySelectorAll('#explorer-moves tr.explorer-move').length === 1 && document.querySelector('#explorer-moves tr.explorer-move').dataset.notation === {}",
            Value::String(own[0].clone())
        ),
        30,
    );

    // A move is a link to the last game that played it, at that move.
    page.eval("(() => { const s = document.querySelector('#explorer-by'); s.value = 'LINE'; s.dispatchEvent(new Event('change')); })()");
    page.key("ArrowLeft");
    at_ply(&mut page, 1);
    page.wait_for(
        "document.querySelectorAll('#explorer-moves tr.explorer-move a').length > 0",
        30,
    );
    let href = page
        .eval("document.querySelector('#explorer-moves tr.explorer-move a').getAttribute('href')");
    let href = href.as_str().unwrap().to_string();
    assert!(
        href.starts_with("/games/") && href.contains("?ply="),
        "{href}"
    );
    let ply: u64 = href.rsplit('=').next().unwrap().parse().unwrap();
    page.navigate(&format!("{}{href}", server.url));
    at_ply(&mut page, ply);
    assert_eq!(
        panel_listed(&mut page),
        want,
        "the same node from the game that played the move"
    );

    // An embed has no panel.
    page.navigate(&format!("{}/embed/games/{id}?ply=1", server.url));
    at_ply(&mut page, 1);
    assert_eq!(
        page.eval("document.querySelector('#explorer-pane').hidden"),
        json!(true)
    );
}

fn branch_moves(page: &mut Page) -> u64 {
    page.eval("document.querySelectorAll('#branch-moves li').length")
        .as_u64()
        .unwrap()
}

#[test]
fn a_branch_is_played_beside_the_main_line_and_its_link_reopens_it() {
    let server = Server::start(&[]);
    let id = first_five_tribes(&server);
    let mut page = Page::open(&format!("{}/games/{id}?ply=1", server.url), 1366, 900);
    at_ply(&mut page, 1);
    page.eval("document.querySelector('#btn-analyse').click()");
    page.wait_for(
        "document.querySelectorAll('#branch-legal button.branch-move').length > 1",
        30,
    );
    // The legal moves are the position's, in words; play the last one listed.
    let m = page.eval("[...document.querySelectorAll('#branch-legal button.branch-move')].at(-1).dataset.notation");
    let m = m.as_str().unwrap().to_string();
    page.eval("[...document.querySelectorAll('#branch-legal button.branch-move')].at(-1).click()");
    page.wait_for("document.querySelectorAll('#branch-moves li').length === 1 && document.querySelector('#branch-status')?.textContent.startsWith('Ply 2')", 30);
    // The Explorer follows the branch: its node is the API's for the same branch.
    let v = gql(
        &server,
        None,
        "query($id: ID!, $m: [String!]!) { game(id: $id) { position(ply: 1) { explore(moves: $m) { explorer { moves(first: 12) { notation } } } } } }",
        json!({ "id": id, "m": [m.clone()] }),
    );
    let want: Vec<String> = data(&v)["game"]["position"]["explore"]["explorer"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["notation"].as_str().unwrap().to_string())
        .collect();
    page.wait_for(
        &format!(
            "JSON.stringify([...document.querySelectorAll('#explorer-moves tr.explorer-move')].map((r) => r.dataset.notation)) === {}",
            serde_json::to_string(&serde_json::to_string(&want).unwrap()).unwrap()
        ),
        30,
    );
    // Searching narrows the list to moves that say it.
    page.eval("(() => { const s = document.querySelector('#branch-search'); s.value = 'bid 0'; s.dispatchEvent(new Event('input')); })()");
    page.wait_for("[...document.querySelectorAll('#branch-legal button.branch-move')].every((b) => b.dataset.notation.includes('bid 0')) && document.querySelectorAll('#branch-legal button.branch-move').length >= 1", 30);
    page.screenshot(&shots().join("explorer-branch.png"));

    // The address holds the branch; opened again, the same branch.
    let url = page.eval("location.href").as_str().unwrap().to_string();
    assert!(url.contains("branch=1") && url.contains("b="), "{url}");
    page.navigate(&url);
    page.wait_for(
        "document.querySelectorAll('#branch-moves li').length === 1",
        30,
    );
    assert_eq!(
        page.eval("document.querySelector('#branch-moves li').textContent"),
        json!(m)
    );

    // A move the rules refuse (typed into the address) is not played, and says why.
    page.navigate(&format!(
        "{}/games/{id}?ply=1&branch=1&b=bid%2099",
        server.url
    ));
    page.wait_for(
        "document.querySelector('#branch-status')?.textContent.startsWith('Not played')",
        30,
    );
    assert_eq!(branch_moves(&mut page), 0);

    // Step back, close: the main line is back.
    page.navigate(&url);
    page.wait_for(
        "document.querySelectorAll('#branch-moves li').length === 1",
        30,
    );
    page.eval("document.querySelector('#branch-back').click()");
    page.wait_for("document.querySelectorAll('#branch-moves li').length === 0 && document.querySelector('#branch-status')?.textContent.startsWith('Ply 1')", 30);
    page.eval("document.querySelector('#branch-close').click()");
    page.wait_for("!document.querySelector('#btn-analyse').hidden && document.querySelector('#branch-open').hidden", 30);
    assert!(!page
        .eval("location.href")
        .as_str()
        .unwrap()
        .contains("branch=1"));
}

#[test]
fn a_token_holder_saves_a_branch_as_a_study_whose_page_names_its_moves() {
    let token = "ann-token-0123456789abcdef";
    let server = Server::start(&["--annotators", &format!("ann={token}")]);
    let id = first_five_tribes(&server);
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id) { position(ply: 1) { explore(moves: []) { legalMoves(first: 3) { moves } } } } }",
        json!({ "id": id }),
    );
    let m = data(&v)["game"]["position"]["explore"]["legalMoves"]["moves"][2]
        .as_str()
        .unwrap()
        .to_string();
    let url = format!(
        "{}/games/{id}?ply=1&branch=1&b={}",
        server.url,
        m.bytes()
            .map(|b| if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            })
            .collect::<String>()
    );

    // Without a token: the branch plays, nothing offers to save it.
    let mut page = Page::open(&url, 1366, 900);
    page.wait_for(
        "document.querySelectorAll('#branch-moves li').length === 1 && document.querySelector('#branch-status')?.textContent.startsWith('Ply 2')",
        30,
    );
    assert_eq!(
        page.eval("document.querySelector('#branch-save').hidden"),
        json!(true)
    );

    // An analyst's token in this tab: the form, and the study it makes.
    page.eval(&format!(
        "sessionStorage.setItem('ludolog.token.{id}', '{token}'); true"
    ));
    page.navigate(&url);
    page.wait_for(
        "document.querySelector('#branch-save')?.hidden === false && document.querySelectorAll('#branch-moves li').length === 1",
        30,
    );
    page.eval("(() => { document.querySelector('#branch-study-name').value = 'Other bids'; document.querySelector('#branch-study-comment').value = 'What if the third bid?'; document.querySelector('#branch-save').requestSubmit(); })()");
    page.wait_for("!!document.querySelector('#branch-study-link')", 30);
    let href = page
        .eval("document.querySelector('#branch-study-link').getAttribute('href')")
        .as_str()
        .unwrap()
        .to_string();
    assert!(href.starts_with("/study/"), "{href}");
    page.eval("document.querySelector('#branch-save').scrollIntoView()");
    page.screenshot(&shots().join("explorer-branch-saved.png"));

    // The study names the branch's moves, and its moment reopens the branch.
    let study = href.trim_start_matches("/study/");
    let v = gql(
        &server,
        None,
        "query($s: ID!) { study(id: $s) { name author items { ply comment branch url } } }",
        json!({ "s": study }),
    );
    let s = &data(&v)["study"];
    assert_eq!(s["name"], json!("Other bids"));
    assert_eq!(s["author"], json!("analyst:ann"));
    assert_eq!(
        s["items"][0]["branch"],
        json!([m.clone()]),
        "the branch as played"
    );
    assert_eq!(s["items"][0]["comment"], json!("What if the third bid?"));
    page.navigate(&format!("{}{href}", server.url));
    page.wait_for(
        "document.querySelectorAll('.moment-branch li').length === 1",
        30,
    );
    assert_eq!(
        page.eval("document.querySelector('.moment-branch li').textContent"),
        json!(m)
    );
    assert!(page
        .eval("document.querySelector('.moment a').textContent")
        .as_str()
        .unwrap()
        .contains("a branch of 1 move"));
    page.screenshot(&shots().join("study-branch.png"));
    page.eval("document.querySelector('.moment a').click()");
    page.wait_for(
        "location.pathname.startsWith('/games/') && document.querySelectorAll('#branch-moves li').length === 1",
        30,
    );
    assert_eq!(
        page.eval("document.querySelector('#branch-moves li').textContent"),
        json!(m)
    );
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
}
