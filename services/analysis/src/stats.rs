//! Statistics over game summaries: win rates by seat with Wilson intervals, by tag, score
//! distributions overall and per category, game length, tie rate.
//!
//! Floats are fine here: statistics are derived, never replayed.

use crate::summary::GameSummary;
use chrono::{DateTime, Utc};
use rustc_hash::FxHashMap;
use serde::Serialize;

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

/// Percentiles by linear interpolation between closest ranks (as numpy's default), over whole
/// numbers (points, plies, rounds, milliseconds). Order statistics are found by counting when
/// the values span a small range (points, plies, rounds) and by selection otherwise, never by
/// a full sort: a statistics query over 10,000 games computes a dozen of these over 30,000
/// values each.
pub fn distribution(mut xs: Vec<i64>) -> Option<Distribution> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len();
    let mean = xs.iter().map(|&x| x as f64).sum::<f64>() / n as f64;
    let lo_v = xs.iter().copied().min().unwrap_or(0);
    let hi_v = xs.iter().copied().max().unwrap_or(0);
    let (min, max) = (lo_v as f64, hi_v as f64);
    // The order statistics the three quantiles interpolate between.
    let ranks: Vec<usize> = [0.1, 0.5, 0.9]
        .iter()
        .flat_map(|p| {
            let lo = (p * (n - 1) as f64).floor() as usize;
            [lo, (lo + 1).min(n - 1)]
        })
        .collect();
    let kth = match hi_v.checked_sub(lo_v).and_then(|r| usize::try_from(r).ok()) {
        // Points, plies and rounds span a few hundred values: counting them is linear and
        // beats selection (three passes over tens of thousands of values) by a wide margin.
        Some(range) if range <= 4 * n + 1024 => {
            let mut counts = vec![0u32; range + 1];
            for &x in &xs {
                counts[(x - lo_v) as usize] += 1;
            }
            let mut sorted_ranks = ranks.clone();
            sorted_ranks.sort_unstable();
            let mut values = Vec::with_capacity(ranks.len());
            let (mut seen, mut v) = (0usize, 0usize);
            for r in &sorted_ranks {
                while seen + counts[v] as usize <= *r {
                    seen += counts[v] as usize;
                    v += 1;
                }
                values.push((*r, lo_v + v as i64));
            }
            ranks
                .iter()
                .map(|r| values.iter().find(|(k, _)| k == r).map_or(lo_v, |x| x.1))
                .collect::<Vec<i64>>()
        }
        _ => ranks
            .iter()
            .map(|&r| *xs.select_nth_unstable(r).1)
            .collect::<Vec<i64>>(),
    };
    let q = |i: usize, p: f64| {
        let pos = p * (n - 1) as f64;
        let (a, b) = (kth[2 * i], kth[2 * i + 1]);
        a as f64 + (b - a) as f64 * (pos - pos.floor())
    };
    let (p10, median, p90) = (q(0, 0.1), q(1, 0.5), q(2, 0.9));
    Some(Distribution {
        count: n,
        mean,
        median,
        p10,
        p90,
        min,
        max,
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
    /// In milliseconds.
    pub wall_millis: Option<Distribution>,
    /// Share of games won by more than one seat.
    pub tie_rate: f64,
}

/// Statistics over `games` (already filtered).
pub fn compute<'a>(games: impl IntoIterator<Item = &'a GameSummary>) -> Statistics {
    let mut n = 0usize;
    let mut seat_wins: Vec<(f64, u64, f64)> = Vec::new(); // (wins, trials, score sum)
                                                          // Hashing, not ordered maps: string comparisons dominated the query; outputs are sorted below.
    let mut tags: FxHashMap<&'a str, (f64, u64, f64)> = FxHashMap::default();
    let mut scores = Vec::new();
    // Categories by their position on the score sheet (the same for every game of a kind), with
    // a lookup by name only when a game's sheet differs.
    let mut categories: Vec<(&'a str, Vec<i64>)> = Vec::new();
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
                let e = tags.entry(t.as_str()).or_insert((0.0, 0, 0.0));
                *e = (e.0 + won, e.1 + 1, e.2 + f64::from(s.total));
            }
            scores.push(i64::from(s.total));
            for (pos, (c, p)) in s.breakdown.iter().enumerate() {
                let slot = match categories.get(pos) {
                    Some((name, _)) if *name == c.as_str() => pos,
                    _ => match categories.iter().position(|(name, _)| *name == c.as_str()) {
                        Some(i) => i,
                        None => {
                            categories.push((c.as_str(), Vec::new()));
                            categories.len() - 1
                        }
                    },
                };
                categories[slot].1.push(i64::from(*p));
            }
        }
        plies.push(i64::from(g.plies));
        rounds.push(i64::from(g.rounds));
        wall.push(g.wall_millis());
    }
    let by_category: Vec<CategoryStats> = categories
        .into_iter()
        .filter_map(|(c, xs)| {
            distribution(xs).map(|d| CategoryStats {
                category: c.to_string(),
                scores: d,
            })
        })
        .collect();
    let mut by_tag: Vec<(&str, (f64, u64, f64))> = tags.into_iter().collect();
    by_tag.sort_by(|a, b| a.0.cmp(b.0));
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
        by_tag: by_tag
            .into_iter()
            .map(|(tag, (w, t, sum))| TagStats {
                tag: tag.to_string(),
                count: t,
                win: wilson(w, t),
                mean_score: sum / t.max(1) as f64,
            })
            .collect(),
        scores: distribution(scores),
        by_category,
        plies: distribution(plies),
        rounds: distribution(rounds),
        wall_millis: distribution(wall),
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
        let d = distribution(vec![10, 20, 30, 40, 50]).unwrap();
        assert_eq!((d.min, d.max, d.median, d.mean), (10.0, 50.0, 30.0, 30.0));
        assert!((d.p10 - 14.0).abs() < 1e-9);
        assert!((d.p90 - 46.0).abs() < 1e-9);
        assert!(distribution(vec![]).is_none());
    }

    /// Counting and selection give the quantiles a full sort gives, on narrow and wide ranges.
    #[test]
    fn quantiles_equal_those_of_a_full_sort() {
        fn by_sort(mut xs: Vec<i64>) -> (f64, f64, f64) {
            xs.sort_unstable();
            let q = |p: f64| {
                let pos = p * (xs.len() - 1) as f64;
                let lo = pos.floor() as usize;
                let b = xs[(lo + 1).min(xs.len() - 1)];
                xs[lo] as f64 + (b - xs[lo]) as f64 * (pos - lo as f64)
            };
            (q(0.1), q(0.5), q(0.9))
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..400 {
            let n = 1 + (next() % 300) as usize;
            let span = [3, 50, 1_000, 10_000_000][case % 4];
            let xs: Vec<i64> = (0..n)
                .map(|_| (next() % span) as i64 - span as i64 / 3)
                .collect();
            let d = distribution(xs.clone()).unwrap();
            assert_eq!((d.p10, d.median, d.p90), by_sort(xs), "case {case}");
        }
    }
}
