//! Judgements (`ai::judge`): the classes by their stated thresholds, lichess's accuracy
//! formula and its game average, turning points; and, in each game, a position where one move
//! clearly wins and another clearly loses (found near the end of seeded games: every random
//! continuation after the one is won, after the other lost) — the evaluation's best move is a
//! winning one, and the losing move is judged a blunder.
use ai::judge::{self, Class};
use ai::{evaluate, evaluate_for, play_game, BotSpec, Judge};
use rules_core::{ChanceRng, Dealer, Game, MoveBuf, Seat, ToAct, Viewer};

#[test]
fn classes_follow_the_stated_thresholds() {
    assert_eq!(judge::classify(0.5, 0.5, true), Class::Best);
    assert_eq!(
        judge::classify(0.5, 0.1, true),
        Class::Best,
        "the search's own choice"
    );
    assert_eq!(
        judge::classify(0.5, 0.6, false),
        Class::Good,
        "a gain costs nothing"
    );
    assert_eq!(judge::classify(0.5, 0.4401, false), Class::Good);
    assert_eq!(judge::classify(0.5, 0.44, false), Class::Inaccuracy);
    assert_eq!(judge::classify(0.5, 0.3801, false), Class::Inaccuracy);
    assert_eq!(judge::classify(0.5, 0.38, false), Class::Mistake);
    assert_eq!(judge::classify(0.5, 0.3001, false), Class::Mistake);
    assert_eq!(judge::classify(0.5, 0.30, false), Class::Blunder);
    assert_eq!(judge::classify(1.0, 0.0, false), Class::Blunder);
    // A seat with nothing left to lose loses nothing.
    assert_eq!(judge::classify(0.0, 0.0, false), Class::Good);
    let glyphs: Vec<&str> = Class::ALL.iter().map(|c| c.glyph()).collect();
    assert_eq!(glyphs, ["", "", "?!", "?", "??"]);
}

#[test]
fn accuracy_is_lichess_formula_on_win_chances() {
    assert_eq!(judge::move_accuracy(0.5, 0.5), 100.0);
    assert_eq!(judge::move_accuracy(0.3, 0.9), 100.0);
    // Ten points of win chance lost: 103.1668·e^(−0.4354) − 3.1669 + 1 ≈ 64.58.
    assert!((judge::move_accuracy(0.6, 0.5) - 64.58).abs() < 0.01);
    assert_eq!(judge::move_accuracy(1.0, 0.0), 0.0, "clamped at 0");
    let mut last = 100.0;
    for k in 1..=100 {
        let a = judge::move_accuracy(1.0, 1.0 - f64::from(k) / 100.0);
        assert!(a <= last, "falls with the loss");
        last = a;
    }

    assert_eq!(judge::game_accuracy(&[]), None);
    let perfect = vec![(0.5, 0.5); 30];
    assert!((judge::game_accuracy(&perfect).unwrap() - 100.0).abs() < 1e-9);
    // One blunder among thirty perfect moves costs far more than its thirtieth share of a
    // plain mean (the harmonic mean weighs it): lichess's intent.
    let mut one = perfect.clone();
    one[15] = (0.6, 0.2);
    let with_blunder = judge::game_accuracy(&one).unwrap();
    let plain_mean = (29.0 * 100.0 + judge::move_accuracy(0.6, 0.2)) / 30.0;
    assert!(
        with_blunder < plain_mean - 5.0,
        "{with_blunder} vs {plain_mean}"
    );
    let mut two = one.clone();
    two[20] = (0.4, 0.1);
    assert!(judge::game_accuracy(&two).unwrap() < with_blunder);
}

#[test]
fn turning_points_are_the_largest_swings_first() {
    let chances = vec![
        vec![0.5, 0.5],
        vec![0.55, 0.45], // 0.05
        vec![0.2, 0.8],   // 0.35
        vec![0.3, 0.7],   // 0.10
        vec![0.0, 1.0],   // 0.30
        vec![0.35, 0.65], // 0.35, later than the first
    ];
    let t = judge::turning_points(&chances, 3);
    let got: Vec<(u32, f64)> = t
        .iter()
        .map(|s| (s.ply, (s.swing * 100.0).round()))
        .collect();
    assert_eq!(got[0].0, 1);
    assert_eq!(got[1].0, 4);
    assert_eq!(got[2].0, 3);
    assert_eq!(got[0].1.abs(), 35.0);
    assert_eq!(judge::turning_points(&chances, 10).len(), 5);
}

fn options<G: Game>(players: u8) -> G::Options {
    serde_json::from_value(serde_json::json!({ "players": players })).unwrap()
}

/// How often `seat` wins `tries` random continuations of `s`.
fn wins_after<G: Game>(s: &G::State, seat: Seat, tries: u64, seed: u64) -> u64 {
    let mut list = G::MoveList::default();
    let mut won = 0;
    for t in 0..tries {
        let mut st = s.clone();
        let mut rng = Dealer::new(seed, t);
        loop {
            match G::to_act(&st) {
                ToAct::Over => break,
                ToAct::Chance => {
                    let c = G::sample_chance(&st, &mut rng).unwrap();
                    G::resolve(&mut st, &c).unwrap();
                }
                ToAct::Seat(x) => {
                    G::legal_moves(&st, &mut list);
                    let m =
                        list.as_slice()[rng.below(list.as_slice().len() as u32) as usize].clone();
                    G::play(&mut st, x, &m).unwrap();
                }
            }
        }
        let o = G::outcome(&st).unwrap();
        won += u64::from(o.winners == vec![seat]);
    }
    won
}

/// A position near the end of a seeded two-player game where the seat to act has a move
/// after which it wins every random continuation and one after which it loses every one.
fn decisive<G: Game>() -> (G::State, Seat, G::Move, G::Move) {
    for seed in 1..40 {
        let bots = vec![BotSpec::Random; 2];
        let played = play_game::<G>(&options::<G>(2), &bots, seed, 100_000).unwrap();
        let mut s = G::new_game(&options::<G>(2)).unwrap();
        let mut all = vec![s.clone()];
        for a in &played.log {
            G::apply(&mut s, a).unwrap();
            all.push(s.clone());
        }
        let mut list = G::MoveList::default();
        for s in all.iter().rev().take(40) {
            let ToAct::Seat(seat) = G::to_act(s) else {
                continue;
            };
            G::legal_moves(s, &mut list);
            let moves = list.as_slice().to_vec();
            if !(2..=40).contains(&moves.len()) {
                continue;
            }
            let (mut win, mut lose) = (None, None);
            for m in &moves {
                let mut after = s.clone();
                G::play(&mut after, seat, m).unwrap();
                match wins_after::<G>(&after, seat, 12, seed) {
                    12 => win = win.or(Some(m.clone())),
                    0 => lose = lose.or(Some(m.clone())),
                    _ => {}
                }
            }
            if let (Some(w), Some(l)) = (win, lose) {
                return (s.clone(), seat, w, l);
            }
        }
    }
    panic!(
        "{:?}: no decisive position near the end of 39 games",
        G::KIND
    );
}

fn clearly_best_move_is_found<G: Game>() {
    let (s, seat, _, losing) = decisive::<G>();
    let judge = Judge {
        mover: Some(seat),
        played: Some(&losing),
        playouts: 100,
    };
    let e = evaluate_for::<G>(&s, Viewer::Omniscient, judge, 400, usize::MAX, 3);
    let best = &e.best[0];
    assert_eq!(best.seat, seat);
    let mut after = s.clone();
    G::play(&mut after, seat, &best.mv).unwrap();
    assert!(
        wins_after::<G>(&after, seat, 12, 99) >= 10,
        "{:?}: the evaluation's best move {:?} does not win",
        G::KIND,
        best.mv
    );
    let before = e.seats[usize::from(seat.0)].win;
    assert!(
        before > 0.8,
        "{:?}: the seat to act can win: {before}",
        G::KIND
    );
    // The losing move, valued in the same tree with its playouts made sure of, and by a
    // search of the position it makes: a blunder either way.
    let played = e.played.as_ref().expect("the played move valued");
    assert_eq!(played.mv, losing);
    assert!(played.visits >= 100, "{}", played.visits);
    assert_eq!(judge::classify(before, played.win, false), Class::Blunder);
    let mut lost = s.clone();
    G::play(&mut lost, seat, &losing).unwrap();
    let next = evaluate::<G>(&lost, Viewer::Omniscient, 400, 0, 4).seats[usize::from(seat.0)].win;
    assert_eq!(
        judge::classify(before, next, losing == best.mv),
        Class::Blunder,
        "{:?}: {before} then {next}",
        G::KIND
    );
}

#[test]
fn five_tribes_clearly_best_move_is_found() {
    clearly_best_move_is_found::<five_tribes::FiveTribes>();
}

#[test]
fn caledonia_clearly_best_move_is_found() {
    clearly_best_move_is_found::<caledonia::Caledonia>();
}

#[test]
fn mombasa_clearly_best_move_is_found() {
    clearly_best_move_is_found::<mombasa::Mombasa>();
}

/// Valuing the played move adds playouts through it and changes nothing else the evaluation
/// says: the seats' figures and the best moves are those of the same search without it.
#[test]
fn valuing_the_played_move_changes_nothing_else() {
    type G = five_tribes::FiveTribes;
    let (s, seat, _, losing) = decisive::<G>();
    let plain = evaluate_for::<G>(&s, Viewer::Omniscient, Judge::default(), 300, usize::MAX, 8);
    let judge = Judge {
        mover: Some(seat),
        played: Some(&losing),
        playouts: 100,
    };
    let judged = evaluate_for::<G>(&s, Viewer::Omniscient, judge, 300, usize::MAX, 8);
    assert_eq!(plain.seats, judged.seats);
    assert_eq!(plain.best, judged.best);
    assert!(plain.played.is_none());
    let p = judged.played.unwrap();
    assert!(p.visits >= 100);
    // Its own iterations through the move, if any, are part of its figure.
    let own = plain
        .best
        .iter()
        .find(|m| m.mv == losing)
        .map_or(0, |m| m.visits);
    assert!(p.visits <= own.max(100), "{} {own}", p.visits);
}
