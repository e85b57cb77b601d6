//! OpenSpiel-style check: 1,000 seeded random games over 2, 3 and 4 players (and the rules
//! options) run to the end; every position to act has a legal move, every listed move is
//! accepted, scores add up to their breakdown, winners hold the best total, and the same seed
//! gives the same game.

use mombasa::{Mombasa, Options};
use rules_core::{playout, Game, ToAct};

const GAMES: u64 = 1000;
const MAX_PLIES: u32 = 20_000;

fn options(seed: u64) -> Options {
    let players = 2 + (seed % 3) as u8;
    Options {
        players,
        first_game: seed % 5 == 1,
        track_cards: seed % 4 == 2,
        first_player: (seed % 7 == 3).then(|| (seed % u64::from(players)) as u8),
    }
}

#[test]
fn random_games_finish_with_consistent_scores() {
    let mut plies = 0u64;
    for seed in 0..GAMES {
        let o = options(seed);
        let p = playout::<Mombasa>(&o, seed * 7919 + 3, MAX_PLIES, false)
            .unwrap_or_else(|e| panic!("seed {seed} {o:?}: {e}"));
        plies += u64::from(p.plies);
        assert_eq!(Mombasa::to_act(&p.state), ToAct::Over);
        assert_eq!(Mombasa::round(&p.state), 7);
        assert_eq!(p.outcome.scores.len(), usize::from(o.players));
        for s in &p.outcome.scores {
            assert_eq!(s.total, s.breakdown.iter().map(|(_, v)| v).sum::<i32>());
            assert_eq!(s.breakdown.len(), 7);
        }
        let best = p.outcome.scores.iter().map(|s| s.total).max();
        assert!(!p.outcome.winners.is_empty());
        for w in &p.outcome.winners {
            assert_eq!(Some(p.outcome.score(*w).unwrap().total), best);
        }
        // Components are conserved: 15 posts per company, on the map, in the base or boxed.
        for co in mombasa::ids::Company::ALL {
            let on_map = p.state.regions_of(co).count() as u32;
            let boxed = u32::from(p.state.boxed_posts[co.index()]);
            assert_eq!(
                on_map + p.state.posts_in_base(co) + boxed,
                15,
                "seed {seed}"
            );
        }
    }
    eprintln!("{GAMES} games, {plies} plies");
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let o = options(3);
    let a = playout::<Mombasa>(&o, 42, MAX_PLIES, true).unwrap();
    let b = playout::<Mombasa>(&o, 42, MAX_PLIES, true).unwrap();
    assert_eq!(a.log, b.log);
    assert_eq!(a.state, b.state);
    let c = playout::<Mombasa>(&o, 43, MAX_PLIES, true).unwrap();
    assert_ne!(a.log, c.log);
}

#[test]
fn every_position_to_act_has_a_legal_move() {
    for seed in 0..30u64 {
        let o = options(seed);
        let p = playout::<Mombasa>(&o, seed, MAX_PLIES, true).unwrap();
        let mut s = Mombasa::new_game(&o).unwrap();
        let mut moves = <Mombasa as Game>::MoveList::default();
        for a in &p.log {
            if let ToAct::Seat(_) = Mombasa::to_act(&s) {
                Mombasa::legal_moves(&s, &mut moves);
                assert!(!moves.as_slice().is_empty());
            }
            Mombasa::apply(&mut s, a).unwrap();
        }
        assert_eq!(s, p.state);
    }
}
