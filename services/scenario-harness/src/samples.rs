//! Recorded games, for the tests that keep old games replaying: the random sample records kept
//! as test data (`tests/data/random-samples/<game>.ndjson`, one game record a line,
//! `schema/game-record.schema.json`)
//! read into plain values, replayed entry by entry from a state the caller makes (under the
//! rules and data versions it chooses), and their outcomes summed up into one fingerprint.
//!
//! Why here: each game keeps its samples replaying under the rules version and the component
//! data they were recorded with, and checks it the same way; the reading and the fingerprint
//! were about to be written three times.

use rules_core::{Actor, GameState, ToAct};
use std::str::FromStr;

/// One recorded game: what a replay needs from the record.
#[derive(Debug, Clone)]
pub struct Record {
    pub options: serde_json::Value,
    pub rules_version: String,
    pub data_hash: String,
    pub entries: Vec<(Actor, String)>,
}

/// Every record of an NDJSON text. A malformed line panics: a broken sample file is a broken
/// test, not a rules failure.
pub fn records(ndjson: &str) -> Vec<Record> {
    ndjson
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, line)| {
            let v: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("record {i}: {e}"));
            let text = |k: &str| {
                v[k].as_str()
                    .unwrap_or_else(|| panic!("record {i}: no {k}"))
                    .to_string()
            };
            let entries = v["entries"]
                .as_array()
                .unwrap_or_else(|| panic!("record {i}: no entries"))
                .iter()
                .map(|e| {
                    let actor = e["actor"].as_str().and_then(|a| Actor::from_str(a).ok());
                    let notation = e["notation"].as_str();
                    match (actor, notation) {
                        (Some(a), Some(n)) => (a, n.to_string()),
                        _ => panic!("record {i}: bad entry {e}"),
                    }
                })
                .collect();
            Record {
                options: v["options"].clone(),
                rules_version: text("rules_version"),
                data_hash: text("data_hash"),
                entries,
            }
        })
        .collect()
}

/// Plays `r`'s entries on `state` (a new game the caller made under the versions it wants to
/// replay with): the final state, or the ply of the first entry refused (or played after the
/// end).
pub fn replay(mut state: Box<dyn GameState>, r: &Record) -> Result<Box<dyn GameState>, usize> {
    for (ply, (actor, text)) in r.entries.iter().enumerate() {
        if state.to_act() == ToAct::Over || state.apply(*actor, text).is_err() {
            return Err(ply);
        }
    }
    Ok(state)
}

/// A finished game's totals and winners as one line (`"41 37 / 0"`); `None` while it is on.
pub fn result_line(s: &dyn GameState) -> Option<String> {
    let o = s.outcome()?;
    let totals: Vec<String> = o.scores.iter().map(|x| x.total.to_string()).collect();
    let winners: Vec<String> = o.winners.iter().map(|w| w.0.to_string()).collect();
    Some(format!("{} / {}", totals.join(" "), winners.join(" ")))
}

/// FNV-1a over result lines, one per game, in order: the outcomes of a sample file as a
/// number a test can pin.
pub fn fingerprint(lines: &[String]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in lines.iter().flat_map(|l| l.bytes().chain([b'\n'])) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
