//! The accuracy chart: each player's accuracy over their reviewed games (the range of it, as
//! the score panels draw points), and the win rate of the seats in each accuracy band, one
//! panel per player count. The figures come from the reviews (crate `review`), which this
//! crate does not read: the caller hands them over as plain rows.
use super::panel::{self, Panel, RangeRow, RateRow};
use super::{games, players, render, ChartError, Header};
use crate::stats::{distribution, Rate, StatsFilter};

/// One seat of a reviewed game: its player count, player, accuracy (0–100) and share of the
/// win.
#[derive(Debug, Clone)]
pub struct AccuracySeat {
    pub players: u32,
    pub player: String,
    pub accuracy: f64,
    pub won: f64,
}

/// Players shown, most games first.
const PLAYERS: usize = 20;

/// The chart of `seats` (reviewed games of `kind` under `filter`), bands `width` points wide.
pub fn accuracy_chart(
    kind: &str,
    filter: &StatsFilter,
    seats: &[AccuracySeat],
    width: u32,
    reviewed: u64,
) -> Result<String, ChartError> {
    let header = Header {
        title: format!("{kind}: accuracy"),
        subtitle: format!("n = {} reviewed · {}", games(reviewed), filter.describe()),
        note: "accuracy per game: line min–max · bar 10th–90th percentile · tick median · dot mean · whisker: 95% Wilson interval",
    };
    if seats.is_empty() {
        return render(&header, &[], "no reviewed games match").map_err(ChartError::Draw);
    }
    let by_player = by_player(seats);
    let mut panels = vec![Panel::Ranges {
        caption: format!(
            "accuracy by player · the {} with most games",
            by_player.len().min(PLAYERS)
        ),
        rows: by_player
            .into_iter()
            .take(PLAYERS)
            .filter_map(|(p, v)| {
                Some(RangeRow {
                    label: p,
                    scores: distribution(v)?,
                })
            })
            .collect(),
        unit: "%",
    }];
    let mut counts: Vec<u32> = seats.iter().map(|s| s.players).collect();
    counts.sort_unstable();
    counts.dedup();
    let width = width.clamp(1, 100);
    for n in counts {
        let rows = bands(seats, n, width)
            .into_iter()
            .map(|(from, rate)| RateRow {
                label: format!("{from}–{}", (from + width).min(100)),
                rate,
            })
            .collect();
        panels.push(Panel::Rates {
            caption: format!("win rate by accuracy band · {}", players(n)),
            rows,
            even: (n > 1).then(|| 1.0 / f64::from(n)),
            colour: panel::colour(n),
        });
    }
    render(&header, &panels, "").map_err(ChartError::Draw)
}

/// The lower edge of the band of `accuracy` (100 falls in the last band).
pub fn band(accuracy: f64, width: u32) -> u32 {
    let w = width.clamp(1, 100);
    ((accuracy.clamp(0.0, 100.0) as u32) / w * w).min(99 / w * w)
}

/// Each player's accuracies (rounded to whole points), most games first, then by name.
pub fn by_player(seats: &[AccuracySeat]) -> Vec<(String, Vec<i64>)> {
    let mut by: Vec<(String, Vec<i64>)> = Vec::new();
    for s in seats {
        let a = s.accuracy.round() as i64;
        match by.iter_mut().find(|(p, _)| *p == s.player) {
            Some((_, v)) => v.push(a),
            None => by.push((s.player.clone(), vec![a])),
        }
    }
    by.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    by
}

/// The seats of `players`-seat games in each accuracy band `width` points wide that has any:
/// the band's lower edge and the seats' win rate (a k-way tie counts 1/k).
pub fn bands(seats: &[AccuracySeat], players: u32, width: u32) -> Vec<(u32, Rate)> {
    let width = width.clamp(1, 100);
    let mut out = Vec::new();
    let mut from = 0;
    while from < 100 {
        let inside: Vec<&AccuracySeat> = seats
            .iter()
            .filter(|s| s.players == players && band(s.accuracy, width) == from)
            .collect();
        if !inside.is_empty() {
            let won: f64 = inside.iter().map(|s| s.won).sum();
            let wins = inside.iter().filter(|s| s.won > 0.0).count() as u64;
            out.push((from, Rate::new(inside.len() as u64, wins, won)));
        }
        from += width;
    }
    out
}
