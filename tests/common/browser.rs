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

/// A headless Chromium driven over the DevTools protocol (one page), killed when dropped.
/// Console errors and uncaught exceptions of the page are collected as they come.
pub struct Page {
    child: std::process::Child,
    ws: tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>,
    next_id: u64,
    /// Console errors and exceptions seen so far.
    pub errors: Vec<String>,
    /// Every response the page received so far: URL, status and MIME type.
    pub responses: Vec<Response>,
    _profile: tempfile::TempDir,
}

impl Page {
    /// Starts Chromium at `width`×`height` on `url`.
    pub fn open(url: &str, width: u32, height: u32) -> Page {
        let profile = tempfile::tempdir().expect("profile dir");
        let mut child = Command::new(chromium())
            .args(flags(profile.path()))
            .arg("--remote-debugging-port=0")
            .arg(format!("--window-size={width},{height}"))
            .arg("about:blank")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start chromium");
        // Chromium says where its DevTools endpoint is on stderr.
        let stderr = child.stderr.take().unwrap();
        let mut port = None;
        for line in BufReader::new(stderr).lines() {
            let line = line.unwrap_or_default();
            if let Some(rest) = line.strip_prefix("DevTools listening on ws://127.0.0.1:") {
                port = rest.split('/').next().map(str::to_string);
                break;
            }
        }
        let port = port.expect("DevTools endpoint");
        let targets: serde_json::Value = ureq::get(&format!("http://127.0.0.1:{port}/json/list"))
            .call()
            .expect("DevTools targets")
            .into_json()
            .unwrap();
        let ws_url = targets
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["type"] == "page")
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .expect("a page target")
            .to_string();
        let (ws, _) = tungstenite::connect(ws_url).expect("connect to the page");
        let mut page = Page {
            child,
            ws,
            next_id: 0,
            errors: Vec::new(),
            responses: Vec::new(),
            _profile: profile,
        };
        page.call("Runtime.enable", serde_json::json!({}));
        page.call("Page.enable", serde_json::json!({}));
        page.call("Network.enable", serde_json::json!({}));
        // The window's size is only a request (a headless window has a minimum width): the
        // viewport is set exactly, as a phone's when narrow.
        page.call(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width <= 480 }),
        );
        page.navigate(url);
        page
    }

    /// Sends a DevTools command and waits for its answer, collecting events on the way.
    pub fn call(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        match self.try_call(method, params) {
            Ok(v) => v,
            Err(e) => panic!("{method}: {e}"),
        }
    }

    /// As `call`, the command's error given back rather than a panic.
    fn try_call(
        &mut self,
        method: &str,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, serde_json::Value> {
        self.next_id += 1;
        let id = self.next_id;
        let msg = serde_json::json!({ "id": id, "method": method, "params": params });
        self.ws
            .send(tungstenite::Message::Text(msg.to_string()))
            .expect("send to chromium");
        loop {
            let m = self.ws.read().expect("read from chromium");
            let Ok(text) = m.to_text() else { continue };
            let v: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
            if v["id"] == id {
                if v.get("error").is_some() {
                    return Err(v);
                }
                return Ok(v["result"].clone());
            }
            self.event(&v);
        }
    }

    fn event(&mut self, v: &serde_json::Value) {
        match v["method"].as_str() {
            Some("Runtime.consoleAPICalled") if v["params"]["type"] == "error" => {
                self.errors
                    .push(format!("console.error: {}", v["params"]["args"]));
            }
            Some("Network.responseReceived") => {
                let r = &v["params"]["response"];
                self.responses.push(Response {
                    url: r["url"].as_str().unwrap_or_default().to_string(),
                    status: r["status"].as_u64().unwrap_or_default(),
                    mime: r["mimeType"].as_str().unwrap_or_default().to_string(),
                });
            }
            Some("Runtime.exceptionThrown") => {
                self.errors
                    .push(format!("exception: {}", v["params"]["exceptionDetails"]));
            }
            _ => {}
        }
    }

    pub fn navigate(&mut self, url: &str) {
        self.call("Page.navigate", serde_json::json!({ "url": url }));
    }

    /// Evaluates `expr` in the page (awaiting a promise) and returns its value.
    pub fn eval(&mut self, expr: &str) -> serde_json::Value {
        let r = self.call(
            "Runtime.evaluate",
            serde_json::json!({ "expression": expr, "awaitPromise": true, "returnByValue": true }),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {r}");
        r["result"]["value"].clone()
    }

    /// Waits until `expr` is true in the page, up to `secs` seconds. A page that navigates
    /// while `expr` is evaluated (a click that follows a link) answers no value: not yet.
    pub fn wait_for(&mut self, expr: &str, secs: u64) {
        let end = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        loop {
            let params = serde_json::json!({
                "expression": format!("!!({expr})"), "awaitPromise": true, "returnByValue": true
            });
            match self.try_call("Runtime.evaluate", params) {
                Ok(r) if r["result"]["value"] == serde_json::Value::Bool(true) => return,
                Ok(r) => assert!(r.get("exceptionDetails").is_none(), "{expr}: {r}"),
                Err(e) => {
                    let m = e["error"]["message"].as_str().unwrap_or_default();
                    assert!(
                        m.contains("navigated or closed") || m.contains("context"),
                        "{expr}: {e}"
                    );
                }
            }
            assert!(
                std::time::Instant::now() < end,
                "timed out waiting for {expr}"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// Presses a key (`ArrowRight`, `Home`, `f`, …) as the keyboard would.
    pub fn key(&mut self, key: &str) {
        let (code, vk) = match key {
            "ArrowRight" => ("ArrowRight", 39),
            "ArrowLeft" => ("ArrowLeft", 37),
            "ArrowUp" => ("ArrowUp", 38),
            "ArrowDown" => ("ArrowDown", 40),
            "Home" => ("Home", 36),
            "End" => ("End", 35),
            k => (k, k.to_ascii_uppercase().bytes().next().unwrap_or(0) as i64),
        };
        for kind in ["keyDown", "keyUp"] {
            let mut p = serde_json::json!({ "type": kind, "key": key, "code": code, "windowsVirtualKeyCode": vk });
            if key.len() == 1 && kind == "keyDown" {
                p["text"] = key.into();
            }
            self.call("Input.dispatchKeyEvent", p);
        }
    }

    /// Writes a PNG of the page to `path`.
    pub fn screenshot(&mut self, path: &std::path::Path) {
        use base64::Engine;
        let r = self.call(
            "Page.captureScreenshot",
            serde_json::json!({ "format": "png" }),
        );
        let png = base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().unwrap())
            .unwrap();
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(path, png).unwrap();
    }
}

/// A response the page received.
#[derive(Debug, Clone)]
pub struct Response {
    pub url: String,
    pub status: u64,
    pub mime: String,
}

impl Page {
    /// Touches the page at `from` and slides to `to` (a swipe), as a finger would.
    pub fn swipe(&mut self, from: (f64, f64), to: (f64, f64)) {
        let point = |(x, y): (f64, f64)| serde_json::json!([{ "x": x, "y": y }]);
        self.call(
            "Input.dispatchTouchEvent",
            serde_json::json!({ "type": "touchStart", "touchPoints": point(from) }),
        );
        let mid = ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0);
        for p in [mid, to] {
            self.call(
                "Input.dispatchTouchEvent",
                serde_json::json!({ "type": "touchMove", "touchPoints": point(p) }),
            );
        }
        self.call(
            "Input.dispatchTouchEvent",
            serde_json::json!({ "type": "touchEnd", "touchPoints": [] }),
        );
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// True once the page shows a message (an element that exists, is visible and says something).
pub const MESSAGE_SHOWN: &str =
    "(() => { const m = document.querySelector('#message'); return !!m && !m.hidden && m.textContent.trim() !== ''; })()";

/// Where the browser tests write their screenshots.
pub fn shots() -> std::path::PathBuf {
    std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../target/browser-screenshots"
    ))
}
