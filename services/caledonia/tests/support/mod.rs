//! Helpers of the presentation tests: the README's schema shapes, and joining a view's hex ids
//! to the layout.

use serde_json::Value;
use std::collections::BTreeMap;

/// Keywords a schema node may use (`schema/views/README.md`: objects with `properties`,
/// arrays of one item type, integer, boolean, string, string enums, `$ref` to `$defs`; a
/// property may be nullable by `type: [t, "null"]` or by being left out of `required`;
/// descriptions and integer bounds are annotations).
const ALLOWED: &[&str] = &[
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
];

fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

fn is_camel(s: &str) -> bool {
    s.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Every departure of `schema` from the README's shapes, with where it is.
pub fn check_shapes(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    node(schema, "#", true, &mut out);
    if let Some(defs) = schema["$defs"].as_object() {
        for (name, d) in defs {
            let at = format!("#/$defs/{name}");
            if !name.bytes().next().is_some_and(|b| b.is_ascii_uppercase()) {
                out.push(format!("{at}: type names are PascalCase"));
            }
            node(d, &at, true, &mut out);
        }
    }
    out
}

fn node(n: &Value, at: &str, needs_description: bool, out: &mut Vec<String>) {
    let Some(o) = n.as_object() else {
        out.push(format!("{at}: not an object schema"));
        return;
    };
    for k in o.keys() {
        if !ALLOWED.contains(&k.as_str()) {
            out.push(format!("{at}: keyword {k}"));
        }
    }
    if needs_description && !o.get("description").is_some_and(Value::is_string) {
        out.push(format!("{at}: no description"));
    }
    if let Some(r) = o.get("$ref") {
        if !r.as_str().is_some_and(|r| r.starts_with("#/$defs/")) {
            out.push(format!("{at}: $ref {r}"));
        }
        return;
    }
    let types: Vec<&str> = match o.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => {
            out.push(format!("{at}: no type"));
            return;
        }
    };
    let real: Vec<&str> = types.iter().copied().filter(|t| *t != "null").collect();
    if real.len() != 1 {
        out.push(format!("{at}: type {types:?}"));
        return;
    }
    match real[0] {
        "object" => {
            let Some(props) = o.get("properties").and_then(Value::as_object) else {
                out.push(format!("{at}: an object without properties"));
                return;
            };
            for (k, p) in props {
                if !is_camel(k) {
                    out.push(format!("{at}: key {k} is not camelCase"));
                }
                node(p, &format!("{at}/{k}"), true, out);
            }
        }
        "array" => match o.get("items") {
            Some(i) => node(i, &format!("{at}[]"), false, out),
            None => out.push(format!("{at}: an array without items")),
        },
        "string" => {
            if let Some(e) = o.get("enum") {
                let values = e.as_array().map_or(&[][..], Vec::as_slice);
                if values.is_empty() || !values.iter().all(|v| v.as_str().is_some_and(is_slug)) {
                    out.push(format!("{at}: enum values {e} are not lowercase slugs"));
                }
            }
        }
        "integer" => {
            // Every integer fits in 32 bits (GraphQL `Int`).
            let fits = |k: &str, lo: f64, hi: f64| {
                o.get(k)
                    .and_then(Value::as_f64)
                    .is_some_and(|x| (lo..=hi).contains(&x))
            };
            let lo = f64::from(i32::MIN);
            let hi = f64::from(i32::MAX);
            let sized = matches!(
                o.get("format").and_then(Value::as_str),
                Some("int32" | "uint8" | "uint16" | "int8" | "int16")
            );
            if !(sized || (fits("minimum", lo, hi) && fits("maximum", lo, hi))) {
                out.push(format!("{at}: an integer that may not fit 32 bits"));
            }
        }
        "boolean" => {}
        t => out.push(format!("{at}: type {t}")),
    }
}

/// Every hex of the module sides `view` says are in play, by id, with its kind (`land`,
/// `loch`, …); empty before the deal.
pub fn hexes_in_play(layout: &Value, view: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for m in layout["modules"].as_array().into_iter().flatten() {
        let side = view["modules"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|x| x["module"] == m["module"])
            .map(|x| x["side"].clone());
        let Some(side) = side else { continue };
        for s in m["sides"].as_array().into_iter().flatten() {
            if s["side"] != side {
                continue;
            }
            for h in s["hexes"].as_array().into_iter().flatten() {
                if let (Some(id), Some(kind)) = (h["id"].as_str(), h["kind"].as_str()) {
                    out.insert(id.to_string(), kind.to_string());
                }
            }
        }
    }
    out
}
