//! The random sample games kept as test data (`tests/data/random-samples/mombasa.ndjson`) replayed as typed states and
//! actions, under the rules and data versions each was recorded with (as
//! `tests/data_versions.rs` and `tests/rules_versions.rs` replay them), for the tests that
//! look at every position or every entry.

use mombasa::{Chance, Mombasa, Move, Options, State};
use rules_core::{Actor, Game, Notation, Seat};
use scenario_harness::samples::records;

pub const SAMPLES: &str = include_str!("../../../../tests/data/random-samples/mombasa.ndjson");

/// One entry of a sample game, parsed.
pub enum Entry {
    Move(Seat, Move),
    Chance(Chance),
}

/// Calls `visit(game, position before, entry)` for every entry of every sample game, then
/// `end(game, final position)`; applies each entry (a refused one panics: the samples are
/// known to replay, `tests/rules_versions.rs`).
pub fn replay_samples(visit: impl FnMut(usize, &State, &Entry), end: impl FnMut(usize, &State)) {
    replay_games(|_| true, visit, end)
}

/// [`replay_samples`] for the games whose index `pick` accepts (to share them out between
/// threads).
pub fn replay_games(
    pick: impl Fn(usize) -> bool,
    mut visit: impl FnMut(usize, &State, &Entry),
    mut end: impl FnMut(usize, &State),
) {
    for (g, r) in records(SAMPLES).iter().enumerate() {
        if !pick(g) {
            continue;
        }
        let o: Options = serde_json::from_value(r.options.clone()).expect("sample options");
        let mut s = Mombasa::new_game_versioned(&o, &r.rules_version, &r.data_hash)
            .expect("a version this build has")
            .expect("valid options");
        for (ply, (actor, text)) in r.entries.iter().enumerate() {
            let e = match actor {
                Actor::Seat(seat) => Entry::Move(*seat, Mombasa::parse_move(text).unwrap()),
                Actor::Dealer => Entry::Chance(Mombasa::parse_chance(text).unwrap()),
            };
            visit(g, &s, &e);
            let applied = match &e {
                Entry::Move(seat, m) => Mombasa::play(&mut s, *seat, m),
                Entry::Chance(c) => Mombasa::resolve(&mut s, c),
            };
            applied.unwrap_or_else(|err| panic!("sample {g} ply {ply} ({text}): {err}"));
        }
        end(g, &s);
    }
}
