//! Catching panics per input: a panic hook that records the message and place of every panic
//! on any thread (a GraphQL resolver's panic happens on a blocking-pool thread and reaches the
//! caller, if at all, as an error), and `catch_unwind` around each run.

use std::panic::PanicHookInfo;
use std::sync::Mutex;

/// One panic, as the hook saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanicRecord {
    pub message: String,
    /// `file:line:column`, or `unknown`.
    pub location: String,
    pub thread: String,
}

static PANICS: Mutex<Vec<PanicRecord>> = Mutex::new(Vec::new());

fn record(info: &PanicHookInfo<'_>) {
    let message = if let Some(s) = info.payload().downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = info.payload().downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".to_string()
    };
    let location = info.location().map_or_else(
        || "unknown".to_string(),
        |l| format!("{}:{}:{}", l.file(), l.line(), l.column()),
    );
    let thread = std::thread::current()
        .name()
        .unwrap_or("unnamed")
        .to_string();
    if let Ok(mut v) = PANICS.lock() {
        // Bounded: a panicking background thread must not eat memory.
        if v.len() < 64 {
            v.push(PanicRecord {
                message: message.chars().take(2000).collect(),
                location,
                thread,
            });
        }
    }
}

/// Installs the recording hook (instead of printing: the driver reports each distinct panic
/// once). Idempotent.
pub fn install_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| std::panic::set_hook(Box::new(record)));
}

/// Takes every panic recorded since the last call.
pub fn take() -> Vec<PanicRecord> {
    match PANICS.lock() {
        Ok(mut v) => std::mem::take(&mut *v),
        Err(e) => std::mem::take(&mut *e.into_inner()),
    }
}
