//! Analysts' tables (`/exports/{kind}/{file}`) and charts (`/charts/{kind}/{chart}.svg`).
//!
//! An export holds finished games only, so its bytes are fixed until the next game finishes:
//! it is written whole into a file first (`spool`, on the blocking pool, memory flat however
//! many games) and answered from there with its length, to `HEAD` too, and in byte ranges —
//! what polars and DuckDB need to read it from its URL. A filter or an export that fails is
//! answered with a 400/500 JSON error, never a `200 OK` cut short; a client that goes away
//! stops the writing.

use super::reply::HttpError;
use super::spool::{self, Key, Make, SpoolWriter};
use super::Shared;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use rules_core::GameKind;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

fn kind(text: &str) -> Result<GameKind, HttpError> {
    text.parse::<GameKind>().map_err(|_| {
        HttpError::NotFound(format!(
            "unknown game kind `{text}`; the kinds are {}",
            GameKind::ALL.map(|k| k.as_str()).join(", ")
        ))
    })
}

/// `GET`/`HEAD /exports/{kind}/{games|moves|evaluations}.{csv|ndjson}` and `positions.ndjson?where=<CEL>`,
/// whole or in byte ranges.
pub async fn export(
    State(s): State<Shared>,
    Path((kind_text, file)): Path<(String, String)>,
    Query(params): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, HttpError> {
    use analysis::exports::{self, Format};
    use analysis::positions;
    let kind = kind(&kind_text)?;
    let app = s.app.clone();
    let generation = {
        let app = app.clone();
        // Reviews made change the evaluations export: they count in its generation.
        Arc::new(move || {
            (
                app.analysis.len() + app.reviews.as_ref().map_or(0, |r| r.done()),
                app.corrections.load(Ordering::SeqCst),
            )
        })
    };
    let (what, mime, make): (String, &'static str, Make) = if file == "positions.ndjson" {
        let schema = positions::schema(app.store.registry(), kind)
            .map_err(|e| HttpError::NotFound(e.to_string()))?;
        let source = params.get("where").cloned();
        let filter = source
            .as_deref()
            .map(|f| positions::Filter::compile(f, schema))
            .transpose()
            .map_err(HttpError::BadQuery)?;
        let app = app.clone();
        (
            format!("{}/positions.ndjson?{source:?}", kind.as_str()),
            "application/x-ndjson",
            Box::new(move |w: &mut SpoolWriter| {
                let gone = w.cancel_flag();
                let cancelled = move || gone.load(Ordering::Relaxed);
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
            }),
        )
    } else {
        let (table, format, mime) = match file.as_str() {
            "games.csv" => ("games", Format::Csv, "text/csv; charset=utf-8"),
            "games.ndjson" => ("games", Format::Ndjson, "application/x-ndjson"),
            "moves.csv" => ("moves", Format::Csv, "text/csv; charset=utf-8"),
            "moves.ndjson" => ("moves", Format::Ndjson, "application/x-ndjson"),
            "evaluations.csv" => ("evaluations", Format::Csv, "text/csv; charset=utf-8"),
            "evaluations.ndjson" => ("evaluations", Format::Ndjson, "application/x-ndjson"),
            _ => return Err(HttpError::NotFound(
                "the exports are games.csv, games.ndjson, moves.csv, moves.ndjson, evaluations.csv, evaluations.ndjson, positions.ndjson"
                    .into(),
            )),
        };
        let app = app.clone();
        (
            format!("{}/{file}", kind.as_str()),
            mime,
            Box::new(move |w: &mut SpoolWriter| {
                let r = match table {
                    "games" => exports::games(&app.analysis, kind, format, w),
                    "moves" => exports::moves(&*app.store, &app.analysis, kind, format, w),
                    _ => {
                        let format = match format {
                            Format::Csv => review::export::Format::Csv,
                            Format::Ndjson => review::export::Format::Ndjson,
                        };
                        return review::export::evaluations(&*app.store, kind, format, w)
                            .map(|_| ())
                            .map_err(|e| HttpError::Internal(e.to_string()));
                    }
                };
                r.map(|_| ())
                    .map_err(|e| HttpError::Internal(e.to_string()))
            }),
        )
    };
    let key = Key {
        what,
        generation: generation(),
    };
    let store = app.store.clone();
    let short_of_space = Box::new(move || store.free_space().1);
    let file = s.spools.get(key, make, short_of_space, generation).await?;
    Ok(spool::respond(file, &headers, mime))
}

/// `GET /charts/{kind}/{chart}.svg?players=&tag=&since=&until=&group=`: win rate by seat, by
/// tag (one tag group, or every group in its own panel), score by category, accuracy (by
/// player, and win rate by accuracy band, from the reviews) — over the games
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
                .chain(&["accuracy"])
                .map(|c| format!("{c}.svg"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    };
    let name = file.strip_suffix(".svg").ok_or_else(unknown)?.to_string();
    if name != "accuracy" && !analysis::charts::CHARTS.contains(&name.as_str()) {
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
    if name == "accuracy" {
        let app = s.app.clone();
        let svg = tokio::task::spawn_blocking(move || {
            let (seats, reviewed) = crate::accuracy::seats(&app, k, &filter)
                .map_err(|e| HttpError::Internal(e.message()))?;
            let rows = crate::accuracy::chart_rows(&seats);
            analysis::charts::accuracy_chart(k.as_str(), &filter, &rows, 10, reviewed)
                .map_err(|e| HttpError::Internal(e.to_string()))
        })
        .await
        .map_err(|e| HttpError::Internal(e.to_string()))??;
        return Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response());
    }
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
