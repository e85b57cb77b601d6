//! `statistics` as GraphQL types: the analysis crate's figures (already rounded there), one
//! type each, with counts as integers. Win rates come per player count — solo games never
//! pool with multiplayer ones — and tags per group (`djinn`, `clan`, `port`).

use async_graphql::SimpleObject;

/// Statistics of the finished games a filter selects.
#[derive(SimpleObject)]
#[graphql(complex)]
pub struct Statistics {
    /// Games counted, all player counts together.
    pub games: u64,
    /// Who wins, for each player count present, fewest players first.
    pub by_player_count: Vec<PlayerCountStatistics>,
    /// Final scores of every seat of every counted game.
    pub scores: ScoreStatistics,
    /// How long the games last.
    pub lengths: LengthStatistics,
    /// What was counted (for `byAccuracy`, `crate::accuracy`).
    #[graphql(skip)]
    pub kind: rules_core::GameKind,
    #[graphql(skip)]
    pub filter: analysis::StatsFilter,
}

/// Who wins among the games with one number of seats.
#[derive(SimpleObject)]
pub struct PlayerCountStatistics {
    /// Seats per game.
    pub players: u32,
    pub games: u64,
    /// Games won by more than one seat.
    pub ties: u64,
    /// `ties / games`, to 4 decimals.
    pub tie_rate: f64,
    /// One per seat, from seat 0.
    pub by_seat: Vec<SeatStatistics>,
    /// Tags by group (`djinn:baal` is in group `djinn`), groups in name order.
    pub tag_groups: Vec<TagGroup>,
    /// Final scores of these games' seats.
    pub scores: Option<Distribution>,
}

/// How one seat fared.
#[derive(SimpleObject)]
pub struct SeatStatistics {
    pub seat: u32,
    pub win: WinRate,
    /// To 2 decimals.
    pub mean_score: f64,
}

/// The tags of one group.
#[derive(SimpleObject)]
pub struct TagGroup {
    pub group: String,
    pub tags: Vec<TagStatistics>,
}

/// How the seats with one tag fared.
#[derive(SimpleObject)]
pub struct TagStatistics {
    /// The whole tag (`djinn:baal`).
    pub tag: String,
    /// The part after the group (`baal`).
    pub value: String,
    /// Seats that had the tag.
    pub count: u64,
    pub win: WinRate,
    /// To 2 decimals.
    pub mean_score: f64,
}

/// A proportion of wins with its 95% Wilson score interval (4 decimals).
#[derive(SimpleObject)]
pub struct WinRate {
    /// Seats (or games) counted.
    pub trials: u64,
    /// Trials among the winners, a shared win counted whole.
    pub wins: u64,
    /// Wins with a win shared by k seats counted 1/k.
    pub successes: f64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

/// A distribution of whole numbers: mean, quantiles (linear interpolation), extremes.
#[derive(SimpleObject)]
pub struct Distribution {
    pub count: u64,
    pub mean: f64,
    pub median: f64,
    pub p10: f64,
    pub p90: f64,
    pub min: i64,
    pub max: i64,
}

#[derive(SimpleObject)]
pub struct ScoreStatistics {
    pub total: Option<Distribution>,
    /// In score-sheet order.
    pub by_category: Vec<CategoryStatistics>,
}

#[derive(SimpleObject)]
pub struct CategoryStatistics {
    pub category: String,
    pub scores: Distribution,
}

#[derive(SimpleObject)]
pub struct LengthStatistics {
    /// Entries in the log.
    pub plies: Option<Distribution>,
    pub rounds: Option<Distribution>,
    /// From creation to the last entry, in milliseconds.
    pub wall_millis: Option<Distribution>,
}

impl From<&analysis::stats::Distribution> for Distribution {
    fn from(d: &analysis::stats::Distribution) -> Self {
        Distribution {
            count: d.count,
            mean: d.mean,
            median: d.median,
            p10: d.p10,
            p90: d.p90,
            min: d.min,
            max: d.max,
        }
    }
}

impl From<&analysis::stats::Rate> for WinRate {
    fn from(r: &analysis::stats::Rate) -> Self {
        WinRate {
            trials: r.trials,
            wins: r.wins,
            successes: r.successes,
            rate: r.rate,
            low: r.low,
            high: r.high,
        }
    }
}

fn dist(d: &Option<analysis::stats::Distribution>) -> Option<Distribution> {
    d.as_ref().map(Distribution::from)
}

impl Statistics {
    /// `s`, computed for `kind` under `filter`, as GraphQL types.
    pub fn of(
        s: &analysis::Statistics,
        kind: rules_core::GameKind,
        filter: analysis::StatsFilter,
    ) -> Self {
        Statistics {
            kind,
            filter,
            games: s.games,
            by_player_count: s
                .by_player_count
                .iter()
                .map(|p| PlayerCountStatistics {
                    players: p.players,
                    games: p.games,
                    ties: p.ties,
                    tie_rate: p.tie_rate,
                    by_seat: p
                        .by_seat
                        .iter()
                        .map(|x| SeatStatistics {
                            seat: x.seat,
                            win: (&x.win).into(),
                            mean_score: x.mean_score,
                        })
                        .collect(),
                    tag_groups: p
                        .tag_groups
                        .iter()
                        .map(|g| TagGroup {
                            group: g.group.clone(),
                            tags: g
                                .tags
                                .iter()
                                .map(|t| TagStatistics {
                                    tag: t.tag.clone(),
                                    value: t.value.clone(),
                                    count: t.count,
                                    win: (&t.win).into(),
                                    mean_score: t.mean_score,
                                })
                                .collect(),
                        })
                        .collect(),
                    scores: dist(&p.scores),
                })
                .collect(),
            scores: ScoreStatistics {
                total: dist(&s.scores.total),
                by_category: s
                    .scores
                    .by_category
                    .iter()
                    .map(|c| CategoryStatistics {
                        category: c.category.clone(),
                        scores: (&c.scores).into(),
                    })
                    .collect(),
            },
            lengths: LengthStatistics {
                plies: dist(&s.lengths.plies),
                rounds: dist(&s.lengths.rounds),
                wall_millis: dist(&s.lengths.wall_millis),
            },
        }
    }
}
