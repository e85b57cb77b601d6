//! Security headers on every answer: `X-Content-Type-Options: nosniff` everywhere, and on the
//! pages a Content-Security-Policy (scripts and connections to this origin only; framing only
//! for `/embed/…`).
//!
//! The policy is chosen by what an answer is, not by its route: every `text/html` answer (the
//! viewer's pages, the viewer's files opened as pages under `/assets/viewer/`, GraphiQL) gets
//! the page policy, and everything else a policy that allows nothing, so a JSON answer, an
//! export or a chart opened on its own in a browser can neither run a script nor be framed.
//! Only paths under `/embed/` may be framed, by anyone (that is what the Share button's
//! snippet does); everything else says `frame-ancestors 'none'` and `X-Frame-Options: DENY`
//! (for browsers that predate `frame-ancestors`). A `304 Not Modified` carries none of them:
//! the browser keeps those stored with what it revalidated.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

/// What a non-HTML answer may do when a browser opens it as a document: nothing.
const NOTHING: &str = "default-src 'none'; frame-ancestors 'none'; sandbox";

/// The middleware: runs the request, then sets the headers its answer calls for.
pub async fn security(req: Request, next: Next) -> Response {
    let path = req.uri().path();
    let embed = path.starts_with("/embed/");
    let graphiql = path == "/graphql";
    let host = authority(req.headers(), req.uri().authority().map(|a| a.as_str()));
    let mut resp = next.run(req).await;
    if resp.status() == axum::http::StatusCode::NOT_MODIFIED {
        // A revalidated answer carries no body and no type: the browser keeps the headers it
        // stored with the page and updates them with these, so a policy chosen here (by a
        // type that is not there) would replace the page's own — a reloaded viewer page
        // would become a sandboxed document without storage. None is sent.
        resp.headers_mut().insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        return resp;
    }
    let html = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("text/html"));
    let policy = if html {
        page_policy(host.as_deref(), embed, graphiql)
    } else {
        NOTHING.to_string()
    };
    let h = resp.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if embed {
        h.remove(header::X_FRAME_OPTIONS);
    } else {
        h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    // Built from constants and a host `plain_authority` checked, so always a valid value;
    // should that ever break, the strictest policy rather than none.
    let value =
        HeaderValue::from_str(&policy).unwrap_or_else(|_| HeaderValue::from_static(NOTHING));
    h.insert(header::CONTENT_SECURITY_POLICY, value);
    resp
}

/// The host the request was sent to (`Host`, or the URI's authority on HTTP/2), if it is a
/// plain authority: it goes into a header, so anything else (spaces, `;`, quotes, a path)
/// is dropped rather than escaped.
fn authority(headers: &HeaderMap, uri: Option<&str>) -> Option<String> {
    headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .or(uri)
        .filter(|h| plain_authority(h))
        .map(str::to_ascii_lowercase)
}

/// `host[:port]` where host is a DNS name or IPv4 address (letters, digits, `.`, `-`) or a
/// bracketed IPv6 address (hex digits, `:`, `.`), and port is 1 to 5 digits.
fn plain_authority(s: &str) -> bool {
    let port_ok = |p: &str| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = s.strip_prefix('[') {
        let Some((v6, after)) = rest.split_once(']') else {
            return false;
        };
        let v6_ok = !v6.is_empty()
            && v6.len() <= 45
            && v6
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.');
        return v6_ok && (after.is_empty() || after.strip_prefix(':').is_some_and(port_ok));
    }
    let (host, port) = match s.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (s, None),
    };
    !host.is_empty()
        && host.len() <= 253
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        && port.is_none_or(port_ok)
}

/// The policy of an HTML page. Scripts come from this origin's files only (no inline script,
/// no `eval`), so a value that slipped into the page as markup cannot run. Connections go to
/// this origin, and to its WebSocket origin for live updates (`'self'` covers `ws:` only in
/// newer browsers; both schemes are named because a TLS proxy in front changes the scheme
/// the page sees, never the host).
///
/// Styles: the viewer's pages set no `style` attribute in markup (colours are set through
/// `element.style`, which a policy does not govern), so they allow only this origin's style
/// sheets. GraphiQL's page allows inline styles: the vendored GraphiQL inserts a `<style>`
/// element when it opens a dialog (react-remove-scroll); an inline style cannot run code.
/// Its style sheet carries its fonts as `data:` URLs. `data:` images are the pages' empty
/// favicon and GraphiQL's icons.
fn page_policy(host: Option<&str>, embed: bool, graphiql: bool) -> String {
    let connect = match host {
        Some(h) => format!("'self' ws://{h} wss://{h}"),
        None => "'self'".to_string(),
    };
    let (style, font) = if graphiql {
        ("'self' 'unsafe-inline'", "'self' data:")
    } else {
        ("'self'", "'self'")
    };
    let ancestors = if embed { "*" } else { "'none'" };
    format!(
        "default-src 'self'; script-src 'self'; style-src {style}; img-src 'self' data:; \
         font-src {font}; connect-src {connect}; object-src 'none'; base-uri 'none'; \
         form-action 'self'; frame-ancestors {ancestors}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_authority_reaches_the_policy() {
        for ok in [
            "127.0.0.1:8080",
            "localhost",
            "ludolog.example.org",
            "a-b.example:443",
            "[::1]:8080",
            "[2001:db8::1]",
        ] {
            assert!(plain_authority(ok), "{ok}");
        }
        for bad in [
            "",
            "evil.example; script-src *",
            "host:80 'unsafe-inline'",
            "a b",
            "host:",
            "host:123456",
            "host:8o",
            "user@host",
            "host/path",
            "[::1",
            "[::1]x",
            "[]",
            "[::1]:",
            "*",
            "'self'",
            "host,other",
        ] {
            assert!(!plain_authority(bad), "{bad:?}");
        }
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("x; connect-src *"));
        assert_eq!(authority(&h, None), None);
        h.insert(
            header::HOST,
            HeaderValue::from_static("Ludolog.Example:8080"),
        );
        assert_eq!(authority(&h, None).as_deref(), Some("ludolog.example:8080"));
        assert_eq!(
            authority(&HeaderMap::new(), Some("h2.example")).as_deref(),
            Some("h2.example")
        );
    }

    #[test]
    fn the_page_policy_names_the_socket_origin_and_framing() {
        let p = page_policy(Some("127.0.0.1:9"), false, false);
        assert!(p.contains("connect-src 'self' ws://127.0.0.1:9 wss://127.0.0.1:9;"));
        assert!(p.contains("script-src 'self';"));
        assert!(p.contains("style-src 'self';"));
        assert!(p.ends_with("frame-ancestors 'none'"));
        assert!(!p.contains("unsafe"));
        let e = page_policy(None, true, false);
        assert!(e.contains("connect-src 'self';"));
        assert!(e.ends_with("frame-ancestors *"));
        let g = page_policy(None, false, true);
        assert!(g.contains("style-src 'self' 'unsafe-inline';"));
        assert!(g.contains("script-src 'self';"));
        for p in [p, e, g] {
            assert!(HeaderValue::from_str(&p).is_ok());
        }
    }
}
