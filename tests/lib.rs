//! End-to-end tests of Ludolog: they build the `ludolog` binary and drive it from outside,
//! as a user or a script would. The tests are in `cli.rs`; this library only finds the binary.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The path of a freshly built `ludolog` binary (built once per test run).
pub fn ludolog() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args([
                "build",
                "--quiet",
                "--package",
                "ludolog",
                "--bin",
                "ludolog",
            ])
            .current_dir(&root)
            .status()
            .expect("run cargo build");
        assert!(status.success(), "building ludolog failed");
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("target"));
        target
            .join("debug")
            .join(format!("ludolog{}", std::env::consts::EXE_SUFFIX))
    })
    .clone()
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
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
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
