//! Exports for analysts, streamed row by row (memory stays flat however many games):
//! - `games`: one row per finished game and seat — result, score, its breakdown, tags;
//! - `moves`: one row per entry of every finished game.
//!
//! Only finished games are exported: an unfinished game's log can hold what the rules keep
//! from some seats. Columns are documented in `schema/exports.md`.

use crate::summary::GameSummary;
use crate::Analysis;
use rules_core::GameKind;
use std::io::Write;
use store::GameLog;

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error(transparent)]
    Csv(#[from] csv::Error),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// CSV or NDJSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Ndjson,
}

/// The score categories of a kind, in score-sheet order (from its first finished game).
fn categories(games: &[GameSummary]) -> Vec<String> {
    games
        .first()
        .map(|g| {
            g.seats
                .first()
                .map(|s| s.breakdown.iter().map(|(c, _)| c.clone()).collect())
                .unwrap_or_default()
        })
        .unwrap_or_default()
}

/// A CSV cell of free text (a player's name, a move): one that a spreadsheet would read as a
/// formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with
/// `'`, as OWASP advises, so opening an export never runs what a player typed as a name.
/// Numbers are written by the exporter itself and never pass here. NDJSON is left as is.
pub fn text_cell(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    }
}

/// Writes the `games` table of `kind`. Returns the number of rows.
pub fn games(
    analysis: &Analysis,
    kind: GameKind,
    format: Format,
    out: &mut dyn Write,
) -> Result<u64, ExportError> {
    let games: Vec<GameSummary> = analysis
        .summaries()
        .into_iter()
        .filter(|g| g.kind == kind)
        .collect();
    let cats = categories(&games);
    let mut rows = 0;
    match format {
        Format::Csv => {
            let mut w = csv::Writer::from_writer(out);
            let mut header: Vec<String> = [
                "game_id",
                "kind",
                "created_at",
                "updated_at",
                "players",
                "plies",
                "rounds",
                "seat",
                "player",
                "won",
                "winners",
                "score",
            ]
            .map(String::from)
            .to_vec();
            header.extend(cats.iter().map(|c| format!("score_{c}")));
            header.push("tags".into());
            w.write_record(&header)?;
            for g in &games {
                for (seat, s) in g.seats.iter().enumerate() {
                    let mut rec = vec![
                        g.id.to_string(),
                        g.kind.to_string(),
                        g.created_at.to_rfc3339(),
                        g.updated_at.to_rfc3339(),
                        g.seats.len().to_string(),
                        g.plies.to_string(),
                        g.rounds.to_string(),
                        seat.to_string(),
                        text_cell(&s.player),
                        s.won.to_string(),
                        g.winners().to_string(),
                        s.total.to_string(),
                    ];
                    rec.extend(cats.iter().map(|c| {
                        s.breakdown
                            .iter()
                            .find(|(k, _)| k == c)
                            .map(|(_, v)| v.to_string())
                            .unwrap_or_default()
                    }));
                    rec.push(text_cell(&s.tags.join(";")));
                    w.write_record(&rec)?;
                    rows += 1;
                }
            }
            w.flush()?;
        }
        Format::Ndjson => {
            for g in &games {
                for (seat, s) in g.seats.iter().enumerate() {
                    let breakdown: serde_json::Map<String, serde_json::Value> = s
                        .breakdown
                        .iter()
                        .map(|(c, v)| (c.clone(), (*v).into()))
                        .collect();
                    let row = serde_json::json!({
                        "game_id": g.id.to_string(), "kind": g.kind, "created_at": g.created_at, "updated_at": g.updated_at,
                        "players": g.seats.len(), "plies": g.plies, "rounds": g.rounds, "seat": seat,
                        "player": s.player, "won": s.won, "winners": g.winners(), "score": s.total,
                        "breakdown": breakdown, "tags": s.tags,
                    });
                    serde_json::to_writer(&mut *out, &row)?;
                    out.write_all(b"\n")?;
                    rows += 1;
                }
            }
        }
    }
    Ok(rows)
}

/// Writes the `moves` table of `kind`: every entry of every finished game, game by game.
pub fn moves(
    store: &dyn GameLog,
    analysis: &Analysis,
    kind: GameKind,
    format: Format,
    out: &mut dyn Write,
) -> Result<u64, ExportError> {
    let ids: Vec<store::GameId> = analysis
        .summaries()
        .into_iter()
        .filter(|g| g.kind == kind)
        .map(|g| g.id)
        .collect();
    let mut rows = 0;
    let is_csv = format == Format::Csv;
    if is_csv {
        let mut w = csv::Writer::from_writer(&mut *out);
        w.write_record(["game_id", "ply", "actor", "move", "recorded_at"])?;
        w.flush()?;
    }
    for id in ids {
        let h = store.header(id)?;
        // One game at a time: memory holds one game's entries, not the export.
        let entries = store.entries(id, 0, h.plies)?;
        if is_csv {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(&mut *out);
            for e in &entries {
                w.write_record([
                    id.to_string(),
                    // The entry that makes position n is "ply n" everywhere (from 1).
                    (e.ply + 1).to_string(),
                    e.actor.to_string(),
                    text_cell(&e.notation),
                    e.recorded_at.to_rfc3339(),
                ])?;
                rows += 1;
            }
            w.flush()?;
        } else {
            for e in &entries {
                let row = serde_json::json!({ "game_id": id.to_string(), "ply": e.ply + 1, "actor": e.actor.to_string(), "move": e.notation, "recorded_at": e.recorded_at });
                serde_json::to_writer(&mut *out, &row)?;
                out.write_all(b"\n")?;
                rows += 1;
            }
        }
    }
    Ok(rows)
}
