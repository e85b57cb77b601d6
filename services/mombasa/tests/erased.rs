//! Mombasa through the type-erased interface the store and API use: entries as text,
//! snapshots as bytes, keyed state hashes, options as JSON.

use mombasa::{Mombasa, Options};
use rules_core::{playout, Action, Actor, Erased, GameRules, Notation, ToAct, Viewer};

#[test]
fn text_entries_rebuild_the_game_and_snapshots_round_trip() {
    let rules = Erased::<Mombasa>::new();
    for seed in 0..9u64 {
        let players = 2 + (seed % 3) as u8;
        let o = Options {
            players,
            first_game: seed % 2 == 1,
            track_cards: seed % 3 == 1,
            first_player: None,
        };
        let p = playout::<Mombasa>(&o, seed, 20_000, true).unwrap();
        let mut s = rules.new_game(&serde_json::to_value(&o).unwrap()).unwrap();
        for (ply, a) in p.log.iter().enumerate() {
            let (actor, text) = match a {
                Action::Move(seat, m) => (Actor::Seat(*seat), Mombasa::format_move(m)),
                Action::Chance(c) => {
                    let dealt = s
                        .deal(seed, rules_core::Ply(ply as u32))
                        .expect("a chance node");
                    assert_eq!(dealt, Mombasa::format_chance(c));
                    (Actor::Dealer, dealt)
                }
            };
            s.apply(actor, &text).unwrap();
            if ply % 29 == 0 {
                let back = rules.decode_state(&s.encode()).unwrap();
                assert_eq!(back.encode(), s.encode());
                assert_eq!(back.state_hash([7; 16]), s.state_hash([7; 16]));
                assert_eq!(back.view(Viewer::Spectator), s.view(Viewer::Spectator));
            }
        }
        assert_eq!(s.to_act(), ToAct::Over);
        assert_eq!(s.outcome(), Some(p.outcome));
    }
}

#[test]
fn bad_text_and_bad_options_are_typed_errors() {
    let rules = Erased::<Mombasa>::new();
    let code = |v: serde_json::Value| rules.new_game(&v).err().unwrap().code();
    assert_eq!(code(serde_json::json!({ "players": 5 })), "options");
    assert_eq!(code(serde_json::json!({ "players": 3, "x": 1 })), "options");
    let norm = rules
        .normalize_options(&serde_json::json!({ "players": 3 }))
        .unwrap();
    assert_eq!(
        norm,
        serde_json::json!({ "players": 3, "first_game": false, "track_cards": false })
    );
    let mut s = rules
        .new_game(&serde_json::json!({ "players": 2 }))
        .unwrap();
    let before = s.encode();
    assert_eq!(
        s.apply(Actor::Dealer, "nonsense").unwrap_err().code(),
        "notation"
    );
    assert_eq!(
        s.apply(Actor::Seat(rules_core::Seat(0)), "ready")
            .unwrap_err()
            .code(),
        "turn.wrong-seat"
    );
    assert_eq!(s.encode(), before);
    assert!(rules.decode_state(b"garbage").is_err());
    assert_eq!(rules.kind().as_str(), "mombasa");
    assert_eq!(rules.data_hash().len(), 16);
}

#[test]
fn the_start_tile_deal_is_hidden_from_other_viewers_in_logs() {
    let rules = Erased::<Mombasa>::new();
    let o = Options {
        players: 2,
        first_game: false,
        track_cards: false,
        first_player: None,
    };
    let p = playout::<Mombasa>(&o, 4, 20_000, true).unwrap();
    let mut s = rules.new_game(&serde_json::to_value(&o).unwrap()).unwrap();
    for a in p.log.iter().take(3) {
        if let Action::Chance(c) = a {
            let text = Mombasa::format_chance(c);
            if text.starts_with("tiles 0") {
                let seat0 = Viewer::Seat(rules_core::Seat(0));
                let seat1 = Viewer::Seat(rules_core::Seat(1));
                assert_eq!(s.entry_text(Actor::Dealer, &text, seat0), text);
                assert_eq!(s.entry_text(Actor::Dealer, &text, seat1), "hidden");
            }
            s.apply(Actor::Dealer, &text).unwrap();
        }
    }
}
