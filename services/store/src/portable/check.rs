//! What a record must be before its entries are replayed: exactly what
//! `schema/game-record.schema.json` says (the file itself is embedded and enforced, so the
//! published schema and the importer cannot drift apart), then what a schema cannot say —
//! times in order.

use jsonschema::Validator;
use serde_json::Value;
use std::sync::LazyLock;

/// The published record schema.
pub const SCHEMA: &str = include_str!("../../../../schema/game-record.schema.json");

/// A player name: 1 to 64 characters, none of them a control or format character (bidi
/// overrides, zero-width marks), no space at either end. The record schema states the same
/// pattern (a test compares them).
pub const NAME_PATTERN: &str = r"^[^\s\p{Cc}\p{Cf}](?:[^\p{Cc}\p{Cf}]*[^\s\p{Cc}\p{Cf}])?$";

static VALIDATOR: LazyLock<Result<Validator, String>> = LazyLock::new(|| {
    let schema: Value = serde_json::from_str(SCHEMA).map_err(|e| e.to_string())?;
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .map_err(|e| e.to_string())
});

static NAME: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(NAME_PATTERN).expect("NAME_PATTERN is a valid regex"));

/// Whether `name` is a valid player name (besides its length, checked by the caller).
pub fn name_ok(name: &str) -> bool {
    NAME.is_match(name)
}

/// The first way `record` breaks the schema, as "at `/path`: what".
pub fn against_schema(record: &Value) -> Result<(), String> {
    let v = VALIDATOR
        .as_ref()
        .map_err(|e| format!("the record schema does not compile: {e}"))?;
    match v.iter_errors(record).next() {
        None => Ok(()),
        Some(e) => {
            let at = e.instance_path().to_string();
            let at = if at.is_empty() { "/".to_string() } else { at };
            let msg = e.to_string();
            // A failing value can be a whole game; keep the message readable.
            let msg: String = msg.chars().take(300).collect();
            Err(format!("at `{at}`: {msg}"))
        }
    }
}

/// Times in order: `created_at` ≤ each entry's `at` ≤ `updated_at`, entries never going back.
pub fn times_in_order(
    created: chrono::DateTime<chrono::Utc>,
    updated: chrono::DateTime<chrono::Utc>,
    entries: impl IntoIterator<Item = (u32, chrono::DateTime<chrono::Utc>)>,
) -> Result<(), (Option<u32>, String)> {
    if updated < created {
        return Err((
            None,
            format!("updated_at {updated} is before created_at {created}"),
        ));
    }
    let mut last = created;
    for (ply, at) in entries {
        if at < last {
            return Err((
                Some(ply),
                format!("entry time {at} is before the time before it ({last})"),
            ));
        }
        if at > updated {
            return Err((
                Some(ply),
                format!("entry time {at} is after updated_at {updated}"),
            ));
        }
        last = at;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_compiles_and_states_the_name_pattern() {
        assert!(VALIDATOR.is_ok(), "{:?}", VALIDATOR.as_ref().err());
        let schema: Value = serde_json::from_str(SCHEMA).unwrap();
        assert_eq!(
            schema["properties"]["players"]["items"]["pattern"].as_str(),
            Some(NAME_PATTERN)
        );
    }

    #[test]
    fn names() {
        for ok in ["Ada", "bot-0", "José María", "李雷", "a"] {
            assert!(name_ok(ok), "{ok:?}");
        }
        for bad in [
            "",
            " Ada",
            "Ada ",
            "A\u{202E}da",
            "A\u{200B}da",
            "A\nda",
            "\u{2066}x",
        ] {
            assert!(!name_ok(bad), "{bad:?}");
        }
    }
}
