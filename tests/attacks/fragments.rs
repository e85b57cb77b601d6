//! Fragment graphs that validation itself could not survive (defect 1, as the `graphql-shapes`
//! fuzz target found it after the first fix): fragments no operation spreads, which validation
//! still walks from every selection set, and spreads of fragments no one defines, which the
//! first fix's field count took for nothing. Before the fix a hundred unused fragments aborted
//! the process on a stack overflow, and a fan-out ending in an undefined fragment held a core
//! until the time limit.

use crate::common::*;
use crate::http::healthz;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// `inner` inside `depth` inline fragments.
fn around(depth: usize, inner: &str) -> String {
    format!("{}{inner}{}", "... { ".repeat(depth), " }".repeat(depth))
}

/// The documents, each with the words its refusal must contain.
fn documents() -> Vec<(&'static str, String, &'static str)> {
    let mut out = Vec::new();
    // A hundred fragments no operation spreads, each with sixty inline fragments around its
    // spread of the next: 101 fields, 51 kB; validation recursed past the stack's end.
    let mut q = String::from("{ __typename }");
    for i in 0..100 {
        q += &format!(
            " fragment F{i} on Query {{ {} }}",
            around(60, &format!("...F{}", i + 1))
        );
    }
    q += " fragment F100 on Query { __typename }";
    out.push(("unused fragments", q, "spread by no operation"));
    // A shorter such chain, spread: few selections (62), but 61 levels deep.
    let mut q = String::from("{ ...F0 }");
    for i in 0..10 {
        q += &format!(
            " fragment F{i} on Query {{ {} }}",
            around(5, &format!("...F{}", i + 1))
        );
    }
    q += " fragment F10 on Query { __typename }";
    out.push(("a deep chain", q, "deep once its fragments are expanded"));
    // Thirty levels of fan-out ending in a fragment no one defines: no field at all, 2^31
    // spreads, walked until the time limit.
    let mut q = String::from("{ ...F0 }");
    for i in 0..30 {
        q += &format!(" fragment F{i} on Query {{ ...F{} ...F{} }}", i + 1, i + 1);
    }
    q += " fragment F30 on Query { ...Missing }";
    out.push(("a fan-out of nothing", q, "selections once its fragments"));
    // 1,500 fragments of inline fragments only, each spreading the next, ending in a fragment
    // no one defines (the fuzz target's find: one field, 1.1 M spreads walked).
    let mut q = String::from("{ ...F0 }");
    for i in 0..1_500 {
        q += &format!(
            " fragment F{i} on Query {{ ... {{ ... @skip(if: true) {{ ...F{} }} }} }}",
            i + 1
        );
    }
    q += " fragment F1500 on Query { ...Missing }";
    out.push((
        "a chain of inline fragments",
        q,
        "once its fragments are expanded",
    ));
    out
}

#[test]
fn fragment_graphs_validation_cannot_survive_are_refused_before_it() {
    let server = Server::start(&["--no-samples"]);
    for (what, q, says) in documents() {
        let start = Instant::now();
        let r = ureq::post(&format!("{}/graphql", server.url))
            .timeout(Duration::from_secs(60))
            .send_json(json!({ "query": q }));
        let v: Value = match r {
            Ok(r) => r.into_json().unwrap(),
            Err(ureq::Error::Status(_, r)) => r.into_json().unwrap(),
            Err(e) => panic!("{what}: no answer ({e}); the server is gone"),
        };
        let took = start.elapsed();
        assert!(v["data"].is_null(), "{what}: {v}");
        let message = v["errors"][0]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{what}: {v}");
        assert!(
            matches!(code(&v).as_str(), "LIMIT_EXCEEDED" | "BAD_QUERY"),
            "{what}: {v}"
        );
        assert!(took < Duration::from_secs(2), "{what}: refused in {took:?}");
        assert!(healthz(&server) < Duration::from_secs(1), "{what}");
    }
    // What clients send still passes: a fragment spread from two places, nested in inline
    // fragments, a few levels down.
    let ok = "{ ...A ... on Query { ...R } } fragment A on Query { ...R } \
              fragment R on Query { rules { kind } }";
    let v: Value = ureq::post(&format!("{}/graphql", server.url))
        .send_json(json!({ "query": ok }))
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(data(&v)["rules"][0]["kind"], "FIVE_TRIBES", "{v}");
}
