//! The document a [`Program`] builds: its spreads resolved, its text, and the oracle's count.
//!
//! [`Program::resolve`] expands each group into its fragments and resolves every spread to a
//! fragment's index (a relative spread falling outside the fragments is left out; a selection
//! set left empty gets a `__typename`, so every document is valid syntax). [`Doc::render`]
//! writes the text. [`Doc::count`] is the oracle the target checks the guard against: the
//! fields the document selects once every spread is expanded — each operation's and each
//! fragment definition's, added up, as `Limits::max_fields` is defined — worked out from the
//! program's own structure (never from the text, never by `api::limits`), memoized per
//! fragment in post-order over the spread graph with an explicit stack, so a chain of
//! thousands of spreads needs no deep recursion. A spread reaching a fragment still on the
//! walk's path is a cycle.

use super::program::{Dir, Item, On, OpKind, Program, To, FIELDS};

/// A selection with its spread resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sel {
    Field {
        kind: u8,
        dir: Dir,
        alias: Option<u8>,
    },
    Repeat {
        kind: u8,
        count: u32,
    },
    /// `Some(i)`: `...F<i>`; `None`: `...Missing`.
    Spread {
        to: Option<usize>,
        dir: Dir,
    },
    Inline {
        typed: bool,
        dir: Dir,
        body: Vec<Sel>,
    },
}

/// The document a program builds.
#[derive(Debug, Clone)]
pub struct Doc {
    /// Each fragment's type condition and body; fragment `i` is `F<i>`.
    pub fragments: Vec<(On, Vec<Sel>)>,
    /// Operation `i` is `Q<i>` where it has a name.
    pub operations: Vec<(OpKind, Vec<Sel>)>,
    /// The operation name the request sends.
    pub operation_name: Option<String>,
}

/// What the oracle says of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Count {
    /// Fields selected once every spread is expanded, operations and fragment definitions
    /// together (saturating; meaningless where there is a cycle).
    pub fields: u64,
    /// Spreads in the expanded document, likewise.
    pub spreads: u64,
    /// Spreads in the operations' expansions alone (what a walk from the operations meets).
    pub op_spreads: u64,
    /// The longest path of spreads anywhere in the document (a spread of an undefined
    /// fragment ends one).
    pub longest: u64,
    /// Some fragment reaches itself through spreads (reachable from an operation or not).
    pub cycle: bool,
    /// Some spread names a fragment the document does not define.
    pub missing: bool,
    /// Aliased fields as written (the guard's alias limit counts these).
    pub aliases: usize,
    /// Deepest nesting of inline fragments.
    pub inline_depth: usize,
    /// The parser accepts the operations: one, or all named (names are unique by construction).
    pub parses: bool,
}

fn resolve_to(to: To, base: i64, n: usize) -> Option<Option<usize>> {
    match to {
        To::Missing => Some(None),
        To::Rel(off) => {
            let j = base + i64::from(off);
            if (0..n as i64).contains(&j) {
                Some(Some(j as usize))
            } else {
                None
            }
        }
        To::Abs(k) if n > 0 => Some(Some(k as usize % n)),
        To::Abs(_) => None,
    }
}

fn resolve_body(body: &[Item], base: i64, n: usize) -> Vec<Sel> {
    let mut out: Vec<Sel> = body
        .iter()
        .filter_map(|item| match item {
            Item::Field { kind, dir } => Some(Sel::Field {
                kind: *kind,
                dir: *dir,
                alias: None,
            }),
            Item::Alias { kind, alias } => Some(Sel::Field {
                kind: *kind,
                dir: Dir::None,
                alias: Some(*alias),
            }),
            Item::Repeat { kind, count } => Some(Sel::Repeat {
                kind: *kind,
                count: *count,
            }),
            Item::Spread { to, dir } => {
                resolve_to(*to, base, n).map(|to| Sel::Spread { to, dir: *dir })
            }
            Item::Inline { typed, dir, body } => Some(Sel::Inline {
                typed: *typed,
                dir: *dir,
                body: resolve_body(body, base, n),
            }),
        })
        .collect();
    if out.is_empty() {
        out.push(Sel::Field {
            kind: 0,
            dir: Dir::None,
            alias: None,
        });
    }
    out
}

impl Program {
    /// The document, spreads resolved.
    pub fn resolve(&self) -> Doc {
        let n = self.fragment_count();
        let mut fragments = Vec::with_capacity(n);
        for g in &self.groups {
            for _ in 0..g.repeat {
                let base = fragments.len() as i64;
                fragments.push((g.on, resolve_body(&g.body, base, n)));
            }
        }
        let operations = self
            .operations
            .iter()
            .map(|o| (o.kind, resolve_body(&o.body, 0, n)))
            .collect();
        Doc {
            fragments,
            operations,
            operation_name: (self.pick > 0).then(|| format!("Q{}", self.pick - 1)),
        }
    }
}

fn dir_text(s: &mut String, d: Dir) {
    match d {
        Dir::None => {}
        Dir::Include(b) => s.push_str(&format!(" @include(if: {b})")),
        Dir::Skip(b) => s.push_str(&format!(" @skip(if: {b})")),
    }
}

fn field_text(s: &mut String, kind: u8, dir: Dir) {
    let (head, tail, _) = FIELDS[kind as usize % FIELDS.len()];
    s.push_str(head);
    dir_text(s, dir);
    s.push_str(tail);
}

fn render_body(s: &mut String, body: &[Sel]) {
    s.push('{');
    for sel in body {
        s.push(' ');
        match sel {
            Sel::Field { kind, dir, alias } => {
                if let Some(a) = alias {
                    s.push_str(&format!("a{a}: "));
                }
                field_text(s, *kind, *dir);
            }
            Sel::Repeat { kind, count } => {
                for i in 0..*count {
                    if i > 0 {
                        s.push(' ');
                    }
                    field_text(s, *kind, Dir::None);
                }
            }
            Sel::Spread { to, dir } => {
                match to {
                    Some(i) => s.push_str(&format!("...F{i}")),
                    None => s.push_str("...Missing"),
                }
                dir_text(s, *dir);
            }
            Sel::Inline { typed, dir, body } => {
                s.push_str(if *typed { "... on Query" } else { "..." });
                dir_text(s, *dir);
                s.push(' ');
                render_body(s, body);
            }
        }
    }
    s.push_str(" }");
}

/// A body's own fields and spreads (inline fragments looked into), where its spreads go.
#[derive(Default)]
struct Own {
    fields: u64,
    spreads: u64,
    targets: Vec<usize>,
    missing: bool,
    aliases: usize,
    depth: usize,
}

fn own(body: &[Sel], o: &mut Own, depth: usize) {
    o.depth = o.depth.max(depth);
    for sel in body {
        match sel {
            Sel::Field { kind, alias, .. } => {
                o.fields += u64::from(FIELDS[*kind as usize % FIELDS.len()].2);
                o.aliases += usize::from(alias.is_some());
            }
            Sel::Repeat { kind, count } => {
                o.fields += u64::from(FIELDS[*kind as usize % FIELDS.len()].2) * u64::from(*count);
            }
            Sel::Spread { to, .. } => {
                o.spreads += 1;
                match to {
                    Some(t) => o.targets.push(*t),
                    None => o.missing = true,
                }
            }
            Sel::Inline { body, .. } => own(body, o, depth + 1),
        }
    }
}

fn of(body: &[Sel]) -> Own {
    let mut o = Own::default();
    own(body, &mut o, 0);
    o
}

/// Where a body's spreads lead, expanded: (fields, spreads, longest path of spreads), adding
/// what each spread target's expansion holds (`size`, for targets already worked out).
fn expand(o: &Own, size: &[(u64, u64, u64)], done: impl Fn(usize) -> bool) -> (u64, u64, u64) {
    let mut total = (o.fields, o.spreads, u64::from(o.missing));
    for &t in &o.targets {
        if done(t) {
            total.0 = total.0.saturating_add(size[t].0);
            total.1 = total.1.saturating_add(size[t].1);
            total.2 = total.2.max(1 + size[t].2);
        } else {
            total.2 = total.2.max(1);
        }
    }
    total
}

impl Doc {
    /// The request text: the operations, then the fragments.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for (i, (kind, body)) in self.operations.iter().enumerate() {
            if !s.is_empty() {
                s.push(' ');
            }
            match kind {
                OpKind::Shorthand => {}
                OpKind::Anonymous => s.push_str("query "),
                OpKind::Named => s.push_str(&format!("query Q{i} ")),
                OpKind::Mutation => s.push_str(&format!("mutation Q{i} ")),
                OpKind::Subscription => s.push_str(&format!("subscription Q{i} ")),
            }
            render_body(&mut s, body);
        }
        for (i, (on, body)) in self.fragments.iter().enumerate() {
            let on = match on {
                On::Query => "Query",
                On::Game => "Game",
                On::Mutation => "Mutation",
                On::Nope => "Nope",
            };
            s.push_str(&format!(" fragment F{i} on {on} "));
            render_body(&mut s, body);
        }
        s
    }

    /// The oracle's count.
    pub fn count(&self) -> Count {
        let own: Vec<Own> = self.fragments.iter().map(|(_, b)| of(b)).collect();
        let n = own.len();
        // 0: not reached yet, 1: on the walk's path, 2: its expanded size is known.
        let mut state = vec![0u8; n];
        let mut size = vec![(0u64, 0u64, 0u64); n];
        let mut cycle = false;
        for root in 0..n {
            if state[root] != 0 {
                continue;
            }
            state[root] = 1;
            let mut stack = vec![(root, 0usize)];
            while let Some(&(v, next)) = stack.last() {
                if let Some(&t) = own[v].targets.get(next) {
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
        let mut c = Count {
            cycle,
            parses: self.operations.len() == 1
                || self
                    .operations
                    .iter()
                    .all(|(k, _)| !matches!(k, OpKind::Shorthand | OpKind::Anonymous)),
            ..Count::default()
        };
        let ops: Vec<Own> = self.operations.iter().map(|(_, b)| of(b)).collect();
        for o in ops.iter().chain(&own) {
            c.missing |= o.missing;
            c.aliases += o.aliases;
            c.inline_depth = c.inline_depth.max(o.depth);
        }
        for o in &ops {
            let (fields, spreads, longest) = expand(o, &size, |_| true);
            c.fields = c.fields.saturating_add(fields);
            c.op_spreads = c.op_spreads.saturating_add(spreads);
            c.longest = c.longest.max(longest);
        }
        c.spreads = c.op_spreads;
        for s in &size {
            c.fields = c.fields.saturating_add(s.0);
            c.spreads = c.spreads.saturating_add(s.1);
            c.longest = c.longest.max(s.2);
        }
        c
    }
}
