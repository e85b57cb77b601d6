//! One player's results: per game kind and per player count, from the summaries of finished
//! games, with the player's rating from the same walk as `ratings` ([`crate::ratings`]).
//!
//! Figures count seats, as `ratings` does (a name at two seats of one game counts both). A
//! kind's headline figures are over its games against others (two seats or more, the games
//! that are rated): a solo game of Clans of Caledonia is always "won", so solo games are
//! counted apart (`solo_games`) and shown in `by_player_count` only. Shared wins count as
//! wins, and are also counted on their own. Means are rounded to 2 decimals, rates to 4.

use crate::ratings::{rank, PlayerRating};
use crate::stats::{round2, round4};
use crate::summary::GameSummary;
use rules_core::GameKind;
use serde::Serialize;
use std::collections::BTreeMap;

/// A player's results in one kind of game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KindResult {
    pub kind: GameKind,
    /// Games against others (two seats or more).
    pub figures: Figures,
    /// Solo games (one seat).
    pub solo_games: u64,
    /// The rating after the last of those games (`None` when none was rated).
    pub rating: Option<PlayerRating>,
    /// By the number of seats, fewest first (solo games included).
    pub by_player_count: Vec<(usize, Figures)>,
}

/// Games, wins and means over a set of the player's seats.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figures {
    pub games: u64,
    /// Games won, shared wins included.
    pub wins: u64,
    /// Wins shared with another seat.
    pub shared_wins: u64,
    /// `wins / games`; `None` without games.
    pub win_rate: Option<f64>,
    pub mean_score: Option<f64>,
    /// 1 is first; tied seats share the better place.
    pub mean_rank: Option<f64>,
}

#[derive(Default)]
struct Sums {
    games: u64,
    wins: u64,
    shared: u64,
    score: i64,
    rank: u64,
}

impl Sums {
    fn add(&mut self, g: &GameSummary, seat: usize) {
        let s = &g.seats[seat];
        self.games += 1;
        if s.won {
            self.wins += 1;
            if g.winners() > 1 {
                self.shared += 1;
            }
        }
        self.score += i64::from(s.total);
        self.rank += rank(g, s.total) as u64;
    }

    fn figures(&self) -> Figures {
        let n = self.games as f64;
        let mean = |x: f64| (self.games > 0).then(|| x / n);
        Figures {
            games: self.games,
            wins: self.wins,
            shared_wins: self.shared,
            win_rate: mean(self.wins as f64).map(round4),
            mean_score: mean(self.score as f64).map(round2),
            mean_rank: mean(self.rank as f64).map(round2),
        }
    }
}

/// `player`'s results over `games` (finished games of every kind), by kind in
/// [`GameKind::ALL`] order, only kinds with a game of theirs; `rating` gives a kind's rating.
pub fn results<'a>(
    games: impl IntoIterator<Item = &'a GameSummary>,
    player: &str,
    mut rating: impl FnMut(GameKind) -> Option<PlayerRating>,
) -> Vec<KindResult> {
    let mut by: BTreeMap<(GameKind, usize), Sums> = BTreeMap::new();
    for g in games {
        for (i, s) in g.seats.iter().enumerate() {
            if s.player == player {
                by.entry((g.kind, g.seats.len())).or_default().add(g, i);
            }
        }
    }
    GameKind::ALL
        .into_iter()
        .filter_map(|kind| {
            let counts: Vec<(usize, &Sums)> = by
                .range((kind, 0)..=(kind, usize::MAX))
                .map(|((_, n), s)| (*n, s))
                .collect();
            if counts.is_empty() {
                return None;
            }
            let mut all = Sums::default();
            for (_, s) in counts.iter().filter(|(n, _)| *n >= 2) {
                all.games += s.games;
                all.wins += s.wins;
                all.shared += s.shared;
                all.score += s.score;
                all.rank += s.rank;
            }
            Some(KindResult {
                kind,
                figures: all.figures(),
                solo_games: counts
                    .iter()
                    .filter(|(n, _)| *n < 2)
                    .map(|(_, s)| s.games)
                    .sum(),
                rating: rating(kind),
                by_player_count: counts.iter().map(|(n, s)| (*n, s.figures())).collect(),
            })
        })
        .collect()
}
