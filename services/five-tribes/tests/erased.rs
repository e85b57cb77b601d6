//! Five Tribes through the type-erased interface the store and API use: entries as text,
//! snapshots as bytes, keyed state hashes.

use five_tribes::{FiveTribes, Options};
use rules_core::{playout, Action, Actor, Erased, GameRules, Notation, ToAct, Viewer};

#[test]
fn text_entries_rebuild_the_game_and_snapshots_round_trip() {
    let rules = Erased::<FiveTribes>::new();
    for seed in 0..10u64 {
        let players = 2 + (seed % 3) as u8;
        let p = playout::<FiveTribes>(&Options { players }, seed, 100_000, true).unwrap();
        let mut s = rules
            .new_game(&serde_json::json!({ "players": players }))
            .unwrap();
        for (ply, a) in p.log.iter().enumerate() {
            let (actor, text) = match a {
                Action::Move(seat, m) => (Actor::Seat(*seat), FiveTribes::format_move(m)),
                Action::Chance(c) => {
                    // The store's dealer deals exactly what the playout dealt.
                    let dealt = s
                        .deal(seed, rules_core::Ply(ply as u32))
                        .expect("a chance node");
                    assert_eq!(dealt, FiveTribes::format_chance(c));
                    (Actor::Dealer, dealt)
                }
            };
            s.apply(actor, &text).unwrap();
            if ply % 37 == 0 {
                let back = rules.decode_state(&s.encode()).unwrap();
                assert_eq!(back.encode(), s.encode());
                assert_eq!(back.state_hash([7; 16]), s.state_hash([7; 16]));
                assert_ne!(s.state_hash([7; 16]), s.state_hash([8; 16]));
                assert_eq!(back.view(Viewer::Spectator), s.view(Viewer::Spectator));
            }
        }
        assert_eq!(s.to_act(), ToAct::Over);
        assert_eq!(s.outcome(), Some(p.outcome));
    }
}

#[test]
fn bad_text_and_bad_options_are_typed_errors() {
    let rules = Erased::<FiveTribes>::new();
    assert_eq!(
        rules
            .new_game(&serde_json::json!({ "players": 9 }))
            .err()
            .unwrap()
            .code(),
        "options"
    );
    assert_eq!(
        rules
            .new_game(&serde_json::json!({ "players": 3, "x": 1 }))
            .err()
            .unwrap()
            .code(),
        "options"
    );
    assert_eq!(
        rules
            .new_game(&serde_json::json!("three"))
            .err()
            .unwrap()
            .code(),
        "options"
    );
    let mut s = rules
        .new_game(&serde_json::json!({ "players": 3 }))
        .unwrap();
    let before = s.encode();
    assert_eq!(
        s.apply(Actor::Dealer, "deal nonsense").unwrap_err().code(),
        "notation"
    );
    assert_eq!(
        s.apply(Actor::Seat(rules_core::Seat(0)), "end")
            .unwrap_err()
            .code(),
        "turn.wrong-seat"
    );
    assert_eq!(s.encode(), before);
    assert_eq!(
        rules.decode_state(b"garbage").err().unwrap().code(),
        "snapshot"
    );
    assert_eq!(
        rules
            .decode_state(b"five-tribes/1\0\xff\xff")
            .err()
            .unwrap()
            .code(),
        "snapshot"
    );
}

/// The bytes the state hash is taken of, written by hand (`Game::encode_by_hand`), are
/// postcard's for the same state: at every ply of 45 games of 2–4 players, under both rules
/// versions, and with values that take more than one varint byte.
#[test]
fn a_state_written_by_hand_is_its_postcard_bytes() {
    use five_tribes::state::{Phase, Rules, Stage};
    use rules_core::state_hash::HashBytes;
    use rules_core::Game;
    let check = |s: &five_tribes::state::State, what: &str| {
        HashBytes::with(|by_hand| {
            assert!(FiveTribes::encode_by_hand(s, by_hand), "written by hand");
            assert_eq!(
                by_hand.as_slice(),
                postcard::to_allocvec(s).unwrap().as_slice(),
                "{what}"
            );
        });
    };
    let mut stages = std::collections::BTreeSet::new();
    for seed in 0..45u64 {
        let players = 2 + (seed % 3) as u8;
        let p = playout::<FiveTribes>(&Options { players }, seed, 100_000, true).unwrap();
        let mut s = FiveTribes::new_game(&Options { players }).unwrap();
        check(&s, "new game");
        for (ply, a) in p.log.iter().enumerate() {
            FiveTribes::apply(&mut s, a).unwrap();
            check(&s, &format!("seed {seed} ply {ply}"));
            if let Phase::Turn { stage, .. } = &s.phase {
                stages.insert(
                    format!("{stage:?}")
                        .split([' ', '{', '('])
                        .next()
                        .unwrap()
                        .to_string(),
                );
                if let Stage::Moving { .. } = stage {
                    stages.insert("Moving".into());
                }
            }
            if ply % 50 == 0 {
                let mut t = s.clone();
                t.rules = Rules::V1;
                t.round = 300;
                for p in t.seats.iter_mut() {
                    p.gold = 1_000_000 + u32::from(p.camels);
                }
                t.djinn_deck.0 = u32::MAX;
                // A tile no board has, whose text has a two-digit row.
                t.pending = Some(five_tribes::state::Draw::Meeples(
                    2,
                    five_tribes::ids::Tile(200),
                ));
                check(&t, &format!("seed {seed} ply {ply}, large values"));
            }
        }
    }
    // The stages random games reach, each checked above.
    for st in [
        "Start",
        "Moving",
        "Builders",
        "Assassins",
        "TileAction",
        "Free",
    ] {
        assert!(stages.contains(st), "{st} not reached: {stages:?}");
    }
}
