//! How a matching position leaves the index: as a typed row (GraphQL) or an NDJSON line
//! (exports), with the game's feature names.

use super::block::PositionRef;
use rules_core::FeatureSchema;
use std::io::Write;
use store::GameId;

/// One seat's features, named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatFeatures {
    pub seat: u8,
    pub values: Vec<(&'static str, i64)>,
}

/// A matching position with its features.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionRow {
    pub game: GameId,
    pub ply: u32,
    pub round: i64,
    pub phase: &'static str,
    /// The seat to act, `None` at chance or after the end.
    pub to_act: Option<u8>,
    pub players: u8,
    pub global: Vec<(&'static str, i64)>,
    pub seats: Vec<SeatFeatures>,
}

impl PositionRow {
    pub fn of(game: GameId, p: &PositionRef<'_>, schema: &FeatureSchema) -> PositionRow {
        let width = schema.seat.len();
        PositionRow {
            game,
            ply: p.ply,
            round: p.round,
            phase: p.phase,
            to_act: u8::try_from(p.to_act).ok(),
            players: p.players,
            global: schema
                .global
                .iter()
                .copied()
                .zip(p.global.iter().copied())
                .collect(),
            seats: (0..p.players)
                .map(|s| SeatFeatures {
                    seat: s,
                    values: schema
                        .seat
                        .iter()
                        .copied()
                        .zip(
                            p.seats
                                .iter()
                                .skip(usize::from(s) * width)
                                .take(width)
                                .copied(),
                        )
                        .collect(),
                })
                .collect(),
        }
    }
}

/// Appends one NDJSON line for `p` to `out`: `game, ply, round, phase, to_act` (null for
/// nobody), `players`, the global features, then `seats` as objects with `seat` and the seat
/// features. Written by hand: feature names are identifiers (checked by `check_shape`), so
/// only the phase needs escaping, and the export stays a straight copy of integers.
pub fn write_ndjson_row(
    out: &mut Vec<u8>,
    game: GameId,
    p: &PositionRef<'_>,
    schema: &FeatureSchema,
) {
    let _ = write!(
        out,
        "{{\"game\":\"{game}\",\"ply\":{},\"round\":{},\"phase\":",
        p.ply, p.round
    );
    let _ = serde_json::to_writer(&mut *out, p.phase);
    if p.to_act < 0 {
        out.extend_from_slice(b",\"to_act\":null");
    } else {
        let _ = write!(out, ",\"to_act\":{}", p.to_act);
    }
    let _ = write!(out, ",\"players\":{}", p.players);
    let mut num = itoa::Buffer::new();
    // `,"name":value`, without the formatting machinery: an export writes millions.
    let mut field = |out: &mut Vec<u8>, name: &str, v: i64| {
        out.extend_from_slice(b",\"");
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b"\":");
        out.extend_from_slice(num.format(v).as_bytes());
    };
    for (name, v) in schema.global.iter().zip(p.global) {
        field(out, name, *v);
    }
    out.extend_from_slice(b",\"seats\":[");
    let width = schema.seat.len();
    for s in 0..usize::from(p.players) {
        if s > 0 {
            out.push(b',');
        }
        let _ = write!(out, "{{\"seat\":{s}");
        let values = p.seats.get(s * width..(s + 1) * width).unwrap_or(&[]);
        for (name, v) in schema.seat.iter().zip(values) {
            field(out, name, *v);
        }
        out.push(b'}');
    }
    out.extend_from_slice(b"]}\n");
}
