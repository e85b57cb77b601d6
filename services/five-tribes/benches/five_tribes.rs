//! Speed of the Five Tribes reducer (results in ops/BENCHMARKS.md):
//! - `replay/*`: re-applying recorded logs, from notation text (what the store does) and from
//!   parsed actions; throughput in entries.
//! - `playout/4p`: complete random 4-player games (legal-move generation + play + dealing).

use criterion::{criterion_group, BatchSize, Criterion, Throughput};
use five_tribes::{FiveTribes, Options};
use rules_core::replay::{
    bench_main, replay_actions, replay_texts, text_log, ActionLog, Games, TextLog,
};
use rules_core::{playout, Action};

type Log = Vec<Action<five_tribes::Move, five_tribes::Chance>>;

fn logs(n: u64) -> Vec<(Options, Log)> {
    (0..n)
        .map(|seed| {
            let players = 2 + (seed % 3) as u8;
            let p =
                playout::<FiveTribes>(&Options { players }, seed, 100_000, true).expect("playout");
            (Options { players }, p.log)
        })
        .collect()
}

/// The recorded games of `replay/*`, and the same as notation text.
fn games() -> (
    Games<FiveTribes, ActionLog<FiveTribes>>,
    Games<FiveTribes, TextLog>,
) {
    let games = logs(30);
    let texts = games
        .iter()
        .map(|(o, l)| (o.clone(), text_log::<FiveTribes>(l)))
        .collect();
    (games, texts)
}

fn replay(c: &mut Criterion) {
    let (games, texts) = games();
    let entries: usize = games.iter().map(|(_, l)| l.len()).sum();
    let mut g = c.benchmark_group("replay");
    g.throughput(Throughput::Elements(entries as u64));
    g.bench_function("parsed", |b| {
        b.iter(|| replay_actions::<FiveTribes>(&games, 1).expect("replay"))
    });
    g.bench_function("notation", |b| {
        b.iter(|| replay_texts::<FiveTribes>(&texts, 1).expect("replay"))
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
            |seed| playout::<FiveTribes>(&Options { players: 4 }, seed, 100_000, false).unwrap(),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(benches, replay, playouts);
/// Criterion's `main`; with `REPLAY_REPS=n`, only a replay's work done `n` times (see
/// `rules_core::replay::replay_from_env`), for `ops/bench/replay-instructions.sh`.
fn main() {
    bench_main::<FiveTribes>(games, || {
        benches();
        Criterion::default().configure_from_args().final_summary();
    });
}
