//! The state-hash key: what `stateHash`, the position index and the explorer's node keys are
//! keyed with, so that equal positions hash alike on the server while no client can hash
//! candidate states itself.
//!
//! The key belongs to the deployment. On the embedded store that is the data folder
//! (`state-hash.key`, made once, 0600). On JetStream every node serving the stream must hash
//! alike, or a hash read through one node finds nothing through another behind the same load
//! balancer: the key is kept on the stream ([`store::GameLog::deployment_key`]), proposed by
//! the first node, and each node's folder follows it — a folder keyed otherwise (made before
//! the deployment kept a key, or by another deployment) has its projections keyed again from
//! the logs at start. A node given a key by configuration (`serve --state-hash-key-file`) that
//! the deployment does not hold serves everything but hashes, which it refuses
//! (`HASH_KEY_MISMATCH`) rather than answer wrongly.

use anyhow::{Context, Result};
use std::path::Path;
use store::GameLog;

/// The key a node serves with, as agreed with its deployment.
#[derive(Debug, Clone)]
pub struct HashKey {
    /// What this node's projections are to be keyed with.
    pub key: [u8; 16],
    /// Why this node refuses hashes: it was given a key its deployment does not hold.
    pub refused: Option<String>,
    /// The folder's key differs from the deployment's: the projections are keyed again with
    /// `key`, and the folder's key replaced once they are ([`replace`]).
    pub rekeyed: bool,
}

/// Agrees the key with the deployment: the one it keeps (`given`, else the folder's, kept
/// there first if it keeps none).
pub fn agree(store: &dyn GameLog, data_dir: &Path, given: Option<[u8; 16]>) -> Result<HashKey> {
    let local = state_hash_key(data_dir)?;
    let shared = store
        .deployment_key(given.unwrap_or(local))
        .context("reading the deployment's state-hash key")?;
    if given.is_some_and(|g| g != shared) {
        let why = "this node was given a state-hash key (--state-hash-key-file) other than the \
                   one its deployment keeps: it refuses hashes rather than answer with another \
                   key's; give it the deployment's key, or none"
            .to_string();
        tracing::error!("{why}");
        return Ok(HashKey {
            key: local,
            refused: Some(why),
            rekeyed: false,
        });
    }
    if shared != local {
        tracing::warn!("this folder's state-hash key is not its deployment's: keying the projections again with the deployment's");
    }
    Ok(HashKey {
        key: shared,
        refused: None,
        rekeyed: shared != local,
    })
}

/// Reads a key file given by configuration: 32 hexadecimal digits.
pub fn read_key_file(path: &Path) -> Result<[u8; 16]> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    hex::decode(text.trim())
        .ok()
        .and_then(|b| <[u8; 16]>::try_from(b.as_slice()).ok())
        .with_context(|| {
            format!(
                "{} is not a state-hash key (32 hexadecimal digits)",
                path.display()
            )
        })
}

/// Replaces the folder's key by `key` (once the projections are keyed with it): written
/// beside it, synced, renamed over it.
pub fn replace(data_dir: &Path, key: [u8; 16]) -> Result<()> {
    let path = data_dir.join("state-hash.key");
    let tmp = data_dir.join(format!("state-hash.key.{}", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    crate::storecmd::write_private(&tmp, hex::encode(key).as_bytes())
        .with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))
}

/// The key of `stateHash`: made once per store and kept beside it, so hashes stay comparable
/// across restarts (the position index holds hashes made with it) but cannot be computed by
/// clients. Written to a temporary file and renamed into place, so a crash never leaves half a
/// key; an existing file that is not a key is an error, never silently replaced (a new key
/// would make every indexed hash unfindable until `rebuild`).
pub fn state_hash_key(data_dir: &Path) -> Result<[u8; 16]> {
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("creating {}", data_dir.display()))?;
    let path = data_dir.join("state-hash.key");
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let bytes = hex::decode(text.trim()).ok();
            return bytes
                .and_then(|b| <[u8; 16]>::try_from(b.as_slice()).ok())
                .with_context(|| {
                    format!(
                        "{} is not a state-hash key (32 hexadecimal digits); restore it, or \
                         delete it and run `ludolog rebuild`",
                        path.display()
                    )
                });
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    }
    let mut key = [0u8; 16];
    getrandom::getrandom(&mut key)
        .map_err(|e| anyhow::anyhow!("no randomness for the state-hash key: {e}"))?;
    let tmp = data_dir.join(format!("state-hash.key.{}", std::process::id()));
    crate::storecmd::write_private(&tmp, hex::encode(key).as_bytes())
        .with_context(|| format!("writing {}", tmp.display()))?;
    // Two processes starting on a new folder race here: linking fails if the name exists, so
    // the first key in place wins and the loser reads it back. (Where hard links are not
    // supported, an atomic rename does, without that guard.)
    match std::fs::hard_link(&tmp, &path) {
        Ok(()) => {
            let _ = std::fs::remove_file(&tmp);
            Ok(key)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let _ = std::fs::remove_file(&tmp);
            state_hash_key(data_dir)
        }
        Err(_) => {
            std::fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))?;
            Ok(key)
        }
    }
}
