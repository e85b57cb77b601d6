//! `ludolog backup --to DIR`: a consistent copy of a store, taken while it serves or not.
//!
//! When a `ludolog serve` holds the store, the copy is made by that server (it owns the open
//! store): this command finds it through `serve.json` beside the store and asks it, with the
//! control token written there. Otherwise the store is opened here and copied directly. Either
//! way the state-hash key is copied too, so positions keep their hashes in the copy; statistics
//! and the position index are rebuilt from the logs when the copy is first opened.

use crate::storecmd::{self, RuntimeFile};
use anyhow::{bail, Context, Result};
use std::path::Path;

pub fn backup(data_dir: &Path, to: &Path) -> Result<serde_json::Value> {
    storecmd::existing(data_dir)?;
    let to = std::path::absolute(to).with_context(|| format!("resolving {}", to.display()))?;
    let report = match storecmd::open(data_dir) {
        Ok(store) => {
            let start = std::time::Instant::now();
            let r = store.backup_to(&to)?;
            serde_json::json!({
                "to": to, "games": r.games, "entries": r.entries,
                "seconds": start.elapsed().as_secs_f64(), "online": false,
            })
        }
        Err(e) if e.to_string().contains("in use by another process") => {
            let rt = RuntimeFile::read(data_dir)?;
            let answer = ureq::post(&format!("{}/admin/backup", rt.url))
                .set("Authorization", &format!("Bearer {}", rt.token))
                .timeout(std::time::Duration::from_secs(24 * 3600))
                .send_json(serde_json::json!({ "to": to }));
            let mut v: serde_json::Value = match answer {
                Ok(r) => r.into_json()?,
                Err(ureq::Error::Status(code, r)) => {
                    let body = r.into_string().unwrap_or_default();
                    bail!(
                        "the server at {} refused the backup ({code}): {body}",
                        rt.url
                    )
                }
                Err(e) => bail!("the server at {} did not answer: {e}", rt.url),
            };
            v["online"] = true.into();
            v
        }
        Err(e) => return Err(e),
    };
    let key = data_dir.join("state-hash.key");
    if key.exists() {
        let dest = to.join("state-hash.key");
        std::fs::copy(&key, &dest).with_context(|| format!("copying {}", key.display()))?;
        #[cfg(unix)]
        std::fs::set_permissions(&dest, std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
    }
    Ok(report)
}
