//! `ludolog dataset`: writes the open datasets of a store (or checks a dataset's files
//! against its manifest).

use crate::storecmd;
use anyhow::{bail, Result};
use rules_core::GameKind;
use std::path::Path;

/// Brings the dataset in `out` up to date with the store in `data_dir` (only `kind`, when
/// given); with `verify`, only checks `out`'s files. What it did, as JSON.
pub fn run(
    data_dir: &Path,
    out: &Path,
    kind: Option<GameKind>,
    verify: bool,
) -> Result<serde_json::Value> {
    if verify {
        let Some(m) = dataset::Manifest::read(out)? else {
            bail!("no {} in {}", dataset::manifest::FILE, out.display());
        };
        let bad = m.verify(out);
        if !bad.is_empty() {
            bail!(
                "{} of {} files differ from the manifest (size or SHA-256): {}",
                bad.len(),
                m.files().count(),
                bad.join(", ")
            );
        }
        return Ok(serde_json::json!({ "files": m.files().count(), "verified": true }));
    }
    storecmd::existing(data_dir)?;
    let (store, analysis) = storecmd::open_analysed(data_dir)?;
    let kinds: Vec<GameKind> = match kind {
        Some(k) => vec![k],
        None => GameKind::ALL.to_vec(),
    };
    let mut ds = dataset::Dataset::open(out)?;
    let bad = ds.verify();
    let t = std::time::Instant::now();
    let done = ds.refresh(&store, &analysis, &kinds)?;
    let secs = t.elapsed().as_secs_f64();
    let m = ds.manifest();
    let written: Vec<String> = done
        .written
        .iter()
        .map(|(k, month)| dataset::month_dir(*k, month))
        .collect();
    let moves: u64 = m
        .months
        .iter()
        .filter(|mo| written.contains(&dataset::month_dir_str(&mo.kind, &mo.month)))
        .flat_map(|mo| mo.files.iter())
        .filter(|f| f.table == "moves")
        .map(|f| f.rows)
        .sum();
    Ok(serde_json::json!({
        "written": written,
        "removed": done.removed.iter().map(|(k, month)| dataset::month_dir(*k, month)).collect::<Vec<_>>(),
        "kept": done.kept,
        "rewritten_for_checksums": bad,
        "files": m.files().count(),
        "rows": m.files().map(|f| f.rows).sum::<u64>(),
        "bytes": m.files().map(|f| f.bytes).sum::<u64>(),
        "seconds": secs,
        "move_rows_written": moves,
        "move_rows_per_second": if secs > 0.0 { moves as f64 / secs } else { 0.0 },
    }))
}

/// `ludolog bench dataset`: the finished games of `kind` written as one month, each table
/// alone and then all five together (`tables.all`), into a temporary folder; rows, bytes and
/// time of each.
pub fn bench(data_dir: &Path, kind: GameKind) -> Result<serde_json::Value> {
    storecmd::existing(data_dir)?;
    let (store, analysis) = storecmd::open_analysed(data_dir)?;
    let games = store::finished_games(&store, Some(kind))?;
    if games.is_empty() {
        bail!("no finished {kind} game in {}", data_dir.display());
    }
    let summaries: std::collections::HashMap<_, _> = analysis
        .summaries()
        .into_iter()
        .map(|s| (s.id, s))
        .collect();
    let tmp = std::env::temp_dir().join(format!("ludolog-bench-dataset-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let moves: u64 = games.iter().map(|h| u64::from(h.plies)).sum();
    let mut out = serde_json::Map::new();
    let mut run = |name: &str, tables: &[dataset::Table]| -> Result<()> {
        let t = std::time::Instant::now();
        let files = dataset::write_month(
            &store,
            &analysis,
            &summaries,
            &dataset::MonthFiles {
                kind,
                games: &games,
                root: &tmp,
                rel_dir: name,
                tables,
            },
        )?;
        let secs = t.elapsed().as_secs_f64();
        let rows: u64 = files.iter().map(|f| f.rows).sum();
        out.insert(
            name.to_string(),
            serde_json::json!({
                "rows": rows,
                "bytes": files.iter().map(|f| f.bytes).sum::<u64>(),
                "seconds": secs,
                "rows_per_second": rows as f64 / secs,
                "move_rows_per_second": moves as f64 / secs,
            }),
        );
        Ok(())
    };
    for t in dataset::Table::ALL {
        run(t.name(), &[t])?;
    }
    run("all", &dataset::Table::ALL)?;
    std::fs::remove_dir_all(&tmp)?;
    Ok(serde_json::json!({
        "games": games.len(),
        "move_rows": moves,
        "tables": out,
    }))
}
