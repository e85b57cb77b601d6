//! Charts as SVG, drawn server-side from `Statistics`: win rate by seat and by tag (with 95%
//! Wilson intervals), score distribution per category (p10–p90 bar, median, mean).
//!
//! Written by hand rather than with a plotting crate: three bar charts need a few dozen SVG
//! elements, and a plotting library would bring font discovery (system fonts, fontconfig) into
//! a headless server for the sake of text the browser lays out anyway.

use crate::stats::{Rate, Statistics};
use std::fmt::Write;

/// The charts there are, by file stem.
pub const CHARTS: [&str; 3] = ["win-rate-by-seat", "win-rate-by-tag", "score-by-category"];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

const W: f64 = 720.0;
const LEFT: f64 = 170.0;
const RIGHT: f64 = 40.0;
const ROW: f64 = 26.0;
const TOP: f64 = 56.0;

fn frame(title: &str, rows: usize, axis_max: f64, axis_label: &str, body: &str) -> String {
    let h = TOP + ROW * rows.max(1) as f64 + 40.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" viewBox="0 0 {W} {h}" font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="#fff"/><text x="{}" y="24" font-size="16" text-anchor="middle">{}</text>"##,
        W / 2.0,
        esc(title)
    );
    let plot_w = W - LEFT - RIGHT;
    let bottom = TOP + ROW * rows.max(1) as f64;
    for i in 0..=4 {
        let x = LEFT + plot_w * f64::from(i) / 4.0;
        let v = axis_max * f64::from(i) / 4.0;
        let _ = write!(
            s,
            r##"<line x1="{x:.1}" y1="{}" x2="{x:.1}" y2="{bottom:.1}" stroke="#ddd"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            TOP - 6.0,
            bottom + 16.0,
            if axis_max <= 1.0 {
                format!("{:.0}%", v * 100.0)
            } else {
                format!("{v:.0}")
            }
        );
    }
    let _ = write!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
        LEFT + plot_w / 2.0,
        bottom + 34.0,
        esc(axis_label)
    );
    s.push_str(body);
    s.push_str("</svg>\n");
    s
}

fn rate_rows(rows: &[(String, Rate)]) -> String {
    let plot_w = W - LEFT - RIGHT;
    let mut b = String::new();
    for (i, (label, r)) in rows.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        let _ = write!(
            b,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text><rect x="{LEFT}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#4878a8"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#222"/><text x="{:.1}" y="{:.1}" fill="#222">{:.1}% (n={})</text>"##,
            LEFT - 8.0,
            y + ROW * 0.65,
            esc(label),
            y + 4.0,
            plot_w * r.rate,
            ROW - 8.0,
            LEFT + plot_w * r.low,
            y + ROW / 2.0,
            LEFT + plot_w * r.high,
            y + ROW / 2.0,
            LEFT + plot_w * r.high + 4.0,
            y + ROW * 0.65,
            r.rate * 100.0,
            r.trials
        );
    }
    b
}

/// One chart, by stem (see [`CHARTS`]); `None` for an unknown name.
pub fn chart(name: &str, kind: &str, s: &Statistics) -> Option<String> {
    match name {
        "win-rate-by-seat" => {
            let rows: Vec<(String, Rate)> = s
                .by_seat
                .iter()
                .map(|r| (format!("seat {}", r.seat), r.win))
                .collect();
            Some(frame(
                &format!(
                    "{kind}: win rate by seat ({} games, 95% intervals)",
                    s.games
                ),
                rows.len(),
                1.0,
                "win rate",
                &rate_rows(&rows),
            ))
        }
        "win-rate-by-tag" => {
            let mut tags = s.by_tag.clone();
            tags.sort_by(|a, b| {
                b.win
                    .rate
                    .total_cmp(&a.win.rate)
                    .then_with(|| a.tag.cmp(&b.tag))
            });
            let rows: Vec<(String, Rate)> = tags.into_iter().map(|t| (t.tag, t.win)).collect();
            Some(frame(
                &format!("{kind}: win rate by tag (95% intervals)"),
                rows.len(),
                1.0,
                "win rate of the seats with the tag",
                &rate_rows(&rows),
            ))
        }
        "score-by-category" => {
            let max = s
                .by_category
                .iter()
                .map(|c| c.scores.max)
                .fold(1.0, f64::max);
            let plot_w = W - LEFT - RIGHT;
            let x = |v: f64| LEFT + plot_w * v.max(0.0) / max;
            let mut b = String::new();
            for (i, c) in s.by_category.iter().enumerate() {
                let y = TOP + ROW * i as f64;
                let d = &c.scores;
                let _ = write!(
                    b,
                    r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#9cc0e0"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#1f4e79" stroke-width="2"/><circle cx="{:.1}" cy="{:.1}" r="3" fill="#c0392b"/>"##,
                    LEFT - 8.0,
                    y + ROW * 0.65,
                    esc(&c.category),
                    x(d.p10),
                    y + 4.0,
                    (x(d.p90) - x(d.p10)).max(1.0),
                    ROW - 8.0,
                    x(d.median),
                    y + 3.0,
                    x(d.median),
                    y + ROW - 3.0,
                    x(d.mean),
                    y + ROW / 2.0
                );
            }
            Some(frame(
                &format!("{kind}: points per category (bar p10–p90, line median, dot mean)"),
                s.by_category.len(),
                max,
                "points",
                &b,
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_escaped_and_unknown_charts_refused() {
        assert_eq!(esc(r#"<a & "b">"#), "&lt;a &amp; &quot;b&quot;&gt;");
        let s = crate::stats::compute(std::iter::empty());
        assert!(chart("nope", "k", &s).is_none());
        for name in CHARTS {
            let svg = chart(name, "five-tribes", &s).unwrap();
            assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
        }
    }
}
