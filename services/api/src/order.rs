//! Response fields in the order the query asked for them (GraphQL §7.2.2, "ordered by the order
//! in which they appear in the query").
//!
//! async-graphql 7 resolves an object's fields concurrently and inserts each as it completes
//! (`FuturesUnordered` in `do_resolve_container`), so a slow field — a finished game's
//! `outcome`, which replays the game — comes after fields asked for after it. This pass runs
//! after execution and puts every object's keys back in the order of the selection sets that
//! made it (fields in document order, fragments expanded where they stand, a key at its first
//! occurrence), leaving values whose selection is empty (scalars, JSON) untouched. An object
//! already in order is only compared, not rebuilt.

use async_graphql::parser::types::{
    DocumentOperations, ExecutableDocument, Selection, SelectionSet,
};
use async_graphql::{Name, Value};
use std::collections::HashMap;

/// Puts the keys of `data`, the answer to `operation` of `doc`, in selection order.
pub fn reorder(doc: &ExecutableDocument, operation: Option<&str>, data: &mut Value) {
    let op = match (&doc.operations, operation) {
        (DocumentOperations::Single(op), _) => &op.node,
        (DocumentOperations::Multiple(ops), Some(name)) => match ops.get(name) {
            Some(op) => &op.node,
            None => return,
        },
        (DocumentOperations::Multiple(ops), None) if ops.len() == 1 => match ops.values().next() {
            Some(op) => &op.node,
            None => return,
        },
        _ => return,
    };
    walk(doc, &[&op.selection_set.node], data);
}

/// The response keys `sets` select, in order, each with the selection sets below it.
fn fields<'a>(
    doc: &'a ExecutableDocument,
    sets: &[&'a SelectionSet],
) -> Vec<(&'a str, Vec<&'a SelectionSet>)> {
    let mut out: Vec<(&str, Vec<&SelectionSet>)> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    // Depth-first, in document order, on a stack of its own (fragments reached again are
    // walked again: the guard has bounded what they expand to).
    let mut stack: Vec<std::slice::Iter<'a, _>> =
        sets.iter().rev().map(|s| s.items.iter()).collect();
    while let Some(top) = stack.last_mut() {
        let Some(item) = top.next() else {
            stack.pop();
            continue;
        };
        match &item.node {
            Selection::Field(f) => {
                let f = &f.node;
                let key = f.alias.as_ref().unwrap_or(&f.name).node.as_str();
                let i = *index.entry(key).or_insert_with(|| {
                    out.push((key, Vec::new()));
                    out.len() - 1
                });
                if !f.selection_set.node.items.is_empty() {
                    out[i].1.push(&f.selection_set.node);
                }
            }
            Selection::InlineFragment(f) => stack.push(f.node.selection_set.node.items.iter()),
            Selection::FragmentSpread(s) => {
                if let Some(frag) = doc.fragments.get(&s.node.fragment_name.node) {
                    stack.push(frag.node.selection_set.node.items.iter());
                }
            }
        }
    }
    out
}

fn walk(doc: &ExecutableDocument, sets: &[&SelectionSet], value: &mut Value) {
    match value {
        Value::List(items) => {
            for item in items {
                walk(doc, sets, item);
            }
        }
        Value::Object(map) => {
            let wanted = fields(doc, sets);
            let position: HashMap<&str, usize> = wanted
                .iter()
                .enumerate()
                .map(|(i, (k, _))| (*k, i))
                .collect();
            let rank = |k: &Name| position.get(k.as_str()).copied().unwrap_or(usize::MAX);
            let in_order = map
                .keys()
                .zip(map.keys().skip(1))
                .all(|(a, b)| rank(a) <= rank(b));
            if !in_order {
                let mut entries: Vec<(Name, Value)> = std::mem::take(map).into_iter().collect();
                entries.sort_by_key(|(k, _)| rank(k));
                map.extend(entries);
            }
            for (key, subsets) in &wanted {
                if subsets.is_empty() {
                    continue;
                }
                if let Some(child) = map.get_mut(*key) {
                    walk(doc, subsets, child);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(pairs: &[(&str, Value)]) -> Value {
        Value::Object(
            pairs
                .iter()
                .map(|(k, v)| (Name::new(k), v.clone()))
                .collect(),
        )
    }

    fn keys(v: &Value) -> Vec<String> {
        match v {
            Value::Object(m) => m.keys().map(|k| k.to_string()).collect(),
            _ => vec![],
        }
    }

    #[test]
    fn keys_follow_the_selection_through_fragments_aliases_and_lists() {
        let q = "{ game { outcome { winners } plies ...F other: id } } \
                 fragment F on Game { ... on Game { kind } id }";
        let doc = async_graphql::parser::parse_query(q).unwrap();
        let n = |i: i32| Value::Number(i.into());
        let outcome = obj(&[("winners", Value::List(vec![n(1)]))]);
        let mut data = obj(&[(
            "game",
            obj(&[
                ("id", n(1)),
                ("other", n(1)),
                ("plies", n(2)),
                ("kind", n(3)),
                ("outcome", outcome),
            ]),
        )]);
        reorder(&doc, None, &mut data);
        let Value::Object(m) = &data else { panic!() };
        assert_eq!(
            keys(&m["game"]),
            ["outcome", "plies", "kind", "id", "other"]
        );
        // In a list, each item.
        let q = "{ games { b a } }";
        let doc = async_graphql::parser::parse_query(q).unwrap();
        let item = obj(&[("a", n(1)), ("b", n(2))]);
        let mut data = obj(&[("games", Value::List(vec![item.clone(), item]))]);
        reorder(&doc, None, &mut data);
        let Value::Object(m) = &data else { panic!() };
        let Value::List(items) = &m["games"] else {
            panic!()
        };
        assert!(items.iter().all(|i| keys(i) == ["b", "a"]));
    }

    #[test]
    fn a_scalar_s_json_is_left_as_it_is() {
        let doc = async_graphql::parser::parse_query("{ view x }").unwrap();
        let n = |i: i32| Value::Number(i.into());
        let json = obj(&[("z", n(1)), ("a", n(2))]);
        let mut data = obj(&[("x", n(0)), ("view", json)]);
        reorder(&doc, None, &mut data);
        let Value::Object(m) = &data else { panic!() };
        assert_eq!(keys(&data), ["view", "x"]);
        assert_eq!(keys(&m["view"]), ["z", "a"]);
    }
}
