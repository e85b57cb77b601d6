//! The accept loop: what a connection may hold before any request of it is read.
//!
//! Every connection takes a slot (`Slots`: capped in total and per client address, and the total
//! kept below the process's open-files limit), so no number of clients can run the server out
//! of descriptors. At a cap, the oldest connection holding no request is closed to make room;
//! only when every connection there has a request in progress is a new one answered
//! `503 LIMIT_EXCEEDED` and closed at once. Each
//! connection speaks HTTP/1.1 with a deadline on every request head (and on the wait for the
//! next one on a kept-alive connection): a client sending a byte every few seconds is cut off
//! at the deadline, whatever it sends. Its peer's address rides in each request as
//! `ConnectInfo`, for the rate limit and the socket caps. WebSocket upgrades leave this loop
//! with their own caps (`socket`).

use super::slots::{Full, Idle, Slots};
use crate::limits::Limits;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::Router;
use futures_util::TryFutureExt;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

/// Descriptors kept free of connections: the store's files, sockets to a cluster, the
/// WebSockets (capped on their own), and headroom.
const RESERVE: u64 = 256;

/// Serves `router` on `listener` until `shutdown` completes, then lets requests in flight
/// finish (for at most the request time limit) and returns.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: &Limits,
    shutdown: impl Future<Output = ()>,
) {
    let total = connection_cap(limits);
    let slots = Slots::new(total, limits.max_connections_per_addr);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    // Each connection task holds a receiver: `closed()` on the sender is all of them gone.
    let (stop, stopping) = tokio::sync::watch::channel(());
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of descriptors (another part of the process holds them) or a
                    // connection reset before it was accepted: wait a moment, go on.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let idle = Arc::new(Idle::default());
        let slot = match slots.take(peer.ip(), Some(idle.clone())) {
            Ok(slot) => slot,
            Err(full) => {
                refuse(&stream, full);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let requests = idle.clone();
        let service = tower::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            // Busy from the head until the answer's last byte: only then may the connection
            // be evicted to make room.
            let busy = requests.busy();
            router.clone().oneshot(req).map_ok(move |resp| {
                resp.map(|body| {
                    Body::new(body.map_frame(move |frame| {
                        let _held = &busy;
                        frame
                    }))
                })
            })
        });
        let conn = http
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
            .with_upgrades();
        let mut stopping = stopping.clone();
        tokio::spawn(async move {
            let _slot = slot;
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stopping.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
                // Its slot was given to a newer connection while it held no request: closed.
                () = idle.evicted() => {}
            }
        });
    }
    drop(listener);
    drop(stopping);
    let _ = stop.send(());
    let _ = tokio::time::timeout(limits.timeout + Duration::from_secs(1), stop.closed()).await;
}

/// Answers a connection over a cap with a JSON error, as far as its send buffer takes it
/// without waiting, and closes it.
fn refuse(stream: &TcpStream, full: Full) {
    let body = format!(
        r#"{{"errors":[{{"message":"too many connections: {full}; retry later","extensions":{{"code":"LIMIT_EXCEEDED"}}}}]}}"#
    );
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(answer.as_bytes());
    tracing::debug!(%full, "connection refused");
}

/// The most connections this process may hold: the configured cap, lowered to fit under the
/// open-files limit (raised first to its hard ceiling, as servers do).
fn connection_cap(limits: &Limits) -> usize {
    let fit = open_files_limit()
        .map(|n| n.saturating_sub(RESERVE + limits.max_sockets as u64) as usize)
        .unwrap_or(usize::MAX)
        .max(16);
    if fit < limits.max_connections {
        tracing::warn!(
            configured = limits.max_connections,
            fit,
            "the open-files limit holds fewer connections than configured; capping there"
        );
    }
    limits.max_connections.min(fit)
}

/// The soft open-files limit after raising it to the hard one (`None`: unknown).
#[cfg(unix)]
fn open_files_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed, which lives here.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return None;
        }
        if lim.rlim_cur < lim.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: lim.rlim_max,
                rlim_max: lim.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                lim = raised;
            }
        }
    }
    Some(lim.rlim_cur)
}

#[cfg(not(unix))]
fn open_files_limit() -> Option<u64> {
    None
}
