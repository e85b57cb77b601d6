//! Views: the contract pile's order is hidden from everyone (its size shows); a building
//! bonus draw is seen by its drawer alone (Ruling C11); everything else is public.

use caledonia::state::Phase;
use caledonia::{Caledonia, Chance, Options};
use rules_core::{playout, Action, Game, Seat, Viewer};

#[test]
fn the_pile_shows_its_size_only() {
    let p = playout::<Caledonia>(&Options::new(3), 5, 20_000, true).unwrap();
    let v = serde_json::to_value(Caledonia::view(&p.state, Viewer::Spectator)).unwrap();
    assert!(v["pile"].is_u64());
    // Two positions that differ only in which contracts the pile holds (same count) and in
    // the order of those put under it look the same to everyone.
    let mut s = Caledonia::new_game(&Options::new(3)).unwrap();
    let mut compared = 0;
    for a in &p.log {
        Caledonia::apply(&mut s, a).unwrap();
        if s.pile.count_ones() < 2 {
            continue;
        }
        let mut t = s.clone();
        let low = t.pile & t.pile.wrapping_neg();
        let free = (!t.pile) & !1 & ((1u64 << 51) - 1);
        t.pile = (t.pile & !low) | (free & free.wrapping_neg());
        t.bottom.reverse();
        assert_ne!(s, t);
        for viewer in [
            Viewer::Spectator,
            Viewer::Seat(Seat(0)),
            Viewer::Seat(Seat(2)),
        ] {
            let a = serde_json::to_value(Caledonia::view(&s, viewer)).unwrap();
            let b = serde_json::to_value(Caledonia::view(&t, viewer)).unwrap();
            assert_eq!(a, b, "the pile's contents leak through the view");
        }
        compared += 1;
    }
    assert!(compared > 10);
}

#[test]
fn building_bonus_draws_are_seen_by_their_drawer_only() {
    let mut seen = 0;
    for seed in 0..200u64 {
        let o = Options::new(2 + (seed % 3) as u8);
        let p = playout::<Caledonia>(&o, seed, 20_000, true).unwrap();
        let mut s = Caledonia::new_game(&o).unwrap();
        for a in &p.log {
            if let (Action::Chance(c @ Chance::Draw(_)), Phase::Draw(t)) = (a, &s.phase) {
                let drawer = Seat(t.seat);
                let other = Seat((t.seat + 1) % o.players);
                assert!(Caledonia::chance_visible(&s, c, Viewer::Seat(drawer)));
                assert!(!Caledonia::chance_visible(&s, c, Viewer::Seat(other)));
                assert!(!Caledonia::chance_visible(&s, c, Viewer::Spectator));
                let mut after = s.clone();
                Caledonia::apply(&mut after, a).unwrap();
                let contracts = |v: Viewer| {
                    let draw = Caledonia::view(&after, v)
                        .draw
                        .expect("a pending draw shows");
                    assert_eq!(draw.seat, t.seat);
                    draw.contracts
                };
                assert!(contracts(Viewer::Seat(drawer)).is_some());
                assert!(contracts(Viewer::Omniscient).is_some());
                assert!(contracts(Viewer::Seat(other)).is_none());
                assert!(contracts(Viewer::Spectator).is_none());
                seen += 1;
            } else if let Action::Chance(c) = a {
                assert!(Caledonia::chance_visible(&s, c, Viewer::Spectator));
            }
            Caledonia::apply(&mut s, a).unwrap();
        }
    }
    assert!(seen > 0, "no building bonus in 200 games");
}

#[test]
fn views_are_public_otherwise() {
    let p = playout::<Caledonia>(&Options::new(4), 9, 20_000, false).unwrap();
    let a = serde_json::to_value(Caledonia::view(&p.state, Viewer::Seat(Seat(0)))).unwrap();
    let b = serde_json::to_value(Caledonia::view(&p.state, Viewer::Spectator)).unwrap();
    assert_eq!(a, b);
    assert_eq!(a["seats"].as_array().map(Vec::len), Some(4));
}
