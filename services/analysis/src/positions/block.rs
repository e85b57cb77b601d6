//! One game's positions as the index builds them: every ply's features in one block.
//!
//! Why one record per game rather than per ply: a scan then costs one store read per game
//! (hundreds of positions). The block is written once, when the game finishes, and never
//! changes; it is stored column by column (`columns`), and built here row by row.
//!
//! Row layout, one row per position from ply 0 (before the deal) to the last ply:
//! `round, phase (index into the schema's phases), to_act (-1 for nobody), global…, seat 0…,
//! seat 1…`.

use rules_core::{FeatureSchema, Features, GameRules, ToAct};
use store::Entry;

/// Values before the game's own in each row.
pub const LEAD: usize = 3;

/// A game's indexed positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameBlock {
    pub players: u8,
    /// Values per row (lead, global and every seat's block).
    pub width: u32,
    pub values: Vec<i64>,
}

/// One position of a block, borrowed, as the filter and the output read it.
#[derive(Debug, Clone, Copy)]
pub struct PositionRef<'a> {
    pub ply: u32,
    pub round: i64,
    pub phase: &'static str,
    pub to_act: i64,
    pub players: u8,
    pub global: &'a [i64],
    /// Every seat's values, seat after seat.
    pub seats: &'a [i64],
}

/// Why a block could not be built from a game's log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot index ply {ply}: {message}")]
pub struct BuildError {
    pub ply: u32,
    pub message: String,
}

impl GameBlock {
    /// Replays `entries` from a new game with `options`, under the rules version and component
    /// data it was recorded with, recording every position's features and, for
    /// [`crate::positions::by_hash`], its keyed state hash.
    pub fn build(
        rules: &dyn GameRules,
        options: &serde_json::Value,
        rules_version: &str,
        data_hash: &str,
        entries: &[Entry],
        hash_key: [u8; 16],
    ) -> Result<(GameBlock, Vec<u64>), BuildError> {
        let schema = rules.feature_schema();
        let mut state = rules
            .new_game_recorded(options, rules_version, data_hash)
            .map_err(|e| BuildError {
                ply: 0,
                message: e.to_string(),
            })?;
        let players = state.player_count();
        let width = LEAD + schema.global.len() + usize::from(players) * schema.seat.len();
        let mut values = Vec::with_capacity(width * (entries.len() + 1));
        let mut hashes = Vec::with_capacity(entries.len() + 1);
        let mut f = Features::default();
        let mut record = |state: &dyn rules_core::GameState, values: &mut Vec<i64>| {
            state.features(&mut f);
            values.push(i64::from(state.round()));
            values.push(schema.phase_index(state.phase()).map_or(-1, |i| i as i64));
            values.push(match state.to_act() {
                ToAct::Seat(s) => i64::from(s.0),
                ToAct::Chance | ToAct::Over => -1,
            });
            // A game filling fewer values than it declares gets zeros, more are cut: the row
            // width stays what readers expect (`check_shape` tests keep games honest).
            let fixed = |vals: &[i64], n: usize, out: &mut Vec<i64>| {
                out.extend((0..n).map(|i| vals.get(i).copied().unwrap_or(0)));
            };
            fixed(&f.global, schema.global.len(), values);
            fixed(&f.seats, usize::from(players) * schema.seat.len(), values);
            hashes.push(state.state_hash(hash_key));
        };
        record(state.as_ref(), &mut values);
        for e in entries {
            state
                .apply(e.actor, &e.notation)
                .map_err(|err| BuildError {
                    ply: e.ply,
                    message: err.to_string(),
                })?;
            record(state.as_ref(), &mut values);
        }
        Ok((
            GameBlock {
                players,
                width: width as u32,
                values,
            },
            hashes,
        ))
    }

    /// Number of positions (plies + 1).
    pub fn len(&self) -> usize {
        if self.width == 0 {
            0
        } else {
            self.values.len() / self.width as usize
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The position at `ply`, read in place; `None` past the end or for a block whose width
    /// does not fit `schema` (written by other rules; `rebuild` rewrites it).
    pub fn position<'a>(&'a self, schema: &FeatureSchema, ply: u32) -> Option<PositionRef<'a>> {
        let w = self.width as usize;
        let g = schema.global.len();
        if w != LEAD + g + usize::from(self.players) * schema.seat.len() {
            return None;
        }
        let row = self.values.get(ply as usize * w..(ply as usize + 1) * w)?;
        PositionRef::of_row(schema, self.players, ply, row)
    }
}

impl<'a> PositionRef<'a> {
    /// The position whose row (in the layout above) is `row`; `None` if the row is too short.
    pub fn of_row(
        schema: &FeatureSchema,
        players: u8,
        ply: u32,
        row: &'a [i64],
    ) -> Option<PositionRef<'a>> {
        let g = schema.global.len();
        if row.len() < LEAD + g {
            return None;
        }
        let phase = usize::try_from(row[1])
            .ok()
            .and_then(|i| schema.phases.get(i))
            .copied()
            .unwrap_or("unknown");
        Some(PositionRef {
            ply,
            round: row[0],
            phase,
            to_act: row[2],
            players,
            global: &row[LEAD..LEAD + g],
            seats: &row[LEAD + g..],
        })
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A small schema for the block and column tests.
    pub(in crate::positions) const SCHEMA: FeatureSchema = FeatureSchema {
        phases: &["a", "b"],
        global: &["g"],
        seat: &["x", "y"],
    };

    #[test]
    fn positions_read_back_their_rows() {
        let b = GameBlock {
            players: 2,
            width: 8,
            values: vec![0, 0, -1, 7, 1, 2, 3, 4, 1, 1, 0, 8, 5, 6, 7, 8],
        };
        assert_eq!(b.len(), 2);
        let p = b.position(&SCHEMA, 1).unwrap();
        assert_eq!((p.ply, p.round, p.phase, p.to_act), (1, 1, "b", 0));
        assert_eq!(p.global, &[8]);
        assert_eq!(p.seats, &[5, 6, 7, 8]);
        assert!(b.position(&SCHEMA, 2).is_none());
        let narrow = FeatureSchema {
            seat: &["x"],
            ..SCHEMA
        };
        assert!(
            b.position(&narrow, 0).is_none(),
            "width mismatch is refused"
        );
    }
}
