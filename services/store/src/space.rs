//! Free-space guard: writes are refused, with a clear `STORAGE_FULL` error and nothing
//! written, while the store's filesystem has less free space than a reserve.
//!
//! Why refuse early instead of letting the disk fill: sled keeps writing in the background
//! (its page cache, its log segments), and an `ENOSPC` in the middle of that leaves it unable
//! to go on until restarted. Stopping new writes while a reserve is still free lets every write
//! already accepted reach the disk, keeps reads working, and lets writes resume by themselves
//! once space is freed (as databases do with a flood-stage watermark or a space quota).
//! The check is a `statvfs`, cached for a short while so a busy store pays for it rarely.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a free-space reading is trusted.
const FRESH: Duration = Duration::from_millis(200);

pub struct SpaceGuard {
    path: PathBuf,
    reserve: u64,
    last: Mutex<Option<(Instant, u64)>>,
}

impl SpaceGuard {
    pub fn new(path: &Path, reserve: u64) -> SpaceGuard {
        SpaceGuard {
            path: path.to_path_buf(),
            reserve,
            last: Mutex::new(None),
        }
    }

    /// Bytes free to unprivileged writers on the store's filesystem, if the system says.
    pub fn free_bytes(&self) -> Option<u64> {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, free)) = *last {
            if at.elapsed() < FRESH {
                return Some(free);
            }
        }
        let free = statvfs_free(&self.path)?;
        *last = Some((Instant::now(), free));
        Some(free)
    }

    /// `Err((free, reserve))` while the free space is below the reserve.
    pub fn check(&self) -> Result<(), (u64, u64)> {
        if self.reserve == 0 {
            return Ok(());
        }
        match self.free_bytes() {
            Some(free) if free < self.reserve => Err((free, self.reserve)),
            _ => Ok(()),
        }
    }
}

#[cfg(unix)]
fn statvfs_free(path: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    let mut st = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `c` is a valid NUL-terminated path and `st` a place for the answer.
    let r = unsafe { libc::statvfs(c.as_ptr(), st.as_mut_ptr()) };
    if r != 0 {
        return None;
    }
    // SAFETY: statvfs returned 0, so it filled `st`.
    let st = unsafe { st.assume_init() };
    // The field types differ between platforms (u32 on some 32-bit ones).
    #[allow(clippy::unnecessary_cast)]
    Some((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
}

#[cfg(not(unix))]
fn statvfs_free(_: &Path) -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reserve_larger_than_the_disk_refuses_and_zero_never_does() {
        let dir = tempfile::tempdir().unwrap();
        let free = SpaceGuard::new(dir.path(), 1).free_bytes().unwrap();
        assert!(free > 0);
        assert!(SpaceGuard::new(dir.path(), 1).check().is_ok());
        assert!(matches!(
            SpaceGuard::new(dir.path(), u64::MAX).check(),
            Err((_, u64::MAX))
        ));
        assert!(SpaceGuard::new(dir.path(), 0).check().is_ok());
    }
}
