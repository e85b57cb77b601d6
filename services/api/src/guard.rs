//! `Guarded`: the schema as every transport runs it — HTTP (single, batched, GET) and both
//! WebSocket protocols alike — with the checks that must come before any work and a net under
//! the work itself.
//!
//! Before: an automatic persisted query is resolved to its text (Apollo's protocol: a request
//! may send only the query's SHA-256 once the server has seen it), then the query's bracket
//! nesting and its variables' nesting (so no recursive parser ever sees a value deep enough to
//! overflow the stack), then aliases on the parsed document. During:
//! a panic in any resolver is caught and becomes a coded `INTERNAL` error and a log line, never a
//! dropped connection. After: a field error nulls its nearest nullable parent as the spec says
//! (`nulls`), errors async-graphql raised itself get their code (`label`), and a response
//! larger than the limit is replaced by a `LIMIT_EXCEEDED` error.

use crate::limits::{alias_count, text_nesting, value_nesting, Limits};
use crate::schema::LudologSchema;
use crate::shape::{shape, Malformed};
use async_graphql::parser::types::OperationType;
use async_graphql::{BatchRequest, BatchResponse, Data, Executor, Request, Response, ServerError};
use futures_util::future::BoxFuture;
use futures_util::stream::{self, BoxStream, StreamExt};
use futures_util::FutureExt;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

/// The schema (any executor, for tests) behind the request checks and the panic net.
#[derive(Clone)]
pub struct Guarded<E = LudologSchema> {
    pub inner: E,
    pub limits: Arc<Limits>,
    /// Automatic persisted queries: SHA-256 → query text, bounded by total text size.
    pub persisted: Arc<Persisted>,
    /// The schema's types, for null propagation (absent: answers are left as executed).
    pub nulls: Option<Arc<crate::nulls::Nulls>>,
}

/// The persisted-query store: a bounded cache weighed by query length (a query is refused
/// nothing if it is evicted: the client sends it again, as the protocol expects).
pub type Persisted = quick_cache::sync::Cache<[u8; 32], Arc<str>, QueryWeight>;

#[derive(Clone, Default)]
pub struct QueryWeight;

impl quick_cache::Weighter<[u8; 32], Arc<str>> for QueryWeight {
    fn weight(&self, _: &[u8; 32], q: &Arc<str>) -> u64 {
        q.len() as u64 + 64
    }
}

/// A persisted-query store holding up to `bytes` of query text.
pub fn persisted(bytes: u64) -> Arc<Persisted> {
    Arc::new(Persisted::with_weighter(
        (bytes / 512).max(16) as usize,
        bytes,
        QueryWeight,
    ))
}

impl<E> Guarded<E> {
    /// `inner` behind the limits, with a fresh persisted-query store.
    pub fn new(inner: E, limits: Arc<Limits>) -> Guarded<E> {
        Guarded {
            inner,
            limits,
            persisted: persisted(8 << 20),
            nulls: None,
        }
    }

    /// Resolves Apollo's `persistedQuery` extension: a hash alone is looked up (or answered
    /// `PERSISTED_QUERY_NOT_FOUND`, and the client sends the text); a hash with its text is
    /// checked and remembered. (The answer cache calls it too when it answers a request that
    /// carries both, so that the hash is remembered however the answer was made.)
    pub(crate) fn resolve_persisted(&self, req: &mut Request) -> Result<(), Box<Response>> {
        use sha2::Digest;
        let Some(pq) = req.extensions.remove("persistedQuery") else {
            return Ok(());
        };
        let pq = pq.into_json().unwrap_or_default();
        let version = pq.get("version").and_then(|v| v.as_u64());
        let hash = pq
            .get("sha256Hash")
            .and_then(|v| v.as_str())
            .and_then(|h| hex::decode(h).ok())
            .and_then(|h| <[u8; 32]>::try_from(h).ok());
        let (Some(1), Some(hash)) = (version, hash) else {
            return Err(refusal(
                "BAD_REQUEST",
                "persistedQuery needs version 1 and a sha256Hash of 64 hexadecimal digits",
            ));
        };
        if req.query.is_empty() {
            return match self.persisted.get(&hash) {
                Some(q) => {
                    req.query = q.to_string();
                    Ok(())
                }
                None => Err(refusal(
                    "PERSISTED_QUERY_NOT_FOUND",
                    "PersistedQueryNotFound",
                )),
            };
        }
        if sha2::Sha256::digest(req.query.as_bytes()).as_slice() != hash {
            return Err(refusal(
                "BAD_REQUEST",
                "persistedQuery: the sha256Hash is not the hash of the query",
            ));
        }
        if req.query.len() <= self.limits.max_body {
            self.persisted.insert(hash, Arc::from(req.query.as_str()));
        }
        Ok(())
    }
}

/// A response holding one error with a code.
/// A refusal before any work, boxed: it travels in a `Result` beside `()`.
fn refusal(code: &str, message: impl Into<String>) -> Box<Response> {
    Box::new(error_response(code, message))
}

pub fn error_response(code: &str, message: impl Into<String>) -> Response {
    let mut e = ServerError::new(message, None);
    e.extensions
        .get_or_insert_with(Default::default)
        .set("code", code);
    Response::from_errors(vec![e])
}

impl Guarded<LudologSchema> {
    /// The service's schema behind the guard, with the spec's null propagation.
    pub fn for_schema(schema: LudologSchema, limits: Arc<Limits>) -> Guarded<LudologSchema> {
        let nulls = crate::nulls::Nulls::from_sdl(&schema.sdl()).map(Arc::new);
        Guarded {
            nulls,
            ..Guarded::new(schema, limits)
        }
    }

    // The three `answer*` below are `Executor`'s methods for the service's own schema, for
    // other crates to call (the API's tests, the fuzzer). Not generic, never inlined, their
    // futures boxed: the schema's resolvers are compiled once, here. A crate calling the
    // generic `Executor::execute` instead compiles every resolver again for itself, since an
    // optimised build does not share generic code between crates: some two minutes of a
    // two-core machine for each test binary that did.

    /// One request, as HTTP runs it.
    #[inline(never)]
    pub fn answer(&self, request: Request) -> BoxFuture<'_, Response> {
        Box::pin(self.execute(request))
    }

    /// A batch, as HTTP runs it.
    #[inline(never)]
    pub fn answer_batch(&self, batch: BatchRequest) -> BoxFuture<'_, BatchResponse> {
        Box::pin(self.execute_batch(batch))
    }

    /// A subscription's responses, as the WebSocket protocols run it.
    #[inline(never)]
    pub fn answer_stream(
        &self,
        request: Request,
        session_data: Option<Arc<Data>>,
    ) -> BoxStream<'static, Response> {
        self.execute_stream(request, session_data)
    }
}

impl<E: Executor> Guarded<E> {
    /// What is wrong with a request before it runs, if anything.
    pub fn check(&self, req: &mut Request) -> Result<(), Box<Response>> {
        self.resolve_persisted(req)?;
        let l = &self.limits;
        let nesting = text_nesting(&req.query, l.max_nesting);
        if nesting > l.max_nesting {
            return Err(refusal(
                "LIMIT_EXCEEDED",
                format!("the query nests brackets more than {} deep", l.max_nesting),
            ));
        }
        let vars = async_graphql::Value::Object(
            req.variables
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        );
        if value_nesting(&vars, l.max_nesting + 1) > l.max_nesting + 1 {
            return Err(refusal(
                "LIMIT_EXCEEDED",
                format!("the variables nest more than {} deep", l.max_nesting),
            ));
        }
        let doc = match req.parsed_query() {
            Ok(doc) => doc,
            Err(mut e) => {
                // A syntax error in words (`syntax`), read again from the text: the parser's
                // own message is a picture of the line with rule names.
                if let Err(pe) = async_graphql::parser::parse_query(&req.query) {
                    if let Some(sentence) = crate::syntax::sentence(&req.query, &pe) {
                        e.message = sentence;
                    }
                }
                let mut r = Response::from_errors(vec![e]);
                label_all(&mut r);
                return Err(Box::new(r));
            }
        };
        let aliases = alias_count(doc);
        if aliases > l.max_aliases {
            return Err(refusal(
                "LIMIT_EXCEEDED",
                format!(
                    "{aliases} aliases in one request; at most {} are allowed",
                    l.max_aliases
                ),
            ));
        }
        let shape = match shape(doc) {
            Ok(shape) => shape,
            Err(Malformed::Cycle(name)) => {
                return Err(refusal(
                    "BAD_QUERY",
                    format!("fragment {name} spreads itself (through a cycle of spreads)"),
                ))
            }
            Err(Malformed::Unused(name)) => {
                return Err(refusal(
                    "BAD_QUERY",
                    format!("fragment {name} is spread by no operation"),
                ))
            }
        };
        if shape.selections > l.max_selections {
            let n = if shape.selections == usize::MAX {
                "more than 2^64".to_string()
            } else {
                shape.selections.to_string()
            };
            return Err(refusal(
                "LIMIT_EXCEEDED",
                format!(
                    "the document holds {n} selections once its fragments are expanded; at \
                     most {} are allowed",
                    l.max_selections
                ),
            ));
        }
        if shape.depth > l.max_recursion {
            return Err(refusal(
                "LIMIT_EXCEEDED",
                format!(
                    "the document nests {} deep once its fragments are expanded; at most {} \
                     levels are allowed",
                    shape.depth, l.max_recursion
                ),
            ));
        }
        if crate::offload::is_heavy(req.query.len(), shape.selections) {
            req.data.insert(crate::offload::Heavy);
        }
        Ok(())
    }

    /// Runs a checked request, catching a panic anywhere in it.
    async fn run(&self, mut req: Request) -> Response {
        if let Err(r) = self.check(&mut req) {
            return *r;
        }
        // The document is kept to put the answer's fields in selection order (`order`), and
        // the text for null propagation, which reads the document again on errors.
        let shape = req
            .parsed_query()
            .ok()
            .cloned()
            .map(|doc| (doc, req.operation_name.clone()));
        let text = self
            .nulls
            .as_ref()
            .map(|_| (req.query.clone(), req.operation_name.clone()));
        let inner = self.inner.clone();
        let work = async move { AssertUnwindSafe(inner.execute(req)).catch_unwind().await };
        let ran = match tokio::runtime::Handle::try_current() {
            // A task of its own, so that the caller's time limit can answer while it works
            // (see `offload`), and dropping the caller (its time limit, or a client gone)
            // aborts the work at its next await.
            Ok(rt) => {
                let mut task = AbortOnDrop(rt.spawn(work));
                match (&mut task.0).await {
                    Ok(ran) => ran,
                    Err(e) if e.is_panic() => Err(e.into_panic()),
                    Err(_) => Ok(error_response(
                        "INTERNAL",
                        "the request's work was cancelled",
                    )),
                }
            }
            Err(_) => work.await,
        };
        let mut resp = match ran {
            Ok(r) => r,
            Err(panic) => internal(&panic),
        };
        if let Some((doc, op)) = &shape {
            crate::order::reorder(doc, op.as_deref(), &mut resp.data);
        }
        if let (Some(nulls), Some((query, op))) = (&self.nulls, text) {
            nulls.propagate(&query, op.as_deref(), &mut resp);
        }
        label_all(&mut resp);
        resp
    }
}

/// A spawned task that is aborted when its handle is dropped (a finished one is left alone).
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The response for a caught panic, logged once here.
fn internal(panic: &Box<dyn std::any::Any + Send>) -> Response {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into());
    tracing::error!(panic = %what, "a request panicked");
    error_response(
        "INTERNAL",
        "internal error: the server failed on this request (it is logged)",
    )
}

/// Errors raised by async-graphql itself (parsing, validation, limits) carry no code; give them
/// one, so that every error a client sees has `extensions.code`.
fn label_all(resp: &mut Response) {
    for e in &mut resp.errors {
        let has_code = e
            .extensions
            .as_ref()
            .is_some_and(|x| x.get("code").is_some());
        if has_code {
            continue;
        }
        let code = if e.message.contains("nested too deep")
            || e.message.contains("too complex")
            || e.message.contains("recursion")
            || e.message.contains("recursive depth")
        {
            "LIMIT_EXCEEDED"
        } else {
            "BAD_QUERY"
        };
        e.extensions
            .get_or_insert_with(Default::default)
            .set("code", code);
    }
}

impl<E: Executor> Executor for Guarded<E> {
    async fn execute(&self, request: Request) -> Response {
        self.run(request).await
    }

    async fn execute_batch(&self, batch: BatchRequest) -> BatchResponse {
        match batch {
            BatchRequest::Single(r) => BatchResponse::Single(self.run(r).await),
            BatchRequest::Batch(rs) if rs.len() > self.limits.max_batch => {
                BatchResponse::Single(error_response(
                    "LIMIT_EXCEEDED",
                    format!(
                        "{} requests in one batch; at most {} are allowed",
                        rs.len(),
                        self.limits.max_batch
                    ),
                ))
            }
            BatchRequest::Batch(rs) => {
                // In order, one at a time: a batch costs what its requests cost one after another.
                let mut out = Vec::with_capacity(rs.len());
                for r in rs {
                    out.push(self.run(r).await);
                }
                BatchResponse::Batch(out)
            }
        }
    }

    fn execute_stream(
        &self,
        mut request: Request,
        session_data: Option<Arc<Data>>,
    ) -> BoxStream<'static, Response> {
        if let Err(r) = self.check(&mut request) {
            return stream::once(async move { *r }).boxed();
        }
        let subscription = operation_type(&mut request) == Some(OperationType::Subscription);
        // Each answer's fields in selection order, as over HTTP (`order`).
        let shape = request
            .parsed_query()
            .ok()
            .cloned()
            .map(|doc| Arc::new((doc, request.operation_name.clone())));
        let inner = self.inner.execute_stream(request, session_data);
        let max = self.limits.max_response_bytes;
        let answers = AssertUnwindSafe(inner)
            .catch_unwind()
            .scan(false, move |failed, item| {
                let out = if *failed {
                    None
                } else {
                    match item {
                        Ok(mut r) => {
                            if let Some(shape) = &shape {
                                crate::order::reorder(&shape.0, shape.1.as_deref(), &mut r.data);
                            }
                            label_all(&mut r);
                            Some(bounded(r, max))
                        }
                        Err(panic) => {
                            *failed = true;
                            Some(internal(&panic))
                        }
                    }
                };
                async move { out }
            })
            .boxed();
        if subscription {
            return answers;
        }
        // A query or mutation sent over a socket answers once, within the time limit HTTP's
        // timeout layer holds requests to (that layer never sees a socket's operations).
        let timeout = self.limits.timeout;
        stream::once(async move {
            let mut answers = answers;
            match tokio::time::timeout(timeout, answers.next()).await {
                Ok(Some(r)) => r,
                Ok(None) => error_response("INTERNAL", "the operation gave no answer"),
                Err(_) => error_response(
                    "TIMEOUT",
                    format!(
                        "the operation took longer than the time limit ({} s)",
                        timeout.as_secs()
                    ),
                ),
            }
        })
        .boxed()
    }
}

/// The type of the operation a checked request runs: the one it names, or its only one. `None`
/// when that cannot be told (no such name, several operations and no name, or no document).
pub fn operation_type(req: &mut Request) -> Option<OperationType> {
    let name = req.operation_name.clone();
    let doc = req.parsed_query().ok()?;
    let op = match name.as_deref() {
        Some(n) => doc
            .operations
            .iter()
            .find(|(o, _)| o.is_some_and(|o| o.as_str() == n)),
        None if doc.operations.iter().count() == 1 => doc.operations.iter().next(),
        None => None,
    };
    op.map(|(_, op)| op.node.ty)
}

/// `r`, or a `LIMIT_EXCEEDED` error when its JSON would be larger than `max` bytes.
pub fn bounded(r: Response, max: usize) -> Response {
    match serde_json::to_vec(&r) {
        Ok(bytes) if bytes.len() > max => too_large(bytes.len(), max),
        _ => r,
    }
}

pub fn too_large(len: usize, max: usize) -> Response {
    error_response(
        "LIMIT_EXCEEDED",
        format!("the response would be {len} bytes; at most {max} are allowed (ask for less)"),
    )
}
