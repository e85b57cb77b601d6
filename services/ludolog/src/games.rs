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

/// Every game kind's bots, for the server's bot seats.
pub fn bot_players() -> ai::Players {
    ai::Players::new()
        .with::<five_tribes::FiveTribes>()
        .with::<caledonia::Caledonia>()
        .with::<mombasa::Mombasa>()
}

/// `G`'s options for `players` seats (the rest default), checked by making a game with them.
pub fn options<G: Game>(players: u8) -> Result<G::Options> {
    let o: G::Options = serde_json::from_value(serde_json::json!({ "players": players }))
        .with_context(|| format!("options for {players} players"))?;
    G::new_game(&o).map_err(|e| anyhow!("{e}"))?;
    Ok(o)
}
