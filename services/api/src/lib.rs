//! Ludolog's GraphQL service: the only crate that knows GraphQL and HTTP.
//!
//! A thin axum layer over the store (in the manner of lila-openingexplorer): handlers take typed
//! extractors, every store call runs on the blocking pool, and errors become GraphQL errors with
//! a stable `extensions.code` in exactly one place (`error`).
//!
//! # Layout
//! - `schema`: `Query`, `Mutation`, `Subscription`.
//! - `objects`: the `Game`, `Position` and `IndexedPosition` resolvers.
//! - `types`: plain GraphQL object types.
//! - `auth`: seat tokens (stored hashed) and the admin token; who may see what.
//! - `hub`: per-game broadcast that wakes subscriptions after appends.
//! - `metrics`: Prometheus text for `/metrics`.
//! - `http`: the axum router: `/graphql` (POST, GraphiQL on GET), `/graphql/ws`, `/healthz`,
//!   `/readyz`, `/metrics`; body size and time limits.
//! - `error`: `ApiError` and its codes.

pub mod auth;
pub mod error;
pub mod http;
pub mod hub;
pub mod metrics;
pub mod objects;
pub mod schema;
pub mod types;

use std::sync::Arc;
use std::time::Duration;
use store::Store;

/// Settings of the service.
#[derive(Debug, Clone)]
pub struct ApiConfig {
    /// Token that `importGame` needs; `None`: imports are refused.
    pub admin_token: Option<String>,
    /// Largest page of any list.
    pub max_page: usize,
    /// Most frames in one `replay`.
    pub max_replay: usize,
    pub max_depth: usize,
    pub max_complexity: usize,
    /// Largest request body, in bytes.
    pub max_body: usize,
    /// Longest a request may take.
    pub timeout: Duration,
    /// Key of `stateHash` (keep it secret: it is what stops hash guessing).
    pub state_hash_key: [u8; 16],
    /// Most indexed positions one `positions` page examines before it returns.
    pub scan_budget: u64,
}

impl Default for ApiConfig {
    fn default() -> Self {
        ApiConfig {
            admin_token: None,
            max_page: 100,
            max_replay: 1000,
            max_depth: 16,
            max_complexity: 5000,
            max_body: 8 << 20,
            timeout: Duration::from_secs(30),
            state_hash_key: [0; 16],
            scan_budget: analysis::positions::DEFAULT_BUDGET,
        }
    }
}

/// Everything a request can reach.
pub struct App {
    pub store: Arc<Store>,
    pub analysis: Arc<analysis::Analysis>,
    pub hub: hub::Hub,
    pub config: ApiConfig,
    pub metrics: metrics::Metrics,
}

impl App {
    pub fn new(
        store: Arc<Store>,
        analysis: Arc<analysis::Analysis>,
        config: ApiConfig,
    ) -> Arc<App> {
        Arc::new(App {
            store,
            analysis,
            hub: hub::Hub::default(),
            config,
            metrics: metrics::Metrics::default(),
        })
    }
}

/// The schema with its limits, holding the app.
pub fn build_schema(app: Arc<App>) -> schema::LudologSchema {
    async_graphql::Schema::build(schema::Query, schema::Mutation, schema::Subscription)
        .limit_depth(app.config.max_depth)
        .limit_complexity(app.config.max_complexity)
        .data(app)
        .finish()
}

/// The schema in SDL, as `schema/schema.graphql` holds it.
pub fn sdl() -> String {
    async_graphql::Schema::build(schema::Query, schema::Mutation, schema::Subscription)
        .finish()
        .sdl()
}
