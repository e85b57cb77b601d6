//! GraphQL over HTTP and WebSocket: `POST /graphql` (single or batched), `GET /graphql?query=`
//! (queries only; a browser asking for HTML gets GraphiQL). `/graphql/ws` is `socket`'s.
//!
//! Every transport runs the same `Guarded` executor, so the request limits and the panic net
//! hold alike. HTTP answers are serialised here once, measured against the response limit, and
//! sent as bytes.

use super::cache;
use super::media;
use super::reply::{body_error, json_bytes, HttpError};
use super::Shared;
use crate::auth::Caller;
use crate::guard::{operation_type, too_large};
use async_graphql::parser::types::OperationType;
use async_graphql::{BatchRequest, BatchResponse, Executor, ParseRequestError};
use async_graphql_axum::GraphQLBatchRequest;
use axum::extract::{FromRequest, Request, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Instant;

/// Who calls, from the `Authorization` header; a malformed header is refused, not ignored.
fn caller(headers: &HeaderMap) -> Result<Caller, HttpError> {
    let value =
        match headers.get(header::AUTHORIZATION) {
            None => None,
            Some(v) => Some(v.to_str().map_err(|_| {
                HttpError::Unauthorized("the Authorization header is not text".into())
            })?),
        };
    Caller::parse(value).map_err(HttpError::Unauthorized)
}

/// `POST /graphql`: one request or a batch (a JSON array), as `application/json` (GraphQL over
/// HTTP); another content type is refused with 415 rather than guessed at.
pub async fn post(State(s): State<Shared>, req: Request) -> Response {
    let headers = req.headers().clone();
    let client = client_ip(&req);
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::trim)
        .is_none_or(|m| {
            m.eq_ignore_ascii_case("application/json")
                || m.eq_ignore_ascii_case("application/graphql-response+json")
        });
    if !json {
        return HttpError::MediaType(
            "POST /graphql takes application/json: {\"query\": …, \"variables\": …}".into(),
        )
        .into_response();
    }
    // Read here rather than by async-graphql's extractor, which keeps only the text of a
    // reading error: the body limit's must be told from the rest (`reply::body_error`).
    let bytes = match axum::body::to_bytes(req.into_body(), usize::MAX).await {
        Ok(b) => b,
        Err(e) => return body_error(e).into_response(),
    };
    let batch = match serde_json::from_slice::<BatchRequest>(&bytes) {
        Ok(b) => b,
        Err(e) => {
            return HttpError::from(ParseRequestError::InvalidRequest(Box::new(e))).into_response()
        }
    };
    let missing = |r: &async_graphql::Request| {
        r.query.is_empty() && !r.extensions.contains_key("persistedQuery")
    };
    let no_query = match &batch {
        BatchRequest::Single(r) => missing(r),
        BatchRequest::Batch(rs) => rs.iter().any(missing),
    };
    if no_query {
        return HttpError::BadRequest(
            "BAD_REQUEST",
            "a request needs a `query` (or an `extensions.persistedQuery` hash)".into(),
        )
        .into_response();
    }
    let caller = match caller(&headers) {
        Ok(c) => c,
        Err(e) => return e.into_response(),
    };
    let batch = batch.data(caller).data(client);
    run(&s, batch, Http::of(&headers, false)).await
}

/// The address the request came from (what per-client bounds count by).
fn client_ip(req: &Request) -> crate::evaluation_slots::ClientIp {
    use std::net::{IpAddr, Ipv4Addr, SocketAddr};
    crate::evaluation_slots::ClientIp(
        req.extensions()
            .get::<axum::extract::ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip()),
    )
}

/// `GET /graphql`: with `?query=`, a query (never a mutation: GET must be safe to repeat);
/// without one, GraphiQL for a browser and a coded error for anything else.
pub async fn get(State(s): State<Shared>, req: Request) -> Response {
    let headers = req.headers().clone();
    let client = client_ip(&req);
    let has_query = req.uri().query().is_some_and(|q| {
        q.split('&')
            .any(|kv| kv.starts_with("query=") || kv.starts_with("extensions="))
    });
    if !has_query {
        let wants_html = headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|a| a.contains("text/html"));
        if wants_html {
            return super::assets::graphiql().into_response();
        }
        return HttpError::BadRequest(
            "BAD_REQUEST",
            "GET /graphql needs a `query` parameter (or open it in a browser for GraphiQL)".into(),
        )
        .into_response();
    }
    // The extractor reads a GET request's query string (there is no body).
    let batch = match GraphQLBatchRequest::<HttpError>::from_request(req, &()).await {
        Ok(b) => b.into_inner(),
        Err(e) => return e.into_response(),
    };
    let BatchRequest::Single(one) = batch else {
        return HttpError::BadRequest("BAD_REQUEST", "GET carries one request".into())
            .into_response();
    };
    let caller = match caller(&headers) {
        Ok(c) => c,
        Err(e) => return e.into_response(),
    };
    run(
        &s,
        BatchRequest::Single(one.data(caller).data(client)),
        Http::of(&headers, true),
    )
    .await
}

/// A GET request's refusal, if it has one. What runs is what is judged: a persisted query is
/// resolved to its text and the document parsed and checked first, and a request whose
/// operation cannot be told is refused (fail closed), so no mutation runs by GET under a hash
/// or an ambiguous name. (An answer the cache kept was a query's: it is served before this.)
fn refuse_by_get(s: &Shared, req: &mut async_graphql::Request, http: &Http) -> Option<Response> {
    if let Err(refused) = s.guarded.check(req) {
        return Some(answer(s, &refused, http));
    }
    match operation_type(req) {
        Some(OperationType::Query) => None,
        Some(_) => Some(
            HttpError::Method(
                "GET runs queries only; send mutations and subscriptions with POST".into(),
            )
            .into_response(),
        ),
        None => Some(
            HttpError::BadRequest(
                "BAD_REQUEST",
                "the request does not say which of its operations to run (operationName)".into(),
            )
            .into_response(),
        ),
    }
}

/// What of the HTTP request the answer depends on besides the GraphQL request.
struct Http {
    get: bool,
    /// The client asked for `application/graphql-response+json` (`media`).
    graphql_response: bool,
    authorization: Option<String>,
    if_none_match: Option<HeaderValue>,
}

impl Http {
    fn of(headers: &HeaderMap, get: bool) -> Http {
        Http {
            get,
            graphql_response: media::wants_graphql_response(headers),
            authorization: headers
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string),
            if_none_match: headers.get(header::IF_NONE_MATCH).cloned(),
        }
    }
}

/// Executes and answers with the serialised response, or a `LIMIT_EXCEEDED` error in its place
/// when it is over the response limit. A single request about finished games goes through the
/// answer cache (`cache`).
async fn run(s: &Shared, batch: BatchRequest, http: Http) -> Response {
    let start = Instant::now();
    let batch = match batch {
        BatchRequest::Single(req) if s.responses.enabled() => {
            return run_cached(s, req, http, start).await
        }
        BatchRequest::Single(mut req) if http.get => match refuse_by_get(s, &mut req, &http) {
            Some(refused) => return refused,
            None => BatchRequest::Single(req),
        },
        other => other,
    };
    let resp = s.guarded.execute_batch(batch).await;
    let failed = match &resp {
        BatchResponse::Single(r) => r.is_err(),
        BatchResponse::Batch(rs) => rs.iter().any(|r| r.is_err()),
    };
    s.app.metrics.observe(start.elapsed().as_secs_f64(), failed);
    match resp {
        BatchResponse::Single(one) => answer(s, &one, &http),
        batch => match serialise(s, &batch) {
            Ok(bytes) => json_bytes(bytes, content_type(&http)),
            Err(e) => e.into_response(),
        },
    }
}

fn content_type(http: &Http) -> &'static str {
    if http.graphql_response {
        media::GRAPHQL_RESPONSE
    } else {
        media::JSON
    }
}

/// One answer in the media type the client asked for: under
/// `application/graphql-response+json` a request error is `400` without `data`.
fn answer(s: &Shared, resp: &async_graphql::Response, http: &Http) -> Response {
    let request_error = http.graphql_response && media::is_request_error(resp);
    let bytes = if request_error {
        let mut body = serde_json::json!({ "errors": resp.errors });
        if !resp.extensions.is_empty() {
            body["extensions"] = serde_json::json!(resp.extensions);
        }
        serialise(s, &body)
    } else {
        serialise(s, resp)
    };
    match bytes {
        Ok(bytes) => {
            let mut r = json_bytes(bytes, content_type(http));
            if request_error {
                *r.status_mut() = axum::http::StatusCode::BAD_REQUEST;
            }
            r
        }
        Err(e) => e.into_response(),
    }
}

/// The response as bytes, or the `LIMIT_EXCEEDED` error in its place.
fn serialise(s: &Shared, resp: &impl serde::Serialize) -> Result<Vec<u8>, HttpError> {
    let max = s.guarded.limits.max_response_bytes;
    match serde_json::to_vec(resp) {
        Ok(b) if b.len() <= max => Ok(b),
        Ok(b) => Ok(serde_json::to_vec(&too_large(b.len(), max)).unwrap_or_default()),
        Err(e) => Err(HttpError::Internal(e.to_string())),
    }
}

/// One request, answered from the cache when it holds the answer, and its answer kept when it
/// read finished games alone.
async fn run_cached(
    s: &Shared,
    mut req: async_graphql::Request,
    http: Http,
    start: Instant,
) -> Response {
    // The key is read before anything else, so that a kept answer costs no parsing: it names
    // the text (or the persisted query's hash) exactly as sent, and the answer was made from
    // that text once, under the same limits.
    let key = cache::key(
        &req,
        http.authorization.as_deref(),
        s.app.corrections.load(Relaxed),
    );
    if let Some(hit) = s.responses.get(&key) {
        // A text sent with its hash registers the hash, as it would have uncached: Apollo's
        // link sends the hash alone next time.
        if !req.query.is_empty() {
            if let Err(refused) = s.guarded.resolve_persisted(&mut req) {
                s.app.metrics.observe(start.elapsed().as_secs_f64(), true);
                return answer(s, &refused, &http);
            }
        }
        s.app.metrics.observe(start.elapsed().as_secs_f64(), false);
        s.app.metrics.cache_hits.fetch_add(1, Relaxed);
        return kept_reply(&hit, &http);
    }
    // The guard resolves a persisted query to its text and parses it; the shape is read from
    // the text the request really runs.
    if http.get {
        if let Some(refused) = refuse_by_get(s, &mut req, &http) {
            s.app.metrics.observe(start.elapsed().as_secs_f64(), true);
            return refused;
        }
    } else if let Err(refused) = s.guarded.check(&mut req) {
        s.app.metrics.observe(start.elapsed().as_secs_f64(), true);
        return answer(s, &refused, &http);
    }
    let key = cache::cacheable_shape(&mut req).then_some(key);
    let reads = Arc::new(cache::ReadSet::default());
    let resp = s.guarded.execute(req.data(reads.clone())).await;
    let failed = resp.is_err();
    s.app.metrics.observe(start.elapsed().as_secs_f64(), failed);
    match key {
        Some(key) if !failed && reads.cacheable() => {
            let bytes = match serialise(s, &resp) {
                Ok(b) => b,
                Err(e) => return e.into_response(),
            };
            let kept = s.responses.insert(key, bytes, reads.immutable());
            s.app.metrics.cache_inserts.fetch_add(1, Relaxed);
            kept_reply(&kept, &http)
        }
        _ => answer(s, &resp, &http),
    }
}

/// A kept answer, in the media type asked for (the bytes are the same under both).
fn kept_reply(kept: &cache::Cached, http: &Http) -> Response {
    let mut r = cache::reply(kept, http.get, http.if_none_match.as_ref());
    if http.graphql_response {
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(media::GRAPHQL_RESPONSE),
        );
    }
    r.headers_mut()
        .append(header::VARY, HeaderValue::from_static("Accept"));
    r
}
