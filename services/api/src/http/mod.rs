//! The HTTP surface: routes, limits, health, metrics.
//!
//! Connections are accepted by `listen` (caps, a deadline on each request head). Layers,
//! outermost first: every error answer made JSON (`reply::json_errors`), security headers
//! (`headers`), CORS, the per-client rate limit, a panic net for the plain handlers, the request time limit, the body
//! size limit. GraphQL's own checks (nesting, aliases, complexity, response size) are in
//! `guard`, shared with the WebSocket transport.

mod admin;
mod assets;
pub mod cache;
mod datasets;
mod exports;
pub mod gate;
mod graphql;
mod headers;
pub mod listen;
mod media;
pub mod ratelimit;
pub mod reply;
mod slots;
mod socket;
pub mod spool;

use crate::guard::Guarded;
use crate::App;
use axum::extract::State;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use reply::HttpError;
use std::sync::Arc;
use std::time::Duration;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

#[derive(Clone)]
pub(crate) struct Shared {
    app: Arc<App>,
    guarded: Guarded,
    /// Answers about finished games, as sent (`cache`).
    responses: Arc<cache::ResponseCache>,
    /// The per-client rate limit, for the operations of a WebSocket (HTTP's is a layer).
    limiter: ratelimit::Limiter,
    /// Open WebSockets, capped in total and per client address.
    sockets: slots::Slots,
    /// Exports written out as files, answered whole or in ranges (`spool`).
    spools: Arc<spool::Spools>,
}

/// The router of the whole service. Serve it with `listen::serve` (or axum's
/// `into_make_service_with_connect_info::<SocketAddr>()`) so the rate limit and the socket
/// caps can tell clients apart (without the peer's address, all are one client).
pub fn router(app: Arc<App>) -> Router {
    let limits = Arc::new(app.config.limits.clone());
    let guarded = Guarded::for_schema(crate::build_schema(app.clone()), limits.clone());
    let limiter = ratelimit::Limiter::new(limits.rate_per_second, limits.rate_burst);
    spawn_sweeper(limiter.clone());
    Router::new()
        .route("/graphql", get(graphql::get).post(graphql::post))
        .route("/graphql/ws", get(socket::ws))
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/exports/{kind}/{file}", get(exports::export))
        .route("/charts/{kind}/{file}", get(exports::chart))
        .route("/datasets/{*path}", get(datasets::file))
        .route("/admin/backup", axum::routing::post(admin::backup))
        .route("/assets/{*path}", get(assets::asset))
        .route("/", get(assets::index_page))
        .route("/games/{id}", get(assets::game_page))
        .route("/embed/games/{id}", get(assets::game_page))
        .route("/study/{id}", get(assets::study_page))
        .route("/players/{name}", get(assets::player_page))
        .fallback(|| async { HttpError::NotFound("no such page".into()) })
        .layer(RequestBodyLimitLayer::new(limits.max_body))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limits.timeout,
        ))
        .layer(CatchPanicLayer::custom(|_| {
            tracing::error!("a request panicked");
            HttpError::Internal("the server failed on this request (it is logged)".into())
                .into_response()
        }))
        .layer(axum::middleware::from_fn_with_state(
            limiter.clone(),
            ratelimit::limit,
        ))
        .layer(cors(&app.config.cors_origins))
        .layer(axum::middleware::from_fn(headers::security))
        .layer(axum::middleware::map_response(reply::json_errors))
        .with_state(Shared {
            responses: Arc::new(cache::ResponseCache::new(app.config.response_cache_bytes)),
            sockets: slots::Slots::new(limits.max_sockets, limits.max_sockets_per_addr),
            spools: Arc::new(spool::Spools::new(app.store.dir().join("spool"))),
            limiter,
            app,
            guarded,
        })
}

/// CORS: `*` allows any origin (safe here: credentials are bearer tokens a page must hold, never
/// cookies); otherwise exactly the listed origins.
fn cors(origins: &[String]) -> CorsLayer {
    let allow = if origins.is_empty() || origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(origins.iter().filter_map(|o| HeaderValue::from_str(o).ok()))
    };
    CorsLayer::new()
        .allow_origin(allow)
        .allow_methods([Method::GET, Method::HEAD, Method::POST, Method::OPTIONS])
        .allow_headers([
            header::CONTENT_TYPE,
            header::AUTHORIZATION,
            header::ACCEPT,
            header::RANGE,
            header::IF_RANGE,
        ])
        .expose_headers([
            header::ETAG,
            header::RETRY_AFTER,
            header::CONTENT_RANGE,
            header::ACCEPT_RANGES,
            header::CONTENT_LENGTH,
        ])
        .max_age(Duration::from_secs(600))
}

/// Forgets idle clients' buckets once a minute (only when a runtime is there to run it).
fn spawn_sweeper(limiter: ratelimit::Limiter) {
    if let Ok(rt) = tokio::runtime::Handle::try_current() {
        rt.spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(60));
            loop {
                tick.tick().await;
                limiter.sweep();
            }
        });
    }
}

/// Ready when the store answers (a shared store: its cluster, with a quorum) and has room to
/// write (below its free-space reserve, writes are refused, so a load balancer should send
/// writers elsewhere).
async fn readyz(State(s): State<Shared>) -> Result<&'static str, HttpError> {
    let store = s.app.store.clone();
    let full = tokio::task::spawn_blocking(move || {
        store.check_ready()?;
        Ok::<_, store::StoreError>(store.free_space().1)
    })
    .await
    .map_err(|_| HttpError::Unavailable("the store is unavailable".into()))?
    .map_err(|e| HttpError::Unavailable(e.to_string()))?;
    if full {
        return Err(HttpError::Unavailable(
            "the store's disk is below its free-space reserve: writes are refused".into(),
        ));
    }
    Ok("ready")
}

async fn metrics(State(s): State<Shared>) -> Response {
    let store = s.app.store.clone();
    let (bytes, games) = tokio::task::spawn_blocking(move || {
        (store.size_on_disk().unwrap_or(0), store.game_count())
    })
    .await
    .unwrap_or((0, 0));
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        s.app
            .metrics
            .render(bytes, games, s.responses.weight(), s.app.bots.waiting())
            + &format!(
                "# HELP ludolog_websockets_open WebSockets open now.\n\
                 # TYPE ludolog_websockets_open gauge\nludolog_websockets_open {}\n",
                s.sockets.open()
            )
            + &crate::metrics::reviews(s.app.reviews.as_deref())
            + &s.app
                .datasets
                .get()
                .map(|d| d.metrics())
                .unwrap_or_default(),
    )
        .into_response()
}
