//! The storage trait's conformance suite (`store-conformance`) on the embedded default: sled
//! in a temporary folder.

store_conformance::conformance_tests!(|| {
    let dir = tempfile::tempdir().unwrap();
    let store = store::Store::open(
        dir.path(),
        store_conformance::registry(),
        store::Config::default(),
    )
    .unwrap();
    store_conformance::Backend::new(store, dir)
});
