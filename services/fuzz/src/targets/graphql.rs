//! `graphql`: whole GraphQL requests against the in-process schema (`api::build_schema`) behind
//! the request guard (`api::guard::Guarded`, limits and panic net included), as the server runs
//! them over HTTP and WebSocket, minus the transport.
//!
//! One store per process (in a temporary folder, on /dev/shm when there is one) with the
//! analysis attached, three sample games of each kind imported (finished, indexed) and one
//! active game of each kind created and played a few plies through the schema itself, so
//! seat tokens exist. Requests run on a current-thread tokio runtime driven from the fuzzing
//! thread (2 MiB of stack unless told otherwise, like the server's runtime threads), store
//! calls on its blocking pool (2 MiB threads, as tokio's default).
//!
//! Input: the request text. A first line `#!admin` or `#!seatN` (a GraphQL comment) sends
//! the admin token or the N-th seat token of the active games; otherwise the caller is a
//! spectator. Variables `id` (the active Five Tribes game), `game`, `ply`, `from`, `to`,
//! `move`, `key`, `hash`, `after`, `players` are always supplied.
//!
//! Invariants: no panic on any thread; the response serializes; no error is `INTERNAL` or
//! `CORRUPT` (a client's request must never reach one); a spectator's response never contains
//! a seat token or an active game's seed (unless the request itself says it). Mutations change
//! the store, so the store is made anew when it has grown by a few thousand games. Nesting of
//! any depth is run (issue 10's stack overflow is fixed in the guard; the seeds nest up to
//! 3,000 levels).

use crate::games::{registry, root, sample_lines};
use crate::target::{Feedback, Target, Violation};
use api::auth::Caller;
use api::guard::Guarded;
use api::schema::LudologSchema;
use api::{ApiConfig, App};
use async_graphql::{Request, Variables};
use rules_core::GameKind;
use serde_json::{json, Value};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;
use store::{Config, GameLog, Store};

const ADMIN: &str = "fuzz-admin-token";
/// Seeds of the active games: long, so they cannot show up in a response by chance.
const ACTIVE_SEEDS: [u64; 3] = [
    7_340_029_914_410_357,
    5_108_862_377_205_901,
    9_227_405_118_660_443,
];
/// Games created by requests before the store is made anew.
const RECYCLE_AFTER: usize = 2_000;

/// Why the GraphQL target could not start.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("temporary folder or runtime: {0}")]
    Io(#[from] std::io::Error),
    #[error("store: {0}")]
    Store(#[from] store::StoreError),
    #[error("analysis: {0}")]
    Analysis(#[from] analysis::AnalysisError),
    #[error("setting up games through the schema: {0}")]
    Schema(String),
}

/// The schema behind the guard, its store and runtime, and what the seeds need to know of it
/// (shared with the `graphql-shapes` target, which runs its documents through the same).
pub(crate) struct Env {
    pub(crate) rt: tokio::runtime::Runtime,
    pub(crate) schema: Guarded<LudologSchema>,
    pub(crate) app: Arc<App>,
    /// Seat tokens of the active games, in order (game, seat).
    tokens: Vec<String>,
    /// Where each active game's tokens start in `tokens`.
    first_token: Vec<usize>,
    /// Texts no spectator may ever see.
    secrets: Vec<String>,
    vars: Value,
    games_at_start: usize,
    finished_ids: Vec<String>,
    active_ids: Vec<String>,
    _dir: tempfile::TempDir,
}

pub(crate) fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .thread_stack_size(2 << 20)
        .max_blocking_threads(16)
        .build()
}

fn exec(env: &Env, query: &str, caller: Caller) -> Value {
    let req = Request::new(query)
        .variables(Variables::from_json(env.vars.clone()))
        .data(caller);
    let resp = env.rt.block_on(env.schema.answer(req));
    serde_json::to_value(&resp).unwrap_or(Value::Null)
}

fn token(t: &str) -> Caller {
    Caller {
        token: Some(t.to_string()),
    }
}

/// A fresh store with sample and active games, and the schema over it behind the guard.
pub(crate) fn setup() -> Result<Env, SetupError> {
    let dir = crate::targets::import::temp_dir("ludolog-fuzz-graphql-")?;
    let store = Store::open(dir.path(), registry(), Config::default())?;
    let analysis = analysis::Analysis::attach(&store, [5; 16])?;
    let mut finished_ids = Vec::new();
    for kind in GameKind::ALL {
        for line in sample_lines(kind).iter().take(3) {
            if let Ok(h) = store.import_line(1, line) {
                finished_ids.push(h.id.to_string());
            }
        }
    }
    store.flush()?;
    let config = ApiConfig {
        admin_token: Some(ADMIN.to_string()),
        state_hash_key: [9; 16],
        ..ApiConfig::default()
    };
    let app = App::new(Arc::new(store), analysis, config);
    let rt = runtime()?;
    let limits = Arc::new(app.config.limits.clone());
    let schema = rt.block_on(async { Guarded::for_schema(api::build_schema(app.clone()), limits) });
    let mut env = Env {
        rt,
        schema,
        app,
        tokens: Vec::new(),
        first_token: Vec::new(),
        secrets: vec![ADMIN.to_string()],
        vars: Value::Null,
        games_at_start: 0,
        finished_ids,
        active_ids: Vec::new(),
        _dir: dir,
    };
    let plans = [
        ("FIVE_TRIBES", json!(["ann", "bob", "cid"])),
        ("CLANS_OF_CALEDONIA", json!(["ann", "bob"])),
        ("MOMBASA", json!(["ann", "bob", "cid"])),
    ];
    for ((kind, players), seed) in plans.iter().zip(ACTIVE_SEEDS) {
        let q = format!(
            "mutation {{ createGame(kind: {kind}, players: {players}, seed: \"{seed}\") {{ game {{ id }} seatTokens }} }}"
        );
        let r = exec(&env, &q, Caller::default());
        let created = &r["data"]["createGame"];
        let id = created["game"]["id"]
            .as_str()
            .ok_or_else(|| SetupError::Schema(format!("createGame answered {r}")))?
            .to_string();
        let toks: Vec<String> = created["seatTokens"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|t| t.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        play_a_little(&env, &id, &toks, 12);
        env.secrets.push(seed.to_string());
        env.secrets.extend(toks.iter().cloned());
        env.first_token.push(env.tokens.len());
        env.tokens.extend(toks);
        env.active_ids.push(id);
    }
    env.games_at_start = env.app.store.game_count();
    env.vars = json!({
        "id": env.active_ids.first(),
        "game": env.finished_ids.first(),
        "ply": 3,
        "from": 0,
        "to": 4,
        "move": "bid 0",
        "key": "fuzz-key",
        "hash": "0123456789abcdef",
        "after": null,
        "players": 3,
    });
    Ok(env)
}

/// Plays `plies` legal moves in game `id` through the schema, as its seats.
fn play_a_little(env: &Env, id: &str, tokens: &[String], plies: usize) {
    for _ in 0..plies {
        let q = format!("{{ game(id: \"{id}\") {{ plies position {{ toAct {{ seat }} }} }} }}");
        let r = exec(env, &q, Caller::default());
        let g = &r["data"]["game"];
        let (Some(ply), Some(seat)) =
            (g["plies"].as_u64(), g["position"]["toAct"]["seat"].as_u64())
        else {
            return;
        };
        let Some(t) = tokens.get(seat as usize) else {
            return;
        };
        let q = format!(
            "{{ game(id: \"{id}\") {{ position {{ legalMoves(first: 1) {{ moves }} }} }} }}"
        );
        let r = exec(env, &q, token(t));
        let Some(m) = r["data"]["game"]["position"]["legalMoves"]["moves"][0].as_str() else {
            return;
        };
        let q = format!(
            "mutation {{ playMove(gameId: \"{id}\", expectedPly: {ply}, move: {}) {{ replayed }} }}",
            Value::String(m.to_string())
        );
        exec(env, &q, token(t));
    }
}

/// Runs one request through the guarded schema on the fuzzing thread. A panic goes on up (the
/// driver records it) after the runtime, which it may have left half-way through a task, is
/// replaced by a fresh one for the next request.
pub(crate) fn answer(env: &mut Env, req: Request) -> async_graphql::Response {
    let ran = catch_unwind(AssertUnwindSafe(|| env.rt.block_on(env.schema.answer(req))));
    match ran {
        Ok(r) => r,
        Err(p) => {
            if let Ok(rt) = runtime() {
                env.rt = rt;
            }
            resume_unwind(p);
        }
    }
}

pub struct Graphql {
    env: Env,
    examples: Vec<String>,
}

impl Graphql {
    pub fn new() -> Result<Graphql, SetupError> {
        let mut examples = Vec::new();
        if let Ok(rd) = std::fs::read_dir(root().join("schema/examples")) {
            let mut paths: Vec<_> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
            paths.sort();
            for p in paths {
                if p.extension().is_some_and(|x| x == "graphql") {
                    if let Ok(t) = std::fs::read_to_string(&p) {
                        examples.push(t);
                    }
                }
            }
        }
        Ok(Graphql {
            env: setup()?,
            examples,
        })
    }
}

/// The stable part of an error message, for features.
pub(crate) fn message_class(m: &str) -> String {
    m.chars()
        .take_while(|c| !matches!(c, '"' | '`' | '\'' | ':'))
        .filter(|c| !c.is_ascii_digit())
        .take(40)
        .collect()
}

fn seeds_for(env: &Env, examples: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in examples {
        out.push(e.clone());
        out.push(format!("#!seat0\n{e}"));
    }
    let fin = &env.finished_ids;
    let act = &env.active_ids;
    for id in fin.iter().step_by(3).chain(act) {
        out.push(format!(
            "{{ game(id: \"{id}\") {{ id kind players options seed status plies rulesVersion dataHash createdAt updatedAt mySeat outcome {{ winners scores {{ seat total breakdown {{ category points }} }} }} }} }}"
        ));
        for ply in ["0", "1", "2", "5", "40"] {
            out.push(format!(
                "{{ game(id: \"{id}\") {{ position(ply: {ply}) {{ ply round phase seatsToAct toAct {{ kind seat }} view stateHash scores {{ seat total breakdown {{ category points }} }} legalMoves(first: 5) {{ total moves }} }} }} }}"
            ));
        }
        out.push(format!(
            "{{ game(id: \"{id}\") {{ moves(first: 5, after: \"2\") {{ edges {{ cursor node {{ ply actor move recordedAt }} }} pageInfo {{ hasNextPage endCursor }} }} }} }}"
        ));
        out.push(format!(
            "{{ game(id: \"{id}\") {{ replay(fromPly: 0, toPly: 6) {{ ply actor move patch }} }} }}"
        ));
    }
    for (id, first) in act.iter().zip(&env.first_token) {
        for seat in [*first, first + 1] {
            out.push(format!(
                "#!seat{seat}\n{{ game(id: \"{id}\") {{ mySeat plies position {{ seatsToAct view legalMoves {{ total moves }} scores {{ seat total }} view(seat: 1) }} }} }}"
            ));
            out.push(format!(
                "#!seat{seat}\nmutation {{ playMove(gameId: \"{id}\", expectedPly: 12, move: \"bid 0\", idempotencyKey: \"k\") {{ replayed entries {{ ply actor move }} game {{ plies status }} }} }}"
            ));
        }
    }
    for kind in ["FIVE_TRIBES", "CLANS_OF_CALEDONIA", "MOMBASA"] {
        out.push(format!(
            "{{ games(kind: {kind}, status: FINISHED, first: 3) {{ edges {{ cursor node {{ id players plies }} }} pageInfo {{ hasNextPage endCursor }} }} }}"
        ));
        out.push(format!(
            "{{ positions(kind: {kind}, where: \"round == 2 && seats.exists(s, s.score >= 0)\", first: 2) {{ edges {{ node {{ gameId ply round phase toAct players features {{ name value }} seats {{ seat features {{ name value }} }} game {{ id }} }} }} scanned budgetExhausted resumeAfter }} }}"
        ));
        out.push(format!("{{ statistics(kind: {kind}, filter: {{ playerCount: 3, since: \"2026-01-01T00:00:00Z\" }}) {{ games byPlayerCount {{ players games }} scores {{ total {{ mean }} }} lengths {{ plies {{ mean }} }} }} }}"));
        out.push(format!(
            "{{ ratings(kind: {kind}, first: 3) {{ player rating uncertainty ordinal games }} }}"
        ));
        out.push(format!(
            "mutation {{ createGame(kind: {kind}, players: [\"a\", \"b\"], seed: \"1\") {{ game {{ id status }} }} }}"
        ));
    }
    out.push("{ rules { kind playerCounts rulesVersion dataHash data { verified reconstructed verifiedShare } dataVersions features { phases global seat } } }".into());
    out.push(
        "{ positionsByHash(stateHash: \"0123456789abcdef\", first: 3) { gameId kind ply } }".into(),
    );
    out.push(
        "{ games(player: \"bot-0\", first: 2, after: \"zzzzzzzzzzzzz\") { nodes { id } } }".into(),
    );
    // A small record to import, as the admin.
    if let Some(line) = sample_lines(GameKind::ClansOfCaledonia)
        .into_iter()
        .min_by_key(String::len)
    {
        out.push(format!(
            "#!admin\nmutation {{ importGame(record: {}) {{ id status plies }} }}",
            Value::String(line)
        ));
    }
    // Nesting and aliases, the shapes of issue 10's defects 1 and 2.
    for depth in [4, 32, 150, 600, 950, 1300, 3000] {
        out.push(format!(
            "{{ games(first: {}1{}) {{ nodes {{ id }} }} }}",
            "[".repeat(depth),
            "]".repeat(depth)
        ));
        out.push(format!(
            "{{ statistics(kind: MOMBASA, filter: {}{}) {{ games }} }}",
            "{playerCount: 2, player: ".repeat(depth / 2) + "\"x\"",
            "}".repeat(depth / 2)
        ));
    }
    let aliases: String = (0..100)
        .map(|i| format!("a{i}: rules {{ kind }} "))
        .collect();
    out.push(format!("{{ {aliases} }}"));
    if let Some(id) = fin.first() {
        let replays: String = (0..20)
            .map(|i| format!("r{i}: replay {{ patch }} "))
            .collect();
        out.push(format!("{{ game(id: \"{id}\") {{ {replays} }} }}"));
    }
    let deep_fields = "{ game(id: $id) { position { toAct { kind } } } }";
    out.push(format!("query Q($id: ID!) {deep_fields}"));
    out.push("{ __schema { types { name fields { name args { name type { name kind ofType { name } } } } } } }".into());
    out.push("subscription { gameUpdates(gameId: \"0000000000000\") { ply } }".into());
    out
}

impl Target for Graphql {
    fn name(&self) -> &str {
        "graphql"
    }

    fn seeds(&self) -> Vec<Vec<u8>> {
        seeds_for(&self.env, &self.examples)
            .into_iter()
            .map(String::into_bytes)
            .collect()
    }

    fn dictionary(&self) -> Vec<Vec<u8>> {
        let mut d: Vec<String> = [
            "query",
            "mutation",
            "subscription",
            "fragment F on Game { id }",
            "...F",
            "... on Game { id }",
            "__typename",
            "__schema",
            "__type(name: \"Game\") { name }",
            "@include(if: true)",
            "@skip(if: false)",
            "$id",
            "$ply",
            "$move",
            "$key",
            "$hash",
            "$after",
            "$game",
            "(ply: 0)",
            "(first: 100)",
            "(first: -1)",
            "(first: 2147483647)",
            "(offset: 5)",
            "(seat: 0)",
            "(seat: 9)",
            "(fromPly: 0, toPly: 1000)",
            "(after: \"5\")",
            "null",
            "true",
            "false",
            "\"\"",
            "[]",
            "{}",
            "#!admin\n",
            "#!seat0\n",
            "#!seat1\n",
            "#!seat3\n",
            "a: ",
            "b: ",
            "game",
            "games",
            "position",
            "positions",
            "replay",
            "moves",
            "view",
            "scores",
            "legalMoves",
            "stateHash",
            "outcome",
            "statistics",
            "ratings",
            "rules",
            "positionsByHash",
            "createGame",
            "playMove",
            "importGame",
            "gameUpdates",
            "seatsToAct",
            "toAct",
            "patch",
            "edges",
            "node",
            "nodes",
            "cursor",
            "pageInfo",
            "features",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for id in self.env.finished_ids.iter().chain(&self.env.active_ids) {
            d.push(format!("\"{id}\""));
        }
        d.into_iter().map(String::into_bytes).collect()
    }

    fn max_len(&self) -> usize {
        32 * 1024
    }

    fn run(&mut self, input: &[u8], fb: &mut Feedback) -> Result<(), Violation> {
        if self.env.app.store.game_count() > self.env.games_at_start + RECYCLE_AFTER {
            if let Ok(fresh) = setup() {
                self.env = fresh;
            }
        }
        let text = String::from_utf8_lossy(input);
        let first = text.lines().next().unwrap_or("");
        let caller = if first.trim_end() == "#!admin" {
            token(ADMIN)
        } else if let Some(n) = first
            .strip_prefix("#!seat")
            .and_then(|n| n.trim().parse::<usize>().ok())
        {
            self.env
                .tokens
                .get(n % self.env.tokens.len().max(1))
                .map_or_else(Caller::default, |t| token(t))
        } else {
            Caller::default()
        };
        let spectator = caller.token.is_none();
        let req = Request::new(text.as_ref())
            .variables(Variables::from_json(self.env.vars.clone()))
            .data(caller);
        let resp = answer(&mut self.env, req);
        let body = serde_json::to_string(&resp).map_err(|e| {
            Violation::new(
                "response-not-serializable",
                format!("the response does not serialize: {e}"),
            )
        })?;
        fb.note(&[
            b"data",
            &[u8::from(resp.data != async_graphql::Value::Null)],
        ]);
        for e in &resp.errors {
            let code = e
                .extensions
                .as_ref()
                .and_then(|x| x.get("code"))
                .map(|v| v.to_string())
                .unwrap_or_default();
            fb.note(&[
                b"error",
                code.as_bytes(),
                message_class(&e.message).as_bytes(),
            ]);
            if code.contains("INTERNAL") || code.contains("CORRUPT") {
                return Err(Violation::new(
                    "internal-error",
                    format!("a request got {code}: {}", e.message),
                ));
            }
        }
        if let async_graphql::Value::Object(m) = &resp.data {
            for k in m.keys() {
                fb.note(&[b"field", k.as_bytes()]);
            }
        }
        if spectator {
            if let Some(s) = self
                .env
                .secrets
                .iter()
                .find(|s| body.contains(s.as_str()) && !text.contains(s.as_str()))
            {
                return Err(Violation::new(
                    "secret-in-response",
                    format!("a spectator's response contains the secret {s:?}"),
                ));
            }
        }
        Ok(())
    }
}
