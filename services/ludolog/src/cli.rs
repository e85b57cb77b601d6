//! The command line's shape: every command, its arguments and their help. `main` runs them.

use clap::builder::TypedValueParser;
use clap::{Parser, Subcommand};
use rules_core::GameKind;
use std::path::PathBuf;

/// `--kind`/`--game` values: the kinds, listed in `--help` and in the error for a wrong one.
pub fn kind_parser() -> impl clap::builder::TypedValueParser<Value = GameKind> {
    clap::builder::PossibleValuesParser::new(GameKind::ALL.map(|k| k.as_str()))
        .map(|s| s.parse::<GameKind>().expect("a listed kind parses"))
}

#[derive(Parser)]
#[command(
    name = "ludolog",
    version,
    about = "Record, replay and analyse euro board games"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(clap::Args, Clone)]
pub struct DataDir {
    /// Where the store lives.
    #[arg(long, env = "LUDOLOG_DATA_DIR", default_value = "./var/ludolog")]
    pub data_dir: PathBuf,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run the GraphQL service (GraphiQL at /graphql).
    Serve(Box<crate::serve::ServeArgs>),
    /// Print the GraphQL schema (SDL), as schema/schema.graphql holds it; with `--views`,
    /// write each game's view and layout JSON Schema instead (schema/views/ holds them).
    Schema {
        /// Folder to write `<kind>.schema.json` and `<kind>.layout.schema.json` into.
        #[arg(long, value_name = "DIR")]
        views: Option<std::path::PathBuf>,
    },
    /// Play seeded random legal games and report their speed and scores.
    Simulate {
        /// Game kind, e.g. five-tribes.
        #[arg(long)]
        #[arg(value_parser = kind_parser())]
        game: GameKind,
        /// Seats in every game.
        #[arg(long, default_value_t = 4)]
        players: u8,
        /// How many games to play.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Seed of the run: each game is dealt from a seed that follows from it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Print each game's log (notation, one entry per line) to stderr.
        #[arg(long)]
        log: bool,
    },
    /// Play games between bots and write them as ordinary records (NDJSON, as `export`).
    Selfplay {
        /// Game kind, e.g. five-tribes.
        #[arg(long)]
        #[arg(value_parser = kind_parser())]
        game: GameKind,
        /// Player counts, used in turn (e.g. `2,3,4`).
        #[arg(long, value_delimiter = ',', default_value = "2,3,4")]
        players: Vec<u8>,
        /// The bots, comma-separated, in turn through the seats and rotated a seat each game:
        /// `random`, `greedy`, `mcts:N` (N iterations a move, at most 200000) or `mcts:N:greedy`
        /// (greedy rollouts). Each seat is named by its bot.
        #[arg(long, value_delimiter = ',', required = true)]
        bots: Vec<ai::BotSpec>,
        /// How many games to play.
        #[arg(long, default_value_t = 10)]
        games: u64,
        /// Seed of the first game; each game's seed follows from it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once (1 to 64); the games and the file do not depend on it.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        threads: u16,
        /// The NDJSON file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Play bots against each other, seats rotated, and print each bot's games, wins, win rate
    /// with its Wilson 95 % interval, and mean score.
    Arena {
        /// Game kind, e.g. five-tribes.
        #[arg(long)]
        #[arg(value_parser = kind_parser())]
        game: GameKind,
        /// Seats in every game.
        #[arg(long, default_value_t = 2)]
        players: u8,
        /// The bots, comma-separated, in turn through the seats (as `selfplay --bots`).
        #[arg(long, value_delimiter = ',', required = true)]
        bots: Vec<ai::BotSpec>,
        /// How many games to play.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Seed of the run: each game is dealt from a seed that follows from it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once (1 to 64); the result does not depend on it.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        threads: u16,
        /// Print one JSON object (`games`, `players`, `median_winning_score`, `bots`: a list of
        /// `{bot, games, wins, win_rate, low, high, mean_score}`) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Fit the map from the search's raw win chances to probabilities on fresh self-play
    /// games (isotonic, on the even games) and judge it on the others: a reliability table by
    /// decile, the expected calibration error and the Brier skill against 1/players, over all
    /// positions, at mid-game and in the last round. Prints JSON; `--out` keeps it.
    Calibrate {
        /// Game kind, e.g. five-tribes.
        #[arg(long)]
        #[arg(value_parser = kind_parser())]
        game: GameKind,
        /// Seats in every game.
        #[arg(long, default_value_t = 2)]
        players: u8,
        /// The bots that play the games, comma-separated (as `selfplay --bots`).
        #[arg(long, value_delimiter = ',', default_value = "mcts:200")]
        bots: Vec<ai::BotSpec>,
        /// How many games to play (half to fit on, half to judge on).
        #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u64).range(2..=100_000))]
        games: u64,
        /// Seed of the run.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Iterations of each position's evaluation.
        #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=200_000))]
        iterations: u32,
        /// Evaluate every N-th position where a seat chooses.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        every: u32,
        /// Games played at once (1 to 64); the result does not depend on it.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        threads: u16,
        /// Where to write the fit and its report (JSON); printed only when not given.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// List the game kinds, their player counts and rules versions.
    Rules {
        /// Print JSON (with each game's feature names and data coverage) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Import game records (NDJSON, one game per line), validating every entry; with
    /// `--text`, games written by hand (schema/notation/game-text.md).
    Import {
        /// The file to read (NDJSON records, or game text with `--text`).
        file: PathBuf,
        /// The file is game text, not NDJSON records.
        #[arg(long)]
        text: bool,
        /// Stop at the first bad record instead of going on with the next line.
        #[arg(long)]
        strict: bool,
        /// Exit with success even when some records were rejected (they are still reported).
        #[arg(long)]
        allow_rejects: bool,
        #[command(flatten)]
        data: DataDir,
    },
    /// Export game records as NDJSON (finished games; see --include-active); with `--text`,
    /// as game text (schema/notation/game-text.md), games separated by `---` lines.
    Export {
        /// Write game text, not NDJSON records.
        #[arg(long)]
        text: bool,
        /// Only games of this kind (default: every kind).
        #[arg(long, value_parser = kind_parser())]
        kind: Option<GameKind>,
        /// File to write, or `-` for standard output.
        #[arg(long)]
        out: PathBuf,
        /// Also export active games, with their seeds and every draw dealt so far: a full
        /// backup for the operator. Anyone holding such a file can see those games' future.
        #[arg(long)]
        include_active: bool,
        #[command(flatten)]
        data: DataDir,
    },
    /// Move every game from one store to another — a folder (the embedded store) or a NATS
    /// JetStream cluster, `nats://host:port[,…]` — and verify that the destination exports
    /// exactly what the source does. The destination must be empty.
    Migrate {
        /// The source: a data folder or nats://… URLs.
        #[arg(long)]
        from: String,
        /// The destination: a data folder or nats://… URLs.
        #[arg(long)]
        to: String,
        /// Replicas of the stream, when the destination is a NATS store that has none yet.
        #[arg(long, default_value_t = 3)]
        replicas: usize,
        /// The NATS stream's name (as `serve --store-stream`).
        #[arg(long, env = "LUDOLOG_STORE_STREAM", default_value = "LUDOLOG")]
        stream: String,
    },
    /// Replay every stored game (every revision of a corrected one) under the rules version and
    /// data it was recorded with, checking its length, stored states, status and outcome; then
    /// replay those recorded under an older rules version under the current one and report
    /// which would end differently, and where each departs. Exits non-zero if any game no
    /// longer replays as recorded. Works while `serve` holds the store (on a copy it makes).
    Verify {
        /// Only games of this kind (default: every kind).
        #[arg(long, value_parser = kind_parser())]
        kind: Option<GameKind>,
        /// A NATS JetStream store (`nats://host:port[,…]`) instead of the folder.
        #[arg(long, env = "LUDOLOG_STORE")]
        store: Option<String>,
        /// The NATS stream's name (as `serve --store-stream`).
        #[arg(long, env = "LUDOLOG_STORE_STREAM", default_value = "LUDOLOG")]
        stream: String,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        data: DataDir,
    },
    /// Copy the store into a new folder, consistently, even while `serve` runs on it
    /// (every move acknowledged before the backup starts is in the copy).
    Backup {
        /// The new folder (must not exist, or be empty).
        #[arg(long)]
        to: PathBuf,
        #[command(flatten)]
        data: DataDir,
    },
    /// Print the view of a game at a ply as JSON.
    Replay {
        /// The game's id (as `ludolog export` and the API show it).
        game: String,
        /// Ply (number of entries applied); default: the latest.
        #[arg(long)]
        ply: Option<u32>,
        /// See as this seat (default: a spectator).
        #[arg(long)]
        seat: Option<u8>,
        #[command(flatten)]
        data: DataDir,
    },
    /// Statistics of the finished games of a kind (win rates by seat and tag, scores, lengths).
    Stats {
        /// The game kind.
        #[arg(long, value_parser = kind_parser())]
        kind: GameKind,
        /// Only games with this many seats.
        #[arg(long)]
        players: Option<usize>,
        /// Only games this player took part in (by name).
        #[arg(long)]
        player: Option<String>,
        /// Only games in which some seat has this tag (e.g. `djinn:haurvatat`).
        #[arg(long)]
        tag: Option<String>,
        /// Games created at or after this time (RFC 3339, e.g. 2026-01-01T00:00:00Z).
        #[arg(long)]
        since: Option<chrono::DateTime<chrono::Utc>>,
        /// Games created before this time (RFC 3339).
        #[arg(long)]
        until: Option<chrono::DateTime<chrono::Utc>>,
        /// `json` (default) or `csv`.
        #[arg(long, default_value = "json")]
        format: String,
        #[command(flatten)]
        data: DataDir,
    },
    /// Player ratings of a game kind (Weng-Lin / OpenSkill), best first.
    Ratings {
        /// The game kind.
        #[arg(long, value_parser = kind_parser())]
        kind: GameKind,
        #[command(flatten)]
        data: DataDir,
    },
    /// Export a table for analysts (finished games only): `games` (a row per game and seat),
    /// `moves` (a row per entry) or `evaluations` (a row per position and seat of the reviewed
    /// games), as CSV or NDJSON. Columns: schema/exports.md.
    Table {
        /// The game kind.
        #[arg(long, value_parser = kind_parser())]
        kind: GameKind,
        /// `games`, `moves` or `evaluations`.
        #[arg(long)]
        table: String,
        /// `csv` or `ndjson`.
        #[arg(long, default_value = "csv")]
        format: String,
        /// File to write, or `-` for standard output.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        data: DataDir,
    },
    /// Write the open datasets (finished games only): per game kind and month of the game's
    /// end, Parquet files of games, seats, moves, positions and evaluations, and a
    /// `manifest.json` (schema/datasets.md). Months already written and unchanged are kept.
    /// Prints what it did as one JSON object.
    Dataset {
        /// The dataset's folder (made if missing).
        #[arg(long)]
        out: PathBuf,
        /// Only this game kind (default: every kind).
        #[arg(long, value_parser = kind_parser())]
        kind: Option<GameKind>,
        /// Only check every file in `--out` against the manifest's size and SHA-256; exits with
        /// an error naming the files that differ. The store is not opened.
        #[arg(long)]
        verify: bool,
        #[command(flatten)]
        data: DataDir,
    },
    /// Export the indexed positions of finished games that pass a CEL filter, as NDJSON
    /// (`--where 'round == 3 && seats.exists(s, s.viziers >= 5)'`; names: `ludolog rules --json`).
    Positions {
        /// The game kind.
        #[arg(long, value_parser = kind_parser())]
        kind: GameKind,
        /// A CEL expression over the position's features (default: every position).
        #[arg(long = "where")]
        filter: Option<String>,
        /// Output file (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write only how many positions were scanned and how many match, as one JSON object
        /// (`{"scanned":…,"matched":…}`), not the positions.
        #[arg(long)]
        count: bool,
        /// Workers filtering the index (default: one per core); the output is the same for any
        /// number.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        #[command(flatten)]
        data: DataDir,
    },
    /// Review finished games now (what `serve` does in the background): every position
    /// evaluated, every seat move judged, kept in the store; one JSON line per game (seats'
    /// accuracy, moves by class, mean loss of win chance; seconds taken).
    Review {
        /// Games to review (default: every finished game without a current review).
        #[arg(long = "game", value_name = "ID")]
        games: Vec<String>,
        /// Iterations of each position's search (the default is `serve`'s).
        #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=200_000))]
        iterations: u32,
        /// Games reviewed at once, a core each.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Review again games whose review is current.
        #[arg(long)]
        again: bool,
        #[command(flatten)]
        data: DataDir,
    },
    /// The explorer of decisions: the moves finished games played from a node, with how they
    /// went for their movers (one JSON object). The node is a game's position (`--game ID
    /// --ply N`) or a hash (`--kind K --players N --hash H`).
    Explorer(Box<crate::explore::ExplorerArgs>),
    /// Recompute snapshots, indexes and projections from the logs.
    Rebuild {
        #[command(flatten)]
        data: DataDir,
    },
    /// Make sample records: random games played through a scratch store, exported.
    Sample {
        /// The game kind.
        #[arg(long)]
        #[arg(value_parser = kind_parser())]
        game: GameKind,
        /// Player counts, used in turn (e.g. `2,3,4`).
        #[arg(long, value_delimiter = ',', default_value = "2,3,4")]
        players: Vec<u8>,
        /// How many games to make.
        #[arg(long, default_value_t = 200)]
        games: u64,
        /// Seed of the first game; each game's seed follows from it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The NDJSON file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Load generators and measurements (ops/BENCHMARKS.md tells which figures they make).
    #[command(subcommand)]
    Bench(Bench),
    /// Append forever, printing each acknowledged ply (for the crash test).
    #[command(hide = true)]
    CrashChild {
        /// Concurrent writers, each on a game of its own.
        #[arg(long, default_value_t = 1)]
        writers: usize,
        /// Also correct finished games as they come, from one more thread, printing each
        /// acknowledged revision.
        #[arg(long)]
        corrector: bool,
        #[command(flatten)]
        data: DataDir,
    },
}

/// `ludolog bench <what>`.
#[derive(Subcommand)]
pub enum Bench {
    /// Time information-set MCTS at decision positions of seeded random games, beside plain
    /// random playouts from the same positions (prints one JSON object).
    Search {
        /// Game kind, e.g. five-tribes.
        #[arg(long)]
        #[arg(value_parser = kind_parser())]
        game: GameKind,
        /// Seats in every game.
        #[arg(long, default_value_t = 2)]
        players: u8,
        /// How many positions to search.
        #[arg(long, default_value_t = 20)]
        positions: usize,
        /// Iterations a search (and random playouts a position).
        #[arg(long, default_value_t = 1000)]
        iterations: u32,
        /// Seed of the games the positions come from.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Measure durable appends per second with concurrent writers, one game each.
    Append {
        /// Concurrent writers, each appending to a game of its own.
        #[arg(long, default_value_t = 16)]
        writers: usize,
        /// How long to measure, in seconds.
        #[arg(long, default_value_t = 10.0)]
        seconds: f64,
        /// Measure a NATS JetStream store (`nats://host:port[,…]`) instead of the folder's.
        #[arg(long)]
        store: Option<String>,
        /// With `--store`: replicas of the stream (created for the run).
        #[arg(long, default_value_t = 3)]
        replicas: usize,
        #[command(flatten)]
        data: DataDir,
    },
    /// Measure explorer queries at nodes of random decisions of the stored games (one JSON
    /// object: p50/p99, the largest nodes apart, the explorer's rows and bytes).
    Explorer {
        /// How many queries to time.
        #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        queries: u64,
        /// Seed of the random choice of games and decisions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also write, for a reference run (ops/bench/explorer-vs-duckdb.sh), every kind's
        /// rows (`<kind>.rows`, as the run files hold them) and seats' figures
        /// (`<kind>.seats.csv`), and the queries timed with each node's games
        /// (`queries.csv`), into this folder.
        #[arg(long)]
        dump: Option<std::path::PathBuf>,
        #[command(flatten)]
        data: DataDir,
    },
    /// Measure writing the open datasets: the finished games of a kind as one month, each
    /// table alone and then all five, into a temporary folder (one JSON object).
    Dataset {
        /// The game kind.
        #[arg(long, value_parser = kind_parser(), default_value = "five-tribes")]
        kind: GameKind,
        #[command(flatten)]
        data: DataDir,
    },
    /// Measure the latency of reading the state at random plies of stored games.
    Read {
        /// How many reads to time.
        #[arg(long, default_value_t = 10_000)]
        reads: usize,
        /// Seed of the random choice of games and plies.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        data: DataDir,
    },
    /// Generate random game records in memory and measure importing them (speed, disk, memory).
    Import {
        /// How many game records to generate and import.
        #[arg(long, default_value_t = 10_000)]
        games: u64,
        /// Seed of the generated games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        data: DataDir,
    },
    /// Measure `statistics` latency over the stored games' projections.
    Stats {
        /// How many `statistics` queries to time.
        #[arg(long, default_value_t = 300)]
        queries: usize,
        #[command(flatten)]
        data: DataDir,
    },
    /// Measure position queries: full scans of the feature index with a CEL filter.
    Positions {
        /// The game kind whose index is scanned.
        #[arg(long, default_value = "five-tribes", value_parser = kind_parser())]
        kind: GameKind,
        /// The CEL filter of every scan.
        #[arg(
            long = "where",
            default_value = "round == 3 && seats.exists(s, s.viziers >= 5)"
        )]
        filter: String,
        /// How many times each scan is repeated.
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Workers for the parallel scans (default: one per core).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        #[command(flatten)]
        data: DataDir,
    },
}
