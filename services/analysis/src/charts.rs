//! Charts as SVG, drawn server-side from [`Statistics`] with plotters' SVG backend.
//!
//! plotters is built without its `ttf` feature: text is written as SVG `<text>` for the
//! browser to lay out, sized by plotters' own estimate, so no system font (nor font-kit,
//! fontconfig) is needed on a headless server.
//!
//! Every chart says what it counts: its subtitle gives n (the games counted) and the filter
//! the statistics were computed under, and a note says what bars, whiskers and lines mean.
//! Win rates are drawn in one panel per player count (an even chance differs, and a solo game
//! is "won" on its own terms), tags in one panel per tag group and player count (clans and
//! ports are never sorted into one list). Axes have round ticks. The same statistics and
//! filter always give the same bytes, and no games gives a chart saying so, never a panic.
//!
//! # The charts ([`CHARTS`])
//! - `win-rate-by-seat`: per player count, each seat's win rate (a k-way tie counts 1/k) with
//!   its 95% Wilson interval, against an even chance (1/players).
//! - `win-rate-by-tag`: per tag group and player count, each tag's win rate (of the seats with
//!   the tag), best first. `group` picks one group (`clan`, `djinn`, …); without it, all.
//! - `score-by-category`: points per score category (min–max, p10–p90, median, mean) and the
//!   total per player count.
//!
//! Beside them, [`accuracy_chart`] draws what reviews (which the caller reads) say: each
//! player's accuracy per game, and the win rate by accuracy band per player count.

mod accuracy;
mod panel;

pub use accuracy::{accuracy_chart, band, bands, by_player, AccuracySeat};

use crate::stats::{Statistics, StatsFilter};
use panel::{Area, Drawn, Panel, RangeRow, RateRow};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// The charts there are, by file stem.
pub const CHARTS: [&str; 3] = ["win-rate-by-seat", "win-rate-by-tag", "score-by-category"];

#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    #[error("there is no chart `{0}`: the charts are win-rate-by-seat, win-rate-by-tag and score-by-category")]
    Unknown(String),
    /// plotters refused to draw (it writes to a string, so this is not expected).
    #[error("the chart could not be drawn: {0}")]
    Draw(String),
}

/// Height of the title, subtitle and note above the panels, and of a message in their place.
const HEADER: u32 = 74;
const MESSAGE: u32 = 60;
const BOTTOM: u32 = 8;

/// What stands above a chart's panels.
struct Header {
    title: String,
    subtitle: String,
    note: &'static str,
}

/// The chart `name` (see [`CHARTS`]) of `stats`, computed for games of `kind` under `filter`
/// (shown in the picture: pass the filter `stats` were computed with). `group` selects one
/// tag group for `win-rate-by-tag` and is ignored by the other charts.
pub fn chart(
    name: &str,
    kind: &str,
    stats: &Statistics,
    filter: &StatsFilter,
    group: Option<&str>,
) -> Result<String, ChartError> {
    let (what, note) = match name {
        "win-rate-by-seat" => (
            "win rate by seat",
            "bar: win rate (a win shared by k seats counts 1/k) · whisker: 95% Wilson interval · dashes: an even chance",
        ),
        "win-rate-by-tag" => (
            "win rate by tag",
            "bar: win rate of the n seats with the tag (a shared win counts 1/k) · whisker: 95% Wilson interval · dashes: an even chance",
        ),
        "score-by-category" => (
            "points by score category",
            "line: min–max · bar: 10th–90th percentile · tick: median · dot: mean",
        ),
        _ => return Err(ChartError::Unknown(name.to_string())),
    };
    let title = match group {
        Some(g) if name == "win-rate-by-tag" => format!("{kind}: {what}, group {g}"),
        _ => format!("{kind}: {what}"),
    };
    let header = Header {
        title,
        subtitle: format!("n = {} · {}", games(stats.games), filter.describe()),
        note,
    };
    let (panels, message) = if stats.games == 0 {
        (Vec::new(), "no games match".to_string())
    } else {
        match name {
            "win-rate-by-seat" => (seat_panels(stats), String::new()),
            "win-rate-by-tag" => tag_panels(stats, group),
            _ => (score_panels(stats), String::new()),
        }
    };
    render(&header, &panels, &message).map_err(|e| ChartError::Draw(e.to_string()))
}

/// `1 game` or `3 games`.
fn games(n: u64) -> String {
    match n {
        1 => "1 game".to_string(),
        n => format!("{n} games"),
    }
}

/// `solo` or `3 players`.
fn players(n: u32) -> String {
    match n {
        1 => "solo".to_string(),
        n => format!("{n} players"),
    }
}

/// The win rate of a seat at random: none for solo games, which are not won against anyone.
fn even_chance(players: u32) -> Option<f64> {
    (players > 1).then(|| 1.0 / f64::from(players))
}

fn seat_panels(stats: &Statistics) -> Vec<Panel> {
    stats
        .by_player_count
        .iter()
        .map(|pc| Panel::Rates {
            caption: format!("{} · {}", players(pc.players), games(pc.games)),
            rows: pc
                .by_seat
                .iter()
                .map(|s| RateRow {
                    label: format!("seat {}", s.seat),
                    rate: s.win,
                })
                .collect(),
            even: even_chance(pc.players),
            colour: panel::colour(pc.players),
        })
        .collect()
}

/// One panel per tag group and player count, or a message when there is none to draw.
fn tag_panels(stats: &Statistics, only: Option<&str>) -> (Vec<Panel>, String) {
    let groups = stats.tag_groups();
    let chosen: Vec<&str> = groups
        .iter()
        .copied()
        .filter(|g| only.is_none_or(|o| o == *g))
        .collect();
    let mut panels = Vec::new();
    for group in &chosen {
        for pc in &stats.by_player_count {
            let Some(tags) = pc.tag_groups.iter().find(|t| t.group == *group) else {
                continue;
            };
            let mut tags: Vec<_> = tags.tags.iter().collect();
            // Best first; ties in the order the statistics give (value order).
            tags.sort_by(|a, b| b.win.rate.total_cmp(&a.win.rate));
            let name = if group.is_empty() { "tags" } else { group };
            panels.push(Panel::Rates {
                caption: format!("{name} · {} · {}", players(pc.players), games(pc.games)),
                rows: tags
                    .into_iter()
                    .map(|t| RateRow {
                        label: t.value.clone(),
                        rate: t.win,
                    })
                    .collect(),
                even: even_chance(pc.players),
                colour: panel::colour(pc.players),
            });
        }
    }
    let message = match (panels.is_empty(), only) {
        (false, _) => String::new(),
        (true, Some(g)) if !groups.is_empty() => format!(
            "no tag of group {g} in these games (groups: {})",
            groups.join(", ")
        ),
        (true, Some(g)) => format!("no tag of group {g} in these games"),
        (true, None) => "no tags in these games".to_string(),
    };
    (panels, message)
}

fn score_panels(stats: &Statistics) -> Vec<Panel> {
    let mut panels = Vec::new();
    let seats = stats.scores.total.map_or(0, |d| d.count);
    if !stats.scores.by_category.is_empty() {
        panels.push(Panel::Ranges {
            caption: format!("points per category · {seats} seats"),
            rows: stats
                .scores
                .by_category
                .iter()
                .map(|c| RangeRow {
                    label: c.category.clone(),
                    scores: c.scores,
                })
                .collect(),
            unit: "",
        });
    }
    let totals: Vec<RangeRow> = stats
        .by_player_count
        .iter()
        .filter_map(|pc| {
            pc.scores.map(|d| RangeRow {
                label: players(pc.players),
                scores: d,
            })
        })
        .collect();
    if !totals.is_empty() {
        panels.push(Panel::Ranges {
            caption: "total points by player count".to_string(),
            rows: totals,
            unit: "",
        });
    }
    panels
}

fn render(header: &Header, panels: &[Panel], message: &str) -> Result<String, String> {
    let body = if panels.is_empty() {
        MESSAGE
    } else {
        panels.iter().map(Panel::height).sum()
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (panel::WIDTH, HEADER + body + BOTTOM))
            .into_drawing_area();
        draw(&root, header, panels, message).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

fn draw(root: &Area<'_>, header: &Header, panels: &[Panel], message: &str) -> Drawn {
    use panel::{text_style, INK, MUTED};
    root.fill(&WHITE)?;
    let centre = i32::try_from(panel::WIDTH / 2).unwrap_or(0);
    let top = |px, colour| text_style(px, colour, HPos::Center, VPos::Top);
    root.draw(&Text::new(header.title.as_str(), (centre, 8), top(16, INK)))?;
    root.draw(&Text::new(
        header.subtitle.as_str(),
        (centre, 32),
        top(12, INK),
    ))?;
    root.draw(&Text::new(header.note, (centre, 52), top(10, MUTED)))?;
    let (_, mut rest) = root.split_vertically(HEADER);
    if panels.is_empty() {
        rest.draw(&Text::new(message, (centre, 16), top(14, INK)))?;
    }
    for p in panels {
        let (area, below) = rest.split_vertically(p.height());
        p.draw(&area)?;
        rest = below;
    }
    Ok(())
}
