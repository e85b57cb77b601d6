//! The structure-aware mutation: one edit of a decoded program (a spread's target, a fragment
//! group duplicated, a level added, a repeat or a count changed, an item added, dropped or
//! wrapped in an inline fragment, a cycle closed, the operations changed).

use super::program::{self, Dir, Item, On, OpKind, Program, To};
use super::seeds::{field, group, inline, op, repeat, spread};
use crate::rng::Rng;

/// Calls `f` on one of the program's bodies: an operation's, a group's, or an inline
/// fragment's inside one of them.
fn with_body(p: &mut Program, rng: &mut Rng, f: &mut dyn FnMut(&mut Vec<Item>, &mut Rng)) {
    let n = p.groups.len() + p.operations.len();
    let k = rng.below(n);
    let body = if k < p.groups.len() {
        &mut p.groups[k].body
    } else {
        &mut p.operations[k - p.groups.len()].body
    };
    descend(body, rng, f);
}

fn descend(body: &mut Vec<Item>, rng: &mut Rng, f: &mut dyn FnMut(&mut Vec<Item>, &mut Rng)) {
    let inlines: Vec<usize> = (0..body.len())
        .filter(|&k| matches!(body[k], Item::Inline { .. }))
        .collect();
    if let (Some(&k), false) = (rng.pick(&inlines), rng.one_in(2)) {
        if let Item::Inline { body: inner, .. } = &mut body[k] {
            return descend(inner, rng, f);
        }
    }
    f(body, rng);
}

fn random_to(rng: &mut Rng, fragments: usize) -> To {
    match rng.below(6) {
        0 | 1 => To::Rel(1),
        2 => To::Rel(rng.below(7) as i32 - 3),
        3 => To::Abs(rng.below(fragments + 2) as u32),
        4 => To::Rel(2),
        _ => To::Missing,
    }
}

fn random_dir(rng: &mut Rng) -> Dir {
    match rng.below(6) {
        0 => Dir::Include(rng.one_in(2)),
        1 => Dir::Skip(rng.one_in(2)),
        _ => Dir::None,
    }
}

fn random_item(rng: &mut Rng, fragments: usize) -> Item {
    let kind = rng.below(program::FIELDS.len()) as u8;
    match rng.below(6) {
        0 => Item::Field {
            kind,
            dir: random_dir(rng),
        },
        1 => repeat(
            kind,
            *rng.pick(&[2, 10, 100, 666, 1_000, 1_999, 2_001])
                .unwrap_or(&2),
        ),
        2 => Item::Alias {
            kind,
            alias: rng.below(100) as u8,
        },
        3 => inline(rng.one_in(2), random_dir(rng), vec![field(kind)]),
        _ => Item::Spread {
            to: random_to(rng, fragments),
            dir: random_dir(rng),
        },
    }
}

fn new_count(rng: &mut Rng, old: u32, choices: &[u32]) -> u32 {
    match rng.below(5) {
        0 => old.saturating_add(1),
        1 => old.saturating_sub(1).max(1),
        2 => old.saturating_mul(2),
        3 => (old / 2).max(1),
        _ => *rng.pick(choices).unwrap_or(&1),
    }
}

/// One structural edit of a program.
pub(super) fn edit(p: &mut Program, rng: &mut Rng) {
    let frags = p.fragment_count();
    let groups = p.groups.len();
    match rng.below(12) {
        // Change a spread's target (or add a spread where there is none).
        0 | 1 => with_body(p, rng, &mut |body, rng| {
            let spreads: Vec<usize> = (0..body.len())
                .filter(|&k| matches!(body[k], Item::Spread { .. }))
                .collect();
            let to = random_to(rng, frags);
            match rng.pick(&spreads) {
                Some(&k) => body[k] = spread(to),
                None => body.push(spread(to)),
            }
        }),
        // Duplicate a fragment group.
        2 if groups > 0 => {
            let k = rng.below(groups);
            let g = p.groups[k].clone();
            p.groups.insert(k + 1, g);
        }
        // Add a level: a fragment spreading the next once or more, or one more repeat.
        3 => {
            let width = 1 + rng.small(3);
            let g = group(1, vec![spread(To::Rel(1)); width]);
            let at = rng.below(groups + 1);
            p.groups.insert(at, g);
        }
        4 if groups > 0 => {
            let k = rng.below(groups);
            let r = p.groups[k].repeat;
            p.groups[k].repeat = new_count(rng, r, &[1, 2, 10, 30, 31, 1_000, 1_999, 5_000]);
        }
        // A repeated field's count.
        5 => with_body(p, rng, &mut |body, rng| {
            for item in body.iter_mut() {
                if let Item::Repeat { count, .. } = item {
                    *count = new_count(rng, *count, &[666, 667, 1_999, 2_000, 2_001, 4_900])
                        .min(program::MAX_REPEAT);
                    return;
                }
            }
            body.push(random_item(rng, frags));
        }),
        6 => with_body(p, rng, &mut |body, rng| {
            let at = rng.below(body.len() + 1);
            body.insert(at, random_item(rng, frags));
        }),
        7 => with_body(p, rng, &mut |body, rng| {
            if body.len() > 1 {
                body.remove(rng.below(body.len()));
            }
        }),
        // Wrap a body in an inline fragment (one more level of nesting).
        8 => with_body(p, rng, &mut |body, rng| {
            let inner = std::mem::take(body);
            body.push(inline(rng.one_in(2), random_dir(rng), inner));
        }),
        // A cycle: a fragment spreading itself or an earlier one.
        9 if groups > 0 => {
            let k = rng.below(groups);
            let back = -(rng.small(4) as i32);
            p.groups[k].body.push(spread(To::Rel(back)));
        }
        // The operations: one more, another kind, another name picked.
        10 => {
            let kinds = [
                OpKind::Shorthand,
                OpKind::Anonymous,
                OpKind::Named,
                OpKind::Named,
                OpKind::Mutation,
                OpKind::Subscription,
            ];
            let kind = *rng.pick(&kinds).unwrap_or(&OpKind::Named);
            match rng.below(3) {
                0 if p.operations.len() < program::MAX_OPERATIONS => p
                    .operations
                    .push(op(kind, vec![spread(random_to(rng, frags))])),
                1 => {
                    let k = rng.below(p.operations.len());
                    if let Some(o) = p.operations.get_mut(k) {
                        o.kind = kind;
                    }
                }
                _ => p.pick = rng.below(p.operations.len() + 2) as u8,
            }
        }
        _ if groups > 0 => {
            let k = rng.below(groups);
            p.groups[k].on = *rng
                .pick(&[On::Query, On::Query, On::Game, On::Mutation, On::Nope])
                .unwrap_or(&On::Query);
        }
        _ => p.groups.push(group(1, vec![random_item(rng, frags)])),
    }
}
