//! `graphql-shapes`: GraphQL documents of hostile shape — fragment graphs and repeated fields —
//! built from a small program and run through the same guarded in-process schema as `graphql`
//! (issue 36: thirty fragments each spreading the next twice made validation run for minutes,
//! a field repeated 4,900 times took 4.7 s, until the guard bounded the expanded document).
//!
//! Input: a program in a little byte code (`program`): fragment groups (a body of fields —
//! `__typename`, `rules { kind }`, `games(first: 1) { edges { cursor } }` and others, copies of
//! one field, aliases, inline fragments, `@include`/`@skip` — and spreads to other fragments,
//! relative or absolute, so fan-outs, diamonds, long chains, self-spreads and cycles all
//! arise), repeated to make many fragments, and up to six operations, named or not, the request
//! naming one or none. `doc` resolves it into a document and writes its text; `count` counts it.
//!
//! Invariants, each a `Violation` (the oracle is `count::Count`, worked out from the program,
//! not from `api::shape`):
//! - no panic, and no `INTERNAL` or `CORRUPT` error;
//! - every answer within [`BOUND`] of the fuzzing thread's CPU time (the driver's wall-clock
//!   limit catches a hang, and a stack overflow aborts the run);
//! - a document with a spread cycle, or with a fragment no operation reaches, is answered with
//!   an error and no data;
//! - a document that parses, has neither, and holds more than `Limits::max_selections`
//!   selections or nests deeper than `Limits::max_recursion` once expanded is answered with
//!   `LIMIT_EXCEEDED` errors only, and no data;
//! - a document that does not parse (several operations, one of them anonymous) is answered
//!   with an error and no data;
//! - the guard agrees with the oracle the other way too: a document within the limits is never
//!   refused for its expansion, one without a cycle never for a cycle, one whose fragments are
//!   all reached never for an unused one.
//!
//! Found by this target and fixed in the guard (issue 36): a chain of a hundred fragments no
//! operation spreads, each with sixty inline fragments around its spread, overflowed the stack
//! in validation's `OverlappingFieldsCanBeMerged` (which walks every definition, used or not)
//! and aborted the process; a fan-out of thirty levels ending in a spread of an undefined
//! fragment counted no field and was walked 2^31 spreads long; a chain of 1,500 fragments of
//! inline fragments only took 2.2 s. The guard now counts spreads and inline fragments as
//! selections, bounds the expansion's depth, and refuses unused fragments before validation.
//!
//! Features: each error's code and message class, whether data came back, the oracle's verdict
//! (over the limits, cycle, parses, undefined spreads, unused fragments), and buckets of the
//! fragments, expanded selections, fields, spreads and depth, aliases, nesting and operations. The slowest answer so far (past 50 ms)
//! is written to stderr as it happens, for the run's log.

mod count;
mod doc;
mod edit;
mod program;
mod seeds;

use crate::rng::Rng;
use crate::target::{Feedback, Target, Violation};
use crate::targets::filter::thread_cpu;
use crate::targets::graphql::{answer, message_class, setup, Env, SetupError};
use api::auth::Caller;
use async_graphql::Request;
use program::{decode, encode};
use seeds::{dictionary, seed_programs};
use std::time::{Duration, Instant};

/// CPU time an answer may take: 2 s in an optimised build, 5 s where debug assertions are on
/// (`ops/fuzz.sh`'s instrumented build and the test profile run 3–4 times slower). Before the
/// guard's fixes the fan-out took minutes.
pub const BOUND: Duration = Duration::from_secs(if cfg!(debug_assertions) { 5 } else { 2 });
/// Answers slower than this are reported on stderr when they are the slowest so far.
const NOTE_SLOWER_THAN: Duration = Duration::from_millis(50);

pub struct Shapes {
    env: Env,
    max_selections: u64,
    max_recursion: u64,
    slowest: Duration,
}

impl Shapes {
    pub fn new() -> Result<Shapes, SetupError> {
        let env = setup()?;
        let limits = &env.app.config.limits;
        let (max_selections, max_recursion) =
            (limits.max_selections as u64, limits.max_recursion as u64);
        Ok(Shapes {
            env,
            max_selections,
            max_recursion,
            slowest: Duration::ZERO,
        })
    }
}

fn log2_bucket(n: u64) -> u8 {
    (64 - n.leading_zeros()) as u8
}

fn code_of(e: &async_graphql::ServerError) -> String {
    e.extensions
        .as_ref()
        .and_then(|x| x.get("code"))
        .map(|v| v.to_string().trim_matches('"').to_string())
        .unwrap_or_default()
}

/// Errors by code: `3 errors (BAD_QUERY ×2, LIMIT_EXCEEDED)`.
fn summary(codes: &[String]) -> String {
    let mut by: Vec<(&str, usize)> = Vec::new();
    for c in codes {
        match by.iter_mut().find(|(k, _)| *k == c.as_str()) {
            Some((_, n)) => *n += 1,
            None => by.push((c, 1)),
        }
    }
    let parts: Vec<String> = by
        .iter()
        .map(|(c, n)| {
            if *n > 1 {
                format!("{c} ×{n}")
            } else {
                c.to_string()
            }
        })
        .collect();
    format!("{} errors ({})", codes.len(), parts.join(", "))
}

/// The start of a text, for a violation's message.
fn head(text: &str) -> String {
    let cut: String = text.chars().take(400).collect();
    if cut.len() < text.len() {
        format!("{cut}… ({} bytes)", text.len())
    } else {
        cut
    }
}

impl Target for Shapes {
    fn name(&self) -> &str {
        "graphql-shapes"
    }

    fn seeds(&self) -> Vec<Vec<u8>> {
        seed_programs().iter().map(encode).collect()
    }

    fn dictionary(&self) -> Vec<Vec<u8>> {
        dictionary()
    }

    fn max_len(&self) -> usize {
        8 * 1024
    }

    fn run(&mut self, input: &[u8], fb: &mut Feedback) -> Result<(), Violation> {
        let prog = decode(input);
        let doc = prog.resolve();
        let count = doc.count();
        let text = doc.render();
        let mut req = Request::new(text.as_str()).data(Caller::default());
        if let Some(name) = &doc.operation_name {
            req = req.operation_name(name.as_str());
        }
        let (cpu0, wall0) = (thread_cpu(), Instant::now());
        let resp = answer(&mut self.env, req);
        let (cpu, wall) = (thread_cpu().saturating_sub(cpu0), wall0.elapsed());

        let malformed = count.cycle || count.unused;
        let within = count.selections <= self.max_selections && count.depth <= self.max_recursion;
        let over = !malformed && !within;
        let data = resp.data != async_graphql::Value::Null;
        let codes: Vec<String> = resp.errors.iter().map(code_of).collect();
        fb.note(&[b"data", &[u8::from(data)]]);
        for (e, code) in resp.errors.iter().zip(&codes) {
            fb.note(&[
                b"error",
                code.as_bytes(),
                message_class(&e.message).as_bytes(),
            ]);
        }
        let verdict = [
            u8::from(over),
            u8::from(count.cycle),
            u8::from(count.parses),
            u8::from(count.missing),
            u8::from(count.unused),
        ];
        fb.note(&[
            b"verdict",
            &verdict,
            codes.first().map_or(b"", |c| c.as_bytes()),
        ]);
        let frags = doc.fragments.len() as u64;
        fb.note(&[b"fragments", &[log2_bucket(frags), verdict[0], verdict[1]]]);
        fb.note(&[
            b"selections",
            &[
                log2_bucket(count.selections.min(1 << 40)),
                log2_bucket(count.fields.min(1 << 40)),
            ],
        ]);
        fb.note(&[b"depth", &[(count.depth.min(80) / 4) as u8]]);
        fb.note(&[
            b"spreads",
            &[log2_bucket(count.spreads.min(1 << 40)), verdict[3]],
        ]);
        fb.note(&[b"aliases", &[(count.aliases.min(80) / 8) as u8]]);
        fb.note(&[b"inline", &[(count.inline_depth.min(80) / 8) as u8]]);
        fb.note(&[
            b"operations",
            &[doc.operations.len() as u8, prog.pick.min(1), u8::from(data)],
        ]);

        if cpu > self.slowest {
            self.slowest = cpu;
            if cpu > NOTE_SLOWER_THAN {
                eprintln!(
                    "graphql-shapes: slowest answer so far {:.0} ms CPU ({:.0} ms wall): {} \
                     fragments, {} selections ({} spreads) expanded, depth {}, {} bytes, {}",
                    cpu.as_secs_f64() * 1e3,
                    wall.as_secs_f64() * 1e3,
                    frags,
                    count.selections,
                    count.spreads,
                    count.depth,
                    text.len(),
                    summary(&codes),
                );
            }
        }

        let about = || format!("{count:?}, {}, document: {}", summary(&codes), head(&text));
        if let Some(c) = codes
            .iter()
            .find(|c| c.contains("INTERNAL") || c.contains("CORRUPT"))
        {
            return Err(Violation::new(
                "internal-error",
                format!("a document got {c}: {}", about()),
            ));
        }
        if cpu > BOUND {
            return Err(Violation::new(
                "slow-answer",
                format!(
                    "answered in {:.2} s of CPU (bound {} s): {}",
                    cpu.as_secs_f64(),
                    BOUND.as_secs(),
                    about()
                ),
            ));
        }
        let refused = !resp.errors.is_empty() && !data;
        if malformed && !refused {
            return Err(Violation::new(
                "malformed-answered",
                format!(
                    "a document with a spread cycle or an unused fragment got data or no \
                     error: {}",
                    about()
                ),
            ));
        }
        if !count.parses && !refused {
            return Err(Violation::new(
                "unparsable-answered",
                format!(
                    "a document that cannot parse got data or no error: {}",
                    about()
                ),
            ));
        }
        if over && count.parses && (!refused || codes.iter().any(|c| c != "LIMIT_EXCEEDED")) {
            return Err(Violation::new(
                "over-limit-answered",
                format!(
                    "a document of {} selections {} deep once expanded (limits {}, {}) was not \
                     refused with LIMIT_EXCEEDED alone: {}",
                    count.selections,
                    count.depth,
                    self.max_selections,
                    self.max_recursion,
                    about()
                ),
            ));
        }
        let said = |s: &str| resp.errors.iter().any(|e| e.message.contains(s));
        if !malformed && within && said("once its fragments are expanded") {
            return Err(Violation::new(
                "under-limit-refused",
                format!(
                    "a document of {} selections {} deep once expanded (limits {}, {}) was \
                     refused for its expansion: {}",
                    count.selections,
                    count.depth,
                    self.max_selections,
                    self.max_recursion,
                    about()
                ),
            ));
        }
        if !count.cycle && said("spreads itself") {
            return Err(Violation::new(
                "cycle-misreported",
                format!(
                    "a document without a cycle was refused for one: {}",
                    about()
                ),
            ));
        }
        if !count.unused && said("spread by no operation") {
            return Err(Violation::new(
                "unused-misreported",
                format!(
                    "a document whose fragments are all reached was refused for one: {}",
                    about()
                ),
            ));
        }
        Ok(())
    }

    fn mutate(&self, input: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
        let mut p = decode(input);
        for _ in 0..1 + rng.small(3) {
            edit::edit(&mut p, rng);
        }
        Some(encode(&p))
    }
}

#[cfg(test)]
mod tests;
