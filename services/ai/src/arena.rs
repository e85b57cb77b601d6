//! Games between bots: each seat played by a bot, chance dealt as the store deals it (the
//! dealer's stream for each ply of the game's seed, so a game replays in a store from the
//! same seed), and an arena of many such games with the bots rotated through the seats, so
//! that no bot keeps the first seat's advantage. Per bot: games, wins (a shared win counts
//! its share), the win rate with its Wilson 95 % interval, and the mean score.
use crate::spec::BotSpec;
use rules_core::{Action, Dealer, Game, Outcome, Ply, Seat, ToAct};

#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    #[error("give one bot or more")]
    NoBots,
    #[error("bad options: {0}")]
    Options(String),
    #[error("ply {ply}: {what}")]
    Play { ply: u32, what: String },
    #[error("no end after {0} plies")]
    TooLong(u32),
}

/// One finished game: its outcome and every entry.
pub struct Played<G: Game> {
    pub outcome: Outcome,
    pub log: Vec<Action<G::Move, G::Chance>>,
}

/// The seed a bot decides from, for a seat's move at a ply of a game: distinct for every
/// decision, the same every time the game is played (the arena's and self-play's alike).
pub fn decision_seed(game_seed: u64, ply: u32, seat: Seat) -> u64 {
    game_seed ^ (u64::from(ply) << 20) ^ (u64::from(seat.0) << 52) ^ 0x5eed_b075
}

/// Plays one game with `seats[i]` on seat `i`, chance dealt from `seed` as a store deals it.
pub fn play_game<G: Game>(
    options: &G::Options,
    seats: &[BotSpec],
    seed: u64,
    max_plies: u32,
) -> Result<Played<G>, ArenaError> {
    let mut s = G::new_game(options).map_err(|e| ArenaError::Options(e.to_string()))?;
    let mut log = Vec::new();
    for ply in 0..max_plies {
        let action = match G::to_act(&s) {
            ToAct::Over => {
                let outcome = G::outcome(&s).ok_or(ArenaError::Play {
                    ply,
                    what: "over without an outcome".into(),
                })?;
                return Ok(Played { outcome, log });
            }
            ToAct::Chance => {
                let c = Dealer::for_ply(seed, Ply(ply))
                    .deal::<G>(&s)
                    .ok_or(ArenaError::Play {
                        ply,
                        what: "chance waited on, none dealt".into(),
                    })?;
                Action::Chance(c)
            }
            ToAct::Seat(seat) => {
                let bot = seats
                    .get(usize::from(seat.0))
                    .copied()
                    .ok_or(ArenaError::NoBots)?;
                let m = bot
                    .choose::<G>(&s, seat, decision_seed(seed, ply, seat))
                    .ok_or(ArenaError::Play {
                        ply,
                        what: format!("seat {seat} has no move"),
                    })?;
                Action::Move(seat, m)
            }
        };
        // Every move a bot chooses goes through the reducer like any other.
        G::apply(&mut s, &action).map_err(|e| ArenaError::Play {
            ply,
            what: e.to_string(),
        })?;
        log.push(action);
    }
    Err(ArenaError::TooLong(max_plies))
}

/// One bot's record in an arena.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BotResult {
    pub bot: String,
    /// Seats played (a bot named twice plays two seats a game).
    pub games: u64,
    pub wins: f64,
    pub win_rate: f64,
    /// Wilson 95 % interval of the win rate.
    pub low: f64,
    pub high: f64,
    pub mean_score: f64,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ArenaReport {
    pub games: u64,
    pub players: u8,
    pub bots: Vec<BotResult>,
    /// The median of the winning totals, one a game (what "play that looks like play"
    /// compares between self-play of bots and of random seats).
    pub median_winning_score: f64,
}

/// Plays `games` games of `players` seats among `bots` (repeated in turn to fill the seats),
/// rotating the bots one seat each game, `threads` games at a time; the game seeds follow from
/// `seed`, and the report does not depend on `threads`.
pub fn arena<G: Game>(
    options: &G::Options,
    players: u8,
    bots: &[BotSpec],
    games: u64,
    seed: u64,
    threads: usize,
) -> Result<ArenaReport, ArenaError>
where
    G::Options: Sync,
{
    if bots.is_empty() {
        return Err(ArenaError::NoBots);
    }
    let n = usize::from(players);
    let lineup: Vec<BotSpec> = (0..n).map(|i| bots[i % bots.len()]).collect();
    let mut names: Vec<String> = Vec::new();
    for b in &lineup {
        if !names.contains(&b.to_string()) {
            names.push(b.to_string());
        }
    }
    let mut tally = vec![(0u64, 0f64, 0i64); names.len()];
    let mut winning: Vec<i32> = Vec::new();
    let seats_of =
        |g: u64| -> Vec<BotSpec> { (0..n).map(|i| lineup[(i + g as usize) % n]).collect() };
    let outcomes = play_all(games, threads, |g| {
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g);
        play_game::<G>(options, &seats_of(g), game_seed, 100_000).map(|p| p.outcome)
    })?;
    for (g, o) in outcomes.iter().enumerate() {
        let seats = seats_of(g as u64);
        if let Some(best) = o.scores.iter().map(|x| x.total).max() {
            winning.push(best);
        }
        for (i, b) in seats.iter().enumerate() {
            let k = names.iter().position(|x| *x == b.to_string()).unwrap_or(0);
            let seat = Seat(i as u8);
            let won = o.winners.contains(&seat);
            let share = if won {
                1.0 / o.winners.len() as f64
            } else {
                0.0
            };
            let score = o
                .scores
                .iter()
                .find(|x| x.seat == seat)
                .map_or(0, |x| x.total);
            tally[k].0 += 1;
            tally[k].1 += share;
            tally[k].2 += i64::from(score);
        }
    }
    let bots = names
        .into_iter()
        .zip(tally)
        .map(|(bot, (games, wins, score))| {
            let (low, high) = wilson(wins, games);
            BotResult {
                bot,
                games,
                wins,
                win_rate: if games == 0 { 0.0 } else { wins / games as f64 },
                low,
                high,
                mean_score: if games == 0 {
                    0.0
                } else {
                    score as f64 / games as f64
                },
            }
        })
        .collect();
    winning.sort_unstable();
    let median_winning_score = match winning.len() {
        0 => 0.0,
        n if n % 2 == 1 => f64::from(winning[n / 2]),
        n => (f64::from(winning[n / 2 - 1]) + f64::from(winning[n / 2])) / 2.0,
    };
    Ok(ArenaReport {
        games,
        players,
        bots,
        median_winning_score,
    })
}

/// `play(g)` for every game `g` below `games`, `threads` at a time, in the order of `g`.
pub(crate) fn play_all<T: Send>(
    games: u64,
    threads: usize,
    play: impl Fn(u64) -> Result<T, ArenaError> + Sync,
) -> Result<Vec<T>, ArenaError> {
    let next = std::sync::atomic::AtomicU64::new(0);
    let mut done: Vec<(u64, T)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if g >= games {
                            return Ok(mine);
                        }
                        mine.push((g, play(g)?));
                    }
                })
            })
            .collect();
        let mut all = Vec::new();
        for w in workers {
            match w.join() {
                Ok(r) => all.extend(r?),
                Err(_) => {
                    return Err(ArenaError::Play {
                        ply: 0,
                        what: "an arena thread panicked".into(),
                    })
                }
            }
        }
        Ok(all)
    })?;
    done.sort_by_key(|(g, _)| *g);
    Ok(done.into_iter().map(|(_, t)| t).collect())
}

/// The Wilson score interval (95 %) of `wins` in `n` trials.
pub fn wilson(wins: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964f64;
    let n = n as f64;
    let p = wins / n;
    let d = 1.0 + z * z / n;
    let c = p + z * z / (2.0 * n);
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (((c - h) / d).max(0.0), ((c + h) / d).min(1.0))
}
