//! The two media types of GraphQL over HTTP: `application/json` (every answer `200`, as clients
//! have always read it) and `application/graphql-response+json` (the spec's own: a request that
//! never executed — it did not parse, did not validate, or its variables did not coerce — is
//! `400` with no `data` entry). The second is used when the client's `Accept` names it.

use axum::http::{header, HeaderMap};

pub const JSON: &str = "application/json";
pub const GRAPHQL_RESPONSE: &str = "application/graphql-response+json; charset=utf-8";

/// Whether `Accept` names `application/graphql-response+json` (with a non-zero quality).
pub fn wants_graphql_response(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|range| {
            let mut parts = range.split(';').map(str::trim);
            let media = parts.next().unwrap_or_default();
            let zero = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            media.eq_ignore_ascii_case("application/graphql-response+json") && !zero
        })
}

/// Whether `resp` is a request error: nothing executed (no data), and no error belongs to a
/// field (a field's error has a path).
pub fn is_request_error(resp: &async_graphql::Response) -> bool {
    resp.data == async_graphql::Value::Null
        && !resp.errors.is_empty()
        && resp.errors.iter().all(|e| e.path.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn accept_is_read_with_its_qualities() {
        let h = |v: &str| {
            let mut m = HeaderMap::new();
            m.insert(header::ACCEPT, HeaderValue::from_str(v).unwrap());
            wants_graphql_response(&m)
        };
        assert!(h("application/graphql-response+json"));
        assert!(h(
            "application/graphql-response+json, application/json;q=0.9"
        ));
        assert!(h(
            "application/json, application/graphql-response+json;q=0.5"
        ));
        assert!(!h("application/json"));
        assert!(!h("application/graphql-response+json;q=0"));
        assert!(!wants_graphql_response(&HeaderMap::new()));
    }
}
