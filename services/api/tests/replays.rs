//! Replays and typed boards, for every game:
//! - applying `replay`'s JSON Patches to `position(ply: 0) { view }` gives `view` at every ply,
//!   for every perspective: a finished game as the omniscient viewer, the spectator and each
//!   seat; a game in play as a spectator and as each seat (with its token);
//! - `board` (the union `GameView`) answers the same data as `view`, and every object type
//!   reachable from the game's member of the union is reached, with every field filled (not
//!   null) at some position of the sample games.

mod common;

use api::limits::Limits;
use api::ApiConfig;
use common::{codes, Service};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// A service whose limits let one request read every position of a game: these tests are
/// about the answers, the limits have their own tests.
fn service() -> Service {
    Service::new(
        2,
        ApiConfig {
            limits: service_limits(),
            ..ApiConfig::default()
        },
    )
}

fn service_limits() -> Limits {
    Limits {
        max_depth: 64,
        max_complexity: usize::MAX / 4,
        max_aliases: 100_000,
        max_selections: usize::MAX,
        max_response_bytes: 1 << 30,
        ..Limits::default()
    }
}

const KINDS: [(&str, usize); 3] = [
    ("five-tribes", 3),
    ("clans-of-caledonia", 2),
    ("mombasa", 3),
];

fn ok(v: &Value, what: &str) -> Value {
    assert!(
        codes(v).is_empty(),
        "{what}: {:?} {}",
        v["errors"].get(0),
        truncate(v)
    );
    v["data"].clone()
}

fn truncate(v: &Value) -> String {
    let s = v.to_string();
    s.chars().take(2_000).collect()
}

/// The arguments that pick a perspective: `seat: n`, `perspective: X`, or none.
#[derive(Clone, Debug)]
enum Pick {
    Default,
    Seat(u8),
    Perspective(&'static str),
}

impl Pick {
    fn args(&self) -> String {
        match self {
            Pick::Default => String::new(),
            Pick::Seat(s) => format!("(seat: {s})"),
            Pick::Perspective(p) => format!("(perspective: {p})"),
        }
    }
}

/// Checks that the replay patches rebuild `view` at every ply of `id`, as `token` with `pick`.
fn check_replay(s: &Service, id: &str, token: Option<&str>, pick: &Pick) {
    let plies = ok(
        &s.run(
            None,
            "query($id: ID!) { game(id: $id) { plies } }",
            json!({ "id": id }),
        ),
        "plies",
    )["game"]["plies"]
        .as_u64()
        .unwrap();
    let args = pick.args();
    let views: String = (0..=plies)
        .map(|p| format!("p{p}: position(ply: {p}) {{ view{args} }} "))
        .collect();
    let replay_args = match pick {
        Pick::Default => String::new(),
        Pick::Seat(n) => format!("(seat: {n})"),
        Pick::Perspective(p) => format!("(perspective: {p})"),
    };
    let q = format!(
        "query($id: ID!) {{ game(id: $id) {{ replay{replay_args} {{ ply patch }} {views} }} }}"
    );
    let what = format!("{id} as {token:?} {pick:?}");
    let g = ok(&s.run(token, &q, json!({ "id": id })), &what)["game"].clone();
    let frames = g["replay"].as_array().unwrap();
    assert_eq!(frames.len() as u64, plies, "{what}: one frame per entry");
    let mut view = g["p0"]["view"].clone();
    for (i, f) in frames.iter().enumerate() {
        let ply = i as u64 + 1;
        assert_eq!(f["ply"], ply, "{what}");
        let patch: json_patch::Patch = serde_json::from_value(f["patch"].clone()).unwrap();
        json_patch::patch(&mut view, &patch)
            .unwrap_or_else(|e| panic!("{what}: frame {ply} does not apply: {e}"));
        assert_eq!(
            view,
            g[format!("p{ply}")]["view"],
            "{what}: after frame {ply}"
        );
    }
}

#[test]
fn replay_patches_rebuild_the_view_at_every_ply_for_every_perspective() {
    let s = service();
    let mut checked = 0;
    for (kind, players) in KINDS {
        // A finished game: open to everyone, from any perspective.
        let finished = s.game_id(kind, "finished");
        let n = ok(
            &s.run(
                None,
                "query($id: ID!) { game(id: $id) { players } }",
                json!({ "id": finished }),
            ),
            "players",
        )["game"]["players"]
            .as_array()
            .unwrap()
            .len() as u8;
        let mut picks = vec![
            Pick::Default,
            Pick::Perspective("OMNISCIENT"),
            Pick::Perspective("SPECTATOR"),
        ];
        picks.extend((0..n).map(Pick::Seat));
        for pick in &picks {
            check_replay(&s, &finished, None, pick);
            checked += 1;
        }
        // A game in play: a spectator, and each seat with its own token.
        let (live, tokens) = s.live_game(kind, players, 7, 60);
        check_replay(&s, &live, None, &Pick::Default);
        for t in &tokens {
            check_replay(&s, &live, Some(t), &Pick::Default);
        }
        checked += 1 + tokens.len();
    }
    // Per kind: 3 perspectives and every seat of a finished game, a spectator and every seat
    // of a game in play.
    assert!(checked >= 3 * (3 + 1 + 1 + 2), "checked {checked}");
}

/// The schema's types, read by introspection: name → (kind, fields as (name, type), members).
type Types = BTreeMap<String, (String, Vec<(String, Value)>, Vec<String>)>;

fn types(s: &Service) -> Types {
    let v = ok(
        &s.run(
            None,
            "{ __schema { types { name kind possibleTypes { name }
               fields { name args { name } type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }",
            json!({}),
        ),
        "introspection",
    );
    v["__schema"]["types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let fields = t["fields"]
                .as_array()
                .map(|fs| {
                    fs.iter()
                        .filter(|f| f["args"].as_array().is_none_or(|a| a.is_empty()))
                        .map(|f| (f["name"].as_str().unwrap().to_string(), f["type"].clone()))
                        .collect()
                })
                .unwrap_or_default();
            let members = t["possibleTypes"]
                .as_array()
                .map(|m| {
                    m.iter()
                        .map(|x| x["name"].as_str().unwrap().to_string())
                        .collect()
                })
                .unwrap_or_default();
            (
                t["name"].as_str().unwrap().to_string(),
                (t["kind"].as_str().unwrap().to_string(), fields, members),
            )
        })
        .collect()
}

/// The named type under list and non-null wrappers.
fn named(t: &Value) -> String {
    match t["name"].as_str() {
        Some(n) => n.to_string(),
        None => named(&t["ofType"]),
    }
}

/// A selection of every field of `ty`, recursively, with `__typename` on every object.
fn selection(types: &Types, ty: &str) -> String {
    let (kind, fields, members) = &types[ty];
    match kind.as_str() {
        "UNION" | "INTERFACE" => {
            let inner: String = members
                .iter()
                .map(|m| format!("... on {m} {} ", selection(types, m)))
                .collect();
            format!("{{ __typename {inner}}}")
        }
        "OBJECT" => {
            let inner: String = fields
                .iter()
                .map(|(name, t)| {
                    let n = named(t);
                    match types[&n].0.as_str() {
                        "OBJECT" | "UNION" | "INTERFACE" => {
                            format!("{name} {} ", selection(types, &n))
                        }
                        _ => format!("{name} "),
                    }
                })
                .collect();
            format!("{{ __typename {inner}}}")
        }
        _ => String::new(),
    }
}

/// Records, for every object in `v` (an answer to `selection`), which fields were not null.
fn filled(v: &Value, seen: &mut BTreeMap<String, BTreeSet<String>>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(t)) = m.get("__typename") {
                let set = seen.entry(t.clone()).or_default();
                for (k, x) in m {
                    if !x.is_null() && k != "__typename" {
                        set.insert(k.clone());
                    }
                }
            }
            m.values().for_each(|x| filled(x, seen));
        }
        Value::Array(a) => a.iter().for_each(|x| filled(x, seen)),
        _ => {}
    }
}

/// Every object type reachable from `ty` (itself included), with its fields.
fn reachable(types: &Types, ty: &str, out: &mut BTreeMap<String, BTreeSet<String>>) {
    if out.contains_key(ty) {
        return;
    }
    let (kind, fields, _) = &types[ty];
    if kind != "OBJECT" {
        return;
    }
    out.insert(ty.to_string(), fields.iter().map(|f| f.0.clone()).collect());
    for (_, t) in fields {
        reachable(types, &named(t), out);
    }
}

/// Fields no sample game can fill, and why: none (every sample is played under its game's
/// current rules).
const UNSEEN_IN_SAMPLES: &[&str] = &[];

#[test]
fn every_board_type_is_reached_and_every_field_filled() {
    // Rare states (a Sibittis draw waiting for its choice) need more than a couple of games:
    // games are read one by one until every field has been seen filled.
    let s = Service::new(
        40,
        ApiConfig {
            limits: service_limits(),
            ..ApiConfig::default()
        },
    );
    let types = types(&s);
    let board = selection(&types, "GameView");
    for (kind, _) in KINDS {
        let mut seen = BTreeMap::new();
        let mut member: Option<String> = None;
        let v = ok(
            &s.run(
                None,
                "query($k: GameKind) { games(kind: $k, status: FINISHED, first: 100) { edges { node { id plies } } } }",
                json!({ "k": common::kind_enum(kind) }),
            ),
            "games",
        );
        let mut missing = vec!["nothing read yet".to_string()];
        let mut read = 0;
        for e in v["games"]["edges"].as_array().unwrap() {
            if missing.is_empty() {
                break;
            }
            read += 1;
            let id = e["node"]["id"].as_str().unwrap();
            let plies = e["node"]["plies"].as_u64().unwrap();
            // Every position, omniscient (all secrets filled), and in the first game also as
            // seat 0, with the view beside the board to compare.
            let perspectives: &[&str] = if read == 1 {
                &["(perspective: OMNISCIENT)", "(seat: 0)"]
            } else {
                &["(perspective: OMNISCIENT)"]
            };
            for args in perspectives {
                let fields: String = (0..=plies)
                    .map(|p| {
                        format!("p{p}: position(ply: {p}) {{ view{args} board{args} {board} }} ")
                    })
                    .collect();
                let q = format!("query($id: ID!) {{ game(id: $id) {{ {fields} }} }}");
                let g = ok(&s.run(None, &q, json!({ "id": id })), kind)["game"].clone();
                for p in 0..=plies {
                    let pos = &g[format!("p{p}")];
                    let t = pos["board"]["__typename"].as_str().unwrap().to_string();
                    assert_eq!(
                        member.get_or_insert_with(|| t.clone()),
                        &t,
                        "one member per game"
                    );
                    filled(&pos["board"], &mut seen);
                    // `board` is `view`, typed: the same fields at the top.
                    let keys = |x: &Value| -> BTreeSet<String> {
                        x.as_object()
                            .unwrap()
                            .keys()
                            .filter(|k| *k != "__typename")
                            .cloned()
                            .collect()
                    };
                    let (b, v) = (keys(&pos["board"]), keys(&pos["view"]));
                    assert!(
                        v.is_subset(&b),
                        "{kind} ply {p}: the view has {:?} the board has not",
                        v.difference(&b)
                    );
                }
            }
            let member = member.as_deref().expect("a board");
            let mut all = BTreeMap::new();
            reachable(&types, member, &mut all);
            missing.clear();
            for (ty, fields) in &all {
                match seen.get(ty) {
                    None => missing.push(format!("{ty} never reached")),
                    Some(got) => {
                        for f in fields.difference(got) {
                            if !UNSEEN_IN_SAMPLES.contains(&format!("{ty}.{f}").as_str()) {
                                missing.push(format!("{ty}.{f} never filled"));
                            }
                        }
                    }
                }
            }
        }
        assert!(
            missing.is_empty(),
            "{kind} after {read} games: {missing:#?}"
        );
    }
}

#[test]
fn a_board_resolves_through_fragments_and_directives_beside_the_schema_extensions() {
    // The generated types are resolved by hand: async-graphql's container resolution looks a
    // field up under the union's name once the schema has an extension or the field a
    // directive, and found none ("Cannot query field \"phase\" on type \"GameView\"").
    let s = Service::new(1, ApiConfig::default());
    let v = ok(
        &s.run(
            None,
            "{ games(kind: FIVE_TRIBES, status: FINISHED, first: 1) { edges { node { id } } } }",
            json!({}),
        ),
        "games",
    );
    let id = v["games"]["edges"][0]["node"]["id"].as_str().unwrap();
    let q = "query($id: ID!) { game(id: $id) { position(ply: 3) { board(perspective: OMNISCIENT) {
               __typename ...FT ... on FiveTribesView { phase @include(if: true) players @skip(if: true) }
               ... on MombasaView { round } } } } }
             fragment FT on FiveTribesView { phase palmsLeft }";
    let b = ok(&s.run(None, q, json!({ "id": id })), "board")["game"]["position"]["board"].clone();
    assert_eq!(b["__typename"], "FiveTribesView", "{b}");
    assert!(b["phase"].is_string(), "{b}");
    assert!(b["palmsLeft"].is_number(), "{b}");
    assert!(b.get("players").is_none(), "skipped: {b}");
    assert!(b.get("round").is_none(), "another game's member: {b}");
}
