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
