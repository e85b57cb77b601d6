//! `ludolog serve`: the GraphQL service on the embedded store.
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

/// `ludolog serve` settings (every flag also reads `LUDOLOG_<NAME>` and the TOML file).
#[derive(clap::Args, Debug, Default)]
pub struct ServeArgs {
    /// Address to listen on [default: 127.0.0.1:8080].
    #[arg(long, env = "LUDOLOG_LISTEN")]
    pub listen: Option<SocketAddr>,
    /// Where the store lives [default: ./var/ludolog].
    #[arg(long, env = "LUDOLOG_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// Sample records imported into an empty store [default: data/samples].
    #[arg(long, env = "LUDOLOG_SAMPLES_DIR")]
    pub samples_dir: Option<PathBuf>,
    /// Do not import the samples into an empty store.
    #[arg(long, env = "LUDOLOG_NO_SAMPLES")]
    pub no_samples: bool,
    /// Token for `importGame`; without one, imports are refused.
    #[arg(long, env = "LUDOLOG_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// Longest a request may take, in seconds [default: 30].
    #[arg(long, env = "LUDOLOG_TIMEOUT_SECS")]
    pub timeout_secs: Option<u64>,
    /// Largest request body, in bytes [default: 8388608].
    #[arg(long, env = "LUDOLOG_MAX_BODY")]
    pub max_body: Option<usize>,
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
    samples_dir: Option<PathBuf>,
    no_samples: Option<bool>,
    admin_token: Option<String>,
    timeout_secs: Option<u64>,
    max_body: Option<usize>,
    log_json: Option<bool>,
}

/// The settings in force.
pub struct Settings {
    pub listen: SocketAddr,
    pub data_dir: PathBuf,
    pub samples_dir: PathBuf,
    pub load_samples: bool,
    pub api: api::ApiConfig,
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
    let data_dir = args
        .data_dir
        .or(file.data_dir)
        .unwrap_or_else(|| PathBuf::from("./var/ludolog"));
    Ok(Settings {
        listen: args
            .listen
            .or(file.listen)
            .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8080))),
        samples_dir: args
            .samples_dir
            .or(file.samples_dir)
            .unwrap_or_else(|| PathBuf::from("data/samples")),
        load_samples: !(args.no_samples || file.no_samples.unwrap_or(false)),
        log_json: args.log_json || file.log_json.unwrap_or(false),
        api: api::ApiConfig {
            admin_token: args
                .admin_token
                .or(file.admin_token)
                .filter(|t| !t.is_empty()),
            timeout: Duration::from_secs(
                args.timeout_secs
                    .or(file.timeout_secs)
                    .unwrap_or(defaults.timeout.as_secs()),
            ),
            max_body: args.max_body.or(file.max_body).unwrap_or(defaults.max_body),
            state_hash_key: crate::storecmd::state_hash_key(&data_dir)?,
            ..defaults
        },
        data_dir,
    })
}

fn init_logs(json: bool) {
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
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
    let (store, analysis) = crate::storecmd::open_analysed(&s.data_dir)?;
    let store = Arc::new(store);
    if s.load_samples && store.game_count() == 0 {
        load_samples(&store, &s.samples_dir)?;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(run(store.clone(), analysis, s))?;
    store.flush()?;
    tracing::info!("store flushed; bye");
    Ok(())
}

fn load_samples(store: &store::Store, dir: &Path) -> Result<()> {
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

async fn run(
    store: Arc<store::Store>,
    analysis: Arc<analysis::Analysis>,
    s: Settings,
) -> Result<()> {
    let app = api::App::new(store, analysis, s.api.clone());
    let router = api::http::router(app).layer(tower_http_trace());
    let listener = tokio::net::TcpListener::bind(s.listen)
        .await
        .with_context(|| format!("binding {}", s.listen))?;
    let addr = listener.local_addr()?;
    println!("Ludolog is listening on http://{addr}/graphql (GraphiQL: open it in a browser)");
    tracing::info!(%addr, data_dir = %s.data_dir.display(), "listening");
    axum::serve(listener, router)
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    tracing::info!("shutting down");
    Ok(())
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
