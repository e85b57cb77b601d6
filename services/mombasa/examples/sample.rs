//! Development aid: prints one random game's log (`sample SEED`), or counts the kinds of
//! moves over many random games (`sample stats N`).
use mombasa::{Mombasa, Options};
use rules_core::{playout, Action, Notation};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("stats") {
        let n: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
        let mut kinds: BTreeMap<String, u64> = BTreeMap::new();
        let mut plies = 0u64;
        for seed in 0..n {
            let o = Options {
                players: 4,
                first_game: false,
                track_cards: false,
                first_player: None,
            };
            let p = playout::<Mombasa>(&o, seed, 20_000, true).expect("playout");
            plies += u64::from(p.plies);
            for a in &p.log {
                let text = match a {
                    Action::Move(_, m) => Mombasa::format_move(m),
                    Action::Chance(c) => Mombasa::format_chance(c),
                };
                let mut w = text.split(' ');
                let mut k = w.next().unwrap_or("").to_string();
                if k == "bonus" || k == "enter" && text.split(' ').count() == 4 {
                    k = format!(
                        "{k} {}",
                        if k == "bonus" {
                            w.next().unwrap_or("")
                        } else {
                            "displace"
                        }
                    );
                }
                *kinds.entry(k).or_default() += 1;
            }
        }
        println!("{n} games, {} plies per game", plies / n);
        for (k, v) in kinds {
            println!("{k:>16} {v}");
        }
        return;
    }
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let o = Options {
        players: 3,
        first_game: false,
        track_cards: false,
        first_player: None,
    };
    let p = playout::<Mombasa>(&o, seed, 20_000, true).expect("playout");
    for a in &p.log {
        match a {
            Action::Move(s, m) => println!("{s} {}", Mombasa::format_move(m)),
            Action::Chance(c) => println!("dealer {}", Mombasa::format_chance(c)),
        }
    }
    println!("{:?}", p.outcome);
}
