//! Every game's view and layout JSON Schema keeps to the conventions of
//! `schema/views/README.md` — the shapes the GraphQL mapping (`api::typed`) understands,
//! camelCase names, lowercase slug enum values, every type and field documented — checked
//! here once for all games, through the registry.

use serde_json::Value;

fn registry() -> rules_core::Registry {
    rules_core::Registry::new()
        .with(rules_core::Erased::<five_tribes::FiveTribes>::new())
        .with(rules_core::Erased::<caledonia::Caledonia>::new())
        .with(rules_core::Erased::<mombasa::Mombasa>::new())
}

/// Walks a schema and refuses every keyword or shape the GraphQL mapping does not know:
/// objects with `properties`, arrays of one item type, integer, boolean, string, string enums,
/// `$ref`, and "X or null" (`type: [X, "null"]`, or `anyOf` of a `$ref` and `null`).
fn check_shapes(at: &str, s: &Value, problems: &mut Vec<String>) {
    let Some(o) = s.as_object() else {
        problems.push(format!("{at}: not an object"));
        return;
    };
    const KNOWN: &[&str] = &[
        "$schema",
        "$defs",
        "$ref",
        "title",
        "description",
        "type",
        "properties",
        "required",
        "items",
        "enum",
        "format",
        "minimum",
        "maximum",
        "anyOf",
        // `additionalProperties: false` only makes validation stricter.
        "additionalProperties",
    ];
    if o.get("additionalProperties").is_some_and(|a| a != false) {
        problems.push(format!("{at}: additionalProperties other than false"));
    }
    for k in o.keys() {
        if !KNOWN.contains(&k.as_str()) {
            problems.push(format!("{at}: keyword {k}"));
        }
    }
    if let Some(any) = o.get("anyOf") {
        let a = any.as_array().cloned().unwrap_or_default();
        let nullable_ref = a.len() == 2
            && a[0].get("$ref").is_some()
            && a[1] == serde_json::json!({"type": "null"});
        if !nullable_ref {
            problems.push(format!("{at}: anyOf other than \"a $ref or null\""));
        }
        check_shapes(&format!("{at}/anyOf/0"), &a[0], problems);
    }
    match o.get("type") {
        Some(Value::String(t)) => {
            if !["object", "array", "integer", "boolean", "string"].contains(&t.as_str()) {
                problems.push(format!("{at}: type {t}"));
            }
        }
        Some(Value::Array(ts)) => {
            let ok = ts.len() == 2
                && ts[1] == "null"
                && ["array", "integer", "boolean", "string"]
                    .contains(&ts[0].as_str().unwrap_or(""));
            if !ok {
                problems.push(format!("{at}: type {ts:?}"));
            }
        }
        Some(other) => problems.push(format!("{at}: type {other}")),
        None if o.contains_key("$ref") || o.contains_key("anyOf") => {}
        None => problems.push(format!("{at}: no type")),
    }
    if o.get("type").and_then(Value::as_str) == Some("object") {
        if !o.contains_key("properties") {
            problems.push(format!("{at}: an object without properties"));
        }
        if !o.contains_key("description") {
            problems.push(format!("{at}: an undocumented type"));
        }
    }
    if let Some(props) = o.get("properties").and_then(Value::as_object) {
        for (name, p) in props {
            if name.contains('_') || name.starts_with(|c: char| c.is_ascii_uppercase()) {
                problems.push(format!("{at}: property {name} is not camelCase"));
            }
            if p.get("description").is_none() {
                problems.push(format!("{at}/{name}: undocumented"));
            }
            check_shapes(&format!("{at}/{name}"), p, problems);
        }
    }
    if let Some(items) = o.get("items") {
        check_shapes(&format!("{at}/items"), items, problems);
    }
    if let Some(e) = o.get("enum").and_then(Value::as_array) {
        for v in e {
            let slug = v.as_str().is_some_and(|s| {
                !s.is_empty()
                    && s.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            });
            if !slug {
                problems.push(format!("{at}: enum value {v} is not a lowercase slug"));
            }
        }
    }
    if let Some(defs) = o.get("$defs").and_then(Value::as_object) {
        for (name, d) in defs {
            if d.get("description").is_none() {
                problems.push(format!("$defs/{name}: undocumented"));
            }
            check_shapes(&format!("$defs/{name}"), d, problems);
        }
    }
}

#[test]
fn every_view_and_layout_schema_keeps_to_the_conventions() {
    for rules in registry().iter() {
        for (root, schema) in [
            ("View", rules.view_schema()),
            ("Layout", rules.layout_schema()),
        ] {
            let kind = rules.kind().as_str();
            assert_eq!(schema["title"], root, "{kind}");
            let mut problems = Vec::new();
            check_shapes(root, &schema, &mut problems);
            if let Some(defs) = schema["$defs"].as_object() {
                for name in defs.keys() {
                    if !name.starts_with(|c: char| c.is_ascii_uppercase()) || name.contains('_') {
                        problems.push(format!("$defs/{name}: not a type name"));
                    }
                }
            }
            assert!(problems.is_empty(), "{kind} {root}: {problems:#?}");
        }
    }
}
