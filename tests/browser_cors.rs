//! A web page on another origin calls the API from a real browser (headless Chromium): the
//! request carries a bearer token and a JSON body, so the browser sends a CORS preflight first,
//! and the page reads the answer only if the server allows its origin. A page on an origin the
//! server does not allow is refused by the browser, so the test can fail.

mod common;

use common::browser::{dump_dom, serve_page};
use common::Server;

/// A page that POSTs `{ rules { kind } }` to the API named by its `?api=` parameter and writes
/// the outcome into `#out`.
const PAGE: &str = r#"<!doctype html><html><body><pre id="out">pending</pre><script>
const api = new URLSearchParams(location.search).get("api");
fetch(api + "/graphql", {
  method: "POST",
  headers: { "content-type": "application/json", "authorization": "Bearer spectator-token-0123" },
  body: JSON.stringify({ query: "{ rules { kind } }" }),
})
  .then((r) => r.json())
  .then((j) => { document.getElementById("out").textContent = "OK " + j.data.rules.map((r) => r.kind).join(","); })
  .catch((e) => { document.getElementById("out").textContent = "REFUSED " + e; });
</script></body></html>"#;

/// What the page at `origin` wrote after calling `api`.
fn call_from(origin: &str, api: &str) -> String {
    let dom = dump_dom(&format!("{origin}/?api={api}"), 10_000);
    let start = dom.find("<pre id=\"out\">").expect("the page's output") + 14;
    let end = dom[start..].find("</pre>").unwrap() + start;
    dom[start..end].to_string()
}

#[test]
fn a_page_on_another_origin_calls_the_api_after_a_preflight() {
    let page = serve_page(PAGE.to_string());
    let stranger = serve_page(PAGE.to_string());
    let all = "OK FIVE_TRIBES,CLANS_OF_CALEDONIA,MOMBASA";

    // The default allows every origin.
    let open = Server::start(&["--no-samples"]);
    assert_eq!(call_from(&page, &open.url), all);

    // An allow-list lets the named origin in and keeps the others out.
    let listed = Server::start(&["--no-samples", "--cors-origin", &page]);
    assert_eq!(call_from(&page, &listed.url), all);
    let refused = call_from(&stranger, &listed.url);
    assert!(refused.starts_with("REFUSED"), "{refused}");
}
