//! Defect 4: journals had no size cost. One seat could annotate its own game until its journal
//! held 16 MB, and then 64 aliases of `annotations { comment }` in a 2 KB query took the
//! server to gigabytes. A game's journal is now capped in bytes (a note past the cap is
//! refused `LIMIT_EXCEEDED` and writes nothing), its lists are pages, and the response limit
//! is spent while the answer is built, so such a query is refused before it is large.

use crate::common::*;
use serde_json::{json, Value};

const ANNOTATE: &str =
    "mutation($id: ID!, $c: String) { annotate(gameId: $id, ply: 1, comment: $c) { id } }";

/// The longest comment there is (2,000 characters), four bytes each.
fn longest_comment() -> String {
    "\u{1d11e}".repeat(2000)
}

/// Every annotation of a game, read page by page (`first` a page): (id, comment length).
fn all_annotations(server: &Server, id: &str, first: usize) -> Vec<(u64, usize)> {
    let mut out = Vec::new();
    let mut after: Option<u64> = None;
    loop {
        let v = gql(
            server,
            None,
            "query($id: ID!, $f: Int, $a: Int) { game(id: $id) { annotations(first: $f, after: $a) { id comment } } }",
            json!({ "id": id, "f": first, "a": after }),
        );
        let page = data(&v)["game"]["annotations"].as_array().unwrap().clone();
        assert!(page.len() <= first, "a page holds at most `first`");
        for a in &page {
            out.push((
                a["id"].as_u64().unwrap(),
                a["comment"].as_str().unwrap().chars().count(),
            ));
        }
        match page.last() {
            Some(last) if page.len() == first => after = last["id"].as_u64(),
            _ => return out,
        }
    }
}

fn journal_notes(server: &Server, id: &str) -> u64 {
    let v = gql(
        server,
        None,
        "query($id: ID!) { game(id: $id) { journalNotes } }",
        json!({ "id": id }),
    );
    data(&v)["game"]["journalNotes"].as_u64().unwrap()
}

/// A field of `/proc/<pid>/status`, in kB.
fn status_kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
        .unwrap_or_else(|| panic!("no {field} in {status}"))
}

/// A seat annotates its own game with the longest comments until the journal's cap (1 MiB
/// by default) refuses one: `LIMIT_EXCEEDED`, and the journal is as it was. Its annotations
/// read back page by page, in order, each page `first` long. Then sixty-four aliases of the
/// list with every comment — about 50 MB of answer — are refused `LIMIT_EXCEEDED` while the
/// server's peak resident memory grows by a few tens of MB at most (it grew by hundreds).
#[test]
fn a_journal_is_capped_and_an_answer_of_its_comments_is_refused_before_it_is_built() {
    let server = Server::start(&["--no-samples"]);
    let (id, tokens) = create_game(&server, "five-tribes", 2, 5);
    let comment = longest_comment();
    let annotate = || {
        gql(
            &server,
            Some(&tokens[0]),
            ANNOTATE,
            json!({ "id": id, "c": comment }),
        )
    };
    let mut written = 0u64;
    let refused: Value = loop {
        let v = annotate();
        if v.get("errors").is_some() {
            break v;
        }
        assert_eq!(data(&v)["annotate"]["id"], written);
        written += 1;
        assert!(
            written < 400,
            "no cap refused a note: {written} written of 8 KB each"
        );
    };
    assert_eq!(code(&refused), "LIMIT_EXCEEDED", "{refused}");
    assert!(refused["data"].is_null(), "{refused}");
    // 1 MiB is some 128 of the longest comments.
    assert!(
        (100..200).contains(&written),
        "{written} notes under the cap"
    );

    // Nothing was written by the refusal; the list pages in order.
    assert_eq!(journal_notes(&server, &id), written);
    let by_fifty = all_annotations(&server, &id, 50);
    let want: Vec<(u64, usize)> = (0..written).map(|i| (i, 2000)).collect();
    assert_eq!(by_fifty, want);
    assert_eq!(all_annotations(&server, &id, 7), want);
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id) { annotations { id } } }",
        json!({ "id": id }),
    );
    assert_eq!(
        data(&v)["game"]["annotations"].as_array().unwrap().len(),
        100,
        "without `first`, a page of 100"
    );
    let again = annotate();
    assert_eq!(code(&again), "LIMIT_EXCEEDED", "still full");
    assert_eq!(journal_notes(&server, &id), written);

    // Sixty-four aliases of every comment.
    let aliases: String = (0..64)
        .map(|i| format!("a{i}: annotations(first: 100) {{ comment }} "))
        .collect();
    let query = format!("query($id: ID!) {{ game(id: $id) {{ {aliases} }} }}");
    assert!(query.len() < 4096, "a small query");
    let pid = server.pid();
    let peak_before = status_kb(pid, "VmHWM");
    let v = gql(&server, None, &query, json!({ "id": id }));
    let peak_after = status_kb(pid, "VmHWM");
    let rss_after = status_kb(pid, "VmRSS");
    assert_eq!(
        code(&v),
        "LIMIT_EXCEEDED",
        "{}",
        &v.to_string()[..500.min(v.to_string().len())]
    );
    let grown_mb = (peak_after.saturating_sub(peak_before)) / 1024;
    assert!(
        grown_mb < 48,
        "the refused answer took the server's peak memory up by {grown_mb} MB (to {} MB; {} MB resident after)",
        peak_after / 1024,
        rss_after / 1024
    );
    // And the server still answers.
    assert_eq!(journal_notes(&server, &id), written);
}
