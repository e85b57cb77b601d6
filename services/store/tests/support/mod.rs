#![allow(dead_code)]
//! Helpers shared by the store's own tests (what only the sled store has: its files, its
//! rebuild, its layout): those of the conformance suite, plus opening a sled store.

use store::{Config, Store};
#[allow(unused_imports)] // each test file uses its own subset
pub use store_conformance::{new_game, play_out, registry, t0};

/// Opens the store in `dir`. A store just dropped in this process may still be held for a
/// moment by sled's I/O threads (they finish their last writes after the handle is gone), so
/// a reopen waits for the lock, up to ten seconds.
pub fn open(dir: &std::path::Path) -> Store {
    retry_locked(|| Store::open(dir, registry(), Config::default()).map_err(|e| e.to_string()))
}

/// Runs `f` until it stops failing for sled's file lock (ten seconds at most).
pub fn retry_locked<T>(f: impl Fn() -> Result<T, String>) -> T {
    let start = std::time::Instant::now();
    loop {
        match f() {
            Ok(v) => return v,
            Err(e)
                if (e.contains("in use") || e.contains("acquire lock"))
                    && start.elapsed() < std::time::Duration::from_secs(10) =>
            {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            Err(e) => panic!("{e}"),
        }
    }
}
