//! A node that listens before its store is open: a shared store that cannot be reached when
//! the node starts (the cluster down, no quorum, a stream it refuses) makes the node wait for
//! it, not exit, so that it recovers by itself when the cluster does.
//!
//! Until [`Gate::open`] is given the service's router, `/healthz` answers `ok` (the process
//! lives), and every other path, `/readyz` and `/graphql` included, answers 503 `UNAVAILABLE`
//! with why (JSON, as every error answer): a load balancer sends nobody here, and a client
//! knows to retry. Afterwards each request goes to the router as if it were served directly.

use super::reply::HttpError;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::sync::{Arc, OnceLock, RwLock};
use tower::ServiceExt;

/// The router a node serves once its store is open, and why it is not yet.
pub struct Gate {
    ready: OnceLock<Router>,
    reason: RwLock<String>,
}

impl Gate {
    /// A closed gate, saying `reason`.
    pub fn new(reason: impl Into<String>) -> Arc<Gate> {
        Arc::new(Gate {
            ready: OnceLock::new(),
            reason: RwLock::new(reason.into()),
        })
    }

    /// Why the node is not serving yet (shown in its 503 answers).
    pub fn waiting(&self, reason: impl Into<String>) {
        *self.reason.write().unwrap_or_else(|e| e.into_inner()) = reason.into();
    }

    /// Opens the gate: from now on every request goes to `router`.
    pub fn open(&self, router: Router) {
        let _ = self.ready.set(router);
    }

    /// The router to serve from the start.
    pub fn router(self: &Arc<Gate>) -> Router {
        Router::new().fallback(dispatch).with_state(self.clone())
    }
}

async fn dispatch(State(gate): State<Arc<Gate>>, req: Request) -> Response {
    if let Some(router) = gate.ready.get() {
        return match router.clone().oneshot(req).await {
            Ok(r) => r,
            Err(never) => match never {},
        };
    }
    if req.uri().path() == "/healthz" {
        return "ok".into_response();
    }
    let reason = gate
        .reason
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    HttpError::Unavailable(format!("the store is not open yet: {reason}")).into_response()
}
