//! A position's evaluation (`ai::evaluate`) over the three games: a finished game's is its
//! outcome exactly; a search's is a function of its seed, its win chances share out one win,
//! and its best moves are the seat's legal moves; the eventual winner leads a position
//! shortly before the end; and an evaluation for a seat or a spectator does not change when
//! what they cannot see is replaced by another assignment consistent with their view.
use ai::{evaluate, play_game, BotSpec, Evaluation};
use rules_core::{Dealer, Game, MoveBuf, ToAct, Viewer};

fn options<G: Game>(players: u8) -> G::Options {
    serde_json::from_value(serde_json::json!({ "players": players })).unwrap()
}

/// Every position of a seeded random game, from the first to the last.
fn positions<G: Game>(players: u8, seed: u64) -> Vec<G::State> {
    let bots = vec![BotSpec::Random; usize::from(players)];
    let played = play_game::<G>(&options::<G>(players), &bots, seed, 100_000).unwrap();
    let mut s = G::new_game(&options::<G>(players)).unwrap();
    let mut out = vec![s.clone()];
    for a in &played.log {
        G::apply(&mut s, a).unwrap();
        out.push(s.clone());
    }
    out
}

fn check_shape<G: Game>(s: &G::State, e: &Evaluation<G::Move>, players: usize) {
    assert_eq!(e.seats.len(), players);
    let total: f64 = e.seats.iter().map(|x| x.win).sum();
    assert!(
        (total - 1.0).abs() < 1e-9,
        "{:?}: wins sum to {total}",
        G::KIND
    );
    for x in &e.seats {
        assert!(x.low <= x.win + 1e-12 && x.win <= x.high + 1e-12, "{x:?}");
        assert!((1.0..=players as f64).contains(&x.rank), "{x:?}");
    }
    assert!(e.best.windows(2).all(|w| w[0].visits >= w[1].visits));
    let mut list = G::MoveList::default();
    for m in &e.best {
        G::legal_moves_of(s, m.seat, &mut list);
        assert!(
            list.as_slice().contains(&m.mv),
            "{:?}: best move {:?} is not seat {}'s",
            G::KIND,
            m.mv,
            m.seat
        );
        assert!(m.low <= m.win && m.win <= m.high);
    }
}

fn finished_and_searched<G: Game>(players: u8) {
    let all = positions::<G>(players, 5);
    let end = all.last().unwrap();
    let o = G::outcome(end).unwrap();
    let e = evaluate::<G>(end, Viewer::Spectator, 500, 3, 1);
    assert!(e.exact && e.iterations == 0 && e.best.is_empty());
    for x in &e.seats {
        let won = o.winners.contains(&x.seat);
        assert_eq!(
            x.win,
            if won {
                1.0 / o.winners.len() as f64
            } else {
                0.0
            }
        );
        assert_eq!(x.score, f64::from(o.score(x.seat).unwrap().total));
    }
    check_shape::<G>(end, &e, usize::from(players));

    let mut searched = 0;
    for s in all.iter().step_by(all.len() / 5) {
        if matches!(G::to_act(s), ToAct::Over) {
            continue;
        }
        let e = evaluate::<G>(s, Viewer::Omniscient, 120, 3, 9);
        assert!(!e.exact && e.iterations == 120, "{e:?}");
        assert!(e.playouts > 0 && e.playouts <= 120);
        check_shape::<G>(s, &e, usize::from(players));
        assert_eq!(
            e,
            evaluate::<G>(s, Viewer::Omniscient, 120, 3, 9),
            "same seed"
        );
        searched += 1;
    }
    assert!(searched >= 4);
}

#[test]
fn evaluations_are_outcomes_at_the_end_and_searches_before() {
    finished_and_searched::<five_tribes::FiveTribes>(3);
    finished_and_searched::<caledonia::Caledonia>(2);
    finished_and_searched::<mombasa::Mombasa>(4);
}

/// A few seat moves before the end of each of `games` random games, the seat that goes on to
/// win has the best win chance in at least `need` of them.
fn the_winner_leads_near_the_end<G: Game>(players: u8, games: u64, need: usize) {
    let mut led = 0;
    for g in 0..games {
        let all = positions::<G>(players, 100 + g);
        let o = G::outcome(all.last().unwrap()).unwrap();
        let seat_moves: Vec<&G::State> = all
            .iter()
            .filter(|s| matches!(G::to_act(s), ToAct::Seat(_)))
            .collect();
        let s = seat_moves[seat_moves.len().saturating_sub(4)];
        let e = evaluate::<G>(s, Viewer::Omniscient, 300, 0, g);
        let top = e
            .seats
            .iter()
            .max_by(|a, b| a.win.total_cmp(&b.win))
            .unwrap()
            .seat;
        if o.winners.contains(&top) {
            led += 1;
        }
    }
    assert!(
        led >= need,
        "{:?}: the eventual winner led {led} of {games} near the end",
        G::KIND
    );
}

#[test]
fn the_eventual_winner_leads_shortly_before_the_end() {
    the_winner_leads_near_the_end::<five_tribes::FiveTribes>(3, 10, 8);
    the_winner_leads_near_the_end::<caledonia::Caledonia>(3, 10, 8);
    the_winner_leads_near_the_end::<mombasa::Mombasa>(3, 10, 8);
}

/// The swap test: at positions where something is hidden from `viewer`, the evaluation for
/// `viewer` is the same when the hidden part is another assignment consistent with its view.
fn blind_to_secrets<G: Game>(players: u8, games: u64, at_least: usize)
where
    G::State: PartialEq,
{
    let mut checked = 0;
    for g in 0..games {
        for (i, s) in positions::<G>(players, 300 + g).iter().enumerate() {
            if !matches!(G::to_act(s), ToAct::Seat(_)) || i % 7 != 0 {
                continue;
            }
            let viewers = (0..players)
                .map(|x| Viewer::Seat(rules_core::Seat(x)))
                .chain([Viewer::Spectator]);
            for viewer in viewers {
                let other = G::determinize(s, viewer, &mut Dealer::new(i as u64, 5));
                if other == *s {
                    continue;
                }
                assert_eq!(
                    evaluate::<G>(s, viewer, 60, 3, i as u64),
                    evaluate::<G>(&other, viewer, 60, 3, i as u64),
                    "{:?}: the evaluation for {viewer:?} read a secret",
                    G::KIND
                );
                checked += 1;
            }
        }
    }
    assert!(
        checked >= at_least,
        "{:?}: {checked} positions with a secret",
        G::KIND
    );
}

#[test]
fn an_evaluation_reads_nothing_its_viewer_cannot_see() {
    blind_to_secrets::<mombasa::Mombasa>(3, 2, 20);
    blind_to_secrets::<five_tribes::FiveTribes>(3, 2, 0);
    blind_to_secrets::<caledonia::Caledonia>(3, 2, 0);
}
