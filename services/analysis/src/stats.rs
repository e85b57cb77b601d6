//! Statistics over game summaries: win rates by seat with Wilson intervals, by tag, score
//! distributions overall and per category, game length, tie rate.
//!
//! Floats are fine here: statistics are derived, never replayed.

use crate::summary::GameSummary;
use chrono::{DateTime, Utc};
use serde::Serialize;
use std::collections::BTreeMap;

/// Which games to count.
#[derive(Debug, Clone, Default)]
pub struct StatsFilter {
    pub player_count: Option<usize>,
    pub player: Option<String>,
    pub tag: Option<String>,
    pub since: Option<DateTime<Utc>>,
    pub until: Option<DateTime<Utc>>,
}

impl StatsFilter {
    pub fn accepts(&self, g: &GameSummary) -> bool {
        self.player_count.is_none_or(|n| g.seats.len() == n)
            && self
                .player
                .as_ref()
                .is_none_or(|p| g.seats.iter().any(|s| &s.player == p))
            && self
                .tag
                .as_ref()
                .is_none_or(|t| g.seats.iter().any(|s| s.tags.contains(t)))
            && self.since.is_none_or(|t| g.created_at >= t)
            && self.until.is_none_or(|t| g.created_at < t)
    }
}

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rate {
    pub successes: f64,
    pub trials: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

/// Wilson score interval at 95% (z = 1.96). A shared win counts as 1/k of a win for each of the
/// k tied seats.
pub fn wilson(successes: f64, trials: u64) -> Rate {
    if trials == 0 {
        return Rate {
            successes,
            trials,
            rate: 0.0,
            low: 0.0,
            high: 0.0,
        };
    }
    let n = trials as f64;
    let p = successes / n;
    let z = 1.959_963_984_540_054_f64;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * ((p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt()) / (1.0 + z2 / n);
    Rate {
        successes,
        trials,
        rate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// Mean, median, 10th and 90th percentiles, min and max.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Distribution {
    pub count: usize,
    pub mean: f64,
    pub median: f64,
    pub p10: f64,
    pub p90: f64,
    pub min: f64,
    pub max: f64,
}

/// Percentiles by linear interpolation between closest ranks (as numpy's default).
pub fn distribution(mut xs: Vec<f64>) -> Option<Distribution> {
    if xs.is_empty() {
        return None;
    }
    xs.sort_by(f64::total_cmp);
    let q = |p: f64| {
        let pos = p * (xs.len() - 1) as f64;
        let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
        xs[lo] + (xs[hi] - xs[lo]) * (pos - lo as f64)
    };
    Some(Distribution {
        count: xs.len(),
        mean: xs.iter().sum::<f64>() / xs.len() as f64,
        median: q(0.5),
        p10: q(0.1),
        p90: q(0.9),
        min: xs[0],
        max: xs[xs.len() - 1],
    })
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatStats {
    pub seat: usize,
    pub win: Rate,
    pub mean_score: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TagStats {
    pub tag: String,
    /// Seats that had the tag.
    pub count: u64,
    pub win: Rate,
    pub mean_score: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CategoryStats {
    pub category: String,
    pub scores: Distribution,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Statistics {
    pub games: usize,
    pub by_seat: Vec<SeatStats>,
    pub by_tag: Vec<TagStats>,
    pub scores: Option<Distribution>,
    pub by_category: Vec<CategoryStats>,
    pub plies: Option<Distribution>,
    pub rounds: Option<Distribution>,
    pub wall_seconds: Option<Distribution>,
    /// Share of games won by more than one seat.
    pub tie_rate: f64,
}

/// Statistics over `games` (already filtered).
pub fn compute<'a>(games: impl IntoIterator<Item = &'a GameSummary>) -> Statistics {
    let mut n = 0usize;
    let mut seat_wins: Vec<(f64, u64, f64)> = Vec::new(); // (wins, trials, score sum)
    let mut tags: BTreeMap<String, (f64, u64, f64)> = BTreeMap::new();
    let mut scores = Vec::new();
    let mut categories: BTreeMap<String, (usize, Vec<f64>)> = BTreeMap::new();
    let (mut plies, mut rounds, mut wall) = (Vec::new(), Vec::new(), Vec::new());
    let mut ties = 0usize;
    for g in games {
        n += 1;
        let share = 1.0 / g.winners().max(1) as f64;
        if g.winners() > 1 {
            ties += 1;
        }
        for (i, s) in g.seats.iter().enumerate() {
            if seat_wins.len() <= i {
                seat_wins.resize(i + 1, (0.0, 0, 0.0));
            }
            let won = if s.won { share } else { 0.0 };
            let e = &mut seat_wins[i];
            *e = (e.0 + won, e.1 + 1, e.2 + f64::from(s.total));
            for t in &s.tags {
                let e = tags.entry(t.clone()).or_insert((0.0, 0, 0.0));
                *e = (e.0 + won, e.1 + 1, e.2 + f64::from(s.total));
            }
            scores.push(f64::from(s.total));
            for (pos, (c, p)) in s.breakdown.iter().enumerate() {
                let e = categories.entry(c.clone()).or_insert((pos, Vec::new()));
                e.1.push(f64::from(*p));
            }
        }
        plies.push(f64::from(g.plies));
        rounds.push(f64::from(g.rounds));
        wall.push(g.wall_seconds());
    }
    let mut by_category: Vec<(usize, CategoryStats)> = categories
        .into_iter()
        .filter_map(|(c, (pos, xs))| {
            distribution(xs).map(|d| {
                (
                    pos,
                    CategoryStats {
                        category: c,
                        scores: d,
                    },
                )
            })
        })
        .collect();
    by_category.sort_by_key(|(pos, _)| *pos);
    Statistics {
        games: n,
        by_seat: seat_wins
            .iter()
            .enumerate()
            .map(|(seat, (w, t, sum))| SeatStats {
                seat,
                win: wilson(*w, *t),
                mean_score: sum / (*t).max(1) as f64,
            })
            .collect(),
        by_tag: tags
            .into_iter()
            .map(|(tag, (w, t, sum))| TagStats {
                tag,
                count: t,
                win: wilson(w, t),
                mean_score: sum / t.max(1) as f64,
            })
            .collect(),
        scores: distribution(scores),
        by_category: by_category.into_iter().map(|(_, c)| c).collect(),
        plies: distribution(plies),
        rounds: distribution(rounds),
        wall_seconds: distribution(wall),
        tie_rate: if n == 0 { 0.0 } else { ties as f64 / n as f64 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_hand_computed_values() {
        // 7 of 10 (worked by hand): centre 0.6445, half-width 0.2477 → [0.3968, 0.8922].
        let r = wilson(7.0, 10);
        assert!((r.rate - 0.7).abs() < 1e-12);
        assert!((r.low - 0.396_8).abs() < 1e-3, "{r:?}");
        assert!((r.high - 0.892_2).abs() < 1e-3, "{r:?}");
        let r = wilson(0.0, 0);
        assert_eq!((r.low, r.high), (0.0, 0.0));
        let r = wilson(0.0, 5);
        assert_eq!(r.low, 0.0);
        assert!((r.high - 0.434_5).abs() < 1e-3, "{r:?}");
    }

    #[test]
    fn percentiles_interpolate() {
        let d = distribution(vec![10.0, 20.0, 30.0, 40.0, 50.0]).unwrap();
        assert_eq!((d.min, d.max, d.median, d.mean), (10.0, 50.0, 30.0, 30.0));
        assert!((d.p10 - 14.0).abs() < 1e-9);
        assert!((d.p90 - 46.0).abs() < 1e-9);
        assert!(distribution(vec![]).is_none());
    }
}
