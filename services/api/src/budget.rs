//! The response budget: each execution of a request (a query or mutation, or one event of a
//! subscription) may build at most `Limits::max_response_bytes` of the large things an answer
//! holds — annotation and study texts, JSON views, layouts and replay patches — and the
//! resolvers that make them charge it as they resolve. Once it is spent, they answer
//! `LIMIT_EXCEEDED` instead of building more.
//!
//! Why while resolving: the response limit is also checked on the serialised answer, but that
//! comes after the work. Sixty-four aliases of a game's annotations, each a fresh copy of the
//! same megabytes, had built gigabytes by then. Charging before copying bounds what a request
//! holds at once by the limit itself.
//!
//! The budget lives in each execution's own data, put there by a schema extension
//! ([`PerRequest`], registered by `build_schema`), so every transport — HTTP, batches,
//! WebSocket subscriptions — gets it without knowing of it. The same data holds what the
//! fields of one execution read together: each game's journal, read once however many fields
//! and aliases show it, one at a time, each charged to the budget as it is read (a journal is
//! read whole to show any of it: `objects::journal::Reads`).

use crate::error::ApiError;
use async_graphql::extensions::{Extension, ExtensionContext, ExtensionFactory, NextExecute};
use async_graphql::{Context, Data, Response};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// What one execution may still build, in bytes of its JSON answer.
#[derive(Debug)]
pub struct Budget {
    limit: usize,
    used: AtomicUsize,
}

impl Budget {
    pub fn new(limit: usize) -> Budget {
        Budget {
            limit,
            used: AtomicUsize::new(0),
        }
    }

    /// Takes `bytes` from the budget, or refuses once the answer would pass the limit. A
    /// refused charge still counts, so that everything after it is refused too: the answer
    /// is over its limit and will not be sent whole anyway.
    pub fn charge(&self, bytes: usize) -> Result<(), ApiError> {
        let before = self.used.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > self.limit {
            return Err(ApiError::LimitExceeded(format!(
                "the answer would be larger than the response limit of {} bytes: ask for less (a smaller `first`, fewer fields or aliases)",
                self.limit
            )));
        }
        Ok(())
    }

    /// Bytes charged so far.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }
}

/// The execution's budget, for work done off the resolver (on the blocking pool) that
/// charges as it builds. None outside an execution, as when a subscription sets up its
/// stream: nothing is answered there.
pub fn budget(ctx: &Context<'_>) -> Option<Arc<Budget>> {
    ctx.data_opt::<Arc<Budget>>().cloned()
}

/// Charges `bytes` to the execution's budget, if it has one (see [`budget`]).
pub fn charge(ctx: &Context<'_>, bytes: usize) -> Result<(), ApiError> {
    match ctx.data_opt::<Arc<Budget>>() {
        Some(b) => b.charge(bytes),
        None => Ok(()),
    }
}

/// Charges what `s` takes as a JSON string.
pub fn charge_str(ctx: &Context<'_>, s: &str) -> Result<(), ApiError> {
    charge(ctx, str_json_len(s))
}

/// Charges what `v` takes as JSON.
pub fn charge_json(ctx: &Context<'_>, v: &serde_json::Value) -> Result<(), ApiError> {
    charge(ctx, value_json_len(v))
}

/// The bytes of `s` as a JSON string, quotes and escapes included.
pub fn str_json_len(s: &str) -> usize {
    2 + s
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..=0x1f => 6,
            _ => 1,
        })
        .sum::<usize>()
}

/// The bytes of `v` as compact JSON, counted without writing them.
pub fn value_json_len(v: &serde_json::Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    // Writing a `Value` to a sink that never fails cannot fail.
    let _ = serde_json::to_writer(&mut c, v);
    c.0
}

/// The schema extension that gives each execution a fresh [`Budget`] of `limit` bytes and a
/// fresh set of journal reads.
pub struct PerRequest {
    pub limit: usize,
}

impl ExtensionFactory for PerRequest {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(PerRequestExtension { limit: self.limit })
    }
}

struct PerRequestExtension {
    limit: usize,
}

#[async_graphql::async_trait::async_trait]
impl Extension for PerRequestExtension {
    /// Called once per execution: per query or mutation, and per event of a subscription, so
    /// a long subscription's budget is each answer's, not its whole life's.
    async fn execute(
        &self,
        ctx: &ExtensionContext<'_>,
        operation_name: Option<&str>,
        next: NextExecute<'_>,
    ) -> Response {
        let mut data = Data::default();
        data.insert(Arc::new(Budget::new(self.limit)));
        data.insert(crate::objects::journal::Reads::default());
        next.run_with_data(ctx, operation_name, data).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lengths_are_what_serde_json_writes() {
        for s in [
            "",
            "plain",
            "a \"quote\" and \\ back",
            "line\nbreak\ttab",
            "\u{1}",
            "é𝄞",
        ] {
            let want = serde_json::to_string(s).unwrap().len();
            assert_eq!(str_json_len(s), want, "{s:?}");
        }
        let v = serde_json::json!({"a": [1, 2, {"b": "c\n"}], "d": null});
        assert_eq!(value_json_len(&v), serde_json::to_vec(&v).unwrap().len());
    }

    #[test]
    fn a_budget_refuses_once_spent_and_stays_spent() {
        let b = Budget::new(10);
        assert!(b.charge(6).is_ok());
        assert!(b.charge(4).is_ok(), "up to the limit itself");
        let e = b.charge(1).unwrap_err();
        assert_eq!(e.code(), "LIMIT_EXCEEDED");
        assert!(b.charge(0).is_err(), "spent");
        assert_eq!(b.used(), 11);
    }
}
