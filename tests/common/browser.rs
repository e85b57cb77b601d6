//! Headless Chromium for the browser tests (Debian's `chromium`, which `ops/test.sh`
//! installs), and a one-page HTTP server on its own port to load pages from another origin.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Command;

/// The Chromium binary: `LUDOLOG_CHROMIUM`, else Debian's.
pub fn chromium() -> PathBuf {
    let path = std::env::var_os("LUDOLOG_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    assert!(
        path.exists(),
        "{} is missing: the browser tests need Debian's chromium (ops/test.sh installs it)",
        path.display()
    );
    path
}

/// The flags every run needs here: headless, as root (no sandbox), and no background traffic
/// (the machine's network is closed; without these Chromium spends its time on refused calls).
pub fn flags(profile: &std::path::Path) -> Vec<String> {
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

/// Loads `url`, lets its scripts run for up to `budget_ms` of virtual time (network waits do
/// not count), and returns the DOM as serialised HTML.
pub fn dump_dom(url: &str, budget_ms: u32) -> String {
    let profile = tempfile::tempdir().expect("profile dir");
    let out = Command::new(chromium())
        .args(flags(profile.path()))
        .arg(format!("--virtual-time-budget={budget_ms}"))
        .arg("--dump-dom")
        .arg(url)
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Serves `html` at every path of a fresh port on 127.0.0.1 (a thread, for the test's life);
/// returns the page's origin, e.g. `http://127.0.0.1:40123`.
pub fn serve_page(html: String) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let origin = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut line = String::new();
            // Read the request head; the body (none for GET) is ignored.
            while reader.read_line(&mut line).map(|n| n > 2).unwrap_or(false) {
                line.clear();
            }
            let mut stream = &stream;
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{}",
                html.len(),
                html
            );
        }
    });
    origin
}
