//! OpenSpiel-style check: seeded random games in 2, 3 and 4 players run to the end, every
//! position to act has a legal move, every listed move is accepted, scores add up to their
//! breakdown, and the same seed gives the same game.

use five_tribes::{FiveTribes, Options};
use rules_core::{playout, Game, ToAct};

const GAMES_PER_COUNT: u64 = 400;

#[test]
fn random_games_finish_with_consistent_scores() {
    let mut total = 0;
    for players in 2..=4u8 {
        for seed in 0..GAMES_PER_COUNT {
            let p = playout::<FiveTribes>(
                &Options { players },
                seed * 7919 + u64::from(players),
                5000,
                false,
            )
            .unwrap_or_else(|e| panic!("{players}p seed {seed}: {e}"));
            assert_eq!(FiveTribes::to_act(&p.state), ToAct::Over);
            assert_eq!(p.outcome.scores.len(), usize::from(players));
            for s in &p.outcome.scores {
                assert_eq!(s.total, s.breakdown.iter().map(|(_, v)| v).sum::<i32>());
            }
            assert!(!p.outcome.winners.is_empty());
            let best = p.outcome.scores.iter().map(|s| s.total).max();
            for w in &p.outcome.winners {
                assert_eq!(Some(p.outcome.score(*w).unwrap().total), best);
            }
            total += 1;
        }
    }
    assert_eq!(total, 1200);
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let a = playout::<FiveTribes>(&Options { players: 3 }, 42, 5000, true).unwrap();
    let b = playout::<FiveTribes>(&Options { players: 3 }, 42, 5000, true).unwrap();
    assert_eq!(a.log, b.log);
    assert_eq!(a.state, b.state);
    let c = playout::<FiveTribes>(&Options { players: 3 }, 43, 5000, true).unwrap();
    assert_ne!(a.log, c.log);
}

#[test]
fn every_position_to_act_has_a_legal_move() {
    for seed in 0..60u64 {
        let players = 2 + (seed % 3) as u8;
        let p = playout::<FiveTribes>(&Options { players }, seed, 5000, true).unwrap();
        let mut s = FiveTribes::new_game(&Options { players }).unwrap();
        let mut moves = <FiveTribes as Game>::MoveList::default();
        for a in &p.log {
            rules_core::features::check_shape::<FiveTribes>(&s).unwrap();
            if let ToAct::Seat(_) = FiveTribes::to_act(&s) {
                FiveTribes::legal_moves(&s, &mut moves);
                assert!(!moves.as_slice().is_empty());
            }
            FiveTribes::apply(&mut s, a).unwrap();
        }
        assert_eq!(s, p.state);
    }
}
