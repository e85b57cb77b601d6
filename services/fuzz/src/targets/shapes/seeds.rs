//! The seeds, the dictionary, and the helpers that build programs for them and for the
//! mutations.

use super::program::{self, encode, Dir, Group, Item, On, OpKind, Operation, Program, To};

pub(super) fn field(kind: u8) -> Item {
    Item::Field {
        kind,
        dir: Dir::None,
    }
}

pub(super) fn spread(to: To) -> Item {
    Item::Spread { to, dir: Dir::None }
}

pub(super) fn group(repeat: u32, body: Vec<Item>) -> Group {
    Group {
        on: On::Query,
        repeat,
        body,
    }
}

pub(super) fn op(kind: OpKind, body: Vec<Item>) -> Operation {
    Operation { kind, body }
}

/// One shorthand operation `{ … }` and these fragments.
pub(super) fn doc_of(body: Vec<Item>, groups: Vec<Group>) -> Program {
    Program {
        groups,
        operations: vec![op(OpKind::Shorthand, body)],
        pick: 0,
    }
}

/// `{ ...F0 }`, `levels` fragments each spreading the next `width` times, and a last fragment.
pub(super) fn fan_out(levels: u32, width: usize, last: Vec<Item>) -> Program {
    doc_of(
        vec![spread(To::Rel(0))],
        vec![
            group(levels, vec![spread(To::Rel(1)); width]),
            group(1, last),
        ],
    )
}

/// A lattice `layers` deep and `width` wide: every fragment spreads each of the next layer's.
pub(super) fn lattice(layers: u32, width: u32, leaf: Vec<Item>) -> Program {
    let mut groups = Vec::new();
    for l in 0..layers {
        for _ in 0..width {
            let next = (0..width).map(|k| spread(To::Abs((l + 1) * width + k)));
            groups.push(group(1, next.collect()));
        }
    }
    for _ in 0..width {
        groups.push(group(1, leaf.clone()));
    }
    doc_of(vec![spread(To::Abs(0)), spread(To::Abs(1))], groups)
}

pub(super) fn repeat(kind: u8, count: u32) -> Item {
    Item::Repeat { kind, count }
}

pub(super) fn inline(typed: bool, dir: Dir, body: Vec<Item>) -> Item {
    Item::Inline { typed, dir, body }
}

/// The seeds: issue 36's two attacks exactly, long chains, lattices, cycles, unused fragments,
/// the limits' boundaries, what this target found, and small legitimate documents.
pub(super) fn seed_programs() -> Vec<Program> {
    let typename_rules = vec![field(0), field(1)];
    let mut out = vec![
        // `{ ...F0 } fragment F0 on Query { ...F1 ...F1 } … fragment F30 on Query { __typename
        // rules { kind } }`: 3 × 2^30 fields, 2^31 - 1 spreads.
        fan_out(30, 2, typename_rules.clone()),
        // A field repeated 4,900 times.
        doc_of(vec![repeat(0, 4_900)], vec![]),
        // Chains of 5,000, 1,000 and 32 spreads (too deep), and of 31 (as deep as allowed).
        fan_out(5_000, 1, vec![field(0)]),
        fan_out(1_000, 1, vec![field(0)]),
        fan_out(32, 1, vec![field(0)]),
        fan_out(31, 1, vec![field(0)]),
        // Fan-outs past the limit (3,071 selections: 2,047 spreads, 1,024 fields; and 2,550)
        // and within it (1,535).
        fan_out(10, 2, vec![field(0)]),
        fan_out(9, 2, vec![field(0)]),
        fan_out(6, 3, vec![field(1)]),
        // Diamond lattices: 3^8 paths, and 2^4.
        lattice(8, 3, vec![field(0)]),
        lattice(4, 2, vec![field(1)]),
        // A diamond: F0 → F1, F2 → F3.
        doc_of(
            vec![spread(To::Rel(0))],
            vec![
                group(1, vec![spread(To::Abs(1)), spread(To::Abs(2))]),
                group(2, vec![spread(To::Abs(3))]),
                group(1, vec![field(1), field(2)]),
            ],
        ),
        // Cycles: a self-spread, three fragments round, one no operation reaches, and one
        // beside a fan-out far over the limit.
        doc_of(
            vec![spread(To::Rel(0))],
            vec![group(1, vec![spread(To::Rel(0))])],
        ),
        doc_of(
            vec![spread(To::Rel(0))],
            vec![
                group(2, vec![field(0), spread(To::Rel(1))]),
                group(1, vec![spread(To::Abs(0))]),
            ],
        ),
        doc_of(
            vec![field(1)],
            vec![
                group(1, vec![spread(To::Rel(1))]),
                group(1, vec![field(0), spread(To::Rel(-1))]),
            ],
        ),
        {
            let mut p = fan_out(30, 2, vec![field(0)]);
            p.groups.push(group(1, vec![spread(To::Rel(0))]));
            p
        },
        // The limits' boundaries: 2,000 selections, 2,001, and 2,000 / 2,002 through a
        // fragment spread twice (each spread counts one); a selection set 32 deep, and 33.
        doc_of(vec![repeat(0, 2_000)], vec![]),
        doc_of(vec![repeat(0, 2_001)], vec![]),
        doc_of(
            vec![spread(To::Rel(0)), spread(To::Rel(0))],
            vec![group(1, vec![repeat(0, 999)])],
        ),
        doc_of(
            vec![spread(To::Rel(0)), spread(To::Rel(0))],
            vec![group(1, vec![repeat(0, 1_000)])],
        ),
        doc_of(vec![nested(31)], vec![]),
        doc_of(vec![nested(32)], vec![]),
        doc_of(vec![repeat(2, 600)], vec![]),
        // Legitimate small documents.
        doc_of(vec![field(0)], vec![]),
        Program {
            groups: vec![group(1, vec![field(1), field(2)])],
            operations: vec![op(OpKind::Named, vec![spread(To::Rel(0))])],
            pick: 1,
        },
        doc_of(
            vec![
                Item::Alias { kind: 1, alias: 1 },
                Item::Alias { kind: 2, alias: 2 },
                spread(To::Abs(0)),
            ],
            vec![group(1, vec![field(0), field(3)])],
        ),
        doc_of(
            vec![
                inline(true, Dir::Include(true), vec![field(1), spread(To::Rel(0))]),
                Item::Field {
                    kind: 0,
                    dir: Dir::Skip(true),
                },
                Item::Spread {
                    to: To::Rel(0),
                    dir: Dir::Include(false),
                },
                inline(false, Dir::Skip(false), vec![field(4)]),
            ],
            vec![group(1, vec![field(5), field(6)])],
        ),
        Program {
            groups: vec![group(2, vec![field(0), field(1)])],
            operations: vec![
                op(OpKind::Named, vec![spread(To::Rel(0))]),
                op(OpKind::Named, vec![spread(To::Rel(1))]),
                op(OpKind::Mutation, vec![field(0)]),
            ],
            pick: 2,
        },
        // Several operations and no name: refused when run; with an anonymous one: no parse.
        Program {
            groups: vec![],
            operations: vec![
                op(OpKind::Named, vec![field(0)]),
                op(OpKind::Named, vec![field(1)]),
            ],
            pick: 0,
        },
        Program {
            groups: vec![group(1, vec![field(0)])],
            operations: vec![
                op(OpKind::Anonymous, vec![spread(To::Rel(0))]),
                op(OpKind::Named, vec![field(1)]),
            ],
            pick: 2,
        },
        doc_of(vec![spread(To::Missing), field(0)], vec![]),
        doc_of(vec![field(7)], vec![group(1, vec![field(0)])]),
        op_only(OpKind::Subscription, vec![field(0)]),
        // The alias limit (64) and the nesting limit (64).
        doc_of(
            (0..65).map(|a| Item::Alias { kind: 0, alias: a }).collect(),
            vec![],
        ),
        doc_of(vec![nested(70)], vec![]),
        doc_of(vec![nested(30)], vec![]),
        // What this target found, each refused now: a chain of a hundred unused fragments
        // each with sixty inline fragments around its spread (101 fields; a stack overflow in
        // validation); the same chain spread (too deep); a fan-out of thirty levels and a
        // chain of 5,999 unused fragments, both ending in an undefined fragment (no field,
        // walked spread by spread); a hundred fragments each with forty inline fragments
        // around a spread of the head of an unused chain of a thousand (0.8 s of CPU); a used
        // chain of 1,500 fragments of inline fragments only, ending in an undefined fragment
        // (one field; 2.2 s).
        doc_of(
            vec![field(0)],
            vec![group(100, vec![around(60, spread(To::Rel(1)))])],
        ),
        doc_of(
            vec![spread(To::Rel(0))],
            vec![group(100, vec![around(60, spread(To::Rel(1)))])],
        ),
        fan_out(30, 2, vec![spread(To::Missing)]),
        doc_of(
            vec![field(0)],
            vec![
                group(5_999, vec![spread(To::Rel(1))]),
                group(1, vec![spread(To::Missing)]),
            ],
        ),
        doc_of(
            vec![field(0)],
            vec![
                group(100, vec![around(40, spread(To::Abs(100)))]),
                group(1_000, vec![around(1, spread(To::Rel(1)))]),
            ],
        ),
        doc_of(
            vec![spread(To::Rel(0))],
            vec![
                group(
                    1_500,
                    vec![inline(
                        false,
                        Dir::None,
                        vec![inline(false, Dir::Skip(true), vec![spread(To::Rel(1))])],
                    )],
                ),
                group(1, vec![spread(To::Missing)]),
            ],
        ),
        // Within the limits: a fan-out of nine levels ending in undefined fragments (1,535
        // selections, no field), and a chain of ten spreads each in two inline fragments (32
        // deep, as deep as allowed).
        fan_out(9, 2, vec![spread(To::Missing)]),
        doc_of(
            vec![spread(To::Rel(0))],
            vec![
                group(10, vec![around(2, spread(To::Rel(1)))]),
                group(1, vec![field(1)]),
            ],
        ),
    ];
    for (on, _) in [(On::Game, 0), (On::Mutation, 1), (On::Nope, 2)] {
        let mut p = doc_of(vec![spread(To::Rel(0))], vec![group(1, vec![field(0)])]);
        p.groups[0].on = on;
        out.push(p);
    }
    out
}

pub(super) fn op_only(kind: OpKind, body: Vec<Item>) -> Program {
    Program {
        groups: vec![],
        operations: vec![op(kind, body)],
        pick: 0,
    }
}

/// `item` inside `depth` inline fragments `... { … }`.
pub(super) fn around(depth: usize, item: Item) -> Item {
    (0..depth).fold(item, |inner, _| inline(false, Dir::None, vec![inner]))
}

/// Inline fragments `depth` deep around a field.
pub(super) fn nested(depth: usize) -> Item {
    let mut item = field(1);
    for d in 0..depth {
        item = inline(d % 2 == 0, Dir::None, vec![item]);
    }
    item
}

/// Byte-code pieces: spreads forward, back and to nothing, fragment headers with repeats,
/// repeated fields near the limit, inline fragments, operations.
pub(super) fn dictionary() -> Vec<Vec<u8>> {
    let items = [
        spread(To::Rel(1)),
        spread(To::Rel(2)),
        spread(To::Rel(0)),
        spread(To::Rel(-1)),
        spread(To::Abs(0)),
        spread(To::Missing),
        repeat(0, 1_999),
        repeat(0, 2_000),
        repeat(0, 2_001),
        repeat(0, 4_900),
        repeat(1, 667),
        Item::Alias { kind: 0, alias: 7 },
        inline(true, Dir::Include(true), vec![field(0)]),
    ];
    let mut d: Vec<Vec<u8>> = items
        .into_iter()
        .map(|i| {
            let p = op_only(OpKind::Shorthand, vec![i]);
            // Just the item: after the operation's own two bytes.
            encode(&p)[2..].to_vec()
        })
        .collect();
    d.extend((0..program::FIELDS.len() as u8).map(|k| vec![program::FIELD, k, 0]));
    for n in [1u32, 2, 30, 31, 1_000, 5_000] {
        let p = Program {
            groups: vec![group(n, vec![field(0)])],
            operations: vec![],
            pick: 0,
        };
        // The group's header: its opcode, type condition and repeat.
        let bytes = encode(&p);
        d.push(bytes[..bytes.len() - 3].to_vec());
    }
    d.extend([
        vec![program::OP, 3],
        vec![program::OP, 0],
        vec![program::PICK, 1],
        vec![program::INLINE, 0],
        vec![program::END],
    ]);
    d
}
