//! Rules versions: a stored game replays under the rules version it was recorded with
//! (`Game::rules_versions`), so a rules correction never changes an old game.
//!
//! The random samples kept as test data (`tests/data/random-samples/mombasa.ndjson`) were recorded under `mombasa/1` (and
//! the archived data `218af102b689d316`). They replay under it to their recorded end and
//! outcomes; under the current rules (`mombasa/4`; since `mombasa/2` a drawn first player,
//! books replaced at once, ...) their logs are refused, since those rules ask for entries the
//! old logs lack. Games played under `mombasa/2` by a fixed rule are pinned, entry by entry and
//! position by position, as that version played them before `mombasa/3` (no bonus marker from
//! the company tracks, no held bonus tile won: rulings M15, M16) existed; games under
//! `mombasa/3` as they played before `mombasa/4` (one cancel a turn: ruling MB18) existed.

use mombasa::ids::NONE;
use mombasa::state::Rules;
use mombasa::Mombasa;
use mombasa::Options;
use rules_core::{Actor, Dealer, Erased, Game, GameRules, GameState, Notation, Ply, ToAct};
use scenario_harness::samples::{fingerprint, records, replay, result_line, Record};

const SAMPLES: &str = include_str!("../../../tests/data/random-samples/mombasa.ndjson");
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
    assert_eq!(
        Mombasa::rules_versions(),
        ["mombasa/4", "mombasa/3", "mombasa/2", "mombasa/1"]
    );
    assert_eq!(Mombasa::RULES_VERSION, Rules::CURRENT.name());
    let rules = Erased::<Mombasa>::new();
    assert_eq!(rules.rules_versions(), Mombasa::rules_versions());
    let o = serde_json::json!({"players": 3});
    let data = Mombasa::data_hash();
    for v in Mombasa::rules_versions() {
        assert!(rules.new_game_recorded(&o, v, &data).is_ok(), "{v}");
    }
    for bad in ["mombasa/0", "mombasa/5", "", "five-tribes/1", "MOMBASA/1"] {
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
    assert!(rules.new_game_recorded(&table, "mombasa/3", &data).is_ok());
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

/// A game played by a fixed rule (dealer outcomes from the seed; moves picked from the legal
/// list, a majority space whenever the pick lands near one), with what `mombasa/3` changed.
struct Played {
    /// The entries as a log stores them.
    entries: Vec<(Actor, String)>,
    /// FNV-1a of the position's bytes (postcard) after each entry: the whole position, not
    /// only the scores.
    digests: Vec<u64>,
    /// Scores and winners.
    result: String,
    /// Bonus markers gained after setup (company-track spaces).
    markers_gained: u32,
    /// Bonus tiles won by a seat while another seat held them.
    held_tiles_won: u32,
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn options_for(seed: u64) -> Options {
    Options {
        players: 2 + (seed % 3) as u8,
        first_game: seed % 4 == 1,
        track_cards: seed % 3 == 2,
        first_player: None,
    }
}

fn play(rules_version: &str, seed: u64) -> Played {
    let o = options_for(seed);
    let mut s = Mombasa::new_game_versioned(&o, rules_version, &Mombasa::data_hash())
        .unwrap()
        .unwrap();
    let mut p = Played {
        entries: Vec::new(),
        digests: Vec::new(),
        result: String::new(),
        markers_gained: 0,
        held_tiles_won: 0,
    };
    let mut ply = 0u32;
    while Mombasa::to_act(&s) != ToAct::Over {
        let (actor, text) = match Mombasa::to_act(&s) {
            ToAct::Chance => {
                let c = Dealer::for_ply(seed, Ply(ply)).deal::<Mombasa>(&s).unwrap();
                (Actor::Dealer, Mombasa::format_chance(&c))
            }
            ToAct::Seat(seat) => {
                let mut legal = mombasa::legal::MoveList::new();
                Mombasa::legal_moves(&s, &mut legal);
                let texts: Vec<String> = legal.iter().map(Mombasa::format_move).collect();
                let pick = (seed as usize * 31 + ply as usize * 17) % texts.len();
                let majority = [
                    "bonus coffee",
                    "bonus banana",
                    "bonus cotton",
                    "bonus expansion",
                ];
                let chosen = texts
                    .iter()
                    .find(|t| majority.contains(&t.as_str()))
                    .filter(|_| pick.is_multiple_of(2))
                    .unwrap_or(&texts[pick]);
                (Actor::Seat(seat), chosen.clone())
            }
            ToAct::Over => unreachable!(),
        };
        let before = s.clone();
        match actor {
            Actor::Seat(seat) => {
                Mombasa::play(&mut s, seat, &Mombasa::parse_move(&text).unwrap()).unwrap()
            }
            Actor::Dealer => {
                Mombasa::resolve(&mut s, &Mombasa::parse_chance(&text).unwrap()).unwrap()
            }
        }
        for (a, b) in before.seats.iter().zip(&s.seats) {
            p.markers_gained += u32::from(b.markers.saturating_sub(a.markers));
        }
        for t in 0..s.tile_won.len() {
            let (held, won) = (s.tile_at[t], s.tile_won[t]);
            if before.tile_won[t] == NONE && won != NONE && held != NONE && held != won {
                p.held_tiles_won += 1;
            }
        }
        p.digests.push(fnv(&postcard::to_allocvec(&s).unwrap()));
        p.entries.push((actor, text));
        ply += 1;
        assert!(ply < 20_000);
    }
    let o = Mombasa::outcome(&s).unwrap();
    let totals: Vec<String> = o.scores.iter().map(|x| x.total.to_string()).collect();
    let winners: Vec<String> = o.winners.iter().map(|w| w.0.to_string()).collect();
    p.result = format!("{} / {}", totals.join(" "), winners.join(" "));
    p
}

/// One line per game: every entry with the digest of the position after it, then the result.
fn played_line(p: &Played) -> String {
    let mut line = String::new();
    for ((a, t), d) in p.entries.iter().zip(&p.digests) {
        line.push_str(&format!("{a} {t} {d:016x}\n"));
    }
    line + &p.result
}

/// [`fingerprint`] of [`played_line`] of the games of seeds 0..12 under `mombasa/2`,
/// computed by the build before `mombasa/3` existed.
const MOMBASA_2_GAMES: u64 = 12081293649658919529;

fn record_of(p: &Played, seed: u64, rules_version: &str) -> Record {
    Record {
        options: serde_json::to_value(options_for(seed)).unwrap(),
        rules_version: rules_version.into(),
        data_hash: Mombasa::data_hash(),
        entries: p.entries.clone(),
    }
}

/// Games under `mombasa/2` play, entry by entry and position by position, as they did before
/// `mombasa/3`: bonus markers gained on the company tracks, bonus tiles won while another
/// seat held them. Their logs replay from their text under `mombasa/2` to the same end.
#[test]
fn games_under_mombasa_2_play_as_before_mombasa_3() {
    let mut lines = Vec::new();
    let (mut markers, mut held) = (0, 0);
    for seed in 0..12u64 {
        let p = play("mombasa/2", seed);
        markers += p.markers_gained;
        held += p.held_tiles_won;
        let back = replay_under(&record_of(&p, seed, "mombasa/2"), "mombasa/2")
            .unwrap_or_else(|ply| panic!("seed {seed} refused at ply {ply}"));
        assert_eq!(back.to_act(), ToAct::Over, "seed {seed}");
        assert_eq!(result_line(back.as_ref()).unwrap(), p.result, "seed {seed}");
        lines.push(played_line(&p));
    }
    // The games do what `mombasa/3` changed, so the pin below would notice a change.
    assert!(
        markers >= 50 && held >= 30,
        "{markers} markers, {held} held tiles won"
    );
    assert_eq!(fingerprint(&lines), MOMBASA_2_GAMES);
}

/// Under `mombasa/3` (rulings M15, M16) no seat ever has a bonus marker beyond those of setup
/// step 11 and no tile is won while another seat holds it; the `mombasa/2` games' logs
/// replayed under it end differently or are refused (the version is what keeps them).
#[test]
fn under_mombasa_3_no_marker_leaves_the_box_and_no_held_tile_is_won() {
    let mut differ = 0;
    for seed in 0..12u64 {
        let p = play("mombasa/3", seed);
        assert_eq!(p.markers_gained, 0, "seed {seed}");
        assert_eq!(p.held_tiles_won, 0, "seed {seed}");
        let back = replay_under(&record_of(&p, seed, "mombasa/3"), "mombasa/3").unwrap();
        let view = back.view(rules_core::Viewer::Omniscient);
        let start =
            mombasa::data::components().markers_start[usize::from(options_for(seed).players)];
        for seat in view["seats"].as_array().unwrap() {
            assert_eq!(seat["bonusMarkers"], u64::from(start), "seed {seed}");
        }
        let old = play("mombasa/2", seed);
        match replay_under(&record_of(&old, seed, "mombasa/2"), "mombasa/3") {
            Ok(s) if result_line(s.as_ref()).as_ref() == Some(&old.result) => {}
            _ => differ += 1,
        }
    }
    assert!(differ >= 6, "{differ} of 12");
}

/// [`fingerprint`] of [`played_line`] of the games of seeds 0..12 under `mombasa/3`,
/// computed by the build before `mombasa/4` existed.
const MOMBASA_3_GAMES: u64 = 11810655269133088004;

/// The cancels in `p`.
fn cancels(p: &Played) -> usize {
    p.entries.iter().filter(|(_, t)| t == "cancel").count()
}

/// Games under `mombasa/3` play, entry by entry and position by position, as they did before
/// `mombasa/4`, cancelling an action again and again in one turn; their logs are refused under
/// `mombasa/4` at the second cancel of a turn (ruling MB18: one a turn).
#[test]
fn games_under_mombasa_3_play_as_before_mombasa_4() {
    let mut lines = Vec::new();
    let (mut all, mut refused) = (0, 0);
    for seed in 0..12u64 {
        let p = play("mombasa/3", seed);
        all += cancels(&p);
        let back = replay_under(&record_of(&p, seed, "mombasa/3"), "mombasa/3")
            .unwrap_or_else(|ply| panic!("seed {seed} refused at ply {ply}"));
        assert_eq!(result_line(back.as_ref()).unwrap(), p.result, "seed {seed}");
        if let Err(ply) = replay_under(&record_of(&p, seed, "mombasa/3"), "mombasa/4") {
            // Refused at a cancel that followed another of the same seat, no other seat between.
            let (actor, text) = &p.entries[ply];
            assert_eq!(text, "cancel", "seed {seed}, entry {ply}");
            let earlier = p.entries[..ply]
                .iter()
                .rev()
                .take_while(|(a, t)| a == actor && !t.starts_with("end "))
                .any(|(_, t)| t == "cancel");
            assert!(
                earlier,
                "seed {seed}, entry {ply}: no earlier cancel this turn"
            );
            refused += 1;
        }
        lines.push(played_line(&p));
    }
    // The games cancel, some twice a turn, so the pin below would notice a change.
    assert!(
        all >= 20 && refused >= 3,
        "{all} cancels, {refused} refused"
    );
    assert_eq!(fingerprint(&lines), MOMBASA_3_GAMES);
}
