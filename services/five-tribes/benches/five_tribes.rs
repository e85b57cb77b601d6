//! Speed of the Five Tribes reducer (results in ops/BENCHMARKS.md):
//! - `replay/*`: re-applying recorded logs, from notation text (what the store does) and from
//!   parsed actions; throughput in entries.
//! - `playout/4p`: complete random 4-player games (legal-move generation + play + dealing).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use five_tribes::{FiveTribes, Options};
use rules_core::{playout, Action, Game, Notation, Seat};

/// A log as (seat or dealer, notation) lines.
type TextLog = Vec<(Option<Seat>, String)>;

fn logs(n: u64) -> Vec<(u8, Vec<Action<five_tribes::Move, five_tribes::Chance>>)> {
    (0..n)
        .map(|seed| {
            let players = 2 + (seed % 3) as u8;
            let p =
                playout::<FiveTribes>(&Options { players }, seed, 100_000, true).expect("playout");
            (players, p.log)
        })
        .collect()
}

fn text(log: &[Action<five_tribes::Move, five_tribes::Chance>]) -> TextLog {
    log.iter()
        .map(|a| match a {
            Action::Move(s, m) => (Some(*s), FiveTribes::format_move(m)),
            Action::Chance(c) => (None, FiveTribes::format_chance(c)),
        })
        .collect()
}

fn replay(c: &mut Criterion) {
    let games = logs(30);
    let entries: usize = games.iter().map(|(_, l)| l.len()).sum();
    let texts: Vec<(u8, TextLog)> = games.iter().map(|(p, l)| (*p, text(l))).collect();
    let mut g = c.benchmark_group("replay");
    g.throughput(Throughput::Elements(entries as u64));
    g.bench_function("parsed", |b| {
        b.iter(|| {
            for (players, log) in &games {
                let mut s = FiveTribes::new_game(&Options { players: *players }).unwrap();
                for a in log {
                    FiveTribes::apply(&mut s, a).unwrap();
                }
                std::hint::black_box(&s);
            }
        })
    });
    g.bench_function("notation", |b| {
        b.iter(|| {
            for (players, log) in &texts {
                let mut s = FiveTribes::new_game(&Options { players: *players }).unwrap();
                for (seat, t) in log {
                    match seat {
                        Some(seat) => {
                            FiveTribes::play(&mut s, *seat, &FiveTribes::parse_move(t).unwrap())
                                .unwrap()
                        }
                        None => FiveTribes::resolve(&mut s, &FiveTribes::parse_chance(t).unwrap())
                            .unwrap(),
                    }
                }
                std::hint::black_box(&s);
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
            |seed| playout::<FiveTribes>(&Options { players: 4 }, seed, 100_000, false).unwrap(),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(benches, replay, playouts);
criterion_main!(benches);
