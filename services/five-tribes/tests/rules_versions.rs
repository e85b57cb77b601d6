//! Rules versions: a stored game replays under the rules version it was recorded with
//! (`Game::rules_versions`), so a rules correction never changes an old game.
//!
//! The random samples kept as test data (`tests/data/random-samples/five-tribes.ndjson`) were recorded under
//! `five-tribes/1`, which also sold merchandise before the meeple move. They replay under it
//! to their recorded end and outcomes; under the current rules (`five-tribes/2`: the sale is
//! the turn's last step) the games that sold early are refused.

use five_tribes::state::Rules;
use five_tribes::FiveTribes;
use rules_core::{Erased, Game, GameRules, GameState, ToAct};
use scenario_harness::samples::{fingerprint, records, replay, result_line, Record};

const SAMPLES: &str = include_str!("../../../tests/data/random-samples/five-tribes.ndjson");
/// The rules version the samples were recorded under.
const RECORDED: &str = "five-tribes/1";
/// `fingerprint` of the samples' outcomes, computed under `five-tribes/1` before rules 2
/// existed.
const SAMPLE_OUTCOMES: u64 = 5650624356557466945;

fn replay_under(r: &Record, rules_version: &str) -> Result<Box<dyn GameState>, usize> {
    let s = Erased::<FiveTribes>::new()
        .new_game_recorded(&r.options, rules_version, &r.data_hash)
        .unwrap_or_else(|e| panic!("{rules_version}: {e}"));
    replay(s, r)
}

#[test]
fn every_rules_version_is_listed_the_current_one_first() {
    assert_eq!(
        FiveTribes::rules_versions(),
        ["five-tribes/2", "five-tribes/1"]
    );
    assert_eq!(FiveTribes::RULES_VERSION, Rules::CURRENT.name());
    let rules = Erased::<FiveTribes>::new();
    assert_eq!(rules.rules_versions(), FiveTribes::rules_versions());
    let o = serde_json::json!({"players": 3});
    let data = FiveTribes::data_hash();
    for v in FiveTribes::rules_versions() {
        assert!(rules.new_game_recorded(&o, v, &data).is_ok(), "{v}");
    }
    for bad in ["five-tribes/0", "five-tribes/3", "", "mombasa/1"] {
        let e = rules.new_game_recorded(&o, bad, &data).err().unwrap();
        assert_eq!(e.code(), "rules-version", "{bad}");
    }
    let e = rules.new_game_recorded(&o, RECORDED, "00").err().unwrap();
    assert_eq!(e.code(), "data");
    let bad = serde_json::json!({"players": 5});
    assert_eq!(
        rules
            .new_game_recorded(&bad, RECORDED, &data)
            .err()
            .unwrap()
            .code(),
        "options"
    );
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
        if replay_under(r, FiveTribes::RULES_VERSION).is_err() {
            refused_under_current += 1;
        }
    }
    assert_eq!(fingerprint(&lines), SAMPLE_OUTCOMES, "{lines:?}");
    eprintln!("{refused_under_current} of 200 samples sold before moving: refused under rules 2");
    assert!(
        refused_under_current > 0,
        "no sample sells before moving: this test would not notice a lost rules version"
    );
}

#[test]
fn a_snapshot_of_an_old_game_keeps_its_rules_version() {
    let rules = Erased::<FiveTribes>::new();
    for r in records(SAMPLES).iter().take(5) {
        let mut s = rules
            .new_game_recorded(&r.options, RECORDED, &r.data_hash)
            .unwrap();
        let half = r.entries.len() / 2;
        for (actor, text) in &r.entries[..half] {
            s.apply(*actor, text).unwrap();
        }
        let mut back = rules.decode_state(&s.encode()).unwrap();
        for (actor, text) in &r.entries[half..] {
            back.apply(*actor, text).unwrap();
            s.apply(*actor, text).unwrap();
        }
        assert_eq!(back.encode(), s.encode());
        assert_eq!(back.to_act(), ToAct::Over);
    }
}
