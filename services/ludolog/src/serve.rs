//! `ludolog serve`: the GraphQL service, on the embedded store (sled in `--data-dir`) or, with
//! `--store nats://…`, on a NATS JetStream cluster that any number of nodes share.
//!
//! Settings come from, in order of precedence: flags, environment variables (`LUDOLOG_*`), a
//! TOML file (`--config`), built-in defaults. On an empty store the sample games in
//! `--samples-dir` are imported (unless `--no-samples`). SIGTERM or Ctrl-C stops accepting
//! connections, lets requests in flight finish, then checkpoints the store.

use anyhow::{Context, Result};
use serde::Deserialize;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use store::GameLog;

/// `ludolog serve` settings (every flag also reads `LUDOLOG_<NAME>` and the TOML file).
#[derive(clap::Args, Debug, Default)]
pub struct ServeArgs {
    /// Address to listen on [default: 127.0.0.1:8080].
    #[arg(long, env = "LUDOLOG_LISTEN")]
    pub listen: Option<SocketAddr>,
    /// Where the store lives [default: ./var/ludolog]. With `--store nats://…`, where this
    /// node keeps its projections and keys.
    #[arg(long, env = "LUDOLOG_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// Where the game logs live: `sled` (the embedded store in `--data-dir`) or a NATS
    /// JetStream cluster, `nats://host:port[,nats://host:port…]`, shared by any number of
    /// `serve` nodes [default: sled].
    #[arg(long, env = "LUDOLOG_STORE")]
    pub store: Option<String>,
    /// With `--store nats://…`: replicas of the stream the logs are kept on, when this node
    /// creates it (3 on a cluster; 1 on a single server) [default: 3].
    #[arg(long, env = "LUDOLOG_STORE_REPLICAS")]
    pub store_replicas: Option<usize>,
    /// With `--store nats://…`: the stream's name (its subjects are named after it); nodes
    /// of one deployment use the same [default: LUDOLOG].
    #[arg(long, env = "LUDOLOG_STORE_STREAM")]
    pub store_stream: Option<String>,
    /// With `--store nats://…`: how long a request to the cluster may take, its retries
    /// included; a write that finds the stream electing a leader (about 5 s) tries again
    /// until then [default: 10000].
    #[arg(long, env = "LUDOLOG_STORE_TIMEOUT_MS", value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub store_timeout_ms: Option<u64>,
    /// With `--store nats://…`: how long one attempt of a request waits before it is sent
    /// again (to the new leader, after an election) [default: 1000].
    #[arg(long, env = "LUDOLOG_STORE_ATTEMPT_MS", value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub store_attempt_ms: Option<u64>,
    /// The deployment's state-hash key, 32 hexadecimal digits in a file: what `stateHash`,
    /// `positionsByHash` and the explorer's node keys are keyed with. Without it the
    /// deployment's own is used (on `--store nats://…` kept on the stream, on sled the data
    /// folder's `state-hash.key`); with it, a deployment that keeps another makes this node
    /// refuse hashes (`HASH_KEY_MISMATCH`) rather than answer with the wrong key.
    #[arg(long, env = "LUDOLOG_STATE_HASH_KEY_FILE")]
    pub state_hash_key_file: Option<PathBuf>,
    /// A folder of sample records (`*.ndjson`) to import into an empty store instead of the
    /// samples built into the binary.
    #[arg(long, env = "LUDOLOG_SAMPLES_DIR")]
    pub samples_dir: Option<PathBuf>,
    /// Do not import the samples into an empty store.
    #[arg(long, env = "LUDOLOG_NO_SAMPLES")]
    pub no_samples: bool,
    /// The admin's token (`importGame`, `correctGame`, `/admin/backup`); without one, imports
    /// are refused. Every token — this one, an annotator's, a seat's or the recorder's, and
    /// whatever a request sends as `Authorization: Bearer` — is 16 to 256 characters of A-Z
    /// a-z 0-9 - . _ ~ + /, then any number of =.
    #[arg(long, env = "LUDOLOG_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// Annotation tokens, comma-separated `NAME=TOKEN`: an analyst holding one annotates
    /// any game and makes studies, under their name. Each token follows the rule every token
    /// does (see `--admin-token`).
    #[arg(
        long,
        env = "LUDOLOG_ANNOTATORS",
        value_delimiter = ',',
        hide_env_values = true
    )]
    pub annotators: Option<Vec<String>>,
    /// Longest a request may take, in seconds [default: 30].
    #[arg(long, env = "LUDOLOG_TIMEOUT_SECS", help_heading = "Limits")]
    pub timeout_secs: Option<u64>,
    /// Largest request body, in bytes [default: 8388608].
    #[arg(long, env = "LUDOLOG_MAX_BODY", help_heading = "Limits")]
    pub max_body: Option<usize>,
    /// Largest response body, in bytes [default: 16777216].
    #[arg(long, env = "LUDOLOG_MAX_RESPONSE_BYTES", help_heading = "Limits")]
    pub max_response_bytes: Option<usize>,
    /// Deepest bracket nesting of a query or its variables, checked before parsing [default: 64].
    #[arg(long, env = "LUDOLOG_MAX_NESTING", help_heading = "Limits")]
    pub max_nesting: Option<usize>,
    /// Deepest selection set of a query [default: 16].
    #[arg(long, env = "LUDOLOG_MAX_DEPTH", help_heading = "Limits")]
    pub max_depth: Option<usize>,
    /// Most complexity points one request may cost (a replay costs per frame, a view per
    /// position, a list per item) [default: 10000].
    #[arg(long, env = "LUDOLOG_MAX_COMPLEXITY", help_heading = "Limits")]
    pub max_complexity: Option<usize>,
    /// Most aliased fields in one request [default: 64].
    #[arg(long, env = "LUDOLOG_MAX_ALIASES", help_heading = "Limits")]
    pub max_aliases: Option<usize>,
    /// Most requests in one batched POST [default: 16].
    #[arg(long, env = "LUDOLOG_MAX_BATCH", help_heading = "Limits")]
    pub max_batch: Option<usize>,
    /// Requests per second one client address may make, sustained; 0 turns the limit off
    /// [default: 200].
    #[arg(long, env = "LUDOLOG_RATE_LIMIT", help_heading = "Limits")]
    pub rate_limit: Option<u32>,
    /// Requests one client may make at once above the sustained rate [default: 400].
    #[arg(long, env = "LUDOLOG_RATE_BURST", help_heading = "Limits")]
    pub rate_burst: Option<u32>,
    /// Most selections (fields, fragment spreads, inline fragments) a query's operations may
    /// hold once its fragments are expanded, checked before validation [default: 2000].
    #[arg(long, env = "LUDOLOG_MAX_SELECTIONS", help_heading = "Limits")]
    pub max_selections: Option<usize>,
    /// Deepest selection set once fragments are expanded, a level per field with a selection
    /// set, per spread and per inline fragment, checked before validation [default: 32].
    #[arg(long, env = "LUDOLOG_MAX_RECURSION", help_heading = "Limits")]
    pub max_recursion: Option<usize>,
    /// Seconds a connection may take to send a request's head, or to start the next one on a
    /// kept-alive connection [default: 10].
    #[arg(long, env = "LUDOLOG_HEADER_TIMEOUT_SECS", help_heading = "Limits")]
    pub header_timeout_secs: Option<u64>,
    /// Most open connections (lowered to fit the open-files limit) [default: 2048].
    #[arg(long, env = "LUDOLOG_MAX_CONNECTIONS", help_heading = "Limits")]
    pub max_connections: Option<usize>,
    /// Most open connections from one client address [default: 256].
    #[arg(
        long,
        env = "LUDOLOG_MAX_CONNECTIONS_PER_ADDR",
        help_heading = "Limits"
    )]
    pub max_connections_per_addr: Option<usize>,
    /// Most open WebSockets [default: 1024].
    #[arg(long, env = "LUDOLOG_MAX_SOCKETS", help_heading = "Limits")]
    pub max_sockets: Option<usize>,
    /// Most open WebSockets from one client address [default: 64].
    #[arg(long, env = "LUDOLOG_MAX_SOCKETS_PER_ADDR", help_heading = "Limits")]
    pub max_sockets_per_addr: Option<usize>,
    /// Most operations running at once on one WebSocket [default: 64].
    #[arg(long, env = "LUDOLOG_MAX_SOCKET_OPERATIONS", help_heading = "Limits")]
    pub max_socket_operations: Option<usize>,
    /// Seconds a WebSocket may stay open without `connection_init` before it is closed
    /// with 4408 [default: 5].
    #[arg(
        long,
        env = "LUDOLOG_SOCKET_INIT_TIMEOUT_SECS",
        help_heading = "Limits"
    )]
    pub socket_init_timeout_secs: Option<u64>,
    /// Writes are refused (STORAGE_FULL) while the store's disk has less free space than this,
    /// in bytes, so the disk never fills under the store; 0 turns it off [default: 67108864].
    #[arg(long, env = "LUDOLOG_MIN_FREE_BYTES", help_heading = "Limits")]
    pub min_free_bytes: Option<u64>,
    /// Most bytes one game's journal (annotations, takebacks, corrections) may hold; a note
    /// past it is refused (LIMIT_EXCEEDED); 0 turns the cap off [default: 1048576].
    #[arg(long, env = "LUDOLOG_MAX_JOURNAL_BYTES", help_heading = "Limits")]
    pub max_journal_bytes: Option<u64>,
    /// Memory for answers about finished games kept ready as bytes, in MiB; 0 keeps none
    /// [default: 64].
    #[arg(long, env = "LUDOLOG_CACHE_MIB")]
    pub cache_mib: Option<u64>,
    /// Memory for the store's page cache (sled's, in `--data-dir`: the logs on the embedded
    /// store, the projections on either), in MiB [default: 128].
    #[arg(long, env = "LUDOLOG_STORE_CACHE_MIB", value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub store_cache_mib: Option<u64>,
    /// Threads that play the seats `createGame` gives to bots, apart from the request
    /// threads; 0 plays none (such a `createGame` is refused) [default: 1].
    #[arg(long, env = "LUDOLOG_BOT_THREADS", value_parser = clap::value_parser!(u16).range(0..=64))]
    pub bot_threads: Option<u16>,
    /// The most MCTS iterations a move a bot of this server may be given (at most 200000)
    /// [default: 5000].
    #[arg(long, env = "LUDOLOG_BOT_MAX_ITERATIONS", value_parser = clap::value_parser!(u32).range(1..=200_000))]
    pub bot_max_iterations: Option<u32>,
    /// Position evaluations (`Position.evaluation`, `bestMoves`) that may run at once, each on
    /// one core and at most --bot-max-iterations iterations; 0 runs none [default: 1].
    #[arg(long, env = "LUDOLOG_EVAL_THREADS", value_parser = clap::value_parser!(u16).range(0..=64))]
    pub eval_threads: Option<u16>,
    /// Threads that review finished games in the background (every position evaluated, every
    /// seat move judged: `Game.evaluation`), apart from the request threads; 0 reviews none
    /// (reviews kept are still served) [default: 1].
    #[arg(long, env = "LUDOLOG_REVIEW_THREADS", value_parser = clap::value_parser!(u16).range(0..=64))]
    pub review_threads: Option<u16>,
    /// The search's iterations at each position of a review (at most 200000) [default: 500].
    #[arg(long, env = "LUDOLOG_REVIEW_ITERATIONS", value_parser = clap::value_parser!(u32).range(1..=200_000))]
    pub review_iterations: Option<u32>,
    /// Least seconds between two refreshes of the open datasets published at `/datasets/`
    /// (Parquet, schema/datasets.md): a month's files are written again at most this often
    /// while games of it finish; 0 publishes none [default: 300].
    #[arg(long, env = "LUDOLOG_DATASET_INTERVAL", value_parser = clap::value_parser!(u64).range(0..=86_400))]
    pub dataset_interval: Option<u64>,
    /// The open datasets' folder [default: <data dir>/datasets].
    #[arg(long, env = "LUDOLOG_DATASET_DIR")]
    pub dataset_dir: Option<PathBuf>,
    /// Origins a web page may call the API from (CORS), comma-separated; `*` for any
    /// [default: *].
    #[arg(long, env = "LUDOLOG_CORS_ORIGIN", value_delimiter = ',')]
    pub cors_origin: Option<Vec<String>>,
    /// Log as JSON lines instead of text.
    #[arg(long, env = "LUDOLOG_LOG_JSON")]
    pub log_json: bool,
    /// A TOML file with any of the settings above (snake_case keys).
    #[arg(long, env = "LUDOLOG_CONFIG")]
    pub config: Option<PathBuf>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    listen: Option<SocketAddr>,
    data_dir: Option<PathBuf>,
    store: Option<String>,
    store_replicas: Option<usize>,
    store_stream: Option<String>,
    store_timeout_ms: Option<u64>,
    store_attempt_ms: Option<u64>,
    state_hash_key_file: Option<PathBuf>,
    samples_dir: Option<PathBuf>,
    no_samples: Option<bool>,
    admin_token: Option<String>,
    annotators: Option<Vec<String>>,
    timeout_secs: Option<u64>,
    max_body: Option<usize>,
    max_response_bytes: Option<usize>,
    max_nesting: Option<usize>,
    max_depth: Option<usize>,
    max_complexity: Option<usize>,
    max_aliases: Option<usize>,
    max_batch: Option<usize>,
    rate_limit: Option<u32>,
    rate_burst: Option<u32>,
    cors_origin: Option<Vec<String>>,
    max_selections: Option<usize>,
    max_recursion: Option<usize>,
    header_timeout_secs: Option<u64>,
    max_connections: Option<usize>,
    max_connections_per_addr: Option<usize>,
    max_sockets: Option<usize>,
    max_sockets_per_addr: Option<usize>,
    max_socket_operations: Option<usize>,
    socket_init_timeout_secs: Option<u64>,
    min_free_bytes: Option<u64>,
    max_journal_bytes: Option<u64>,
    cache_mib: Option<u64>,
    store_cache_mib: Option<u64>,
    bot_threads: Option<u16>,
    bot_max_iterations: Option<u32>,
    eval_threads: Option<u16>,
    review_threads: Option<u16>,
    review_iterations: Option<u32>,
    dataset_interval: Option<u64>,
    dataset_dir: Option<PathBuf>,
    log_json: Option<bool>,
}

/// The settings in force.
#[derive(Clone)]
pub struct Settings {
    pub listen: SocketAddr,
    pub data_dir: PathBuf,
    /// `None`: sled in `data_dir`; else the NATS servers' URLs.
    pub nats: Option<String>,
    pub nats_replicas: usize,
    pub nats_stream: String,
    /// A request's bound on the cluster, retries included, and one attempt's.
    pub nats_timeout: std::time::Duration,
    pub nats_attempt: std::time::Duration,
    /// The state-hash key this node was given (`--state-hash-key-file`), if any.
    pub state_hash_key: Option<[u8; 16]>,
    pub samples_dir: Option<PathBuf>,
    pub load_samples: bool,
    pub api: api::ApiConfig,
    pub store: store::Config,
    pub log_json: bool,
}

pub fn settings(args: ServeArgs) -> Result<Settings> {
    let file: FileConfig = match &args.config {
        Some(p) => {
            let text =
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            toml::from_str(&text).with_context(|| format!("parsing {}", p.display()))?
        }
        None => FileConfig::default(),
    };
    let defaults = api::ApiConfig::default();
    let d = &defaults.limits;
    let limits = api::limits::Limits {
        max_nesting: args
            .max_nesting
            .or(file.max_nesting)
            .unwrap_or(d.max_nesting),
        max_depth: args.max_depth.or(file.max_depth).unwrap_or(d.max_depth),
        max_complexity: args
            .max_complexity
            .or(file.max_complexity)
            .unwrap_or(d.max_complexity),
        max_aliases: args
            .max_aliases
            .or(file.max_aliases)
            .unwrap_or(d.max_aliases),
        max_response_bytes: args
            .max_response_bytes
            .or(file.max_response_bytes)
            .unwrap_or(d.max_response_bytes),
        max_body: args.max_body.or(file.max_body).unwrap_or(d.max_body),
        timeout: args
            .timeout_secs
            .or(file.timeout_secs)
            .map_or(d.timeout, Duration::from_secs),
        rate_per_second: args
            .rate_limit
            .or(file.rate_limit)
            .unwrap_or(d.rate_per_second),
        rate_burst: args.rate_burst.or(file.rate_burst).unwrap_or(d.rate_burst),
        max_batch: args.max_batch.or(file.max_batch).unwrap_or(d.max_batch),
        max_selections: args
            .max_selections
            .or(file.max_selections)
            .unwrap_or(d.max_selections),
        max_recursion: args
            .max_recursion
            .or(file.max_recursion)
            .unwrap_or(d.max_recursion),
        header_timeout: args
            .header_timeout_secs
            .or(file.header_timeout_secs)
            .map_or(d.header_timeout, Duration::from_secs),
        max_connections: args
            .max_connections
            .or(file.max_connections)
            .unwrap_or(d.max_connections),
        max_connections_per_addr: args
            .max_connections_per_addr
            .or(file.max_connections_per_addr)
            .unwrap_or(d.max_connections_per_addr),
        max_sockets: args
            .max_sockets
            .or(file.max_sockets)
            .unwrap_or(d.max_sockets),
        max_sockets_per_addr: args
            .max_sockets_per_addr
            .or(file.max_sockets_per_addr)
            .unwrap_or(d.max_sockets_per_addr),
        max_socket_operations: args
            .max_socket_operations
            .or(file.max_socket_operations)
            .unwrap_or(d.max_socket_operations),
        socket_init_timeout: args
            .socket_init_timeout_secs
            .or(file.socket_init_timeout_secs)
            .map_or(d.socket_init_timeout, Duration::from_secs),
    };
    let data_dir = args
        .data_dir
        .or(file.data_dir)
        .unwrap_or_else(|| PathBuf::from("./var/ludolog"));
    let nats = match args.store.or(file.store).as_deref() {
        None | Some("sled") => None,
        Some(url) if url.starts_with("nats://") => {
            let urls: Vec<String> = url.split(',').map(str::to_string).collect();
            store_nats::parse_urls(&urls).map_err(|e| anyhow::anyhow!("--store: {e}"))?;
            Some(url.to_string())
        }
        Some(other) => anyhow::bail!(
            "--store {other}: say `sled` (the embedded store) or nats://host:port[,nats://host:port…]"
        ),
    };
    Ok(Settings {
        listen: args
            .listen
            .or(file.listen)
            .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8080))),
        nats,
        nats_replicas: args.store_replicas.or(file.store_replicas).unwrap_or(3),
        nats_stream: args
            .store_stream
            .or(file.store_stream)
            .unwrap_or_else(|| "LUDOLOG".into()),
        nats_timeout: std::time::Duration::from_millis(
            args.store_timeout_ms
                .or(file.store_timeout_ms)
                .unwrap_or(10_000),
        ),
        nats_attempt: std::time::Duration::from_millis(
            args.store_attempt_ms
                .or(file.store_attempt_ms)
                .unwrap_or(1_000),
        ),
        state_hash_key: args
            .state_hash_key_file
            .or(file.state_hash_key_file)
            .map(|p| crate::hashkey::read_key_file(&p))
            .transpose()?,
        samples_dir: args.samples_dir.or(file.samples_dir),
        load_samples: !(args.no_samples || file.no_samples.unwrap_or(false)),
        log_json: args.log_json || file.log_json.unwrap_or(false),
        store: store::Config {
            cache_bytes: args
                .store_cache_mib
                .or(file.store_cache_mib)
                .map_or(store::Config::default().cache_bytes, |m| m << 20),
            min_free_bytes: args
                .min_free_bytes
                .or(file.min_free_bytes)
                .unwrap_or(store::Config::default().min_free_bytes),
            max_journal_bytes: args
                .max_journal_bytes
                .or(file.max_journal_bytes)
                .unwrap_or(store::Config::default().max_journal_bytes),
            ..store::Config::default()
        },
        api: api::ApiConfig {
            admin_token: admin_token(args.admin_token.or(file.admin_token))?,
            annotators: annotators(args.annotators.or(file.annotators).unwrap_or_default())?,
            limits,
            cors_origins: args
                .cors_origin
                .or(file.cors_origin)
                .unwrap_or_else(|| defaults.cors_origins.clone()),
            response_cache_bytes: args
                .cache_mib
                .or(file.cache_mib)
                .map_or(defaults.response_cache_bytes, |m| m.saturating_mul(1 << 20)),
            bots: api::bots::BotConfig {
                players: Some(crate::games::bot_players()?),
                threads: usize::from(args.bot_threads.or(file.bot_threads).unwrap_or(1)),
                max_iterations: args
                    .bot_max_iterations
                    .or(file.bot_max_iterations)
                    .unwrap_or(api::bots::DEFAULT_MAX_ITERATIONS)
                    .clamp(1, ai::MAX_ITERATIONS),
                evaluations: usize::from(args.eval_threads.or(file.eval_threads).unwrap_or(1)),
            },
            reviews: review::Config {
                threads: usize::from(args.review_threads.or(file.review_threads).unwrap_or(1)),
                iterations: args
                    .review_iterations
                    .or(file.review_iterations)
                    .unwrap_or(review::Config::default().iterations),
            },
            datasets: match args
                .dataset_interval
                .or(file.dataset_interval)
                .unwrap_or(300)
            {
                0 => None,
                secs => Some(api::datasets::DatasetConfig {
                    dir: args
                        .dataset_dir
                        .clone()
                        .or(file.dataset_dir)
                        .unwrap_or_else(|| data_dir.join("datasets")),
                    interval: std::time::Duration::from_secs(secs),
                }),
            },
            ..defaults
        },
        data_dir,
    })
}

fn init_logs(json: bool) {
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    // Colour only for a person at a terminal: a log file or a collector gets plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(std::io::stderr);
    if json {
        let _ = builder.json().try_init();
    } else {
        let _ = builder.try_init();
    }
}

pub fn serve(args: ServeArgs) -> Result<()> {
    let s = settings(args)?;
    init_logs(s.log_json);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let store = if s.nats.is_some() {
        // A shared store may be away when the node starts: the node listens, unready, and
        // opens it when it answers (`api::http::gate`).
        runtime.block_on(run(None, s))?
    } else {
        // The embedded store is this process's own: if it cannot be opened, say so and stop.
        let opened = open_store(&s)?;
        runtime.block_on(run(Some(opened), s))?
    };
    if let Some(store) = store {
        store.flush()?;
        tracing::info!("store flushed; bye");
    }
    Ok(())
}

/// A store ready to serve, with its analysis attached.
type Opened = (
    Arc<dyn GameLog>,
    Arc<analysis::Analysis>,
    crate::hashkey::HashKey,
);

/// Opens the store the settings name, attaches the analysis, loads the samples into an empty
/// store.
fn open_store(s: &Settings) -> Result<Opened> {
    let store: Arc<dyn GameLog> = match &s.nats {
        None => Arc::new(crate::storecmd::open_with(&s.data_dir, s.store.clone())?),
        Some(urls) => {
            let config = store_nats::NatsConfig {
                store: s.store.clone(),
                replicas: s.nats_replicas,
                timeout: s.nats_timeout,
                attempt: s.nats_attempt,
                ..store_nats::NatsConfig::from_urls(urls).with_stream(&s.nats_stream)
            };
            let log = store_nats::NatsLog::open(config, crate::games::registry(), &s.data_dir)
                .with_context(|| format!("opening the store on {urls}"))?;
            tracing::info!(%urls, "game logs on NATS JetStream");
            Arc::new(log)
        }
    };
    let (analysis, key) =
        crate::storecmd::attach_analysis_keyed(&*store, &s.data_dir, s.state_hash_key)?;
    if s.load_samples && store.game_count() == 0 {
        match &s.samples_dir {
            Some(dir) => load_samples(&*store, dir)?,
            None => load_builtin_samples(&*store)?,
        }
    }
    Ok((store, analysis, key))
}

/// The sample games shipped in the binary (`data/samples/`), so `serve` has them wherever it
/// is run from.
const SAMPLES: [(&str, &[u8]); 3] = [
    (
        "caledonia",
        include_bytes!("../../../data/samples/caledonia.ndjson"),
    ),
    (
        "five-tribes",
        include_bytes!("../../../data/samples/five-tribes.ndjson"),
    ),
    (
        "mombasa",
        include_bytes!("../../../data/samples/mombasa.ndjson"),
    ),
];

fn load_builtin_samples(store: &dyn GameLog) -> Result<()> {
    for (name, bytes) in SAMPLES {
        let summary = crate::storecmd::import_from(store, name, bytes, bytes.len() as u64, false)?;
        tracing::info!(
            samples = name,
            imported = summary.imported,
            rejected = summary.rejected,
            "samples loaded"
        );
    }
    Ok(())
}

fn load_samples(store: &dyn GameLog, dir: &Path) -> Result<()> {
    let Ok(read) = std::fs::read_dir(dir) else {
        tracing::warn!(dir = %dir.display(), "no samples directory; starting empty");
        return Ok(());
    };
    let mut files: Vec<PathBuf> = read
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ndjson"))
        .collect();
    files.sort();
    for f in files {
        let summary = crate::storecmd::import(store, &f, false)?;
        tracing::info!(file = %f.display(), imported = summary.imported, rejected = summary.rejected, "samples loaded");
    }
    Ok(())
}

/// Serves until SIGTERM or Ctrl-C: the store `opened`, or else the shared store the settings
/// name, opened in the background (tried every two seconds) while the node answers
/// `UNAVAILABLE`. Returns the store, if it was opened, for the caller to flush.
async fn run(opened: Option<Opened>, s: Settings) -> Result<Option<Arc<dyn GameLog>>> {
    let control = api::auth::new_token().map_err(|e| anyhow::anyhow!("no randomness: {e}"))?;
    let config = api::ApiConfig {
        control_token: Some(control.clone()),
        ..s.api.clone()
    };
    let serving = move |(store, analysis, key): Opened| {
        let config = api::ApiConfig {
            state_hash_key: key.key,
            state_hash_refused: key.refused,
            ..config.clone()
        };
        let app = api::App::new(store, analysis, config);
        api::http::router(app).layer(tower_http_trace())
    };
    let store = Arc::new(std::sync::OnceLock::<Arc<dyn GameLog>>::new());
    let router = match opened {
        Some(o) => {
            let _ = store.set(o.0.clone());
            serving(o)
        }
        None => {
            let gate = api::http::gate::Gate::new("opening the store");
            let (opening, store, s) = (gate.clone(), store.clone(), s.clone());
            tokio::spawn(async move {
                let gate = opening;
                let mut said = String::new();
                loop {
                    let s = s.clone();
                    match tokio::task::spawn_blocking(move || open_store(&s)).await {
                        Ok(Ok(o)) => {
                            let _ = store.set(o.0.clone());
                            gate.open(serving(o));
                            tracing::info!("store open: serving");
                            return;
                        }
                        Ok(Err(e)) => {
                            let why = format!("{e:#}");
                            if why != said {
                                tracing::error!(error = %why, "the store cannot be opened yet; unready, trying again every 2 s");
                                said = why.clone();
                            }
                            gate.waiting(why);
                        }
                        Err(e) => gate.waiting(format!("opening the store: {e}")),
                    }
                    tokio::time::sleep(Duration::from_secs(2)).await;
                }
            });
            gate.router()
        }
    };
    let listener = tokio::net::TcpListener::bind(s.listen)
        .await
        .with_context(|| format!("binding {}", s.listen))?;
    let addr = listener.local_addr()?;
    std::fs::create_dir_all(&s.data_dir)
        .with_context(|| format!("creating {}", s.data_dir.display()))?;
    let runtime_file = crate::storecmd::RuntimeFile::write(&s.data_dir, addr, &control)?;
    println!("Ludolog is listening on http://{addr}/graphql (GraphiQL: open it in a browser)");
    tracing::info!(%addr, data_dir = %s.data_dir.display(), "listening");
    // Connections capped and their heads under a deadline; each request carries its peer's
    // address, so the rate limit and the socket caps can tell clients apart.
    api::http::listen::serve(listener, router, &s.api.limits, shutdown_signal()).await;
    tracing::info!("shutting down");
    drop(runtime_file);
    Ok(store.get().cloned())
}

fn tower_http_trace() -> tower_http::trace::TraceLayer<
    tower_http::classify::SharedClassifier<tower_http::classify::ServerErrorsAsFailures>,
> {
    tower_http::trace::TraceLayer::new_for_http()
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

/// The admin token, if set (an empty one is none), held to the rule every token follows.
fn admin_token(token: Option<String>) -> Result<Option<String>> {
    let Some(token) = token.filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    // The error names the rule, never the text (it may be a secret).
    api::auth::check_token(&token).map_err(|e| anyhow::anyhow!("--admin-token: {e}"))?;
    Ok(Some(token))
}

/// Annotation tokens from `NAME=TOKEN` items: names as players' are, tokens as every token
/// is (`api::auth::check_token`).
fn annotators(items: Vec<String>) -> Result<Vec<(String, String)>> {
    let mut out: Vec<(String, String)> = Vec::new();
    for item in items.iter().filter(|i| !i.trim().is_empty()) {
        let Some((name, token)) = item.split_once('=') else {
            // Not echoed: the text may be a token.
            anyhow::bail!("an annotator is `NAME=TOKEN`; one item has no `=`");
        };
        let name = name.trim();
        store::store::check_name(name).map_err(|e| anyhow::anyhow!("annotator name: {e}"))?;
        api::auth::check_token(token).map_err(|e| anyhow::anyhow!("annotator {name}: {e}"))?;
        if out.iter().any(|(n, t)| n == name || t == token) {
            anyhow::bail!("annotator {name} (or its token) is given twice");
        }
        out.push((name.to_string(), token.to_string()));
    }
    Ok(out)
}
