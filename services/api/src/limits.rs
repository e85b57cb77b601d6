//! The limits every request is held to, and the checks that run before any recursive parse.
//!
//! async-graphql's parser recurses on nested values (`[[[…]]]`, `{a: {a: …}}`): about 1,500
//! levels overflow a worker's stack and abort the whole process. So the query text's nesting is
//! measured first, by a flat scan that understands strings, block strings and comments, and a
//! request nested deeper than `max_nesting` is refused before anything parses it. Variables are
//! JSON, parsed by serde_json (which stops at 128 levels) and then checked against the same
//! bound. Aliases are counted on the parsed document, since each one asks for a field's work
//! again; what a field really costs is the schema's complexity (see `schema` and `objects`).

use async_graphql::parser::types::{ExecutableDocument, Selection, SelectionSet};
use async_graphql::Value;
use std::time::Duration;

/// The request limits (all configurable, see `ludolog serve --help`).
#[derive(Debug, Clone)]
pub struct Limits {
    /// Deepest bracket nesting (`{`, `[`, `(`) of a query text or variables value.
    pub max_nesting: usize,
    /// Deepest selection set (async-graphql's depth limit).
    pub max_depth: usize,
    /// Most complexity points a request may cost (each field states its cost).
    pub max_complexity: usize,
    /// Most aliased fields in one request.
    pub max_aliases: usize,
    /// Largest response body, in bytes.
    pub max_response_bytes: usize,
    /// Largest request body, in bytes.
    pub max_body: usize,
    /// Longest a request may take.
    pub timeout: Duration,
    /// Requests per second one client (by address) may make, sustained; 0 turns it off.
    pub rate_per_second: u32,
    /// Requests one client may make at once above the sustained rate.
    pub rate_burst: u32,
    /// Most requests in one batch.
    pub max_batch: usize,
    /// Most selections (fields, spreads and inline fragments) a document's operations hold once
    /// every fragment spread is expanded, checked before validation (see `shape`).
    pub max_selections: usize,
    /// Deepest selection set once spreads are expanded, a level per field with a selection
    /// set, per spread and per inline fragment (async-graphql's recursion limit, checked
    /// before validation too).
    pub max_recursion: usize,
    /// Longest a connection may take to send a request's head (and to send the next one on a
    /// kept-alive connection).
    pub header_timeout: Duration,
    /// Most open connections in total, and from one client address.
    pub max_connections: usize,
    pub max_connections_per_addr: usize,
    /// Most open WebSockets in total, and from one client address.
    pub max_sockets: usize,
    pub max_sockets_per_addr: usize,
    /// Most operations running at once on one WebSocket.
    pub max_socket_operations: usize,
    /// Longest a WebSocket may stay open without `connection_init` (then closed with 4408).
    pub socket_init_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_nesting: 64,
            max_depth: 16,
            max_complexity: 10_000,
            max_aliases: 64,
            max_response_bytes: 16 << 20,
            max_body: 8 << 20,
            timeout: Duration::from_secs(30),
            rate_per_second: 200,
            rate_burst: 400,
            max_batch: 16,
            max_selections: 2_000,
            max_recursion: 32,
            header_timeout: Duration::from_secs(10),
            max_connections: 2_048,
            max_connections_per_addr: 256,
            max_sockets: 1_024,
            max_sockets_per_addr: 64,
            max_socket_operations: 64,
            socket_init_timeout: Duration::from_secs(5),
        }
    }
}

/// The deepest bracket nesting of a GraphQL text, ignoring brackets in strings and comments.
/// Stops counting as soon as `limit` is passed (returns `limit + 1`), so its cost is one pass.
pub fn text_nesting(text: &str, limit: usize) -> usize {
    let b = text.as_bytes();
    let (mut i, mut depth, mut max) = (0, 0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'#' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            b'"' if b[i..].starts_with(b"\"\"\"") => {
                // Block string: ends at the next unescaped `"""` (`\"""` is an escape).
                i += 3;
                while i < b.len() && !b[i..].starts_with(b"\"\"\"") {
                    i += if b[i..].starts_with(b"\\\"\"\"") {
                        4
                    } else {
                        1
                    };
                }
                i += 2;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' | b'[' | b'(' => {
                depth += 1;
                if depth > max {
                    max = depth;
                    if max > limit {
                        return max;
                    }
                }
            }
            b'}' | b']' | b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    max
}

/// The deepest nesting of a value (lists and objects), stopping past `limit`.
pub fn value_nesting(v: &Value, limit: usize) -> usize {
    // Iterative, so that the check itself cannot be the thing that overflows.
    let mut max = 0;
    let mut stack: Vec<(&Value, usize)> = vec![(v, 0)];
    while let Some((v, d)) = stack.pop() {
        match v {
            Value::List(items) => {
                max = max.max(d + 1);
                stack.extend(items.iter().map(|x| (x, d + 1)));
            }
            Value::Object(fields) => {
                max = max.max(d + 1);
                stack.extend(fields.values().map(|x| (x, d + 1)));
            }
            _ => {}
        }
        if max > limit {
            return max;
        }
    }
    max
}

/// The number of aliased fields in a parsed document (operations and fragments alike).
pub fn alias_count(doc: &ExecutableDocument) -> usize {
    let mut count = 0;
    let mut sets: Vec<&SelectionSet> = doc
        .operations
        .iter()
        .map(|(_, op)| &op.node.selection_set.node)
        .chain(doc.fragments.values().map(|f| &f.node.selection_set.node))
        .collect();
    while let Some(set) = sets.pop() {
        for item in &set.items {
            match &item.node {
                Selection::Field(f) => {
                    count += usize::from(f.node.alias.is_some());
                    sets.push(&f.node.selection_set.node);
                }
                Selection::InlineFragment(f) => sets.push(&f.node.selection_set.node),
                Selection::FragmentSpread(_) => {}
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_counts_brackets_outside_strings_and_comments() {
        assert_eq!(text_nesting("{ a }", 64), 1);
        assert_eq!(text_nesting("{ a(x: [[1]]) { b } }", 64), 4);
        assert_eq!(text_nesting("{ a(x: \"[[[[[[\") }", 64), 2);
        assert_eq!(text_nesting("{ a(x: \"\\\"[[[\") }", 64), 2);
        assert_eq!(
            text_nesting("{ a(x: \"\"\"[[[ \\\"\"\" [[ \"\"\") }", 64),
            2
        );
        assert_eq!(text_nesting("# [[[[[\n{ a }", 64), 1);
        let deep = format!(
            "{{ games(first: {}1{}) {{ id }} }}",
            "[".repeat(2000),
            "]".repeat(2000)
        );
        assert_eq!(text_nesting(&deep, 64), 65, "stops just past the limit");
    }

    #[test]
    fn value_nesting_is_iterative_and_bounded() {
        let mut v = Value::Number(1.into());
        for _ in 0..100_000 {
            v = Value::List(vec![v]);
        }
        assert_eq!(value_nesting(&v, 64), 65);
        // Dropping a value this deep would itself recurse: unwrap it by hand.
        while let Value::List(mut items) = v {
            v = items.pop().unwrap_or(Value::Null);
        }
    }
}
