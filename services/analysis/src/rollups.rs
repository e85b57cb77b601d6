//! The summaries of finished games with their statistics kept as aggregates
//! ([`crate::stats::aggregate`]) per game kind, player count and month the game was created:
//! a `statistics` query whose filter those parts can serve (none, a player count, times on
//! month boundaries) merges a few aggregates instead of folding every summary; any other
//! filter (a player, a tag, a time inside a month) scans the summaries. Both answer the same,
//! figure for figure (`tests/statistics.rs`). Score categories are listed in the order first
//! met, by the scan in id order and here in part order: the same because each game kind's
//! score sheet has one fixed list of categories (`scoring.rs` of each game).

use crate::stats::aggregate::Aggregate;
use crate::stats::{Statistics, StatsFilter};
use crate::summary::GameSummary;
use chrono::{DateTime, Datelike, TimeZone, Utc};
use rules_core::GameKind;
use std::collections::BTreeMap;
use store::GameId;

/// Every summary by id, and their aggregates by (kind, player count, month).
#[derive(Default)]
pub(crate) struct Summaries {
    by_id: BTreeMap<GameId, GameSummary>,
    parts: BTreeMap<(GameKind, usize, i32), Aggregate>,
}

impl Summaries {
    /// Keeps `s`, replacing (and uncounting) an earlier summary of its game.
    pub fn insert(&mut self, s: GameSummary) {
        if let Some(old) = self.by_id.get(&s.id) {
            let key = part_of(old);
            if let Some(a) = self.parts.get_mut(&key) {
                a.remove(old);
                if a.games() == 0 {
                    self.parts.remove(&key);
                }
            }
        }
        self.parts.entry(part_of(&s)).or_default().add(&s);
        self.by_id.insert(s.id, s);
    }

    pub fn clear(&mut self) {
        self.by_id.clear();
        self.parts.clear();
    }

    pub fn values(&self) -> impl Iterator<Item = &GameSummary> {
        self.by_id.values()
    }

    pub fn contains_key(&self, id: &GameId) -> bool {
        self.by_id.contains_key(id)
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The statistics of `kind` under `filter` from the aggregates, if they can serve it.
    pub fn served_by_parts(&self, kind: GameKind, filter: &StatsFilter) -> Option<Statistics> {
        if filter.player.is_some() || filter.tag.is_some() {
            return None;
        }
        let from = match filter.since {
            None => i32::MIN,
            Some(t) => month_at(t)?,
        };
        let to = match filter.until {
            None => i32::MAX,
            Some(t) => month_at(t)?,
        };
        let mut merged = Aggregate::default();
        let (lo, hi) = match filter.player_count {
            Some(n) => (n, n),
            None => (0, usize::MAX),
        };
        for ((_, _, month), a) in self
            .parts
            .range((kind, lo, i32::MIN)..=(kind, hi, i32::MAX))
        {
            if (from..to).contains(month) {
                merged.merge(a);
            }
        }
        Some(merged.statistics())
    }
}

/// The part a game's statistics are kept in.
fn part_of(g: &GameSummary) -> (GameKind, usize, i32) {
    (g.kind, g.seats.len(), month(g.created_at))
}

/// Months counted from year 0: `year × 12 + month − 1`.
fn month(t: DateTime<Utc>) -> i32 {
    t.year() * 12 + t.month0() as i32
}

/// The month `t` begins, if it is the first instant of one.
fn month_at(t: DateTime<Utc>) -> Option<i32> {
    let m = month(t);
    let start = Utc
        .with_ymd_and_hms(m.div_euclid(12), m.rem_euclid(12) as u32 + 1, 1, 0, 0, 0)
        .single()?;
    (start == t).then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::compute;
    use crate::summary::SeatSummary;

    /// Game `i`: 1–4 seats, created on day `i × 7` from 2026-01-01, seats scoring by `salt`.
    fn game(i: u64, salt: u64) -> GameSummary {
        let players = 1 + (i * 7 + salt) as usize % 4;
        let created = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap()
            + chrono::Duration::days(i as i64 * 7);
        let score = |seat: usize| ((i * 31 + salt * 17 + seat as u64 * 13) % 50) as i32;
        let best = (0..players).map(score).max().unwrap_or(0);
        GameSummary {
            id: GameId(i),
            kind: if i.is_multiple_of(5) {
                GameKind::Mombasa
            } else {
                GameKind::FiveTribes
            },
            seats: (0..players)
                .map(|seat| SeatSummary {
                    player: format!("p{}", (i + seat as u64) % 6),
                    total: score(seat),
                    breakdown: vec![
                        ("a".into(), score(seat) / 2),
                        ("b".into(), score(seat) - score(seat) / 2),
                    ],
                    won: score(seat) == best,
                    tags: vec![format!("t:{}", (i + salt) % 3)],
                })
                .collect(),
            plies: 100 + (i % 90) as u32,
            rounds: 10,
            created_at: created,
            updated_at: created + chrono::Duration::minutes((i * 37 % 500) as i64),
        }
    }

    /// With games replaced (as corrections replace summaries), every filter the parts serve
    /// answers what the scan answers, and every other filter is left to the scan.
    #[test]
    fn the_parts_answer_what_the_scan_answers() {
        let mut s = Summaries::default();
        for i in 0..120 {
            s.insert(game(i, 0));
        }
        for i in (0..120).step_by(3) {
            s.insert(game(i, 1));
        }
        let at = |m: u32| Utc.with_ymd_and_hms(2026, m, 1, 0, 0, 0).unwrap();
        let filters = [
            StatsFilter::default(),
            StatsFilter {
                player_count: Some(2),
                ..Default::default()
            },
            StatsFilter {
                player_count: Some(1),
                since: Some(at(3)),
                ..Default::default()
            },
            StatsFilter {
                since: Some(at(2)),
                until: Some(at(7)),
                ..Default::default()
            },
            StatsFilter {
                player_count: Some(4),
                until: Some(at(12)),
                ..Default::default()
            },
        ];
        for kind in [GameKind::FiveTribes, GameKind::Mombasa] {
            for f in &filters {
                let scan = compute(s.values().filter(|g| g.kind == kind && f.accepts(g)));
                assert!(scan.games > 0, "{f:?}");
                assert_eq!(s.served_by_parts(kind, f), Some(scan), "{kind:?} {f:?}");
            }
        }
        let inside = StatsFilter {
            since: Some(at(2) + chrono::Duration::days(3)),
            ..Default::default()
        };
        let tag = StatsFilter {
            tag: Some("t:1".into()),
            ..Default::default()
        };
        assert_eq!(s.served_by_parts(GameKind::FiveTribes, &inside), None);
        assert_eq!(s.served_by_parts(GameKind::FiveTribes, &tag), None);
    }

    #[test]
    fn only_the_first_instant_of_a_month_is_a_month_boundary() {
        let at = |s: &str| s.parse::<DateTime<Utc>>().unwrap();
        assert_eq!(month_at(at("2026-11-01T00:00:00Z")), Some(2026 * 12 + 10));
        assert_eq!(month_at(at("2026-01-01T00:00:00Z")), Some(2026 * 12));
        assert_eq!(month_at(at("2026-11-01T00:00:01Z")), None);
        assert_eq!(month_at(at("2026-11-15T00:00:00Z")), None);
        assert_eq!(month(at("2026-12-31T23:59:59Z")), 2026 * 12 + 11);
    }
}
