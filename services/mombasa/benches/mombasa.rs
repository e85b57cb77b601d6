//! Speed of the Mombasa reducer (targets in issue 7 / ops/BENCHMARKS.md):
//! - `replay/*`: re-applying recorded logs, from notation text (what the store does) and from
//!   parsed actions; throughput in entries (target: 1,000,000 entries/s on one core);
//! - `playout/4p`: complete random 4-player games, legal-move generation + play + dealing
//!   (target: 100 games/s on one core).
//!
//! Run: `CARGO_TARGET_DIR=/work/target-mombasa cargo bench -p mombasa --bench mombasa`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use mombasa::{Chance, Mombasa, Move, Options};
use rules_core::{playout, Action, Game, Notation, Seat};

type Log = Vec<Action<Move, Chance>>;
type TextLog = Vec<(Option<Seat>, String)>;

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

fn text(log: &Log) -> TextLog {
    log.iter()
        .map(|a| match a {
            Action::Move(s, m) => (Some(*s), Mombasa::format_move(m)),
            Action::Chance(c) => (None, Mombasa::format_chance(c)),
        })
        .collect()
}

fn replay(c: &mut Criterion) {
    let games = logs(30);
    let entries: usize = games.iter().map(|(_, l)| l.len()).sum();
    let texts: Vec<(Options, TextLog)> = games.iter().map(|(o, l)| (o.clone(), text(l))).collect();
    let mut g = c.benchmark_group("replay");
    g.throughput(Throughput::Elements(entries as u64));
    g.bench_function("parsed", |b| {
        b.iter(|| {
            for (o, log) in &games {
                let mut s = Mombasa::new_game(o).unwrap();
                for a in log {
                    Mombasa::apply(&mut s, a).unwrap();
                }
                std::hint::black_box(&s);
            }
        })
    });
    g.bench_function("notation", |b| {
        b.iter(|| {
            for (o, log) in &texts {
                let mut s = Mombasa::new_game(o).unwrap();
                for (seat, t) in log {
                    match seat {
                        Some(seat) => {
                            Mombasa::play(&mut s, *seat, &Mombasa::parse_move(t).unwrap()).unwrap()
                        }
                        None => {
                            Mombasa::resolve(&mut s, &Mombasa::parse_chance(t).unwrap()).unwrap()
                        }
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
criterion_main!(benches);
