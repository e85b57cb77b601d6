//! What a client reads when it gets something wrong, over HTTP against the real server:
//! GraphQL syntax errors and CEL syntax errors are one sentence with their line and column (no
//! parser picture, no grammar rule or token names), under their stable codes; the error shape
//! `schema/exports.md` shows is the one the server answers; and the live schema, as
//! introspection shows it to graphql-js, is exactly `schema/schema.graphql`.

mod common;

use common::{code, gql, ludolog_ok, Server};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// No line break, no pest arrow or caret, no ANTLR token list.
fn assert_a_sentence(message: &str) {
    for art in [
        "\n",
        "-->",
        "^",
        " | ",
        "IDENTIFIER",
        "NUM_INT",
        "<EOF>",
        "mismatched",
        "expecting",
        "selection_set",
        "executable_definition",
    ] {
        assert!(!message.contains(art), "{art:?} in {message:?}");
    }
}

#[test]
fn graphql_syntax_errors_are_sentences_with_line_and_column() {
    let server = Server::start(&["--no-samples"]);
    for (query, message, line, column) in [
        (
            "{ rules { } }",
            "Syntax error at line 1, column 11: expected a field, found \"}\"",
            1,
            11,
        ),
        (
            "query($k: GameKind) {\n  rules {\n    kind\n",
            "Syntax error at line 4, column 1: expected a selection set `{ … }`, a field, a \
             directive `@name` or arguments `( … )`, found the end of the document",
            4,
            1,
        ),
        (
            "{ game(id: ) { id } }",
            "Syntax error at line 1, column 12: expected a value, found \")\"",
            1,
            12,
        ),
        (
            "{ rules { kind } }}",
            "Syntax error at line 1, column 19: expected an operation or a fragment, or the end \
             of the document, found \"}\"",
            1,
            19,
        ),
        (
            "fragment F { kind } { rules { ...F } }",
            "Syntax error at line 1, column 12: expected a type condition `on Type`, found \"{\"",
            1,
            12,
        ),
    ] {
        let v = gql(&server, None, query, json!({}));
        assert_eq!(code(&v), "BAD_QUERY", "{v}");
        let e = &v["errors"][0];
        assert_eq!(e["message"], message, "{query:?}");
        assert_eq!(
            e["locations"],
            json!([{ "line": line, "column": column }]),
            "{v}"
        );
        assert_a_sentence(e["message"].as_str().unwrap());
    }

    // The same over GET and under the spec's media type (a 400 there).
    let get = ureq::get(&format!("{}/graphql", server.url))
        .query("query", "{ rules { } }")
        .call()
        .unwrap()
        .into_json::<Value>()
        .unwrap();
    assert_eq!(
        get["errors"][0]["message"],
        "Syntax error at line 1, column 11: expected a field, found \"}\""
    );
    match ureq::post(&format!("{}/graphql", server.url))
        .set("Accept", "application/graphql-response+json")
        .send_json(json!({ "query": "{ rules { } }" }))
    {
        Err(ureq::Error::Status(400, r)) => {
            let v: Value = r.into_json().unwrap();
            assert_eq!(code(&v), "BAD_QUERY");
            assert_eq!(
                v["errors"][0]["message"],
                "Syntax error at line 1, column 11: expected a field, found \"}\""
            );
        }
        other => panic!("expected 400, got {:?}", other.map(|r| r.status())),
    }
}

#[test]
fn cel_syntax_errors_are_sentences_with_line_and_column() {
    let server = Server::start(&[]);
    let value = "a value (a name, a number, a string, a list or a bracket)";
    for (filter, message, line, column) in [
        (
            "round ==",
            format!("Syntax error at line 1, column 9: expected {value}, found the end of the expression"),
            1,
            9,
        ),
        (
            "round == 3)",
            "Syntax error at line 1, column 11: expected the end of the expression, found \")\"".into(),
            1,
            11,
        ),
        (
            "(round == 3",
            "Syntax error at line 1, column 12: expected `)`, found the end of the expression".into(),
            1,
            12,
        ),
        (
            "round == 3 &&\n  ply # 2",
            "Syntax error at line 2, column 7: \"#\" is not part of CEL".into(),
            2,
            7,
        ),
        (
            "seats.exists(s, s.gold >",
            format!("Syntax error at line 1, column 25: expected {value}, found the end of the expression"),
            1,
            25,
        ),
    ] {
        // GraphQL's `positions(where:)`.
        let v = gql(
            &server,
            None,
            "query($w: String) { positions(kind: FIVE_TRIBES, where: $w) { scanned } }",
            json!({ "w": filter }),
        );
        assert_eq!(code(&v), "BAD_QUERY", "{v}");
        let e = &v["errors"][0];
        assert_eq!(e["message"], message.as_str(), "{filter:?}");
        assert_eq!(e["extensions"]["line"], line, "{v}");
        assert_eq!(e["extensions"]["column"], column, "{v}");
        assert_a_sentence(e["message"].as_str().unwrap());

        // The export's `where`.
        match ureq::get(&format!("{}/exports/five-tribes/positions.ndjson", server.url))
            .query("where", filter)
            .call()
        {
            Err(ureq::Error::Status(400, r)) => {
                let v: Value = r.into_json().unwrap();
                assert_eq!(code(&v), "BAD_QUERY");
                assert_eq!(v["errors"][0]["message"], message.as_str());
                assert_eq!(v["errors"][0]["extensions"]["column"], column);
            }
            other => panic!("{filter:?}: expected 400, got {:?}", other.map(|r| r.status())),
        }
    }
}

/// `schema/exports.md` shows a bad export request and its answer: the server gives exactly that
/// status and that JSON.
#[test]
fn exports_md_shows_the_error_the_server_answers() {
    let doc = std::fs::read_to_string(root().join("schema/exports.md")).unwrap();
    let block = doc
        .split("```http\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("schema/exports.md has an ```http exchange");
    let mut lines = block.lines();
    let request = lines.next().unwrap();
    let path = request
        .strip_prefix("GET ")
        .and_then(|r| r.strip_suffix(" HTTP/1.1"))
        .unwrap_or_else(|| panic!("a GET request line: {request}"));
    let status_line = lines.find(|l| l.starts_with("HTTP/1.1 ")).unwrap();
    let status: u16 = status_line.split(' ').nth(1).unwrap().parse().unwrap();
    let body = block.lines().rev().find(|l| l.starts_with('{')).unwrap();
    let shown: Value = serde_json::from_str(body).unwrap();
    assert!(
        block.contains("content-type: application/json"),
        "the exchange shows the answer's type"
    );

    let server = Server::start(&[]);
    match ureq::get(&format!("{}{path}", server.url)).call() {
        Err(ureq::Error::Status(s, r)) => {
            assert_eq!(s, status, "{status_line}");
            assert_eq!(r.content_type(), "application/json");
            let text = r.into_string().unwrap();
            assert_eq!(
                serde_json::from_str::<Value>(&text).unwrap(),
                shown,
                "schema/exports.md shows {body}, the server answers {text}"
            );
            assert_eq!(text, body, "byte for byte, as the server writes it");
        }
        other => panic!("expected {status}, got {:?}", other.map(|r| r.status())),
    }
}

/// `ludolog schema` prints the schema file, and a live server's introspection (read by
/// graphql-js, with `specifiedByURL`) is the same schema: every type, field, argument,
/// description and deprecation, and `DateTime`'s `@specifiedBy`.
#[test]
fn the_live_schema_is_the_schema_file() {
    let file = root().join("schema/schema.graphql");
    let on_disk = std::fs::read_to_string(&file).unwrap();
    assert!(
        on_disk.contains(
            "scalar DateTime @specifiedBy(url: \"https://datatracker.ietf.org/doc/html/rfc3339\")"
        ),
        "the file says which specification DateTime follows"
    );
    let printed = String::from_utf8(ludolog_ok(["schema"])).unwrap();
    assert!(
        printed == on_disk,
        "schema/schema.graphql is out of date: run `ludolog schema > schema/schema.graphql`"
    );

    let dir = root().join("ops/graphql-validate");
    assert!(
        dir.join("node_modules/graphql").exists(),
        "graphql-js is not installed: run `npm ci --prefix ops/graphql-validate` (ops/test.sh does)"
    );
    let server = Server::start(&["--no-samples"]);
    let out = Command::new("node")
        .arg(dir.join("same-schema.mjs"))
        .arg(&file)
        .arg(format!("{}/graphql", server.url))
        .output()
        .expect("node runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("DateTime @specifiedBy(https://datatracker.ietf.org/doc/html/rfc3339)"),
        "{said}"
    );
}
