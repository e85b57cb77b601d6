//! The `evaluations` export: one row per position and seat of every reviewed finished game of a
//! kind — the seat's chance to win with its interval, expected score and rank — and, on the row
//! of the seat whose move made the position, that move's judgement. Streamed a game at a time
//! (memory holds one review). Games without a current review are left out; columns in
//! `schema/exports.md`.
use crate::judged::{judgements, Judged};
use crate::record::{self, Chances, Kept, Review};
use crate::ReviewError;
use rules_core::GameKind;
use std::io::Write;
use store::GameLog;

/// CSV or NDJSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Ndjson,
}

const COLUMNS: [&str; 16] = [
    "game_id",
    "ply",
    "seat",
    "player",
    "win_chance",
    "low",
    "high",
    "expected_score",
    "expected_rank",
    "move",
    "judgement",
    "before",
    "after",
    "loss",
    "best",
    "best_win_chance",
];

/// Writes the `evaluations` table of `kind`; the rows written.
pub fn evaluations(
    store: &dyn GameLog,
    kind: GameKind,
    format: Format,
    out: &mut dyn Write,
) -> Result<u64, ReviewError> {
    // Game id order (creation order), as the other exports.
    let headers = record::finished_games(store, Some(kind))?;
    let mut rows_written = 0;
    let csv = format == Format::Csv;
    if csv {
        writeln!(out, "{}", COLUMNS.join(","))?;
    }
    for h in &headers {
        let Kept::Current(r) = record::read(store, h)? else {
            continue;
        };
        let entries = store.entries(h.id, 0, h.plies)?;
        let judged = judgements(&r, &entries);
        let id = h.id.to_string();
        for row in rows(h, &r, &judged) {
            let (c, j) = (row.chances, row.judged);
            if csv {
                let cells: [String; 16] = [
                    id.clone(),
                    row.ply.to_string(),
                    row.seat.to_string(),
                    csv_text(row.player),
                    num(c.win),
                    num(c.low),
                    num(c.high),
                    num(c.score),
                    num(c.rank),
                    j.map_or(String::new(), |j| csv_text(&j.notation)),
                    j.map_or(String::new(), |j| j.class.name().to_string()),
                    j.map_or(String::new(), |j| num(j.before as f32)),
                    j.map_or(String::new(), |j| num(j.after as f32)),
                    j.map_or(String::new(), |j| num(j.loss() as f32)),
                    j.and_then(|j| j.best.as_ref())
                        .map_or(String::new(), |b| csv_text(&b.0)),
                    j.and_then(|j| j.best.as_ref())
                        .map_or(String::new(), |b| num(b.1 as f32)),
                ];
                writeln!(out, "{}", cells.join(","))?;
            } else {
                let row = serde_json::json!({
                    "game_id": id,
                    "ply": row.ply,
                    "seat": row.seat,
                    "player": row.player,
                    "win_chance": c.win,
                    "low": c.low,
                    "high": c.high,
                    "expected_score": c.score,
                    "expected_rank": c.rank,
                    "move": j.map(|j| &j.notation),
                    "judgement": j.map(|j| j.class.name()),
                    "before": j.map(|j| j.before),
                    "after": j.map(|j| j.after),
                    "loss": j.map(|j| j.loss()),
                    "best": j.and_then(|j| j.best.as_ref()).map(|b| &b.0),
                    "best_win_chance": j.and_then(|j| j.best.as_ref()).map(|b| b.1),
                });
                serde_json::to_writer(&mut *out, &row)
                    .map_err(|e| ReviewError::Encode(e.to_string()))?;
                out.write_all(b"\n")?;
            }
            rows_written += 1;
        }
    }
    Ok(rows_written)
}

/// One row of the `evaluations` table: a position and a seat, with the judged move that made
/// the position when it was this seat's.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// The position (0: before the deal).
    pub ply: usize,
    pub seat: usize,
    /// The seat's player ("" if the header names none).
    pub player: &'a str,
    pub chances: &'a Chances,
    /// The seat's move that made this position (entry `ply`, from 1), judged.
    pub judged: Option<&'a Judged>,
}

/// The rows of `h`'s review `r` (with `judged`, its judgements), position by position, seat
/// by seat: what the CSV, the NDJSON and the datasets' Parquet write.
pub fn rows<'a>(
    h: &'a store::Header,
    r: &'a Review,
    judged: &'a [Judged],
) -> impl Iterator<Item = Row<'a>> + 'a {
    r.plies.iter().enumerate().flat_map(move |(ply, p)| {
        let made = ply
            .checked_sub(1)
            .and_then(|e| judged.iter().find(|j| j.ply as usize == e));
        p.seats.iter().enumerate().map(move |(seat, chances)| Row {
            ply,
            seat,
            player: h.players.get(seat).map_or("", String::as_str),
            chances,
            judged: made.filter(|j| usize::from(j.seat) == seat),
        })
    })
}

/// A chance or a score as CSV writes it: four decimals, no exponent.
fn num(x: f32) -> String {
    format!("{:.4}", x)
}

/// A cell of free text: quoted when it holds a separator or a quote, and prefixed with `'`
/// when a spreadsheet would read it as a formula (as every export does).
fn csv_text(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}
