//! Seeded random complete games over 1–4 players: every position to act has a legal move,
//! every listed move is accepted, scores add up to their breakdown, features keep their shape,
//! and the same seed gives the same game.

use caledonia::{Caledonia, Options};
use rules_core::{playout, Game, ToAct};

const GAMES: u64 = 1000;

fn options(seed: u64) -> Options {
    let mut o = Options::new(1 + (seed % 4) as u8);
    // Cover the rules options too: a quarter without drift, a quarter with Kickstarter parts.
    o.market_drift = seed % 8 != 3;
    o.kickstarter = seed % 4 == 1 || seed % 16 == 6;
    o.bonus_retrieve = seed.is_multiple_of(3);
    o.port7_neighbour_bonus = !seed.is_multiple_of(5);
    o
}

#[test]
fn a_thousand_random_games_finish_with_consistent_scores() {
    for seed in 0..GAMES {
        let o = options(seed);
        let p = playout::<Caledonia>(&o, seed * 7919 + 11, 20_000, false)
            .unwrap_or_else(|e| panic!("{o:?} seed {seed}: {e}"));
        assert_eq!(Caledonia::to_act(&p.state), ToAct::Over);
        assert_eq!(p.state.round, 5);
        assert_eq!(p.outcome.scores.len(), usize::from(o.players));
        for s in &p.outcome.scores {
            assert_eq!(s.total, s.breakdown.iter().map(|(_, v)| v).sum::<i32>());
        }
        assert!(!p.outcome.winners.is_empty());
    }
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let o = Options::new(3);
    let a = playout::<Caledonia>(&o, 42, 20_000, true).unwrap();
    let b = playout::<Caledonia>(&o, 42, 20_000, true).unwrap();
    assert_eq!(a.log, b.log);
    assert_eq!(a.state, b.state);
    let c = playout::<Caledonia>(&o, 43, 20_000, true).unwrap();
    assert_ne!(a.log, c.log);
}

#[test]
fn every_position_has_a_legal_move_and_a_well_shaped_feature_block() {
    for seed in 0..40u64 {
        let o = options(seed);
        let p = playout::<Caledonia>(&o, seed, 20_000, true).unwrap();
        let mut s = Caledonia::new_game(&o).unwrap();
        let mut moves = <Caledonia as Game>::MoveList::default();
        for a in &p.log {
            rules_core::features::check_shape::<Caledonia>(&s).unwrap();
            if let ToAct::Seat(_) = Caledonia::to_act(&s) {
                Caledonia::legal_moves(&s, &mut moves);
                assert!(!moves.as_slice().is_empty());
            }
            Caledonia::apply(&mut s, a).unwrap();
        }
        rules_core::features::check_shape::<Caledonia>(&s).unwrap();
        assert_eq!(s, p.state);
    }
}
