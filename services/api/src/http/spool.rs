//! Exports as files: each export is written once into an unnamed file beside the store and
//! served from there as a file server would — `Content-Length`, `HEAD`, byte ranges (`206` with
//! `Content-Range`, `416` for a range past the end), `Accept-Ranges: bytes`, an `ETag` and
//! `If-Range` — which is what readers that fetch a URL in parts (polars, DuckDB's httpfs) need.
//!
//! An export holds finished games only, so its bytes are fixed until another game finishes or
//! one is corrected: a file is kept under its export's name and the *generation* (finished
//! games known, corrections made) it was written at, and later requests of that generation —
//! a reader's `HEAD` and then its ranges — are answered from it without working it out again.
//! A request of a newer generation writes a new file; the older one is dropped once no answer
//! reads it. At most `KEEP_FILES` files and `KEEP_BYTES` bytes are kept, the least recently
//! used dropped first. Requests for one export arriving together share one writing. Writing
//! stops when every request waiting on it is gone (a client that leaves stops the export, as
//! when it was streamed), and before the disk falls below the store's free-space reserve.
//!
//! The file is unnamed (`O_TMPFILE` where the system has it, else removed as soon as made), so
//! nothing is left behind by a crash, and answers read it with positioned reads, never moving a
//! shared offset.

use super::reply::HttpError;
use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::watch;

/// Most export files kept for later requests.
const KEEP_FILES: usize = 16;
/// Most bytes of export files kept for later requests (a larger export is written for each
/// request that needs it, and dropped after).
const KEEP_BYTES: u64 = 1 << 30;
/// Bytes read from the file per chunk of an answer's body.
const READ_CHUNK: usize = 64 << 10;
/// Bytes written between two looks at the store's free space.
const SPACE_CHECK: u64 = 1 << 20;

/// Which export, and as of which state of the finished games.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    /// The export's path and filter, e.g. `five-tribes/positions.ndjson?where=round == 3`.
    pub what: String,
    /// (Finished games known, corrections made): moves on whenever an export could change.
    pub generation: (usize, u64),
}

/// An export written out whole (or a dataset's file, opened as it is).
pub struct Spooled {
    file: File,
    len: u64,
    etag: String,
    modified: String,
    cache_control: &'static str,
    /// Counts the bytes of this file's answers' bodies as they are sent, when given.
    sent: Option<Arc<AtomicU64>>,
}

impl Spooled {
    /// A file served as it is: `etag` (quoted) names its bytes, `cache_control` says how
    /// long a cache may keep it; the bytes of its answers are added to `sent`.
    pub fn of_file(
        file: File,
        etag: String,
        modified: std::time::SystemTime,
        cache_control: &'static str,
        sent: Option<Arc<AtomicU64>>,
    ) -> std::io::Result<Spooled> {
        let len = file.metadata()?.len();
        Ok(Spooled {
            file,
            len,
            etag,
            modified: chrono::DateTime::<chrono::Utc>::from(modified)
                .format("%a, %d %b %Y %H:%M:%S GMT")
                .to_string(),
            cache_control,
            sent,
        })
    }

    pub fn etag(&self) -> &str {
        &self.etag
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

type Outcome = Option<Result<Arc<Spooled>, HttpError>>;

/// A writing in progress, shared by the requests waiting on it.
struct Running {
    id: u64,
    interest: Weak<Interest>,
    done: watch::Receiver<Outcome>,
}

/// Held by every request waiting on a writing; when the last is dropped, the writing stops.
struct Interest(Arc<AtomicBool>);

impl Drop for Interest {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[derive(Default)]
struct Inner {
    /// Files kept, with the tick each was last used at.
    kept: HashMap<Key, (Arc<Spooled>, u64)>,
    running: HashMap<Key, Running>,
    tick: u64,
}

/// The export files of one server.
pub struct Spools {
    dir: PathBuf,
    inner: Mutex<Inner>,
    next_id: AtomicU64,
}

/// `Write` into an export's file: counts and hashes what it writes, and fails once the export
/// is no longer wanted or the disk is short of space.
pub struct SpoolWriter {
    out: std::io::BufWriter<File>,
    len: u64,
    hash: sha2::Sha256,
    cancelled: Arc<AtomicBool>,
    /// Whether the store's disk is below its reserve (the store's own check).
    short_of_space: Box<dyn Fn() -> bool + Send>,
    next_space_check: u64,
}

impl SpoolWriter {
    /// Whether every request that wanted this export is gone.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// A flag that turns true when the export is no longer wanted.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancelled.clone()
    }
}

impl Write for SpoolWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        if self.is_cancelled() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "no request wants this export any more",
            ));
        }
        if self.len >= self.next_space_check {
            if (self.short_of_space)() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::StorageFull,
                    "the store's disk is below its free-space reserve",
                ));
            }
            self.next_space_check = self.len + SPACE_CHECK;
        }
        self.out.write_all(data)?;
        sha2::Digest::update(&mut self.hash, data);
        self.len += data.len() as u64;
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// What writes an export into its file.
pub type Make = Box<dyn FnOnce(&mut SpoolWriter) -> Result<(), HttpError> + Send>;

impl Spools {
    /// Export files under `dir` (made if missing; the system's temporary folder if it cannot be).
    pub fn new(dir: PathBuf) -> Spools {
        let dir = if std::fs::create_dir_all(&dir).is_ok() {
            dir
        } else {
            std::env::temp_dir()
        };
        Spools {
            dir,
            inner: Mutex::new(Inner::default()),
            next_id: AtomicU64::new(1),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The export `key`: a kept file, the writing already under way, or a new writing by
    /// `make` (on the blocking pool). `generation` is asked again once written: a file written
    /// while the games changed is answered but not kept.
    pub async fn get(
        self: &Arc<Self>,
        key: Key,
        make: Make,
        short_of_space: Box<dyn Fn() -> bool + Send>,
        generation: Arc<dyn Fn() -> (usize, u64) + Send + Sync>,
    ) -> Result<Arc<Spooled>, HttpError> {
        let (mut done, _interest) = {
            let mut inner = self.lock();
            inner.tick += 1;
            let tick = inner.tick;
            if let Some((file, used)) = inner.kept.get_mut(&key) {
                *used = tick;
                return Ok(file.clone());
            }
            let joined = inner
                .running
                .get(&key)
                .and_then(|r| r.interest.upgrade().map(|i| (r.done.clone(), i)));
            match joined {
                Some(j) => j,
                None => {
                    let cancelled = Arc::new(AtomicBool::new(false));
                    let interest = Arc::new(Interest(cancelled.clone()));
                    let (tx, rx) = watch::channel(None);
                    let id = self.next_id.fetch_add(1, Ordering::Relaxed);
                    inner.running.insert(
                        key.clone(),
                        Running {
                            id,
                            interest: Arc::downgrade(&interest),
                            done: rx.clone(),
                        },
                    );
                    let me = self.clone();
                    let key = key.clone();
                    tokio::task::spawn_blocking(move || {
                        let r = me.write(make, cancelled, short_of_space);
                        me.finish(id, key, &r, generation());
                        let _ = tx.send(Some(r));
                    });
                    (rx, interest)
                }
            }
        };
        let outcome = done
            .wait_for(Option::is_some)
            .await
            .map(|o| o.clone())
            .map_err(|_| HttpError::Internal("the export's writer stopped".into()))?;
        outcome.unwrap_or_else(|| Err(HttpError::Internal("the export was not written".into())))
    }

    /// Writes one export into a new unnamed file.
    fn write(
        &self,
        make: Make,
        cancelled: Arc<AtomicBool>,
        short_of_space: Box<dyn Fn() -> bool + Send>,
    ) -> Result<Arc<Spooled>, HttpError> {
        let internal = |e: std::io::Error| HttpError::Internal(format!("export file: {e}"));
        if short_of_space() {
            return Err(short_of_space_error());
        }
        let file = tempfile::tempfile_in(&self.dir)
            .or_else(|_| tempfile::tempfile())
            .map_err(internal)?;
        let mut w = SpoolWriter {
            out: std::io::BufWriter::with_capacity(READ_CHUNK, file.try_clone().map_err(internal)?),
            len: 0,
            hash: sha2::Digest::new(),
            cancelled,
            short_of_space,
            next_space_check: SPACE_CHECK,
        };
        make(&mut w)?;
        w.flush().map_err(|e| match e.kind() {
            std::io::ErrorKind::StorageFull => short_of_space_error(),
            _ => internal(e),
        })?;
        if w.is_cancelled() {
            return Err(HttpError::Internal("the export was abandoned".into()));
        }
        let digest = sha2::Digest::finalize(w.hash);
        Ok(Arc::new(Spooled {
            file,
            len: w.len,
            etag: format!("\"{}\"", hex::encode(&digest[..12])),
            modified: chrono::Utc::now()
                .format("%a, %d %b %Y %H:%M:%S GMT")
                .to_string(),
            // The export changes when a game finishes: caches must ask again (the ETag makes
            // that a 304 while it has not).
            cache_control: "no-cache",
            sent: None,
        }))
    }

    /// A writing ended: it is no longer running, and its file is kept if the games did not
    /// change while it was written and it fits.
    fn finish(&self, id: u64, key: Key, r: &Result<Arc<Spooled>, HttpError>, now: (usize, u64)) {
        let mut inner = self.lock();
        if inner.running.get(&key).is_some_and(|run| run.id == id) {
            inner.running.remove(&key);
        }
        let Ok(file) = r else { return };
        if now != key.generation || file.len > KEEP_BYTES {
            return;
        }
        // Older generations of the same export are never asked for again.
        inner.kept.retain(|k, _| k.what != key.what);
        inner.tick += 1;
        let tick = inner.tick;
        inner.kept.insert(key, (file.clone(), tick));
        loop {
            let bytes: u64 = inner.kept.values().map(|(f, _)| f.len).sum();
            if inner.kept.len() <= KEEP_FILES && bytes <= KEEP_BYTES {
                break;
            }
            let Some(oldest) = inner
                .kept
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            inner.kept.remove(&oldest);
        }
    }

    /// Files kept now, and their bytes (for tests and metrics).
    pub fn kept(&self) -> (usize, u64) {
        let inner = self.lock();
        (
            inner.kept.len(),
            inner.kept.values().map(|(f, _)| f.len).sum(),
        )
    }
}

fn short_of_space_error() -> HttpError {
    HttpError::Unavailable(
        "the server's disk is below its free-space reserve; exports are written to it first, \
         and are refused until space is freed"
            .into(),
    )
}

/// A byte range asked for, as `Range: bytes=…` says it (one range; several, another unit or a
/// malformed header are ignored, and the whole file is sent, as RFC 9110 allows).
#[derive(Debug, PartialEq, Eq)]
pub enum Asked {
    Whole,
    /// First and last byte, both within the file.
    Part(u64, u64),
    /// A range that starts past the end (or any range of an empty file).
    Unsatisfiable,
}

/// Reads a `Range` header for a file of `len` bytes.
pub fn asked(range: Option<&str>, len: u64) -> Asked {
    let Some(spec) = range.and_then(|r| r.trim().strip_prefix("bytes=")) else {
        return Asked::Whole;
    };
    if spec.contains(',') {
        return Asked::Whole;
    }
    let Some((first, last)) = spec.trim().split_once('-') else {
        return Asked::Whole;
    };
    let num = |s: &str| -> Option<u64> {
        let s = s.trim();
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    match (num(first), last.trim().is_empty(), num(last)) {
        // `bytes=-n`: the last n bytes.
        (None, false, Some(n)) if first.trim().is_empty() => {
            if n == 0 || len == 0 {
                Asked::Unsatisfiable
            } else {
                Asked::Part(len.saturating_sub(n), len - 1)
            }
        }
        // `bytes=a-`.
        (Some(a), true, _) => {
            if a >= len {
                Asked::Unsatisfiable
            } else {
                Asked::Part(a, len - 1)
            }
        }
        // `bytes=a-b`.
        (Some(a), false, Some(b)) if a <= b => {
            if a >= len {
                Asked::Unsatisfiable
            } else {
                Asked::Part(a, b.min(len - 1))
            }
        }
        _ => Asked::Whole,
    }
}

/// The answer to a `GET` or `HEAD` of `file`: whole, or the range `headers` ask for.
pub fn respond(file: Arc<Spooled>, headers: &HeaderMap, mime: &'static str) -> Response {
    let header_text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    if header_text(header::IF_NONE_MATCH).is_some_and(|t| {
        t.split(',')
            .any(|e| e.trim() == file.etag || e.trim() == "*")
    }) {
        let mut r = StatusCode::NOT_MODIFIED.into_response();
        common_headers(&mut r, &file, mime);
        return r;
    }
    // `If-Range` with another version: the range no longer means anything, send it all.
    let current = header_text(header::IF_RANGE).is_none_or(|t| t.trim() == file.etag);
    let range = if current {
        asked(header_text(header::RANGE), file.len)
    } else {
        Asked::Whole
    };
    let (status, first, last) = match range {
        Asked::Whole => (StatusCode::OK, 0, file.len.checked_sub(1)),
        Asked::Part(a, b) => (StatusCode::PARTIAL_CONTENT, a, Some(b)),
        Asked::Unsatisfiable => {
            let mut r = HttpError::RangeNotSatisfiable(file.len).into_response();
            r.headers_mut()
                .insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
            return r;
        }
    };
    let count = last.map_or(0, |l| l + 1 - first);
    let mut r = Response::new(body(file.clone(), first, count));
    *r.status_mut() = status;
    common_headers(&mut r, &file, mime);
    let h = r.headers_mut();
    h.insert(header::CONTENT_LENGTH, HeaderValue::from(count));
    if let (StatusCode::PARTIAL_CONTENT, Some(last)) = (status, last) {
        if let Ok(v) = HeaderValue::from_str(&format!("bytes {first}-{last}/{}", file.len)) {
            h.insert(header::CONTENT_RANGE, v);
        }
    }
    r
}

fn common_headers(r: &mut Response, file: &Spooled, mime: &'static str) {
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(file.cache_control),
    );
    if let Ok(v) = HeaderValue::from_str(&file.etag) {
        h.insert(header::ETAG, v);
    }
    if let Ok(v) = HeaderValue::from_str(&file.modified) {
        h.insert(header::LAST_MODIFIED, v);
    }
}

/// `count` bytes of `file` from `first`, read a chunk at a time on the blocking pool.
fn body(file: Arc<Spooled>, first: u64, count: u64) -> Body {
    let stream =
        futures_util::stream::unfold((file, first, first + count), |(file, at, end)| async move {
            if at >= end {
                return None;
            }
            let n = READ_CHUNK.min((end - at) as usize);
            let f = file.clone();
            let read = tokio::task::spawn_blocking(move || {
                let mut buf = vec![0u8; n];
                f.file.read_exact_at(&mut buf, at).map(|_| buf)
            })
            .await
            .unwrap_or_else(|e| Err(std::io::Error::other(e)));
            match read {
                Ok(buf) => {
                    if let Some(sent) = &file.sent {
                        sent.fetch_add(buf.len() as u64, Ordering::Relaxed);
                    }
                    Some((Ok(Bytes::from(buf)), (file, at + n as u64, end)))
                }
                // The transfer breaks (the client sees a short body, never a wrong one).
                Err(e) => Some((Err(e), (file, end, end))),
            }
        });
    Body::from_stream(stream)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A writing that counts its runs and writes `text` (slowly, so requests overlap).
    fn writing(runs: &Arc<AtomicU64>, text: &'static str) -> Make {
        let runs = runs.clone();
        Box::new(move |w: &mut SpoolWriter| {
            runs.fetch_add(1, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(50));
            w.write_all(text.as_bytes())
                .map_err(|e| HttpError::Internal(e.to_string()))
        })
    }

    fn key(generation: usize) -> Key {
        Key {
            what: "five-tribes/games.csv".into(),
            generation: (generation, 0),
        }
    }

    fn at(generation: usize) -> Arc<dyn Fn() -> (usize, u64) + Send + Sync> {
        Arc::new(move || (generation, 0))
    }

    fn room() -> Box<dyn Fn() -> bool + Send> {
        Box::new(|| false)
    }

    #[tokio::test]
    async fn one_writing_per_generation_shared_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let spools = Arc::new(Spools::new(dir.path().join("spool")));
        let runs = Arc::new(AtomicU64::new(0));
        let (a, b) = tokio::join!(
            spools.get(key(1), writing(&runs, "a,b\n1,2\n"), room(), at(1)),
            spools.get(key(1), writing(&runs, "a,b\n1,2\n"), room(), at(1)),
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        assert!(
            Arc::ptr_eq(&a, &b),
            "two requests together share one writing"
        );
        assert_eq!((a.len(), runs.load(Ordering::SeqCst)), (8, 1));
        let again = spools
            .get(key(1), writing(&runs, "x"), room(), at(1))
            .await
            .unwrap();
        assert!(
            Arc::ptr_eq(&a, &again),
            "a later request reads the kept file"
        );
        // A new generation is written afresh and replaces the old one.
        let newer = spools
            .get(key(2), writing(&runs, "a,b\n1,2\n3,4\n"), room(), at(2))
            .await
            .unwrap();
        assert_eq!((newer.len(), runs.load(Ordering::SeqCst)), (12, 2));
        assert_ne!(newer.etag, a.etag);
        assert_eq!(spools.kept(), (1, 12));
        // Written while the games changed: answered, not kept.
        let moved = spools
            .get(key(3), writing(&runs, "a,b\n"), room(), at(4))
            .await
            .unwrap();
        assert_eq!(moved.len(), 4);
        assert_eq!(spools.kept(), (1, 12));
        // The file reads back in ranges.
        let mut buf = [0u8; 3];
        newer.file.read_exact_at(&mut buf, 4).unwrap();
        assert_eq!(&buf, b"1,2");
    }

    #[tokio::test]
    async fn a_writing_stops_when_nobody_waits_and_short_of_space() {
        let dir = tempfile::tempdir().unwrap();
        let spools = Arc::new(Spools::new(dir.path().join("spool")));
        let stopped = Arc::new(AtomicBool::new(false));
        let seen = stopped.clone();
        let endless: Make = Box::new(move |w: &mut SpoolWriter| {
            let r = loop {
                if let Err(e) = w.write_all(&[b'x'; 1024]) {
                    break Err(HttpError::Internal(e.to_string()));
                }
                std::thread::sleep(Duration::from_millis(1));
            };
            seen.store(true, Ordering::SeqCst);
            r
        });
        let s = spools.clone();
        let waiting = tokio::spawn(async move { s.get(key(1), endless, room(), at(1)).await });
        tokio::time::sleep(Duration::from_millis(50)).await;
        waiting.abort();
        let started = std::time::Instant::now();
        while !stopped.load(Ordering::SeqCst) {
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "the writing went on"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(spools.kept(), (0, 0));
        let full = spools
            .get(key(1), Box::new(|_| Ok(())), Box::new(|| true), at(1))
            .await;
        assert!(
            matches!(full, Err(HttpError::Unavailable(_))),
            "{:?}",
            full.err()
        );
    }

    #[test]
    fn ranges_are_read_as_rfc_9110_says() {
        let len = 100;
        assert_eq!(asked(None, len), Asked::Whole);
        assert_eq!(asked(Some("bytes=0-0"), len), Asked::Part(0, 0));
        assert_eq!(asked(Some("bytes=10-19"), len), Asked::Part(10, 19));
        assert_eq!(asked(Some("bytes=90-200"), len), Asked::Part(90, 99));
        assert_eq!(asked(Some("bytes=95-"), len), Asked::Part(95, 99));
        assert_eq!(asked(Some("bytes=-10"), len), Asked::Part(90, 99));
        assert_eq!(asked(Some("bytes=-500"), len), Asked::Part(0, 99));
        assert_eq!(asked(Some("bytes=100-"), len), Asked::Unsatisfiable);
        assert_eq!(asked(Some("bytes=100-120"), len), Asked::Unsatisfiable);
        assert_eq!(asked(Some("bytes=-0"), len), Asked::Unsatisfiable);
        assert_eq!(asked(Some("bytes=0-"), 0), Asked::Unsatisfiable);
        // Ignored: the whole file is sent.
        for ignored in [
            "bytes=5-1",
            "bytes=0-1,5-6",
            "items=0-1",
            "bytes=a-b",
            "bytes=-",
            "bytes=1",
            "bytes=+1-2",
        ] {
            assert_eq!(asked(Some(ignored), len), Asked::Whole, "{ignored}");
        }
    }
}
