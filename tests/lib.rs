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
