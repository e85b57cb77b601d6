//! Validation of heavy documents off the runtime's worker threads.
//!
//! async-graphql validates a document and checks its complexity synchronously, inside one poll
//! of the request's future: however long that takes, nothing else runs on that worker thread,
//! and a time limit waiting on the same thread cannot answer. The guard bounds the work
//! (`shape`), and this bounds where it happens: a document at least `LONG`
//! bytes long, or holding at least `WIDE` selections once its fragments are expanded, is marked
//! `Heavy` by `Guarded::check` and validates inside `block_in_place`, so the runtime first hands
//! this thread's other tasks (`/healthz`, other requests, the timer of this request's own time
//! limit, since `Guarded` runs each execution as a task of its own) to another thread. Small
//! documents, what clients normally send, validate in place: for them the hand-off would cost
//! more than the validation. On a current-thread runtime (tests, the fuzzer) there is no other
//! thread to hand to, and validation runs in place.

use async_graphql::extensions::{Extension, ExtensionContext, ExtensionFactory, NextValidation};
use async_graphql::{ServerError, ValidationResult};
use std::sync::Arc;
use tokio::runtime::{Handle, RuntimeFlavor};

/// Documents at least this long, in bytes, validate off the worker thread.
pub const LONG: usize = 8 << 10;
/// Documents holding at least this many selections once their fragments are expanded, too.
pub const WIDE: usize = 500;

/// The mark `Guarded::check` puts in a request's data when its document is long or wide.
pub struct Heavy;

/// Whether a document of `len` bytes holding `selections` selections once expanded validates
/// off the worker thread.
pub fn is_heavy(len: usize, selections: usize) -> bool {
    len >= LONG || selections >= WIDE
}

/// The schema extension.
pub struct Offload;

impl ExtensionFactory for Offload {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(Offload)
    }
}

#[async_graphql::async_trait::async_trait]
impl Extension for Offload {
    async fn validation(
        &self,
        ctx: &ExtensionContext<'_>,
        next: NextValidation<'_>,
    ) -> Result<ValidationResult, Vec<ServerError>> {
        let handle = Handle::try_current()
            .ok()
            .filter(|h| h.runtime_flavor() == RuntimeFlavor::MultiThread);
        match handle {
            Some(h) if ctx.data_opt::<Heavy>().is_some() => {
                tokio::task::block_in_place(|| h.block_on(next.run(ctx)))
            }
            _ => next.run(ctx).await,
        }
    }
}
