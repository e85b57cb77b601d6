//! The games under test, through rules-core's type-erased registry (as the store and the API
//! see them), and positions to fuzz at: every ply of seeded random games, played the way
//! `rules_core::playout` plays them (the dealer deals chance from the game's seed at each ply;
//! moves are chosen uniformly from the dealer's policy stream).

use rules_core::playout::POLICY_STREAM;
use rules_core::{
    Actor, ChanceRng, Dealer, Erased, GameKind, GameRules, GameState, Ply, Registry, ToAct,
};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Every game kind, as `ludolog` registers them.
pub fn registry() -> Registry {
    Registry::new()
        .with(Erased::<five_tribes::FiveTribes>::new())
        .with(Erased::<caledonia::Caledonia>::new())
        .with(Erased::<mombasa::Mombasa>::new())
}

/// The short name used in target names.
pub fn slug(kind: GameKind) -> &'static str {
    match kind {
        GameKind::FiveTribes => "five-tribes",
        GameKind::ClansOfCaledonia => "caledonia",
        GameKind::Mombasa => "mombasa",
    }
}

/// The workspace root (for `data/`, `schema/`, `ops/`).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The sample game records of `kind` (`data/samples/*.ndjson`), one NDJSON line each.
pub fn sample_lines(kind: GameKind) -> Vec<String> {
    let path = root()
        .join("data/samples")
        .join(format!("{}.ndjson", slug(kind)));
    std::fs::read_to_string(path)
        .map(|t| t.lines().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Options to play `kind` with: every distinct options object of the samples, and each of
/// those with one boolean flipped where the rules accept it (variants the samples never use).
pub fn options(rules: &dyn GameRules) -> Vec<serde_json::Value> {
    let mut seen = BTreeSet::new();
    for line in sample_lines(rules.kind()) {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) {
            if let Some(o) = v.get("options") {
                seen.insert(o.to_string());
            }
        }
    }
    if seen.is_empty() {
        for n in rules.player_counts() {
            seen.insert(serde_json::json!({ "players": n }).to_string());
        }
    }
    let base: Vec<serde_json::Value> = seen
        .iter()
        .filter_map(|s| serde_json::from_str(s).ok())
        .collect();
    let mut out = base.clone();
    if let Some(first) = base.last().and_then(|v| v.as_object()) {
        for (k, v) in first {
            if let Some(b) = v.as_bool() {
                let mut o = first.clone();
                o.insert(k.clone(), serde_json::Value::Bool(!b));
                let o = serde_json::Value::Object(o);
                if rules.normalize_options(&o).is_ok() {
                    out.push(o);
                }
            }
        }
    }
    out
}

/// One position of a random game.
pub struct Position {
    pub state: Box<dyn GameState>,
    /// `state.encode()`, kept: what a refused entry must leave unchanged.
    pub encoded: Vec<u8>,
    /// The game's seed (the dealer deals from it).
    pub seed: u64,
    pub ply: u32,
    /// The entry the game played next from here, if any.
    pub next: Option<(Actor, String)>,
}

/// Plays one random game of `rules` with `options` from `seed`, keeping every position.
pub fn random_game(
    rules: &dyn GameRules,
    options: &serde_json::Value,
    seed: u64,
    max_plies: u32,
) -> Vec<Position> {
    let Ok(mut state) = rules.new_game(options) else {
        return Vec::new();
    };
    let mut policy = Dealer::new(seed, POLICY_STREAM);
    let mut out = Vec::new();
    for ply in 0..max_plies {
        let next = match state.to_act() {
            ToAct::Over => None,
            ToAct::Chance => state.deal(seed, Ply(ply)).map(|c| (Actor::Dealer, c)),
            ToAct::Seat(seat) => {
                let moves = state.legal_moves();
                if moves.is_empty() {
                    None
                } else {
                    let m = moves[policy.below(moves.len() as u32) as usize].clone();
                    Some((Actor::Seat(seat), m))
                }
            }
        };
        out.push(Position {
            encoded: state.encode(),
            state: state.clone(),
            seed,
            ply,
            next: next.clone(),
        });
        let Some((actor, text)) = next else {
            break;
        };
        if state.apply(actor, &text).is_err() {
            break;
        }
    }
    out
}

/// Positions of `games` random games of `kind` per options variant (seeds from `seed`).
pub fn pool(rules: &dyn GameRules, games: u64, seed: u64) -> Vec<Position> {
    let mut out = Vec::new();
    for (i, o) in options(rules).iter().enumerate() {
        for g in 0..games {
            let s = seed
                .wrapping_mul(1_000_003)
                .wrapping_add(i as u64 * 1000 + g);
            out.extend(random_game(rules, o, s, 5_000));
        }
    }
    out
}

/// Words of notation texts (split at spaces and punctuation, and whole short texts), for a
/// mutation dictionary.
pub fn words<'a>(texts: impl Iterator<Item = &'a str>, limit: usize) -> Vec<Vec<u8>> {
    let mut set = BTreeSet::new();
    for t in texts {
        if t.len() <= 24 {
            set.insert(t.to_string());
        }
        for w in t.split(|c: char| c.is_whitespace() || ",.=:;/@".contains(c)) {
            if !w.is_empty() && w.len() <= 24 {
                set.insert(w.to_string());
            }
        }
        for p in t.split_whitespace() {
            if p.len() <= 24 {
                set.insert(p.to_string());
            }
        }
        if set.len() >= limit {
            break;
        }
    }
    set.into_iter().map(String::into_bytes).collect()
}
