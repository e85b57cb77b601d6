//! `Game::determinize` over every position of the random sample games kept as test data
//! (`tests/data/random-samples/five-tribes.ndjson`), for every viewer: each seat, a spectator and the
//! omniscient viewer.
//!
//! - the generic properties (`rules_core::determinize::check_at`: the same view, the same seats
//!   to act and own moves, the state itself for a viewer who sees all, a changed state plays on
//!   to an end);
//! - only the secret changes: Sibittis's draw and the pile it came from, never gold (known from
//!   the public entries) nor anything else, and never for the drawer or the omniscient viewer;
//! - conservation: every djinn is in exactly one place, the same count of each as the real
//!   state;
//! - variation: a pending draw is really resampled for everyone but its drawer when the pile has
//!   others to swap in (and the samples hold such positions);
//! - determinism: the same seed gives the same state.

use five_tribes::ids::{Djinn, DjinnSet};
use five_tribes::state::{Phase, Stage};
use five_tribes::{Chance, FiveTribes, Move, Options, State};
use rules_core::determinize::check_at;
use rules_core::{Action, Actor, Dealer, Game, Notation, Seat, Viewer};

const SAMPLES: &str = include_str!("../../../tests/data/random-samples/five-tribes.ndjson");
/// A playout from a changed state ends well within this (sample games run a few hundred plies).
const MAX_PLIES: u32 = 20_000;

/// Calls `f(game, ply, state)` on every position of every sample game: the new game, then the
/// position after each entry (the last one the game's end).
fn each_position(mut f: impl FnMut(usize, usize, &State)) {
    for (g, rec) in scenario_harness::samples::records(SAMPLES)
        .iter()
        .enumerate()
    {
        let o: Options = serde_json::from_value(rec.options.clone()).unwrap();
        let mut s = FiveTribes::new_game_versioned(&o, &rec.rules_version, &rec.data_hash)
            .unwrap_or_else(|| panic!("game {g}: no such versions"))
            .unwrap();
        f(g, 0, &s);
        for (i, (actor, text)) in rec.entries.iter().enumerate() {
            let action: Action<Move, Chance> = match actor {
                Actor::Seat(seat) => Action::Move(*seat, FiveTribes::parse_move(text).unwrap()),
                Actor::Dealer => Action::Chance(FiveTribes::parse_chance(text).unwrap()),
            };
            FiveTribes::apply(&mut s, &action)
                .unwrap_or_else(|e| panic!("game {g} ply {i} {text}: {e}"));
            f(g, i + 1, &s);
        }
    }
}

fn viewers(s: &State) -> impl Iterator<Item = Viewer> {
    (0..s.players)
        .map(|i| Viewer::Seat(Seat(i)))
        .chain([Viewer::Spectator, Viewer::Omniscient])
}

/// The drawer and the djinns of a draw Sibittis made (empty while the draw is pending).
fn sibittis(s: &State) -> Option<(u8, &[Djinn])> {
    match &s.phase {
        Phase::Turn {
            seat,
            stage: Stage::Sibittis { drawn, .. },
        } => Some((*seat, drawn.as_slice())),
        _ => None,
    }
}

/// How many of each djinn the state holds, wherever: the pile, the row, the discard pile, the
/// seats and Sibittis's draw.
fn djinn_counts(s: &State) -> [u8; 22] {
    let mut n = [0u8; 22];
    let sets = [s.djinn_deck, s.djinn_discard]
        .into_iter()
        .chain(s.seats.iter().map(|p| p.djinns));
    for d in sets.flat_map(DjinnSet::iter) {
        n[d as usize] += 1;
    }
    let drawn = sibittis(s).map_or(&[][..], |(_, d)| d);
    for &d in s.djinn_row.iter().chain(drawn) {
        n[d as usize] += 1;
    }
    n
}

fn sample(s: &State, viewer: Viewer, seed: u64) -> State {
    FiveTribes::determinize(s, viewer, &mut Dealer::new(seed, 7))
}

/// `t` is `s` but for Sibittis's draw and the pile, and those only for a viewer who may not
/// see the draw; every djinn is where it was or swapped between the two, none made or lost.
fn check_sampled(s: &State, t: &State, viewer: Viewer) -> Result<(), String> {
    let mut back = t.clone();
    back.djinn_deck = s.djinn_deck;
    if let (
        Phase::Turn {
            stage: Stage::Sibittis { drawn: real, .. },
            ..
        },
        Phase::Turn {
            stage: Stage::Sibittis { drawn, .. },
            ..
        },
    ) = (&s.phase, &mut back.phase)
    {
        if drawn.len() != real.len() {
            return Err(format!("{} drawn, not {}", drawn.len(), real.len()));
        }
        *drawn = real.clone();
    }
    if &back != s {
        return Err("something other than the draw and the pile changed".into());
    }
    let secret = sibittis(s).is_some_and(|(seat, d)| !d.is_empty() && !viewer.sees(Seat(seat)));
    if !secret && t != s {
        return Err("changed, with no secret hidden from this viewer".into());
    }
    let counts = djinn_counts(t);
    if counts != djinn_counts(s) {
        return Err(format!("djinns not conserved: {counts:?}"));
    }
    Ok(())
}

/// The generic properties at every position, for every viewer, two seeds each; and with them
/// that nothing but the secret changes.
#[test]
fn every_sample_position_keeps_what_each_viewer_knows() {
    let (mut checked, mut changed) = (0u32, 0u32);
    each_position(|g, ply, s| {
        for viewer in viewers(s) {
            match check_at::<FiveTribes>(s, viewer, 0..2, MAX_PLIES) {
                Ok(varied) => changed += u32::from(varied),
                Err(e) => panic!("game {g} ply {ply} {viewer:?}: {e}"),
            }
            checked += 1;
        }
    });
    eprintln!("{checked} positions × viewers checked, {changed} varied");
    assert!(checked > 100_000, "{checked}");
    assert!(changed > 0);
}

/// Only the secret changes, and every djinn is conserved, at every position, for every viewer.
#[test]
fn only_the_hidden_draw_changes_and_every_djinn_is_conserved() {
    let mut swapped = 0u32;
    each_position(|g, ply, s| {
        let counts = djinn_counts(s);
        if ply > 0 {
            // The real game conserves them too (before the deal nothing is dealt yet).
            assert!(
                counts.iter().all(|&n| n == 1),
                "game {g} ply {ply}: {counts:?}"
            );
        }
        for viewer in viewers(s) {
            for seed in 0..4 {
                let t = sample(s, viewer, seed);
                check_sampled(s, &t, viewer)
                    .unwrap_or_else(|e| panic!("game {g} ply {ply} {viewer:?} seed {seed}: {e}"));
                swapped += u32::from(t.djinn_deck != s.djinn_deck);
            }
        }
    });
    // Some samples really moved a djinn between the draw and the pile.
    assert!(swapped > 0);
}

/// A Sibittis draw of at least one djinn, with djinns left in the pile, is resampled for every
/// viewer but its drawer: the seeds give other djinns (not only another order), and `check_at`
/// sees the variation. The drawer and the omniscient viewer get the state itself.
#[test]
fn a_pending_sibittis_draw_is_resampled_for_everyone_but_its_drawer() {
    let mut positions = 0u32;
    each_position(|g, ply, s| {
        let Some((drawer, drawn)) = sibittis(s) else {
            return;
        };
        if drawn.is_empty() || s.djinn_deck.is_empty() {
            return;
        }
        positions += 1;
        let real: DjinnSet = drawn.iter().fold(DjinnSet::default(), |mut a, &d| {
            a.insert(d);
            a
        });
        for viewer in viewers(s) {
            let at = format!("game {g} ply {ply} {viewer:?}");
            if viewer.sees(Seat(drawer)) {
                for seed in 0..4 {
                    assert_eq!(&sample(s, viewer, seed), s, "{at}");
                }
                continue;
            }
            assert_eq!(
                check_at::<FiveTribes>(s, viewer, 0..4, MAX_PLIES),
                Ok(true),
                "{at}"
            );
            let other = (0..8).any(|seed| {
                let t = sample(s, viewer, seed);
                sibittis(&t).is_some_and(|(_, d)| d.iter().any(|x| !real.has(*x)))
            });
            assert!(other, "{at}: eight seeds drew only {drawn:?} again");
        }
    });
    eprintln!("{positions} positions with a hidden Sibittis draw");
    assert!(positions > 10, "{positions}");
}

/// The same seed gives the same state, at every position and for every viewer.
#[test]
fn the_same_seed_gives_the_same_state() {
    each_position(|g, ply, s| {
        for viewer in viewers(s) {
            for seed in [0, 1, u64::MAX] {
                assert_eq!(
                    sample(s, viewer, seed),
                    sample(s, viewer, seed),
                    "game {g} ply {ply} {viewer:?} seed {seed}"
                );
            }
        }
    });
}
