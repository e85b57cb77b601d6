//! Replaying a recorded log, from its notation text or from parsed actions, without a store.
//!
//! From text, each entry is parsed, checked and applied: what a store does to rebuild a
//! position. From parsed actions, only checked and applied: the ceiling of the text figure.
//! The games' `replay/*` benchmarks measure both, and `ops/bench/replay-instructions.sh`
//! counts their instructions.

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

/// Only the parse of [`replay_texts`]: every entry of every game read into its action, `reps`
/// times, nothing applied; the entries parsed, or the index of one that does not parse. What
/// the text costs beside the rules, counted apart.
pub fn parse_texts<G: Notation>(
    games: &[(G::Options, TextLog)],
    reps: usize,
) -> Result<usize, usize> {
    let mut entries = 0;
    for _ in 0..reps {
        for (_, log) in games {
            for (i, (actor, text)) in log.iter().enumerate() {
                match actor {
                    Actor::Seat(_) => {
                        std::hint::black_box(G::parse_move(text).map_err(|_| i)?);
                    }
                    Actor::Dealer => {
                        std::hint::black_box(G::parse_chance(text).map_err(|_| i)?);
                    }
                }
            }
            entries += log.len();
        }
    }
    Ok(entries)
}

/// [`replay_texts`] from parsed actions.
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
/// for parsed actions, `REPLAY=parse` for the parse of the text alone; text otherwise) instead of criterion's measurements: that replay of
/// the games `games` makes, `n` times; the entries replayed. A fixed amount of work, whose
/// instructions `ops/bench/replay-instructions.sh` counts. `None` when `REPLAY_REPS` is not
/// set (and the games are not made).
pub fn replay_from_env<G: Notation>(
    games: impl FnOnce() -> (Games<G, ActionLog<G>>, Games<G, TextLog>),
) -> Option<Result<usize, String>> {
    let reps = std::env::var("REPLAY_REPS").ok()?;
    let Ok(reps) = reps.parse() else {
        return Some(Err(format!("REPLAY_REPS={reps:?} is not a count")));
    };
    let (actions, texts) = games();
    let done = match std::env::var("REPLAY").as_deref() {
        Ok("parsed") => replay_actions::<G>(&actions, reps),
        Ok("parse") => parse_texts::<G>(&texts, reps),
        _ => replay_texts::<G>(&texts, reps),
    };
    Some(done.map_err(|i| format!("entry {i} of a recorded game does not replay")))
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
