//! `import --text` and `export --text`: games written by hand (`schema/notation/game-text.md`,
//! read and written by `store::portable::text`) in and out of a store.

use crate::storecmd::{output, ImportSummary};
use anyhow::{bail, Context, Result};
use rules_core::GameKind;
use std::io::{Read, Write};
use std::path::Path;
use store::{GameLog, Status};

/// Largest game text `import --text` reads (a game is a few KB; a club's season, a few MB).
const MAX_TEXT_BYTES: u64 = 64 << 20;

/// Imports the games of a game-text file (`schema/notation/game-text.md`): each game read and
/// replayed as the text says (a mistake is reported at its line), then imported as a record,
/// whole or not at all.
pub fn import_text(store: &dyn GameLog, file: &Path, strict: bool) -> Result<ImportSummary> {
    let start = std::time::Instant::now();
    let f = std::fs::File::open(file).with_context(|| format!("opening {}", file.display()))?;
    let mut text = String::new();
    f.take(MAX_TEXT_BYTES + 1)
        .read_to_string(&mut text)
        .with_context(|| format!("reading {} (game text is UTF-8)", file.display()))?;
    if text.len() as u64 > MAX_TEXT_BYTES {
        bail!("{} is larger than {MAX_TEXT_BYTES} bytes", file.display());
    }
    let mut summary = ImportSummary {
        imported: 0,
        rejected: 0,
        entries: 0,
        seconds: 0.0,
    };
    let (mut kept, mut unkept) = (0usize, Vec::new());
    for game in store::portable::text::parse_all(store.registry(), &text) {
        let imported = game.and_then(|g| {
            let notes = store::portable::text::annotations(&g)?;
            let record =
                serde_json::to_string(&g.record).map_err(|e| store::portable::RecordError {
                    line: g.line,
                    game: Some(g.record.id.to_string()),
                    ply: None,
                    reason: e.to_string(),
                })?;
            store.import_line(g.line, &record).map(|h| (h, notes))
        });
        match imported {
            Ok((h, notes)) => {
                summary.imported += 1;
                summary.entries += u64::from(h.plies);
                for (ply, glyph, comment) in notes {
                    match annotate(store, h.id, ply, glyph, comment) {
                        Ok(()) => kept += 1,
                        Err(e) => unkept.push(e),
                    }
                }
            }
            Err(e) => {
                summary.rejected += 1;
                eprintln!("rejected: {}: {e}", file.display());
                if strict {
                    store.flush()?;
                    bail!("import stopped at the first refused game (--strict)");
                }
            }
        }
    }
    store.flush()?;
    if kept > 0 {
        eprintln!("{kept} comments kept as annotations");
    }
    if let Some(e) = unkept.first() {
        eprintln!("note: {} comments not kept: {e}", unkept.len());
    }
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// Writes every finished game (of `kind`, if given; with `include_active`, every game) as game
/// text, in id order, games separated by `---` lines. Returns the count.
pub fn export_text(
    store: &dyn GameLog,
    kind: Option<GameKind>,
    include_active: bool,
    out: &Path,
) -> Result<u64> {
    let mut w = output(out)?;
    let mut n = 0u64;
    for id in store.game_ids() {
        let h = store.header(id?)?;
        if kind.is_some_and(|k| k != h.kind) || !(include_active || h.status == Status::Finished) {
            continue;
        }
        if n > 0 {
            w.write_all(b"---\n")?;
        }
        let text = store::portable::text::write_record(&store.record(h.id)?);
        w.write_all(text.as_bytes())?;
        n += 1;
    }
    w.flush()?;
    Ok(n)
}

/// Keeps one comment of an imported text as an annotation of the game.
fn annotate(
    store: &dyn GameLog,
    game: store::GameId,
    ply: u32,
    glyph: Option<store::journal::Glyph>,
    comment: String,
) -> Result<(), store::StoreError> {
    store
        .write_note(store::journal::NewNote {
            game,
            by: store::journal::Author::Imported,
            at: chrono::Utc::now(),
            request: store::journal::NoteRequest::Annotate {
                ply,
                glyph,
                comment,
            },
        })
        .map(|_| ())
}
