//! Null propagation as the GraphQL spec says it (§ "Handling Field Errors"): an error in a
//! field makes it null, and a null in a non-null field makes its parent null, up to the
//! nearest nullable field (or `data` itself).
//!
//! Why here: async-graphql leaves the key of a failed field out of its parent and stops there,
//! so a client sees `position` without `legalMoves`, or `data.game: null` under a non-null
//! `game`, both answers the spec forbids and typed clients (Apollo, urql, codegen) trip on.
//! This pass runs after execution, only on answers with errors: it reads each error's path
//! against the request's document (response keys, aliases, fragments) and the schema's types.

use async_graphql::parser::types::{
    BaseType, DocumentOperations, ExecutableDocument, Selection, SelectionSet, Type, TypeKind,
};
use async_graphql::{PathSegment, Response, Value};
use std::collections::HashMap;

/// The output fields of every object and interface type, with their types.
pub struct Nulls {
    fields: HashMap<String, HashMap<String, Type>>,
}

impl Nulls {
    /// Reads the types from the schema's SDL.
    pub fn from_sdl(sdl: &str) -> Option<Nulls> {
        let doc = async_graphql::parser::parse_schema(sdl).ok()?;
        let mut fields = HashMap::new();
        for def in doc.definitions {
            if let async_graphql::parser::types::TypeSystemDefinition::Type(t) = def {
                let t = t.node;
                let fs = match t.kind {
                    TypeKind::Object(o) => o.fields,
                    TypeKind::Interface(i) => i.fields,
                    _ => continue,
                };
                let map = fs
                    .into_iter()
                    .map(|f| (f.node.name.node.to_string(), f.node.ty.node))
                    .collect();
                fields.insert(t.name.node.to_string(), map);
            }
        }
        Some(Nulls { fields })
    }

    /// Applies the spec's propagation to `resp`, an answer to `query` (operation `operation`).
    pub fn propagate(&self, query: &str, operation: Option<&str>, resp: &mut Response) {
        if resp.errors.is_empty() || resp.data == Value::Null {
            return;
        }
        let Ok(doc) = async_graphql::parser::parse_query(query) else {
            return;
        };
        let Some((root, set)) = root_of(&doc, operation) else {
            return;
        };
        let paths: Vec<Vec<PathSegment>> = resp.errors.iter().map(|e| e.path.clone()).collect();
        for path in paths.iter().filter(|p| !p.is_empty()) {
            let Some(nullable) = self.nullability(&doc, root, set, path) else {
                continue;
            };
            // The nearest nullable position at or above the failed field becomes null.
            match nullable.iter().rposition(|n| *n) {
                Some(i) => set_null(&mut resp.data, &path[..=i]),
                None => {
                    resp.data = Value::Null;
                    return;
                }
            }
        }
    }

    /// For each prefix of `path`, whether the value there may be null; `None` if the path does
    /// not follow the document.
    fn nullability(
        &self,
        doc: &ExecutableDocument,
        root: &str,
        set: &SelectionSet,
        path: &[PathSegment],
    ) -> Option<Vec<bool>> {
        let mut out = Vec::with_capacity(path.len());
        let mut sets: Vec<(String, &SelectionSet)> = vec![(root.to_string(), set)];
        let mut ty: Option<Type> = None;
        for seg in path {
            match seg {
                PathSegment::Field(key) => {
                    let mut found = None;
                    let mut next = Vec::new();
                    for (owner, s) in &sets {
                        for (name, cond, sub) in fields_with_key(doc, s, key) {
                            let owner = cond.unwrap_or(owner.as_str());
                            let Some(t) = self.fields.get(owner).and_then(|f| f.get(name)) else {
                                continue;
                            };
                            found.get_or_insert_with(|| t.clone());
                            next.push((named(t).to_string(), sub));
                        }
                    }
                    let t = found?;
                    out.push(t.nullable);
                    ty = Some(t);
                    sets = next;
                }
                PathSegment::Index(_) => {
                    let BaseType::List(item) = &ty.as_ref()?.base else {
                        return None;
                    };
                    let item = (**item).clone();
                    out.push(item.nullable);
                    ty = Some(item);
                }
            }
        }
        Some(out)
    }
}

/// The root type and selection set of the operation that ran.
fn root_of<'d>(
    doc: &'d ExecutableDocument,
    operation: Option<&str>,
) -> Option<(&'static str, &'d SelectionSet)> {
    let op = match (&doc.operations, operation) {
        (DocumentOperations::Single(op), _) => &op.node,
        (DocumentOperations::Multiple(ops), Some(name)) => &ops.get(name)?.node,
        (DocumentOperations::Multiple(ops), None) if ops.len() == 1 => &ops.values().next()?.node,
        _ => return None,
    };
    use async_graphql::parser::types::OperationType as T;
    let root = match op.ty {
        T::Query => "Query",
        T::Mutation => "Mutation",
        T::Subscription => "Subscription",
    };
    Some((root, &op.selection_set.node))
}

/// The fields of `set` answered under response key `key`: (field name, type condition of the
/// fragment it is in, if any, its selection set), through fragments of any depth.
fn fields_with_key<'d>(
    doc: &'d ExecutableDocument,
    set: &'d SelectionSet,
    key: &str,
) -> Vec<(&'d str, Option<&'d str>, &'d SelectionSet)> {
    let mut out = Vec::new();
    collect(doc, set, key, None, &mut out, 0);
    out
}

fn collect<'d>(
    doc: &'d ExecutableDocument,
    set: &'d SelectionSet,
    key: &str,
    cond: Option<&'d str>,
    out: &mut Vec<(&'d str, Option<&'d str>, &'d SelectionSet)>,
    depth: usize,
) {
    // Fragments cannot cycle in a valid document; the bound keeps an invalid one finite.
    if depth > 64 {
        return;
    }
    for item in &set.items {
        match &item.node {
            Selection::Field(f) => {
                let f = &f.node;
                if f.response_key().node.as_str() == key {
                    out.push((f.name.node.as_str(), cond, &f.selection_set.node));
                }
            }
            Selection::InlineFragment(fr) => {
                let c = fr
                    .node
                    .type_condition
                    .as_ref()
                    .map(|t| t.node.on.node.as_str())
                    .or(cond);
                collect(doc, &fr.node.selection_set.node, key, c, out, depth + 1);
            }
            Selection::FragmentSpread(sp) => {
                if let Some(fr) = doc.fragments.get(&sp.node.fragment_name.node) {
                    let c = Some(fr.node.type_condition.node.on.node.as_str());
                    collect(doc, &fr.node.selection_set.node, key, c, out, depth + 1);
                }
            }
        }
    }
}

/// The named type under list wrappers.
fn named(t: &Type) -> &str {
    match &t.base {
        BaseType::Named(n) => n.as_str(),
        BaseType::List(inner) => named(inner),
    }
}

/// Sets the value at `path` to null (when its parent is there).
fn set_null(data: &mut Value, path: &[PathSegment]) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = data;
    for seg in parents {
        at = match (seg, at) {
            (PathSegment::Field(k), Value::Object(m)) => match m.get_mut(k.as_str()) {
                Some(v) => v,
                None => return,
            },
            (PathSegment::Index(i), Value::List(l)) => match l.get_mut(*i) {
                Some(v) => v,
                None => return,
            },
            _ => return, // an ancestor is already null
        };
    }
    match (last, at) {
        (PathSegment::Field(k), Value::Object(m)) => {
            m.insert(async_graphql::Name::new(k), Value::Null);
        }
        (PathSegment::Index(i), Value::List(l)) => {
            if let Some(v) = l.get_mut(*i) {
                *v = Value::Null;
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use async_graphql::ServerError;

    const SDL: &str = "type Query { game(id: ID!): Game rules: [Rules!]! }
        type Game { id: ID! position(ply: Int): Position! moves: [Move!]! note: String }
        type Position { ply: Int! board: Board! }
        type Move { ply: Int! }
        type Rules { kind: String! }
        union Board = A | B
        type A { a: Int! }
        type B { b: Int }";

    fn answer(query: &str, data: serde_json::Value, path: &[&str]) -> serde_json::Value {
        let nulls = Nulls::from_sdl(SDL).unwrap();
        let mut resp = Response::new(Value::from_json(data).unwrap());
        let mut e = ServerError::new("boom", None);
        e.path = path
            .iter()
            .map(|s| match s.parse::<usize>() {
                Ok(i) => PathSegment::Index(i),
                Err(_) => PathSegment::Field(s.to_string()),
            })
            .collect();
        resp.errors.push(e);
        nulls.propagate(query, None, &mut resp);
        resp.data.into_json().unwrap()
    }

    #[test]
    fn a_failed_non_null_field_nulls_the_nearest_nullable_parent() {
        let q = "{ game(id: 1) { id position { ply } } rules { kind } }";
        let data = serde_json::json!({ "game": { "id": "1" }, "rules": [] });
        assert_eq!(
            answer(q, data, &["game", "position"]),
            serde_json::json!({ "game": null, "rules": [] })
        );
    }

    #[test]
    fn a_failed_nullable_field_is_null_and_aliases_and_fragments_are_followed() {
        let q = "{ g: game(id: 1) { ...F } } fragment F on Game { id n: note }";
        let data = serde_json::json!({ "g": { "id": "1" } });
        assert_eq!(
            answer(q, data, &["g", "n"]),
            serde_json::json!({ "g": { "id": "1", "n": null } })
        );
    }

    #[test]
    fn list_items_and_union_members_are_typed() {
        // A non-null item of a non-null list inside a nullable game: the game goes.
        let q = "{ game(id: 1) { moves { ply } } }";
        let data = serde_json::json!({ "game": { "moves": [{ "ply": 1 }, {}] } });
        assert_eq!(
            answer(q, data, &["game", "moves", "1", "ply"]),
            serde_json::json!({ "game": null })
        );
        // A nullable field of a union member: only it.
        let q = "{ game(id: 1) { position { board { ... on B { b } ... on A { a } } } } }";
        let data = serde_json::json!({ "game": { "position": { "board": {} } } });
        assert_eq!(
            answer(q, data, &["game", "position", "board", "b"]),
            serde_json::json!({ "game": { "position": { "board": { "b": null } } } })
        );
    }

    #[test]
    fn a_non_null_root_field_nulls_data() {
        let q = "{ rules { kind } }";
        assert_eq!(
            answer(q, serde_json::json!({}), &["rules"]),
            serde_json::Value::Null
        );
    }
}
