//! What a document comes to once every fragment spread is expanded, worked out before
//! validation so that validation's own cost is bounded.
//!
//! async-graphql's recursion-depth check, validation and the complexity check all walk a
//! document through its spreads, and none of them bounds what it walks: thirty fragments each
//! spreading the next twice are 2^30 selections; a chain of fragments that no operation spreads
//! is still walked, recursively, from every selection set of every definition
//! (`OverlappingFieldsCanBeMerged`), so a few thousand of them overflow a worker's stack and
//! abort the process, and a thousand wrapped in inline fragments cost seconds of CPU. So before
//! any of that runs, [`shape`] refuses a spread cycle and a fragment no operation reaches, and
//! measures the operations' expansion: its [`Shape::selections`] (fields, spreads and inline
//! fragments alike) and its [`Shape::depth`] (as async-graphql's recursion check counts it).
//! With every fragment reached, both bounded, every walk validation makes is bounded too: a
//! selection set's walk covers at most what its expansion holds, and each selection of the
//! expansion lies inside at most `depth` sets.
//!
//! Linear in the document however the spreads fan out: each fragment's expansion is worked out
//! once, in post-order over the spread graph, on a stack of its own (a chain of twenty
//! thousand spreads is fine), and sizes saturate at `usize::MAX`.

use async_graphql::parser::types::{ExecutableDocument, Selection, SelectionSet};
use std::collections::{HashMap, HashSet};

/// The operations' expansion, added up over every operation in the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Selections once every spread is expanded: each field (nested ones included), each
    /// spread and each inline fragment counts one.
    pub selections: usize,
    /// The deepest selection set of the expansion, counted as async-graphql's recursion limit
    /// counts it: one level per field with a selection set, per spread and per inline fragment
    /// (an operation's own fields are level 0).
    pub depth: usize,
}

/// Why a document has no shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Malformed {
    /// This fragment reaches itself through spreads.
    Cycle(String),
    /// No operation reaches this fragment (validation would refuse it, after walking it).
    Unused(String),
}

/// A definition's body, its spreads not followed.
struct Own<'a> {
    /// Every selection in it, nested ones included.
    selections: usize,
    /// Its deepest set, spreads not followed.
    depth: usize,
    /// Each spread's target and the level of the set it sits in (the body's own set is 0).
    spreads: Vec<(&'a str, usize)>,
}

/// One body, walked on a stack of its own.
fn own(set: &SelectionSet) -> Own<'_> {
    let mut o = Own {
        selections: 0,
        depth: 0,
        spreads: Vec::new(),
    };
    let mut sets = vec![(set, 0usize)];
    while let Some((set, level)) = sets.pop() {
        for item in &set.items {
            o.selections += 1;
            match &item.node {
                Selection::Field(f) => {
                    let sub = &f.node.selection_set.node;
                    if !sub.items.is_empty() {
                        o.depth = o.depth.max(level + 1);
                        sets.push((sub, level + 1));
                    }
                }
                Selection::InlineFragment(f) => {
                    o.depth = o.depth.max(level + 1);
                    sets.push((&f.node.selection_set.node, level + 1));
                }
                Selection::FragmentSpread(s) => {
                    o.spreads.push((s.node.fragment_name.node.as_str(), level));
                }
            }
        }
    }
    o
}

/// A body's expansion, given its spread targets' (an undefined target adds only its spread,
/// already counted, as the recursion check skips it).
fn expand(o: &Own, done: &HashMap<&str, Shape>) -> Shape {
    let mut s = Shape {
        selections: o.selections,
        depth: o.depth,
    };
    for (name, level) in &o.spreads {
        if let Some(t) = done.get(name) {
            s.selections = s.selections.saturating_add(t.selections);
            s.depth = s.depth.max(level.saturating_add(1).saturating_add(t.depth));
        }
    }
    s
}

/// The operations' expansion, or why there is none (a cycle is reported before an unused
/// fragment).
pub fn shape(doc: &ExecutableDocument) -> Result<Shape, Malformed> {
    let bodies: HashMap<&str, Own> = doc
        .fragments
        .iter()
        .map(|(name, f)| (name.as_str(), own(&f.node.selection_set.node)))
        .collect();
    // Post-order over the whole spread graph, used fragments or not: a cycle anywhere is named.
    let mut done: HashMap<&str, Shape> = HashMap::with_capacity(bodies.len());
    let mut on_path: HashSet<&str> = HashSet::new();
    let mut names: Vec<&str> = bodies.keys().copied().collect();
    names.sort_unstable(); // the same fragment named on every run
    for root in names {
        let mut stack = vec![(root, false)];
        while let Some((name, expanded)) = stack.pop() {
            let Some(body) = bodies.get(name) else {
                continue; // undefined: validation says so, and it expands to nothing
            };
            if expanded {
                done.insert(name, expand(body, &done));
                on_path.remove(name);
                continue;
            }
            if done.contains_key(name) {
                continue;
            }
            on_path.insert(name);
            stack.push((name, true));
            for (s, _) in &body.spreads {
                if on_path.contains(s) {
                    return Err(Malformed::Cycle((*s).to_string()));
                }
                if !done.contains_key(s) {
                    stack.push((s, false));
                }
            }
        }
    }
    let ops: Vec<Own> = doc
        .operations
        .iter()
        .map(|(_, op)| own(&op.node.selection_set.node))
        .collect();
    // Every fragment must be reached from some operation.
    let mut reached: HashSet<&str> = HashSet::with_capacity(bodies.len());
    let mut todo: Vec<&str> = ops
        .iter()
        .flat_map(|o| o.spreads.iter().map(|(s, _)| *s))
        .collect();
    while let Some(name) = todo.pop() {
        if let Some(body) = bodies.get(name) {
            if reached.insert(name) {
                todo.extend(body.spreads.iter().map(|(s, _)| *s));
            }
        }
    }
    if let Some(unused) = doc
        .fragments
        .keys()
        .map(|n| n.as_str())
        .filter(|n| !reached.contains(n))
        .min()
    {
        return Err(Malformed::Unused(unused.to_string()));
    }
    Ok(ops.iter().map(|o| expand(o, &done)).fold(
        Shape {
            selections: 0,
            depth: 0,
        },
        |a, b| Shape {
            selections: a.selections.saturating_add(b.selections),
            depth: a.depth.max(b.depth),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(q: &str) -> Result<Shape, Malformed> {
        shape(&async_graphql::parser::parse_query(q).unwrap())
    }

    fn sel(q: &str) -> usize {
        of(q).unwrap().selections
    }

    fn depth(q: &str) -> usize {
        of(q).unwrap().depth
    }

    #[test]
    fn every_selection_counts_once_per_use() {
        assert_eq!(sel("{ a b { c } }"), 3);
        // The inline fragment counts too.
        assert_eq!(sel("{ a ... on Q { b c } }"), 4);
        // x, two spreads, and F's two fields twice.
        assert_eq!(sel("{ x ...F ...F } fragment F on Q { y z }"), 7);
        // A diamond: G is counted each time it is reached.
        let diamond = "{ ...A } fragment A on Q { ...B ...C } fragment B on Q { ...G } \
                       fragment C on Q { ...G } fragment G on Q { g }";
        // ...A, A's two spreads, B's and C's spread of G, G's field twice.
        assert_eq!(sel(diamond), 1 + 2 + 2 + 2);
        // An undefined fragment's spread counts one, and nothing more.
        assert_eq!(sel("{ a ...Missing }"), 2);
        // Operations add up.
        assert_eq!(sel("query A { a } query B { b c }"), 3);
    }

    #[test]
    fn depth_is_counted_as_the_recursion_check_counts_it() {
        assert_eq!(depth("{ a }"), 0);
        assert_eq!(depth("{ a { b } }"), 1);
        assert_eq!(depth("{ a { b { c } } d }"), 2);
        assert_eq!(depth("{ ... { a } }"), 1);
        assert_eq!(depth("{ ...F } fragment F on Q { a }"), 1);
        assert_eq!(depth("{ a { ...F } } fragment F on Q { b { c } }"), 3);
        // An undefined fragment is skipped by the recursion check: no level.
        assert_eq!(depth("{ ...Missing }"), 0);
        // The deepest path, through a diamond and inline fragments.
        let q = "{ ...A } fragment A on Q { ... { ...B } ...C } fragment B on Q { ...G } \
                 fragment C on Q { ...G } fragment G on Q { g { h } }";
        assert_eq!(depth(q), 5);
    }

    #[test]
    fn it_agrees_with_async_graphql_s_recursion_limit() {
        use async_graphql::{EmptyMutation, EmptySubscription, Object, Schema};
        struct Q;
        #[Object]
        impl Q {
            async fn a(&self) -> i32 {
                1
            }
            async fn q(&self) -> Q {
                Q
            }
        }
        let schema = Schema::build(Q, EmptyMutation, EmptySubscription)
            .limit_recursive_depth(4)
            .finish();
        let queries = [
            "{ q { q { q { q { a } } } } }",
            "{ q { q { q { q { q { a } } } } } }",
            "{ ... { ... { ...F } } } fragment F on Q { q { a } }",
            "{ ... { ... { ...F } } } fragment F on Q { q { q { a } } }",
            "{ q { ...F } } fragment F on Q { q { ... { a } } }",
            "{ q { ...F } } fragment F on Q { q { ... { q { a } } } }",
        ];
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        for q in queries {
            let refused = rt
                .block_on(schema.execute(q))
                .errors
                .iter()
                .any(|e| e.message.contains("recursion depth"));
            assert_eq!(depth(q) > 4, refused, "{q}: depth {}", depth(q));
        }
    }

    #[test]
    fn a_fan_out_of_thirty_levels_is_counted_at_once_and_saturates_past_usize() {
        let mut q = String::from("{ ...F0 }");
        for i in 0..30 {
            q += &format!(" fragment F{i} on Query {{ ...F{} ...F{} }}", i + 1, i + 1);
        }
        // Ending in fields, or in a fragment no one defines: the spreads alone are 2^31.
        let start = std::time::Instant::now();
        let n = sel(&(q.clone() + " fragment F30 on Query { __typename rules { kind } }"));
        assert!(n >= 3 << 30, "{n}");
        assert!(sel(&(q + " fragment F30 on Query { ...Missing }")) >= 1 << 31);
        assert!(start.elapsed() < std::time::Duration::from_secs(1));
        let mut q = String::from("{ ...F0 }");
        for i in 0..200 {
            q += &format!(" fragment F{i} on Query {{ ...F{} ...F{} }}", i + 1, i + 1);
        }
        q += " fragment F200 on Query { a }";
        assert_eq!(sel(&q), usize::MAX);
    }

    #[test]
    fn a_cycle_is_named_and_a_long_chain_does_not_recurse() {
        let cycle = of("{ ...A } fragment A on Q { ...B } fragment B on Q { a ...A }");
        assert!(
            matches!(&cycle, Err(Malformed::Cycle(n)) if n == "A" || n == "B"),
            "{cycle:?}"
        );
        assert!(matches!(
            of("{ a } fragment A on Q { ...A }"),
            Err(Malformed::Cycle(_))
        ));
        let mut q = String::from("{ ...F0 }");
        for i in 0..20_000 {
            q += &format!(" fragment F{i} on Q {{ a ... {{ ...F{} }} }}", i + 1);
        }
        q += " fragment F20000 on Q { a }";
        // Each fragment: its spread, a field, an inline fragment; the last one field.
        assert_eq!(
            of(&q),
            Ok(Shape {
                selections: 1 + 20_000 * 3 + 1,
                depth: 2 * 20_000 + 1
            })
        );
    }

    #[test]
    fn a_fragment_no_operation_reaches_is_named() {
        assert_eq!(
            of("{ a } fragment B on Q { b } fragment A on Q { a }"),
            Err(Malformed::Unused("A".into()))
        );
        // Reached from another operation than the one a request names is reached.
        assert!(of("query X { a } query Y { ...A } fragment A on Q { a }").is_ok());
        // Reached only from a fragment no operation reaches: unused too.
        let chain = "{ a } fragment A on Q { ...B } fragment B on Q { b }";
        assert_eq!(of(chain), Err(Malformed::Unused("A".into())));
    }
}
