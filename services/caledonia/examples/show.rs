//! Prints one seeded random game's log (debugging aid).
use caledonia::{Caledonia, Options};
use rules_core::{playout, Action, Notation};

fn main() {
    let players: u8 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let seed: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let p = match playout::<Caledonia>(&Options::new(players), seed, 20_000, true) {
        Ok(p) => p,
        Err(e) => {
            println!("error: {e}");
            return;
        }
    };
    for a in &p.log {
        match a {
            Action::Move(s, m) => println!("{s} {}", Caledonia::format_move(m)),
            Action::Chance(c) => println!("dealer {}", Caledonia::format_chance(c)),
        }
    }
    println!("{:?}", p.outcome);
}
