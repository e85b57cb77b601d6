//! The games this binary serves, and generic helpers over them.

use anyhow::{anyhow, Context, Result};
use rules_core::{Erased, Game, Registry};

/// Every game kind with an implementation.
pub fn registry() -> Registry {
    Registry::new()
        .with(Erased::<five_tribes::FiveTribes>::new())
        .with(Erased::<caledonia::Caledonia>::new())
        .with(Erased::<mombasa::Mombasa>::new())
}

/// Each game kind's calibration of its evaluations (`ludolog calibrate`, kept in
/// `data/<game>/calibration.json` with its provenance).
pub const CALIBRATIONS: [(rules_core::GameKind, &str); 3] = [
    (
        rules_core::GameKind::FiveTribes,
        include_str!("../../../data/five-tribes/calibration.json"),
    ),
    (
        rules_core::GameKind::ClansOfCaledonia,
        include_str!("../../../data/caledonia/calibration.json"),
    ),
    (
        rules_core::GameKind::Mombasa,
        include_str!("../../../data/mombasa/calibration.json"),
    ),
];

/// The maps of one calibration file, by player count.
pub fn calibration_maps(text: &str) -> Result<Vec<(u8, ai::calibrate::Isotonic)>> {
    #[derive(serde::Deserialize)]
    struct Fit {
        players: u8,
        knots: Vec<(f64, f64)>,
    }
    #[derive(serde::Deserialize)]
    struct File {
        fits: Vec<Fit>,
    }
    let file: File = serde_json::from_str(text).context("a calibration file")?;
    Ok(file
        .fits
        .into_iter()
        .map(|f| (f.players, ai::calibrate::Isotonic { knots: f.knots }))
        .collect())
}

/// Every game kind's bots, for the server's bot seats and evaluations, with the shipped
/// calibrations.
pub fn bot_players() -> Result<ai::Players> {
    let mut p = ai::Players::new()
        .with::<five_tribes::FiveTribes>()
        .with::<caledonia::Caledonia>()
        .with::<mombasa::Mombasa>();
    for (kind, text) in CALIBRATIONS {
        for (players, map) in calibration_maps(text).with_context(|| format!("{kind}"))? {
            p = p.calibrated(kind, players, map);
        }
    }
    Ok(p)
}

/// `G`'s options for `players` seats (the rest default), checked by making a game with them.
pub fn options<G: Game>(players: u8) -> Result<G::Options> {
    let o: G::Options = serde_json::from_value(serde_json::json!({ "players": players }))
        .with_context(|| format!("options for {players} players"))?;
    G::new_game(&o).map_err(|e| anyhow!("{e}"))?;
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shipped calibration parses, names each player count once, and maps
    /// monotonically from 0..=1 into 0..=1.
    #[test]
    fn every_shipped_calibration_parses_and_keeps_order() {
        for (kind, text) in CALIBRATIONS {
            let maps = calibration_maps(text).unwrap();
            assert!(!maps.is_empty(), "{kind}: no fit");
            let mut counts: Vec<u8> = maps.iter().map(|(n, _)| *n).collect();
            counts.dedup();
            assert_eq!(counts.len(), maps.len(), "{kind}: a player count twice");
            for (n, map) in &maps {
                let mut last = 0.0;
                for i in 0..=100 {
                    let p = map.apply(f64::from(i) / 100.0);
                    assert!((0.0..=1.0).contains(&p) && p >= last, "{kind} {n}p at {i}");
                    last = p;
                }
            }
        }
        bot_players().unwrap();
    }
}
