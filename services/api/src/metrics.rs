//! Prometheus text metrics: request counts and latencies, appends, store size.
//!
//! A handful of atomic counters and one fixed-bucket histogram, rendered on `/metrics`.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

const BUCKETS: [f64; 10] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0];

#[derive(Default)]
pub struct Metrics {
    pub requests: AtomicU64,
    pub request_errors: AtomicU64,
    latency_buckets: [AtomicU64; 10],
    latency_count: AtomicU64,
    latency_sum_micros: AtomicU64,
    pub appends: AtomicU64,
    pub games_created: AtomicU64,
    pub subscriptions: AtomicU64,
    /// Answers served from the answer cache (`http::cache`), and kept in it.
    pub cache_hits: AtomicU64,
    pub cache_inserts: AtomicU64,
    /// Moves the server's bots played, and the times a bot could not move.
    pub bot_moves: AtomicU64,
    pub bot_errors: AtomicU64,
}

impl Metrics {
    pub fn observe(&self, seconds: f64, error: bool) {
        self.requests.fetch_add(1, Relaxed);
        if error {
            self.request_errors.fetch_add(1, Relaxed);
        }
        for (i, b) in BUCKETS.iter().enumerate() {
            if seconds <= *b {
                self.latency_buckets[i].fetch_add(1, Relaxed);
            }
        }
        self.latency_count.fetch_add(1, Relaxed);
        self.latency_sum_micros
            .fetch_add((seconds * 1e6) as u64, Relaxed);
    }

    /// The metrics as Prometheus text, with the gauges the caller measures: the store's size
    /// and game count, and the weight of the kept answers (`http::cache`).
    pub fn render(
        &self,
        store_bytes: u64,
        games: usize,
        cache_bytes: u64,
        bots_waiting: usize,
    ) -> String {
        let mut s = String::new();
        let mut counter = |name: &str, help: &str, v: u64| push(&mut s, name, "counter", help, v);
        counter(
            "ludolog_graphql_requests_total",
            "GraphQL requests served.",
            self.requests.load(Relaxed),
        );
        counter(
            "ludolog_graphql_errors_total",
            "GraphQL requests answered with errors.",
            self.request_errors.load(Relaxed),
        );
        counter(
            "ludolog_answer_cache_hits_total",
            "GraphQL answers about finished games served as kept bytes.",
            self.cache_hits.load(Relaxed),
        );
        counter(
            "ludolog_answer_cache_inserts_total",
            "GraphQL answers about finished games kept.",
            self.cache_inserts.load(Relaxed),
        );
        counter(
            "ludolog_appends_total",
            "Moves appended through playMove.",
            self.appends.load(Relaxed),
        );
        counter(
            "ludolog_games_created_total",
            "Games created through createGame.",
            self.games_created.load(Relaxed),
        );
        counter(
            "ludolog_bot_moves_total",
            "Moves played by the server's bots.",
            self.bot_moves.load(Relaxed),
        );
        counter(
            "ludolog_bot_errors_total",
            "Times a bot of the server could not move (logged with the game).",
            self.bot_errors.load(Relaxed),
        );
        counter(
            "ludolog_subscriptions_total",
            "gameUpdates subscriptions started.",
            self.subscriptions.load(Relaxed),
        );
        s.push_str("# HELP ludolog_graphql_request_seconds GraphQL request latency.\n# TYPE ludolog_graphql_request_seconds histogram\n");
        for (i, b) in BUCKETS.iter().enumerate() {
            s.push_str(&format!(
                "ludolog_graphql_request_seconds_bucket{{le=\"{b}\"}} {}\n",
                self.latency_buckets[i].load(Relaxed)
            ));
        }
        let count = self.latency_count.load(Relaxed);
        s.push_str(&format!(
            "ludolog_graphql_request_seconds_bucket{{le=\"+Inf\"}} {count}\n"
        ));
        s.push_str(&format!(
            "ludolog_graphql_request_seconds_sum {}\nludolog_graphql_request_seconds_count {count}\n",
            self.latency_sum_micros.load(Relaxed) as f64 / 1e6
        ));
        s.push_str(&format!("# HELP ludolog_store_bytes Bytes the store uses on disk.\n# TYPE ludolog_store_bytes gauge\nludolog_store_bytes {store_bytes}\n"));
        s.push_str(&format!("# HELP ludolog_store_games Games in the store.\n# TYPE ludolog_store_games gauge\nludolog_store_games {games}\n"));
        s.push_str(&format!("# HELP ludolog_bot_games_waiting Games waiting for a bot thread.\n# TYPE ludolog_bot_games_waiting gauge\nludolog_bot_games_waiting {bots_waiting}\n"));
        s.push_str(&format!("# HELP ludolog_answer_cache_bytes Bytes the kept answers weigh (keys, bodies, bookkeeping).\n# TYPE ludolog_answer_cache_bytes gauge\nludolog_answer_cache_bytes {cache_bytes}\n"));
        s
    }
}

/// The review projection's queue and progress, as Prometheus text (nothing when this server
/// has no projection: no bots, hence no search).
pub fn reviews(p: Option<&review::Projection>) -> String {
    let Some(p) = p else {
        return String::new();
    };
    let t = p.totals();
    let (running, done, total) = p.running();
    let mut s = String::new();
    let mut line = |name: &str, kind: &str, help: &str, v: String| {
        s.push_str(&format!(
            "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}\n"
        ));
    };
    line(
        "ludolog_review_games_queued",
        "gauge",
        "Finished games waiting to be reviewed.",
        p.queued().to_string(),
    );
    line(
        "ludolog_review_games_running",
        "gauge",
        "Games being reviewed now.",
        running.to_string(),
    );
    line(
        "ludolog_review_running_positions_done",
        "gauge",
        "Positions evaluated of the games being reviewed now.",
        done.to_string(),
    );
    line(
        "ludolog_review_running_positions",
        "gauge",
        "Positions in all of the games being reviewed now.",
        total.to_string(),
    );
    line(
        "ludolog_review_games_total",
        "counter",
        "Games reviewed since start.",
        t.games.load(Relaxed).to_string(),
    );
    line(
        "ludolog_review_positions_total",
        "counter",
        "Positions evaluated by reviews since start.",
        t.positions.load(Relaxed).to_string(),
    );
    line(
        "ludolog_review_failures_total",
        "counter",
        "Games whose review failed (logged with the game).",
        t.failed.load(Relaxed).to_string(),
    );
    line(
        "ludolog_review_threads",
        "gauge",
        "Threads reviewing games (--review-threads).",
        p.config().threads.to_string(),
    );
    s
}

/// Appends one metric in Prometheus' text format (`kind`: `counter` or `gauge`), with its help.
pub fn push(s: &mut String, name: &str, kind: &str, help: &str, v: impl std::fmt::Display) {
    s.push_str(&format!(
        "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}\n"
    ));
}
