//! The view and layout schemas (`Presentation`; their conventions are checked for every game
//! in `services/api/tests/conventions.rs`): every position of every sample game validates against the view
//! schema for a spectator, every seat and the omniscient viewer; a spectator never sees a hand,
//! an unrevealed plan or a start tile before its reveal, the omniscient viewer does.

#[path = "support/samples.rs"]
mod samples;

use mombasa::{Chance, Mombasa, Move, Phase, State};
use rules_core::{Game, Presentation, Seat, Viewer};
use samples::{replay_games, replay_samples, Entry};
use serde_json::Value;

/// What a spectator must not see of a position, and the omniscient viewer must.
fn check_secrets(s: &State, spectator: &Value, omniscient: &Value) {
    let over = s.phase == Phase::Over;
    let plans_secret = matches!(s.phase, Phase::Planning | Phase::Reveal);
    let starts_secret = matches!(
        s.phase,
        Phase::Setup | Phase::StartDeal | Phase::StartKeep | Phase::StartReveal
    );
    for (i, p) in s.seats.iter().enumerate() {
        let spec = &spectator["seats"][i];
        let all = &omniscient["seats"][i];
        assert!(all["hand"].is_array());
        assert_eq!(
            all["hand"].as_array().map(Vec::len),
            Some(p.hand.count_ones() as usize)
        );
        assert_eq!(spec["handSize"], all["handSize"]);
        assert_eq!(spec["hand"].is_null(), !over, "a spectator sees a hand");
        let planned = p.slots.iter().filter(|&&c| c != 255).count();
        let shown = |v: &Value| {
            v["slots"].as_array().map_or(0, |sl| {
                sl.iter().filter(|x| x.get("card").is_some()).count()
            })
        };
        let backs = |v: &Value| {
            v["slots"].as_array().map_or(0, |sl| {
                sl.iter()
                    .map(|x| x["cards"].as_u64().unwrap_or(0))
                    .sum::<u64>()
            })
        };
        assert_eq!(shown(all), planned);
        assert_eq!(backs(spec), planned as u64);
        if plans_secret && !over {
            assert_eq!(shown(spec), 0, "a spectator sees a plan before the reveal");
        } else {
            assert_eq!(shown(spec), planned);
        }
        if p.start != 255 {
            assert!(all.get("startTile").is_some());
            assert_eq!(spec.get("startTile").is_some(), !starts_secret);
        }
        assert_eq!(all["dealtTiles"].is_array(), p.dealt[0] != 255);
        if !over {
            assert!(spec["dealtTiles"].is_null());
            for t in spec["companyTracks"].as_array().unwrap() {
                assert!(t["cardShares"].is_null());
            }
        }
    }
}

/// Checks one position: the spectator's and the omniscient viewer's views validate against
/// the schema, and each seat's view is the spectator's with that seat's own part as the
/// omniscient viewer sees it. So each seat's view validates too (its parts are validated
/// ones, and the schema checks each seat on its own), without validating it again: the test
/// stays short, and a seat provably sees its own secrets and no one else's.
fn check_position(s: &State, validator: &jsonschema::Validator) {
    let valid = |viewer: Viewer| {
        let view = Mombasa::view(s, viewer);
        let v = serde_json::to_value(&view).unwrap();
        if !validator.is_valid(&v) {
            let errors: Vec<String> = validator
                .iter_errors(&v)
                .map(|e| format!("{e} at {}", e.instance_path()))
                .collect();
            panic!("{viewer} in {:?}: {}", s.phase, errors.join("; "));
        }
        (view, v)
    };
    let (spectator, spectator_json) = valid(Viewer::Spectator);
    let (omniscient, omniscient_json) = valid(Viewer::Omniscient);
    for seat in 0..s.players {
        let i = usize::from(seat);
        let mut expected = spectator.clone();
        expected.seats[i] = omniscient.seats[i].clone();
        assert_eq!(
            Mombasa::view(s, Viewer::Seat(Seat(seat))),
            expected,
            "seat {seat}"
        );
    }
    let mut public = spectator.clone();
    public.seats.clone_from(&omniscient.seats);
    assert_eq!(
        public, omniscient,
        "the omniscient viewer sees the spectator's table"
    );
    check_secrets(s, &spectator_json, &omniscient_json);
}

#[test]
fn every_sample_position_validates_for_every_viewer() {
    let schema = Mombasa::view_schema();
    let validator = jsonschema::validator_for(&schema).expect("the view schema compiles");
    // The games shared out between the cores: every position of every game is checked.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let positions: usize = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|k| {
                let validator = &validator;
                scope.spawn(move || {
                    let n = std::cell::Cell::new(0usize);
                    let check = |s: &State| {
                        n.set(n.get() + 1);
                        check_position(s, validator);
                    };
                    replay_games(|g| g % threads == k, |_, s, _| check(s), |_, s| check(s));
                    n.get()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).sum()
    });
    assert!(positions > 30_000, "{positions}");
}

#[test]
fn the_omniscient_viewer_sees_every_secret_entry_and_seats_only_their_own() {
    let mut secret = 0;
    replay_samples(
        |_, s, e| match e {
            Entry::Move(seat, m @ (Move::Plan { .. } | Move::Ready | Move::Keep(_))) => {
                secret += 1;
                assert!(Mombasa::move_visible(s, *seat, m, Viewer::Omniscient));
                assert!(Mombasa::move_visible(s, *seat, m, Viewer::Seat(*seat)));
                let other = Seat((seat.0 + 1) % s.players);
                assert!(!Mombasa::move_visible(s, *seat, m, Viewer::Seat(other)));
                assert!(!Mombasa::move_visible(s, *seat, m, Viewer::Spectator));
            }
            Entry::Move(seat, m) => assert!(Mombasa::move_visible(s, *seat, m, Viewer::Spectator)),
            Entry::Chance(c @ Chance::StartTiles { seat, .. }) => {
                assert!(Mombasa::chance_visible(s, c, Viewer::Omniscient));
                assert!(Mombasa::chance_visible(s, c, Viewer::Seat(Seat(*seat))));
                let other = Seat((seat + 1) % s.players);
                assert!(!Mombasa::chance_visible(s, c, Viewer::Seat(other)));
                assert!(!Mombasa::chance_visible(s, c, Viewer::Spectator));
            }
            Entry::Chance(c) => assert!(Mombasa::chance_visible(s, c, Viewer::Spectator)),
        },
        |_, _| {},
    );
    assert!(secret > 1000);
}
