//! `/graphql/ws`: subscriptions (and queries and mutations) over graphql-transport-ws and
//! graphql-ws, held to what HTTP requests are held to.
//!
//! Before the upgrade: a browser's `Origin` must be one the CORS list allows (or the service's
//! own), and the socket takes a slot (`Slots`: capped in total and per client address). After
//! it: a socket that has not sent `connection_init` within the init timeout is closed with
//! 4408; every operation passes the client's rate limit, at most so many run at once on one
//! socket, and a query or mutation answers within the time limit (`Guarded::execute_stream`).
//! Browsers cannot set headers on a WebSocket, so the token comes in `connection_init`:
//! `{"authorization": "Bearer …"}`. Buffers are small: an idle socket costs a few KiB.

use super::ratelimit::Limiter;
use super::reply::HttpError;
use super::slots::Slot;
use super::Shared;
use crate::auth::Caller;
use crate::guard::{error_response, Guarded};
use async_graphql::http::{
    WebSocket as Protocol, WebSocketProtocols as Protocols, WsMessage, ALL_WEBSOCKET_PROTOCOLS,
};
use async_graphql::{Data, Executor, Request, Response};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use axum::extract::{ConnectInfo, FromRequestParts, State, WebSocketUpgrade};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response as HttpResponse};
use futures_util::stream::{self, BoxStream, StreamExt};
use futures_util::SinkExt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Read and write buffers of a socket: enough for any message in a few reads, small enough
/// that thousands of idle sockets cost megabytes, not gigabytes (tungstenite's default is
/// 128 KiB each).
const BUFFER: usize = 8 << 10;

/// `GET /graphql/ws`.
pub async fn ws(State(s): State<Shared>, req: axum::extract::Request) -> HttpResponse {
    let (mut parts, _) = req.into_parts();
    let ip = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
    if let Err(e) = check_origin(&parts.headers, &s.app.config.cors_origins) {
        return e.into_response();
    }
    let Some(protocol) = protocol(&parts.headers) else {
        return HttpError::BadRequest(
            "BAD_REQUEST",
            "Sec-WebSocket-Protocol names neither graphql-transport-ws nor graphql-ws".into(),
        )
        .into_response();
    };
    let upgrade = match WebSocketUpgrade::from_request_parts(&mut parts, &()).await {
        Ok(u) => u,
        Err(e) => return e.into_response(),
    };
    let slot = match s.sockets.take(ip, None) {
        Ok(slot) => slot,
        Err(full) => {
            return HttpError::Full(format!("too many WebSockets: {full}; retry later"))
                .into_response()
        }
    };
    let limits = &s.guarded.limits;
    let executor = SocketExecutor {
        guarded: s.guarded.clone(),
        limiter: s.limiter.clone(),
        ip,
        running: Arc::default(),
        max_running: limits.max_socket_operations,
    };
    let init_timeout = limits.socket_init_timeout;
    upgrade
        .protocols(ALL_WEBSOCKET_PROTOCOLS)
        .max_message_size(limits.max_body)
        .read_buffer_size(BUFFER)
        .write_buffer_size(BUFFER)
        .on_upgrade(move |socket| serve(socket, executor, protocol, init_timeout, slot))
}

/// The first protocol of `Sec-WebSocket-Protocol` that is one of GraphQL's.
fn protocol(headers: &HeaderMap) -> Option<Protocols> {
    headers
        .get(header::SEC_WEBSOCKET_PROTOCOL)?
        .to_str()
        .ok()?
        .split(',')
        .find_map(|p| p.trim().parse().ok())
}

/// A browser's page may open a socket only from an origin the CORS list allows, or from the
/// service's own (its `Host`). A client that sends no `Origin` is no browser page, and is let
/// through as CORS lets it through.
fn check_origin(headers: &HeaderMap, allowed: &[String]) -> Result<(), HttpError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or_default();
    if allowed.is_empty() || allowed.iter().any(|o| o == "*" || o == origin) {
        return Ok(());
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    let own = origin
        .split_once("://")
        .is_some_and(|(_, authority)| !host.is_empty() && authority == host);
    if own {
        return Ok(());
    }
    Err(HttpError::Forbidden(format!(
        "a page from {origin} may not open a WebSocket here (not in the allowed origins)"
    )))
}

/// Runs the protocol over `socket` until either side ends it; closes with 4408 a socket that
/// has not sent `connection_init` within `init_timeout`.
async fn serve(
    socket: WebSocket,
    executor: SocketExecutor,
    protocol: Protocols,
    init_timeout: Duration,
    slot: Slot,
) {
    let _slot = slot;
    let (mut sink, input) = socket.split();
    let input = input
        .scan((), |(), m| std::future::ready(m.ok()))
        .filter_map(|m| {
            std::future::ready(match m {
                Message::Text(_) | Message::Binary(_) => Some(m.into_data()),
                _ => None,
            })
        });
    let inited = Arc::new(AtomicBool::new(false));
    let seen = inited.clone();
    let output = Protocol::new(executor, input, protocol)
        .on_connection_init(move |payload: serde_json::Value| {
            seen.store(true, Ordering::Relaxed);
            connection_init(payload)
        })
        .map(|m| match m {
            WsMessage::Text(text) => Message::Text(text.into()),
            WsMessage::Close(code, reason) => Message::Close(Some(CloseFrame {
                code,
                reason: reason.into(),
            })),
        });
    tokio::pin!(output);
    let deadline = tokio::time::sleep(init_timeout);
    tokio::pin!(deadline);
    let mut waiting = true;
    loop {
        tokio::select! {
            m = output.next() => {
                let Some(m) = m else { break };
                let close = matches!(m, Message::Close(_));
                if sink.send(m).await.is_err() || close {
                    break;
                }
            }
            () = &mut deadline, if waiting => {
                waiting = false;
                if !inited.load(Ordering::Relaxed) {
                    let _ = sink
                        .send(Message::Close(Some(CloseFrame {
                            code: 4408,
                            reason: "Connection initialisation timeout".into(),
                        })))
                        .await;
                    break;
                }
            }
        }
    }
}

/// `connection_init`'s payload: who the socket speaks for.
async fn connection_init(payload: serde_json::Value) -> async_graphql::Result<Data> {
    let auth = payload
        .get("authorization")
        .or_else(|| payload.get("Authorization"))
        .and_then(|v| v.as_str());
    let caller = Caller::parse(auth).map_err(async_graphql::Error::new)?;
    let mut data = Data::default();
    data.insert(caller);
    Ok(data)
}

/// The service's executor as one socket runs it: each operation is one request for the rate
/// limit, and only so many run at once.
#[derive(Clone)]
struct SocketExecutor {
    guarded: Guarded,
    limiter: Limiter,
    ip: IpAddr,
    running: Arc<AtomicUsize>,
    max_running: usize,
}

/// One running operation of a socket; counted off when its stream is dropped (answered,
/// stopped, replaced under the same id, or the socket gone).
struct Running(Arc<AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Executor for SocketExecutor {
    async fn execute(&self, request: Request) -> Response {
        let request = request.data(crate::evaluation_slots::ClientIp(self.ip));
        self.guarded.answer(request).await
    }

    fn execute_stream(
        &self,
        request: Request,
        session_data: Option<Arc<Data>>,
    ) -> BoxStream<'static, Response> {
        if let Err(wait) = self.limiter.check(self.ip) {
            let mut r = error_response(
                "RATE_LIMITED",
                format!(
                    "too many requests from this client; retry in {} s",
                    wait.max(1)
                ),
            );
            if let Some(e) = r.errors.first_mut() {
                e.extensions
                    .get_or_insert_with(Default::default)
                    .set("retryAfter", wait.max(1));
            }
            return stream::once(async move { r }).boxed();
        }
        if self.running.fetch_add(1, Ordering::Relaxed) >= self.max_running {
            self.running.fetch_sub(1, Ordering::Relaxed);
            let r = error_response(
                "LIMIT_EXCEEDED",
                format!(
                    "{} operations already run on this socket; at most {} may",
                    self.max_running, self.max_running
                ),
            );
            return stream::once(async move { r }).boxed();
        }
        let running = Running(self.running.clone());
        let request = request.data(crate::evaluation_slots::ClientIp(self.ip));
        self.guarded
            .answer_stream(request, session_data)
            .map(move |r| {
                let _held = &running;
                r
            })
            .boxed()
    }
}
