#![allow(dead_code)]
//! The tests' server and stores: `store_nats::dev_server`, one per test process.

use store::GameLog;
use store_nats::NatsLog;

#[allow(unused_imports)] // each test file uses its own subset
pub use store_nats::dev_server::{fresh_config, url};

/// An empty store on the test server, its projections in `dir`.
pub fn fresh_log(dir: &std::path::Path) -> NatsLog {
    NatsLog::open(fresh_config(), store_conformance::registry(), dir).unwrap()
}

pub type Seen = std::sync::Arc<std::sync::Mutex<Vec<store::GameId>>>;

/// Records the games whose finish hooks run on `log`.
pub fn watch(log: &NatsLog) -> Seen {
    let seen: Seen = Default::default();
    let into = seen.clone();
    log.on_finish(std::sync::Arc::new(move |_, h, _, _| {
        into.lock().unwrap().push(h.id);
        Ok(())
    }));
    seen
}

pub fn wait_for(seen: &Seen, want: &[store::GameId]) {
    let start = std::time::Instant::now();
    while seen.lock().unwrap().as_slice() != want
        && start.elapsed() < std::time::Duration::from_secs(10)
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(seen.lock().unwrap().as_slice(), want);
}
