#![allow(dead_code)]
//! Helpers shared by the end-to-end tests: the path of the `ludolog` binary Cargo built for
//! them, and a `ludolog serve` process on a free port.

use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// The `ludolog` binary Cargo built for these tests (same profile, no second build).
pub fn ludolog() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ludolog"))
}

/// A `ludolog serve` process on a free port, killed when dropped.
pub struct Server {
    pub child: std::process::Child,
    pub url: String,
    pub dir: tempfile::TempDir,
}

impl Server {
    /// Starts `ludolog serve` on 127.0.0.1:0 with a fresh data directory and `extra` flags.
    pub fn start(extra: &[&str]) -> Server {
        use std::io::BufRead;
        let dir = tempfile::tempdir().expect("tempdir");
        let mut child = Command::new(ludolog())
            .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(dir.path().join("store"))
            .args(extra)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start ludolog serve");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the listening line");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches("/graphql")
            .to_string();
        Server { child, url, dir }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs a GraphQL request (with a seat token if given) and returns the JSON answer, errors
/// included.
pub fn gql(server: &Server, token: Option<&str>, query: &str, vars: Value) -> Value {
    let mut req = ureq::post(&format!("{}/graphql", server.url)).timeout(Duration::from_secs(30));
    if let Some(t) = token {
        req = req.set("Authorization", &format!("Bearer {t}"));
    }
    match req.send_json(json!({ "query": query, "variables": vars })) {
        Ok(r) => r.into_json().unwrap(),
        Err(ureq::Error::Status(_, r)) => r.into_json().unwrap_or(Value::Null),
        Err(e) => panic!("{e}"),
    }
}

/// The `data` of an answer that must have no errors.
pub fn data(v: &Value) -> &Value {
    assert!(v.get("errors").is_none(), "unexpected errors: {v}");
    &v["data"]
}

/// The `extensions.code` of an answer's first error.
pub fn code(v: &Value) -> String {
    v["errors"][0]["extensions"]["code"]
        .as_str()
        .unwrap_or_else(|| panic!("no error code in {v}"))
        .to_string()
}
