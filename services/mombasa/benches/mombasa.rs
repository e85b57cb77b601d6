//! Speed of the Mombasa reducer (targets in issue 7 / ops/BENCHMARKS.md):
//! - `replay/*`: re-applying recorded logs, from notation text (what the store does) and from
//!   parsed actions; throughput in entries (target: 1,000,000 entries/s on one core);
//! - `playout/4p`: complete random 4-player games, legal-move generation + play + dealing
//!   (target: 100 games/s on one core).
//!
//! Run: `CARGO_TARGET_DIR=/work/target-mombasa cargo bench -p mombasa --bench mombasa`.

use criterion::{criterion_group, BatchSize, Criterion, Throughput};
use mombasa::{Chance, Mombasa, Move, Options};
use rules_core::replay::{
    bench_main, replay_actions, replay_texts, text_log, ActionLog, Games, TextLog,
};
use rules_core::{playout, Action};

type Log = Vec<Action<Move, Chance>>;

fn options(seed: u64) -> Options {
    Options {
        players: 2 + (seed % 3) as u8,
        first_game: false,
        track_cards: seed.is_multiple_of(2),
        first_player: None,
    }
}

fn logs(n: u64) -> Vec<(Options, Log)> {
    (0..n)
        .map(|seed| {
            let o = options(seed);
            let p = playout::<Mombasa>(&o, seed, 100_000, true).expect("playout");
            (o, p.log)
        })
        .collect()
}

/// The recorded games of `replay/*`, and the same as notation text.
fn games() -> (Games<Mombasa, ActionLog<Mombasa>>, Games<Mombasa, TextLog>) {
    let games = logs(30);
    let texts = games
        .iter()
        .map(|(o, l)| (o.clone(), text_log::<Mombasa>(l)))
        .collect();
    (games, texts)
}

fn replay(c: &mut Criterion) {
    let (games, texts) = games();
    let entries: usize = games.iter().map(|(_, l)| l.len()).sum();
    let mut g = c.benchmark_group("replay");
    g.throughput(Throughput::Elements(entries as u64));
    g.bench_function("parsed", |b| {
        b.iter(|| replay_actions::<Mombasa>(&games, 1).expect("replay"))
    });
    g.bench_function("notation", |b| {
        b.iter(|| replay_texts::<Mombasa>(&texts, 1).expect("replay"))
    });
    g.finish();
}

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("playout");
    g.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    let o = Options {
        players: 4,
        first_game: false,
        track_cards: false,
        first_player: None,
    };
    g.bench_function("4p", |b| {
        b.iter_batched(
            || {
                seed += 1;
                seed
            },
            |seed| playout::<Mombasa>(&o, seed, 100_000, false).unwrap(),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(benches, replay, playouts);
/// Criterion's `main`; with `REPLAY_REPS=n`, only a replay's work done `n` times (see
/// `rules_core::replay::replay_from_env`), for `ops/bench/replay-instructions.sh`.
fn main() {
    bench_main::<Mombasa>(games, || {
        benches();
        Criterion::default().configure_from_args().final_summary();
    });
}
