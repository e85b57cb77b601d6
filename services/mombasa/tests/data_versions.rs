//! Data versions: a game replays under the component data it was recorded with, after the data
//! has been corrected (`data/mombasa/archive/`, `data/mombasa/SOURCES.md`).
//!
//! - The random samples kept as test data (`tests/data/random-samples/mombasa.ndjson`, recorded under data version
//!   `218af102b689d316`, now archived, and rules version `mombasa/1`) still import and replay
//!   to their recorded end with the outcomes they had, though `data_hash()` is now that of the
//!   corrected files; replayed under the corrected data instead (same rules), some of them play
//!   differently — the archive is what keeps them. (`tests/rules_versions.rs` does the same
//!   for the rules version.)
//! - Games recorded in the test itself under the archived version replay the same way (this
//!   part holds whatever happens to the sample file).

use mombasa::notation::parse_card;
use mombasa::{Mombasa, Options};
use rules_core::{Actor, Erased, Game, GameRules, GameState, Ply, ToAct};
use scenario_harness::samples::{fingerprint, records, result_line, Record};

/// The data version the samples were recorded with, before the correction.
const ARCHIVED: &str = "218af102b689d316";
const SAMPLES: &str = include_str!("../../../tests/data/random-samples/mombasa.ndjson");

/// Replays a record under its recorded rules version and the data version `data_hash`: the
/// final state, or the ply refused.
fn replay(r: &Record, data_hash: &str) -> Result<Box<dyn GameState>, usize> {
    let rules = Erased::<Mombasa>::new();
    let s = rules
        .new_game_recorded(&r.options, &r.rules_version, data_hash)
        .unwrap();
    scenario_harness::samples::replay(s, r)
}

/// Totals and winners of a finished game, as one line.
fn result(s: &dyn GameState) -> String {
    result_line(s).expect("the game is over")
}

#[test]
fn the_data_was_corrected_and_the_old_version_is_still_replayable() {
    assert_ne!(Mombasa::data_hash(), ARCHIVED);
    let versions = Mombasa::data_versions();
    assert_eq!(versions.first(), Some(&Mombasa::data_hash()));
    assert!(versions.iter().any(|v| v == ARCHIVED), "{versions:?}");
    let o = Options {
        players: 3,
        first_game: false,
        track_cards: false,
        first_player: None,
    };
    assert!(Mombasa::new_game_with_data(&o, ARCHIVED).is_some_and(|r| r.is_ok()));
    assert!(Mombasa::new_game_with_data(&o, "0000000000000000").is_none());
    assert!(Mombasa::new_game_with_data(&o, &ARCHIVED.to_uppercase()).is_none());
    assert!(Mombasa::new_game_with_data(&o, "").is_none());
    let bad = Options { players: 5, ..o };
    assert!(Mombasa::new_game_with_data(&bad, ARCHIVED).is_some_and(|r| r.is_err()));
    let s = Mombasa::new_game_with_data(&o, ARCHIVED).unwrap().unwrap();
    assert_eq!(format!("{:016x}", s.data), ARCHIVED);
    // The rules read the game's own version: C7 had 4 helmets before the correction, 3 now.
    let c7 = usize::from(parse_card("C7").unwrap().0);
    assert_eq!(s.data().cards[c7].value, 4);
    assert_eq!(Mombasa::new_game(&o).unwrap().data().cards[c7].value, 3);
}

#[test]
fn a_snapshot_without_the_data_version_is_not_misread() {
    // Snapshots made before `State::data` existed end where it now begins: they must fail to
    // decode (the store then replays the log), not decode into another state.
    let rules = Erased::<Mombasa>::new();
    let options = serde_json::json!({"players": 4});
    let s = rules
        .new_game_recorded(&options, "mombasa/1", ARCHIVED)
        .unwrap();
    let bytes = s.encode();
    let hash = u64::from_str_radix(ARCHIVED, 16).unwrap();
    let varint = (64 - hash.leading_zeros()).div_ceil(7).max(1) as usize;
    assert!(rules.decode_state(&bytes).is_ok());
    assert!(rules.decode_state(&bytes[..bytes.len() - varint]).is_err());
}

#[test]
fn the_samples_replay_under_their_archived_data_as_they_were_played() {
    let records = records(SAMPLES);
    assert_eq!(records.len(), 200);
    let mut lines = Vec::new();
    let mut differ_under_current = 0;
    for (i, r) in records.iter().enumerate() {
        assert_eq!(
            r.data_hash, ARCHIVED,
            "sample {i}: the samples were regenerated; this test needs records made under the \
             archived version (keep a copy of the old file, or rely on the generated records below)"
        );
        let s =
            replay(r, &r.data_hash).unwrap_or_else(|ply| panic!("sample {i} refused at ply {ply}"));
        assert_eq!(
            s.to_act(),
            ToAct::Over,
            "sample {i} ends with its last entry"
        );
        lines.push(result(s.as_ref()));
        match replay(r, &Mombasa::data_hash()) {
            Ok(t) if t.to_act() == ToAct::Over && result(t.as_ref()) == lines[i] => {}
            _ => differ_under_current += 1,
        }
    }
    eprintln!("{differ_under_current} of 200 samples play differently under the corrected data");
    // The outcomes the samples had when they were recorded (before the correction).
    assert_eq!(fingerprint(&lines), SAMPLE_OUTCOMES, "{lines:?}");
    assert!(
        differ_under_current > 0,
        "the correction changes no sample game: this test would not notice a missing archive"
    );
}

/// [`fingerprint`] of the samples' outcomes, computed before the data was corrected.
const SAMPLE_OUTCOMES: u64 = 15480342122599435388;

#[test]
fn games_recorded_under_the_archived_data_replay_identically() {
    let rules = Erased::<Mombasa>::new();
    for seed in 0..12u64 {
        let players = 2 + (seed % 3) as u8;
        let o = Options {
            players,
            first_game: seed % 4 == 1,
            track_cards: seed % 3 == 2,
            first_player: (seed % 5 == 3).then(|| (seed % u64::from(players)) as u8),
        };
        let options = serde_json::to_value(&o).unwrap();
        // Record a game under the archived data: dealer outcomes from the seed, moves picked
        // by a fixed rule from the legal list.
        let mut s = rules
            .new_game_recorded(&options, Mombasa::RULES_VERSION, ARCHIVED)
            .unwrap();
        let mut entries = Vec::new();
        let mut ply = 0u32;
        while s.to_act() != ToAct::Over {
            let (actor, text) = match s.to_act() {
                ToAct::Chance => (Actor::Dealer, s.deal(seed, Ply(ply)).unwrap()),
                ToAct::Seat(seat) => {
                    let legal = s.legal_moves();
                    let pick = (seed as usize * 31 + ply as usize * 17) % legal.len();
                    (Actor::Seat(seat), legal[pick].clone())
                }
                ToAct::Over => unreachable!(),
            };
            s.apply(actor, &text).unwrap();
            entries.push((actor, text));
            ply += 1;
            assert!(ply < 20_000);
        }
        let record = Record {
            options,
            rules_version: Mombasa::RULES_VERSION.into(),
            data_hash: ARCHIVED.into(),
            entries,
        };
        let back = replay(&record, &record.data_hash).unwrap();
        assert_eq!(back.encode(), s.encode(), "seed {seed}");
        assert_eq!(back.outcome(), s.outcome());
        // A decoded snapshot keeps its data version.
        let decoded = rules.decode_state(&s.encode()).unwrap();
        assert_eq!(decoded.encode(), s.encode());
    }
}
