//! Seats the server plays itself: which seats of a game are bots (kept in the game's header),
//! the checks a `createGame` with bots passes, and the worker pool that plays them ([`pool`]).
//!
//! A bot seat has no token. Its slot among the header's seat-token hashes holds
//! `bot:<level>` instead of a hash — a hash is 64 hex digits, so no token ever opens a bot's
//! seat — and its player name is the level (`mcts:1000`). Kept in the header, the bot seats
//! survive a restart and read the same on both store backends.

pub mod pool;

use ai::BotSpec;
use rules_core::Seat;
use store::Header;

/// What marks a bot's slot among the seat-token hashes.
const MARK: &str = "bot:";

/// Bot settings of the service.
#[derive(Debug, Clone)]
pub struct BotConfig {
    /// The games bots play; `None`: this server plays no seats (`createGame` with bots is
    /// refused with `BOTS_DISABLED`).
    pub players: Option<ai::Players>,
    /// Threads that play bot moves, apart from the request threads (0: none, bots disabled).
    pub threads: usize,
    /// The most iterations a move a bot of this server may be given, and a position's
    /// evaluation (`Position.evaluation`).
    pub max_iterations: u32,
    /// Evaluations that may run at once (0: none).
    pub evaluations: usize,
}

impl Default for BotConfig {
    fn default() -> Self {
        BotConfig {
            players: None,
            threads: 1,
            max_iterations: DEFAULT_MAX_ITERATIONS,
            evaluations: 1,
        }
    }
}

/// The default most iterations a move: about a second of one core in every game.
pub const DEFAULT_MAX_ITERATIONS: u32 = 5_000;

/// Why a `createGame` with bots was refused. Nothing is written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotRefused {
    #[error("this server plays no seats itself (started with no bot threads)")]
    Disabled,
    #[error("bot level `{level}`: {why}")]
    UnknownLevel { level: String, why: String },
    #[error("bot level `{level}` spends {iterations} iterations a move; this server allows at most {max}")]
    OverBudget {
        level: String,
        iterations: u64,
        max: u32,
    },
    #[error("seat {seat} is {name}'s: a bot takes a seat whose name is left empty (or is the bot's level)")]
    SeatTaken { seat: u8, name: String },
    #[error("seat {0} is given to two bots")]
    SeatTwice(u8),
    #[error("this game has no seat {seat} (seats 0 to {last})")]
    NoSuchSeat { seat: i64, last: usize },
}

impl BotRefused {
    /// The stable code the API answers with.
    pub fn code(&self) -> &'static str {
        match self {
            BotRefused::Disabled => "BOTS_DISABLED",
            BotRefused::UnknownLevel { .. } => "UNKNOWN_BOT",
            BotRefused::OverBudget { .. } => "BOT_BUDGET",
            BotRefused::SeatTaken { .. } | BotRefused::SeatTwice(_) => "SEAT_TAKEN",
            BotRefused::NoSuchSeat { .. } => "BAD_INPUT",
        }
    }
}

/// The bots a new game asks for, checked against its players' names: each seat exists, is
/// named `""` or by the bot's own level (so is no person's), and has one bot, whose level
/// parses and is within `config`'s budget. Fills the bots' names in `players` and returns, in
/// seat order, what each seat's token slot holds: `None` for a person (a token is made),
/// `Some(mark)` for a bot.
pub fn seat_bots(
    config: &BotConfig,
    players: &mut [String],
    bots: &[(i64, String)],
) -> Result<Vec<Option<String>>, BotRefused> {
    let mut slots = vec![None; players.len()];
    let mut named = players.to_vec();
    if bots.is_empty() {
        return Ok(slots);
    }
    if config.players.is_none() || config.threads == 0 {
        return Err(BotRefused::Disabled);
    }
    for (seat, level) in bots {
        let spec = parse_level(config, level)?;
        let i = usize::try_from(*seat)
            .ok()
            .filter(|i| *i < players.len())
            .ok_or(BotRefused::NoSuchSeat {
                seat: *seat,
                last: players.len().saturating_sub(1),
            })?;
        if slots[i].is_some() {
            return Err(BotRefused::SeatTwice(i as u8));
        }
        let name = named[i].trim();
        if !name.is_empty() && name != level.trim() && name != spec.to_string() {
            return Err(BotRefused::SeatTaken {
                seat: i as u8,
                name: name.chars().take(64).collect(),
            });
        }
        named[i] = spec.to_string();
        slots[i] = Some(format!("{MARK}{spec}"));
    }
    players.clone_from_slice(&named);
    Ok(slots)
}

/// A level as a bot, within the server's budget.
fn parse_level(config: &BotConfig, level: &str) -> Result<BotSpec, BotRefused> {
    let shown = || level.chars().take(64).collect::<String>();
    let spec: BotSpec = level.parse().map_err(|e| match e {
        ai::BotError::OverBudget(n) => BotRefused::OverBudget {
            level: shown(),
            iterations: n,
            max: config.max_iterations,
        },
        other => BotRefused::UnknownLevel {
            level: shown(),
            why: other.to_string(),
        },
    })?;
    if let BotSpec::Mcts { iterations, .. } = spec {
        if iterations > config.max_iterations {
            return Err(BotRefused::OverBudget {
                level: shown(),
                iterations: u64::from(iterations),
                max: config.max_iterations,
            });
        }
    }
    Ok(spec)
}

/// The bot seats of a game, in seat order.
pub fn bot_seats(h: &Header) -> Vec<(Seat, BotSpec)> {
    h.seat_token_hashes
        .iter()
        .enumerate()
        .filter_map(|(i, slot)| {
            let spec = slot.strip_prefix(MARK)?.parse().ok()?;
            Some((Seat(i as u8), spec))
        })
        .collect()
}

/// Whether any seat of a game is a bot's.
pub fn has_bots(h: &Header) -> bool {
    h.seat_token_hashes.iter().any(|s| s.starts_with(MARK))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> BotConfig {
        BotConfig {
            players: Some(ai::Players::new()),
            threads: 1,
            max_iterations: 1000,
            evaluations: 1,
        }
    }

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_bot_takes_an_empty_seat_and_is_named_by_its_level() {
        let mut p = names(&["alice", "", "mcts:100"]);
        let slots = seat_bots(
            &config(),
            &mut p,
            &[(1, "random".into()), (2, "mcts:100".into())],
        )
        .unwrap();
        assert_eq!(p, names(&["alice", "random", "mcts:100"]));
        assert_eq!(
            slots,
            vec![None, Some("bot:random".into()), Some("bot:mcts:100".into())]
        );
    }

    #[test]
    fn every_refusal_has_its_code() {
        let c = config();
        type Case<'a> = (&'a [&'a str], Vec<(i64, &'a str)>, &'a str);
        let cases: Vec<Case> = vec![
            (&["a", ""], vec![(1, "alphazero")], "UNKNOWN_BOT"),
            (&["a", ""], vec![(1, "mcts:0")], "UNKNOWN_BOT"),
            (&["a", ""], vec![(1, "mcts:1001")], "BOT_BUDGET"),
            (&["a", ""], vec![(1, "mcts:99999999999")], "BOT_BUDGET"),
            (&["a", "bob"], vec![(1, "random")], "SEAT_TAKEN"),
            (&["a", ""], vec![(1, "random"), (1, "greedy")], "SEAT_TAKEN"),
            (&["a", ""], vec![(2, "random")], "BAD_INPUT"),
            (&["a", ""], vec![(-1, "random")], "BAD_INPUT"),
        ];
        for (players, bots, code) in cases {
            let mut p = names(players);
            let bots: Vec<(i64, String)> =
                bots.into_iter().map(|(s, l)| (s, l.to_string())).collect();
            let e = seat_bots(&c, &mut p, &bots).unwrap_err();
            assert_eq!(e.code(), code, "{bots:?}: {e}");
            assert_eq!(p, names(players), "names untouched on a refusal");
        }
        let off = BotConfig {
            players: None,
            ..config()
        };
        let e = seat_bots(&off, &mut names(&["a", ""]), &[(1, "random".into())]).unwrap_err();
        assert_eq!(e.code(), "BOTS_DISABLED");
    }
}
