//! The program's byte code, the documents it renders and the oracle's count, checked against
//! the exact attack texts and, on random programs, against `api::shape::shape` (the guard's
//! count: the target itself never calls it).

use super::edit::edit;
use super::head;
use super::program::{self, decode, encode, Program, To, FIELDS, MAX_FRAGMENTS, NODE_BUDGET};
use super::seeds::{
    around, dictionary, doc_of, fan_out, field, group, repeat, seed_programs, spread,
};
use crate::rng::Rng;

fn text(p: &Program) -> String {
    p.resolve().render()
}

#[test]
fn the_attacks_render_exactly() {
    let seeds = seed_programs();
    let mut fan = String::from("{ ...F0 }");
    for i in 0..30 {
        fan += &format!(" fragment F{i} on Query {{ ...F{} ...F{} }}", i + 1, i + 1);
    }
    fan += " fragment F30 on Query { __typename rules { kind } }";
    assert_eq!(text(&seeds[0]), fan);
    let c = seeds[0].resolve().count();
    assert!(!c.cycle && !c.unused && c.fields == 3 << 30, "{c:?}");
    assert_eq!(c.spreads, (1 << 31) - 1);
    assert_eq!(c.selections, c.fields + c.spreads);

    let repeated = format!("{{ {} }}", vec!["__typename"; 4_900].join(" "));
    assert_eq!(text(&seeds[1]), repeated);
    assert_eq!(seeds[1].resolve().count().selections, 4_900);

    let chain = seeds[2].resolve();
    assert_eq!(chain.fragments.len(), 5_001);
    let c = chain.count();
    // The operation's spread, 5,000 more and one field, 5,001 levels deep.
    assert_eq!((c.selections, c.spreads, c.fields), (5_002, 5_001, 1));
    assert_eq!(c.depth, 5_001);
    assert!(chain
        .render()
        .contains(" fragment F4999 on Query { ...F5000 } fragment F5000"));
}

#[test]
fn seeds_survive_their_byte_code() {
    for p in seed_programs() {
        assert_eq!(decode(&encode(&p)), p, "{}", head(&text(&p)));
    }
}

#[test]
fn the_seeds_are_judged_as_intended() {
    let l = api::limits::Limits::default();
    let (sel, rec) = (l.max_selections as u64, l.max_recursion as u64);
    let verdicts: Vec<(bool, bool, bool)> = seed_programs()
        .iter()
        .map(|p| {
            let c = p.resolve().count();
            let malformed = c.cycle || c.unused;
            (
                c.cycle,
                !c.cycle && c.unused,
                !malformed && (c.selections > sel || c.depth > rec),
            )
        })
        .collect();
    let count = |f: fn(&(bool, bool, bool)) -> bool| verdicts.iter().filter(|v| f(v)).count();
    assert_eq!(count(|v| v.0), 4, "{verdicts:?}");
    assert!(count(|v| v.1) >= 4, "{verdicts:?}");
    assert!(count(|v| v.2) >= 12, "{verdicts:?}");
    assert!(count(|v| !v.0 && !v.1 && !v.2) >= 15, "{verdicts:?}");
    // The boundaries: 2,000 selections pass, 2,001 do not; 32 levels pass, 33 do not.
    let c = doc_of(vec![repeat(0, 2_000)], vec![]).resolve().count();
    assert_eq!(c.selections, 2_000);
    let p = doc_of(
        vec![spread(To::Rel(0)), spread(To::Rel(0))],
        vec![group(1, vec![repeat(0, 999)])],
    );
    assert_eq!(p.resolve().count().selections, 2 + 2 * 999);
    assert_eq!(fan_out(31, 1, vec![field(0)]).resolve().count().depth, 32);
    assert_eq!(fan_out(32, 1, vec![field(0)]).resolve().count().depth, 33);
    // Each found shape is over a limit or malformed.
    let found = [
        doc_of(
            vec![field(0)],
            vec![group(100, vec![around(60, spread(To::Rel(1)))])],
        ),
        fan_out(30, 2, vec![spread(To::Missing)]),
    ];
    let c = found[0].resolve().count();
    assert!(c.unused && !c.cycle, "{c:?}");
    let c = found[1].resolve().count();
    assert!(c.selections > sel && c.fields == 0, "{c:?}");
}

/// The guard's own verdict on a text.
fn guard_shape(text: &str) -> Option<Result<api::shape::Shape, api::shape::Malformed>> {
    let doc = async_graphql::parser::parse_query(text).ok()?;
    Some(api::shape::shape(&doc))
}

/// The oracle's verdict on `p` agrees with the guard's count of its text, if that is no longer
/// than `limit` bytes (parsing is what takes the time); whether it was short enough to be a
/// base for more edits.
fn agree(p: &Program, limit: usize) -> bool {
    let doc = p.resolve();
    let c = doc.count();
    let t = doc.render();
    assert!(t.len() < 1 << 20, "{} bytes", t.len());
    if t.len() > limit {
        return false;
    }
    use api::shape::Malformed;
    match guard_shape(&t) {
        Some(Err(Malformed::Cycle(_))) => assert!(c.cycle, "{c:?}: {}", head(&t)),
        Some(Err(Malformed::Unused(_))) => {
            assert!(!c.cycle && c.unused, "{c:?}: {}", head(&t))
        }
        Some(Ok(s)) => assert!(
            !c.cycle
                && !c.unused
                && s.selections as u64 == c.selections
                && s.depth as u64 == c.depth,
            "{s:?} vs {c:?}: {}",
            head(&t)
        ),
        // Several operations with an anonymous one, or selection sets nested past the parser's
        // 64 levels (the guard's bracket limit refuses those first).
        None => assert!(!c.parses || c.inline_depth >= 60, "{c:?}: {}", head(&t)),
    }
    t.len() < 32 << 10
}

#[test]
fn the_oracle_agrees_with_the_guard_on_seeds_and_random_programs() {
    let mut rng = Rng::new(5);
    // Small documents are the bases of the edits, and only those within 64 kB are parsed.
    let mut programs: Vec<Program> = seed_programs()
        .into_iter()
        .filter(|p| agree(p, usize::MAX))
        .collect();
    for i in 0..1_500 {
        let p = if i % 3 == 0 {
            let len = rng.below(200);
            decode(&(0..len).map(|_| rng.below(256) as u8).collect::<Vec<_>>())
        } else {
            let mut p = programs[rng.below(programs.len())].clone();
            edit(&mut p, &mut rng);
            decode(&encode(&p))
        };
        if agree(&p, 64 << 10) && programs.len() < 300 {
            programs.push(p);
        }
    }
}

#[test]
fn any_bytes_make_a_bounded_program() {
    let mut rng = Rng::new(9);
    for _ in 0..2_000 {
        let len = rng.below(2_000);
        let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        let p = decode(&bytes);
        assert!(p.fragment_count() <= MAX_FRAGMENTS);
        assert!(!p.operations.is_empty());
        let written: usize = p
            .groups
            .iter()
            .map(|g| g.repeat as usize * program::nodes(&g.body))
            .chain(p.operations.iter().map(|o| program::nodes(&o.body)))
            .sum();
        assert!(written <= NODE_BUDGET + 200, "{written}");
        // What `encode` writes reads back the same, short of the budget (where the order it
        // is spent in may clip a repeat differently).
        if written < NODE_BUDGET / 2 {
            assert_eq!(decode(&encode(&p)), p);
        }
    }
    assert_eq!(FIELDS[0].0, "__typename");
}

#[test]
fn dictionary_pieces_are_whole_instructions() {
    for piece in dictionary() {
        assert!(!piece.is_empty());
        // Each piece decodes on its own without reading past its end.
        let _ = decode(&piece);
    }
}
