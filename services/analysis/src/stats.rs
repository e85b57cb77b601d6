//! Statistics over game summaries, knowing no game by name.
//!
//! Win rates only mean something among games with the same number of seats (an even chance is
//! 1/2 in a 2-player game, 1/4 in a 4-player one, and a solo game of Clans of Caledonia is
//! always "won"), so everything about winning is split by player count and never pooled:
//! games, tie rate, win rate by seat and per tag, tags grouped by the part of their name
//! before `:` (`djinn:baal` → group `djinn`, value `baal`). Score distributions (total and per
//! category) and lengths (plies, rounds, wall time) are over every counted game; a filter on
//! the player count gives them for one count.
//!
//! Counts are integers; figures are rounded where they are made (rates and intervals to 4
//! decimals, means and quantiles to 2: see [`figures`]). Floats are fine here: statistics are
//! derived, never replayed.

pub mod aggregate;
pub mod figures;

pub use figures::{distribution, round2, round4, wilson, Distribution, Rate};

use crate::summary::GameSummary;
use chrono::{DateTime, SecondsFormat, Utc};
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::cmp::Ordering;
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

    /// The filter in words, for a chart's subtitle: `all games`, or e.g.
    /// `3 players · tag djinn:baal · since 2026-01-01T00:00:00Z`.
    pub fn describe(&self) -> String {
        let time = |t: &DateTime<Utc>| t.to_rfc3339_opts(SecondsFormat::Secs, true);
        let parts: Vec<String> = [
            self.player_count.map(|n| match n {
                1 => "solo games".to_string(),
                n => format!("{n} players"),
            }),
            self.player.as_ref().map(|p| format!("player {p}")),
            self.tag.as_ref().map(|t| format!("tag {t}")),
            self.since.as_ref().map(|t| format!("since {}", time(t))),
            self.until.as_ref().map(|t| format!("until {}", time(t))),
        ]
        .into_iter()
        .flatten()
        .collect();
        if parts.is_empty() {
            "all games".to_string()
        } else {
            parts.join(" · ")
        }
    }
}

/// Statistics of the games a filter accepted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Statistics {
    /// Games counted, all player counts together.
    pub games: u64,
    /// Who wins, for each player count present, fewest players first.
    pub by_player_count: Vec<PlayerCountStats>,
    /// Final scores of every seat of every counted game.
    pub scores: Scores,
    pub lengths: Lengths,
}

impl Statistics {
    /// The statistics of games with `players` seats, if any was counted.
    pub fn player_count(&self, players: u32) -> Option<&PlayerCountStats> {
        self.by_player_count.iter().find(|p| p.players == players)
    }

    /// The tag groups seen at any player count, in name order.
    pub fn tag_groups(&self) -> Vec<&str> {
        let mut groups: Vec<&str> = self
            .by_player_count
            .iter()
            .flat_map(|p| p.tag_groups.iter().map(|g| g.group.as_str()))
            .collect();
        groups.sort_unstable();
        groups.dedup();
        groups
    }
}

/// Who wins among the games with one number of seats.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerCountStats {
    /// Seats per game.
    pub players: u32,
    pub games: u64,
    /// Games won by more than one seat.
    pub ties: u64,
    /// `ties / games`, 4 decimals.
    pub tie_rate: f64,
    /// One per seat, from seat 0.
    pub by_seat: Vec<SeatStats>,
    /// Tags by group, groups in name order.
    pub tag_groups: Vec<TagGroup>,
    /// Final scores of these games' seats.
    pub scores: Option<Distribution>,
}

/// How one seat fared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatStats {
    /// The seat, from 0.
    pub seat: u32,
    /// Over the games counted; a win shared by k seats counts 1/k.
    pub win: Rate,
    /// 2 decimals.
    pub mean_score: f64,
}

/// The tags whose names start with `group:` (tags without `:` form the group `""`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TagGroup {
    pub group: String,
    /// In value order (numbers by value: `port:2` before `port:10`).
    pub tags: Vec<TagStats>,
}

/// How the seats with one tag fared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TagStats {
    /// The whole tag, as the game wrote it (`djinn:baal`).
    pub tag: String,
    /// The part after the group (`baal`).
    pub value: String,
    /// Seats that had the tag.
    pub count: u64,
    /// Of those seats; a win shared by k seats counts 1/k.
    pub win: Rate,
    /// 2 decimals.
    pub mean_score: f64,
}

/// Final scores: totals and each category of the score sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scores {
    pub total: Option<Distribution>,
    /// In score-sheet order.
    pub by_category: Vec<CategoryStats>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CategoryStats {
    pub category: String,
    pub scores: Distribution,
}

/// How long games last.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lengths {
    /// Entries in the log.
    pub plies: Option<Distribution>,
    pub rounds: Option<Distribution>,
    /// From creation to the last entry, in milliseconds.
    pub wall_millis: Option<Distribution>,
}

/// Splits a tag into its group and value: `djinn:baal` → (`djinn`, `baal`); `x` → (``, `x`).
pub fn tag_group(tag: &str) -> (&str, &str) {
    tag.split_once(':').unwrap_or(("", tag))
}

/// Wins and scores of some seats, summed while counting. Scores are summed as integers so the
/// mean is exact before its one rounding.
/// A win shared by k seats counts 1/k: kept in whole units of 1/[`SHARE_UNIT`] (divisible by
/// every k up to 10 seats), so that tallies add up exactly in any order — a scan and merged
/// aggregates ([`aggregate`]) give the same figures to the last bit.
pub const SHARE_UNIT: u64 = 2520;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub(crate) struct Tally {
    trials: u64,
    wins: u64,
    /// Successes in units of 1/`SHARE_UNIT`.
    shares: u64,
    score: i64,
}

impl Tally {
    /// One seat: whether it won, among how many winners, with what score.
    pub(crate) fn add(&mut self, won: bool, winners: usize, score: i32) {
        self.trials += 1;
        self.wins += u64::from(won);
        if won {
            self.shares += SHARE_UNIT / winners.max(1) as u64;
        }
        self.score += i64::from(score);
    }

    /// Uncounts a seat [`Self::add`] counted.
    pub(crate) fn remove(&mut self, won: bool, winners: usize, score: i32) {
        // Saturating: a seat never counted cannot take a tally below nothing.
        self.trials = self.trials.saturating_sub(1);
        self.wins = self.wins.saturating_sub(u64::from(won));
        if won {
            self.shares = self
                .shares
                .saturating_sub(SHARE_UNIT / winners.max(1) as u64);
        }
        self.score -= i64::from(score);
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.trials == 0
    }

    pub(crate) fn merge(&mut self, o: &Tally) {
        self.trials += o.trials;
        self.wins += o.wins;
        self.shares += o.shares;
        self.score += o.score;
    }

    fn rate(&self) -> Rate {
        Rate::new(
            self.trials,
            self.wins,
            self.shares as f64 / SHARE_UNIT as f64,
        )
    }

    fn mean_score(&self) -> f64 {
        round2(self.score as f64 / self.trials.max(1) as f64)
    }
}

#[derive(Default)]
struct PlayerCountTally<'a> {
    games: u64,
    ties: u64,
    seats: Vec<Tally>,
    // Hashing, not ordered maps: string comparisons dominated the query; outputs are sorted
    // (and grouped) once at the end, over a few dozen distinct tags.
    tags: FxHashMap<&'a str, Tally>,
    totals: Vec<i64>,
}

/// Statistics over `games` (already filtered).
pub fn compute<'a>(games: impl IntoIterator<Item = &'a GameSummary>) -> Statistics {
    let mut n = 0u64;
    // Indexed by player count: a handful of entries, so a vector beats any map.
    let mut by_count: Vec<PlayerCountTally<'a>> = Vec::new();
    let mut scores = Vec::new();
    // Categories by their position on the score sheet (the same for every game of a kind), with
    // a lookup by name only when a game's sheet differs.
    let mut categories: Vec<(&'a str, Vec<i64>)> = Vec::new();
    let (mut plies, mut rounds, mut wall) = (Vec::new(), Vec::new(), Vec::new());
    for g in games {
        n += 1;
        let players = g.seats.len();
        if by_count.len() <= players {
            by_count.resize_with(players + 1, PlayerCountTally::default);
        }
        let pc = &mut by_count[players];
        pc.games += 1;
        let winners = g.winners();
        pc.ties += u64::from(winners > 1);
        if pc.seats.len() < players {
            pc.seats.resize(players, Tally::default());
        }
        for (i, s) in g.seats.iter().enumerate() {
            pc.seats[i].add(s.won, winners, s.total);
            for t in &s.tags {
                pc.tags
                    .entry(t.as_str())
                    .or_default()
                    .add(s.won, winners, s.total);
            }
            pc.totals.push(i64::from(s.total));
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
    let by_player_count = by_count
        .into_iter()
        .enumerate()
        .filter(|(_, pc)| pc.games > 0)
        .map(|(players, pc)| player_count_stats(players, pc))
        .collect();
    Statistics {
        games: n,
        by_player_count,
        scores: Scores {
            total: distribution(scores),
            by_category: categories
                .into_iter()
                .filter_map(|(c, xs)| {
                    distribution(xs).map(|d| CategoryStats {
                        category: c.to_string(),
                        scores: d,
                    })
                })
                .collect(),
        },
        lengths: Lengths {
            plies: distribution(plies),
            rounds: distribution(rounds),
            wall_millis: distribution(wall),
        },
    }
}

fn player_count_stats(players: usize, pc: PlayerCountTally<'_>) -> PlayerCountStats {
    player_count_figures(
        players,
        (pc.games, pc.ties),
        &pc.seats,
        pc.tags.iter().map(|(t, tally)| (*t, tally)),
        distribution(pc.totals),
    )
}

/// One player count's figures from its tallies (a scan's or merged aggregates').
pub(crate) fn player_count_figures<'t>(
    players: usize,
    (games, ties): (u64, u64),
    seats: &[Tally],
    tags: impl Iterator<Item = (&'t str, &'t Tally)>,
    scores: Option<Distribution>,
) -> PlayerCountStats {
    let mut groups: BTreeMap<&str, Vec<TagStats>> = BTreeMap::new();
    for (tag, t) in tags {
        let (group, value) = tag_group(tag);
        groups.entry(group).or_default().push(TagStats {
            tag: tag.to_string(),
            value: value.to_string(),
            count: t.trials,
            win: t.rate(),
            mean_score: t.mean_score(),
        });
    }
    PlayerCountStats {
        players: u32::try_from(players).unwrap_or(u32::MAX),
        games,
        ties,
        tie_rate: round4(ties as f64 / games.max(1) as f64),
        by_seat: seats
            .iter()
            .enumerate()
            .map(|(seat, t)| SeatStats {
                seat: u32::try_from(seat).unwrap_or(u32::MAX),
                win: t.rate(),
                mean_score: t.mean_score(),
            })
            .collect(),
        tag_groups: groups
            .into_iter()
            .map(|(group, mut tags)| {
                tags.sort_by(|a, b| natural(&a.value, &b.value));
                TagGroup {
                    group: group.to_string(),
                    tags,
                }
            })
            .collect(),
        scores,
    }
}

/// Numbers by value and before words (ports `2` < `10`), words by text.
fn natural(a: &str, b: &str) -> Ordering {
    match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y).then_with(|| a.cmp(b)),
        (Ok(_), Err(_)) => Ordering::Less,
        (Err(_), Ok(_)) => Ordering::Greater,
        (Err(_), Err(_)) => a.cmp(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_split_at_the_first_colon() {
        assert_eq!(tag_group("djinn:baal"), ("djinn", "baal"));
        assert_eq!(tag_group("port:7"), ("port", "7"));
        assert_eq!(tag_group("a:b:c"), ("a", "b:c"));
        assert_eq!(tag_group("plain"), ("", "plain"));
        let mut v = vec!["10", "2", "b", "1", "a"];
        v.sort_by(|a, b| natural(a, b));
        assert_eq!(v, ["1", "2", "10", "a", "b"]);
    }

    #[test]
    fn filters_are_described_in_words() {
        assert_eq!(StatsFilter::default().describe(), "all games");
        let f = StatsFilter {
            player_count: Some(3),
            tag: Some("clan:buchanan".into()),
            since: DateTime::from_timestamp(1_767_225_600, 0),
            ..Default::default()
        };
        assert_eq!(
            f.describe(),
            "3 players · tag clan:buchanan · since 2026-01-01T00:00:00Z"
        );
        let solo = StatsFilter {
            player_count: Some(1),
            ..Default::default()
        };
        assert_eq!(solo.describe(), "solo games");
    }
}
