//! The analysts' exports as files on the web: every export URL answers `HEAD` with its
//! `Content-Length`, gives it on `GET`, and serves byte ranges (`206` with `Content-Range`,
//! `416` past the end, `If-Range`, `ETag`), and a game that finishes changes what is served.
//! Then the data tools an analyst uses — pandas, polars and DuckDB (PyPI; `ops/test.sh`
//! installs them) — read every export URL of a running server, each finding the rows the API
//! says there are.

mod common;

use common::{data, fetch, gql, header, Server};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

const KINDS: [(&str, &str); 3] = [
    ("five-tribes", "FIVE_TRIBES"),
    ("clans-of-caledonia", "CLANS_OF_CALEDONIA"),
    ("mombasa", "MOMBASA"),
];
const ADMIN: &str = "exports-admin-0123456789";
/// A filter every kind's positions can be asked for (URL-encoded `round == 3`).
const ROUND_3: &str = "round%20%3D%3D%203";

/// The export URLs of one kind.
fn urls(server: &Server, kind: &str) -> Vec<String> {
    let base = format!("{}/exports/{kind}", server.url);
    vec![
        format!("{base}/games.csv"),
        format!("{base}/games.ndjson"),
        format!("{base}/moves.csv"),
        format!("{base}/moves.ndjson"),
        format!("{base}/positions.ndjson"),
        format!("{base}/positions.ndjson?where={ROUND_3}"),
    ]
}

/// A store folder's samples: the first `n` records of each kind's sample file.
fn few_samples(dir: &Path, n: usize) {
    std::fs::create_dir_all(dir).unwrap();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples");
    for e in std::fs::read_dir(samples).unwrap() {
        let path = e.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().take(n).collect();
        std::fs::write(dir.join(path.file_name().unwrap()), lines.join("\n") + "\n").unwrap();
    }
}

/// Checks one export URL as a file server's file; returns its bytes and ETag.
fn check_file(url: &str) -> (Vec<u8>, String) {
    let (status, head, body) = fetch("HEAD", url, &[]);
    assert_eq!(status, 200, "HEAD {url}");
    assert!(body.is_empty(), "HEAD {url} has no body");
    let len: usize = header(&head, "content-length")
        .unwrap_or_else(|| panic!("HEAD {url}: no Content-Length in {head:?}"))
        .parse()
        .unwrap();
    assert_eq!(header(&head, "accept-ranges"), Some("bytes"), "{url}");
    let etag = header(&head, "etag").expect("an ETag").to_string();

    let (status, got, whole) = fetch("GET", url, &[]);
    assert_eq!(status, 200, "GET {url}");
    assert_eq!(
        header(&got, "content-length"),
        Some(&*len.to_string()),
        "{url}"
    );
    assert_eq!(
        whole.len(),
        len,
        "GET {url}: the body is as long as HEAD said"
    );
    assert_eq!(header(&got, "etag"), Some(&*etag), "{url}");
    assert!(len > 100, "{url}: an export of the samples has rows");

    // A range from the start, one in the middle, the last bytes, one running past the end.
    for (range, from, to) in [
        ("bytes=0-99".to_string(), 0, 99),
        (
            format!("bytes={}-{}", len / 2, len / 2 + 9),
            len / 2,
            len / 2 + 9,
        ),
        ("bytes=-10".to_string(), len - 10, len - 1),
        (
            format!("bytes={}-{}", len - 5, len + 1000),
            len - 5,
            len - 1,
        ),
        (format!("bytes={}-", len - 1), len - 1, len - 1),
    ] {
        let (status, hs, part) = fetch("GET", url, &[("Range", &range)]);
        assert_eq!(status, 206, "{url} {range}");
        assert_eq!(
            header(&hs, "content-range"),
            Some(&*format!("bytes {from}-{to}/{len}")),
            "{url} {range}"
        );
        assert_eq!(
            header(&hs, "content-length"),
            Some(&*(to - from + 1).to_string())
        );
        assert_eq!(
            part,
            whole[from..=to],
            "{url} {range}: the very bytes of the file"
        );
    }
    // Past the end: 416, saying how long the file is, in the JSON error shape.
    let (status, hs, body) = fetch("GET", url, &[("Range", &format!("bytes={len}-"))]);
    assert_eq!(status, 416, "{url}");
    assert_eq!(
        header(&hs, "content-range"),
        Some(&*format!("bytes */{len}"))
    );
    let e: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        e["errors"][0]["extensions"]["code"], "RANGE_NOT_SATISFIABLE",
        "{e}"
    );
    // Several ranges, or a range of another version, get the whole file.
    let (status, _, body) = fetch("GET", url, &[("Range", "bytes=0-1,5-6")]);
    assert_eq!((status, body.len()), (200, len), "{url}");
    let (status, _, body) = fetch(
        "GET",
        url,
        &[("Range", "bytes=0-1"), ("If-Range", "\"another-version\"")],
    );
    assert_eq!((status, body.len()), (200, len), "{url}");
    let (status, _, body) = fetch("GET", url, &[("Range", "bytes=0-1"), ("If-Range", &etag)]);
    assert_eq!((status, body.len()), (206, 2), "{url}");
    // A cache holding this version is told it still holds the current one.
    let (status, _, body) = fetch("GET", url, &[("If-None-Match", &etag)]);
    assert_eq!((status, body.len()), (304, 0), "{url}");
    (whole, etag)
}

#[test]
fn every_export_is_a_file_with_a_length_and_ranges() {
    let dir = tempfile::tempdir().unwrap();
    few_samples(&dir.path().join("samples"), 10);
    let samples = dir.path().join("samples");
    let server = Server::start(&[
        "--samples-dir",
        samples.to_str().unwrap(),
        "--admin-token",
        ADMIN,
    ]);
    let mut before = Vec::new();
    for (kind, _) in KINDS {
        for url in urls(&server, kind) {
            before.push((url.clone(), check_file(&url)));
        }
    }

    // A game finishes (an import): every Five Tribes export now holds it, under a new ETag;
    // nothing is served from the file written before.
    let all = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples/five-tribes.ndjson"),
    )
    .unwrap();
    let record = all.lines().nth(10).unwrap();
    let v = gql(
        &server,
        Some(ADMIN),
        "mutation($r: String) { importGame(record: $r) { status } }",
        json!({ "r": record }),
    );
    assert_eq!(data(&v)["importGame"]["status"], "FINISHED");
    for (url, (bytes, etag)) in &before {
        let (now, now_etag) = check_file(url);
        if url.contains("/five-tribes/") {
            assert!(now.len() > bytes.len(), "{url} holds the new game");
            assert_ne!(&now_etag, etag, "{url}: a new version, a new ETag");
        } else {
            assert_eq!((&now, &now_etag), (bytes, etag), "{url}: unchanged");
        }
    }
}

/// What the API says each export holds: rows of `games` (a row per finished game and seat),
/// of `moves` (a row per entry), of `positions` (a position per ply and the start), and the
/// positions `round == 3` selects, paged through `positions`.
fn expected_rows(server: &Server, kind: &str) -> Vec<u64> {
    let (mut seats, mut entries, mut positions) = (0, 0, 0);
    let mut after = Value::Null;
    loop {
        let v = gql(
            server,
            None,
            "query($k: GameKind, $a: String) { games(kind: $k, status: FINISHED, first: 100, after: $a) {
                pageInfo { hasNextPage endCursor } nodes { players plies } } }",
            json!({ "k": kind, "a": after }),
        );
        let page = &data(&v)["games"];
        for g in page["nodes"].as_array().unwrap() {
            seats += g["players"].as_array().unwrap().len() as u64;
            entries += g["plies"].as_u64().unwrap();
            positions += g["plies"].as_u64().unwrap() + 1;
        }
        if page["pageInfo"]["hasNextPage"] != true {
            break;
        }
        after = page["pageInfo"]["endCursor"].clone();
    }
    let mut round_3 = 0;
    let mut after = Value::Null;
    loop {
        let v = gql(
            server,
            None,
            "query($k: GameKind!, $a: String) { positions(kind: $k, where: \"round == 3\", first: 100, after: $a) {
                edges { cursor } pageInfo { hasNextPage } resumeAfter } }",
            json!({ "k": kind, "a": after }),
        );
        let p = &data(&v)["positions"];
        round_3 += p["edges"].as_array().unwrap().len() as u64;
        if p["pageInfo"]["hasNextPage"] != true {
            break;
        }
        after = p["resumeAfter"].clone();
    }
    vec![seats, seats, entries, entries, positions, round_3]
}

#[test]
fn pandas_polars_and_duckdb_read_every_export_url() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ops/data-tools/read_exports.py");
    common::data_tools(&["pandas", "polars", "duckdb", "duckdb-extension-httpfs"]);
    let server = Server::start(&[]);
    let mut want = Vec::new();
    for (kind, gql_kind) in KINDS {
        want.extend(
            urls(&server, kind)
                .into_iter()
                .zip(expected_rows(&server, gql_kind)),
        );
    }
    let out = Command::new("python3")
        .arg(&script)
        .args(want.iter().map(|(u, _)| u))
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut wrong = Vec::new();
    for (url, rows) in &want {
        for tool in ["pandas", "polars", "duckdb"] {
            let found = &got[url][tool];
            println!("{tool:7} {rows:6} rows expected, {found} read: {url}");
            if found.as_u64() != Some(*rows) {
                wrong.push(format!("{tool} at {url}: {found}, not {rows}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
