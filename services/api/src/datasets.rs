//! The open datasets, published at `/datasets/…` and kept current: a thread refreshes the
//! dataset folder (`dataset::Dataset::refresh`) at start and then once an interval, so a
//! month's files are written again at most once an interval while games of it finish.
//!
//! What is served is a [`Published`] snapshot: the manifest's bytes and every file the
//! manifest names, opened by this thread right after it wrote them, so an answer's bytes are
//! always those its ETag (the file's SHA-256) names — a month rewritten while a reader is
//! half-way through gives that reader the old file to the end. Before the first refresh every
//! file is checked against the manifest's checksum; a file that differs is never served, and
//! its month is written again.

use crate::http::spool::Spooled;
use crate::App;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, RwLock, Weak};
use std::time::Duration;

/// Where the datasets live and how often they are brought up to date.
#[derive(Debug, Clone)]
pub struct DatasetConfig {
    pub dir: PathBuf,
    /// Least time between two refreshes.
    pub interval: Duration,
}

/// What `/datasets/` serves now.
#[derive(Default)]
pub struct Published {
    pub manifest: Option<Arc<Spooled>>,
    /// By path relative to the root (as the manifest names them).
    pub files: HashMap<String, Arc<Spooled>>,
}

/// The publishing thread's state and counters.
#[derive(Default)]
pub struct Publisher {
    published: RwLock<Arc<Published>>,
    /// Bytes of dataset files sent (bodies only).
    pub sent: Arc<AtomicU64>,
    pub refreshes: AtomicU64,
    pub months_written: AtomicU64,
    pub refresh_errors: AtomicU64,
    /// Files found to differ from the manifest's checksum (never served; written again).
    pub corrupt_files: AtomicU64,
}

/// How long a cache may keep a month's file: its bytes change only with its ETag, but a
/// month still receiving games is written again, so caches ask again (a 304 while unchanged).
const FILE_CACHE: &str = "no-cache";

impl Publisher {
    /// Starts publishing `config.dir` for `app`'s store (the thread ends with the app).
    pub fn start(app: &Arc<App>, config: DatasetConfig) -> Arc<Publisher> {
        let p = Arc::new(Publisher::default());
        let weak: Weak<App> = Arc::downgrade(app);
        let me = p.clone();
        let spawned = std::thread::Builder::new()
            .name("datasets".into())
            .spawn(move || me.run(weak, config));
        if let Err(e) = spawned {
            tracing::error!(error = %e, "the datasets thread did not start; nothing is published");
        }
        p
    }

    /// The snapshot answers read.
    pub fn current(&self) -> Arc<Published> {
        self.published
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn run(&self, app: Weak<App>, config: DatasetConfig) {
        let mut ds = match dataset::Dataset::open(&config.dir) {
            Ok(ds) => ds,
            Err(e) => {
                tracing::error!(error = %e, "the datasets folder does not open; nothing is published");
                return;
            }
        };
        let bad = ds.verify();
        if !bad.is_empty() {
            self.corrupt_files.fetch_add(bad.len() as u64, Relaxed);
            tracing::warn!(files = ?bad, "dataset files differ from the manifest's checksums; written again");
        }
        loop {
            let Some(a) = app.upgrade() else { return };
            match ds.refresh(a.store.as_ref(), &a.analysis, &dataset_kinds(&a)) {
                Ok(done) => {
                    self.refreshes.fetch_add(1, Relaxed);
                    self.months_written
                        .fetch_add(done.written.len() as u64, Relaxed);
                    let first = self.current().manifest.is_none();
                    if first || !done.written.is_empty() || !done.removed.is_empty() {
                        self.publish(&ds);
                    }
                }
                Err(e) => {
                    self.refresh_errors.fetch_add(1, Relaxed);
                    tracing::error!(error = %e, "the datasets were not brought up to date; the last ones stay published");
                }
            }
            drop(a);
            // Sleep the interval a second at a time, so the thread ends soon after the app.
            let mut left = config.interval;
            while !left.is_zero() {
                let step = left.min(Duration::from_secs(1));
                std::thread::sleep(step);
                left -= step;
                if app.strong_count() == 0 {
                    return;
                }
            }
        }
    }

    /// Opens the manifest and every file it names, and makes them what is served.
    fn publish(&self, ds: &dataset::Dataset) {
        let open = |rel: &str, etag: String| -> Option<Arc<Spooled>> {
            let path = ds.dir().join(rel);
            let file = std::fs::File::open(&path).ok()?;
            let modified = file.metadata().and_then(|m| m.modified()).ok()?;
            Spooled::of_file(file, etag, modified, FILE_CACHE, Some(self.sent.clone()))
                .ok()
                .map(Arc::new)
        };
        let mut next = Published::default();
        for f in ds.manifest().files() {
            match open(&f.path, format!("\"{}\"", f.sha256)) {
                Some(s) if s.len() == f.bytes => {
                    next.files.insert(f.path.clone(), s);
                }
                _ => {
                    tracing::warn!(file = %f.path, "a dataset file is missing or of another size; not served")
                }
            }
        }
        let manifest_sum = dataset::manifest::sha256_file(&ds.dir().join(dataset::manifest::FILE))
            .map(|(_, sum)| sum)
            .unwrap_or_default();
        next.manifest = open(dataset::manifest::FILE, format!("\"{manifest_sum}\""));
        *self.published.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(next);
    }

    /// The publisher's counters, as Prometheus text.
    pub fn metrics(&self) -> String {
        let mut s = String::new();
        let mut counter =
            |name: &str, help: &str, v: u64| crate::metrics::push(&mut s, name, "counter", help, v);
        counter(
            "ludolog_dataset_bytes_sent_total",
            "Bytes of dataset files sent (answers' bodies).",
            self.sent.load(Relaxed),
        );
        counter(
            "ludolog_dataset_refreshes_total",
            "Times the datasets were brought up to date.",
            self.refreshes.load(Relaxed),
        );
        counter(
            "ludolog_dataset_months_written_total",
            "Months of a kind whose files were written.",
            self.months_written.load(Relaxed),
        );
        counter(
            "ludolog_dataset_refresh_errors_total",
            "Refreshes that failed (the last datasets stay published).",
            self.refresh_errors.load(Relaxed),
        );
        counter(
            "ludolog_dataset_corrupt_files_total",
            "Dataset files found to differ from the manifest's checksum (written again).",
            self.corrupt_files.load(Relaxed),
        );
        s
    }
}

/// The kinds this server's registry serves.
fn dataset_kinds(app: &App) -> Vec<rules_core::GameKind> {
    rules_core::GameKind::ALL
        .into_iter()
        .filter(|k| app.store.registry().get(*k).is_some())
        .collect()
}
