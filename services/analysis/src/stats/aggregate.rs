//! Statistics as mergeable aggregates: what [`super::compute`] counts, kept so that the
//! aggregates of disjoint sets of games merge into the aggregate of their union.
//!
//! Everything in one is a sum: counts, tallies whose shared wins are whole units
//! ([`super::SHARE_UNIT`]), and for each distribution the count of every value (a
//! [`Histogram`]), from which the mean, the extremes and the interpolated quantiles are exactly
//! what a scan of the values gives. So [`Aggregate::statistics`] of merged aggregates equals
//! `compute` over the same games, figure for figure (`tests/statistics.rs` checks it on every
//! way of splitting the sample games), whatever the order of the merges. This is what lets a
//! store keep aggregates per part (month, player count, …) and answer `statistics` by merging
//! a few of them instead of reading every game.

use super::figures::{kth_of_counts, quantile_ranks, summarise, Distribution};
use super::{player_count_figures, Lengths, Scores, Statistics, Tally};
use crate::summary::GameSummary;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How many times each whole number occurs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram(BTreeMap<i64, u64>);

impl Histogram {
    pub fn add(&mut self, x: i64) {
        *self.0.entry(x).or_default() += 1;
    }

    /// Uncounts one occurrence of `x` (counted before).
    pub fn remove(&mut self, x: i64) {
        if let Some(c) = self.0.get_mut(&x) {
            *c -= 1;
            if *c == 0 {
                self.0.remove(&x);
            }
        }
    }

    pub fn merge(&mut self, o: &Histogram) {
        for (&x, &c) in &o.0 {
            *self.0.entry(x).or_default() += c;
        }
    }

    /// The distribution of the counted values, as [`super::distribution`] gives it for them.
    pub fn distribution(&self) -> Option<Distribution> {
        let n: u64 = self.0.values().sum();
        let (&lo, &hi) = (self.0.keys().next()?, self.0.keys().next_back()?);
        let n = usize::try_from(n).ok()?;
        let sum: i128 = self
            .0
            .iter()
            .map(|(&x, &c)| i128::from(x) * i128::from(c))
            .sum();
        let ranks = quantile_ranks(n);
        let kth = kth_of_counts(self.0.iter().map(|(&x, &c)| (x, c)), &ranks);
        Some(summarise(n, sum, lo, hi, &kth))
    }
}

/// One player count's part.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct CountPart {
    games: u64,
    ties: u64,
    seats: Vec<Tally>,
    tags: BTreeMap<String, Tally>,
    totals: Histogram,
}

/// The statistics of a set of games, kept as sums.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Aggregate {
    games: u64,
    /// By player count.
    counts: BTreeMap<usize, CountPart>,
    scores: Histogram,
    /// Score categories in the order they were first met (a game kind's own order).
    categories: Vec<(String, Histogram)>,
    plies: Histogram,
    rounds: Histogram,
    wall_millis: Histogram,
}

impl Aggregate {
    pub fn of<'a>(games: impl IntoIterator<Item = &'a GameSummary>) -> Aggregate {
        let mut a = Aggregate::default();
        for g in games {
            a.add(g);
        }
        a
    }

    pub fn games(&self) -> u64 {
        self.games
    }

    /// Counts one game, as `compute` does (its loop keeps borrowed tags and plain vectors,
    /// the measured scan; this one keeps owned, mergeable sums; the statistics test holds
    /// the two to the same figures).
    pub fn add(&mut self, g: &GameSummary) {
        self.games += 1;
        let winners = g.winners();
        let part = self.counts.entry(g.seats.len()).or_default();
        part.games += 1;
        part.ties += u64::from(winners > 1);
        if part.seats.len() < g.seats.len() {
            part.seats.resize(g.seats.len(), Tally::default());
        }
        for (i, s) in g.seats.iter().enumerate() {
            part.seats[i].add(s.won, winners, s.total);
            for t in &s.tags {
                part.tags
                    .entry(t.clone())
                    .or_default()
                    .add(s.won, winners, s.total);
            }
            part.totals.add(i64::from(s.total));
            self.scores.add(i64::from(s.total));
            for (c, p) in &s.breakdown {
                category(&mut self.categories, c).add(i64::from(*p));
            }
        }
        self.plies.add(i64::from(g.plies));
        self.rounds.add(i64::from(g.rounds));
        self.wall_millis.add(g.wall_millis());
    }

    /// Uncounts one game counted before (a corrected game's old summary), leaving what
    /// counting the others alone would have.
    pub fn remove(&mut self, g: &GameSummary) {
        let Some(part) = self.counts.get_mut(&g.seats.len()) else {
            return;
        };
        self.games = self.games.saturating_sub(1);
        let winners = g.winners();
        part.games = part.games.saturating_sub(1);
        part.ties = part.ties.saturating_sub(u64::from(winners > 1));
        for (i, s) in g.seats.iter().enumerate() {
            if let Some(t) = part.seats.get_mut(i) {
                t.remove(s.won, winners, s.total);
            }
            for tag in &s.tags {
                if let Some(t) = part.tags.get_mut(tag) {
                    t.remove(s.won, winners, s.total);
                    if t.is_empty() {
                        part.tags.remove(tag);
                    }
                }
            }
            part.totals.remove(i64::from(s.total));
            self.scores.remove(i64::from(s.total));
            for (c, p) in &s.breakdown {
                category(&mut self.categories, c).remove(i64::from(*p));
            }
        }
        if part.games == 0 {
            self.counts.remove(&g.seats.len());
        }
        self.plies.remove(i64::from(g.plies));
        self.rounds.remove(i64::from(g.rounds));
        self.wall_millis.remove(g.wall_millis());
    }

    /// Adds another set of games (disjoint from this one) in.
    pub fn merge(&mut self, o: &Aggregate) {
        self.games += o.games;
        for (&players, p) in &o.counts {
            let part = self.counts.entry(players).or_default();
            part.games += p.games;
            part.ties += p.ties;
            if part.seats.len() < p.seats.len() {
                part.seats.resize(p.seats.len(), Tally::default());
            }
            for (mine, theirs) in part.seats.iter_mut().zip(&p.seats) {
                mine.merge(theirs);
            }
            for (tag, t) in &p.tags {
                part.tags.entry(tag.clone()).or_default().merge(t);
            }
            part.totals.merge(&p.totals);
        }
        self.scores.merge(&o.scores);
        for (c, h) in &o.categories {
            category(&mut self.categories, c).merge(h);
        }
        self.plies.merge(&o.plies);
        self.rounds.merge(&o.rounds);
        self.wall_millis.merge(&o.wall_millis);
    }

    /// The statistics of the games counted.
    pub fn statistics(&self) -> Statistics {
        Statistics {
            games: self.games,
            by_player_count: self
                .counts
                .iter()
                .filter(|(_, p)| p.games > 0)
                .map(|(&players, p)| {
                    player_count_figures(
                        players,
                        (p.games, p.ties),
                        &p.seats,
                        p.tags.iter().map(|(t, tally)| (t.as_str(), tally)),
                        p.totals.distribution(),
                    )
                })
                .collect(),
            scores: Scores {
                total: self.scores.distribution(),
                by_category: self
                    .categories
                    .iter()
                    .filter_map(|(c, h)| {
                        h.distribution().map(|d| super::CategoryStats {
                            category: c.clone(),
                            scores: d,
                        })
                    })
                    .collect(),
            },
            lengths: Lengths {
                plies: self.plies.distribution(),
                rounds: self.rounds.distribution(),
                wall_millis: self.wall_millis.distribution(),
            },
        }
    }
}

/// The histogram of category `c`, added at the end when first met.
fn category<'a>(categories: &'a mut Vec<(String, Histogram)>, c: &str) -> &'a mut Histogram {
    let i = match categories.iter().position(|(name, _)| name == c) {
        Some(i) => i,
        None => {
            categories.push((c.to_string(), Histogram::default()));
            categories.len() - 1
        }
    };
    &mut categories[i].1
}
