//! The program a `graphql-shapes` input is read as: its model, and its byte code.
//!
//! A [`Program`] is fragment *groups* and operations. A group is a body of selections and a
//! repeat count: it stands for that many consecutive fragments `F<i>` with the same body, whose
//! spreads name their targets relative to each fragment's own index (`+1`: the next one) or
//! absolutely, or name a fragment no document defines. So a long chain, a fan-out of thirty
//! levels or a lattice is a handful of bytes, and a mutation that changes one number turns a
//! chain into a cycle.
//!
//! The bytes are a little byte code ([`decode`]; [`encode`] writes a program back), read so
//! that any bytes make a program: an opcode byte (modulo the opcodes' number), its operands,
//! missing operands read as zeros. What a program may build is bounded ([`MAX_FRAGMENTS`],
//! [`MAX_REPEAT`], [`NODE_BUDGET`] selections in all), so every input renders to a document of
//! at most about half a megabyte (most to a few hundred bytes), under the server's 8 MiB body
//! limit.
//! Selections before any fragment or operation go to an operation of their own.
//!
//! What the program's document is and how many fields it selects is `doc`'s business.

/// Most fragments a program defines (a chain of 5,000 spreads needs 5,001).
pub const MAX_FRAGMENTS: usize = 6_000;
/// Most operations a program defines.
pub const MAX_OPERATIONS: usize = 6;
/// Most copies of one field a `Repeat` writes (issue 36's attack repeated a field 4,900 times).
pub const MAX_REPEAT: u32 = 5_000;
/// Most selections (fields, spreads, inline fragments, each written as often as it is rendered)
/// in a program's document.
pub const NODE_BUDGET: usize = 8_192;
/// Deepest nesting of inline fragments (past the guard's bracket limit of 64).
const MAX_INLINE: usize = 72;

/// Fields of `Query` a selection may be: (text before a directive, text after it, fields
/// selected, levels of selection sets below it).
/// The last is a field no type has, for validation to refuse.
pub const FIELDS: &[(&str, &str, u32, u32)] = &[
    ("__typename", "", 1, 0),
    ("rules", " { kind }", 2, 1),
    ("games(first: 1)", " { edges { cursor } }", 3, 2),
    ("rules", " { kind playerCounts }", 3, 1),
    ("games(first: 1)", " { nodes { id plies } }", 4, 2),
    ("game(id: \"0000000000000\")", " { id }", 2, 1),
    ("store", " { __typename }", 2, 1),
    ("nope", "", 1, 0),
];

/// A directive on a field, spread or inline fragment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    None,
    Include(bool),
    Skip(bool),
}

/// Where a spread goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum To {
    /// `F<i + n>` from fragment `F<i>` (from an operation, `F<n>`); left out if there is none.
    Rel(i32),
    /// `F<n mod fragments>`.
    Abs(u32),
    /// A fragment the document does not define (`...Missing`).
    Missing,
}

/// One selection of a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Field {
        kind: u8,
        dir: Dir,
    },
    /// `count` copies of one field, side by side.
    Repeat {
        kind: u8,
        count: u32,
    },
    /// `a<alias>: field`.
    Alias {
        kind: u8,
        alias: u8,
    },
    Spread {
        to: To,
        dir: Dir,
    },
    /// `... on Query { … }` (typed) or `... { … }`.
    Inline {
        typed: bool,
        dir: Dir,
        body: Vec<Item>,
    },
}

/// The type condition of a fragment group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum On {
    Query,
    Game,
    Mutation,
    /// A type the schema does not have.
    Nope,
}

/// `repeat` consecutive fragments with one body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub on: On,
    pub repeat: u32,
    pub body: Vec<Item>,
}

/// How an operation is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpKind {
    /// `{ … }`
    Shorthand,
    /// `query { … }`
    Anonymous,
    /// `query Q<i> { … }`
    Named,
    /// `mutation Q<i> { … }`
    Mutation,
    /// `subscription Q<i> { … }`
    Subscription,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    pub kind: OpKind,
    pub body: Vec<Item>,
}

/// A decoded input.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Program {
    pub groups: Vec<Group>,
    pub operations: Vec<Operation>,
    /// The operation the request names: 0 none, `k` names `Q<k - 1>` (which may not exist).
    pub pick: u8,
}

// Opcodes of the byte code (an opcode byte is read modulo `OPCODES`).
pub const END: u8 = 0;
pub const FRAG: u8 = 1;
pub const OP: u8 = 2;
pub const FIELD: u8 = 3;
pub const REPEAT: u8 = 4;
pub const ALIAS: u8 = 5;
pub const SPREAD_REL: u8 = 6;
pub const SPREAD_ABS: u8 = 7;
pub const SPREAD_MISSING: u8 = 8;
pub const INLINE: u8 = 9;
pub const PICK: u8 = 10;
const OPCODES: u8 = 11;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// LEB128, at most five bytes.
    fn varint(&mut self) -> u32 {
        let mut v: u32 = 0;
        for shift in (0..35).step_by(7) {
            let b = self.byte();
            v |= u32::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
            if b & 0x80 == 0 {
                break;
            }
        }
        v
    }

    fn more(&self) -> bool {
        self.at < self.bytes.len()
    }
}

fn dir_of(b: u8) -> Dir {
    match b % 8 {
        4 => Dir::Include(true),
        5 => Dir::Include(false),
        6 => Dir::Skip(true),
        7 => Dir::Skip(false),
        _ => Dir::None,
    }
}

fn dir_byte(d: Dir) -> u8 {
    match d {
        Dir::None => 0,
        Dir::Include(true) => 4,
        Dir::Include(false) => 5,
        Dir::Skip(true) => 6,
        Dir::Skip(false) => 7,
    }
}

fn on_of(b: u8) -> On {
    match b {
        0xfd => On::Game,
        0xfe => On::Mutation,
        0xff => On::Nope,
        _ => On::Query,
    }
}

fn on_byte(on: On) -> u8 {
    match on {
        On::Query => 0,
        On::Game => 0xfd,
        On::Mutation => 0xfe,
        On::Nope => 0xff,
    }
}

fn op_of(b: u8) -> OpKind {
    match b % 8 {
        0 => OpKind::Shorthand,
        1 => OpKind::Anonymous,
        6 => OpKind::Mutation,
        7 => OpKind::Subscription,
        _ => OpKind::Named,
    }
}

fn op_byte(k: OpKind) -> u8 {
    match k {
        OpKind::Shorthand => 0,
        OpKind::Anonymous => 1,
        OpKind::Named => 3,
        OpKind::Mutation => 6,
        OpKind::Subscription => 7,
    }
}

fn field_kind(b: u8) -> u8 {
    b % FIELDS.len() as u8
}

/// Selections a body renders to, once.
pub fn nodes(body: &[Item]) -> usize {
    body.iter()
        .map(|i| match i {
            Item::Repeat { count, .. } => *count as usize,
            Item::Inline { body, .. } => 1 + nodes(body),
            _ => 1,
        })
        .sum()
}

/// Reads any bytes as a program.
pub fn decode(bytes: &[u8]) -> Program {
    let mut r = Reader { bytes, at: 0 };
    let mut p = Program::default();
    // Where items go: a group (`Some(index)`) or an operation, and the open inline fragments.
    let mut in_group: Option<usize> = None;
    let mut open: Vec<Vec<Item>> = Vec::new();
    let mut budget = NODE_BUDGET;
    let mut fragments = 0usize;
    while r.more() {
        let op = r.byte() % OPCODES;
        let item = match op {
            END => {
                if let Some(body) = open.pop() {
                    close_inline(&mut p, in_group, &mut open, body);
                }
                continue;
            }
            FRAG | OP => {
                while let Some(body) = open.pop() {
                    close_inline(&mut p, in_group, &mut open, body);
                }
                finish_group(&mut p, in_group, &mut budget, &mut fragments);
                if op == FRAG {
                    let on = on_of(r.byte());
                    let repeat = r.varint().max(1);
                    p.groups.push(Group {
                        on,
                        repeat,
                        body: Vec::new(),
                    });
                    in_group = Some(p.groups.len() - 1);
                } else {
                    let kind = op_of(r.byte());
                    if p.operations.len() < MAX_OPERATIONS {
                        p.operations.push(Operation {
                            kind,
                            body: Vec::new(),
                        });
                    }
                    in_group = None;
                }
                continue;
            }
            PICK => {
                p.pick = r.byte() % 8;
                continue;
            }
            FIELD => Item::Field {
                kind: field_kind(r.byte()),
                dir: dir_of(r.byte()),
            },
            REPEAT => {
                let kind = field_kind(r.byte());
                let count = r.varint().clamp(1, MAX_REPEAT);
                Item::Repeat {
                    kind,
                    count: count.min(budget.max(1) as u32),
                }
            }
            ALIAS => Item::Alias {
                kind: field_kind(r.byte()),
                alias: r.byte() % 100,
            },
            SPREAD_REL => {
                let z = r.varint();
                let off = (z >> 1) as i32 ^ -((z & 1) as i32);
                Item::Spread {
                    to: To::Rel(off),
                    dir: dir_of(r.byte()),
                }
            }
            SPREAD_ABS => Item::Spread {
                to: To::Abs(r.varint()),
                dir: dir_of(r.byte()),
            },
            SPREAD_MISSING => Item::Spread {
                to: To::Missing,
                dir: dir_of(r.byte()),
            },
            _ => {
                let flags = r.byte();
                if open.len() < MAX_INLINE && budget > 0 {
                    budget -= 1;
                    open.push(Vec::new());
                    // Its flags are kept at the front of the body until it closes.
                    if let Some(b) = open.last_mut() {
                        b.push(Item::Inline {
                            typed: flags & 1 == 1,
                            dir: dir_of(flags >> 1),
                            body: Vec::new(),
                        });
                    }
                }
                continue;
            }
        };
        let cost = match &item {
            Item::Repeat { count, .. } => *count as usize,
            _ => 1,
        };
        if cost > budget {
            continue;
        }
        budget -= cost;
        if let Some(body) = open.last_mut() {
            body.push(item);
        } else {
            current(&mut p, in_group).push(item);
        }
    }
    while let Some(body) = open.pop() {
        close_inline(&mut p, in_group, &mut open, body);
    }
    finish_group(&mut p, in_group, &mut budget, &mut fragments);
    if p.operations.is_empty() {
        p.operations.push(Operation {
            kind: OpKind::Shorthand,
            body: Vec::new(),
        });
    }
    // Empty bodies get a field: a selection set is never empty.
    for body in p
        .groups
        .iter_mut()
        .map(|g| &mut g.body)
        .chain(p.operations.iter_mut().map(|o| &mut o.body))
    {
        if body.is_empty() {
            body.push(Item::Field {
                kind: 0,
                dir: Dir::None,
            });
        }
    }
    p
}

/// The body items go to when no inline fragment is open.
fn current(p: &mut Program, in_group: Option<usize>) -> &mut Vec<Item> {
    match in_group {
        Some(g) => &mut p.groups[g].body,
        None => {
            if p.operations.is_empty() {
                p.operations.push(Operation {
                    kind: OpKind::Shorthand,
                    body: Vec::new(),
                });
            }
            let last = p.operations.len() - 1;
            &mut p.operations[last].body
        }
    }
}

/// Closes an inline fragment whose first item holds its flags.
fn close_inline(
    p: &mut Program,
    in_group: Option<usize>,
    open: &mut [Vec<Item>],
    mut body: Vec<Item>,
) {
    let Item::Inline { typed, dir, .. } = body.remove(0) else {
        return;
    };
    if body.is_empty() {
        body.push(Item::Field {
            kind: 0,
            dir: Dir::None,
        });
    }
    let item = Item::Inline { typed, dir, body };
    match open.last_mut() {
        Some(outer) => outer.push(item),
        None => current(p, in_group).push(item),
    }
}

/// Bounds the group just decoded: its repeat within the fragments and selections left.
fn finish_group(
    p: &mut Program,
    in_group: Option<usize>,
    budget: &mut usize,
    fragments: &mut usize,
) {
    let Some(g) = in_group else {
        return;
    };
    let left = MAX_FRAGMENTS - *fragments;
    if left == 0 {
        p.groups.remove(g);
        return;
    }
    let group = &mut p.groups[g];
    let cost = nodes(&group.body).max(1);
    let more = (*budget / cost) as u64;
    let repeat = u64::from(group.repeat).min(1 + more).min(left as u64);
    group.repeat = repeat as u32;
    *budget -= (repeat as usize - 1) * cost;
    *fragments += repeat as usize;
}

impl Program {
    /// Fragments the program defines.
    pub fn fragment_count(&self) -> usize {
        self.groups.iter().map(|g| g.repeat as usize).sum()
    }
}

fn varint(out: &mut Vec<u8>, mut v: u32) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn encode_body(out: &mut Vec<u8>, body: &[Item]) {
    for item in body {
        match item {
            Item::Field { kind, dir } => out.extend([FIELD, *kind, dir_byte(*dir)]),
            Item::Repeat { kind, count } => {
                out.extend([REPEAT, *kind]);
                varint(out, *count);
            }
            Item::Alias { kind, alias } => out.extend([ALIAS, *kind, *alias]),
            Item::Spread { to, dir } => {
                match to {
                    To::Rel(n) => {
                        out.push(SPREAD_REL);
                        varint(out, ((*n << 1) ^ (*n >> 31)) as u32);
                    }
                    To::Abs(n) => {
                        out.push(SPREAD_ABS);
                        varint(out, *n);
                    }
                    To::Missing => out.push(SPREAD_MISSING),
                }
                out.push(dir_byte(*dir));
            }
            Item::Inline { typed, dir, body } => {
                out.extend([INLINE, u8::from(*typed) | dir_byte(*dir) << 1]);
                encode_body(out, body);
                out.push(END);
            }
        }
    }
}

/// The bytes that decode to `p` (for a program `decode` made, or one built within its bounds).
pub fn encode(p: &Program) -> Vec<u8> {
    let mut out = Vec::new();
    if p.pick != 0 {
        out.extend([PICK, p.pick]);
    }
    for o in &p.operations {
        out.extend([OP, op_byte(o.kind)]);
        encode_body(&mut out, &o.body);
    }
    for g in &p.groups {
        out.extend([FRAG, on_byte(g.on)]);
        varint(&mut out, g.repeat);
        encode_body(&mut out, &g.body);
    }
    out
}
