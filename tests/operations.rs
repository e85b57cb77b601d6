//! Operating the service: a disk running out of space and an online backup, from outside.
//!
//! Disk full: on a size-limited filesystem (a tmpfs this test mounts, so it needs root or
//! CAP_SYS_ADMIN, as CI has), appends are refused with `STORAGE_FULL` once free space is below
//! the reserve, nothing acknowledged is lost (checked after a kill -9), reads go on, and writes
//! resume by themselves once space is freed.
//!
//! Backup: `ludolog backup --to DIR` while `serve` runs and a writer plays, then `serve` on the
//! copy: every move acknowledged before the backup started is there, and the copy serves.

mod common;

use common::*;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// A tmpfs of `mb` megabytes mounted on a new folder, unmounted when dropped.
struct Tmpfs(tempfile::TempDir);

impl Tmpfs {
    fn mount(mb: u64) -> Tmpfs {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={mb}m"), "tmpfs"])
            .arg(dir.path())
            .output()
            .expect("mount runs");
        assert!(
            out.status.success(),
            "this test mounts a size-limited tmpfs and needs root or CAP_SYS_ADMIN: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Tmpfs(dir)
    }

    fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(self.0.path()).status();
    }
}

fn free_bytes(path: &Path) -> u64 {
    let out = Command::new("df")
        .args(["-B1", "--output=avail"])
        .arg(path)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .nth(1)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// Fills `path` until `leave` bytes are free; returns the ballast file.
fn ballast(dir: &Path, leave: u64) -> std::path::PathBuf {
    let file = dir.join("ballast");
    let free = free_bytes(dir);
    let size = free.saturating_sub(leave);
    let f = std::fs::File::create(&file).unwrap();
    // tmpfs has no fallocate of unwritten pages that count: write real bytes.
    let chunk = vec![1u8; 1 << 20];
    let mut w = std::io::BufWriter::new(f);
    let mut left = size;
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        std::io::Write::write_all(&mut w, &chunk[..n]).unwrap();
        left -= n as u64;
    }
    std::io::Write::flush(&mut w).unwrap();
    file
}

#[test]
fn a_full_disk_refuses_writes_loses_nothing_and_recovers_when_freed() {
    let fs = Tmpfs::mount(200);
    let data = fs.path().join("store");
    let reserve: u64 = 24 << 20;
    let args = [
        "--no-samples",
        "--rate-limit",
        "0",
        "--min-free-bytes",
        &reserve.to_string(),
    ];
    let mut server = Server::start_in(Some(&data), &args);
    let (id, tokens) = create_game(&server, "five-tribes", 2, 3);
    let mut acked: Vec<(u64, String)> = Vec::new();
    for _ in 0..30 {
        acked.extend(play_first(&server, &id, &tokens).unwrap());
    }
    // The disk fills (below the reserve).
    let file = ballast(fs.path(), reserve - (1 << 20));
    // The guard trusts a free-space reading for 200 ms (store/src/space.rs).
    std::thread::sleep(std::time::Duration::from_millis(300));
    let before = stored_moves(&server, &id).len();
    let refused = play_first(&server, &id, &tokens).unwrap_err();
    assert_eq!(refused, "STORAGE_FULL");
    let v = gql(
        &server,
        None,
        "mutation { createGame(kind: MOMBASA, players: [\"a\", \"b\"]) { seatTokens } }",
        json!({}),
    );
    assert_eq!(code(&v), "STORAGE_FULL", "{v}");
    assert_eq!(stored_moves(&server, &id).len(), before, "nothing written");
    let ready = ureq::get(&format!("{}/readyz", server.url)).call();
    assert!(
        matches!(ready, Err(ureq::Error::Status(503, _))),
        "unready while full"
    );
    // Reads go on.
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id) { position { view } } }",
        json!({ "id": id }),
    );
    assert!(v.get("errors").is_none(), "{v}");
    // Space is freed: writes resume by themselves.
    std::fs::remove_file(&file).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    for _ in 0..30 {
        acked.extend(play_first(&server, &id, &tokens).unwrap());
    }
    assert!(ureq::get(&format!("{}/readyz", server.url)).call().is_ok());
    // A crash now loses nothing that was acknowledged.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let server = Server::start_in(Some(&data), &args);
    let stored: BTreeMap<u64, String> = stored_moves(&server, &id).into_iter().collect();
    for (ply, m) in &acked {
        assert_eq!(
            stored.get(ply),
            Some(m),
            "acknowledged move at ply {ply} is kept"
        );
    }
}

#[test]
fn an_online_backup_holds_every_move_acknowledged_before_it() {
    let server = Server::start(&["--no-samples", "--rate-limit", "0"]);
    let data = server.dir.path().join("store");
    let games: Vec<(String, Vec<String>)> = (0..4)
        .map(|i| {
            create_game(
                &server,
                ["five-tribes", "mombasa"][i % 2],
                2,
                100 + i as u64,
            )
        })
        .collect();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let before_backup: Vec<Vec<(u64, String)>> = std::thread::scope(|s| {
        let writer = s.spawn(|| {
            let mut acked: Vec<Vec<(u64, String)>> = vec![Vec::new(); games.len()];
            let mut i = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let (id, tokens) = &games[i % games.len()];
                if let Ok(Some(m)) = play_first(&server, id, tokens) {
                    acked[i % games.len()].push(m);
                }
                i += 1;
            }
            acked
        });
        std::thread::sleep(std::time::Duration::from_millis(500));
        // Everything acknowledged so far must be in the copy.
        let snapshot: Vec<Vec<(u64, String)>> = games
            .iter()
            .map(|(id, _)| stored_moves(&server, id))
            .collect();
        let to = server.dir.path().join("copy");
        let out = common::ludolog_ok([
            "backup".as_ref(),
            "--to".as_ref(),
            to.as_os_str(),
            "--data-dir".as_ref(),
            data.as_os_str(),
        ]);
        let report: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(report["online"], true, "{report}");
        assert_eq!(report["games"], 4, "{report}");
        std::thread::sleep(std::time::Duration::from_millis(300));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let acked = writer.join().unwrap();
        assert!(
            acked.iter().map(Vec::len).sum::<usize>() > 10,
            "the writer played meanwhile"
        );
        snapshot
    });
    let copy = Server::start_in(Some(&server.dir.path().join("copy")), &["--no-samples"]);
    for ((id, _), before) in games.iter().zip(&before_backup) {
        let stored = stored_moves(&copy, id);
        assert!(
            stored.len() >= before.len(),
            "{id}: {} < {}",
            stored.len(),
            before.len()
        );
        assert_eq!(&stored[..before.len()], &before[..], "{id}: the same log");
        // The copy serves the game at its last ply.
        let v = gql(
            &copy,
            None,
            "query($id: ID!) { game(id: $id) { position { view } } }",
            json!({ "id": id }),
        );
        assert!(v.get("errors").is_none(), "{v}");
    }
    // The state-hash key came along: a position hashes alike in both.
    let q = "query($id: ID!) { game(id: $id) { position(ply: 1) { stateHash } } }";
    let a = gql(&server, None, q, json!({ "id": games[0].0 }));
    let b = gql(&copy, None, q, json!({ "id": games[0].0 }));
    assert_eq!(a["data"], b["data"]);
    // A backup into a folder that is not empty is refused.
    let out = Command::new(ludolog())
        .args(["backup", "--to"])
        .arg(server.dir.path().join("copy"))
        .arg("--data-dir")
        .arg(&data)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not empty"));
}
