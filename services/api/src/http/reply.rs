//! The one place HTTP-level errors become answers: every one is JSON in GraphQL's error shape,
//! `{"errors": [{"message": …, "extensions": {"code": …}}]}`, whatever produced it — a handler
//! (`HttpError`), a request GraphQL could not read, or a layer below the handlers (body limit,
//! timeout, unknown route, wrong method, a caught panic), whose plain answers `json_errors`
//! rewrites.

use async_graphql::ParseRequestError;
use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

/// An error answered outside GraphQL's execution.
#[derive(Debug, Clone)]
pub enum HttpError {
    /// 404 `NOT_FOUND`.
    NotFound(String),
    /// 400 with a code of its own (`BAD_REQUEST`, `BAD_INPUT`).
    BadRequest(&'static str, String),
    /// 400 `BAD_QUERY`, with the position the filter error points at.
    BadQuery(analysis::positions::FilterError),
    /// 413 `LIMIT_EXCEEDED`.
    TooLarge(String),
    /// 503 `LIMIT_EXCEEDED`: the server holds all the connections or sockets it may.
    Full(String),
    /// 403 `FORBIDDEN`.
    Forbidden(String),
    /// 405 `METHOD_NOT_ALLOWED`.
    Method(String),
    /// 415 `UNSUPPORTED_MEDIA_TYPE`.
    MediaType(String),
    /// 429 `RATE_LIMITED`, with the seconds to wait.
    RateLimited(u64),
    /// 401 `UNAUTHORIZED`.
    Unauthorized(String),
    /// 500 `INTERNAL`.
    Internal(String),
    /// 503 `UNAVAILABLE`.
    Unavailable(String),
    /// 416 `RANGE_NOT_SATISFIABLE`: a byte range past the end of a file of this many bytes
    /// (answered with `Content-Range: bytes */<length>`).
    RangeNotSatisfiable(u64),
}

impl HttpError {
    fn parts(&self) -> (StatusCode, &'static str, String) {
        use HttpError::*;
        match self {
            NotFound(m) => (StatusCode::NOT_FOUND, "NOT_FOUND", m.clone()),
            BadRequest(code, m) => (StatusCode::BAD_REQUEST, code, m.clone()),
            BadQuery(f) => (StatusCode::BAD_REQUEST, "BAD_QUERY", f.to_string()),
            TooLarge(m) => (StatusCode::PAYLOAD_TOO_LARGE, "LIMIT_EXCEEDED", m.clone()),
            Full(m) => (StatusCode::SERVICE_UNAVAILABLE, "LIMIT_EXCEEDED", m.clone()),
            Forbidden(m) => (StatusCode::FORBIDDEN, "FORBIDDEN", m.clone()),
            Method(m) => (
                StatusCode::METHOD_NOT_ALLOWED,
                "METHOD_NOT_ALLOWED",
                m.clone(),
            ),
            MediaType(m) => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "UNSUPPORTED_MEDIA_TYPE",
                m.clone(),
            ),
            RateLimited(s) => (
                StatusCode::TOO_MANY_REQUESTS,
                "RATE_LIMITED",
                format!("too many requests from this client; retry in {s} s"),
            ),
            Unauthorized(m) => (StatusCode::UNAUTHORIZED, "UNAUTHORIZED", m.clone()),
            Internal(m) => (StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL", m.clone()),
            Unavailable(m) => (StatusCode::SERVICE_UNAVAILABLE, "UNAVAILABLE", m.clone()),
            RangeNotSatisfiable(len) => (
                StatusCode::RANGE_NOT_SATISFIABLE,
                "RANGE_NOT_SATISFIABLE",
                format!("the range asked for starts past the end of this file's {len} bytes"),
            ),
        }
    }
}

/// The JSON body of an error answer.
pub fn error_body(code: &str, message: &str, extra: Map<String, Value>) -> Value {
    let mut ext = Map::new();
    ext.insert("code".into(), code.into());
    ext.extend(extra);
    json!({ "errors": [{ "message": message, "extensions": ext }] })
}

fn json_response(status: StatusCode, body: &Value) -> Response {
    let mut r = (status, body.to_string()).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let (status, code, message) = self.parts();
        let mut extra = Map::new();
        match &self {
            HttpError::BadQuery(f) => {
                if let Some(l) = f.line() {
                    extra.insert("line".into(), l.into());
                }
                if let Some(c) = f.column() {
                    extra.insert("column".into(), c.into());
                }
            }
            HttpError::RateLimited(s) => {
                extra.insert("retryAfter".into(), (*s).into());
            }
            _ => {}
        }
        let mut r = json_response(status, &error_body(code, &message, extra));
        if let HttpError::RateLimited(s) = self {
            if let Ok(v) = HeaderValue::from_str(&s.to_string()) {
                r.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        if let HttpError::RangeNotSatisfiable(len) = self {
            if let Ok(v) = HeaderValue::from_str(&format!("bytes */{len}")) {
                r.headers_mut().insert(header::CONTENT_RANGE, v);
            }
        }
        r
    }
}

/// A GraphQL request that could not be read: its body, content type or batch.
impl From<ParseRequestError> for HttpError {
    fn from(e: ParseRequestError) -> Self {
        match e {
            ParseRequestError::PayloadTooLarge => {
                HttpError::TooLarge("the request body is over the size limit".into())
            }
            ParseRequestError::UnsupportedBatch => HttpError::BadRequest(
                "BAD_REQUEST",
                "batched requests are not accepted here".into(),
            ),
            ParseRequestError::InvalidRequest(e) => HttpError::BadRequest(
                "BAD_REQUEST",
                format!("the body is not a GraphQL request: {e}"),
            ),
            ParseRequestError::Io(e) => {
                HttpError::BadRequest("BAD_REQUEST", format!("the body could not be read: {e}"))
            }
            other => HttpError::BadRequest("BAD_REQUEST", other.to_string()),
        }
    }
}

/// An error reading a request body: the body limit's (however deep the readers in between
/// wrapped it) is 413, as a `Content-Length` over the limit is; anything else 400. A chunked
/// body has no length to refuse it by up front, so the limit stops it while it is read.
pub fn body_error(e: axum::Error) -> HttpError {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(&e);
    while let Some(c) = cause {
        if c.is::<http_body_util::LengthLimitError>() {
            return HttpError::TooLarge("the request body is over the size limit".into());
        }
        cause = c.source();
    }
    HttpError::BadRequest("BAD_REQUEST", format!("the body could not be read: {e}"))
}

/// Rewrites plain error answers from layers below the handlers as JSON with a code. Answers
/// that are already JSON pass unchanged, GraphQL's own media type included (a request error
/// answered as `application/graphql-response+json` is a 400 that keeps its message and code).
pub async fn json_errors(resp: Response) -> Response {
    let status = resp.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return resp;
    }
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.starts_with("application/json") || v.starts_with("application/graphql-response+json")
        });
    if is_json {
        return resp;
    }
    let (code, message) = match status {
        StatusCode::NOT_FOUND => ("NOT_FOUND", "no such page"),
        StatusCode::METHOD_NOT_ALLOWED => ("METHOD_NOT_ALLOWED", "this method is not allowed here"),
        StatusCode::PAYLOAD_TOO_LARGE => {
            ("LIMIT_EXCEEDED", "the request body is over the size limit")
        }
        StatusCode::REQUEST_TIMEOUT => ("TIMEOUT", "the request took longer than the time limit"),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            ("UNSUPPORTED_MEDIA_TYPE", "unsupported content type")
        }
        StatusCode::TOO_MANY_REQUESTS => ("RATE_LIMITED", "too many requests"),
        s if s.is_server_error() => ("INTERNAL", "internal error (it is logged)"),
        _ => ("BAD_REQUEST", "bad request"),
    };
    let mut out = json_response(status, &error_body(code, message, Map::new()));
    // Keep what the layer said beyond its body (Allow, Retry-After, CORS headers).
    for (k, v) in resp.headers() {
        if k != header::CONTENT_TYPE && k != header::CONTENT_LENGTH {
            out.headers_mut().append(k.clone(), v.clone());
        }
    }
    out
}

/// A 200 JSON answer from bytes already serialised.
pub fn json_bytes(bytes: Vec<u8>, content_type: &'static str) -> Response {
    let mut r = Response::new(Body::from(bytes));
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}
