//! Player ratings per game kind: Weng-Lin (the Bayesian system behind OpenSkill), from the
//! `skillratings` crate, over every finished game in creation order. Each seat is a team of one;
//! seats rank by final score, equal scores share a rank.

use crate::summary::GameSummary;
use serde::Serialize;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerRating {
    pub player: String,
    /// Estimated skill (μ; 25 to start).
    pub rating: f64,
    /// Uncertainty (σ; 25/3 to start).
    pub uncertainty: f64,
    /// A conservative skill, μ − 3σ: the order of the list.
    pub ordinal: f64,
    pub games: u64,
}

/// Ratings after `games` (in the order given: creation order), best first.
pub fn ratings<'a>(games: impl IntoIterator<Item = &'a GameSummary>) -> Vec<PlayerRating> {
    let config = WengLinConfig::new();
    let mut table: HashMap<&'a str, (WengLinRating, u64)> = HashMap::new();
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
            .map(|(s, r)| {
                let rank = 1 + g.seats.iter().filter(|o| o.total > s.total).count();
                (&r[..], MultiTeamOutcome::new(rank))
            })
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
    }
    let mut out: Vec<PlayerRating> = table
        .into_iter()
        .map(|(p, (r, n))| PlayerRating {
            player: p.to_string(),
            rating: r.rating,
            uncertainty: r.uncertainty,
            ordinal: r.rating - 3.0 * r.uncertainty,
            games: n,
        })
        .collect();
    out.sort_by(|a, b| {
        b.ordinal
            .total_cmp(&a.ordinal)
            .then_with(|| a.player.cmp(&b.player))
    });
    out
}
