//! `/datasets/manifest.json` and `/datasets/kind=<kind>/month=<YYYY-MM>/<table>.parquet`: the
//! open datasets as files — `HEAD`, byte ranges, `If-None-Match`, `If-Range` — with a strong
//! ETag each (the file's SHA-256, as the manifest gives it), so DuckDB's httpfs and polars
//! read a file's footer and then only the column chunks a query needs. Only the paths the
//! manifest names are answered: nothing else under the folder is reachable.

use super::reply::HttpError;
use super::spool;
use super::Shared;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;

/// `GET`/`HEAD /datasets/{*path}`.
pub async fn file(
    State(s): State<Shared>,
    Path(path): Path<String>,
    headers: HeaderMap,
) -> Result<Response, HttpError> {
    let Some(publisher) = s.app.datasets.get() else {
        return Err(HttpError::NotFound(
            "this server does not publish datasets (`serve --dataset-interval 0`)".into(),
        ));
    };
    let now = publisher.current();
    if path == dataset::manifest::FILE {
        let Some(m) = now.manifest.clone() else {
            return Err(HttpError::Unavailable(
                "the datasets are being written for the first time; ask again shortly".into(),
            ));
        };
        return Ok(spool::respond(m, &headers, "application/json"));
    }
    match now.files.get(&path) {
        Some(f) => Ok(spool::respond(
            f.clone(),
            &headers,
            "application/vnd.apache.parquet",
        )),
        None => Err(HttpError::NotFound(format!(
            "no dataset file `{}`; /datasets/manifest.json lists them",
            path.chars().take(200).collect::<String>()
        ))),
    }
}
