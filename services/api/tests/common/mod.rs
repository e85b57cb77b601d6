#![allow(dead_code)]
//! An in-process service for the API's own tests: a store in a temporary folder with the three
//! games registered, the analysis attached, some sample games imported, and helpers to run
//! GraphQL requests through the same guarded executor HTTP and WebSocket use.

use api::guard::Guarded;
use api::{ApiConfig, App};
use async_graphql::{Request, Variables};
use rules_core::{Erased, Registry};
use serde_json::{json, Value};
use std::sync::Arc;
use store::GameLog;

pub struct Service {
    pub app: Arc<App>,
    pub guarded: Guarded,
    pub rt: tokio::runtime::Runtime,
    _dir: tempfile::TempDir,
}

pub fn registry() -> Registry {
    Registry::new()
        .with(Erased::<five_tribes::FiveTribes>::new())
        .with(Erased::<caledonia::Caledonia>::new())
        .with(Erased::<mombasa::Mombasa>::new())
}

/// The GraphQL enum value of a kind named as in URLs (`five-tribes` → `FIVE_TRIBES`).
pub fn kind_enum(kind: &str) -> String {
    kind.replace('-', "_").to_uppercase()
}

/// The sample records of each kind, `n` of each.
pub fn samples(n: usize) -> Vec<String> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/samples");
    ["five-tribes", "caledonia", "mombasa"]
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(format!("{root}/{f}.ndjson"))
                .expect("sample file")
                .lines()
                .take(n)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

impl Service {
    /// A service with `n` sample games of each kind and the given settings.
    pub fn new(n: usize, config: ApiConfig) -> Service {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = store::Store::open(dir.path(), registry(), store::Config::default())
            .expect("open store");
        let analysis = analysis::Analysis::attach(&store, [7; 16]).expect("attach");
        for (i, line) in samples(n).iter().enumerate() {
            store
                .import_line(i as u64 + 1, line)
                .expect("sample imports");
        }
        store.flush().expect("flush");
        let app = App::new(Arc::new(store), analysis, config);
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let guarded = rt.block_on(async {
            Guarded::for_schema(
                api::build_schema(app.clone()),
                Arc::new(app.config.limits.clone()),
            )
        });
        Service {
            app,
            guarded,
            rt,
            _dir: dir,
        }
    }

    /// Runs a request (as a seat when `token` is given) and returns the response as JSON.
    pub fn run(&self, token: Option<&str>, query: &str, vars: Value) -> Value {
        let caller =
            api::auth::Caller::from_authorization(token.map(|t| format!("Bearer {t}")).as_deref());
        let req = Request::new(query)
            .variables(Variables::from_json(vars))
            .data(caller);
        let resp = self.rt.block_on(self.guarded.answer(req));
        serde_json::to_value(&resp).expect("response serialises")
    }

    /// A game's id: the first game of `kind` with `status`.
    pub fn game_id(&self, kind: &str, status: &str) -> String {
        let v = self.run(
            None,
            "query($k: GameKind, $s: GameStatus) { games(kind: $k, status: $s, first: 1) { edges { node { id } } } }",
            json!({ "k": kind_enum(kind), "s": status.to_uppercase() }),
        );
        v["data"]["games"]["edges"][0]["node"]["id"]
            .as_str()
            .unwrap_or_else(|| panic!("no {status} {kind} game: {v}"))
            .to_string()
    }

    /// Creates a game and plays `moves` legal moves (the first listed each time), returning
    /// its id and seat tokens.
    pub fn live_game(
        &self,
        kind: &str,
        players: usize,
        seed: u64,
        moves: usize,
    ) -> (String, Vec<String>) {
        let names: Vec<String> = (0..players).map(|i| format!("p{i}")).collect();
        let v = self.run(
            None,
            "mutation($k: GameKind!, $p: [String!]!, $s: String) { createGame(kind: $k, players: $p, seed: $s) { game { id } seatTokens } }",
            json!({ "k": kind_enum(kind), "p": names, "s": seed.to_string() }),
        );
        let id = v["data"]["createGame"]["game"]["id"]
            .as_str()
            .unwrap_or_else(|| panic!("createGame: {v}"))
            .to_string();
        let tokens: Vec<String> = v["data"]["createGame"]["seatTokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        for _ in 0..moves {
            if !self.play_first_legal(&id, &tokens) {
                break;
            }
        }
        (id, tokens)
    }

    /// Plays the first legal move of the first seat that may move; false when none may.
    pub fn play_first_legal(&self, id: &str, tokens: &[String]) -> bool {
        let v = self.run(
            None,
            "query($id: ID!) { game(id: $id) { plies position { seatsToAct } } }",
            json!({ "id": id }),
        );
        let game = &v["data"]["game"];
        let plies = game["plies"].as_u64().unwrap();
        let Some(seat) = game["position"]["seatsToAct"][0].as_u64() else {
            return false;
        };
        let token = &tokens[seat as usize];
        let v = self.run(
            Some(token),
            "query($id: ID!) { game(id: $id) { position { legalMoves(first: 1) { moves } } } }",
            json!({ "id": id }),
        );
        let Some(m) = v["data"]["game"]["position"]["legalMoves"]["moves"][0].as_str() else {
            return false;
        };
        let v = self.run(
            Some(token),
            "mutation($id: ID!, $p: Int!, $m: String!) { playMove(gameId: $id, expectedPly: $p, move: $m) { game { plies } } }",
            json!({ "id": id, "p": plies, "m": m }),
        );
        assert!(v.get("errors").is_none(), "playMove {m}: {v}");
        true
    }
}

/// The codes of a response's errors.
pub fn codes(v: &Value) -> Vec<String> {
    v["errors"]
        .as_array()
        .map(|es| {
            es.iter()
                .map(|e| {
                    e["extensions"]["code"]
                        .as_str()
                        .unwrap_or("<none>")
                        .to_string()
                })
                .collect()
        })
        .unwrap_or_default()
}
