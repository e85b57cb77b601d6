//! `Game::determinize` for Mombasa (`src/determinize.rs`) at every position of every sample
//! game (`tests/data/random-samples/mombasa.ndjson`, 200 games of 2 to 4 players, 38 052 positions), for
//! every viewer (each seat, a spectator, the omniscient viewer):
//! - `rules_core::determinize::check_at` holds at two seeds (the viewer is shown the same,
//!   the same seats act, its own moves are the same, the state is unchanged for a viewer who
//!   sees everything, a changed one plays on to an end);
//! - the seeds vary every secret another seat keeps: two or more planned cards (their layout
//!   itself, not only the state) and start tiles dealt before the reveal — positions the
//!   samples hold by the thousand;
//! - every card and start tile is in exactly one place, each seat keeps the cards it is
//!   known to hold, nothing but the secrets moves, and the same seed gives the same state;
//! - random games under the current rules (the samples are all `mombasa/1`) keep the same,
//!   the position kept for `cancel` included;
//! - and these checks catch a wrong sample.
//!
//! Cost, measured in the debug test profile on two cores shared with other builds: the
//! `check_at` sweep (196 908 checks: four serialised views each and, wherever the state
//! changed — for every viewer but the omniscient one, since another seat's unkept start tile
//! is resampled all game — a random playout to the end per seed) about 50 s on the clock,
//! 90 s of CPU; the rest under a second. It runs once for the two tests that read it. The
//! games are shared out between the cores (`replay_games`), as `tests/presentation.rs` does.

#[path = "support/samples.rs"]
#[allow(
    dead_code,
    reason = "shared with the tests that replay every sample game alike"
)]
mod samples;

use mombasa::ids::{CardId, ALL_CARDS, DECK_CARDS, NONE, OWN_CARDS};
use mombasa::{Mombasa, Phase, State};
use rules_core::determinize::check_at;
use rules_core::{Dealer, Game, Seat, Viewer};
use samples::replay_games;
use std::sync::{Mutex, OnceLock};

/// The seeds every check runs at (`check_at`'s "a couple").
const SEEDS: std::ops::Range<u64> = 0..2;
/// The seeds `check_at` runs at again where it must answer that they varied the state
/// (another seat's plans or start tiles pending) and [`SEEDS`] did not: all of them give the
/// same state with a chance under (1/28)^5 at worst (a 2-player planning position: 7 × 2 ways
/// to deal the other seat's pair around its known kept tile, times at least 2 layouts of its
/// two planned cards).
const VARY_SEEDS: std::ops::Range<u64> = 0..6;
/// The seeds the secret itself (a plan's layout, the start tiles) is sampled at to see it
/// vary, without a playout: two planned cards and nothing else in hand have 2 layouts.
const SECRET_SEEDS: std::ops::Range<u64> = 0..16;
/// A random playout from any position ends well within this.
const MAX_PLIES: u32 = 20_000;
/// The dealer stream `check_at` determinizes with.
const STREAM: u64 = 1 << 61;

fn viewers(s: &State) -> Vec<Viewer> {
    let mut v: Vec<Viewer> = (0..s.players).map(|i| Viewer::Seat(Seat(i))).collect();
    v.extend([Viewer::Spectator, Viewer::Omniscient]);
    v
}

fn determinize(s: &State, viewer: Viewer, seed: u64) -> State {
    Mombasa::determinize(s, viewer, &mut Dealer::new(seed, STREAM))
}

/// Calls `check(game, ply, position)` for every position of every sample game (the final one
/// included), the games shared out between threads; the number of positions.
fn every_position(check: impl Fn(usize, usize, &State) + Sync) -> usize {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|k| {
                let check = &check;
                scope.spawn(move || {
                    let ply = std::cell::Cell::new(0usize);
                    let at = |g: usize, s: &State| {
                        check(g, ply.get(), s);
                        ply.set(ply.get() + 1);
                    };
                    let mut positions = 0;
                    replay_games(
                        |g| g % threads == k,
                        |g, s, _| at(g, s),
                        |g, s| {
                            at(g, s);
                            positions += ply.replace(0);
                        },
                    );
                    positions
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).sum()
    })
}

/// The seats `viewer` may not see whose secret the seeds must vary, and which: `plans` for
/// two or more planned cards, `starts` for start tiles dealt before the reveal.
fn pending(s: &State, viewer: Viewer) -> (Vec<usize>, bool) {
    let mut plans = Vec::new();
    let mut starts = false;
    for (i, p) in s.seats.iter().enumerate() {
        if viewer.sees(Seat(i as u8)) {
            continue;
        }
        let planned = p.slots.iter().filter(|&&c| c != NONE).count();
        match s.phase {
            Phase::Planning | Phase::Reveal if planned >= 2 => plans.push(i),
            Phase::StartDeal | Phase::StartKeep | Phase::StartReveal if p.dealt[0] != NONE => {
                starts = true
            }
            _ => {}
        }
    }
    (plans, starts)
}

/// What one sweep of `check_at` over the samples found; shared by the tests that read it, so
/// the playouts run once.
#[derive(Default)]
struct Sweep {
    checks: usize,
    failures: Vec<String>,
    /// Checks (a position and a viewer) where another seat's plans, or its start tiles, had
    /// to vary and did.
    plans_varied: usize,
    starts_varied: usize,
    unvaried: Vec<String>,
}

fn sweep() -> &'static Sweep {
    static SWEEP: OnceLock<Sweep> = OnceLock::new();
    SWEEP.get_or_init(|| {
        let t = std::time::Instant::now();
        let out = Mutex::new(Sweep::default());
        every_position(|g, ply, s| {
            for v in viewers(s) {
                let (plans, starts) = pending(s, v);
                // Two seeds; where a secret is pending and those two happened to sample the
                // same state (1 in 28 at worst), more.
                let mut r = check_at::<Mombasa>(s, v, SEEDS, MAX_PLIES);
                if r == Ok(false) && (starts || !plans.is_empty()) {
                    r = check_at::<Mombasa>(s, v, VARY_SEEDS, MAX_PLIES);
                }
                // The secret itself, not only the state, must vary: the layout of the planned
                // cards, or the start tiles.
                let secrets: Vec<_> = SECRET_SEEDS
                    .map(|seed| {
                        let t = determinize(s, v, seed);
                        let hidden = (0..t.seats.len()).filter(|&i| !v.sees(Seat(i as u8)));
                        let plan = plans.iter().map(|&i| t.seats[i].slots);
                        let tiles = hidden.filter(|_| starts).map(|i| t.seats[i].dealt);
                        (plan.collect::<Vec<_>>(), tiles.collect::<Vec<_>>())
                    })
                    .collect();
                let secret_varies = secrets.windows(2).any(|w| w[0] != w[1]);
                let mut o = out.lock().unwrap();
                o.checks += 1;
                let at = format!("game {g} ply {ply} ({:?}) {v:?}", s.phase);
                match r {
                    Err(e) => o.failures.push(format!("{at}: {e}")),
                    Ok(varied) if !plans.is_empty() || starts => {
                        if !(varied && secret_varies) {
                            o.unvaried.push(at);
                        } else if starts {
                            o.starts_varied += 1;
                        } else {
                            o.plans_varied += 1;
                        }
                    }
                    Ok(_) => {}
                }
            }
        });
        let o = out.into_inner().unwrap();
        eprintln!(
            "{} checks ({} plans, {} starts pending) in {:?}",
            o.checks,
            o.plans_varied,
            o.starts_varied,
            t.elapsed()
        );
        o
    })
}

#[test]
fn check_at_holds_at_the_sample_positions_for_every_viewer() {
    let s = sweep();
    assert!(s.checks > 100_000, "{}", s.checks);
    assert!(
        s.failures.is_empty(),
        "{} failures, the first: {:#?}",
        s.failures.len(),
        &s.failures[..s.failures.len().min(5)]
    );
}

#[test]
fn seeds_vary_the_plans_and_start_tiles_another_seat_keeps_secret() {
    let s = sweep();
    assert!(
        s.unvaried.is_empty(),
        "{} positions unvaried, the first: {:#?}",
        s.unvaried.len(),
        &s.unvaried[..s.unvaried.len().min(5)]
    );
    // Such positions are played in the samples, many of them.
    assert!(s.plans_varied > 10_000, "{}", s.plans_varied);
    assert!(s.starts_varied > 1_000, "{}", s.starts_varied);
}

/// Every card of the game (the deck's, and the ten of each seat's colour) is in exactly one
/// place, and no other card anywhere; every start tile in at most one seat's pair (the rest
/// in the box), the kept one of it.
fn components_in_one_place(s: &State) -> Result<(), String> {
    let mut seen = [0u8; ALL_CARDS as usize];
    let mut put = |mask: u128| {
        for id in mombasa::ids::bits(mask) {
            if let Some(n) = seen.get_mut(usize::from(id)) {
                *n += 1;
            }
        }
    };
    put(u128::from(s.deck));
    put(u128::from(s.discard));
    put(s.boxed);
    for &c in s.display.iter().filter(|&&c| c != NONE) {
        put(CardId(c).bit());
    }
    for p in &s.seats {
        put(p.hand);
        p.piles.iter().for_each(|&m| put(m));
        for &c in p.slots.iter().filter(|&&c| c != NONE) {
            put(CardId(c).bit());
        }
    }
    let in_game = DECK_CARDS + OWN_CARDS * s.players;
    for (id, &n) in seen.iter().enumerate() {
        // The seats' cards come with the setup deal.
        let dealt = id < usize::from(DECK_CARDS) || s.phase != Phase::Setup;
        let want = u8::from((id as u8) < in_game && dealt);
        if n != want {
            return Err(format!("card {id} is in {n} places"));
        }
    }
    let mut tiles = 0u32;
    for (i, p) in s.seats.iter().enumerate() {
        for &t in p.dealt.iter().filter(|&&t| t != NONE) {
            if t >= 10 || tiles & (1 << t) != 0 {
                return Err(format!("start tile {t} twice (seat {i})"));
            }
            tiles |= 1 << t;
        }
        if p.dealt[0] != NONE && p.start != NONE && !p.dealt.contains(&p.start) {
            return Err(format!("seat {i} kept a tile it was not dealt"));
        }
    }
    Ok(())
}

/// `t`, sampled from `s` for `viewer`, has the same components as `s` (each in one place);
/// each seat the same cards, rest piles and slots filled, the same number of start tiles and
/// whether it kept one; and only the secrets differ: the hands and slots of seats `viewer`
/// may not see while plans are secret, and their start tiles (their kept one only before
/// the reveal).
fn only_secrets_moved(s: &State, t: &State, viewer: Viewer) -> Result<(), String> {
    components_in_one_place(s).map_err(|e| format!("the real state: {e}"))?;
    components_in_one_place(t)?;
    let plans_secret = matches!(s.phase, Phase::Planning | Phase::Reveal);
    let starts_public = !matches!(
        s.phase,
        Phase::Setup | Phase::StartDeal | Phase::StartKeep | Phase::StartReveal
    );
    let mut u = t.clone();
    for (i, (p, q)) in s.seats.iter().zip(&u.seats).enumerate() {
        let hidden = !viewer.sees(Seat(i as u8)) && s.phase != Phase::Over;
        let filled = |x: &mombasa::state::Player| x.slots.map(|c| c != NONE);
        if p.all_cards() != q.all_cards() || p.piles != q.piles || filled(p) != filled(q) {
            return Err(format!("seat {i}'s cards changed"));
        }
        if p.hand.count_ones() != q.hand.count_ones() {
            return Err(format!("seat {i}'s hand size changed"));
        }
        if (p.hand != q.hand || p.slots != q.slots) && !(hidden && plans_secret) {
            return Err(format!("seat {i}'s known hand or slots changed"));
        }
        if p.dealt.map(|d| d == NONE) != q.dealt.map(|d| d == NONE)
            || (p.start == NONE) != (q.start == NONE)
        {
            return Err(format!("seat {i}'s start tiles dealt or kept changed"));
        }
        if (p.dealt != q.dealt && !hidden) || (p.start != q.start && (!hidden || starts_public)) {
            return Err(format!("seat {i}'s known start tiles changed"));
        }
    }
    for (q, p) in u.seats.iter_mut().zip(&s.seats) {
        (q.hand, q.slots, q.dealt, q.start) = (p.hand, p.slots, p.dealt, p.start);
    }
    if let (Some(a), Some(b)) = (u.undo.kept_mut(), s.undo.kept()) {
        for (q, p) in a.seats.iter_mut().zip(&b.seats) {
            q.dealt = p.dealt;
        }
    }
    if u != *s {
        return Err("something besides the secrets changed".into());
    }
    Ok(())
}

#[test]
fn every_card_and_start_tile_stays_in_one_place_and_only_secrets_move() {
    let failures = Mutex::new(Vec::new());
    let positions = every_position(|g, ply, s| {
        for v in viewers(s) {
            for seed in SEEDS {
                let t = determinize(s, v, seed);
                if let Err(e) = only_secrets_moved(s, &t, v) {
                    let at = format!("game {g} ply {ply} ({:?}) {v:?} seed {seed}", s.phase);
                    failures.lock().unwrap().push(format!("{at}: {e}"));
                }
            }
        }
    });
    assert!(positions > 38_000, "{positions}");
    let f = failures.into_inner().unwrap();
    assert!(
        f.is_empty(),
        "{} failures: {:#?}",
        f.len(),
        &f[..f.len().min(5)]
    );
}

#[test]
fn the_same_seed_gives_the_same_state() {
    let differ = Mutex::new(Vec::new());
    every_position(|g, ply, s| {
        for v in viewers(s) {
            for seed in SEEDS {
                if determinize(s, v, seed) != determinize(s, v, seed) {
                    differ
                        .lock()
                        .unwrap()
                        .push(format!("game {g} ply {ply} {v:?} {seed}"));
                }
            }
        }
    });
    let d = differ.into_inner().unwrap();
    assert!(d.is_empty(), "{d:?}");
}

/// The checks above can fail: they catch a card in two places, a card moved between seats,
/// another seat's hand resampled outside planning, and (the view `check_at` compares) a
/// viewer's own plan resampled.
#[test]
fn the_checks_catch_a_wrong_sample() {
    let (mut planning, mut acting) = (None, None);
    replay_games(
        |g| g == 0,
        |_, s, _| {
            let two = |i: usize| s.seats[i].slots.iter().filter(|&&c| c != NONE).count() >= 2;
            if s.phase == Phase::Planning && two(0) && two(1) && planning.is_none() {
                planning = Some(s.clone());
            }
            if s.phase == Phase::Actions && s.round == 2 && two(1) && acting.is_none() {
                acting = Some(s.clone());
            }
        },
        |_, _| {},
    );
    let (s, a) = (
        planning.expect("a planning position"),
        acting.expect("round 2"),
    );
    let me = Viewer::Seat(Seat(0));
    let t = determinize(&s, me, 0);
    assert_eq!(only_secrets_moved(&s, &t, me), Ok(()));
    // A planned card of seat 1 also left in the deck.
    let mut bad = t.clone();
    let c = bad.seats[1]
        .slots
        .iter()
        .copied()
        .find(|&c| c != NONE)
        .unwrap();
    bad.deck |= 1 << c.min(63);
    assert!(only_secrets_moved(&s, &bad, me).is_err());
    // A card of seat 1's hand given to seat 0.
    let mut bad = t.clone();
    let c = bad.seats[1].hand & bad.seats[1].hand.wrapping_neg();
    (bad.seats[1].hand, bad.seats[0].hand) = (bad.seats[1].hand & !c, bad.seats[0].hand | c);
    assert!(only_secrets_moved(&s, &bad, me).is_err());
    // A card of seat 1's hand swapped with one in its slots after the reveal, where both
    // are known.
    let t = determinize(&a, me, 0);
    let mut bad = t.clone();
    let p = &mut bad.seats[1];
    let k = p.slots.iter().position(|&c| c != NONE).unwrap();
    let h = p.hand.trailing_zeros() as u8;
    p.hand = p.hand & !CardId(h).bit() | CardId(p.slots[k]).bit();
    p.slots[k] = h;
    assert_eq!(components_in_one_place(&bad), Ok(()));
    assert!(only_secrets_moved(&a, &bad, me).is_err());
    // Seat 0's own plan resampled (as if it were the spectator's sample): seat 0 sees it.
    let json = |s: &State| serde_json::to_string(&Mombasa::view(s, me)).unwrap();
    let differs = (0..8).any(|seed| json(&determinize(&s, Viewer::Spectator, seed)) != json(&s));
    assert!(differs, "the view shows seat 0 its own plan");
}

/// The samples are all `mombasa/1` games: random games under the current rules (a kept
/// position for `cancel`, the first-game start tiles) keep the same properties, and the
/// position kept for `cancel` holds the resampled start tiles.
#[test]
fn random_games_under_the_current_rules_keep_them_too() {
    let (mut kept, mut checked) = (0, 0);
    for (seed, players, first_game) in [(1u64, 2u8, false), (2, 3, true), (3, 4, false)] {
        let o = mombasa::Options {
            players,
            first_game,
            track_cards: true,
            first_player: None,
        };
        let p = rules_core::playout::<Mombasa>(&o, seed, 20_000, true).unwrap();
        let mut s = Mombasa::new_game(&o).unwrap();
        for (ply, a) in p.log.iter().enumerate() {
            for v in viewers(&s) {
                let t = determinize(&s, v, seed);
                only_secrets_moved(&s, &t, v).unwrap_or_else(|e| panic!("{ply} {v:?}: {e}"));
                if let Some(u) = t.undo.kept() {
                    kept += 1;
                    assert!(u
                        .seats
                        .iter()
                        .zip(&t.seats)
                        .all(|(q, p)| q.dealt == p.dealt));
                }
                if ply % 10 == 0 {
                    checked += 1;
                    check_at::<Mombasa>(&s, v, SEEDS, MAX_PLIES)
                        .unwrap_or_else(|e| panic!("{ply} {v:?}: {e}"));
                }
            }
            Mombasa::apply(&mut s, a).unwrap();
        }
    }
    assert!(kept > 100 && checked > 100, "{kept} {checked}");
}
