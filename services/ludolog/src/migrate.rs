//! `ludolog migrate`: every game from one store to another — the embedded sled store in a
//! folder, or a NATS JetStream cluster (`nats://…`), either way — each game checked whole by
//! the destination as an import, then verified: the destination's export must equal the
//! source's, byte for byte.

use anyhow::{bail, Context, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};
use store::GameLog;

/// What was moved, and whether the two exports matched.
#[derive(Serialize)]
pub struct MigrateReport {
    pub games: u64,
    pub entries: u64,
    pub export_bytes: u64,
    pub identical: bool,
}

/// How a NATS store is named and kept.
pub struct Nats {
    pub stream: String,
    pub replicas: usize,
}

/// A store named by a folder or a `nats://` URL list. A NATS store keeps its (unused)
/// projections in `scratch`.
fn open(spec: &str, nats: &Nats, scratch: &Path) -> Result<Box<dyn GameLog>> {
    if spec.starts_with("nats://") {
        let config = store_nats::NatsConfig {
            replicas: nats.replicas,
            ..store_nats::NatsConfig::from_urls(spec).with_stream(&nats.stream)
        };
        let log = store_nats::NatsLog::open(config, crate::games::registry(), scratch)
            .with_context(|| format!("opening the store on {spec}"))?;
        Ok(Box::new(log))
    } else {
        Ok(Box::new(crate::storecmd::open(Path::new(spec))?))
    }
}

fn export(store: &dyn GameLog) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    store.export(None, true, &mut out, &mut |_, _| {})?;
    Ok(out)
}

pub fn migrate(from: &str, to: &str, nats: &Nats) -> Result<MigrateReport> {
    let scratch: PathBuf =
        std::env::temp_dir().join(format!("ludolog-migrate-{}", std::process::id()));
    let report = run(from, to, nats, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    report
}

fn run(from: &str, to: &str, nats: &Nats, scratch: &Path) -> Result<MigrateReport> {
    if !from.starts_with("nats://") {
        crate::storecmd::existing(Path::new(from))?;
    }
    let source = open(from, nats, &scratch.join("from"))?;
    let dest = open(to, nats, &scratch.join("to"))?;
    if dest.game_count() > 0 {
        bail!("{to} already holds games: migrate into an empty store");
    }
    let (mut games, mut entries) = (0u64, 0u64);
    for id in source.game_ids() {
        let record = source.record(id?)?;
        entries += record.entries.len() as u64;
        let line = serde_json::to_string(&record)?;
        games += 1;
        dest.import_line(games, &line)
            .with_context(|| format!("writing game {} to {to}", record.id))?;
    }
    dest.flush()?;
    let (before, after) = (export(&*source)?, export(&*dest)?);
    let identical = before == after;
    if !identical {
        bail!(
            "the export of {to} differs from the export of {from}: the migration is not complete"
        );
    }
    Ok(MigrateReport {
        games,
        entries,
        export_bytes: before.len() as u64,
        identical,
    })
}
