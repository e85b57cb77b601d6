#![allow(dead_code)]
//! Helpers shared by the store's own tests (what only the sled store has: its files, its
//! rebuild, its layout): those of the conformance suite, plus opening a sled store.

use store::{Config, Store};
#[allow(unused_imports)] // each test file uses its own subset
pub use store_conformance::{new_game, play_out, registry, t0};

pub fn open(dir: &std::path::Path) -> Store {
    Store::open(dir, registry(), Config::default()).unwrap()
}
