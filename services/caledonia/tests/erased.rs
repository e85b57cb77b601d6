//! Caledonia behind the store's type-erased interface: JSON options, notation entries,
//! snapshots, tags, features and data coverage.

use caledonia::Caledonia;
use rules_core::{playout, Action, Actor, Erased, GameRules, Notation, Viewer};

#[test]
fn a_game_replays_through_the_erased_interface() {
    let rules = Erased::<Caledonia>::new();
    let opts = serde_json::json!({"players": 3});
    let norm = rules.normalize_options(&opts).unwrap();
    assert_eq!(norm["market_drift"], serde_json::json!(true));
    assert_eq!(norm["bonus_retrieve"], serde_json::json!(false));
    assert!(rules
        .normalize_options(&serde_json::json!({"players": 3, "nope": 1}))
        .is_err());
    assert!(rules.new_game(&serde_json::json!({"players": 7})).is_err());
    let o: caledonia::Options = serde_json::from_value(norm.clone()).unwrap();
    let p = playout::<Caledonia>(&o, 77, 20_000, true).unwrap();
    let mut g = rules.new_game(&norm).unwrap();
    for (ply, a) in p.log.iter().enumerate() {
        match a {
            Action::Move(s, m) => g
                .apply(Actor::Seat(*s), &Caledonia::format_move(m))
                .unwrap(),
            Action::Chance(c) => {
                let text = Caledonia::format_chance(c);
                assert_eq!(
                    g.deal(77, rules_core::Ply(ply as u32)).as_deref(),
                    Some(text.as_str())
                );
                g.apply(Actor::Dealer, &text).unwrap();
            }
        }
    }
    assert_eq!(g.outcome(), Some(p.outcome.clone()));
    let bytes = g.encode();
    let back = rules.decode_state(&bytes).unwrap();
    assert_eq!(back.encode(), bytes);
    assert!(g.view(Viewer::Spectator)["seats"].is_array());
    let tags = g.tags();
    assert_eq!(tags.len(), 3);
    assert!(tags
        .iter()
        .all(|t| t.iter().any(|x| x.starts_with("clan:"))));
    let mut f = rules_core::Features::default();
    g.features(&mut f);
    let schema = rules.feature_schema();
    assert_eq!(f.global.len(), schema.global.len());
    assert_eq!(f.seats.len(), 3 * schema.seat.len());
    let cov = rules.data_coverage();
    assert!(cov.verified > 0 && cov.reconstructed > 0);
}

#[test]
fn bad_entries_are_typed_errors() {
    let rules = Erased::<Caledonia>::new();
    let mut g = rules.new_game(&serde_json::json!({"players": 2})).unwrap();
    assert_eq!(
        g.apply(Actor::Dealer, "deal nonsense").unwrap_err().code(),
        "notation"
    );
    assert_eq!(
        g.apply(Actor::Seat(rules_core::Seat(0)), "pass")
            .unwrap_err()
            .code(),
        "turn.wrong-seat"
    );
    let before = g.encode();
    assert!(g.apply(Actor::Dealer, "draw 1,2,3").is_err());
    assert_eq!(g.encode(), before);
}

/// Snapshots and position hashes are what stores hold: the bytes of every position of these
/// games, and its hash, are those the build before the state kept its map wrote (the digest of
/// all of them, recorded then). A snapshot read back plays on exactly as the game it was taken
/// from: the map a read state finds is its own.
///
/// Pinned again when rules version 4 became current (issue 37): a snapshot starts with the
/// current version's name and a state records its version, so both changed. Nothing else did:
/// these four playouts are the same games under versions 3 and 4, and replayed under version 3
/// every snapshot's body (the bytes after the version's name) was checked byte for byte equal
/// to the build before (the earlier digest was `0x4d0f_e5bd_a1bd_ad62`).
#[test]
fn snapshots_and_hashes_stay_those_stores_hold_and_a_read_snapshot_plays_on() {
    let rules = Erased::<Caledonia>::new();
    let mut digest = 0u64;
    for (seed, players) in [(5u64, 1u8), (6, 2), (7, 3), (8, 4)] {
        let norm = rules
            .normalize_options(&serde_json::json!({ "players": players }))
            .unwrap();
        let o: caledonia::Options = serde_json::from_value(norm.clone()).unwrap();
        let p = playout::<Caledonia>(&o, seed, 20_000, true).unwrap();
        let text: Vec<(Actor, String)> = p
            .log
            .iter()
            .map(|a| match a {
                Action::Move(s, m) => (Actor::Seat(*s), Caledonia::format_move(m)),
                Action::Chance(c) => (Actor::Dealer, Caledonia::format_chance(c)),
            })
            .collect();
        let mut g = rules.new_game(&norm).unwrap();
        for (ply, (actor, entry)) in text.iter().enumerate() {
            g.apply(*actor, entry).unwrap();
            let bytes = g.encode();
            let h = g.state_hash([7; 16]);
            digest = digest.rotate_left(5) ^ h ^ bytes.len() as u64;
            if ply % 29 == 0 {
                // Read back mid-game, then play the rest on the copy.
                let mut back = rules.decode_state(&bytes).unwrap();
                assert_eq!(back.encode(), bytes);
                for (actor, entry) in &text[ply + 1..] {
                    back.apply(*actor, entry).unwrap();
                }
                let mut rest = rules.decode_state(&bytes).unwrap();
                for (actor, entry) in &text[ply + 1..] {
                    rest.apply(*actor, entry).unwrap();
                }
                assert_eq!(back.encode(), rest.encode());
                assert_eq!(back.outcome(), Some(p.outcome.clone()));
            }
        }
    }
    assert_eq!(digest, 0x0ec9_fb7c_bc0c_34f9);
}

/// `rules_core::replay`, which the replay benchmarks and their instruction counts use: a log
/// replays from its text to the state of the parsed replay, and an entry that does not parse,
/// or is refused, is named by its index, with the entries before it applied.
#[test]
fn a_text_log_replays_and_names_the_entry_it_stops_at() {
    use rules_core::replay::{replay_actions, replay_text, replay_texts, text_log};
    use rules_core::Game;
    let o = caledonia::Options::new(3);
    let p = playout::<Caledonia>(&o, 11, 20_000, true).unwrap();
    let text = text_log::<Caledonia>(&p.log);
    let mut s = Caledonia::new_game(&o).unwrap();
    replay_text::<Caledonia>(&mut s, &text).unwrap();
    let mut parsed = Caledonia::new_game(&o).unwrap();
    for a in &p.log {
        Caledonia::apply(&mut parsed, a).unwrap();
    }
    assert_eq!(s, parsed);
    let games = vec![(o, p.log.clone())];
    assert_eq!(replay_actions::<Caledonia>(&games, 2), Ok(2 * p.log.len()));
    let texts = vec![(o, text.clone())];
    assert_eq!(replay_texts::<Caledonia>(&texts, 2), Ok(2 * text.len()));
    // A move that does not parse, and one that parses but is refused (the same move twice).
    let at = text
        .iter()
        .position(|(actor, _)| matches!(actor, Actor::Seat(_)))
        .unwrap();
    for bad in ["no such move".to_string(), text[at].1.clone()] {
        let mut broken = text.clone();
        broken.insert(at + 1, (text[at].0, bad));
        let mut s = Caledonia::new_game(&o).unwrap();
        assert_eq!(replay_text::<Caledonia>(&mut s, &broken), Err(at + 1));
        let mut before = Caledonia::new_game(&o).unwrap();
        replay_text::<Caledonia>(&mut before, &text[..=at]).unwrap();
        assert_eq!(
            s, before,
            "the entries before the bad one are applied, no more"
        );
        let texts = vec![(o, broken)];
        assert_eq!(replay_texts::<Caledonia>(&texts, 1), Err(at + 1));
    }
}

/// Issue 37, one notation discipline, on the path the store takes: a list whose order the
/// rules leave open is stored in its canonical order whatever order it was entered in, and a
/// number that names no component at all (contract 51) is a notation error (`notation`: the
/// API's BAD_NOTATION) at every position of a game, where before its code depended on the
/// position (`contract.not-offered`, `contract.one-open`, `turn.main-action-taken`, ...).
#[test]
fn lists_are_stored_canonical_and_a_number_naming_nothing_is_a_notation_error_everywhere() {
    use rules_core::{Seat, ToAct};
    let rules = Erased::<Caledonia>::new();
    let norm = rules
        .normalize_options(&serde_json::json!({"players": 4}))
        .unwrap();
    let g = rules.new_game(&norm).unwrap();
    let seat = Actor::Seat(Seat(0));
    for (text, stored) in [
        ("obtain 3+2", "obtain 2+3"),
        ("fulfil 35+16", "fulfil 16+35"),
        (
            "fulfil 35+16 slaughter g5+f5",
            "fulfil 16+35 slaughter f5+g5",
        ),
        ("keep 11+8", "keep 8+11"),
        ("port 2 milk>grain+wool+wool", "port 2 milk>wool+wool+grain"),
        ("port 3 cheese>whisky+bread", "port 3 cheese>bread+whisky"),
        (
            "port ks 2 grain>grain+milk+wool",
            "port ks 2 grain>wool+milk+grain",
        ),
    ] {
        assert_eq!(g.canonical(seat, text).unwrap(), stored, "{text}");
        assert_eq!(g.canonical(seat, stored).unwrap(), stored, "{stored}");
    }
    // Chance outcomes record what the table laid out or drew, in that order (box order, the
    // order drawn: the contracts not kept go under the pile in it): stored as entered.
    assert_eq!(
        g.canonical(Actor::Dealer, "draw 30,10,20").unwrap(),
        "draw 30,10,20"
    );

    let o: caledonia::Options = serde_json::from_value(norm.clone()).unwrap();
    let mut codes_of_obtain_1 = std::collections::BTreeSet::new();
    let mut positions = 0;
    for seed in [3u64, 4, 5] {
        let p = playout::<Caledonia>(&o, seed, 20_000, true).unwrap();
        let mut g = rules.new_game(&norm).unwrap();
        for a in &p.log {
            let before = g.encode();
            match g.to_act() {
                ToAct::Seat(s) => {
                    let e = g.apply(Actor::Seat(s), "obtain 51").unwrap_err();
                    assert_eq!(e.code(), "notation", "{e}");
                    for bad in ["obtain 0", "fulfil 51", "keep 51", "port 10", "cellar 3"] {
                        let e = g.apply(Actor::Seat(s), bad).unwrap_err();
                        assert_eq!(e.code(), "notation", "{bad}: {e}");
                    }
                    if let Err(e) = g.clone_box().apply(Actor::Seat(s), "obtain 1") {
                        codes_of_obtain_1.insert(e.code().to_string());
                    }
                }
                ToAct::Chance => {
                    for bad in ["draw 51", "prep refill=51 drift=-"] {
                        let e = g.apply(Actor::Dealer, bad).unwrap_err();
                        assert_eq!(e.code(), "notation", "{bad}: {e}");
                    }
                }
                ToAct::Over => {}
            }
            assert_eq!(g.encode(), before);
            positions += 1;
            match a {
                Action::Move(s, m) => g
                    .apply(Actor::Seat(*s), &Caledonia::format_move(m))
                    .unwrap(),
                Action::Chance(c) => g
                    .apply(Actor::Dealer, &Caledonia::format_chance(c))
                    .unwrap(),
            }
        }
    }
    // The positions were varied enough that a contract that exists is refused under several
    // codes: the notation error does not depend on them.
    assert!(positions > 200, "{positions}");
    assert!(codes_of_obtain_1.len() >= 3, "{codes_of_obtain_1:?}");
}
