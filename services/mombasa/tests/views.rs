//! Views and hidden information: hands, planned cards before the reveal, start tiles before
//! theirs, and the order of the deck and book supply are hidden as the rules say; rest piles
//! and everything on the table are public. Secret moves are seen by their seat only.

use mombasa::{Chance, Mombasa, Move, Options, Phase, State};
use rules_core::{playout, Action, Game, Seat, Viewer};

fn play_until(o: &Options, seed: u64, stop: impl Fn(&State) -> bool) -> State {
    let p = playout::<Mombasa>(o, seed, 20_000, true).unwrap();
    let mut s = Mombasa::new_game(o).unwrap();
    for a in &p.log {
        if stop(&s) {
            break;
        }
        Mombasa::apply(&mut s, a).unwrap();
    }
    s
}

fn opts() -> Options {
    Options {
        players: 3,
        first_game: false,
        track_cards: false,
        first_player: None,
    }
}

#[test]
fn hands_are_seen_by_their_owner_only() {
    let s = play_until(&opts(), 5, |s| s.phase == Phase::Actions);
    let own = serde_json::to_value(Mombasa::view(&s, Viewer::Seat(Seat(0)))).unwrap();
    let other = serde_json::to_value(Mombasa::view(&s, Viewer::Seat(Seat(1)))).unwrap();
    let spec = serde_json::to_value(Mombasa::view(&s, Viewer::Spectator)).unwrap();
    assert!(own["seats"][0]["hand"].is_array());
    assert!(other["seats"][0]["hand"].is_null());
    assert!(spec["seats"][0]["hand"].is_null());
    // Sizes and rest piles are public.
    assert!(own["seats"][0]["handSize"].as_u64().unwrap() > 0);
    assert_eq!(other["seats"][0]["handSize"], own["seats"][0]["handSize"]);
    assert_eq!(other["seats"][0]["restPiles"], own["seats"][0]["restPiles"]);
    // The deck is counts only, per letter: no order anywhere in the view.
    for letter in ["a", "b", "c", "d", "e"] {
        assert!(spec["deck"][letter].is_number(), "{}", spec["deck"]);
    }
}

#[test]
fn planned_cards_are_hidden_until_the_reveal() {
    let s = play_until(&opts(), 7, |s| {
        s.phase == Phase::Planning && s.seats[0].ready && s.seats[0].slots.iter().any(|&c| c != 255)
    });
    assert_eq!(s.phase, Phase::Planning);
    let other = serde_json::to_value(Mombasa::view(&s, Viewer::Seat(Seat(1)))).unwrap();
    let own = serde_json::to_value(Mombasa::view(&s, Viewer::Seat(Seat(0)))).unwrap();
    // Another seat sees how many cards lie in each slot, as backs, and none of them.
    let slots = other["seats"][0]["slots"].as_array().unwrap();
    assert!(slots.iter().any(|x| x["cards"] == 1), "{slots:?}");
    assert!(!slots.iter().any(|x| x.get("card").is_some()), "{slots:?}");
    let own_slots = own["seats"][0]["slots"].as_array().unwrap();
    assert!(own_slots.iter().any(|x| x.get("card").is_some()));
    for (a, b) in slots.iter().zip(own_slots) {
        assert_eq!(a["cards"], b["cards"], "the counts are public");
    }
}

#[test]
fn secret_moves_are_seen_by_their_seat_and_the_reveal_by_all() {
    let o = opts();
    let p = playout::<Mombasa>(&o, 11, 20_000, true).unwrap();
    let mut s = Mombasa::new_game(&o).unwrap();
    let mut secret = 0;
    let mut reveals = 0;
    for a in &p.log {
        match a {
            Action::Move(seat, m @ (Move::Plan { .. } | Move::Ready | Move::Keep(_))) => {
                assert!(Mombasa::move_visible(&s, *seat, m, Viewer::Seat(*seat)));
                let other = Seat((seat.0 + 1) % 3);
                assert!(!Mombasa::move_visible(&s, *seat, m, Viewer::Seat(other)));
                assert!(!Mombasa::move_visible(&s, *seat, m, Viewer::Spectator));
                secret += 1;
            }
            Action::Move(seat, m) => {
                assert!(Mombasa::move_visible(&s, *seat, m, Viewer::Spectator));
            }
            Action::Chance(c @ Chance::StartTiles { seat, .. }) => {
                assert!(Mombasa::chance_visible(&s, c, Viewer::Seat(Seat(*seat))));
                assert!(!Mombasa::chance_visible(&s, c, Viewer::Spectator));
            }
            Action::Chance(c @ (Chance::Reveal(_) | Chance::Starts(_))) => {
                assert!(Mombasa::chance_visible(&s, c, Viewer::Spectator));
                reveals += 1;
            }
            Action::Chance(c) => assert!(Mombasa::chance_visible(&s, c, Viewer::Spectator)),
        }
        Mombasa::apply(&mut s, a).unwrap();
    }
    assert!(secret > 20);
    assert_eq!(reveals, 8); // the start tiles, then 7 rounds
}

#[test]
fn start_tiles_are_hidden_until_revealed() {
    let s = play_until(&opts(), 3, |s| s.phase == Phase::StartReveal);
    assert_eq!(s.phase, Phase::StartReveal);
    let other = serde_json::to_value(Mombasa::view(&s, Viewer::Seat(Seat(1)))).unwrap();
    let own = serde_json::to_value(Mombasa::view(&s, Viewer::Seat(Seat(0)))).unwrap();
    assert!(other["seats"][0]["startTile"].is_null());
    assert!(other["seats"][0]["dealtTiles"].is_null());
    assert!(
        !own["seats"][0]["startTile"].is_null(),
        "{}",
        own["seats"][0]
    );
    assert_eq!(own["seats"][0]["dealtTiles"].as_array().unwrap().len(), 2);
    let later = play_until(&opts(), 3, |s| s.phase == Phase::Planning);
    let v = serde_json::to_value(Mombasa::view(&later, Viewer::Spectator)).unwrap();
    assert!(!v["seats"][1]["startTile"].is_null());
    let tags = Mombasa::tags(&later);
    assert!(tags[1].iter().any(|t| t.starts_with("start:T")));
}

#[test]
fn everything_is_shown_after_the_game() {
    let p = playout::<Mombasa>(&opts(), 2, 20_000, false).unwrap();
    let v = serde_json::to_value(Mombasa::view(&p.state, Viewer::Spectator)).unwrap();
    assert!(v["seats"][2]["hand"].is_array());
    // The rest piles went back to the hand at the end (rules 2, Ruling MB20): the final view
    // shows every card a seat owns in its hand and no pile.
    for (i, seat) in p.state.seats.iter().enumerate() {
        let view = &v["seats"][i];
        for pile in view["restPiles"].as_array().unwrap() {
            assert!(
                pile["cards"].as_array().unwrap().is_empty(),
                "seat {i}: {pile}"
            );
        }
        let hand = view["hand"].as_array().unwrap().len() as u32;
        assert_eq!(hand, seat.all_cards().count_ones(), "seat {i}");
    }
}

#[test]
fn features_match_the_schema() {
    let schema = Mombasa::feature_schema();
    let p = playout::<Mombasa>(&opts(), 9, 20_000, false).unwrap();
    let mut f = rules_core::Features::default();
    Mombasa::features(&p.state, &mut f);
    assert_eq!(f.global.len(), schema.global.len());
    assert_eq!(f.seats.len(), schema.seat.len() * 3);
    for name in schema.global.iter().chain(schema.seat) {
        assert!(name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'));
        assert!(!["ply", "round", "phase", "to_act", "players"].contains(name));
    }
    assert!(schema.phase_index(Mombasa::phase(&p.state)).is_some());
    // The score feature is the score.
    let score_at = schema.seat.iter().position(|n| *n == "score").unwrap();
    assert_eq!(f.seats[score_at], i64::from(p.outcome.scores[0].total));
    let cov = Mombasa::data_coverage();
    assert!(cov.reconstructed > cov.verified && cov.verified > 0);
}
