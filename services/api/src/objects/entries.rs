//! Entries as a viewer may see them: the notation (`hidden` where the rules keep a chance
//! outcome or a secret move from that viewer), the same in words, and the ply each leads to.

use crate::error::{ApiError, ApiResult};
use crate::types::Move;
use rules_core::{GameState, Viewer};
use store::Entry;

/// `entries` shown to `viewer`; `state` is the position before the first of them.
pub fn visible_moves(
    mut state: Box<dyn GameState>,
    entries: &[Entry],
    viewer: Viewer,
) -> ApiResult<Vec<Move>> {
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        let text = state.entry_text(e.actor, &e.notation, viewer);
        let description = state.describe(e.actor, &e.notation, viewer);
        out.push(Move::from_entry(e, text, description));
        state
            .apply(e.actor, &e.notation)
            .map_err(|err| ApiError::Internal(err.to_string()))?;
    }
    Ok(out)
}
