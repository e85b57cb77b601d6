//! The open datasets (issue 42) as a running server publishes them at `/datasets/`: pyarrow,
//! DuckDB (httpfs) and polars read every file the manifest names over HTTP, with the columns
//! and types `schema/datasets.md` states and the row counts of the CSV exports of the same
//! games (`ops/data-tools/read_datasets.py`); a month is written again when a game of it
//! finishes — its ETags change, every other month's stay — and a damaged file is refused by
//! its checksum (`ludolog dataset --verify`) and written again when the server starts; a
//! review alone writes only its month's `evaluations` again.

mod common;

use common::{data, gql, ludolog, ludolog_in, metric, sample_records, Server};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const ADMIN: &str = "datasets-admin-0123456789";

/// A request's status, ETag and body, whatever the status.
fn fetch(method: &str, url: &str, headers: &[(&str, &str)]) -> (u16, String, Vec<u8>) {
    let (status, hs, body) = common::fetch(method, url, headers);
    let etag = common::header(&hs, "etag").unwrap_or_default().to_string();
    (status, etag, body)
}

/// The manifest, once it satisfies `ready` (the publisher refreshes every second here).
fn manifest_when(server: &Server, what: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, _, body) = fetch(
            "GET",
            &format!("{}/datasets/manifest.json", server.url),
            &[],
        );
        if status == 200 {
            let m: Value = serde_json::from_slice(&body).unwrap();
            if ready(&m) {
                return m;
            }
        }
        assert!(Instant::now() < end, "waited a minute for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn month<'a>(m: &'a Value, kind: &str, month: &str) -> Option<&'a Value> {
    m["months"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["kind"] == kind && x["month"] == month)
}

/// Every file's path and ETag as the server answers a `HEAD` now.
fn etags(server: &Server, m: &Value) -> Vec<(String, String)> {
    m["months"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|mo| mo["files"].as_array().unwrap().iter())
        .map(|f| {
            let path = f["path"].as_str().unwrap().to_string();
            let (status, etag, _) = fetch("HEAD", &format!("{}/datasets/{path}", server.url), &[]);
            assert_eq!(status, 200, "{path}");
            assert_eq!(
                etag,
                format!("\"{}\"", f["sha256"].as_str().unwrap()),
                "{path}"
            );
            (path, etag)
        })
        .collect()
}

/// Rows of a CSV export (its lines, less the header; no cell of these holds a line break).
fn csv_rows(server: &Server, kind: &str, table: &str) -> u64 {
    let (status, _, body) = fetch(
        "GET",
        &format!("{}/exports/{kind}/{table}.csv", server.url),
        &[],
    );
    assert_eq!(status, 200);
    body.iter().filter(|b| **b == b'\n').count() as u64 - 1
}

#[test]
fn data_tools_read_every_served_file_with_the_documented_schema_and_the_csv_row_counts() {
    common::data_tools(&["pyarrow", "polars", "duckdb", "duckdb-extension-httpfs"]);
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for f in ["five-tribes", "caledonia", "mombasa"] {
        let path = root.join(format!("data/samples/{f}.ndjson"));
        let (ok, _, err) = ludolog_in(&["import", path.to_str().unwrap()], &store);
        assert!(ok, "{err}");
    }
    // Two games reviewed (a few iterations a position), so `evaluations` has rows.
    let reviewed: Vec<String> = ["five-tribes", "mombasa"]
        .iter()
        .map(|f| sample_records(f)[0]["id"].as_str().unwrap().to_string())
        .collect();
    let (ok, _, err) = ludolog_in(
        &[
            "review",
            "--game",
            &reviewed[0],
            "--game",
            &reviewed[1],
            "--iterations",
            "8",
        ],
        &store,
    );
    assert!(ok, "{err}");

    let server = Server::start_in(Some(&store), &["--dataset-interval", "1"]);
    let m = manifest_when(&server, "three kinds", |m| {
        m["months"].as_array().unwrap().len() == 3
    });
    let out = Command::new("python3")
        .arg(root.join("ops/data-tools/read_datasets.py"))
        .arg(&server.url)
        .arg(root.join("schema/datasets.md"))
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        got["schema_problems"],
        json!([]),
        "the files' columns are those documented"
    );
    let mut files = 0;
    for mo in m["months"].as_array().unwrap() {
        for f in mo["files"].as_array().unwrap() {
            let read = &got["files"][f["path"].as_str().unwrap()];
            for tool in ["pyarrow", "duckdb", "polars"] {
                assert_eq!(read[tool], f["rows"], "{tool} reads {}", f["path"]);
            }
            assert_eq!(read["sha256_ok"], true, "{}", f["path"]);
            files += 1;
        }
    }
    assert_eq!(files, 15);
    for kind in ["five-tribes", "clans-of-caledonia", "mombasa"] {
        let k = &got["kinds"][kind];
        println!("{kind}: {k}");
        assert_eq!(k["games"], 72);
        assert_eq!(
            k["seats"],
            csv_rows(&server, kind, "games"),
            "{kind}: seats = games.csv"
        );
        assert_eq!(
            k["moves"],
            csv_rows(&server, kind, "moves"),
            "{kind}: moves = moves.csv"
        );
        assert_eq!(
            k["evaluations"],
            csv_rows(&server, kind, "evaluations"),
            "{kind}: evaluations = evaluations.csv"
        );
        assert_eq!(
            k["positions"].as_u64().unwrap(),
            k["moves"].as_u64().unwrap() + 72,
            "{kind}: a position a ply, and the start"
        );
        assert_eq!(
            got["documented_query"][kind], k["moves"],
            "the document's DuckDB lines"
        );
        assert_eq!(
            got["polars_hive"][kind],
            json!({ "rows": k["seats"], "kind": kind }),
            "the document's polars lines"
        );
    }
    assert!(got["kinds"]["five-tribes"]["evaluations"].as_u64().unwrap() > 0);
    assert!(got["kinds"]["mombasa"]["evaluations"].as_u64().unwrap() > 0);
    assert_eq!(got["kinds"]["clans-of-caledonia"]["evaluations"], 0);
    assert!(metric(&server, "ludolog_dataset_bytes_sent_total") > 0);

    // Only what the manifest names is served.
    for path in [
        "manifest.json.tmp",
        "../store/conf",
        "kind=mombasa",
        "kind=mombasa/month=2026-01/x.parquet",
    ] {
        let (status, _, body) = fetch("GET", &format!("{}/datasets/{path}", server.url), &[]);
        assert_eq!(status, 404, "{path}");
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["errors"][0]["extensions"]["code"], "NOT_FOUND", "{v}");
    }
}

/// A sample record of `kind` as a new game (id `id`) whose entries are all dated in March 2026.
fn march_game(file: &str, n: usize, id: &str) -> String {
    let mut r = sample_records(file)[n].clone();
    r["id"] = json!(id);
    let shift = |t: &Value| json!(t.as_str().unwrap().replacen("2026-01-", "2026-03-", 1));
    r["created_at"] = shift(&r["created_at"]);
    r["updated_at"] = shift(&r["updated_at"]);
    for e in r["entries"].as_array_mut().unwrap() {
        e["at"] = shift(&e["at"]);
    }
    r.to_string()
}

fn import(server: &Server, record: &str) {
    let v = gql(
        server,
        Some(ADMIN),
        "mutation($r: String!) { importGame(record: $r) { id status } }",
        json!({ "r": record }),
    );
    assert_eq!(data(&v)["importGame"]["status"], "FINISHED", "{v}");
}

#[test]
fn a_month_is_written_again_when_a_game_of_it_finishes_and_the_others_keep_their_etags() {
    let server = Server::start(&["--dataset-interval", "1", "--admin-token", ADMIN]);
    let m = manifest_when(&server, "the samples' months", |m| {
        m["months"].as_array().unwrap().len() == 3
    });
    let before = etags(&server, &m);

    import(&server, &march_game("mombasa", 0, "036vpz74c1aa1"));
    let m = manifest_when(&server, "March", |m| {
        month(m, "mombasa", "2026-03").is_some()
    });
    let march = month(&m, "mombasa", "2026-03").unwrap().clone();
    assert_eq!(march["games"], 1);
    let with_one = etags(&server, &m);
    for (path, etag) in &before {
        assert!(
            with_one.contains(&(path.clone(), etag.clone())),
            "{path} kept its bytes"
        );
    }

    import(&server, &march_game("mombasa", 1, "036vpz74c1aa2"));
    let m = manifest_when(&server, "March's second game", |m| {
        month(m, "mombasa", "2026-03").is_some_and(|x| x["games"] == 2)
    });
    let with_two = etags(&server, &m);
    for (path, etag) in &before {
        assert!(
            with_two.contains(&(path.clone(), etag.clone())),
            "{path} kept its bytes"
        );
        // A reader holding it is told it has not changed.
        let (status, _, body) = fetch(
            "GET",
            &format!("{}/datasets/{path}", server.url),
            &[("If-None-Match", etag)],
        );
        assert_eq!((status, body.len()), (304, 0), "{path}");
    }
    for table in ["games", "seats", "moves", "positions"] {
        let path = format!("kind=mombasa/month=2026-03/{table}.parquet");
        let old = with_one.iter().find(|(p, _)| *p == path).unwrap();
        let new = with_two.iter().find(|(p, _)| *p == path).unwrap();
        assert_ne!(old.1, new.1, "{path} was written again");
        // The old ETag no longer matches: the whole new file comes back for `If-Range`.
        let (status, etag, body) = fetch(
            "GET",
            &format!("{}/datasets/{path}", server.url),
            &[("Range", "bytes=0-3"), ("If-Range", &old.1)],
        );
        assert_eq!((status, &etag), (200, &new.1), "{path}");
        assert_eq!(&body[..4], b"PAR1");
        let (status, _, body) = fetch(
            "GET",
            &format!("{}/datasets/{path}", server.url),
            &[("Range", "bytes=-4")],
        );
        assert_eq!(
            (status, body.as_slice()),
            (206, &b"PAR1"[..]),
            "{path}: its last bytes"
        );
    }
    assert!(metric(&server, "ludolog_dataset_months_written_total") >= 5);
}

#[test]
fn a_damaged_file_is_refused_by_its_checksum_and_written_again() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let datasets = store.join("datasets");
    let server = Server::start_in(Some(&store), &["--dataset-interval", "1"]);
    let m = manifest_when(&server, "the samples' months", |m| {
        m["months"].as_array().unwrap().len() == 3
    });
    drop(server);
    let verify = |out: &Path| {
        Command::new(ludolog())
            .args(["dataset", "--verify", "--out"])
            .arg(out)
            .output()
            .unwrap()
    };
    let v = verify(&datasets);
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));

    // A byte flipped in the middle of one file, its size the same.
    let path = "kind=five-tribes/month=2026-01/moves.parquet";
    let file = datasets.join(path);
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&file, &bytes).unwrap();
    let v = verify(&datasets);
    let err = String::from_utf8_lossy(&v.stderr);
    assert!(!v.status.success() && err.contains(path), "{err}");

    // The server never serves it: it is written again before anything is published.
    let server = Server::start_in(Some(&store), &["--dataset-interval", "1"]);
    let again = manifest_when(&server, "the manifest", |_| true);
    let want = month(&m, "five-tribes", "2026-01").unwrap()["files"][2]["sha256"].clone();
    let now = month(&again, "five-tribes", "2026-01").unwrap()["files"][2].clone();
    assert_eq!(now["path"], path);
    assert_eq!(now["sha256"], want, "the same games give the same bytes");
    let (status, etag, body) = fetch("GET", &format!("{}/datasets/{path}", server.url), &[]);
    assert_eq!(status, 200);
    assert_eq!(etag, format!("\"{}\"", want.as_str().unwrap()));
    let sum: String =
        sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(&body))
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
    assert_eq!(sum, want.as_str().unwrap());
    assert_eq!(metric(&server, "ludolog_dataset_corrupt_files_total"), 1);
    drop(server);
    assert!(verify(&datasets).status.success());

    // Bad arguments: a clear refusal, nothing written.
    let v = verify(&dir.path().join("nothing-here"));
    let err = String::from_utf8_lossy(&v.stderr);
    assert!(
        !v.status.success() && err.contains("manifest.json"),
        "{err}"
    );
    let (ok, _, err) = ludolog_in(&["dataset", "--out", "/tmp", "--kind", "chess"], &store);
    assert!(!ok && err.contains("chess"), "{err}");
}

#[test]
fn a_review_writes_its_months_evaluations_again_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let out = dir.path().join("datasets");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join("data/samples/mombasa.ndjson");
    let (ok, _, err) = ludolog_in(&["import", path.to_str().unwrap()], &store);
    assert!(ok, "{err}");
    let write = || {
        let (ok, stdout, err) = ludolog_in(&["dataset", "--out", out.to_str().unwrap()], &store);
        assert!(ok, "{err}");
        serde_json::from_str::<Value>(&stdout).unwrap()
    };
    let files = |m: &Value| -> Vec<(String, String, u64)> {
        m["months"][0]["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["table"].as_str().unwrap().to_string(),
                    f["sha256"].as_str().unwrap().to_string(),
                    f["rows"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let manifest = || -> Value {
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap()
    };
    assert_eq!(write()["written"], json!(["kind=mombasa/month=2026-01"]));
    let before = files(&manifest());
    assert_eq!(write()["kept"], 1, "nothing changed, nothing written");

    let id = sample_records("mombasa")[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (ok, _, err) = ludolog_in(&["review", "--game", &id, "--iterations", "8"], &store);
    assert!(ok, "{err}");
    assert_eq!(write()["written"], json!(["kind=mombasa/month=2026-01"]));
    let after = files(&manifest());
    // The command line's CSV table of the same reviews has as many rows.
    let (ok, csv, err) = ludolog_in(
        &[
            "table",
            "--kind",
            "mombasa",
            "--table",
            "evaluations",
            "--out",
            "-",
        ],
        &store,
    );
    assert!(ok, "{err}");
    let csv_rows = csv.lines().count() as u64 - 1;
    for (old, new) in before.iter().zip(&after) {
        if old.0 == "evaluations" {
            assert_eq!(old.2, 0);
            assert!(new.2 > 0, "the review's rows");
            assert_eq!(new.2, csv_rows, "ludolog table --table evaluations");
            assert_ne!(old.1, new.1);
        } else {
            assert_eq!(old, new, "{} kept its bytes", old.0);
        }
    }
    let v = Command::new(ludolog())
        .args(["dataset", "--verify", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
}
