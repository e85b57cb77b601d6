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
