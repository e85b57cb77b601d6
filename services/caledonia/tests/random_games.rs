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
    o.static_imports = seed % 7 == 2;
    o
}

#[test]
fn a_thousand_random_games_finish_with_consistent_scores() {
    let mut per_count = [0u32; 5];
    let mut finished = 0u64;
    for seed in 0..GAMES {
        let o = options(seed);
        let p = playout::<Caledonia>(&o, seed * 7919 + 11, 20_000, false)
            .unwrap_or_else(|e| panic!("{o:?} seed {seed}: {e}"));
        assert_eq!(Caledonia::to_act(&p.state), ToAct::Over);
        assert_eq!(p.state.round, 5);
        let n = usize::from(o.players);
        // At least: the deal, the clans, two workers each, a pass per seat and round, and
        // four preparations (with the drift on).
        assert!(
            p.plies as usize >= 1 + n + 2 * n + 5 * n,
            "seed {seed}: {} plies",
            p.plies
        );
        assert!(p.state.seats.iter().all(|s| s.start_tile != 0 && s.passed));
        assert_eq!(p.outcome.scores.len(), n);
        // The sheet read back against the final position (not only against itself).
        for s in &p.outcome.scores {
            let seat = &p.state.seats[usize::from(s.seat.0)];
            let cat = |c: &str| s.category(c).unwrap_or_else(|| panic!("no {c}"));
            assert_eq!(s.total, s.breakdown.iter().map(|(_, v)| v).sum::<i32>());
            assert_eq!(s.breakdown.len(), 7);
            assert_eq!(cat("glory"), seat.glory as i32);
            assert!(seat.money >= 0, "seed {seed}: money {}", seat.money);
            assert_eq!(cat("money"), seat.money / 10);
            assert_eq!(s.tiebreak, Some(i64::from(seat.money % 10)));
            assert_eq!(cat("hops"), i32::from(seat.hops));
            let basic: i32 = seat.goods[..3].iter().map(|&g| i32::from(g)).sum();
            let processed: i32 = seat.goods[3..].iter().map(|&g| i32::from(g)).sum::<i32>()
                + seat.cellar.iter().map(|&b| i32::from(b)).sum::<i32>();
            assert_eq!(cat("goods"), basic + 2 * processed);
            let imports: i32 = seat.imports.iter().map(|&x| i32::from(x)).sum();
            assert!((3 * imports..=5 * imports).contains(&cat("imports")));
            assert!((0..=18).contains(&cat("exports")) && (0..=18).contains(&cat("settlements")));
        }
        // The winners are exactly the best total (then the money left) among the seats.
        let best = p.outcome.scores.iter().map(|s| (s.total, s.tiebreak)).max();
        let mut want: Vec<_> = p
            .outcome
            .scores
            .iter()
            .filter(|s| Some((s.total, s.tiebreak)) == best)
            .map(|s| s.seat)
            .collect();
        want.sort();
        let mut got = p.outcome.winners.clone();
        got.sort();
        assert!(!got.is_empty());
        assert_eq!(got, want, "seed {seed}");
        per_count[n] += 1;
        finished += 1;
    }
    assert_eq!(finished, GAMES);
    assert_eq!(per_count, [0, 250, 250, 250, 250]);
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
