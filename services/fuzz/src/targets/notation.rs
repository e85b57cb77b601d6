//! `notation-<game>`: arbitrary text applied as an entry at positions of seeded random games.
//!
//! Input: two bytes choose the position (of every ply of a few random games per options
//! variant), one byte the actor (mostly whoever may act: the seat(s) to act or the dealer at a
//! chance node; sometimes the dealer out of turn or another seat, even one past the table),
//! and the rest, as UTF-8 (lossy), is the notation. Seeds are the moves the games played and
//! the dealer's outcomes. Every invariant of `check` is asserted.

use super::check::{attempt, At};
use crate::games::{pool, slug, words, Position};
use crate::target::{Feedback, Target, Violation};
use rules_core::{Actor, GameKind, GameRules, Registry, Seat, ToAct};

pub struct Notation {
    name: String,
    registry: Registry,
    kind: GameKind,
    positions: Vec<Position>,
}

impl Notation {
    pub fn new(kind: GameKind, seed: u64) -> Notation {
        let registry = crate::games::registry();
        let positions = registry
            .get(kind)
            .map(|r| pool(r, 2, seed))
            .unwrap_or_default();
        Notation {
            name: format!("notation-{}", slug(kind)),
            registry,
            kind,
            positions,
        }
    }

    fn rules(&self) -> &dyn GameRules {
        self.registry
            .get(self.kind)
            .expect("the registry has every kind")
    }
}

/// The actor byte's meaning at a position.
pub fn choose_actor(p: &Position, sel: u8) -> Actor {
    let players = p.state.player_count();
    let acting = p.state.seats_to_act();
    let sel = usize::from(sel);
    match sel % 8 {
        6 => Actor::Dealer,
        7 => Actor::Seat(Seat(((sel / 8) % (usize::from(players) + 2)) as u8)),
        _ => match p.state.to_act() {
            ToAct::Chance | ToAct::Over => Actor::Dealer,
            ToAct::Seat(s) if acting.is_empty() => Actor::Seat(s),
            ToAct::Seat(_) => Actor::Seat(acting[(sel / 8) % acting.len()]),
        },
    }
}

impl Target for Notation {
    fn name(&self) -> &str {
        &self.name
    }

    fn seeds(&self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let n = self.positions.len().max(1);
        let step = (n / 300).max(1);
        for (i, p) in self.positions.iter().enumerate().step_by(step) {
            if let Some((_, text)) = &p.next {
                let mut s = vec![(i >> 8) as u8, i as u8, 0];
                s.extend_from_slice(text.as_bytes());
                out.push(s);
            }
        }
        out
    }

    fn dictionary(&self) -> Vec<Vec<u8>> {
        words(
            self.positions
                .iter()
                .filter_map(|p| p.next.as_ref().map(|(_, t)| t.as_str())),
            3000,
        )
    }

    fn max_len(&self) -> usize {
        1024
    }

    fn run(&mut self, input: &[u8], fb: &mut Feedback) -> Result<(), Violation> {
        if self.positions.is_empty() || input.len() < 3 {
            return Ok(());
        }
        let i = (usize::from(input[0]) << 8 | usize::from(input[1])) % self.positions.len();
        let p = &self.positions[i];
        let actor = choose_actor(p, input[2]);
        let text = String::from_utf8_lossy(&input[3..]);
        let at = At {
            rules: self.rules(),
            state: p.state.as_ref(),
            encoded: &p.encoded,
            seed: p.seed,
            ply: p.ply,
        };
        attempt(&at, actor, &text, fb).map(|_| ())
    }
}
