//! The document a [`Program`] builds: its spreads resolved, and its text.
//!
//! [`Program::resolve`] expands each group into its fragments and resolves every spread to a
//! fragment's index (a relative spread falling outside the fragments is left out; a selection
//! set left empty gets a `__typename`, so every document is valid syntax). [`Doc::render`]
//! writes the text; `count` says what the oracle makes of it.

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
    let (head, tail, _, _) = FIELDS[kind as usize % FIELDS.len()];
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
}
