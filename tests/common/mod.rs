#![allow(dead_code)]
//! Helpers shared by the end-to-end tests: the path of the `ludolog` binary Cargo built for
//! them, and a `ludolog serve` process on a free port.

use std::path::PathBuf;
use std::process::Command;

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
