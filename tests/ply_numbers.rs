//! One ply numbering (README): a refused entry is named by the ply it would have had in
//! `moves` — the entry that turns position *n-1* into position *n* is ply *n* — by
//! `playMove`, `recordEntry`, `importGame` (record and text) and `ludolog import --text` alike,
//! and a game text's mistakes and duplicates are named at their lines.

mod common;
use common::*;
use serde_json::{json, Value};
use std::path::Path;

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/samples/five-tribes.ndjson"
);

/// The ply an error names in `extensions.ply`.
fn ply_of(v: &Value) -> u64 {
    v["errors"][0]["extensions"]["ply"]
        .as_u64()
        .unwrap_or_else(|| panic!("no extensions.ply: {v}"))
}

/// The last entry of `moves`: (ply, move).
fn last_move(server: &Server, id: &str) -> (u64, String) {
    stored_moves(server, id).pop().expect("a move")
}

#[test]
fn play_move_and_record_entry_name_the_ply_moves_gives_the_entry() {
    let server = Server::start(&["--no-samples"]);
    let (id, tokens) = create_game(&server, "five-tribes", 2, 7);
    for _ in 0..20 {
        play_first(&server, &id, &tokens).unwrap().unwrap();
    }
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id) { plies position { seatsToAct } } }",
        json!({ "id": id }),
    );
    let g = &data(&v)["game"];
    let plies = g["plies"].as_u64().unwrap();
    let seat = g["position"]["seatsToAct"][0].as_u64().unwrap() as usize;
    let v = gql(
        &server,
        Some(&tokens[seat]),
        "query($id: ID!) { game(id: $id) { position { legalMoves(first: 1) { moves } } } }",
        json!({ "id": id }),
    );
    let legal = data(&v)["game"]["position"]["legalMoves"]["moves"][0]
        .as_str()
        .unwrap()
        .to_string();
    let play = "mutation($id: ID!, $p: Int!, $m: String!) { playMove(gameId: $id, expectedPly: $p, move: $m) { game { plies } } }";
    // A move that does not parse, and one by the seat not to act: both would have been the
    // next ply.
    let v = gql(
        &server,
        Some(&tokens[seat]),
        play,
        json!({ "id": id, "p": plies, "m": "pick z9" }),
    );
    assert_eq!(
        (code(&v).as_str(), ply_of(&v)),
        ("BAD_NOTATION", plies + 1),
        "{v}"
    );
    let v = gql(
        &server,
        Some(&tokens[1 - seat]),
        play,
        json!({ "id": id, "p": plies, "m": &legal }),
    );
    assert_eq!(ply_of(&v), plies + 1, "{v}");
    let message = v["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains(&format!("ply {}", plies + 1)), "{message}");
    // Played by the right seat, `moves` lists it at that ply.
    let v = gql(
        &server,
        Some(&tokens[seat]),
        play,
        json!({ "id": id, "p": plies, "m": &legal }),
    );
    data(&v);
    assert_eq!(last_move(&server, &id), (plies + 1, legal));

    // A table game typed in by its recorder: the same numbering.
    let log = stored_entries(&server, &id);
    let v = gql(
        &server,
        None,
        "mutation { createGame(kind: FIVE_TRIBES, players: [\"ann\", \"bob\"], dealing: TABLE) { game { id } recorderToken } }",
        json!({}),
    );
    let c = &data(&v)["createGame"];
    let table = c["game"]["id"].as_str().unwrap().to_string();
    let recorder = c["recorderToken"].as_str().unwrap().to_string();
    let record = |i: usize, notation: &str| {
        gql(
            &server,
            Some(&recorder),
            "mutation($id: ID!, $p: Int!, $a: String!, $n: String!) { recordEntry(gameId: $id, expectedPly: $p, actor: $a, notation: $n) { game { plies } } }",
            json!({ "id": table, "p": i, "a": log[i].1, "n": notation }),
        )
    };
    for (i, (_, _, notation)) in log.iter().enumerate().take(10) {
        data(&record(i, notation));
    }
    let v = record(10, "pick z9");
    assert_eq!(ply_of(&v), 11, "{v}");
    data(&record(10, &log[10].2));
    assert_eq!(last_move(&server, &table), (11, log[10].2.clone()));
}

fn run(args: &[&str], data: &Path) -> (bool, String, String) {
    ludolog_in(args, data)
}

/// The 1-based line numbers of a game text's entries: the lines with content after the
/// header, which ends at its first blank line (`schema/notation/game-text.md`).
fn entry_lines(text: &str) -> Vec<u64> {
    let (mut in_header, mut seen) = (true, false);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or_default().trim();
        if content.is_empty() {
            if in_header && seen && !line.contains('#') {
                in_header = false;
            }
        } else if in_header {
            seen = true;
        } else {
            out.push(i as u64 + 1);
        }
    }
    out
}

#[test]
fn imports_name_the_ply_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let record: Value = serde_json::from_str(
        std::fs::read_to_string(SAMPLE)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let k = 30usize;
    let notation = record["entries"][k]["notation"]
        .as_str()
        .unwrap()
        .to_string();
    // The good game in a store, and as game text.
    let store_dir = dir.path().join("store");
    let one = dir.path().join("one.ndjson");
    std::fs::write(&one, record.to_string() + "\n").unwrap();
    let (ok, _, err) = run(&["import", one.to_str().unwrap()], &store_dir);
    assert!(ok, "{err}");
    let text_file = dir.path().join("one.txt");
    let (ok, _, err) = run(
        &["export", "--text", "--out", text_file.to_str().unwrap()],
        &store_dir,
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&text_file).unwrap();
    let lines = entry_lines(&text);
    assert_eq!(
        lines.len(),
        record["entries"].as_array().unwrap().len(),
        "{text}"
    );

    // entries[k] spoiled: ply k + 1 at its line, by the CLI ...
    let line = lines[k];
    let spoiled: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i as u64 + 1 == line {
                assert!(l.ends_with(&notation), "{l}");
                format!("{}pick z9\n", &l[..l.len() - notation.len()])
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let bad_file = dir.path().join("bad.txt");
    std::fs::write(&bad_file, &spoiled).unwrap();
    let (ok, _, err) = run(
        &["import", "--text", bad_file.to_str().unwrap()],
        &dir.path().join("other"),
    );
    assert!(!ok);
    assert!(
        err.contains(&format!("line {line}, ply {}", k + 1)),
        "{err}"
    );
    // ... and by importGame, from a text and from a record.
    let server = Server::start(&["--no-samples", "--admin-token", "root-secret-0123456789"]);
    let v = gql(
        &server,
        Some("root-secret-0123456789"),
        "mutation($t: String) { importGame(text: $t) { id } }",
        json!({ "t": spoiled }),
    );
    assert_eq!(code(&v), "BAD_RECORD", "{v}");
    assert_eq!(ply_of(&v), k as u64 + 1, "{v}");
    assert_eq!(v["errors"][0]["extensions"]["line"], line, "{v}");
    let mut bad = record.clone();
    bad["entries"][k]["notation"] = "pick z9".into();
    let v = gql(
        &server,
        Some("root-secret-0123456789"),
        "mutation($r: String) { importGame(record: $r) { id } }",
        json!({ "r": bad.to_string() }),
    );
    assert_eq!(ply_of(&v), k as u64 + 1, "{v}");
    // The good record: `moves` has entries[k] at ply k + 1.
    let v = gql(
        &server,
        Some("root-secret-0123456789"),
        "mutation($r: String) { importGame(record: $r) { id } }",
        json!({ "r": record.to_string() }),
    );
    let id = data(&v)["importGame"]["id"].as_str().unwrap().to_string();
    let moves = stored_moves(&server, &id);
    assert_eq!(moves[k], (k as u64 + 1, notation));

    // A text holding the same game twice: the second is named at its own line, not line 0.
    let twice = format!("{text}---\n{text}");
    let twice_file = dir.path().join("twice.txt");
    std::fs::write(&twice_file, &twice).unwrap();
    let (ok, out, err) = run(
        &["import", "--text", twice_file.to_str().unwrap()],
        &dir.path().join("third"),
    );
    assert!(!ok && out.contains("imported 1 games"), "{out}{err}");
    let second = text.lines().count() as u64 + 1; // the `---` line
    let id_line = text
        .lines()
        .position(|l| l.starts_with("Id:"))
        .map(|i| second + 1 + i as u64)
        .unwrap();
    assert!(
        err.contains(&format!("line {id_line}: game")) && err.contains("already exists"),
        "line {id_line}: {err}"
    );
}
