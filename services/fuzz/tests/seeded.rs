//! The short seeded pass CI runs: every fuzz target, a few thousand deterministic inputs each
//! (seed 1), in the test profile without instrumentation. Each runs in its own `fuzz` process,
//! so an abort (a stack overflow) fails only its test, with the input that caused it; any
//! panic or failed invariant fails the test and prints the reproducer.

use std::path::PathBuf;
use std::process::Command;

fn run(target: &str, inputs: u64) {
    let crashes = std::env::temp_dir().join(format!("ludolog-fuzz-ci-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_fuzz"))
        .args([
            target,
            "--inputs",
            &inputs.to_string(),
            "--seed",
            "1",
            "--status-every",
            "600",
            "--crashes",
        ])
        .arg(&crashes)
        .output()
        .expect("the fuzz binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let _ = std::fs::remove_dir_all(PathBuf::from(&crashes).join(target));
    assert!(
        out.status.success(),
        "fuzz {target} failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("SUMMARY"))
        .unwrap_or_else(|| panic!("no summary:\n{stdout}\n{stderr}"));
    assert!(summary.contains(" crashes=0 "), "{summary}");
    let ran: u64 = summary
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix("inputs="))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    assert!(
        ran >= inputs * 9 / 10,
        "only {ran} of {inputs} inputs ran: {summary}"
    );
}

#[test]
fn notation_five_tribes() {
    run("notation-five-tribes", 30_000);
}

#[test]
fn notation_caledonia() {
    run("notation-caledonia", 30_000);
}

#[test]
fn notation_mombasa() {
    run("notation-mombasa", 30_000);
}

#[test]
fn reducer_five_tribes() {
    run("reducer-five-tribes", 12_000);
}

#[test]
fn reducer_caledonia() {
    run("reducer-caledonia", 8_000);
}

#[test]
fn reducer_mombasa() {
    run("reducer-mombasa", 12_000);
}

#[test]
fn import() {
    run("import", 8_000);
}

#[test]
fn filter() {
    run("filter", 6_000);
}

#[test]
fn graphql() {
    run("graphql", 8_000);
}

#[test]
fn graphql_shapes() {
    // Documents of up to six thousand fragments: some 80 inputs a second.
    run("graphql-shapes", 400);
}
