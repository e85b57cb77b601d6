//! Player ratings per game kind: Weng-Lin (the Bayesian system behind OpenSkill), from the
//! `skillratings` crate, over every finished game in creation order. Each seat is a team of one;
//! seats rank by final score, equal scores share a rank. Solo games are not rated.
//!
//! One walk ([`walk`]) rates the games; [`ratings`] keeps its final table and [`history`] the
//! points one player passed through, so a player's history always ends at the rating
//! `ratings` gives. Neither is kept between requests: each walks the summaries again.

use crate::summary::GameSummary;
use chrono::{DateTime, Utc};
use serde::Serialize;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use std::collections::{HashMap, VecDeque};
use store::GameId;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerRating {
    pub player: String,
    /// Estimated skill (μ; 25 to start).
    pub rating: f64,
    /// Uncertainty (σ; 25/3 to start).
    pub uncertainty: f64,
    /// A conservative skill, μ − 3σ: the order of the list.
    pub ordinal: f64,
    /// Seats rated (a name at two seats of one game counts both).
    pub games: u64,
}

/// A player's rating right after one game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingPoint {
    pub game: GameId,
    /// When the game ended (its last entry).
    pub ended_at: DateTime<Utc>,
    pub rating: f64,
    pub uncertainty: f64,
    pub ordinal: f64,
    /// Seats rated so far, this game's included.
    pub games: u64,
}

/// Every player's rating and seats rated, as a walk leaves them.
type Table<'a> = HashMap<&'a str, (WengLinRating, u64)>;

/// Rates `games` in the order given (creation order), calling `rated` after each rated game
/// (two seats or more) with the table as it stands then; returns the final table.
fn walk<'a>(
    games: impl IntoIterator<Item = &'a GameSummary>,
    mut rated: impl FnMut(&'a GameSummary, &Table<'a>),
) -> Table<'a> {
    let config = WengLinConfig::new();
    let mut table: Table<'a> = HashMap::new();
    for g in games {
        if g.seats.len() < 2 {
            continue;
        }
        let current: Vec<[WengLinRating; 1]> = g
            .seats
            .iter()
            .map(|s| {
                [table
                    .get(s.player.as_str())
                    .map_or_else(WengLinRating::new, |r| r.0)]
            })
            .collect();
        let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = g
            .seats
            .iter()
            .zip(&current)
            .map(|(s, r)| (&r[..], MultiTeamOutcome::new(rank(g, s.total))))
            .collect();
        let updated = weng_lin_multi_team(&teams, &config);
        for (s, new) in g.seats.iter().zip(updated) {
            let e = table
                .entry(s.player.as_str())
                .or_insert((WengLinRating::new(), 0));
            if let Some(r) = new.first() {
                e.0 = *r;
            }
            e.1 += 1;
        }
        rated(g, &table);
    }
    table
}

/// A seat's place in `g` by its `total`: 1 + the seats that scored more (ties share a place).
pub fn rank(g: &GameSummary, total: i32) -> usize {
    1 + g.seats.iter().filter(|o| o.total > total).count()
}

fn rating_of(player: &str, r: &WengLinRating, games: u64) -> PlayerRating {
    PlayerRating {
        player: player.to_string(),
        rating: r.rating,
        uncertainty: r.uncertainty,
        ordinal: r.rating - 3.0 * r.uncertainty,
        games,
    }
}

/// Ratings after `games` (in the order given: creation order), best first.
pub fn ratings<'a>(games: impl IntoIterator<Item = &'a GameSummary>) -> Vec<PlayerRating> {
    let mut out: Vec<PlayerRating> = walk(games, |_, _| {})
        .into_iter()
        .map(|(p, (r, n))| rating_of(p, &r, n))
        .collect();
    out.sort_by(|a, b| {
        b.ordinal
            .total_cmp(&a.ordinal)
            .then_with(|| a.player.cmp(&b.player))
    });
    out
}

/// `player`'s rating after each rated game of theirs among `games` (in the order given), the
/// last `last` of them (the whole history has one point per game, so it is bounded by the
/// caller), and the rating they end with (`None`: no rated game). One point per game: a name
/// at two seats of one game has the rating the table keeps after it.
pub fn history<'a>(
    games: impl IntoIterator<Item = &'a GameSummary>,
    player: &str,
    last: usize,
) -> (Vec<RatingPoint>, Option<PlayerRating>) {
    let mut points = VecDeque::new();
    let table = walk(games, |g, table| {
        if last == 0 || !g.seats.iter().any(|s| s.player == player) {
            return;
        }
        if let Some((r, n)) = table.get(player) {
            if points.len() == last {
                points.pop_front();
            }
            points.push_back(RatingPoint {
                game: g.id,
                ended_at: g.updated_at,
                rating: r.rating,
                uncertainty: r.uncertainty,
                ordinal: r.rating - 3.0 * r.uncertainty,
                games: *n,
            });
        }
    });
    let now = table.get(player).map(|(r, n)| rating_of(player, r, *n));
    (points.into(), now)
}
