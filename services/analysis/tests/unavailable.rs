//! A finished game whose log cannot be read just now (a cluster electing a leader) is not
//! recorded as indexed: the analysis's finish hook answers `Unavailable`, so a backend that
//! can offer the game again does (the JetStream follower), and the next report indexes it.

use analysis::Analysis;
use five_tribes::FiveTribes;
use rules_core::{Erased, GameState, Registry};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use store::log::ProjectionItem;
use store::portable::{PreparedImport, RecordError};
use store::{
    Append, Appended, BackupReport, Entry, Filter, FinishHook, GameId, GameLog, Header, NewGame,
    Page, Store, StoreError,
};

/// The embedded store, whose reads of entries fail while `away` is set.
struct Flaky {
    inner: Store,
    away: AtomicBool,
}

impl GameLog for Flaky {
    fn registry(&self) -> &Registry {
        self.inner.registry()
    }
    fn create(&self, g: NewGame) -> store::Result<(Header, Vec<Entry>)> {
        GameLog::create(&self.inner, g)
    }
    fn append(&self, req: Append<'_>) -> store::Result<Appended> {
        GameLog::append(&self.inner, req)
    }
    fn header(&self, id: GameId) -> store::Result<Header> {
        GameLog::header(&self.inner, id)
    }
    fn entries(&self, id: GameId, from: u32, to: u32) -> store::Result<Vec<Entry>> {
        if self.away.load(Ordering::SeqCst) {
            return Err(StoreError::Unavailable("no leader (in this test)".into()));
        }
        GameLog::entries(&self.inner, id, from, to)
    }
    fn state_at(&self, id: GameId, ply: u32) -> store::Result<Box<dyn GameState>> {
        GameLog::state_at(&self.inner, id, ply)
    }
    fn list(&self, f: &Filter, first: usize, after: Option<GameId>) -> store::Result<Page> {
        GameLog::list(&self.inner, f, first, after)
    }
    fn game_ids(&self) -> Box<dyn Iterator<Item = store::Result<GameId>> + '_> {
        GameLog::game_ids(&self.inner)
    }
    fn game_count(&self) -> usize {
        GameLog::game_count(&self.inner)
    }
    fn on_finish(&self, _hook: FinishHook) {
        // Kept by no one: the test reports the game itself, as a follower would.
    }
    fn prepare_import(&self, n: u64, line: &str) -> Result<PreparedImport, RecordError> {
        GameLog::prepare_import(&self.inner, n, line)
    }
    fn commit_import(&self, p: PreparedImport) -> Result<Header, RecordError> {
        GameLog::commit_import(&self.inner, p)
    }
    fn flush(&self) -> store::Result<()> {
        GameLog::flush(&self.inner)
    }
    fn write_note(&self, n: store::journal::NewNote) -> store::Result<store::journal::Noted> {
        GameLog::write_note(&self.inner, n)
    }
    fn put_study(&self, study: &store::study::Study) -> store::Result<()> {
        GameLog::put_study(&self.inner, study)
    }
    fn study(&self, id: store::study::StudyId) -> store::Result<store::study::Study> {
        GameLog::study(&self.inner, id)
    }
    fn correct(&self, c: store::revision::Correction) -> store::Result<store::Corrected> {
        GameLog::correct(&self.inner, c)
    }
    fn dir(&self) -> &Path {
        GameLog::dir(&self.inner)
    }
    fn projection_put(&self, name: &str, key: &[u8], value: &[u8]) -> store::Result<()> {
        GameLog::projection_put(&self.inner, name, key, value)
    }
    fn projection_range(
        &self,
        name: &str,
        from: &[u8],
    ) -> store::Result<Box<dyn Iterator<Item = ProjectionItem> + '_>> {
        GameLog::projection_range(&self.inner, name, from)
    }
    fn projection_clear(&self, name: &str) -> store::Result<()> {
        GameLog::projection_clear(&self.inner, name)
    }
    fn free_space(&self) -> (Option<u64>, bool) {
        GameLog::free_space(&self.inner)
    }
    fn size_on_disk(&self) -> store::Result<u64> {
        GameLog::size_on_disk(&self.inner)
    }
    fn backup_to(&self, dir: &Path) -> store::Result<BackupReport> {
        GameLog::backup_to(&self.inner, dir)
    }
    fn backend(&self) -> &'static str {
        "flaky"
    }
}

#[test]
fn a_game_the_store_cannot_read_yet_is_reported_unavailable_and_indexed_when_offered_again() {
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::new().with(Erased::<FiveTribes>::new());
    let inner = Store::open(dir.path(), registry, store::Config::default()).unwrap();
    let store = Flaky {
        inner,
        away: AtomicBool::new(true),
    };
    let a = Analysis::attach(&store, *b"0123456789abcdef").unwrap();
    let line = include_str!("../../../tests/data/random-samples/five-tribes.ndjson")
        .lines()
        .next()
        .unwrap();
    let h = store.inner.import_line(1, line).unwrap();
    assert_eq!(h.status, store::Status::Finished);
    let state = store.state_at(h.id, h.plies).unwrap();
    let err = a
        .on_finish(&store, &h, state.as_ref(), None)
        .expect_err("the log could not be read");
    assert_eq!(err.code(), "UNAVAILABLE", "{err}");
    assert!(!a.positions().is_whole(&store, &h).unwrap(), "not indexed");
    // Offered again once the store is back: indexed.
    store.away.store(false, Ordering::SeqCst);
    a.on_finish(&store, &h, state.as_ref(), None).unwrap();
    assert!(a.positions().is_whole(&store, &h).unwrap());
}
