//! Files the binary serves itself, embedded at compile time so that everything works offline
//! and nothing needs a build step: GraphiQL (vendored, `assets/graphiql/LICENSES.txt`) and the
//! web viewer. `GET /assets/{path}` with an `ETag` (a hash of the bytes) and revalidation, so a
//! browser keeps them and asks again only with `If-None-Match`.
//!
//! No page here holds an inline script (the pages' Content-Security-Policy, `headers.rs`, runs
//! this origin's files only): GraphiQL is started by `viewer/graphiql.js`, and the viewer's
//! pages load their files by absolute path, so they open as `/games/{id}` and as
//! `/assets/viewer/game.html` alike (no `<base>`: the policy's `base-uri 'none'` refuses it).

use super::reply::HttpError;
use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use std::collections::HashMap;
use std::sync::LazyLock;

struct Asset {
    mime: &'static str,
    bytes: &'static [u8],
    etag: String,
}

macro_rules! assets {
    ($($path:literal => $mime:literal),* $(,)?) => {
        [$(($path, $mime, include_bytes!(concat!("../../assets/", $path)) as &'static [u8])),*]
    };
}

static ASSETS: LazyLock<HashMap<&'static str, Asset>> = LazyLock::new(|| {
    assets! {
        "graphiql/graphiql.min.js" => "text/javascript; charset=utf-8",
        "graphiql/graphiql.min.css" => "text/css; charset=utf-8",
        "graphiql/react.production.min.js" => "text/javascript; charset=utf-8",
        "graphiql/react-dom.production.min.js" => "text/javascript; charset=utf-8",
        "graphiql/LICENSES.txt" => "text/plain; charset=utf-8",
        "viewer/api.js" => "text/javascript; charset=utf-8",
        "viewer/graphiql.js" => "text/javascript; charset=utf-8",
        "viewer/index.html" => "text/html; charset=utf-8",
        "viewer/index.js" => "text/javascript; charset=utf-8",
        "viewer/game.html" => "text/html; charset=utf-8",
        "viewer/study.html" => "text/html; charset=utf-8",
        "viewer/study.js" => "text/javascript; charset=utf-8",
        "viewer/player.html" => "text/html; charset=utf-8",
        "viewer/player.js" => "text/javascript; charset=utf-8",
        "viewer/player.css" => "text/css; charset=utf-8",
        "viewer/viewer.js" => "text/javascript; charset=utf-8",
        "viewer/patch.js" => "text/javascript; charset=utf-8",
        "viewer/record.js" => "text/javascript; charset=utf-8",
        "viewer/names.js" => "text/javascript; charset=utf-8",
        "viewer/autoplay.js" => "text/javascript; charset=utf-8",
        "viewer/notes.js" => "text/javascript; charset=utf-8",
        "viewer/context.js" => "text/javascript; charset=utf-8",
        "viewer/moves.js" => "text/javascript; charset=utf-8",
        "viewer/scores.js" => "text/javascript; charset=utf-8",
        "viewer/evaluation.js" => "text/javascript; charset=utf-8",
        "viewer/explorer.js" => "text/javascript; charset=utf-8",
        "viewer/branch.js" => "text/javascript; charset=utf-8",
        "viewer/live.js" => "text/javascript; charset=utf-8",
        "viewer/legend.js" => "text/javascript; charset=utf-8",
        "viewer/downloads.js" => "text/javascript; charset=utf-8",
        "viewer/style.css" => "text/css; charset=utf-8",
        "viewer/boards/common.js" => "text/javascript; charset=utf-8",
        "viewer/boards/five-tribes.js" => "text/javascript; charset=utf-8",
        "viewer/boards/caledonia.js" => "text/javascript; charset=utf-8",
        "viewer/boards/mombasa.js" => "text/javascript; charset=utf-8",
    }
    .into_iter()
    .map(|(path, mime, bytes)| {
        use sha2::Digest;
        let etag = format!("\"{}\"", &hex::encode(sha2::Sha256::digest(bytes))[..20]);
        (path, Asset { mime, bytes, etag })
    })
    .collect()
});

/// `GET /assets/{*path}`.
pub async fn asset(Path(path): Path<String>, headers: HeaderMap) -> Result<Response, HttpError> {
    let a = ASSETS
        .get(path.as_str())
        .ok_or_else(|| HttpError::NotFound(format!("no asset `{path}`")))?;
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == a.etag));
    let mut r = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, a.mime)], a.bytes).into_response()
    };
    let h = r.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&a.etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600, must-revalidate"),
    );
    Ok(r)
}

/// The viewer's pages: `/` is the list of games, `/games/{id}` and `/embed/games/{id}` the
/// viewer (its script reads the id from the path; the page loads its files from
/// `/assets/viewer/`). The id is not checked here: the page says so if the game is unknown.
pub async fn index_page(headers: HeaderMap) -> Result<Response, HttpError> {
    asset(Path("viewer/index.html".into()), headers).await
}

pub async fn game_page(headers: HeaderMap) -> Result<Response, HttpError> {
    asset(Path("viewer/game.html".into()), headers).await
}

/// `/study/{id}`: a study's page (its script reads the id from the path).
pub async fn study_page(headers: HeaderMap) -> Result<Response, HttpError> {
    asset(Path("viewer/study.html".into()), headers).await
}

/// `/players/{name}`: a player's page (its script reads the name from the path).
pub async fn player_page(headers: HeaderMap) -> Result<Response, HttpError> {
    asset(Path("viewer/player.html".into()), headers).await
}

/// GraphiQL, from the embedded assets, opening with the README's first query. No inline
/// script (the page's policy runs this origin's files only): `viewer/graphiql.js` starts it
/// and reads the query from `data-query`. The inline `<style>` is allowed on this page only
/// (`headers.rs`: GraphiQL inserts styles of its own).
pub fn graphiql() -> Html<String> {
    let first = include_str!("../../../../schema/examples/first-query.graphql");
    Html(format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Ludolog GraphiQL</title>
<link rel="stylesheet" href="/assets/graphiql/graphiql.min.css">
<style>html, body, #graphiql {{ height: 100%; margin: 0; }}</style>
</head>
<body>
<div id="graphiql" data-query="{query}">Loading GraphiQL…</div>
<script src="/assets/graphiql/react.production.min.js"></script>
<script src="/assets/graphiql/react-dom.production.min.js"></script>
<script src="/assets/graphiql/graphiql.min.js"></script>
<script src="/assets/viewer/graphiql.js"></script>
</body>
</html>"#,
        query = escape_html(first)
    ))
}

/// `s` as text in HTML, in element content or a quoted attribute value.
fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_asset_is_embedded_and_tagged() {
        assert!(ASSETS.len() >= 15);
        // Every file of the viewer folder is served (a new file must be listed above).
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/viewer");
        let mut files = vec![std::path::PathBuf::from(dir)];
        while let Some(p) = files.pop() {
            if p.is_dir() {
                files.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
            } else {
                let rel = p
                    .strip_prefix(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/"))
                    .unwrap();
                let rel = rel.to_str().unwrap();
                assert!(ASSETS.contains_key(rel), "{rel} is not embedded");
            }
        }
        for (path, a) in ASSETS.iter() {
            assert!(!a.bytes.is_empty(), "{path}");
            assert!(a.etag.starts_with('"') && a.etag.len() == 22, "{path}");
        }
        let page = graphiql().0;
        assert!(page.contains("/assets/graphiql/graphiql.min.js"));
        assert!(
            page.contains("FirstLook"),
            "opens with the README's first query"
        );
        assert!(!page.contains("cdn") && !page.contains("unpkg") && !page.contains("jsdelivr"));
        // No inline script: every <script> names a file (the page's policy runs nothing else).
        assert_eq!(
            page.matches("<script").count(),
            page.matches("<script src=\"/assets/").count()
        );
        assert_eq!(
            escape_html(r#"<a href="x" title='y'>&</a>"#),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
        );
    }

    #[test]
    fn no_viewer_page_has_an_inline_script() {
        for page in [
            "viewer/index.html",
            "viewer/game.html",
            "viewer/study.html",
            "viewer/player.html",
        ] {
            let html = std::str::from_utf8(ASSETS[page].bytes).unwrap();
            let scripts = html.matches("<script").count();
            assert!(scripts > 0, "{page}");
            assert_eq!(
                scripts,
                html.matches("<script type=\"module\" src=\"/assets/viewer/")
                    .count(),
                "{page}: every script is one of this origin's files"
            );
            assert!(
                !html.contains("<base"),
                "{page}: `base-uri 'none'` refuses it"
            );
            // Nor an inline handler (` onclick="…"`): the policy refuses those too.
            let handler = html.match_indices(" on").any(|(i, _)| {
                let rest = &html[i + 3..];
                let name = rest.bytes().take_while(u8::is_ascii_lowercase).count();
                name > 0 && rest[name..].starts_with('=')
            });
            assert!(!handler, "{page}: an inline event handler");
        }
    }
}
