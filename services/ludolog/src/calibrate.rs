//! `ludolog calibrate`: fresh self-play games evaluated position by position
//! (`ai::calibrate::observe`), an isotonic map from raw win chances to probabilities fitted
//! on the even games, and how the raw and the mapped chances fare on the odd ones — over all
//! positions, at mid-game (40–60 % of the entries) and in the last round.
use ai::calibrate::{observe, reliability, Forecast, Isotonic, Observed, Reliability};
use ai::BotSpec;
use anyhow::Result;
use rules_core::{Game, GameKind};
use serde::Serialize;

/// What to play and evaluate.
pub struct Run {
    pub kind: GameKind,
    pub players: u8,
    pub bots: Vec<BotSpec>,
    pub games: u64,
    pub seed: u64,
    pub iterations: u32,
    pub every: u32,
    pub threads: u16,
}

/// Raw and mapped chances judged on the same held-out positions.
#[derive(Serialize)]
pub struct Judged {
    pub positions: usize,
    pub raw: Reliability,
    pub calibrated: Reliability,
}

/// The fit and its report, as written by `--out`.
#[derive(Serialize)]
pub struct Report {
    pub kind: String,
    pub players: u8,
    pub bots: Vec<String>,
    pub games: u64,
    pub seed: u64,
    pub iterations: u32,
    pub every: u32,
    pub method: &'static str,
    pub fitted_on: &'static str,
    pub fitted_positions: usize,
    pub knots: Vec<(f64, f64)>,
    pub held_out: Judged,
    pub mid_game: Judged,
    pub last_round: Judged,
}

pub fn run(r: &Run) -> Result<Report> {
    let observed = match r.kind {
        GameKind::FiveTribes => play::<five_tribes::FiveTribes>(r)?,
        GameKind::ClansOfCaledonia => play::<caledonia::Caledonia>(r)?,
        GameKind::Mombasa => play::<mombasa::Mombasa>(r)?,
    };
    let flat = |keep: &dyn Fn(&Observed) -> bool| -> Vec<Forecast> {
        observed
            .iter()
            .filter(|o| keep(o))
            .flat_map(|o| o.forecasts.iter().copied())
            .collect()
    };
    let fit_on = flat(&|o| o.game % 2 == 0);
    let iso = Isotonic::fit(&fit_on);
    let judge = |keep: &dyn Fn(&Observed) -> bool| -> Judged {
        let raw = flat(&|o| o.game % 2 == 1 && keep(o));
        let mapped: Vec<Forecast> = raw
            .iter()
            .map(|f| Forecast {
                raw: iso.apply(f.raw),
                outcome: f.outcome,
            })
            .collect();
        Judged {
            positions: raw.len() / usize::from(r.players.max(1)),
            raw: reliability(&raw, r.players),
            calibrated: reliability(&mapped, r.players),
        }
    };
    Ok(Report {
        kind: r.kind.to_string(),
        players: r.players,
        bots: r.bots.iter().map(ToString::to_string).collect(),
        games: r.games,
        seed: r.seed,
        iterations: r.iterations,
        every: r.every,
        method: "isotonic (pool adjacent violators), knots joined linearly",
        fitted_on: "the even games of the run; judged on the odd ones",
        fitted_positions: fit_on.len() / usize::from(r.players.max(1)),
        knots: iso.knots.clone(),
        held_out: judge(&|_| true),
        mid_game: judge(&|o| (0.4..0.6).contains(&o.progress)),
        last_round: judge(&|o| o.last_round),
    })
}

fn play<G: Game>(r: &Run) -> Result<Vec<Observed>>
where
    G::Options: Sync,
{
    Ok(observe::<G>(
        &crate::games::options::<G>(r.players)?,
        r.players,
        &r.bots,
        r.games,
        r.seed,
        r.iterations,
        r.every,
        usize::from(r.threads),
    )?)
}
