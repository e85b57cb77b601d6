//! Saving the input that kills the process: a stack overflow aborts (it cannot be caught), as
//! does a panic while panicking; an input that hangs never returns. Before each run the driver
//! publishes the input here; a signal handler for SIGABRT, SIGBUS, SIGILL and SIGFPE writes it
//! to `<crash dir>/abort-current.bin` and, escaped, to stderr, with only async-signal-safe
//! calls, then lets the signal kill the process; a watchdog thread does the same for an input
//! running past the time limit (`timeout-current.bin`) and exits with status 70.

use std::ffi::CString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

static INPUT_PTR: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static INPUT_LEN: AtomicUsize = AtomicUsize::new(0);
static ABORT_PATH: OnceLock<CString> = OnceLock::new();
/// Milliseconds since `EPOCH` at which the running input started; 0: none running.
static STARTED: AtomicU64 = AtomicU64::new(0);
static EPOCH: OnceLock<Instant> = OnceLock::new();

/// Exit status of a run stopped by the watchdog.
pub const TIMEOUT_STATUS: i32 = 70;

/// Installs the handlers, saving into `dir` (created), and starts a watchdog that ends the
/// process when one input runs longer than `timeout`. Call once per process.
pub fn install(dir: &Path, timeout: Duration) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join("abort-current.bin");
    let c = CString::new(path.as_os_str().as_encoded_bytes())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    let _ = ABORT_PATH.set(c);
    EPOCH.get_or_init(Instant::now);
    for sig in [libc::SIGABRT, libc::SIGBUS, libc::SIGILL, libc::SIGFPE] {
        // SAFETY: a zeroed sigaction is valid; the handler only makes async-signal-safe calls.
        unsafe {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = handler as *const () as usize;
            act.sa_flags = libc::SA_ONSTACK;
            libc::sigemptyset(&mut act.sa_mask);
            libc::sigaction(sig, &act, std::ptr::null_mut());
        }
    }
    let timeout_path = dir.join("timeout-current.bin");
    std::thread::Builder::new()
        .name("fuzz-watchdog".into())
        .spawn(move || watchdog(timeout, timeout_path))?;
    Ok(())
}

fn now_ms() -> u64 {
    EPOCH.get_or_init(Instant::now).elapsed().as_millis() as u64 + 1
}

/// Publishes the input about to run. It must stay alive and unchanged until [`finished`].
pub fn running(input: &[u8]) {
    INPUT_LEN.store(0, Ordering::SeqCst);
    INPUT_PTR.store(input.as_ptr() as *mut u8, Ordering::SeqCst);
    INPUT_LEN.store(input.len(), Ordering::SeqCst);
    STARTED.store(now_ms(), Ordering::SeqCst);
}

/// The published input has finished.
pub fn finished() {
    STARTED.store(0, Ordering::SeqCst);
    INPUT_LEN.store(0, Ordering::SeqCst);
}

fn watchdog(timeout: Duration, path: PathBuf) {
    let limit = timeout.as_millis() as u64;
    loop {
        std::thread::sleep(Duration::from_millis(250));
        let started = STARTED.load(Ordering::SeqCst);
        if started != 0 && now_ms().saturating_sub(started) > limit {
            let input = current();
            let _ = std::fs::write(&path, &input);
            let mut err = std::io::stderr().lock();
            let _ = writeln!(
                err,
                "\nfuzz: an input ran longer than {} s; it is saved in {}\ninput: {}",
                timeout.as_secs(),
                path.display(),
                crate::report::escape(&input, 4096)
            );
            let _ = err.flush();
            std::process::exit(TIMEOUT_STATUS);
        }
    }
}

fn current() -> Vec<u8> {
    let len = INPUT_LEN.load(Ordering::SeqCst);
    let ptr = INPUT_PTR.load(Ordering::SeqCst);
    if ptr.is_null() || len == 0 {
        return Vec::new();
    }
    // SAFETY: the driver keeps the published input alive and unchanged while it runs.
    unsafe { std::slice::from_raw_parts(ptr, len).to_vec() }
}

fn write_all(fd: libc::c_int, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: writing from a valid slice.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n <= 0 {
            return;
        }
        bytes = &bytes[n as usize..];
    }
}

extern "C" fn handler(sig: libc::c_int) {
    let len = INPUT_LEN.load(Ordering::SeqCst);
    let ptr = INPUT_PTR.load(Ordering::SeqCst);
    let input: &[u8] = if ptr.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: as in `current`.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    };
    if let Some(path) = ABORT_PATH.get() {
        // SAFETY: open, write and close are async-signal-safe.
        unsafe {
            let fd = libc::open(
                path.as_ptr(),
                libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC,
                0o644,
            );
            if fd >= 0 {
                write_all(fd, input);
                libc::close(fd);
            }
        }
        write_all(
            2,
            b"\nfuzz: the process is dying (signal) while running an input; saved in ",
        );
        write_all(2, path.as_bytes());
        write_all(2, b"\ninput: ");
        // Escaped without allocating.
        let mut buf = [0u8; 256];
        let mut n = 0;
        for &b in input.iter().take(4096) {
            if n + 4 > buf.len() {
                write_all(2, &buf[..n]);
                n = 0;
            }
            if (0x20..0x7f).contains(&b) && b != b'\\' {
                buf[n] = b;
                n += 1;
            } else {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                buf[n..n + 4].copy_from_slice(&[
                    b'\\',
                    b'x',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 15)],
                ]);
                n += 4;
            }
        }
        write_all(2, &buf[..n]);
        write_all(2, b"\n");
    }
    // SAFETY: restoring the default action and re-raising ends the process as the signal would.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}
