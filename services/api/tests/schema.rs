//! `schema/schema.graphql` is generated from the code, and the operations the README shows
//! (`schema/examples/*.graphql`) are valid against it according to graphql-js, the reference
//! implementation (npm `graphql`, installed by `.ci/run` into `ops/graphql-validate`).
//! To update the schema file: `cargo run -p ludolog -- schema > schema/schema.graphql`; the
//! view and layout JSON Schemas: `cargo run -p ludolog -- schema --views schema/views`.

use std::path::PathBuf;
use std::process::Command;

fn registry() -> rules_core::Registry {
    rules_core::Registry::new()
        .with(rules_core::Erased::<five_tribes::FiveTribes>::new())
        .with(rules_core::Erased::<caledonia::Caledonia>::new())
        .with(rules_core::Erased::<mombasa::Mombasa>::new())
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn schema_file_matches_the_code() {
    let on_disk = std::fs::read_to_string(root().join("schema/schema.graphql"))
        .expect("schema/schema.graphql exists");
    assert!(
        on_disk == api::sdl(&registry()),
        "schema/schema.graphql is out of date: run `cargo run -p ludolog -- schema > schema/schema.graphql`"
    );
}

/// `schema/views/` holds each game's view and layout JSON Schema as the code generates them
/// (the games' own tests validate every sample position against the same schemas).
#[test]
fn view_schema_files_match_the_code() {
    let mut stale = Vec::new();
    for rules in registry().iter() {
        let kind = rules.kind().as_str();
        for (name, schema) in [
            (format!("{kind}.schema.json"), rules.view_schema()),
            (format!("{kind}.layout.schema.json"), rules.layout_schema()),
        ] {
            let path = root().join("schema/views").join(&name);
            let want = serde_json::to_string_pretty(&schema).unwrap() + "\n";
            if std::fs::read_to_string(&path).ok().as_deref() != Some(want.as_str()) {
                stale.push(name);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "out of date in schema/views: {stale:?}; run `cargo run -p ludolog -- schema --views schema/views`"
    );
}

#[test]
fn examples_are_valid_for_graphql_js() {
    let dir = root().join("ops/graphql-validate");
    assert!(
        dir.join("node_modules/graphql").exists(),
        "graphql-js is not installed: run `npm ci --prefix ops/graphql-validate` (.ci/run does)"
    );
    let mut examples: Vec<PathBuf> = std::fs::read_dir(root().join("schema/examples"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "graphql"))
        .collect();
    examples.sort();
    assert!(examples.len() >= 5);
    let out = Command::new("node")
        .arg(dir.join("validate.mjs"))
        .arg(root().join("schema/schema.graphql"))
        .args(&examples)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // And a deliberately wrong operation is caught, so the check can fail.
    let bad = std::env::temp_dir().join(format!("ludolog-bad-{}.graphql", std::process::id()));
    std::fs::write(&bad, "query { game(id: \"x\") { noSuchField } }").unwrap();
    let out = Command::new("node")
        .arg(dir.join("validate.mjs"))
        .arg(root().join("schema/schema.graphql"))
        .arg(&bad)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&bad);
    assert!(!out.status.success());
}
