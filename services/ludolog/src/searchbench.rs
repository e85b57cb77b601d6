//! `ludolog bench search`: the search's speed beside plain random playouts from the same
//! positions in the same run. From decision positions of seeded random games (a seat choosing
//! among several moves), it times a search of N iterations at each, and N random playouts
//! from each; the search's own overhead (tree, determinization, bookkeeping) is the part of
//! its time that its playouts' plies, at the playouts' own speed, do not explain.
use anyhow::{anyhow, Result};
use rules_core::{ChanceRng, Dealer, Game, MoveBuf, Seat, ToAct};
use serde::Serialize;
use std::time::Instant;

#[derive(Debug, Serialize)]
pub struct SearchBench {
    pub game: String,
    pub players: u8,
    pub positions: usize,
    pub iterations: u32,
    pub iterations_per_second: f64,
    pub playouts_per_second: f64,
    /// Plies a second in the search's playouts and in plain playouts.
    pub search_plies_per_second: f64,
    pub playout_plies_per_second: f64,
    /// The share of a search's time that is not playing out (target: at most 0.5).
    pub overhead: f64,
    pub move_seconds_median: f64,
    pub move_seconds_max: f64,
    /// Whether a move at this budget took under 0.5 s everywhere.
    pub move_under_half_a_second: bool,
}

/// Decision positions of seeded random games: a seat to act with several moves.
fn positions<G: Game>(options: &G::Options, n: usize, seed: u64) -> Result<Vec<(G::State, Seat)>> {
    let mut out = Vec::new();
    let mut list = G::MoveList::default();
    let mut game = 0u64;
    while out.len() < n && game < 1000 {
        let mut s = G::new_game(options).map_err(|e| anyhow!("{e}"))?;
        let mut rng = Dealer::new(seed.wrapping_add(game), 7);
        let mut ply = 0u32;
        let pick = 1 + rng.below(120); // one position a game, somewhere in its first half
        loop {
            match G::to_act(&s) {
                ToAct::Over => break,
                ToAct::Chance => {
                    let c = G::sample_chance(&s, &mut rng).ok_or_else(|| anyhow!("no chance"))?;
                    G::resolve(&mut s, &c).map_err(|e| anyhow!("{e}"))?;
                }
                ToAct::Seat(seat) => {
                    G::legal_moves(&s, &mut list);
                    let moves = list.as_slice();
                    if ply >= pick && moves.len() > 1 {
                        out.push((s.clone(), seat));
                        break;
                    }
                    let m = moves[rng.below(moves.len() as u32) as usize].clone();
                    G::play(&mut s, seat, &m).map_err(|e| anyhow!("{e}"))?;
                }
            }
            ply += 1;
        }
        game += 1;
    }
    Ok(out)
}

pub fn bench<G: Game>(players: u8, n: usize, iterations: u32, seed: u64) -> Result<SearchBench> {
    let options = crate::games::options::<G>(players)?;
    let ps = positions::<G>(&options, n, seed)?;
    let cfg = ai::SearchConfig::new(iterations, ai::Rollout::Random);
    let (mut search_time, mut search_plies, mut moves) = (0.0, 0u64, Vec::new());
    for (i, (s, seat)) in ps.iter().enumerate() {
        let t = Instant::now();
        let (_, stats) = ai::search::<G>(s, *seat, &cfg, seed ^ i as u64)
            .ok_or_else(|| anyhow!("no move at a decision position"))?;
        let dt = t.elapsed().as_secs_f64();
        search_time += dt;
        search_plies += stats.rollout_plies;
        moves.push(dt);
    }
    let (mut play_time, mut play_plies) = (0.0, 0u64);
    for (i, (s, _)) in ps.iter().enumerate() {
        let mut rng = Dealer::new(seed ^ i as u64, 3);
        let t = Instant::now();
        for _ in 0..iterations {
            play_plies += u64::from(
                rules_core::playout::play_on::<G>(s.clone(), &mut rng, 100_000)
                    .map_err(|e| anyhow!("a playout: {e}"))?,
            );
        }
        play_time += t.elapsed().as_secs_f64();
    }
    moves.sort_by(f64::total_cmp);
    let total_iterations = f64::from(iterations) * ps.len() as f64;
    let playout_pps = play_plies as f64 / play_time.max(1e-9);
    let explained = search_plies as f64 / playout_pps;
    let max = moves.last().copied().unwrap_or(0.0);
    Ok(SearchBench {
        game: G::KIND.to_string(),
        players,
        positions: ps.len(),
        iterations,
        iterations_per_second: total_iterations / search_time.max(1e-9),
        playouts_per_second: total_iterations / play_time.max(1e-9),
        search_plies_per_second: search_plies as f64 / search_time.max(1e-9),
        playout_plies_per_second: playout_pps,
        overhead: (1.0 - explained / search_time.max(1e-9)).max(0.0),
        move_seconds_median: moves.get(moves.len() / 2).copied().unwrap_or(0.0),
        move_seconds_max: max,
        move_under_half_a_second: max < 0.5,
    })
}
