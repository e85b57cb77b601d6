//! Coverage from SanitizerCoverage's `trace-pc-guard` instrumentation, on stable Rust.
//!
//! Built with `-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=3
//! -Cllvm-args=-sanitizer-coverage-trace-pc-guard -Cllvm-args=-sanitizer-coverage-prune-blocks=0`
//! (as `ops/fuzz.sh` builds), every edge of every crate calls `__sanitizer_cov_trace_pc_guard`
//! with its own guard, a `u32` numbered at start-up by `__sanitizer_cov_trace_pc_guard_init`.
//! The callback is written in assembly because a Rust function would itself be instrumented
//! and call itself: it zeroes the guard on its first hit and counts it, so each edge costs one
//! load ever after, and "an input reached a new edge" is "the count went up". Without the
//! flags nothing calls either function and the totals stay 0.

use std::sync::atomic::{AtomicU64, Ordering};

/// Edges reached so far (each counted once).
#[no_mangle]
pub static LUDOLOG_FUZZ_NEW_GUARDS: AtomicU64 = AtomicU64::new(0);
/// Guards numbered at start-up: the edges of the program.
static TOTAL: AtomicU64 = AtomicU64::new(0);

#[cfg(target_arch = "x86_64")]
std::arch::global_asm!(
    ".globl __sanitizer_cov_trace_pc_guard",
    ".type __sanitizer_cov_trace_pc_guard,@function",
    "__sanitizer_cov_trace_pc_guard:",
    "    mov eax, dword ptr [rdi]",
    "    test eax, eax",
    "    je 2f",
    "    xor eax, eax",
    "    xchg dword ptr [rdi], eax",
    "    test eax, eax",
    "    je 2f",
    "    lock inc qword ptr [rip + LUDOLOG_FUZZ_NEW_GUARDS]",
    "2:",
    "    ret",
    ".size __sanitizer_cov_trace_pc_guard, .-__sanitizer_cov_trace_pc_guard",
);

/// Numbers the guards of one module (called once per module before `main`).
///
/// # Safety
/// Called by the instrumentation with the bounds of a module's guard section.
#[no_mangle]
pub unsafe extern "C" fn __sanitizer_cov_trace_pc_guard_init(start: *mut u32, stop: *mut u32) {
    // SAFETY: `start..stop` is the module's guard array, as the instrumentation passes it.
    unsafe {
        if start == stop || *start != 0 {
            return;
        }
        let mut p = start;
        while p < stop {
            let n = TOTAL.fetch_add(1, Ordering::Relaxed) + 1;
            *p = u32::try_from(n).unwrap_or(u32::MAX);
            p = p.add(1);
        }
    }
}

/// The counters, for the driver.
pub struct Sancov;

impl fuzz::driver::Coverage for Sancov {
    fn hits(&self) -> u64 {
        LUDOLOG_FUZZ_NEW_GUARDS.load(Ordering::Relaxed)
    }
    fn total(&self) -> u64 {
        TOTAL.load(Ordering::Relaxed)
    }
}
