//! Speed of the Clans of Caledonia reducer:
//! - `replay/*`: re-applying recorded logs, from notation text (what the store does) and from
//!   parsed actions; throughput in entries.
//! - `parse/notation`: parsing those entries alone.
//! - `playout/4p`: complete random 4-player games (legal-move generation + play + dealing).

use caledonia::{Caledonia, Chance, Move, Options};
use criterion::{criterion_group, BatchSize, Criterion, Throughput};
use rules_core::replay::{
    bench_main, replay_actions, replay_texts, text_log, ActionLog, Games, TextLog,
};
use rules_core::{playout, Action, Actor, Notation};

type Log = Vec<Action<Move, Chance>>;

fn logs(n: u64) -> Vec<(Options, Log)> {
    (0..n)
        .map(|seed| {
            let o = Options::new(1 + (seed % 4) as u8);
            let p = playout::<Caledonia>(&o, seed, 100_000, true).expect("playout");
            (o, p.log)
        })
        .collect()
}

/// The recorded games of `replay/*`, and the same as notation text.
fn games() -> (
    Games<Caledonia, ActionLog<Caledonia>>,
    Games<Caledonia, TextLog>,
) {
    let games = logs(40);
    let texts = games
        .iter()
        .map(|(o, l)| (*o, text_log::<Caledonia>(l)))
        .collect();
    (games, texts)
}

fn replay(c: &mut Criterion) {
    let (games, texts) = games();
    let entries: usize = games.iter().map(|(_, l)| l.len()).sum();
    let mut g = c.benchmark_group("replay");
    g.throughput(Throughput::Elements(entries as u64));
    g.bench_function("parsed", |b| {
        b.iter(|| replay_actions::<Caledonia>(&games, 1).expect("replay"))
    });
    g.bench_function("notation", |b| {
        b.iter(|| replay_texts::<Caledonia>(&texts, 1).expect("replay"))
    });
    g.finish();
    // Parsing alone, the notation figure's share that the rules do not cause.
    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Elements(entries as u64));
    g.bench_function("notation", |b| {
        b.iter(|| {
            for (_, log) in &texts {
                for (actor, t) in log {
                    match actor {
                        Actor::Seat(_) => drop(std::hint::black_box(Caledonia::parse_move(t))),
                        Actor::Dealer => drop(std::hint::black_box(Caledonia::parse_chance(t))),
                    }
                }
            }
        })
    });
    g.finish();
}

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("playout");
    g.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    g.bench_function("4p", |b| {
        b.iter_batched(
            || {
                seed += 1;
                seed
            },
            |seed| playout::<Caledonia>(&Options::new(4), seed, 100_000, false).expect("playout"),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(benches, replay, playouts);

/// Criterion's `main`; with `REPLAY_REPS=n`, only a replay's work done `n` times (see
/// `rules_core::replay::replay_from_env`), for `ops/bench/replay-instructions.sh`.
fn main() {
    bench_main::<Caledonia>(games, || {
        benches();
        Criterion::default().configure_from_args().final_summary();
    });
}
