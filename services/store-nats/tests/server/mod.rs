#![allow(dead_code)]
//! The tests' server and stores: `store_nats::dev_server`, one per test process.

use store_nats::NatsLog;

#[allow(unused_imports)] // each test file uses its own subset
pub use store_nats::dev_server::{fresh_config, url};

/// An empty store on the test server, its projections in `dir`.
pub fn fresh_log(dir: &std::path::Path) -> NatsLog {
    NatsLog::open(fresh_config(), store_conformance::registry(), dir).unwrap()
}
