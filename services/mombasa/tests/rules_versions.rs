//! Rules versions: a stored game replays under the rules version it was recorded with
//! (`Game::rules_versions`), so a rules correction never changes an old game.
//!
//! The committed samples (`data/samples/mombasa.ndjson`) were recorded under `mombasa/1` (and
//! the archived data `218af102b689d316`). They replay under it to their recorded end and
//! outcomes; under the current rules (`mombasa/2`: a drawn first player, books replaced at
//! once, ...) their logs are refused, since those rules ask for entries the old logs lack.

use mombasa::state::Rules;
use mombasa::Mombasa;
use rules_core::{Erased, Game, GameRules, GameState, ToAct};
use scenario_harness::samples::{fingerprint, records, replay, result_line, Record};

const SAMPLES: &str = include_str!("../../../data/samples/mombasa.ndjson");
/// The rules version the samples were recorded under.
const RECORDED: &str = "mombasa/1";
/// `fingerprint` of the samples' outcomes as recorded (the same number pins them in
/// `data_versions.rs`).
const SAMPLE_OUTCOMES: u64 = 15480342122599435388;

fn replay_under(r: &Record, rules_version: &str) -> Result<Box<dyn GameState>, usize> {
    let s = Erased::<Mombasa>::new()
        .new_game_recorded(&r.options, rules_version, &r.data_hash)
        .unwrap_or_else(|e| panic!("{rules_version}: {e}"));
    replay(s, r)
}

#[test]
fn every_rules_version_is_listed_the_current_one_first() {
    assert_eq!(Mombasa::rules_versions(), ["mombasa/2", "mombasa/1"]);
    assert_eq!(Mombasa::RULES_VERSION, Rules::CURRENT.name());
    let rules = Erased::<Mombasa>::new();
    assert_eq!(rules.rules_versions(), Mombasa::rules_versions());
    let o = serde_json::json!({"players": 3});
    let data = Mombasa::data_hash();
    for v in Mombasa::rules_versions() {
        assert!(rules.new_game_recorded(&o, v, &data).is_ok(), "{v}");
    }
    for bad in ["mombasa/0", "mombasa/3", "", "five-tribes/1", "MOMBASA/1"] {
        let e = rules.new_game_recorded(&o, bad, &data).err().unwrap();
        assert_eq!(e.code(), "rules-version", "{bad}");
    }
    // An unknown data version is still its own error.
    let e = rules.new_game_recorded(&o, RECORDED, "00").err().unwrap();
    assert_eq!(e.code(), "data");
    // The `first_player` option did not exist under rules 1.
    let table = serde_json::json!({"players": 3, "first_player": 1});
    assert!(rules.new_game_recorded(&table, RECORDED, &data).is_err());
    assert!(rules.new_game_recorded(&table, "mombasa/2", &data).is_ok());
    // Its canonical JSON leaves the option out when it is not given: old games' options read
    // the same as before it existed.
    let canonical = rules.normalize_options(&o).unwrap();
    assert!(canonical.get("first_player").is_none(), "{canonical}");
    assert_eq!(rules.normalize_options(&table).unwrap()["first_player"], 1);
}

#[test]
fn the_samples_replay_under_their_recorded_rules_to_their_outcomes() {
    let all = records(SAMPLES);
    assert_eq!(all.len(), 200);
    let mut lines = Vec::new();
    let mut refused_under_current = 0;
    for (i, r) in all.iter().enumerate() {
        assert_eq!(r.rules_version, RECORDED, "sample {i}");
        let s = replay_under(r, &r.rules_version)
            .unwrap_or_else(|ply| panic!("sample {i} refused at ply {ply}"));
        assert_eq!(
            s.to_act(),
            ToAct::Over,
            "sample {i} ends with its last entry"
        );
        lines.push(result_line(s.as_ref()).unwrap());
        if replay_under(r, Mombasa::RULES_VERSION).is_err() {
            refused_under_current += 1;
        }
    }
    assert_eq!(fingerprint(&lines), SAMPLE_OUTCOMES, "{lines:?}");
    // Each old log lacks the first player the current setup deal names: the version is what
    // keeps them replaying.
    assert_eq!(refused_under_current, 200);
}

#[test]
fn a_snapshot_of_an_old_game_keeps_its_rules_version() {
    let rules = Erased::<Mombasa>::new();
    let r = &records(SAMPLES)[7];
    let mut s = rules
        .new_game_recorded(&r.options, RECORDED, &r.data_hash)
        .unwrap();
    let half = r.entries.len() / 2;
    for (actor, text) in &r.entries[..half] {
        s.apply(*actor, text).unwrap();
    }
    // The snapshot is made by this build (its current version's layout) and holds a state
    // that still plays under rules 1.
    let mut back = rules.decode_state(&s.encode()).unwrap();
    for (actor, text) in &r.entries[half..] {
        back.apply(*actor, text).unwrap();
        s.apply(*actor, text).unwrap();
    }
    assert_eq!(back.encode(), s.encode());
    assert_eq!(back.to_act(), ToAct::Over);
}
