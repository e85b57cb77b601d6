//! Operators' endpoints: `POST /admin/backup {"to": "/abs/dir"}` makes an online backup of the
//! running store (see `store::Store::backup_to`) into a new folder on the server's machine.
//!
//! Allowed with the admin token, or with the server's control token: a per-run secret that
//! `ludolog serve` writes, readable by its own user only, beside the store (`serve.json`), so
//! that `ludolog backup` on the same machine needs no token configured.

use super::reply::HttpError;
use super::Shared;
use crate::auth::Caller;
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::Json;
use serde::Deserialize;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BackupRequest {
    to: PathBuf,
}

fn operator(s: &Shared, headers: &HeaderMap) -> Result<(), HttpError> {
    let value = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    let caller = Caller::parse(value).map_err(HttpError::Unauthorized)?;
    let cfg = &s.app.config;
    if caller.is_admin(cfg.admin_token.as_deref()) || caller.is_admin(cfg.control_token.as_deref())
    {
        Ok(())
    } else {
        Err(HttpError::Unauthorized(
            "operators only: send the admin token or the server's control token".into(),
        ))
    }
}

pub async fn backup(
    State(s): State<Shared>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<serde_json::Value>, HttpError> {
    operator(&s, &headers)?;
    let req: BackupRequest = serde_json::from_slice(&body).map_err(|e| {
        HttpError::BadRequest(
            "BAD_INPUT",
            format!("expected {{\"to\": \"/a/new/folder\"}}: {e}"),
        )
    })?;
    if !req.to.is_absolute() {
        return Err(HttpError::BadRequest(
            "BAD_INPUT",
            "`to` must be an absolute path on the server's machine".into(),
        ));
    }
    let store = s.app.store.clone();
    let to = req.to.clone();
    let start = Instant::now();
    let report = tokio::task::spawn_blocking(move || store.backup_to(&to))
        .await
        .map_err(|e| HttpError::Internal(e.to_string()))?
        .map_err(|e| match e {
            store::StoreError::BadInput(m) => HttpError::BadRequest("BAD_INPUT", m),
            other => HttpError::Internal(other.to_string()),
        })?;
    tracing::info!(to = %req.to.display(), games = report.games, "backup written");
    Ok(Json(serde_json::json!({
        "to": req.to,
        "games": report.games,
        "entries": report.entries,
        "seconds": start.elapsed().as_secs_f64(),
    })))
}
