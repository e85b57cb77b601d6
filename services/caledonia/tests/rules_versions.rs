//! Rules and data versions: a stored game replays under the rules version and the component
//! data it was recorded with (`Game::rules_versions`, `Game::data_versions`), so a correction
//! never changes an old game.
//!
//! The random samples kept as test data (`tests/data/random-samples/caledonia.ndjson`) were recorded under
//! `clans-of-caledonia/2` and data version `dbffe44d9273be93` (now archived: issue 13 marked
//! what the rules text states and added the solo board and the static-imports value). They
//! replay under both to their recorded end and outcomes; under the current rules (`.../4`)
//! the games that play differently are refused or end otherwise.
//!
//! Rules version 4 (issue 37) closed port 6's loophole: a game recorded under version 3 that
//! used it still replays as recorded under version 3, and is refused under version 4 at the
//! entry that used it.

use caledonia::state::Rules;
use caledonia::Caledonia;
use rules_core::{Actor, Erased, Game, GameRules, GameState, Seat, ToAct};
use scenario_harness::samples::{fingerprint, records, replay, result_line, Record};

const SAMPLES: &str = include_str!("../../../tests/data/random-samples/caledonia.ndjson");
/// The rules and data versions the samples were recorded under.
const RECORDED: &str = "clans-of-caledonia/2";
const RECORDED_DATA: &str = "dbffe44d9273be93";
/// `fingerprint` of the samples' outcomes, computed under `clans-of-caledonia/2` and the data
/// `dbffe44d9273be93` before rules version 3 and the data changes existed.
const SAMPLE_OUTCOMES: u64 = 1544777422414705412;

fn replay_under(r: &Record, rules_version: &str) -> Result<Box<dyn GameState>, usize> {
    let s = Erased::<Caledonia>::new()
        .new_game_recorded(&r.options, rules_version, &r.data_hash)
        .unwrap_or_else(|e| panic!("{rules_version}: {e}"));
    replay(s, r)
}

#[test]
fn every_rules_and_data_version_is_listed_the_current_one_first() {
    assert_eq!(
        Caledonia::rules_versions(),
        [
            "clans-of-caledonia/4",
            "clans-of-caledonia/3",
            "clans-of-caledonia/2"
        ]
    );
    assert_eq!(Caledonia::RULES_VERSION, Rules::CURRENT.name());
    let data = Caledonia::data_versions();
    assert_eq!(data[0], Caledonia::data_hash());
    assert!(data.iter().any(|h| h == RECORDED_DATA), "{data:?}");
    assert_ne!(Caledonia::data_hash(), RECORDED_DATA);
    let rules = Erased::<Caledonia>::new();
    let o = serde_json::json!({"players": 2});
    for v in Caledonia::rules_versions() {
        for d in &data {
            assert!(rules.new_game_recorded(&o, v, d).is_ok(), "{v} {d}");
        }
    }
    for bad in [
        "clans-of-caledonia/1",
        "clans-of-caledonia/5",
        "",
        "five-tribes/2",
    ] {
        let e = rules
            .new_game_recorded(&o, bad, RECORDED_DATA)
            .err()
            .unwrap();
        assert_eq!(e.code(), "rules-version", "{bad}");
    }
    let e = rules
        .new_game_recorded(&o, RECORDED, "0000000000000000")
        .err()
        .unwrap();
    assert_eq!(e.code(), "data");
    // The static-imports option did not exist under rules 2.
    let variant = serde_json::json!({"players": 2, "static_imports": true});
    assert!(rules
        .new_game_recorded(&variant, RECORDED, RECORDED_DATA)
        .is_err());
    assert!(rules.new_game(&variant).is_ok());
    // Its canonical JSON leaves the option out while it is off: old games' options read the
    // same as before it existed.
    let canonical = rules.normalize_options(&o).unwrap();
    assert!(canonical.get("static_imports").is_none(), "{canonical}");
    assert_eq!(
        rules.normalize_options(&variant).unwrap()["static_imports"],
        true
    );
}

#[test]
fn the_samples_replay_under_their_recorded_versions_to_their_outcomes() {
    let all = records(SAMPLES);
    assert_eq!(all.len(), 200);
    let mut lines = Vec::new();
    let mut differ_under_current = 0;
    for (i, r) in all.iter().enumerate() {
        assert_eq!(
            (r.rules_version.as_str(), r.data_hash.as_str()),
            (RECORDED, RECORDED_DATA),
            "sample {i}"
        );
        let s = replay_under(r, &r.rules_version)
            .unwrap_or_else(|ply| panic!("sample {i} refused at ply {ply}"));
        assert_eq!(
            s.to_act(),
            ToAct::Over,
            "sample {i} ends with its last entry"
        );
        lines.push(result_line(s.as_ref()).unwrap());
        match replay_under(r, Caledonia::RULES_VERSION) {
            Ok(t)
                if t.to_act() == ToAct::Over
                    && result_line(t.as_ref()) == lines.last().cloned() => {}
            _ => differ_under_current += 1,
        }
    }
    assert_eq!(fingerprint(&lines), SAMPLE_OUTCOMES, "{lines:?}");
    eprintln!("{differ_under_current} of 200 samples play differently under the current rules");
    assert!(
        differ_under_current > 0,
        "no sample plays differently under the current rules: this test would not notice a lost \
         version"
    );
}

#[test]
fn a_snapshot_of_an_old_game_keeps_its_rules_version() {
    let rules = Erased::<Caledonia>::new();
    for r in records(SAMPLES).iter().step_by(50) {
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

/// The start of a 3-player game typed in from its deal (issue 37's first reproduction): seat
/// 0 (MacKenzie, 2 wool from start tile 1, miners next to port 6 on a1 and port 2 on l1) sells
/// a wool, which puts its merchant on wool's sell side and so blocks buying wool this round.
/// Its next turn it moves wool's price with port 6, gives its last wool away with port 2 (no
/// trade of wool is possible any more) and hires.
const LOOPHOLE: &str = "\
dealer deal sides=1111 ports=6,2,3,4 tiles=1,2,3,4,5 first=0 offer=mackenzie/1,cunningham/2,campbell/3,robertson/4 boxes=1,2,3,4,5
2 clan campbell
1 clan cunningham
0 clan mackenzie
0 place miner b1
1 place miner f4
2 place miner g4
2 place woodcutter e5
1 place woodcutter g7
0 place miner k2
0 sell wool 1
0 done
1 hire
2 hire
0 port 6 wool+
0 port 2 wool>milk+milk+milk
0 hire
1 pass";

fn entries(text: &str) -> Vec<(Actor, &str)> {
    text.lines()
        .map(|l| {
            let (who, entry) = l.split_once(' ').unwrap();
            let actor = match who {
                "dealer" => Actor::Dealer,
                s => Actor::Seat(Seat(s.parse().unwrap())),
            };
            (actor, entry)
        })
        .collect()
}

/// Rules version 4 closed port 6's loophole; a game recorded under version 3 that used it
/// still replays, entry for entry, under version 3, and is refused under version 4 at the
/// entry that made the trade impossible, with nothing changed.
#[test]
fn a_game_recorded_under_rules_3_with_the_port_6_loophole_replays_as_recorded() {
    let rules = Erased::<Caledonia>::new();
    let o = serde_json::json!({"players": 3});
    let data = Caledonia::data_hash();
    let log = entries(LOOPHOLE);
    let mut g = rules
        .new_game_recorded(&o, "clans-of-caledonia/3", &data)
        .unwrap();
    for (actor, text) in &log {
        g.apply(*actor, text)
            .unwrap_or_else(|e| panic!("rules 3 refused `{text}`: {e}"));
    }
    // Wool's price moved (step 3, a step down by the sale, 3 up by port 6: step 5, £5), no
    // wool traded after it (the one sale was the turn before), and the game went on.
    let view = g.view(rules_core::Viewer::Omniscient);
    assert_eq!(view["market"][0]["good"], "wool", "{view}");
    assert_eq!(view["market"][0]["step"], 5, "{view}");
    assert_eq!(view["seats"][0]["goods"]["wool"], 0, "{view}");
    assert_eq!(view["seats"][0]["goods"]["milk"], 3, "{view}");
    assert_eq!(g.to_act(), ToAct::Seat(Seat(2)));

    let mut g = rules
        .new_game_recorded(&o, "clans-of-caledonia/4", &data)
        .unwrap();
    let at = log
        .iter()
        .position(|(_, t)| t.starts_with("port 2"))
        .unwrap();
    for (actor, text) in &log[..at] {
        g.apply(*actor, text).unwrap();
    }
    let before = g.encode();
    let (actor, text) = log[at];
    let e = g.apply(actor, text).unwrap_err();
    assert_eq!(e.code(), "port.price-trade-lost", "{e}");
    assert_eq!(g.encode(), before);
    // Under version 4 the turn's main action is the trade: another one is refused, the sale
    // of the last wool is accepted.
    assert_eq!(
        g.apply(actor, "hire").unwrap_err().code(),
        "port.price-unused"
    );
    assert_eq!(
        g.apply(actor, "pass").unwrap_err().code(),
        "port.price-unused"
    );
    g.apply(actor, "sell wool 1").unwrap();
    assert_eq!(
        rules.rules_versions()[0],
        Rules::CURRENT.name(),
        "new games are made under version 4"
    );
}
