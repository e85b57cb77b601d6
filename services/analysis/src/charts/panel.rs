//! One panel of a chart, drawn with plotters: horizontal bars of rates with their Wilson
//! intervals, or ranges of whole numbers (min–max, p10–p90, median, mean). A chart stacks
//! panels; each has its own caption and axis, so no two populations share a scale they should
//! not (solo and multiplayer win rates, clans and ports).

use crate::stats::{Distribution, Rate};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;

/// What a drawing step can fail with (the SVG backend writes to a `String`, so in practice
/// nothing, but plotters' API is fallible and a chart must never panic).
pub(super) type Drawn = Result<(), DrawingAreaErrorKind<std::io::Error>>;
pub(super) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Width of every chart, in pixels.
pub(super) const WIDTH: u32 = 760;
/// Height of one row (a bar), of a panel's caption and of its axis.
const ROW: u32 = 22;
const CAPTION: u32 = 26;
const AXIS: u32 = 40;
/// Room for the row labels left of the plot, and for the figures right of it.
const LABELS: u32 = 130;
const FIGURES: u32 = 150;
/// Longest row label drawn in full (plotters cannot measure text without fonts, so labels are
/// kept short enough to fit `LABELS` rather than measured).
const LABEL_CHARS: usize = 20;

/// A font size plotters writes back exactly: it divides sizes by 1.24 when writing SVG, so a
/// pixel size is passed pre-multiplied (only sizes whose product divides back to a whole
/// number are used: 10, 11, 12, 14, 16).
pub(super) fn font(px: u32) -> f64 {
    f64::from(px) * 1.24
}

pub(super) fn text_style(px: u32, colour: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    ("sans-serif", font(px))
        .into_font()
        .color(&colour)
        .pos(Pos::new(h, v))
}

pub(super) const INK: RGBColor = RGBColor(34, 34, 34);
pub(super) const MUTED: RGBColor = RGBColor(110, 110, 110);
const GRID: RGBColor = RGBColor(228, 228, 228);
const EVEN: RGBColor = RGBColor(150, 150, 150);
const RANGE: RGBColor = RGBColor(156, 192, 224);
const MEDIAN: RGBColor = RGBColor(31, 78, 121);
const MEAN: RGBColor = RGBColor(192, 57, 43);

/// The colour of the panels of games with `players` seats, the same in every chart.
pub(super) fn colour(players: u32) -> RGBColor {
    match players {
        1 => RGBColor(120, 120, 120),
        2 => RGBColor(72, 120, 168),
        3 => RGBColor(221, 132, 82),
        4 => RGBColor(85, 168, 104),
        5 => RGBColor(129, 114, 179),
        _ => RGBColor(196, 78, 82),
    }
}

/// A linear axis over `range` whose grid lines and labels are exactly `ticks`: plotters picks
/// its own key points for a plain `f64` range (0.1234-style labels are possible), and its
/// `with_key_points` wrapper loses the label formatting an `f64` axis needs.
struct Axis {
    range: Range<f64>,
    ticks: Vec<f64>,
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.range.end - self.range.start;
        if span <= 0.0 {
            return limit.0;
        }
        let share = (value - self.range.start) / span;
        limit.0 + (f64::from(limit.1 - limit.0) * share).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        // Bold points only: no light grid between the round ticks.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

/// The vertical axis of `n` rows: no ticks, rows are labelled by hand.
fn rows_axis(n: usize) -> Axis {
    Axis {
        range: 0.0..n.max(1) as f64,
        ticks: Vec::new(),
    }
}

/// A bar of a rate panel.
pub(super) struct RateRow {
    pub label: String,
    pub rate: Rate,
}

/// A row of a range panel.
pub(super) struct RangeRow {
    pub label: String,
    pub scores: Distribution,
}

pub(super) enum Panel {
    /// Win rates on a 0–100% axis, with a dashed line at an even chance if there is one.
    Rates {
        caption: String,
        rows: Vec<RateRow>,
        even: Option<f64>,
        colour: RGBColor,
    },
    /// Whole numbers (points) on an axis of round ticks covering every row's min and max.
    Ranges {
        caption: String,
        rows: Vec<RangeRow>,
        unit: &'static str,
    },
}

impl Panel {
    pub fn height(&self) -> u32 {
        let rows = match self {
            Panel::Rates { rows, .. } => rows.len(),
            Panel::Ranges { rows, .. } => rows.len(),
        };
        CAPTION + ROW * u32::try_from(rows.max(1)).unwrap_or(1) + AXIS
    }

    pub fn draw(&self, area: &Area<'_>) -> Drawn {
        match self {
            Panel::Rates {
                caption,
                rows,
                even,
                colour,
            } => rates(area, caption, rows, *even, *colour),
            Panel::Ranges {
                caption,
                rows,
                unit,
            } => ranges(area, caption, rows, unit),
        }
    }
}

fn short(label: &str) -> String {
    if label.chars().count() <= LABEL_CHARS {
        label.to_string()
    } else {
        let mut s: String = label.chars().take(LABEL_CHARS - 1).collect();
        s.push('…');
        s
    }
}

/// Percent with one decimal, from a rate already rounded to 4 decimals (so exact).
fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// The y of row `i`'s centre when `n` rows fill the axis 0..n top down.
fn mid(n: usize, i: usize) -> f64 {
    (n - i) as f64 - 0.5
}

fn rates(
    area: &Area<'_>,
    caption: &str,
    rows: &[RateRow],
    even: Option<f64>,
    colour: RGBColor,
) -> Drawn {
    let n = rows.len();
    // Round ticks: 0%, 10%, … 100%, always the whole scale so panels compare at a glance.
    let ticks: Vec<f64> = (0..=10).map(|k| f64::from(k) / 10.0).collect();
    let mut chart = ChartBuilder::on(area)
        .caption(caption, text_style(12, INK, HPos::Center, VPos::Top))
        .margin_left(8)
        .margin_right(FIGURES)
        .margin_bottom(4)
        .x_label_area_size(AXIS - 10)
        .y_label_area_size(LABELS)
        .build_cartesian_2d(
            Axis {
                range: 0.0..1.0,
                ticks,
            },
            rows_axis(n),
        )?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .bold_line_style(GRID)
        .label_style(text_style(10, MUTED, HPos::Center, VPos::Top))
        .x_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .draw()?;
    if let Some(e) = even {
        chart.draw_series(std::iter::once(DashedPathElement::new(
            vec![(e, 0.0), (e, n as f64)],
            4,
            3,
            EVEN.stroke_width(1),
        )))?;
    }
    chart.draw_series(rows.iter().enumerate().map(|(i, r)| {
        let y = mid(n, i);
        Rectangle::new(
            [(0.0, y + 0.3), (r.rate.rate, y - 0.3)],
            colour.mix(0.85).filled(),
        )
    }))?;
    // The interval: a line from low to high with end caps.
    chart.draw_series(rows.iter().enumerate().flat_map(|(i, r)| {
        let y = mid(n, i);
        let (lo, hi) = (r.rate.low, r.rate.high);
        [
            PathElement::new(vec![(lo, y), (hi, y)], INK.stroke_width(1)),
            PathElement::new(vec![(lo, y - 0.2), (lo, y + 0.2)], INK.stroke_width(1)),
            PathElement::new(vec![(hi, y - 0.2), (hi, y + 0.2)], INK.stroke_width(1)),
        ]
    }))?;
    let left = text_style(11, INK, HPos::Right, VPos::Center);
    let right = text_style(11, INK, HPos::Left, VPos::Center);
    chart.draw_series(rows.iter().enumerate().map(|(i, r)| {
        EmptyElement::at((0.0, mid(n, i))) + Text::new(short(&r.label), (-8, 0), left.clone())
    }))?;
    chart.draw_series(rows.iter().enumerate().map(|(i, r)| {
        let figure = format!("{} (n = {})", percent(r.rate.rate), r.rate.trials);
        EmptyElement::at((1.0, mid(n, i))) + Text::new(figure, (8, 0), right.clone())
    }))?;
    Ok(())
}

/// Round ticks covering `lo..=hi`: steps of 1, 2 or 5 times a power of ten, about eight of
/// them, on whole numbers (points are whole), at least two.
pub(super) fn ticks(lo: i64, hi: i64) -> Vec<i64> {
    let raw = (hi.saturating_sub(lo)).max(1) as f64 / 8.0;
    let magnitude = 10f64.powi(raw.log10().floor() as i32);
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    let step = (step.round() as i64).max(1);
    let start = lo.div_euclid(step) * step;
    let end = (hi.div_euclid(step) + i64::from(hi.rem_euclid(step) != 0)) * step;
    let end = end.max(start + step);
    (0..)
        .map(|k| start + k * step)
        .take_while(|v| *v <= end)
        .collect()
}

fn ranges(area: &Area<'_>, caption: &str, rows: &[RangeRow], unit: &str) -> Drawn {
    let n = rows.len();
    let lo = rows.iter().map(|r| r.scores.min).min().unwrap_or(0).min(0);
    let hi = rows.iter().map(|r| r.scores.max).max().unwrap_or(1);
    let ticks = ticks(lo, hi);
    let (first, last) = (ticks[0] as f64, ticks[ticks.len() - 1] as f64);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, text_style(12, INK, HPos::Center, VPos::Top))
        .margin_left(8)
        .margin_right(FIGURES)
        .margin_bottom(4)
        .x_label_area_size(AXIS - 10)
        .y_label_area_size(LABELS)
        .build_cartesian_2d(
            Axis {
                range: first..last,
                ticks: ticks.iter().map(|t| *t as f64).collect(),
            },
            rows_axis(n),
        )?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .bold_line_style(GRID)
        .label_style(text_style(10, MUTED, HPos::Center, VPos::Top))
        .x_label_formatter(&|v| format!("{v:.0}"))
        .draw()?;
    chart.draw_series(rows.iter().enumerate().map(|(i, r)| {
        let y = mid(n, i);
        PathElement::new(
            vec![(r.scores.min as f64, y), (r.scores.max as f64, y)],
            MUTED.stroke_width(1),
        )
    }))?;
    chart.draw_series(rows.iter().enumerate().map(|(i, r)| {
        let y = mid(n, i);
        Rectangle::new(
            [(r.scores.p10, y + 0.3), (r.scores.p90, y - 0.3)],
            RANGE.filled(),
        )
    }))?;
    chart.draw_series(rows.iter().enumerate().map(|(i, r)| {
        let y = mid(n, i);
        PathElement::new(
            vec![(r.scores.median, y - 0.35), (r.scores.median, y + 0.35)],
            MEDIAN.stroke_width(2),
        )
    }))?;
    chart.draw_series(
        rows.iter()
            .enumerate()
            .map(|(i, r)| Circle::new((r.scores.mean, mid(n, i)), 3, MEAN.filled())),
    )?;
    let left = text_style(11, INK, HPos::Right, VPos::Center);
    let right = text_style(11, INK, HPos::Left, VPos::Center);
    chart.draw_series(rows.iter().enumerate().map(|(i, r)| {
        EmptyElement::at((first, mid(n, i))) + Text::new(short(&r.label), (-8, 0), left.clone())
    }))?;
    chart.draw_series(rows.iter().enumerate().map(|(i, r)| {
        let figure = format!("median {} · mean {} {unit}", r.scores.median, r.scores.mean);
        EmptyElement::at((last, mid(n, i))) + Text::new(figure, (8, 0), right.clone())
    }))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(0, 100), vec![0, 20, 40, 60, 80, 100]);
        assert_eq!(ticks(0, 73), vec![0, 10, 20, 30, 40, 50, 60, 70, 80]);
        assert_eq!(ticks(-12, 31), vec![-20, -10, 0, 10, 20, 30, 40]);
        assert_eq!(ticks(0, 0), vec![0, 1]);
        assert_eq!(ticks(0, 3), vec![0, 1, 2, 3]);
        assert_eq!(ticks(5, 5), vec![5, 6]);
    }

    #[test]
    fn long_labels_are_shortened() {
        assert_eq!(short("baal"), "baal");
        assert_eq!(
            short("a-very-long-tag-value-indeed").chars().count(),
            LABEL_CHARS
        );
    }
}
