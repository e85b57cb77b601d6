//! Planning and the start-tile choice are simultaneous: every seat still deciding may move, in
//! any order. Given a recorded game, when a step's secret choices are replayed seat by seat in
//! reverse order, then the position after the step is the one recorded; and at every such
//! position each deciding seat's listed moves are exactly those accepted, while a seat that
//! has decided (or is not playing) is refused without effect.

use mombasa::{Mombasa, Options, Phase};
use rules_core::{playout, Action, Game, Seat, ToAct};

fn secret_step(s: &mombasa::State) -> bool {
    matches!(s.phase, Phase::Planning | Phase::StartKeep)
}

#[test]
fn deciding_seats_may_move_in_any_order() {
    let mut steps_checked = 0;
    for seed in 0..30u64 {
        let o = Options {
            players: 2 + (seed % 3) as u8,
            first_game: false,
            track_cards: false,
            first_player: None,
        };
        let p = playout::<Mombasa>(&o, seed, 20_000, true).unwrap();
        let mut s = Mombasa::new_game(&o).unwrap();
        let mut i = 0;
        while i < p.log.len() {
            if !(secret_step(&s) && matches!(p.log[i], Action::Move(..))) {
                Mombasa::apply(&mut s, &p.log[i]).unwrap();
                i += 1;
                continue;
            }
            // The run of secret moves of this step, as recorded (seat 0's, then seat 1's…).
            let start = i;
            while i < p.log.len() && matches!(p.log[i], Action::Move(..)) {
                i += 1;
            }
            let run = &p.log[start..i];
            let mut recorded = s.clone();
            for a in run {
                Mombasa::apply(&mut recorded, a).unwrap();
            }
            // Given the step's start, when the seats move last seat first…
            let mut reordered = s.clone();
            let mut by_seat: Vec<&Action<_, _>> = run.iter().collect();
            by_seat.sort_by_key(|a| match a {
                Action::Move(seat, _) => std::cmp::Reverse(seat.0),
                Action::Chance(_) => std::cmp::Reverse(0),
            });
            for a in by_seat {
                check_every_deciding_seat(&reordered, o.players);
                Mombasa::apply(&mut reordered, a).unwrap();
            }
            // …then the position is the recorded one, waiting on the public reveal.
            assert_eq!(reordered, recorded, "seed {seed}, plies {start}..{i}");
            assert_eq!(Mombasa::to_act(&reordered), ToAct::Chance);
            s = recorded;
            steps_checked += 1;
        }
    }
    assert!(steps_checked > 100, "{steps_checked} steps");
}

fn check_every_deciding_seat(s: &mombasa::State, players: u8) {
    let deciding = Mombasa::seats_to_act(s);
    assert!(!deciding.is_empty());
    assert_eq!(
        Mombasa::to_act(s),
        ToAct::Seat(deciding[0]),
        "to_act names the first"
    );
    let mut moves = <Mombasa as Game>::MoveList::default();
    for seat in (0..players + 1).map(Seat) {
        Mombasa::legal_moves_of(s, seat, &mut moves);
        if deciding.contains(&seat) {
            assert!(!moves.as_slice().is_empty());
            for m in moves.as_slice() {
                let mut t = s.clone();
                Mombasa::play(&mut t, seat, m).unwrap_or_else(|e| panic!("{m:?}: {e}"));
            }
        } else {
            assert!(moves.as_slice().is_empty());
            let mut t = s.clone();
            assert!(Mombasa::play(&mut t, seat, &mombasa::Move::Ready).is_err());
            assert_eq!(&t, s, "a refused move changes nothing");
        }
    }
}
