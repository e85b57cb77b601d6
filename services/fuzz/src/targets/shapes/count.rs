//! The oracle: what a [`Doc`] comes to once every spread is expanded, as the guard's limits are
//! defined (`api::shape`), worked out from the program's own structure — never from the text,
//! never by `api` — so that the target can check the guard against it.
//!
//! Each fragment's expansion is memoized in post-order over the spread graph with an explicit
//! stack, so a chain of thousands of spreads needs no deep recursion; a spread reaching a
//! fragment still on the walk's path is a cycle. The operations' expansions are added up; a
//! fragment no operation reaches is unused.

use super::doc::{Doc, Sel};
use super::program::{OpKind, FIELDS};

/// What the oracle says of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Count {
    /// Selections (fields, spreads, inline fragments) once every spread is expanded, the
    /// operations' added up (saturating; meaningless where there is a cycle).
    pub selections: u64,
    /// Fields among them.
    pub fields: u64,
    /// Spreads among them.
    pub spreads: u64,
    /// The deepest selection set of the operations' expansions: a level per field with a
    /// selection set, per spread of a defined fragment and per inline fragment.
    pub depth: u64,
    /// Some fragment reaches itself through spreads (reachable from an operation or not).
    pub cycle: bool,
    /// Some fragment is reached from no operation.
    pub unused: bool,
    /// Some spread names a fragment the document does not define.
    pub missing: bool,
    /// Aliased fields as written (the guard's alias limit counts these).
    pub aliases: usize,
    /// Deepest nesting of inline fragments as written.
    pub inline_depth: usize,
    /// The parser accepts the operations: one, or all named (names are unique by construction).
    pub parses: bool,
}

/// What a body comes to with every spread expanded (saturating).
#[derive(Debug, Clone, Copy, Default)]
struct Expansion {
    selections: u64,
    fields: u64,
    spreads: u64,
    depth: u64,
}

/// A body as written, its spreads not followed.
#[derive(Default)]
struct Own {
    base: Expansion,
    /// Each defined spread's target and the level of the set it sits in (the body's is 0).
    targets: Vec<(usize, u64)>,
    missing: bool,
    aliases: usize,
    inline_depth: usize,
}

fn own(body: &[Sel], o: &mut Own, level: u64, inline: usize) {
    o.inline_depth = o.inline_depth.max(inline);
    for sel in body {
        match sel {
            Sel::Field { kind, alias, .. } => {
                let (_, _, fields, depth) = FIELDS[*kind as usize % FIELDS.len()];
                o.base.selections += u64::from(fields);
                o.base.fields += u64::from(fields);
                o.base.depth = o.base.depth.max(level + u64::from(depth));
                o.aliases += usize::from(alias.is_some());
            }
            Sel::Repeat { kind, count } => {
                let (_, _, fields, depth) = FIELDS[*kind as usize % FIELDS.len()];
                let n = u64::from(fields) * u64::from(*count);
                o.base.selections += n;
                o.base.fields += n;
                if *count > 0 {
                    o.base.depth = o.base.depth.max(level + u64::from(depth));
                }
            }
            Sel::Spread { to, .. } => {
                o.base.selections += 1;
                o.base.spreads += 1;
                match to {
                    Some(t) => o.targets.push((*t, level)),
                    None => o.missing = true,
                }
            }
            Sel::Inline { body, .. } => {
                o.base.selections += 1;
                o.base.depth = o.base.depth.max(level + 1);
                own(body, o, level + 1, inline + 1);
            }
        }
    }
}

fn of(body: &[Sel]) -> Own {
    let mut o = Own::default();
    own(body, &mut o, 0, 0);
    o
}

/// A body's expansion: its own, and each spread target's (`size`, for the targets `done`).
fn expand(o: &Own, size: &[Expansion], done: impl Fn(usize) -> bool) -> Expansion {
    let mut e = o.base;
    for &(t, level) in &o.targets {
        if done(t) {
            let x = size[t];
            e.selections = e.selections.saturating_add(x.selections);
            e.fields = e.fields.saturating_add(x.fields);
            e.spreads = e.spreads.saturating_add(x.spreads);
            e.depth = e.depth.max(level.saturating_add(1).saturating_add(x.depth));
        }
    }
    e
}

impl Doc {
    /// The oracle's count.
    pub fn count(&self) -> Count {
        let own: Vec<Own> = self.fragments.iter().map(|(_, b)| of(b)).collect();
        let n = own.len();
        // 0: not reached yet, 1: on the walk's path, 2: its expansion is known.
        let mut state = vec![0u8; n];
        let mut size = vec![Expansion::default(); n];
        let mut cycle = false;
        for root in 0..n {
            if state[root] != 0 {
                continue;
            }
            state[root] = 1;
            let mut stack = vec![(root, 0usize)];
            while let Some(&(v, next)) = stack.last() {
                if let Some(&(t, _)) = own[v].targets.get(next) {
                    if let Some(top) = stack.last_mut() {
                        top.1 += 1;
                    }
                    match state[t] {
                        0 => {
                            state[t] = 1;
                            stack.push((t, 0));
                        }
                        1 => cycle = true,
                        _ => {}
                    }
                    continue;
                }
                size[v] = expand(&own[v], &size, |t| state[t] == 2);
                state[v] = 2;
                stack.pop();
            }
        }
        let ops: Vec<Own> = self.operations.iter().map(|(_, b)| of(b)).collect();
        // Reached from an operation.
        let mut reached = vec![false; n];
        let mut todo: Vec<usize> = ops
            .iter()
            .flat_map(|o| o.targets.iter().map(|&(t, _)| t))
            .collect();
        while let Some(t) = todo.pop() {
            if !reached[t] {
                reached[t] = true;
                todo.extend(own[t].targets.iter().map(|&(t, _)| t));
            }
        }
        let mut c = Count {
            cycle,
            unused: reached.iter().any(|r| !r),
            parses: self.operations.len() == 1
                || self
                    .operations
                    .iter()
                    .all(|(k, _)| !matches!(k, OpKind::Shorthand | OpKind::Anonymous)),
            ..Count::default()
        };
        for o in ops.iter().chain(&own) {
            c.missing |= o.missing;
            c.aliases += o.aliases;
            c.inline_depth = c.inline_depth.max(o.inline_depth);
        }
        for o in &ops {
            let e = expand(o, &size, |_| true);
            c.selections = c.selections.saturating_add(e.selections);
            c.fields = c.fields.saturating_add(e.fields);
            c.spreads = c.spreads.saturating_add(e.spreads);
            c.depth = c.depth.max(e.depth);
        }
        c
    }
}
