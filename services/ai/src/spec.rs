//! What a bot is, in the short text form every command and request uses: `random`,
//! `greedy`, `mcts:N` (N iterations a move, random rollouts) or `mcts:N:greedy` (greedy
//! rollouts). A bad spec is a typed error naming what was wrong.
use crate::policy::Rollout;
use std::fmt;
use std::str::FromStr;

/// The most iterations a move one bot may spend: a budget is work, and a request or a
/// command line is input.
pub const MAX_ITERATIONS: u32 = 200_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BotSpec {
    /// A uniformly random legal move.
    Random,
    /// The rollout policy's greedy choice: what scores the most now.
    Greedy,
    /// Information-set MCTS with this many iterations a move.
    Mcts { iterations: u32, rollout: Rollout },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    #[error("unknown bot `{0}`: the bots are random, greedy, mcts:N and mcts:N:greedy")]
    Unknown(String),
    #[error("`{0}` is not a number of iterations (1 to {MAX_ITERATIONS})")]
    BadBudget(String),
    #[error("{0} iterations is over the most a bot may spend, {MAX_ITERATIONS}")]
    OverBudget(u64),
}

impl FromStr for BotSpec {
    type Err = BotError;
    fn from_str(text: &str) -> Result<Self, BotError> {
        let t = text.trim();
        match t {
            "random" => return Ok(BotSpec::Random),
            "greedy" => return Ok(BotSpec::Greedy),
            _ => {}
        }
        let mut parts = t.split(':');
        if parts.next() != Some("mcts") {
            return Err(BotError::Unknown(t.chars().take(64).collect()));
        }
        let n = parts.next().unwrap_or("");
        let iterations: u64 = n
            .parse()
            .map_err(|_| BotError::BadBudget(n.chars().take(32).collect()))?;
        if iterations == 0 {
            return Err(BotError::BadBudget(n.into()));
        }
        if iterations > u64::from(MAX_ITERATIONS) {
            return Err(BotError::OverBudget(iterations));
        }
        let rollout = match parts.next() {
            None | Some("random") => Rollout::Random,
            Some("greedy") => Rollout::Greedy,
            Some(_) => return Err(BotError::Unknown(t.chars().take(64).collect())),
        };
        if parts.next().is_some() {
            return Err(BotError::Unknown(t.chars().take(64).collect()));
        }
        Ok(BotSpec::Mcts {
            iterations: iterations as u32,
            rollout,
        })
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::Mcts {
                iterations,
                rollout: Rollout::Random,
            } => write!(f, "mcts:{iterations}"),
            BotSpec::Mcts {
                iterations,
                rollout: Rollout::Greedy,
            } => write!(f, "mcts:{iterations}:greedy"),
        }
    }
}

impl BotSpec {
    /// The move this bot plays as `seat` in `s` (`None` when `seat` has no move), from
    /// `seed`. Every bot decides from what its seat knows: MCTS determinizes from its own
    /// viewer; random and greedy read only their own legal moves (and greedy the score after
    /// each, which is public).
    pub fn choose<G: rules_core::Game>(
        self,
        s: &G::State,
        seat: rules_core::Seat,
        seed: u64,
    ) -> Option<G::Move> {
        use rules_core::MoveBuf;
        match self {
            BotSpec::Mcts {
                iterations,
                rollout,
            } => crate::mcts::search::<G>(
                s,
                seat,
                &crate::mcts::SearchConfig::new(iterations, rollout),
                seed,
            )
            .map(|(m, _)| m),
            BotSpec::Random | BotSpec::Greedy => {
                let mut list = G::MoveList::default();
                G::legal_moves_of(s, seat, &mut list);
                let moves = list.as_slice();
                if moves.is_empty() {
                    return None;
                }
                let mut rng = rules_core::Dealer::new(seed, 1 << 59);
                let k = if self == BotSpec::Greedy {
                    crate::policy::greedy::<G>(s, seat, moves, &mut rng)
                } else {
                    Rollout::Random.pick::<G>(s, seat, moves, &mut rng)
                };
                Some(moves[k].clone())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_print_back() {
        for t in ["random", "greedy", "mcts:1000", "mcts:4000:greedy"] {
            assert_eq!(t.parse::<BotSpec>().unwrap().to_string(), t);
        }
        assert_eq!(
            "mcts:1000:random".parse::<BotSpec>().unwrap().to_string(),
            "mcts:1000"
        );
    }

    #[test]
    fn bad_specs_are_typed_errors() {
        assert!(matches!(
            "alphazero".parse::<BotSpec>(),
            Err(BotError::Unknown(_))
        ));
        assert!(matches!(
            "mcts:".parse::<BotSpec>(),
            Err(BotError::BadBudget(_))
        ));
        assert!(matches!(
            "mcts:0".parse::<BotSpec>(),
            Err(BotError::BadBudget(_))
        ));
        assert!(matches!(
            "mcts:-5".parse::<BotSpec>(),
            Err(BotError::BadBudget(_))
        ));
        assert!(matches!(
            "mcts:99999999999".parse::<BotSpec>(),
            Err(BotError::OverBudget(_))
        ));
        assert!(matches!(
            "mcts:10:smart".parse::<BotSpec>(),
            Err(BotError::Unknown(_))
        ));
        assert!(matches!(
            "mcts:10:greedy:x".parse::<BotSpec>(),
            Err(BotError::Unknown(_))
        ));
    }
}
