//! Speed of the Clans of Caledonia reducer:
//! - `replay/*`: re-applying recorded logs, from notation text (what the store does) and from
//!   parsed actions; throughput in entries.
//! - `parse/notation`: parsing those entries alone.
//! - `playout/4p`: complete random 4-player games (legal-move generation + play + dealing).

use caledonia::{Caledonia, Chance, Move, Options};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rules_core::{playout, Action, Game, Notation, Seat};

type Log = Vec<Action<Move, Chance>>;
type TextLog = Vec<(Option<Seat>, String)>;

fn logs(n: u64) -> Vec<(Options, Log)> {
    (0..n)
        .map(|seed| {
            let o = Options::new(1 + (seed % 4) as u8);
            let p = playout::<Caledonia>(&o, seed, 100_000, true).expect("playout");
            (o, p.log)
        })
        .collect()
}

fn text(log: &Log) -> TextLog {
    log.iter()
        .map(|a| match a {
            Action::Move(s, m) => (Some(*s), Caledonia::format_move(m)),
            Action::Chance(c) => (None, Caledonia::format_chance(c)),
        })
        .collect()
}

fn replay(c: &mut Criterion) {
    let games = logs(40);
    let entries: usize = games.iter().map(|(_, l)| l.len()).sum();
    let texts: Vec<(Options, TextLog)> = games.iter().map(|(o, l)| (*o, text(l))).collect();
    let mut g = c.benchmark_group("replay");
    g.throughput(Throughput::Elements(entries as u64));
    g.bench_function("parsed", |b| {
        b.iter(|| {
            for (o, log) in &games {
                let mut s = Caledonia::new_game(o).expect("options");
                for a in log {
                    Caledonia::apply(&mut s, a).expect("replay");
                }
                std::hint::black_box(&s);
            }
        })
    });
    g.bench_function("notation", |b| {
        b.iter(|| {
            for (o, log) in &texts {
                let mut s = Caledonia::new_game(o).expect("options");
                for (seat, t) in log {
                    match seat {
                        Some(seat) => {
                            Caledonia::play(&mut s, *seat, &Caledonia::parse_move(t).expect("move"))
                                .expect("replay")
                        }
                        None => {
                            Caledonia::resolve(&mut s, &Caledonia::parse_chance(t).expect("chance"))
                                .expect("replay")
                        }
                    }
                }
                std::hint::black_box(&s);
            }
        })
    });
    g.finish();
    // Parsing alone, the notation figure's share that the rules do not cause.
    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Elements(entries as u64));
    g.bench_function("notation", |b| {
        b.iter(|| {
            for (_, log) in &texts {
                for (seat, t) in log {
                    match seat {
                        Some(_) => drop(std::hint::black_box(Caledonia::parse_move(t))),
                        None => drop(std::hint::black_box(Caledonia::parse_chance(t))),
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
criterion_main!(benches);
