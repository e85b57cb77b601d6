//! The HTTP surface: routes, limits, health, metrics.

use crate::auth::Caller;
use crate::schema::LudologSchema;
use crate::App;
use async_graphql::http::{GraphiQLSource, ALL_WEBSOCKET_PROTOCOLS};
use async_graphql::Data;
use async_graphql_axum::{GraphQLProtocol, GraphQLRequest, GraphQLResponse, GraphQLWebSocket};
use axum::extract::{State, WebSocketUpgrade};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::sync::Arc;
use std::time::Instant;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

#[derive(Clone)]
struct Shared {
    app: Arc<App>,
    schema: LudologSchema,
}

/// The router of the whole service.
pub fn router(app: Arc<App>) -> Router {
    let schema = crate::build_schema(app.clone());
    let limits = (
        RequestBodyLimitLayer::new(app.config.max_body),
        TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, app.config.timeout),
    );
    Router::new()
        .route("/graphql", get(graphiql).post(graphql))
        .route("/graphql/ws", get(graphql_ws))
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/exports/{kind}/{file}", get(export))
        .route("/charts/{kind}/{file}", get(chart))
        .layer(limits)
        .with_state(Shared { app, schema })
}

async fn graphql(
    State(s): State<Shared>,
    headers: HeaderMap,
    req: GraphQLRequest,
) -> GraphQLResponse {
    let caller = Caller::from_authorization(
        headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok()),
    );
    let start = Instant::now();
    let mut resp = s.schema.execute(req.into_inner().data(caller)).await;
    s.app
        .metrics
        .observe(start.elapsed().as_secs_f64(), resp.is_err());
    for e in &mut resp.errors {
        label(e);
    }
    resp.into()
}

/// Errors raised by async-graphql itself (parsing, validation, limits) carry no code; give them
/// one, so that every error a client sees has `extensions.code`.
fn label(e: &mut async_graphql::ServerError) {
    let has_code = e
        .extensions
        .as_ref()
        .is_some_and(|x| x.get("code").is_some());
    if has_code {
        return;
    }
    let code = if e.message.contains("nested too deep") || e.message.contains("too complex") {
        "LIMIT_EXCEEDED"
    } else {
        "BAD_QUERY"
    };
    e.extensions
        .get_or_insert_with(Default::default)
        .set("code", code);
}

async fn graphiql() -> Html<String> {
    Html(
        GraphiQLSource::build()
            .endpoint("/graphql")
            .subscription_endpoint("/graphql/ws")
            .finish(),
    )
}

/// Subscriptions over graphql-transport-ws and graphql-ws. Browsers cannot set headers on a
/// WebSocket, so the token comes in `connection_init`: `{"authorization": "Bearer …"}`.
async fn graphql_ws(
    State(s): State<Shared>,
    protocol: GraphQLProtocol,
    upgrade: WebSocketUpgrade,
) -> Response {
    upgrade
        .protocols(ALL_WEBSOCKET_PROTOCOLS)
        .on_upgrade(move |socket| {
            GraphQLWebSocket::new(socket, s.schema.clone(), protocol)
                .on_connection_init(|payload: serde_json::Value| async move {
                    let auth = payload
                        .get("authorization")
                        .or_else(|| payload.get("Authorization"))
                        .and_then(|v| v.as_str())
                        .map(str::to_string);
                    let mut data = Data::default();
                    data.insert(Caller::from_authorization(auth.as_deref()));
                    Ok(data)
                })
                .serve()
        })
}

async fn readyz(State(s): State<Shared>) -> impl IntoResponse {
    let store = s.app.store.clone();
    match tokio::task::spawn_blocking(move || store.game_count()).await {
        Ok(_) => (StatusCode::OK, "ready"),
        Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "store unavailable"),
    }
}

async fn metrics(State(s): State<Shared>) -> impl IntoResponse {
    let store = s.app.store.clone();
    let (bytes, games) = tokio::task::spawn_blocking(move || {
        (store.size_on_disk().unwrap_or(0), store.game_count())
    })
    .await
    .unwrap_or((0, 0));
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        s.app.metrics.render(bytes, games),
    )
}

/// `GET /exports/{kind}/positions.ndjson?where=<CEL>`: every indexed position of finished games
/// that passes the filter, streamed. A filter that does not compile is refused with 400 and
/// the error as JSON (`code` BAD_QUERY, `message`, `line`, `column`) before anything streams.
fn export_positions(s: Shared, kind: rules_core::GameKind, filter: Option<&str>) -> Response {
    use analysis::positions;
    let schema = match positions::schema(s.app.store.registry(), kind) {
        Ok(schema) => schema,
        Err(e) => return (StatusCode::NOT_FOUND, e.to_string()).into_response(),
    };
    let filter = match filter
        .map(|f| positions::Filter::compile(f, schema))
        .transpose()
    {
        Ok(f) => f,
        Err(e) => {
            let body = serde_json::json!({
                "code": "BAD_QUERY",
                "message": e.to_string(),
                "line": e.line(),
                "column": e.column(),
            });
            return (StatusCode::BAD_REQUEST, axum::Json(body)).into_response();
        }
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<axum::body::Bytes, std::io::Error>>(16);
    let app = s.app.clone();
    tokio::task::spawn_blocking(move || {
        let mut w = ChannelWriter {
            tx,
            buf: Vec::with_capacity(CHUNK),
        };
        let gone = w.tx.clone();
        let cancelled = move || gone.is_closed();
        match positions::export_ndjson(&app.store, kind, filter.as_ref(), &mut w, &cancelled) {
            Ok(_) => {
                let _ = std::io::Write::flush(&mut w);
            }
            // Headers are gone by now: an evaluation error ends the stream with an error,
            // which the client sees as a broken transfer rather than a short, valid file.
            Err(e) => {
                let _ = std::io::Write::flush(&mut w);
                let _ =
                    w.tx.blocking_send(Err(std::io::Error::other(e.to_string())));
            }
        }
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .body(axum::body::Body::from_stream(
            tokio_stream::wrappers::ReceiverStream::new(rx),
        ))
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// `GET /exports/{kind}/{games|moves}.{csv|ndjson}`: analysts' tables of finished games,
/// streamed: a blocking task writes rows into a bounded channel that feeds the response body,
/// so memory stays flat and a client that goes away stops the export.
async fn export(
    State(s): State<Shared>,
    axum::extract::Path((kind, file)): axum::extract::Path<(String, String)>,
    axum::extract::Query(params): axum::extract::Query<std::collections::HashMap<String, String>>,
) -> Response {
    use analysis::exports::{self, Format};
    let Ok(kind) = kind.parse::<rules_core::GameKind>() else {
        return (StatusCode::NOT_FOUND, format!("unknown game kind `{kind}`")).into_response();
    };
    if file == "positions.ndjson" {
        return export_positions(s, kind, params.get("where").map(String::as_str));
    }
    let (table, format, mime) =
        match file.as_str() {
            "games.csv" => ("games", Format::Csv, "text/csv; charset=utf-8"),
            "games.ndjson" => ("games", Format::Ndjson, "application/x-ndjson"),
            "moves.csv" => ("moves", Format::Csv, "text/csv; charset=utf-8"),
            "moves.ndjson" => ("moves", Format::Ndjson, "application/x-ndjson"),
            _ => return (
                StatusCode::NOT_FOUND,
                "exports are games.csv, games.ndjson, moves.csv, moves.ndjson, positions.ndjson",
            )
                .into_response(),
        };
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<axum::body::Bytes, std::io::Error>>(16);
    let app = s.app.clone();
    tokio::task::spawn_blocking(move || {
        let mut w = ChannelWriter {
            tx,
            buf: Vec::with_capacity(CHUNK),
        };
        let r = match table {
            "games" => exports::games(&app.analysis, kind, format, &mut w),
            _ => exports::moves(&app.store, &app.analysis, kind, format, &mut w),
        };
        match r {
            Ok(_) => {
                let _ = std::io::Write::flush(&mut w);
            }
            Err(e) => {
                let _ =
                    w.tx.blocking_send(Err(std::io::Error::other(e.to_string())));
            }
        }
    });
    Response::builder()
        .header(header::CONTENT_TYPE, mime)
        .body(axum::body::Body::from_stream(
            tokio_stream::wrappers::ReceiverStream::new(rx),
        ))
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

const CHUNK: usize = 64 << 10;

/// `Write` into the response body's channel, in 64 KiB chunks.
struct ChannelWriter {
    tx: tokio::sync::mpsc::Sender<Result<axum::body::Bytes, std::io::Error>>,
    buf: Vec<u8>,
}

impl std::io::Write for ChannelWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= CHUNK {
            self.flush()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk =
            axum::body::Bytes::from(std::mem::replace(&mut self.buf, Vec::with_capacity(CHUNK)));
        self.tx
            .blocking_send(Ok(chunk))
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "client went away"))
    }
}

/// `GET /charts/{kind}/{chart}.svg`: win rate by seat, by tag, score by category.
async fn chart(
    State(s): State<Shared>,
    axum::extract::Path((kind, file)): axum::extract::Path<(String, String)>,
) -> Response {
    let Ok(k) = kind.parse::<rules_core::GameKind>() else {
        return (StatusCode::NOT_FOUND, format!("unknown game kind `{kind}`")).into_response();
    };
    let Some(name) = file.strip_suffix(".svg") else {
        return (StatusCode::NOT_FOUND, "charts end in .svg").into_response();
    };
    let (a, name) = (s.app.analysis.clone(), name.to_string());
    let svg = tokio::task::spawn_blocking(move || {
        let stats = a.statistics(k, &analysis::StatsFilter::default());
        analysis::charts::chart(&name, k.as_str(), &stats)
    })
    .await
    .ok()
    .flatten();
    match svg {
        Some(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            format!("charts: {}", analysis::charts::CHARTS.join(", ")),
        )
            .into_response(),
    }
}
