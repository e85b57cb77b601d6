//! Answers about finished games, kept as the bytes that were sent.
//!
//! A finished game changes only by an admin's correction (a new revision), so a query that
//! reads only finished games has one answer until the next correction, for a given caller.
//! Such an answer is kept, within a memory bound, keyed by everything it depends on — how
//! many corrections the server has made, the caller's `Authorization`, the query text, the
//! operation and the variables — and later served as it was sent, without parsing,
//! validating or resolving anything: the bytes are the same by construction. Over `GET` it
//! carries an `ETag`, and `If-None-Match` is answered `304`; an answer that named the revisions
//! it read (`game(id:, revision:)`) can never change and is `Cache-Control: immutable`, one
//! about the latest revision is fresh for a minute (`LATEST_CACHE_CONTROL`).
//!
//! What counts as "reads only finished games" is decided in two places, both conservative:
//! - the shape of the request (`cacheable_shape`): a query whose top-level fields are all
//!   `game` (or `__typename`): no other root field, no fragment at the top;
//! - the resolvers: `Query.game` records in the request's [`ReadSet`] whether the game it
//!   found is finished; an active game, or none, marks the answer as volatile.
//!
//! An answer with any error is never kept.

use async_graphql::parser::types::{OperationType, Selection};
use async_graphql::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

/// One kept answer.
#[derive(Clone)]
pub struct Cached {
    pub bytes: axum::body::Bytes,
    pub etag: HeaderValue,
    /// It reads named revisions only (`game(id:, revision:)`), so it never changes.
    pub immutable: bool,
}

#[derive(Clone)]
pub struct Weight;

impl quick_cache::Weighter<Arc<str>, Cached> for Weight {
    fn weight(&self, key: &Arc<str>, val: &Cached) -> u64 {
        (key.len() + val.bytes.len() + 64) as u64
    }
}

/// The kept answers, `None` when the cache is off.
pub struct ResponseCache {
    cache: Option<quick_cache::sync::Cache<Arc<str>, Cached, Weight>>,
}

impl ResponseCache {
    /// A cache holding up to `bytes` of keys and answers (0: off).
    pub fn new(bytes: u64) -> ResponseCache {
        // quick_cache sizes its table by an estimate of the item count: answers of a position
        // with its view are a few KiB.
        let items = (bytes / 4096).max(16) as usize;
        ResponseCache {
            cache: (bytes > 0)
                .then(|| quick_cache::sync::Cache::with_weighter(items, bytes, Weight)),
        }
    }

    pub fn enabled(&self) -> bool {
        self.cache.is_some()
    }

    pub fn get(&self, key: &str) -> Option<Cached> {
        self.cache.as_ref()?.get(key)
    }

    /// Keeps `bytes` under `key`; returns the answer with its entity tag.
    pub fn insert(&self, key: String, bytes: Vec<u8>, immutable: bool) -> Cached {
        let cached = Cached {
            etag: etag(&bytes),
            bytes: bytes.into(),
            immutable,
        };
        if let Some(c) = &self.cache {
            c.insert(Arc::from(key), cached.clone());
        }
        cached
    }

    /// Bytes held now (for metrics and tests).
    pub fn weight(&self) -> u64 {
        self.cache.as_ref().map_or(0, |c| c.weight())
    }
}

/// A strong entity tag of the answer's bytes.
fn etag(bytes: &[u8]) -> HeaderValue {
    let mut h = std::hash::DefaultHasher::new();
    bytes.hash(&mut h);
    let tag = format!("\"{:016x}-{:x}\"", h.finish(), bytes.len());
    HeaderValue::from_str(&tag).unwrap_or_else(|_| HeaderValue::from_static("\"0\""))
}

const FINISHED: u8 = 1;
const VOLATILE: u8 = 2;
/// A finished game was read as it is now, not as of a named revision: an admin's correction
/// may change the answer (the cache's key follows corrections; HTTP caches must ask again).
const LATEST: u8 = 4;

/// What a request's resolvers read, for the cache to judge: put in the request's data by the
/// HTTP layer, marked by `Query.game`.
#[derive(Default)]
pub struct ReadSet(AtomicU8);

impl ReadSet {
    /// A finished game was read.
    pub fn finished_game(&self) {
        self.0.fetch_or(FINISHED, Ordering::Relaxed);
    }

    /// A finished game was read at its latest revision (not pinned by `revision:`).
    pub fn latest_revision(&self) {
        self.0.fetch_or(LATEST, Ordering::Relaxed);
    }

    /// Something that may change was read (an active game, a missing one).
    pub fn volatile(&self) {
        self.0.fetch_or(VOLATILE, Ordering::Relaxed);
    }

    /// Whether the answer depends on finished games alone.
    pub fn cacheable(&self) -> bool {
        self.0.load(Ordering::Relaxed) & !LATEST == FINISHED
    }

    /// Whether the answer depends on named revisions of finished games alone: it never
    /// changes.
    pub fn immutable(&self) -> bool {
        self.0.load(Ordering::Relaxed) == FINISHED
    }
}

/// Whether the request is a query whose top-level fields are all `game` or `__typename`.
/// The request must be checked (its text resolved and parsed) before.
pub fn cacheable_shape(req: &mut Request) -> bool {
    let name = req.operation_name.clone();
    let Ok(doc) = req.parsed_query() else {
        return false;
    };
    let op = match (&name, doc.operations.iter().count()) {
        (Some(n), _) => doc
            .operations
            .iter()
            .find(|(o, _)| o.map(|o| o.as_str()) == Some(n.as_str())),
        (None, 1) => doc.operations.iter().next(),
        _ => None,
    };
    let Some((_, op)) = op else {
        return false;
    };
    op.node.ty == OperationType::Query
        && op
            .node
            .selection_set
            .node
            .items
            .iter()
            .all(|s| match &s.node {
                Selection::Field(f) => matches!(f.node.name.node.as_str(), "game" | "__typename"),
                _ => false,
            })
}

/// The key of a request's answer: everything the answer depends on besides the games, as
/// sent — the caller's `Authorization`, the operation, the query text (or, for a persisted
/// query sent as its hash alone, the hash) and the variables — and how many corrections the
/// server had made when the request came (`corrections`: a correction moves every key on, so
/// no answer read before it is served after it).
pub fn key(req: &Request, authorization: Option<&str>, corrections: u64) -> String {
    let vars = serde_json::to_string(&req.variables).unwrap_or_default();
    let persisted = (req.query.is_empty())
        .then_some(&req.extensions)
        .and_then(|x| x.get("persistedQuery"))
        .and_then(|p| match p {
            async_graphql::Value::Object(o) => o.get("sha256Hash"),
            _ => None,
        })
        .and_then(|h| match h {
            async_graphql::Value::String(h) => Some(h.to_ascii_lowercase()),
            _ => None,
        });
    let query = match &persisted {
        Some(hash) => format!("#sha256:{hash}"),
        None => req.query.clone(),
    };
    format!(
        "{corrections}\u{0}{}\u{0}{}\u{0}{}\u{0}{}",
        authorization.unwrap_or(""),
        req.operation_name.as_deref().unwrap_or(""),
        query,
        vars
    )
}

/// The HTTP answer for a kept (or just kept) answer: over `GET` with its entity tag, and
/// `immutable` when it reads named revisions only (else a minute's freshness, then a
/// revalidation that costs a `304` while nothing changed); `304` when the client already
/// holds it.
pub fn reply(c: &Cached, get: bool, if_none_match: Option<&HeaderValue>) -> Response {
    let mut r = if get && if_none_match.is_some_and(|v| matches_tag(v, &c.etag)) {
        let mut r = Response::new(axum::body::Body::empty());
        *r.status_mut() = StatusCode::NOT_MODIFIED;
        r
    } else {
        let mut r = Response::new(axum::body::Body::from(c.bytes.clone()));
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        r
    };
    if get {
        let h = r.headers_mut();
        h.insert(header::ETAG, c.etag.clone());
        h.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(if c.immutable {
                "public, max-age=31536000, immutable"
            } else {
                LATEST_CACHE_CONTROL
            }),
        );
    }
    r
}

/// How long HTTP caches keep an answer about finished games read at their latest revision
/// before asking again: an admin's correction reaches every client within it.
pub const LATEST_CACHE_CONTROL: &str = "public, max-age=60";

/// `If-None-Match`: a list of tags, or `*`.
fn matches_tag(header: &HeaderValue, tag: &HeaderValue) -> bool {
    let Ok(h) = header.to_str() else {
        return false;
    };
    let tag = tag.to_str().unwrap_or("");
    h.split(',')
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == "*" || t == tag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_queries_of_games_have_a_cacheable_shape() {
        for (q, want) in [
            ("{ game(id: \"1\") { plies } }", true),
            ("query Q { a: game(id: \"1\") { id } __typename }", true),
            ("{ games { edges { node { id } } } }", false),
            ("{ game(id: \"1\") { id } statistics { games } }", false),
            (
                "mutation { createGame(kind: \"x\", players: []) { game { id } } }",
                false,
            ),
            (
                "{ ...F } fragment F on Query { game(id: \"1\") { id } }",
                false,
            ),
            (
                "query A { game(id: \"1\") { id } } query B { games { edges { cursor } } }",
                false,
            ),
        ] {
            assert_eq!(cacheable_shape(&mut Request::new(q)), want, "{q}");
        }
        let mut named =
            Request::new("query A { game(id: \"1\") { id } } query B { rules { kind } }")
                .operation_name("A");
        assert!(cacheable_shape(&mut named));
    }

    #[test]
    fn a_read_set_is_cacheable_only_with_finished_games_alone() {
        let r = ReadSet::default();
        assert!(!r.cacheable(), "nothing read: nothing to keep");
        r.finished_game();
        assert!(r.cacheable() && r.immutable());
        r.latest_revision();
        assert!(
            r.cacheable() && !r.immutable(),
            "latest: kept, not immutable"
        );
        r.volatile();
        assert!(!r.cacheable());
    }

    #[test]
    fn tags_match_lists_weak_forms_and_star() {
        let tag = etag(b"abc");
        let t = tag.to_str().unwrap().to_string();
        for h in [
            t.clone(),
            format!("\"x\", {t}"),
            format!("W/{t}"),
            "*".into(),
        ] {
            assert!(
                matches_tag(&HeaderValue::from_str(&h).unwrap(), &tag),
                "{h}"
            );
        }
        assert!(!matches_tag(&HeaderValue::from_static("\"x\""), &tag));
    }
}
