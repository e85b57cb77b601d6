//! What a record must be before its entries are replayed: exactly what
//! `schema/game-record.schema.json` says (the file itself is embedded and enforced, so the
//! published schema and the importer cannot drift apart), then what a schema cannot say —
//! no key twice in one object, times in order.

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

/// Refuses a JSON text in which an object names a key twice. Parsers disagree on such a
/// record (first wins, last wins, or refuse), so two readers of one file could see two games;
/// the record is refused instead. (Found by the import fuzz target: `"at"` given twice.)
pub fn no_duplicate_keys(text: &str) -> Result<(), String> {
    use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
    use std::fmt;

    /// Walks any JSON value, failing on a repeated key; `depth` bounds the recursion (the
    /// record's nesting is already bounded by serde_json's own limit of 128).
    struct Walk;
    impl<'de> DeserializeSeed<'de> for Walk {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(Walk)
        }
    }
    impl<'de> Visitor<'de> for Walk {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element_seed(Walk)?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                if !seen.insert(key.clone()) {
                    return Err(serde::de::Error::custom(format!(
                        "key `{key}` appears twice in one object"
                    )));
                }
                map.next_value_seed(Walk)?;
            }
            Ok(())
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    Walk.deserialize(&mut de).map_err(|e| e.to_string())
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

    #[test]
    fn a_key_given_twice_is_refused() {
        assert!(no_duplicate_keys(r#"{"a": 1, "b": [{"x": 1}, {"x": 2}]}"#).is_ok());
        let e = no_duplicate_keys(r#"{"a": 1, "b": [{"at": "0", "at": "2026-01-01T00:00:00Z"}]}"#)
            .unwrap_err();
        assert!(e.contains("key `at` appears twice"), "{e}");
        assert!(no_duplicate_keys(r#"{"a": 1, "a": 1}"#).is_err());
    }
}
