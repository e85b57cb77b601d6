//! Replaying a recorded log, from its notation text or from parsed actions, without a store.
//!
//! From text, each entry is parsed, checked and applied: what a store does to rebuild a
//! position. From parsed actions, only checked and applied: the ceiling of the text figure.
//! The games' `replay/*` benchmarks measure both (criterion's means, and each repetition
//! timed apart: [`replay_from_env`]), and `ops/bench/replay-instructions.sh` counts their
//! instructions.

use crate::erased::apply_entry;
use crate::game::{Action, Game};
use crate::ids::Actor;
use crate::notation::Notation;

/// A log as each entry's actor and notation.
pub type TextLog = Vec<(Actor, String)>;

/// A log as parsed actions.
pub type ActionLog<G> = Vec<Action<<G as Game>::Move, <G as Game>::Chance>>;

/// Recorded games: their options and logs.
pub type Games<G, L> = Vec<(<G as Game>::Options, L)>;

/// `log` in notation.
pub fn text_log<G: Notation>(log: &[Action<G::Move, G::Chance>]) -> TextLog {
    log.iter()
        .map(|a| match a {
            Action::Move(s, m) => (Actor::Seat(*s), G::format_move(m)),
            Action::Chance(c) => (Actor::Dealer, G::format_chance(c)),
        })
        .collect()
}

/// Plays `log` onto `s` from its text ([`apply_entry`] for each entry). `Err` holds the index
/// of the first entry that does not parse or is refused; the entries before it are applied.
pub fn replay_text<G: Notation>(s: &mut G::State, log: &[(Actor, String)]) -> Result<(), usize> {
    for (i, (actor, text)) in log.iter().enumerate() {
        apply_entry::<G>(s, *actor, text).map_err(|_| i)?;
    }
    Ok(())
}

/// Replays every game of `games` from text, each from a new state, `reps` times: the number
/// of entries replayed, or the index of an entry that does not replay (the index of the
/// game's first entry, 0, when its options are refused).
#[inline(never)]
pub fn replay_texts<G: Notation>(
    games: &[(G::Options, TextLog)],
    reps: usize,
) -> Result<usize, usize> {
    let mut entries = 0;
    for _ in 0..reps {
        for (options, log) in games {
            let mut s = G::new_game(options).map_err(|_| 0usize)?;
            replay_text::<G>(&mut s, log)?;
            std::hint::black_box(&s);
            entries += log.len();
        }
    }
    Ok(entries)
}

/// Only the parse of [`replay_texts`]: every entry of every game read into its action by the
/// full parser, `reps` times, nothing applied; the entries parsed, or the index of one that
/// does not parse.
pub fn parse_texts<G: Notation>(
    games: &[(G::Options, TextLog)],
    reps: usize,
) -> Result<usize, usize> {
    read_all::<G, false>(games, reps)
}

/// The reading of [`replay_texts`] alone: every entry read as [`apply_entry`] reads it (the
/// fast reading, the full parser where it gives up), `reps` times, nothing applied; the
/// entries read, or the index of one that does not read. What the text costs a replay, apart
/// from the rules.
pub fn read_texts<G: Notation>(
    games: &[(G::Options, TextLog)],
    reps: usize,
) -> Result<usize, usize> {
    read_all::<G, true>(games, reps)
}

/// Every entry read into its action, `reps` times: with `FAST`, by the game's fast reading
/// first.
#[inline(never)]
fn read_all<G: Notation, const FAST: bool>(
    games: &[(G::Options, TextLog)],
    reps: usize,
) -> Result<usize, usize> {
    let mut entries = 0;
    for _ in 0..reps {
        for (_, log) in games {
            for (i, (actor, text)) in log.iter().enumerate() {
                // Each value looked at where it was read, by reference, as `apply_entry`
                // plays it: moved out of its `Option` it would be copied in wide words over
                // the narrow stores just made to it, a cost the replay does not pay.
                match actor {
                    Actor::Seat(_) => {
                        let fast = if FAST { G::read_move(text) } else { None };
                        match &fast {
                            Some(m) => _ = std::hint::black_box(m),
                            None => _ = std::hint::black_box(G::parse_move(text).map_err(|_| i)?),
                        }
                    }
                    Actor::Dealer => {
                        let mut fast = None;
                        if FAST {
                            G::read_chance_into(text, &mut fast);
                        }
                        match &fast {
                            Some(c) => _ = std::hint::black_box(c),
                            None => _ = std::hint::black_box(G::parse_chance(text).map_err(|_| i)?),
                        }
                    }
                }
            }
            entries += log.len();
        }
    }
    Ok(entries)
}

/// [`replay_texts`] from parsed actions.
#[inline(never)]
pub fn replay_actions<G: Game>(
    games: &[(G::Options, ActionLog<G>)],
    reps: usize,
) -> Result<usize, usize> {
    let mut entries = 0;
    for _ in 0..reps {
        for (options, log) in games {
            let mut s = G::new_game(options).map_err(|_| 0usize)?;
            for (i, a) in log.iter().enumerate() {
                G::apply(&mut s, a).map_err(|_| i)?;
            }
            std::hint::black_box(&s);
            entries += log.len();
        }
    }
    Ok(entries)
}

/// What a replay benchmark's binary does when run with `REPLAY_REPS=n` (and `REPLAY=parsed`
/// for parsed actions, `REPLAY=parse` for the full parser alone, `REPLAY=read` for the reading
/// replay does alone; text otherwise) instead of criterion's measurements: that replay of
/// the games `games` makes, `n` times; the entries replayed. A fixed amount of work, whose
/// instructions `ops/bench/replay-instructions.sh` counts; with `REPLAY_TIMES` set as well,
/// each of the `n` repetitions timed apart (`times`, for `ops/bench/replay.sh`). `None` when
/// `REPLAY_REPS` is not set (and the games are not made).
pub fn replay_from_env<G: Notation>(
    games: impl FnOnce() -> (Games<G, ActionLog<G>>, Games<G, TextLog>),
) -> Option<Result<usize, String>> {
    let reps = std::env::var("REPLAY_REPS").ok()?;
    let Ok(reps) = reps.parse() else {
        return Some(Err(format!("REPLAY_REPS={reps:?} is not a count")));
    };
    let (actions, texts) = games();
    let once = |reps| match std::env::var("REPLAY").as_deref() {
        Ok("parsed") => replay_actions::<G>(&actions, reps),
        Ok("parse") => parse_texts::<G>(&texts, reps),
        Ok("read") => read_texts::<G>(&texts, reps),
        _ => replay_texts::<G>(&texts, reps),
    };
    let done = if std::env::var_os("REPLAY_TIMES").is_some() {
        times(reps, || once(1))
    } else {
        once(reps)
    };
    Some(done.map_err(|i| format!("entry {i} of a recorded game does not replay")))
}

/// `REPLAY_TIMES`: the work of one repetition done `reps` times, each timed; the fastest, the
/// median and a few percentiles of the nanoseconds an entry printed to standard error. On a
/// shared machine, whose neighbours slow the core for seconds at a time, the fastest of many
/// short intervals is the least disturbed figure, so that two builds can be compared by it
/// (run in turns), where one long interval's mean moves with the neighbours.
fn times(reps: usize, mut once: impl FnMut() -> Result<usize, usize>) -> Result<usize, usize> {
    let mut ns = Vec::with_capacity(reps);
    let mut entries = 0;
    for _ in 0..reps {
        let t = std::time::Instant::now();
        let n = once()?;
        ns.push(t.elapsed().as_nanos() as f64 / n.max(1) as f64);
        entries += n;
    }
    ns.sort_by(f64::total_cmp);
    let at = |q: usize| {
        ns.get(ns.len().saturating_sub(1) * q / 100)
            .copied()
            .unwrap_or(f64::NAN)
    };
    eprintln!(
        "ns/entry min {:.2} median {:.2} (p10 {:.2} p25 {:.2} p75 {:.2} p90 {:.2})",
        at(0),
        at(50),
        at(10),
        at(25),
        at(75),
        at(90)
    );
    Ok(entries)
}

/// A replay benchmark's `main`: [`replay_from_env`]'s work when `REPLAY_REPS` is set (the
/// entries replayed printed; a message and exit status 1 when the games do not replay),
/// otherwise `benches` (criterion's measurements).
pub fn bench_main<G: Notation>(
    games: impl FnOnce() -> (Games<G, ActionLog<G>>, Games<G, TextLog>),
    benches: impl FnOnce(),
) {
    match replay_from_env::<G>(games) {
        Some(Ok(entries)) => println!("entries {entries}"),
        Some(Err(e)) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
        None => benches(),
    }
}
