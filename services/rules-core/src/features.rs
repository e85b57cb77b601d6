//! Named numeric features of a position, declared by each game, for position queries.
//!
//! The analysis crate indexes every ply of every stored game by these features and evaluates
//! CEL filters over them (`round == 3 && seats.exists(s, s.viziers >= 5)`). It knows no game
//! by name: a game states *which* features it has ([`FeatureSchema`]) and *fills* them for a
//! state ([`crate::Game::features`]); every value is an integer so the index stays compact and
//! the evaluator is fed typed values without conversion.
//!
//! Every game also has the common features, which the core computes itself and which a game
//! must not declare again: `ply`, `round`, `phase` (a string from [`FeatureSchema::phases`]),
//! `to_act` (the seat to act, or -1 at chance and after the end) and `players`.

/// The features a game declares. Names are CEL identifiers: lowercase ASCII, digits and `_`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeatureSchema {
    /// Every value [`crate::Game::phase`] can return, so phases index as small numbers.
    pub phases: &'static [&'static str],
    /// Game-wide features (e.g. a market price), in the order `features` fills them.
    pub global: &'static [&'static str],
    /// Features of each seat (e.g. `gold`, `viziers`, `score`), in fill order.
    pub seat: &'static [&'static str],
}

impl FeatureSchema {
    /// No game-specific features at all.
    pub const EMPTY: FeatureSchema = FeatureSchema {
        phases: &[],
        global: &[],
        seat: &[],
    };

    /// The index of `phase` in [`FeatureSchema::phases`], if declared.
    pub fn phase_index(&self, phase: &str) -> Option<usize> {
        self.phases.iter().position(|p| *p == phase)
    }
}

/// The values of one position's features, in schema order: `global` has one value per
/// global feature, `seats` one block of `schema.seat.len()` values per seat, seat after seat.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Features {
    pub global: Vec<i64>,
    pub seats: Vec<i64>,
}

impl Features {
    pub fn clear(&mut self) {
        self.global.clear();
        self.seats.clear();
    }
}

/// How much of a game's component data is verified against a public source and how much is
/// reconstructed (marked as such in `data/`), as counted from the data files themselves.
/// `by_text` counts the verified items whose numbers the product's rules texts
/// (`shared/rules/`) state themselves: the spec, not a fan source, vouches for them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DataCoverage {
    pub verified: u32,
    pub reconstructed: u32,
    /// Verified items stated by the rules texts (a part of `verified`).
    #[serde(default)]
    pub by_text: u32,
}

impl DataCoverage {
    /// The share of items the rules texts themselves state, in [0, 1] (0 with no data).
    pub fn by_text_share(&self) -> f64 {
        let total = self.verified + self.reconstructed;
        if total == 0 {
            0.0
        } else {
            f64::from(self.by_text) / f64::from(total)
        }
    }

    /// The verified share in [0, 1]; 1 when a game has no component data at all.
    pub fn verified_share(&self) -> f64 {
        let total = self.verified + self.reconstructed;
        if total == 0 {
            1.0
        } else {
            f64::from(self.verified) / f64::from(total)
        }
    }
}

/// Names every game has, computed by the core; a game must not declare them.
pub const COMMON: &[&str] = &["ply", "round", "phase", "to_act", "players", "seats"];

/// Checks a game's declared features against one of its states: names are CEL identifiers,
/// unique and not [`COMMON`]; the phase is declared; `features` fills exactly the declared
/// number of values. Every game's random-game test calls it on every position it reaches.
pub fn check_shape<G: crate::Game>(s: &G::State) -> Result<(), String> {
    let schema = G::feature_schema();
    let mut seen = std::collections::HashSet::new();
    for name in schema.global.iter().chain(schema.seat) {
        let ident = name.starts_with(|c: char| c.is_ascii_lowercase())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !ident || COMMON.contains(name) || *name == "seat" || !seen.insert(*name) {
            return Err(format!("feature name `{name}` is not a fresh identifier"));
        }
    }
    let phase = G::phase(s);
    if schema.phase_index(phase).is_none() {
        return Err(format!("phase `{phase}` is not declared"));
    }
    let mut f = Features::default();
    G::features(s, &mut f);
    let players = usize::from(G::player_count(s));
    if f.global.len() != schema.global.len() || f.seats.len() != players * schema.seat.len() {
        return Err(format!(
            "filled {} global and {} seat values for {} and {}×{}",
            f.global.len(),
            f.seats.len(),
            schema.global.len(),
            players,
            schema.seat.len()
        ));
    }
    Ok(())
}

impl DataCoverage {
    /// Counts the items of a JSON data file: every object with a boolean `reconstructed` field
    /// is one item, verified when the field is `false`, and verified by the rules text when it
    /// also has a non-empty `rules_text` field (where the text states its numbers). Data files
    /// mark each item so (see the games' `SOURCES.md`); unreadable text counts nothing.
    pub fn of_json(text: &str) -> DataCoverage {
        fn walk(v: &serde_json::Value, c: &mut DataCoverage) {
            match v {
                serde_json::Value::Object(map) => {
                    match map.get("reconstructed") {
                        Some(serde_json::Value::Bool(true)) => c.reconstructed += 1,
                        Some(serde_json::Value::Bool(false)) => {
                            c.verified += 1;
                            if map
                                .get("rules_text")
                                .and_then(|t| t.as_str())
                                .is_some_and(|t| !t.trim().is_empty())
                            {
                                c.by_text += 1;
                            }
                        }
                        _ => {}
                    }
                    map.values().for_each(|v| walk(v, c));
                }
                serde_json::Value::Array(items) => items.iter().for_each(|v| walk(v, c)),
                _ => {}
            }
        }
        let mut c = DataCoverage::default();
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(text) {
            walk(&v, &mut c);
        }
        c
    }

    /// The sum of two counts (e.g. over a game's data files).
    pub fn plus(self, other: DataCoverage) -> DataCoverage {
        DataCoverage {
            verified: self.verified + other.verified,
            reconstructed: self.reconstructed + other.reconstructed,
            by_text: self.by_text + other.by_text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn of_json_counts_marked_objects_at_any_depth() {
        let text = r#"{"reconstructed": false, "items": [
            {"id": 1, "reconstructed": true, "rules_text": "not verified: does not count"},
            {"id": 2, "reconstructed": false, "parts": [{"reconstructed": true}]},
            {"id": 3},
            {"id": 4, "reconstructed": false, "rules_text": "pt: setup step 5"},
            {"id": 5, "reconstructed": false, "rules_text": " "}
        ]}"#;
        assert_eq!(
            DataCoverage::of_json(text),
            DataCoverage {
                verified: 4,
                reconstructed: 2,
                by_text: 1,
            }
        );
        assert_eq!(DataCoverage::of_json("not json"), DataCoverage::default());
    }

    #[test]
    fn verified_share_counts_items() {
        let c = DataCoverage {
            verified: 3,
            reconstructed: 1,
            by_text: 1,
        };
        assert!((c.verified_share() - 0.75).abs() < 1e-12);
        assert!((c.by_text_share() - 0.25).abs() < 1e-12);
        assert_eq!(DataCoverage::default().by_text_share(), 0.0);
        assert_eq!(DataCoverage::default().verified_share(), 1.0);
    }

    #[test]
    fn phase_index_finds_declared_phases_only() {
        let s = FeatureSchema {
            phases: &["bid", "turn"],
            global: &[],
            seat: &[],
        };
        assert_eq!(s.phase_index("turn"), Some(1));
        assert_eq!(s.phase_index("over"), None);
    }
}
