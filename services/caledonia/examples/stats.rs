//! Counts move kinds over seeded random games (a coverage aid for the random-game tests).
use caledonia::{Caledonia, Options};
use rules_core::{playout, Action, Notation};
use std::collections::BTreeMap;

fn main() {
    let mut kinds: BTreeMap<String, u64> = BTreeMap::new();
    let mut plies = 0u64;
    let games = 1000u64;
    for seed in 0..games {
        let mut o = Options::new(1 + (seed % 4) as u8);
        o.kickstarter = seed % 2 == 0;
        o.bonus_retrieve = true;
        let Ok(p) = playout::<Caledonia>(&o, seed, 100_000, true) else {
            println!("seed {seed} failed");
            continue;
        };
        plies += u64::from(p.plies);
        for a in &p.log {
            let text = match a {
                Action::Move(_, m) => Caledonia::format_move(m),
                Action::Chance(c) => Caledonia::format_chance(c),
            };
            let mut w = text.split(' ');
            let mut k = w.next().unwrap_or("").to_string();
            if k == "port" || k == "upgrade" || k == "expand" {
                k = format!("{k} {}", w.next().unwrap_or(""));
            }
            if text.contains("slaughter") {
                k.push_str(" slaughter");
            }
            *kinds.entry(k).or_default() += 1;
        }
    }
    println!("plies per game: {}", plies / games);
    for (k, n) in kinds {
        println!("{k:>24} {n}");
    }
}
