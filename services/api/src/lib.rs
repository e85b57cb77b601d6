//! Ludolog's GraphQL service: the only crate that knows GraphQL and HTTP.
//!
//! A thin axum layer over the store (in the manner of lila-openingexplorer): handlers take typed
//! extractors, every store call runs on the blocking pool, and errors become GraphQL errors with
//! a stable `extensions.code` in exactly one place (`error`).
//!
//! # Layout
//! - `schema`: `Query`, `Mutation`, `Subscription`.
//! - `objects`: the `Game`, `Position` and `IndexedPosition` resolvers; how entries are shown;
//!   the explorer of decisions (`objects::explorer`) and the analysis board (`objects::branch`).
//! - `perspective`: whose eyes a position is seen through, decided once.
//! - `types`: plain GraphQL object types.
//! - `stats`: `statistics` as GraphQL types.
//! - `typed`: the typed views and layouts, GraphQL types generated from each game's JSON Schema.
//! - `bots`: seats the server plays itself — which seats are bots, the checks, the worker
//!   pool that plays them.
//! - `auth`: seat tokens (stored hashed) and the admin token; who may see what.
//! - `hub`: per-game broadcast that wakes subscriptions after appends.
//! - `metrics`: Prometheus text for `/metrics`.
//! - `limits`: the request limits and the checks that run before any recursive parse.
//! - `shape`: what a document's operations come to once its fragments are expanded (a cycle
//!   and an unused fragment refused), measured before validation walks it.
//! - `budget`: the response budget large answers charge while they are built, and the
//!   extension that gives each execution its own (with the journals it read).
//! - `guard`: the schema as every transport runs it: limits first, a panic net around it.
//! - `syntax`: GraphQL syntax errors as one sentence with their line and column.
//! - `offload`: long documents validated off the runtime's worker threads.
//! - `order`: every answer's fields put back in selection order (async-graphql inserts them as
//!   they complete).
//! - `http`: the axum router: `/graphql` (POST, GET, GraphiQL), `/graphql/ws`, `/healthz`,
//!   `/readyz`, `/metrics`, exports and charts; CORS, rate limit, body and time limits, and
//!   JSON error answers (`http::reply`).
//! - `error`: `ApiError` and its codes.
//! - `accuracy`: `statistics { byAccuracy }` and the accuracy chart, from the kept reviews.
//! - `evaluation_slots`: who may run an evaluation now (the server's permits, one per client).

pub mod accuracy;
pub mod auth;
pub mod bots;
pub mod budget;
pub mod datasets;
pub mod error;
pub mod evaluation_slots;
pub mod guard;
pub mod http;
pub mod hub;
pub mod limits;
pub mod metrics;
pub mod nulls;
pub mod objects;
pub mod offload;
pub mod order;
pub mod perspective;
pub mod schema;
pub mod shape;
pub mod stats;
pub mod syntax;
pub mod typed;
pub mod types;

use std::sync::Arc;
use store::GameLog;

/// Settings of the service.
#[derive(Debug, Clone)]
pub struct ApiConfig {
    /// Token that `importGame` needs; `None`: imports are refused.
    pub admin_token: Option<String>,
    /// A per-run secret for operator endpoints on the same machine (see `http::admin`).
    pub control_token: Option<String>,
    /// Largest page of any list.
    pub max_page: usize,
    /// Most frames in one `replay`.
    pub max_replay: usize,
    /// Request limits: nesting, depth, complexity, aliases, sizes, time, rate.
    pub limits: limits::Limits,
    /// Origins a browser page may call from (`*`: any).
    pub cors_origins: Vec<String>,
    /// Key of `stateHash` (keep it secret: it is what stops hash guessing): the deployment's.
    pub state_hash_key: [u8; 16],
    /// Why this node refuses hashes (`stateHash`, `positionsByHash`, the explorer): it was
    /// given a key its deployment does not hold. `None`: it serves them.
    pub state_hash_refused: Option<String>,
    /// Most indexed positions one `positions` page examines before it returns.
    pub scan_budget: u64,
    /// Memory for answers about finished games kept as bytes (`http::cache`); 0: none kept.
    pub response_cache_bytes: u64,
    /// Annotation tokens: (analyst's name, token). An analyst annotates any game and makes
    /// studies.
    pub annotators: Vec<(String, String)>,
    /// The seats this server may play itself (`createGame(bots: …)`).
    pub bots: bots::BotConfig,
    /// The background review of finished games (threads, iterations a position).
    pub reviews: review::Config,
    /// The open datasets published at `/datasets/` (`None`: not published).
    pub datasets: Option<datasets::DatasetConfig>,
}

impl Default for ApiConfig {
    fn default() -> Self {
        ApiConfig {
            admin_token: None,
            control_token: None,
            max_page: 100,
            max_replay: REPLAY_FRAMES,
            limits: limits::Limits::default(),
            cors_origins: vec!["*".into()],
            state_hash_key: [0; 16],
            state_hash_refused: None,
            scan_budget: analysis::positions::DEFAULT_BUDGET,
            response_cache_bytes: 64 << 20,
            annotators: Vec::new(),
            bots: bots::BotConfig::default(),
            reviews: review::Config::default(),
            datasets: None,
        }
    }
}

/// Everything a request can reach.
pub struct App {
    pub store: Arc<dyn GameLog>,
    pub analysis: Arc<analysis::Analysis>,
    pub hub: hub::Hub,
    pub config: ApiConfig,
    pub metrics: metrics::Metrics,
    /// Corrections made by this server: part of every answer-cache key, so an answer read
    /// before a correction is never served after it.
    pub corrections: std::sync::atomic::AtomicU64,
    /// `Query.rules`, worked out once: its data hashes and coverage cost a millisecond a game
    /// to compute, and a query may ask for the field thousands of times.
    pub rules: std::sync::OnceLock<Vec<types::RulesInfo>>,
    /// The games waiting for a bot to move, and the threads that play them.
    pub bots: bots::pool::BotPool,
    /// Slots for evaluations running at once (`BotConfig::evaluations`), one per client.
    pub evaluations: evaluation_slots::Slots,
    /// Finished games reviewed in the background (none without bots: no search).
    pub reviews: Option<Arc<review::Projection>>,
    /// The open datasets this server publishes (`/datasets/`), if it does.
    pub datasets: std::sync::OnceLock<Arc<datasets::Publisher>>,
}

impl App {
    /// `Err(HASH_KEY_MISMATCH)` where this node must not answer with hashes (see
    /// [`ApiConfig::state_hash_refused`]).
    pub fn hashes_served(&self) -> Result<(), error::ApiError> {
        match &self.config.state_hash_refused {
            None => Ok(()),
            Some(why) => Err(error::ApiError::HashKeyMismatch(why.clone())),
        }
    }

    pub fn new(
        store: Arc<dyn GameLog>,
        analysis: Arc<analysis::Analysis>,
        config: ApiConfig,
    ) -> Arc<App> {
        let reviews = config.bots.players.clone().map(|players| {
            Arc::new(review::Projection::start(
                store.clone(),
                players,
                config.reviews,
            ))
        });
        let app = Arc::new(App {
            store,
            analysis,
            hub: hub::Hub::default(),
            metrics: metrics::Metrics::default(),
            corrections: Default::default(),
            rules: Default::default(),
            bots: Default::default(),
            evaluations: evaluation_slots::Slots::new(config.bots.evaluations),
            reviews,
            datasets: Default::default(),
            config,
        });
        bots::pool::BotPool::start(&app, &app.config.bots);
        if let Some(c) = app.config.datasets.clone() {
            let _ = app.datasets.set(datasets::Publisher::start(&app, c));
        }
        // Appends made on other nodes of a shared store wake this node's subscribers too.
        let weak = Arc::downgrade(&app);
        app.store.on_grow(Arc::new(move |game, plies| {
            if let Some(app) = weak.upgrade() {
                app.hub.publish(game, plies);
            }
        }));
        app
    }
}

/// Frames a replay is charged for when its range is not given: the most one replay may hold.
pub const REPLAY_FRAMES: usize = 1000;

/// The complexity of `replay(fromPly, toPly)`: its frames (at most `REPLAY_FRAMES`, the
/// default count when `toPly` is open) times what each frame selects, plus five per frame for
/// the entry it applies, the view it rebuilds and the patch it diffs. With the default limit of
/// 10,000 points one open replay selecting up to five fields per frame passes, and two do not.
pub fn replay_cost(from: Option<u32>, to: Option<u32>, child: usize) -> usize {
    let from = from.unwrap_or(0) as usize;
    let frames = to.map_or(REPLAY_FRAMES, |t| (t as usize).saturating_sub(from));
    frames.clamp(1, REPLAY_FRAMES) * (child + 5)
}

/// The schema with its limits, holding the app.
pub fn build_schema(app: Arc<App>) -> schema::LudologSchema {
    for e in typed::install(app.store.registry()) {
        tracing::error!(error = %e, "a game's view schema has no GraphQL form; it is served as JSON");
    }
    async_graphql::Schema::build(
        schema::Query,
        schema::Mutation::default(),
        schema::Subscription,
    )
    .limit_depth(app.config.limits.max_depth)
    .limit_recursive_depth(app.config.limits.max_recursion)
    .limit_complexity(app.config.limits.max_complexity)
    .extension(offload::Offload)
    .extension(budget::PerRequest {
        limit: app.config.limits.max_response_bytes,
    })
    .data(app)
    .finish()
}

/// The schema in SDL, as `schema/schema.graphql` holds it, for the games of `registry`: what
/// introspection says, all of it — `@specifiedBy` on the scalars that name their specification
/// (`DateTime`: RFC 3339) and the schema's own description (`SCHEMA_DESCRIPTION`).
pub fn sdl(registry: &rules_core::Registry) -> String {
    typed::install(registry);
    let sdl = async_graphql::Schema::build(
        schema::Query,
        schema::Mutation::default(),
        schema::Subscription,
    )
    .finish()
    .sdl_with_options(async_graphql::SDLExportOptions::new().include_specified_by());
    describe_schema(sdl)
}

/// What introspection answers for `__schema { description }`: async-graphql gives every schema
/// this text, and leaves it out of its SDL. (A test compares the file with a live server's
/// introspection, so a new text from async-graphql shows there.)
pub const SCHEMA_DESCRIPTION: &str = "A GraphQL Schema defines the capabilities of a GraphQL \
    server. It exposes all available types and directives on the server, as well as the entry \
    points for query, mutation, and subscription operations.";

/// `sdl` with the schema definition described as introspection describes it.
fn describe_schema(sdl: String) -> String {
    match sdl.rfind("\nschema {") {
        Some(at) => format!(
            "{}\n\"\"\"\n{SCHEMA_DESCRIPTION}\n\"\"\"{}",
            &sdl[..at],
            &sdl[at..]
        ),
        None => sdl,
    }
}
