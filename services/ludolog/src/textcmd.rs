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
    let mut comments = 0;
    for game in store::portable::text::parse_all(store.registry(), &text) {
        let imported = game.and_then(|g| {
            comments += g.comments.len();
            let line =
                serde_json::to_string(&g.record).map_err(|e| store::portable::RecordError {
                    line: 0,
                    game: Some(g.record.id.to_string()),
                    ply: None,
                    reason: e.to_string(),
                })?;
            store.import_line(0, &line)
        });
        match imported {
            Ok(h) => {
                summary.imported += 1;
                summary.entries += u64::from(h.plies);
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
    if comments > 0 {
        eprintln!("note: {comments} comments read but not kept (the store has no annotations yet)");
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
        w.write_all(store::portable::text::write(&store.record(h.id)?).as_bytes())?;
        n += 1;
    }
    w.flush()?;
    Ok(n)
}
