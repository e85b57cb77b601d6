//! `filter`: mutated CEL position filters through `analysis::positions::Filter`.
//!
//! Each input, as text, is compiled for the first game's feature schema that knows its names
//! (the checks: syntax, length, nesting, names, work per position) and, where it compiles,
//! evaluated on a score of indexed positions of sample games of that game (blocks built as
//! the finish hook builds them).
//! Seeds are the filters of `services/analysis/tests/positions.rs`, the README and the schema
//! examples, with feature names, CEL functions and operators as the dictionary.
//!
//! Invariants: no panic (compiling and evaluating run on a 2 MiB stack, the size of the
//! server's threads); no position costs more than 200 ms of CPU (the check is meant to bound
//! the work per position far below that); and the native guards (`guard.rs`, which decide top-level
//! `feature <op> literal` terms before CEL runs) agree with CEL: where `F` and
//! `(F) == true` — which has no top-level guard — both give a boolean, they give the same.

use crate::games::{registry, sample_lines};
use crate::target::{Feedback, Target, Violation};
use analysis::positions::{BlockView, Filter, FilterError, GameBlock, Scratch};
use rules_core::{Actor, FeatureSchema, GameKind};
use std::time::Duration;
use store::portable::GameRecord;
use store::Entry;

/// CPU time one position's evaluation may take. The check bounds a filter's work to
/// `MAX_WORK` node evaluations per position, well under a millisecond; this is hundreds of
/// times that, so only a filter the check failed to bound reaches it.
const SLOW: Duration = Duration::from_millis(200);

/// This thread's CPU time (not wall time: other processes on the machine do not count).
pub(crate) fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe {
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts);
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Sample games indexed per kind.
const GAMES: usize = 2;
/// Positions evaluated per game.
const PER_GAME: usize = 10;

struct Kind {
    kind: GameKind,
    schema: FeatureSchema,
    blocks: Vec<GameBlock>,
    /// The same blocks as stored (by column), for the compiled path.
    stored: Vec<Vec<u8>>,
}

pub struct FilterTarget {
    kinds: Vec<Kind>,
}

impl FilterTarget {
    pub fn new() -> FilterTarget {
        let reg = registry();
        let mut kinds = Vec::new();
        for kind in GameKind::ALL {
            let Some(rules) = reg.get(kind) else {
                continue;
            };
            let mut blocks = Vec::new();
            for line in sample_lines(kind).iter().take(GAMES) {
                let Ok(rec) = serde_json::from_str::<GameRecord>(line) else {
                    continue;
                };
                let entries: Vec<Entry> = rec
                    .entries
                    .iter()
                    .filter_map(|e| {
                        Some(Entry {
                            ply: e.ply,
                            actor: e.actor.parse::<Actor>().ok()?,
                            notation: e.notation.clone(),
                            recorded_at: e.at,
                            key: None,
                            entered_by: None,
                        })
                    })
                    .collect();
                if let Ok((b, _)) = GameBlock::build(
                    rules,
                    &rec.options,
                    &rec.rules_version,
                    &rec.data_hash,
                    &entries,
                    [1; 16],
                ) {
                    blocks.push(b);
                }
            }
            kinds.push(Kind {
                kind,
                schema: rules.feature_schema(),
                stored: blocks.iter().map(GameBlock::encode).collect(),
                blocks,
            });
        }
        FilterTarget { kinds }
    }
}

impl Default for FilterTarget {
    fn default() -> Self {
        FilterTarget::new()
    }
}

/// The error's variant name (from its `Debug` form, so new variants need no change here).
fn error_class(e: &FilterError) -> String {
    let d = format!("{e:?}");
    d.split([' ', '{', '(']).next().unwrap_or("").to_string()
}

/// Filters the tests, the README and the examples use, and a few of each game's features.
const SEEDS: &[&str] = &[
    "round == 3 && seats.exists(s, s.viziers >= 2)",
    "phase == 'bid' && to_act == 0 && size(seats) == players && seats[0].gold > seats[1].gold && bag > 0",
    "!(round != 3) && seats.exists(s, s.viziers >= 2)",
    "ply >= 100 && 140 > ply && to_act == 1",
    "!(ply < 100) && !(140 <= ply) && !(to_act != 1)",
    "bag < 40 && players == 3",
    "round != 0 && round <= 2",
    "ply == 40",
    "seats.exists(s, s.elders >= 1)",
    "round > 1000",
    "round == 2",
    "round == 3 &&& x",
    "seats.exists(s,",
    "round ==\n  && 3",
    "phase == 'a' &&\n  wealth > 1",
    "seats.all(p, p.gold >= 0)",
    "seats.exists(x, x.gold > 0) && x > 1",
    "round == 1 && seats[0].wealth > 3",
    "round == 0 + 1 + 1 + 1 + 1 + 1 + 1",
    "-(-(-(1))) == -1",
    "((((((true))))))",
    "true ? true ? false : true : false",
    "ply == 0 && true && true && true",
    "[0,1,2,3,4,5,6,7,8,9].all(a0, [0,1,2,3,4,5,6,7,8,9].all(a1, round >= 0))",
    "seats.all(a, seats.all(b, seats.all(c, true)))",
    "[[1, 2]][0].exists(x, x > 1)",
    "[[1], [2]].exists(l, l.exists(x, x > 1))",
    "seats.map(s, s.gold).exists(g, g > 3)",
    "seats.filter(s, s.gold > 3).all(s, s.viziers >= 0)",
    "{'a': 1}.exists(k, k == 'a')",
    "type(round) == int",
    "[[1, 2]].exists(seats, size(seats) == 2)",
    "seats == seats",
    "seats[0] != seats[1]",
    "seats == seats.map(s, s)",
    "seats[0] in seats",
    "size(seats[0]) == 12",
    "'gold' in seats[0] && !('wealth' in seats[0])",
    "seats[0u].gold == seats[0].gold",
    "seats[0]['gold'] == seats[0].gold",
    "seats.map(s, s).exists(t, t.wealth > 3)",
    "round / (ply - ply) == 1",
    "seats[9].gold > 1",
    "phase > 3",
    "round == 4 && price_whisky >= 10 && seats.exists(s, s.whisky >= 3)",
    "round == 3 && seats.exists(s, s.viziers >= 5)",
    "round == 1u",
    "round == 1.0",
    "round < 2.5 && ply >= 0",
    "to_act == -1 && phase != 'over'",
    "['x'].map(a, a + a).exists(b, size(b) > 1)",
    "seats.exists_one(s, s.score > 0)",
    "has(seats[0].gold)",
    "phase.startsWith('b') && phase.contains('i') && phase.matches('^b')",
    "string(round) + 'x' == '1x'",
    "int('7') == 7 && uint(1) == 1u && double(2) > 1.5",
    "round % 2 == 0 && ply * 2 > 10",
    "9223372036854775807 + 1 > 0",
    "-9223372036854775808 / -1 == 0",
    "b'abc' == b'abc'",
    "null == null",
    "players in [2, 3, 4]",
];

const WORDS: &[&str] = &[
    "ply",
    "round",
    "phase",
    "to_act",
    "players",
    "seats",
    "s",
    "s.",
    "exists",
    "all",
    "map",
    "filter",
    "exists_one",
    "size",
    "has",
    "in",
    "type",
    "int",
    "uint",
    "double",
    "string",
    "bytes",
    "bool",
    "dyn",
    "matches",
    "startsWith",
    "endsWith",
    "contains",
    "&&",
    "||",
    "!",
    "?",
    ":",
    "==",
    "!=",
    "<=",
    ">=",
    "<",
    ">",
    "+",
    "-",
    "*",
    "/",
    "%",
    "[0]",
    "[9]",
    ".",
    "'x'",
    "\"y\"",
    "1u",
    "1.5",
    "b'x'",
    "null",
    "true",
    "false",
    "duration('1s')",
    "timestamp('2026-01-01T00:00:00Z')",
    "max",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ".map(a,a+a)",
    "seats.all(a, ",
    "r'\\d'",
    "'''",
    "0x7fffffffffffffff",
    "18446744073709551615u",
    "1e308",
];

impl Target for FilterTarget {
    fn name(&self) -> &str {
        "filter"
    }

    fn seeds(&self) -> Vec<Vec<u8>> {
        let mut out: Vec<Vec<u8>> = SEEDS.iter().map(|s| s.as_bytes().to_vec()).collect();
        for k in &self.kinds {
            for g in k.schema.global.iter().take(6) {
                out.push(format!("{g} >= 1 && round > 0").into_bytes());
            }
            for f in k.schema.seat.iter().take(6) {
                out.push(format!("seats.exists(s, s.{f} > 2) && seats[0].{f} >= 0").into_bytes());
            }
        }
        out
    }

    fn dictionary(&self) -> Vec<Vec<u8>> {
        let mut d: Vec<Vec<u8>> = WORDS.iter().map(|s| s.as_bytes().to_vec()).collect();
        for k in &self.kinds {
            for n in k
                .schema
                .global
                .iter()
                .chain(k.schema.seat)
                .chain(k.schema.phases)
            {
                d.push(n.as_bytes().to_vec());
            }
        }
        d.sort();
        d.dedup();
        d
    }

    fn max_len(&self) -> usize {
        2200
    }

    fn run(&mut self, input: &[u8], fb: &mut Feedback) -> Result<(), Violation> {
        let text = String::from_utf8_lossy(input);
        let wrapped = format!("({text}) == true");
        for k in &self.kinds {
            let kind = k.kind.as_str().as_bytes();
            let f = match Filter::compile(&text, k.schema) {
                // A name of another game's: try the next game's schema.
                Err(e @ FilterError::UnknownFeature { .. }) => {
                    fb.note(&[kind, b"refused", error_class(&e).as_bytes()]);
                    continue;
                }
                // Parsing is most of the cost, and the same for every game: once is enough.
                Err(e) => {
                    fb.note(&[kind, b"refused", error_class(&e).as_bytes()]);
                    return Ok(());
                }
                Ok(f) => f,
            };
            fb.note(&[kind, b"compiled", &f.work().min(64).to_le_bytes()]);
            let g = Filter::compile(&wrapped, k.schema).ok();
            let mut scratch = Scratch::default();
            for (b, stored) in k.blocks.iter().zip(&k.stored) {
                let view = BlockView::parse(stored).map_err(|e| {
                    Violation::new("stored-block-unreadable", format!("{}: {e}", k.kind))
                })?;
                f.prepare(&view, &mut scratch);
                let n = b.len();
                for i in 0..PER_GAME.min(n) {
                    let ply = (i * n.saturating_sub(1) / PER_GAME.max(1)) as u32;
                    let Some(pos) = b.position(&k.schema, ply) else {
                        continue;
                    };
                    let t0 = thread_cpu();
                    let a = f.matches(&pos, &|| "g".into());
                    let spent = thread_cpu().saturating_sub(t0);
                    if spent > SLOW {
                        return Err(Violation::new(
                            "filter-too-slow",
                            format!(
                                "{}: `{text}` (work {} by the check) took {} ms of CPU on one position",
                                k.kind,
                                f.work(),
                                spent.as_millis()
                            ),
                        ));
                    }
                    // The index's path (guards, the compiled tree, the interpreter where the
                    // tree cannot decide) gives the interpreter's answer alone, errors included.
                    let fast = f.matches_at(&view, ply, &mut scratch, &|| "g".into());
                    let slow = f.interpret(&pos, &|| "g".into());
                    if fast != slow {
                        return Err(Violation::new(
                            "compiled-disagrees-with-interpreter",
                            format!(
                                "{}: `{text}` (compiled: {}) gives {fast:?} on the index but {slow:?} in the interpreter at ply {ply}",
                                k.kind,
                                f.is_compiled()
                            ),
                        ));
                    }
                    fb.note(&[kind, b"compiled-path", &[u8::from(f.is_compiled())]]);
                    match &a {
                        Ok(v) => fb.note(&[kind, b"value", &[u8::from(*v)]]),
                        Err(e) => fb.note(&[kind, b"failed", error_class(e).as_bytes()]),
                    }
                    if let (Ok(x), Some(Ok(y))) =
                        (&a, g.as_ref().map(|g| g.matches(&pos, &|| "g".into())))
                    {
                        if *x != y {
                            return Err(Violation::new(
                                "guard-disagrees-with-cel",
                                format!(
                                    "{}: `{text}` gives {x} but `({text}) == true` gives {y} at ply {ply}",
                                    k.kind
                                ),
                            ));
                        }
                    }
                }
            }
            return Ok(());
        }
        Ok(())
    }
}
