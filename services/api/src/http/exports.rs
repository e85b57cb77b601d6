//! Streamed analysts' tables (`/exports/{kind}/{file}`) and charts (`/charts/{kind}/{chart}.svg`).
//!
//! A blocking task writes rows into a bounded channel that feeds the response body, so memory
//! stays flat and a client that goes away stops the export. The response is not started until
//! the task has produced its first chunk (or finished, or failed): a filter or an export that
//! fails early is answered with a 400/500 JSON error instead of a `200 OK` cut short. A failure
//! after bytes have gone out can only break the transfer, which a client sees as an incomplete
//! body rather than a short, valid file.

use super::reply::HttpError;
use super::Shared;
use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use rules_core::GameKind;
use std::collections::HashMap;
use tokio::sync::mpsc;

const CHUNK: usize = 64 << 10;

type Chunk = Result<Bytes, HttpError>;

fn kind(text: &str) -> Result<GameKind, HttpError> {
    text.parse::<GameKind>().map_err(|_| {
        HttpError::NotFound(format!(
            "unknown game kind `{text}`; the kinds are {}",
            GameKind::ALL.map(|k| k.as_str()).join(", ")
        ))
    })
}

/// `GET /exports/{kind}/{games|moves}.{csv|ndjson}` and `positions.ndjson?where=<CEL>`.
pub async fn export(
    State(s): State<Shared>,
    Path((kind_text, file)): Path<(String, String)>,
    Query(params): Query<HashMap<String, String>>,
) -> Result<Response, HttpError> {
    use analysis::exports::{self, Format};
    use analysis::positions;
    let kind = kind(&kind_text)?;
    let app = s.app.clone();
    if file == "positions.ndjson" {
        let schema = positions::schema(app.store.registry(), kind)
            .map_err(|e| HttpError::NotFound(e.to_string()))?;
        let filter = params
            .get("where")
            .map(|f| positions::Filter::compile(f, schema))
            .transpose()
            .map_err(HttpError::BadQuery)?;
        return stream("application/x-ndjson", move |w: &mut ChannelWriter| {
            let gone = w.tx.clone();
            let cancelled = move || gone.is_closed();
            // One worker: an export is one client's request and must not take every core
            // from the others (the CLI scans in parallel).
            positions::export_ndjson(
                app.analysis.positions(),
                kind,
                filter.as_ref(),
                1,
                w,
                &cancelled,
            )
            .map(|_| ())
            .map_err(|e| match e {
                positions::PositionsError::Filter(f) => HttpError::BadQuery(f),
                other => HttpError::Internal(other.to_string()),
            })
        })
        .await;
    }
    let (table, format, mime) = match file.as_str() {
        "games.csv" => ("games", Format::Csv, "text/csv; charset=utf-8"),
        "games.ndjson" => ("games", Format::Ndjson, "application/x-ndjson"),
        "moves.csv" => ("moves", Format::Csv, "text/csv; charset=utf-8"),
        "moves.ndjson" => ("moves", Format::Ndjson, "application/x-ndjson"),
        _ => return Err(HttpError::NotFound(
            "the exports are games.csv, games.ndjson, moves.csv, moves.ndjson, positions.ndjson"
                .into(),
        )),
    };
    stream(mime, move |w: &mut ChannelWriter| {
        let r = match table {
            "games" => exports::games(&app.analysis, kind, format, w),
            _ => exports::moves(&*app.store, &app.analysis, kind, format, w),
        };
        r.map(|_| ())
            .map_err(|e| HttpError::Internal(e.to_string()))
    })
    .await
}

/// Runs `write` on the blocking pool and answers with what it writes, once its first chunk (or
/// its end, or its error) is known.
async fn stream(
    mime: &'static str,
    write: impl FnOnce(&mut ChannelWriter) -> Result<(), HttpError> + Send + 'static,
) -> Result<Response, HttpError> {
    let (tx, mut rx) = mpsc::channel::<Chunk>(16);
    tokio::task::spawn_blocking(move || {
        let mut w = ChannelWriter {
            tx,
            buf: Vec::with_capacity(CHUNK),
            sent: 0,
        };
        let r = write(&mut w);
        match r {
            Ok(()) => {
                let _ = std::io::Write::flush(&mut w);
            }
            Err(e) => {
                // Rows already written go out first: an early error must reach the client as
                // the answer when nothing was sent, so the order of the channel is kept.
                if w.sent == 0 {
                    w.buf.clear();
                } else {
                    let _ = std::io::Write::flush(&mut w);
                }
                let _ = w.tx.blocking_send(Err(e));
            }
        }
    });
    let first = rx.recv().await;
    let first = match first {
        Some(Err(e)) => return Err(e),
        Some(Ok(b)) => Some(b),
        None => None,
    };
    let rest = tokio_stream::wrappers::ReceiverStream::new(rx);
    let body = futures_util::StreamExt::map(
        futures_util::StreamExt::chain(
            futures_util::stream::iter(first.map(Ok::<Bytes, HttpError>)),
            rest,
        ),
        |c| c.map_err(|e| std::io::Error::other(format!("{e:?}"))),
    );
    Ok(([(header::CONTENT_TYPE, mime)], Body::from_stream(body)).into_response())
}

/// `Write` into the response body's channel, in 64 KiB chunks.
pub struct ChannelWriter {
    tx: mpsc::Sender<Chunk>,
    buf: Vec<u8>,
    /// Chunks sent so far.
    sent: usize,
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
        let chunk = Bytes::from(std::mem::replace(&mut self.buf, Vec::with_capacity(CHUNK)));
        self.sent += 1;
        self.tx
            .blocking_send(Ok(chunk))
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "client went away"))
    }
}

/// `GET /charts/{kind}/{chart}.svg?players=&tag=&since=&until=&group=`: win rate by seat, by
/// tag (one tag group, or every group in its own panel), score by category — over the games
/// the same filters as `statistics` select, with n and the filter written in the picture.
pub async fn chart(
    State(s): State<Shared>,
    Path((kind_text, file)): Path<(String, String)>,
    Query(params): Query<HashMap<String, String>>,
) -> Result<Response, HttpError> {
    let k = kind(&kind_text)?;
    let unknown = || {
        HttpError::NotFound(format!(
            "the charts are {}",
            analysis::charts::CHARTS
                .iter()
                .map(|c| format!("{c}.svg"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    };
    let name = file.strip_suffix(".svg").ok_or_else(unknown)?.to_string();
    if !analysis::charts::CHARTS.contains(&name.as_str()) {
        return Err(unknown());
    }
    for key in params.keys() {
        if !["players", "player", "tag", "since", "until", "group"].contains(&key.as_str()) {
            return Err(HttpError::BadRequest(
                "BAD_INPUT",
                format!("unknown parameter `{key}`: charts take players, player, tag, since, until and group"),
            ));
        }
    }
    let time = |key: &str| -> Result<Option<chrono::DateTime<chrono::Utc>>, HttpError> {
        params
            .get(key)
            .map(|t| {
                chrono::DateTime::parse_from_rfc3339(t)
                    .map(|d| d.with_timezone(&chrono::Utc))
                    .map_err(|e| {
                        HttpError::BadRequest(
                            "BAD_INPUT",
                            format!("`{key}={t}` is not an RFC 3339 time: {e}"),
                        )
                    })
            })
            .transpose()
    };
    let filter = analysis::StatsFilter {
        player_count: params
            .get("players")
            .map(|p| {
                p.parse::<usize>().map_err(|_| {
                    HttpError::BadRequest(
                        "BAD_INPUT",
                        format!("`players={p}` is not a player count"),
                    )
                })
            })
            .transpose()?,
        player: params.get("player").cloned(),
        tag: params.get("tag").cloned(),
        since: time("since")?,
        until: time("until")?,
    };
    let group = params.get("group").cloned();
    let a = s.app.analysis.clone();
    let svg = tokio::task::spawn_blocking(move || {
        let stats = a.statistics(k, &filter);
        analysis::charts::chart(&name, k.as_str(), &stats, &filter, group.as_deref())
    })
    .await
    .map_err(|e| HttpError::Internal(e.to_string()))?
    .map_err(|e| match e {
        analysis::charts::ChartError::Unknown(_) => unknown(),
        other => HttpError::Internal(other.to_string()),
    })?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}
