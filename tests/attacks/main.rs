//! The running service attacked as a stranger would (issue 36's nine defects), from outside:
//! each test drives the release of today's binary over HTTP, WebSocket or a real Chromium and
//! fails if the defect it names comes back.
//!
//! # Layout
//! - `fragments`: fragment graphs validation could not survive (unused, deep, spreads of
//!   nothing), found by the `graphql-shapes` fuzz target.
//! - `http`: fragment fan-out and repeated fields, slow headers, persisted mutations over GET,
//!   oversized chunked bodies.
//! - `ws`: idle sockets, per-socket operations, the origin list, rate and time limits on a socket.
//! - `journal`: a journal's size and the response budget while resolving.
//! - `recorder`: idempotency keys belong to whoever entered them.
//! - `viewer`: the pages take no API origin from the URL, escape what they show, send a CSP.
//! - `evaluations`: one client cannot take every evaluation slot.
//! - `heavy`: the attacks at full size, ignored here; `ops/attack.sh` runs them on a release
//!   build and measures the server.

#[path = "../common/mod.rs"]
mod common;

mod evaluations;
mod fragments;
mod heavy;
mod http;
mod journal;
mod recorder;
mod viewer;
mod ws;
