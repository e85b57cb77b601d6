//! From the search's raw win chances to probabilities that mean what they say: an isotonic
//! fit (pool-adjacent-violators) of outcomes on raw chances, and the figures that judge a
//! forecast — a reliability table by decile, the expected calibration error, and the Brier
//! score beside the uninformed forecast's (1/n for n seats).
//!
//! Isotonic rather than Platt: the search's raw chances are not a logistic of anything, and
//! the only shape the mapping must keep is order (a higher raw chance never maps lower). The
//! fitted steps are joined linearly between their centres, so the mapping is continuous and a
//! raw chance between two fitted blocks gets a chance between theirs.
use crate::arena::{play_all, play_game, ArenaError};
use crate::spec::BotSpec;
use rules_core::{Game, ToAct, Viewer};
use serde::{Deserialize, Serialize};

/// One forecast and what came of it: a raw chance, and the seat's share of the win (ties
/// shared), in `0..=1` both.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Forecast {
    pub raw: f64,
    pub outcome: f64,
}

/// A monotone map from raw chances to probabilities: `(raw, probability)` knots, raw
/// increasing, probability not decreasing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Isotonic {
    pub knots: Vec<(f64, f64)>,
}

impl Isotonic {
    /// The least-squares non-decreasing fit of outcomes on raw chances (pool adjacent
    /// violators), a knot at each block's mean raw chance. No forecasts: the identity.
    pub fn fit(forecasts: &[Forecast]) -> Isotonic {
        let mut f: Vec<Forecast> = forecasts
            .iter()
            .copied()
            .filter(|f| f.raw.is_finite() && f.outcome.is_finite())
            .collect();
        if f.is_empty() {
            return Isotonic {
                knots: vec![(0.0, 0.0), (1.0, 1.0)],
            };
        }
        f.sort_by(|a, b| a.raw.total_cmp(&b.raw));
        // Forecasts of one raw chance are one point (their order among themselves is no
        // order at all). Blocks: (sum of raw, sum of outcome, count).
        let mut points: Vec<(f64, f64, f64)> = Vec::new();
        let mut last = f64::NAN;
        for x in f {
            match points.last_mut() {
                Some(p) if last == x.raw => {
                    p.0 += x.raw;
                    p.1 += x.outcome;
                    p.2 += 1.0;
                }
                _ => points.push((x.raw, x.outcome, 1.0)),
            }
            last = x.raw;
        }
        let mut blocks: Vec<(f64, f64, f64)> = Vec::new();
        for p in points {
            blocks.push(p);
            while blocks.len() > 1 {
                let (r2, o2, n2) = blocks[blocks.len() - 1];
                let (r1, o1, n1) = blocks[blocks.len() - 2];
                if o1 / n1 <= o2 / n2 {
                    break;
                }
                blocks.pop();
                let last = blocks.len() - 1;
                blocks[last] = (r1 + r2, o1 + o2, n1 + n2);
            }
        }
        Isotonic {
            knots: blocks.iter().map(|&(r, o, n)| (r / n, o / n)).collect(),
        }
    }

    /// The probability for raw chance `raw`: linear between the knots around it, flat past
    /// the first and last.
    pub fn apply(&self, raw: f64) -> f64 {
        let k = &self.knots;
        let Some(&(r0, p0)) = k.first() else {
            return raw;
        };
        if raw <= r0 {
            return p0;
        }
        for w in k.windows(2) {
            let ((ra, pa), (rb, pb)) = (w[0], w[1]);
            if raw <= rb {
                return if rb > ra {
                    pa + (pb - pa) * (raw - ra) / (rb - ra)
                } else {
                    pb
                };
            }
        }
        k.last().map_or(raw, |&(_, p)| p)
    }
}

/// Passes an evaluation's chances through `map`: each seat's chance and its interval's ends,
/// then the seats' chances scaled to share out one win again (the map is fitted seat by seat,
/// so their sum drifts), and each best move's chance and interval, scaled by the same factor.
/// Marks it calibrated.
pub fn apply<M>(e: &mut crate::Evaluation<M>, map: &Isotonic) {
    for x in &mut e.seats {
        x.win = map.apply(x.win);
        x.low = map.apply(x.low).min(x.win);
        x.high = map.apply(x.high).max(x.win);
    }
    let total: f64 = e.seats.iter().map(|x| x.win).sum();
    // The seats' chances are scaled to sum to 1; each candidate move's by the same factor, so
    // a move and the position (read through the most tried move) stay comparable.
    let k = if total > 0.0 { 1.0 / total } else { 1.0 };
    for x in &mut e.seats {
        x.win *= k;
        x.low = (x.low * k).min(x.win);
        x.high = (x.high * k).clamp(x.win, 1.0);
    }
    for m in e.best.iter_mut().chain(e.played.as_mut()) {
        m.win = (map.apply(m.win) * k).min(1.0);
        m.low = (map.apply(m.low) * k).min(m.win);
        m.high = (map.apply(m.high) * k).clamp(m.win, 1.0);
    }
    e.calibrated = true;
}

/// A decile of predicted chance: its forecasts' mean prediction and mean outcome.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Bin {
    pub low: f64,
    pub high: f64,
    pub count: usize,
    pub predicted: f64,
    pub observed: f64,
}

/// How good a set of forecasts is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reliability {
    pub bins: Vec<Bin>,
    /// Expected calibration error: the bins' |predicted − observed|, weighted by count.
    pub ece: f64,
    /// Mean squared error of the forecasts.
    pub brier: f64,
    /// The same for the uninformed forecast `1 / players`.
    pub brier_uninformed: f64,
    /// `1 − brier / brier_uninformed` (0: no better than not looking; 1: perfect).
    pub skill: f64,
}

/// The reliability of `forecasts` (predicted chance, outcome) for games of `players` seats.
pub fn reliability(forecasts: &[Forecast], players: u8) -> Reliability {
    let mut bins: Vec<Bin> = (0..10)
        .map(|i| Bin {
            low: f64::from(i) / 10.0,
            high: f64::from(i + 1) / 10.0,
            count: 0,
            predicted: 0.0,
            observed: 0.0,
        })
        .collect();
    let base = 1.0 / f64::from(players.max(1));
    let (mut brier, mut uninformed) = (0.0, 0.0);
    for f in forecasts {
        let i = ((f.raw * 10.0) as usize).min(9);
        let b = &mut bins[i];
        b.count += 1;
        b.predicted += f.raw;
        b.observed += f.outcome;
        brier += (f.raw - f.outcome).powi(2);
        uninformed += (base - f.outcome).powi(2);
    }
    let n = forecasts.len().max(1) as f64;
    let mut ece = 0.0;
    for b in &mut bins {
        if b.count > 0 {
            let c = b.count as f64;
            b.predicted /= c;
            b.observed /= c;
            ece += c / n * (b.predicted - b.observed).abs();
        }
    }
    let (brier, uninformed) = (brier / n, uninformed / n);
    Reliability {
        bins,
        ece,
        brier,
        brier_uninformed: uninformed,
        skill: if uninformed > 0.0 {
            1.0 - brier / uninformed
        } else {
            0.0
        },
    }
}

/// A position of a self-play game, evaluated: where in the game it stands and each seat's
/// raw chance beside the seat's share of the game's win.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observed {
    /// The game's number in the run (fit on some, judge on the others).
    pub game: u64,
    /// Entries played over the game's entries, `0..1`.
    pub progress: f64,
    /// Whether the position is in the game's last round.
    pub last_round: bool,
    pub forecasts: Vec<Forecast>,
}

/// Plays `games` self-play games among `bots` (rotated a seat each game, as the arena does),
/// and evaluates every `every`-th position where a seat chooses, with everything known
/// (`Viewer::Omniscient`) and `iterations` a position. Pure for its arguments; `threads`
/// games at a time.
#[allow(clippy::too_many_arguments)]
pub fn observe<G: Game>(
    options: &G::Options,
    players: u8,
    bots: &[BotSpec],
    games: u64,
    seed: u64,
    iterations: u32,
    every: u32,
    threads: usize,
) -> Result<Vec<Observed>, ArenaError>
where
    G::Options: Sync,
{
    if bots.is_empty() {
        return Err(ArenaError::NoBots);
    }
    let n = usize::from(players);
    let every = every.max(1);
    let per_game = play_all(games, threads, |g| {
        let seats: Vec<BotSpec> = (0..n)
            .map(|i| bots[(i + g as usize) % bots.len()])
            .collect();
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g);
        let played = play_game::<G>(options, &seats, game_seed, 100_000)?;
        let share = |seat: usize| {
            let won = played
                .outcome
                .winners
                .iter()
                .any(|w| usize::from(w.0) == seat);
            if won {
                1.0 / played.outcome.winners.len().max(1) as f64
            } else {
                0.0
            }
        };
        let mut s = G::new_game(options).map_err(|e| ArenaError::Options(e.to_string()))?;
        let mut end = s.clone();
        for a in &played.log {
            G::apply(&mut end, a).map_err(|e| ArenaError::Play {
                ply: 0,
                what: e.to_string(),
            })?;
        }
        let last = G::round(&end);
        let total = played.log.len().max(1) as f64;
        let mut out = Vec::new();
        let mut decisions = 0u32;
        for (ply, a) in played.log.iter().enumerate() {
            if matches!(G::to_act(&s), ToAct::Seat(_)) {
                if decisions.is_multiple_of(every) {
                    let e = crate::evaluate::<G>(
                        &s,
                        Viewer::Omniscient,
                        iterations,
                        0,
                        game_seed ^ ((ply as u64) << 24),
                    );
                    out.push(Observed {
                        game: g,
                        progress: ply as f64 / total,
                        last_round: G::round(&s) == last,
                        forecasts: e
                            .seats
                            .iter()
                            .map(|x| Forecast {
                                raw: x.win,
                                outcome: share(usize::from(x.seat.0)),
                            })
                            .collect(),
                    });
                }
                decisions += 1;
            }
            G::apply(&mut s, a).map_err(|e| ArenaError::Play {
                ply: ply as u32,
                what: e.to_string(),
            })?;
        }
        Ok(out)
    })?;
    Ok(per_game.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(raw: f64, outcome: f64) -> Forecast {
        Forecast { raw, outcome }
    }

    #[test]
    fn the_fit_pools_violators_and_keeps_order() {
        // Outcomes 0, 1, 0, 1 at raw 0.1 .. 0.4: the middle pair violates order and pools.
        let iso = Isotonic::fit(&[f(0.1, 0.0), f(0.2, 1.0), f(0.3, 0.0), f(0.4, 1.0)]);
        assert_eq!(iso.knots, vec![(0.1, 0.0), (0.25, 0.5), (0.4, 1.0)]);
        assert_eq!(iso.apply(0.0), 0.0);
        assert_eq!(iso.apply(0.25), 0.5);
        assert!((iso.apply(0.175) - 0.25).abs() < 1e-12);
        assert_eq!(iso.apply(0.9), 1.0);
        let mut last = -1.0;
        for i in 0..=100 {
            let p = iso.apply(f64::from(i) / 100.0);
            assert!(p >= last);
            last = p;
        }
    }

    #[test]
    fn an_overconfident_forecast_is_pulled_back() {
        // Raw 0.9 wins half the time, raw 0.1 never: the fit says so.
        let mut v = Vec::new();
        for i in 0..100 {
            v.push(f(0.9, f64::from(i % 2)));
            v.push(f(0.1, 0.0));
        }
        let iso = Isotonic::fit(&v);
        assert!((iso.apply(0.9) - 0.5).abs() < 1e-12);
        assert!(iso.apply(0.1).abs() < 1e-12);
    }

    #[test]
    fn a_calibrated_evaluation_still_shares_out_one_win() {
        use crate::evaluate::{Evaluation, MoveOutlook, SeatOutlook};
        use rules_core::Seat;
        let seat = |i: u8, win: f64| SeatOutlook {
            seat: Seat(i),
            win,
            low: win - 0.05,
            high: win + 0.05,
            score: 0.0,
            rank: 1.0,
        };
        let mut e = Evaluation {
            seats: vec![seat(0, 0.8), seat(1, 0.2)],
            best: vec![MoveOutlook {
                mv: "m",
                seat: Seat(0),
                visits: 10,
                win: 0.8,
                low: 0.75,
                high: 0.85,
                score: 0.0,
            }],
            iterations: 100,
            playouts: 50,
            exact: false,
            calibrated: false,
            played: None,
        };
        // The search is overconfident: 0.8 wins 60 %, 0.2 wins 30 %.
        let map = Isotonic {
            knots: vec![(0.0, 0.0), (0.2, 0.3), (0.8, 0.6), (1.0, 1.0)],
        };
        apply(&mut e, &map);
        assert!(e.calibrated);
        assert!((e.seats[0].win - 0.6 / 0.9).abs() < 1e-12, "{:?}", e.seats);
        assert!((e.seats.iter().map(|x| x.win).sum::<f64>() - 1.0).abs() < 1e-12);
        for x in &e.seats {
            assert!(x.low <= x.win && x.win <= x.high && x.high <= 1.0, "{x:?}");
        }
        // The best move is scaled as the seats are: the seat's chance is read through it.
        assert!(
            (e.best[0].win - e.seats[0].win).abs() < 1e-12,
            "{:?}",
            e.best
        );
    }

    #[test]
    fn reliability_measures_calibration_and_skill() {
        // Perfect: predictions 0 and 1 that come true.
        let perfect = reliability(&[f(1.0, 1.0), f(0.0, 0.0)], 2);
        assert_eq!(perfect.ece, 0.0);
        assert_eq!(perfect.brier, 0.0);
        assert_eq!(perfect.skill, 1.0);
        // Uninformed: 0.5 for two seats, half of them won — calibrated, no skill.
        let flat = reliability(&[f(0.5, 1.0), f(0.5, 0.0)], 2);
        assert_eq!(flat.ece, 0.0);
        assert_eq!(flat.skill, 0.0);
        // Wrong with confidence: worse than not looking.
        let wrong = reliability(&[f(1.0, 0.0), f(0.0, 1.0)], 2);
        assert_eq!(wrong.ece, 1.0);
        assert!(wrong.skill < 0.0);
        assert_eq!(wrong.bins[9].count, 1);
        assert_eq!(wrong.bins[0].count, 1);
    }
}
