//! The JetStream backend of Ludolog's storage trait ([`store::GameLog`]): the game logs on a
//! NATS JetStream stream, replicated by RAFT across a cluster, so that any number of
//! `ludolog serve` nodes can share them; each node keeps its projections (summaries, the
//! position index) in a local sled folder, as derived data.
//!
//! # Layout on the stream (prefix `ludolog` unless configured)
//! | subject | messages |
//! |---|---|
//! | `<prefix>.g.<game id>` | one: the game's header as created or imported (JSON) |
//! | `<prefix>.e.<game id>` | the game's line: its entries in ply order, one each (JSON `Entry`; header `Ludolog-Ply`, `Ludolog-Status: finished` on the entry that ends the game, `Ludolog-Generation` after a takeback), and a withdrawal marker per takeback carried out (header `Ludolog-Withdrawn`; see `line`) |
//! | `<prefix>.archive` | one record per finished game, header and entries (JSON), header `Ludolog-Game`: see [`archive`]; a sealed game's two subjects above are purged |
//! | `<prefix>.j.<game id>` | the game's journal notes (JSON `store::journal::Note`, or a request's several as a list): annotations, takeback requests and answers, corrections (header `Ludolog-Revision`); kept after sealing |
//! | `<prefix>.s.<study id>` | one: a study (JSON) |
//! | `<prefix>.key` | one: the deployment's state-hash key, hexadecimal (see `key`) |
//!
//! A game's current header is its header message brought up to date by its last entry. An
//! append publishes each new entry with `Nats-Expected-Last-Subject-Sequence` set to the
//! stream sequence of the game's last entry (a sequence, not a ply: the node keeps the one
//! for the other), so two nodes appending at the same ply cannot both succeed; the loser gets
//! error 10071, or 10164 while the winner is in flight, and answers `VersionConflict`. Each
//! entry's `Nats-Msg-Id` is the game, the ply and a hash of the entry, so a retried publish
//! is recognised within the stream's duplicate window and a different entry at the same ply
//! is a conflict, never taken for a duplicate.
//!
//! The rules of a creation, an append and an import are [`store::plan`]'s and
//! [`store::portable::prepare_import`]'s, the sled store's own: the same request gives the
//! same log on either backend (the conformance suite checks it).
//!
//! # Layout of the crate
//! - this file: [`NatsLog`], opening (connection, the stream and its limits checked), the
//!   node-local parts;
//! - [`log`]: the logs — create, append, reads, listings, import;
//! - [`archive`]: finished games sealed into one record each;
//! - `catalog`: this node's catalog of every game (listings, sealed records' places);
//! - [`codec`]: messages to and from entries and headers; errors to `StoreError`;
//! - `retry`: every publish and last-message read tried again while the stream has no
//!   leader, each attempt bounded by `NatsConfig::attempt`, all of them by `timeout`;
//! - [`dev_server`]: a local `nats-server` for tests and trying things out;
//! - [`follow`]: the durable consumer that feeds this node's projections (finish hooks) from
//!   every node's appends;
//! - `key`: the deployment's state-hash key, shared by every node;
//! - `journal`: games' notes (`<prefix>.j.<id>`: annotations, takebacks, each request's
//!   notes one message expecting the last message of all the game's subjects) and studies
//!   (`<prefix>.s.<id>`);
//! - `line`: a game's line on its entries subject, cut by takebacks' withdrawal markers;
//! - `revision`: corrections of finished games, a journal note each over the sealed record;
//!
//! The trait is synchronous: each call blocks on this backend's own runtime. Call it from a
//! thread that is not driving async tasks (`spawn_blocking`, as for sled).

pub mod archive;
mod catalog;
pub mod codec;
pub mod dev_server;
pub mod follow;
mod journal;
mod key;
mod line;
pub mod log;
mod retry;
mod revision;

use async_nats::jetstream::{self, stream};
use rules_core::Registry;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;
use store::{GameId, StoreError};

/// How many decoded sealed records a node keeps (~25 KB each).
const SEALED_KEPT: usize = 512;

/// The finish hooks registered on this node.
type Hooks = RwLock<Vec<store::FinishHook>>;

/// Where the logs live and how they are kept.
#[derive(Debug, Clone)]
pub struct NatsConfig {
    /// Server URLs, `nats://host:port`; any one reachable is enough to start.
    pub urls: Vec<String>,
    /// The stream's name (created if absent).
    pub stream: String,
    /// The subject prefix of every message.
    pub prefix: String,
    /// Replicas of the stream: 3 on a cluster, 1 on a single server.
    pub replicas: usize,
    /// Bound on a whole request to the cluster, its retries included: a write or a read that
    /// finds the stream without a leader (an election takes about 5 s) tries again until this
    /// has passed, then answers `UNAVAILABLE` (`--store-timeout-ms`, default 10 s).
    pub timeout: Duration,
    /// Bound on one attempt of a request: a publish that the old leader never answers is given
    /// up after this and sent again (same message id, so it is never kept twice)
    /// (`--store-attempt-ms`, default 1 s).
    pub attempt: Duration,
    /// Snapshots and limits, as for the sled store.
    pub store: store::Config,
    /// How long a finished game keeps its own subjects before this node seals it into one
    /// archive record ([`archive`]); `None`: this node never seals (others may).
    pub seal_after: Option<Duration>,
}

impl NatsConfig {
    /// Names the stream, and its subjects after it (lower case): several deployments may
    /// share one cluster under different names.
    pub fn with_stream(mut self, name: &str) -> NatsConfig {
        self.stream = name.to_string();
        self.prefix = name.to_ascii_lowercase();
        self
    }

    /// `nats://a:4222,nats://b:4222` (the `--store` value) with the defaults.
    pub fn from_urls(urls: &str) -> NatsConfig {
        NatsConfig {
            urls: urls.split(',').map(str::to_string).collect(),
            stream: "LUDOLOG".into(),
            prefix: "ludolog".into(),
            replicas: 3,
            timeout: Duration::from_secs(10),
            attempt: Duration::from_secs(1),
            store: store::Config::default(),
            // Long enough that a reader of a game that has just ended is done with its
            // subjects before they go (a read that loses the race reads the record instead).
            seal_after: Some(Duration::from_secs(10)),
        }
    }
}

/// The state at a game's last entry, kept warm for appends: one apply per append.
struct Tip {
    header: store::Header,
    state: Box<dyn rules_core::GameState>,
    /// Stream sequence of the last message on the game's entries subject, entry or
    /// withdrawal marker (what the next append expects).
    seq: u64,
    /// How many takebacks the line has had (`line`): part of its entries' message ids.
    generation: u32,
    /// Idempotency keys used: (actor, key) → (first ply, entries, canonical notation, who
    /// entered it).
    keys: HashMap<(String, String), (u32, u32, String, store::EnteredBy)>,
    /// Idempotency keys of moves a takeback withdrew: (actor, key) → (ply, canonical
    /// notation, who entered it).
    withdrawn: HashMap<(String, String), (u32, String, store::EnteredBy)>,
}

/// Game logs on JetStream, projections in a local sled folder. Cheap to clone: clones share
/// one connection, one set of warm tips and one follower.
#[derive(Clone)]
pub struct NatsLog(Arc<Inner>);

impl std::ops::Deref for NatsLog {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

/// What a [`NatsLog`] holds.
pub struct Inner {
    rt: tokio::runtime::Runtime,
    js: jetstream::Context,
    stream: stream::Stream,
    config: NatsConfig,
    registry: Registry,
    local: sled::Db,
    dir: PathBuf,
    hooks: Hooks,
    tips: Mutex<HashMap<GameId, Arc<Mutex<Tip>>>>,
    ids: store::id::IdClock,
    /// Whether the follower thread runs (see [`follow`]).
    following: AtomicBool,
    /// The stream sequence of the last entry the follower has handled.
    followed: AtomicU64,
    /// Told of every entry published by any node (see [`GameLog::on_grow`]).
    grow_hooks: RwLock<Vec<store::log::GrowHook>>,
    /// Whether the live-updates subscription runs.
    watching: AtomicBool,
    /// One reader of the stream into the catalog at a time.
    catalog_lock: tokio::sync::Mutex<()>,
    /// Sealed records lately read, by stream sequence ([`archive`]).
    sealed_cache: quick_cache::sync::Cache<u64, Arc<archive::Sealed>>,
}

impl NatsLog {
    /// Connects, creates the stream if absent, and refuses one with limits that would delete
    /// events; `dir` holds this node's projections.
    pub fn open(config: NatsConfig, registry: Registry, dir: &Path) -> store::Result<NatsLog> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("ludolog-nats")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Unavailable(format!("runtime: {e}")))?;
        let (js, stream) = rt.block_on(connect(&config))?;
        std::fs::create_dir_all(dir)
            .map_err(|e| StoreError::BadInput(format!("{}: {e}", dir.display())))?;
        let local = sled::Config::new()
            .path(dir.join("projections"))
            .cache_capacity(config.store.cache_bytes)
            .open()?;
        let log = NatsLog(Arc::new(Inner {
            rt,
            js,
            stream,
            config,
            registry,
            local,
            dir: dir.to_path_buf(),
            hooks: RwLock::default(),
            tips: Mutex::default(),
            ids: store::id::IdClock::default(),
            following: AtomicBool::new(false),
            followed: AtomicU64::new(0),
            grow_hooks: RwLock::default(),
            watching: AtomicBool::new(false),
            catalog_lock: tokio::sync::Mutex::new(()),
            sealed_cache: quick_cache::sync::Cache::new(SEALED_KEPT),
        }));
        log.start_keeping();
        Ok(log)
    }

    /// The stream's sequence of its last message: how far the logs go (`caughtUpTo`).
    pub fn last_sequence(&self) -> store::Result<u64> {
        self.rt.block_on(async {
            let mut s = self.stream.clone();
            let info = s.info().await.map_err(codec::unavailable)?;
            Ok(info.state.last_sequence)
        })
    }

    /// How many distinct subjects the stream has: the server keeps state in memory for each
    /// (two per game in play, none per sealed game).
    pub fn subjects(&self) -> store::Result<u64> {
        self.rt.block_on(async {
            let mut s = self.stream.clone();
            let info = s.info().await.map_err(codec::unavailable)?;
            Ok(info.state.subjects_count)
        })
    }

    /// Starts (once) the reader that tells the grow hooks of every entry stored on the
    /// stream, whichever node wrote it: an ordered consumer from the stream's end, so an entry
    /// is told only once it can be read (milliseconds after its append). If the reader stops
    /// (the cluster away), it starts again a second later; a subscriber that missed a signal
    /// catches up at the next, since subscriptions read entries from the store.
    fn start_watching(&self) {
        if self
            .watching
            .swap(true, std::sync::atomic::Ordering::SeqCst)
        {
            return;
        }
        let me = Arc::downgrade(&self.0);
        self.rt.spawn(async move {
            loop {
                let Some(inner) = me.upgrade() else { return };
                let stream = inner.stream.clone();
                let prefix = format!("{}.e.", inner.config.prefix);
                drop(inner);
                let _ = watch(&me, stream, &prefix).await;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }

    fn projection_tree(&self, name: &str) -> store::Result<sled::Tree> {
        Ok(self.local.open_tree(format!("projection:{name}"))?)
    }
}

/// Tells the grow hooks of each entry stored from now on, until the store is dropped or the
/// consumer fails.
async fn watch(
    me: &std::sync::Weak<Inner>,
    stream: stream::Stream,
    prefix: &str,
) -> store::Result<()> {
    use async_nats::jetstream::consumer::{pull, DeliverPolicy};
    use futures::StreamExt;
    let consumer = stream
        .create_consumer(pull::OrderedConfig {
            filter_subject: format!("{prefix}>"),
            deliver_policy: DeliverPolicy::New,
            headers_only: true,
            ..Default::default()
        })
        .await
        .map_err(codec::unavailable)?;
    let mut messages = consumer.messages().await.map_err(codec::unavailable)?;
    while let Some(m) = messages.next().await {
        let m = m.map_err(codec::unavailable)?;
        let Some(inner) = me.upgrade() else {
            return Ok(());
        };
        let id = m
            .subject
            .as_str()
            .strip_prefix(prefix)
            .and_then(|s| s.parse::<GameId>().ok());
        // An entry makes its line one longer than its ply; a withdrawal marker, as long as
        // it says (subscribers read the line again either way).
        let plies = m
            .headers
            .as_ref()
            .and_then(|h| h.get(codec::PLY))
            .and_then(|v| v.as_str().parse::<u32>().ok())
            .map(|ply| ply + 1)
            .or_else(|| codec::withdrawn_to(m.headers.as_ref()));
        if let (Some(id), Some(plies)) = (id, plies) {
            let hooks = inner
                .grow_hooks
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
            for h in hooks {
                h(id, plies);
            }
        }
    }
    Ok(())
}

/// The servers' addresses, checked: `BadInput` names the first that is not one.
pub fn parse_urls(urls: &[String]) -> store::Result<Vec<async_nats::ServerAddr>> {
    urls.iter()
        .map(|u| {
            u.parse::<async_nats::ServerAddr>()
                .map_err(|e| StoreError::BadInput(format!("store URL {u}: {e}")))
        })
        .collect()
}

/// The connection, and the stream checked for limits that delete events.
async fn connect(config: &NatsConfig) -> store::Result<(jetstream::Context, stream::Stream)> {
    let addrs = parse_urls(&config.urls)?;
    let client = async_nats::ConnectOptions::new()
        .connection_timeout(config.timeout)
        .request_timeout(Some(config.attempt.min(config.timeout)))
        .connect(addrs)
        .await
        .map_err(|e| {
            StoreError::Unavailable(format!("cannot reach {}: {e}", config.urls.join(",")))
        })?;
    let js = jetstream::ContextBuilder::new()
        .timeout(config.attempt.min(config.timeout))
        .build(client);
    let wanted = stream::Config {
        name: config.stream.clone(),
        subjects: vec![format!("{}.>", config.prefix)],
        num_replicas: config.replicas,
        storage: stream::StorageType::File,
        allow_direct: true,
        // Short: the server keeps every message id of the window in memory.
        duplicate_window: Duration::from_secs(120),
        ..Default::default()
    };
    let stream = js.get_or_create_stream(wanted).await.map_err(|e| {
        if e.to_string().contains("10074") {
            StoreError::BadInput(format!(
                "{e}: a single NATS server keeps one replica (--store-replicas 1)"
            ))
        } else {
            codec::unavailable(e)
        }
    })?;
    check_limits(&stream.cached_info().config)?;
    Ok((js, stream))
}

/// A stream someone else created may have limits that delete events silently (age, count,
/// size, per subject): refuse to use it.
fn check_limits(c: &stream::Config) -> store::Result<()> {
    let mut bad = Vec::new();
    if c.max_messages > 0 {
        bad.push(format!("max_msgs={}", c.max_messages));
    }
    if c.max_bytes > 0 {
        bad.push(format!("max_bytes={}", c.max_bytes));
    }
    if c.max_messages_per_subject > 0 {
        bad.push(format!(
            "max_msgs_per_subject={}",
            c.max_messages_per_subject
        ));
    }
    if !c.max_age.is_zero() {
        bad.push(format!("max_age={:?}", c.max_age));
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(StoreError::BadInput(format!(
            "stream {} has limits that delete events ({}): remove them (nats stream edit) or name another stream",
            c.name,
            bad.join(", ")
        )))
    }
}

impl store::GameLog for NatsLog {
    fn registry(&self) -> &Registry {
        &self.registry
    }
    fn create(&self, g: store::NewGame) -> store::Result<(store::Header, Vec<store::Entry>)> {
        self.create_game(g)
    }
    fn append(&self, req: store::Append<'_>) -> store::Result<store::Appended> {
        self.append_entry(req)
    }
    fn header(&self, id: GameId) -> store::Result<store::Header> {
        let h = self.rt.block_on(self.read_header(id))?;
        self.dealt_header(h)
    }
    fn entries(&self, id: GameId, from: u32, to: u32) -> store::Result<Vec<store::Entry>> {
        let all = self.rt.block_on(self.read_entries(id))?;
        Ok(all
            .into_iter()
            .map(|(e, _)| e)
            .filter(|e| e.ply >= from && e.ply < to)
            .collect())
    }
    fn state_at(&self, id: GameId, ply: u32) -> store::Result<Box<dyn rules_core::GameState>> {
        self.state_at_ply(id, ply)
    }
    fn list(
        &self,
        filter: &store::Filter,
        first: usize,
        after: Option<GameId>,
    ) -> store::Result<store::Page> {
        self.list_games(filter, first, after)
    }
    fn game_ids(&self) -> Box<dyn Iterator<Item = store::Result<GameId>> + '_> {
        match self.game_ids_now() {
            Ok(ids) => Box::new(ids.into_iter().map(Ok)),
            Err(e) => Box::new(std::iter::once(Err(e))),
        }
    }
    fn game_count(&self) -> usize {
        self.rt
            .block_on(self.sync_catalog())
            .and_then(|()| self.known_count())
            .map_or(0, |n| n as usize)
    }
    fn on_finish(&self, hook: store::FinishHook) {
        self.hooks
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(hook);
        self.start_following();
    }
    fn prepare_import(
        &self,
        line_no: u64,
        line: &str,
    ) -> Result<store::portable::PreparedImport, store::portable::RecordError> {
        store::portable::prepare_import(&self.registry, &self.config.store, line_no, line)
    }
    fn commit_import(
        &self,
        p: store::portable::PreparedImport,
    ) -> Result<store::Header, store::portable::RecordError> {
        self.import_prepared(p)
    }
    fn flush(&self) -> store::Result<()> {
        // Entries are durable on the cluster when acknowledged; only projections are here.
        self.local.flush()?;
        Ok(())
    }
    fn dir(&self) -> &Path {
        &self.dir
    }
    fn projection_put(&self, name: &str, key: &[u8], value: &[u8]) -> store::Result<()> {
        self.projection_tree(name)?.insert(key, value)?;
        Ok(())
    }
    fn projection_range(
        &self,
        name: &str,
        from: &[u8],
    ) -> store::Result<Box<dyn Iterator<Item = store::log::ProjectionItem> + '_>> {
        let tree = self.projection_tree(name)?;
        Ok(Box::new(tree.range(from.to_vec()..).map(|kv| {
            let (k, v) = kv?;
            Ok((k.to_vec(), v.to_vec()))
        })))
    }
    fn projection_clear(&self, name: &str) -> store::Result<()> {
        self.projection_tree(name)?.clear()?;
        Ok(())
    }
    fn free_space(&self) -> (Option<u64>, bool) {
        let guard = store::space::SpaceGuard::new(&self.dir, self.config.store.min_free_bytes);
        (guard.free_bytes(), guard.check().is_err())
    }
    fn size_on_disk(&self) -> store::Result<u64> {
        Ok(self.local.size_on_disk()?)
    }
    fn backend(&self) -> &'static str {
        "nats-jetstream"
    }
    fn check_ready(&self) -> store::Result<()> {
        // A read through the stream's leader, which needs a quorum (the stream's info does
        // not: a lone server still answers it).
        self.rt.block_on(self.leader_read()).map(|_| ())
    }
    fn on_grow(&self, hook: store::log::GrowHook) {
        self.grow_hooks
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(hook);
        self.start_watching();
    }
    fn followed(&self) -> store::Result<Option<store::log::Followed>> {
        let (read, end) = self.caught_up_to()?;
        Ok(Some(store::log::Followed { read, end }))
    }
    fn deployment_key(&self, proposed: [u8; 16]) -> store::Result<[u8; 16]> {
        self.key_on_stream(proposed)
    }
    fn journal(&self, id: GameId) -> store::Result<Vec<store::journal::Note>> {
        self.journal_of(id)
    }
    fn write_note(&self, note: store::journal::NewNote) -> store::Result<store::journal::Noted> {
        self.write_journal_note(note)
    }
    fn put_study(&self, study: &store::study::Study) -> store::Result<()> {
        self.put_study_on_stream(study)
    }
    fn correct(&self, c: store::revision::Correction) -> store::Result<store::Corrected> {
        self.correct_game(c)
    }
    fn revised_games(&self) -> store::Result<Vec<(GameId, u32)>> {
        self.revised()
    }
    fn study(&self, id: store::study::StudyId) -> store::Result<store::study::Study> {
        self.study_on_stream(id)
    }
    fn backup_to(&self, _dir: &Path) -> store::Result<store::BackupReport> {
        Err(StoreError::Unsupported(
            "the logs live on the JetStream cluster: back up its stream (`nats stream backup`); projections rebuild from it"
                .into(),
        ))
    }
}
