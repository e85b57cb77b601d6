//! What a record must be before its entries are replayed: exactly what
//! `schema/game-record.schema.json` says (the file itself is embedded and enforced, so the
//! published schema and the importer cannot drift apart), then what a schema cannot say —
//! no key twice in one object, times in order.

use jsonschema::Validator;
use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::Value;
use std::fmt;
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

/// Reads a JSON text into a value, refusing it when an object names a key twice. Parsers
/// disagree on such a record (first wins, last wins, or refuse), so two readers of one file
/// could see two games; the record is refused instead. (Found by the import fuzz target:
/// `"at"` given twice.) One pass: the value is built as `serde_json::from_str` builds it, and
/// a key is refused when its object already holds it, so the text is read once, not once to
/// parse and again to look for repeats. The nesting is bounded by serde_json's own limit of
/// 128, which this walk goes through at every level.
pub fn parse_without_duplicates(text: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = ValueWithoutDuplicates.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Reads any JSON value as `serde_json::Value` does, refusing an object that names a key
/// twice ([`parse_without_duplicates`]).
pub(crate) struct ValueWithoutDuplicates;

impl<'de> DeserializeSeed<'de> for ValueWithoutDuplicates {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueWithoutDuplicates {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        // As serde_json's own value: a float JSON cannot hold is null.
        Ok(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element_seed(ValueWithoutDuplicates)? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(ValueWithoutDuplicates)?;
            match object.entry(key) {
                Entry::Vacant(v) => {
                    v.insert(value);
                }
                Entry::Occupied(o) => {
                    return Err(A::Error::custom(format!(
                        "key `{}` appears twice in one object",
                        o.key()
                    )));
                }
            }
        }
        Ok(Value::Object(object))
    }
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
        assert!(parse_without_duplicates(r#"{"a": 1, "b": [{"x": 1}, {"x": 2}]}"#).is_ok());
        let e = parse_without_duplicates(
            r#"{"a": 1, "b": [{"at": "0", "at": "2026-01-01T00:00:00Z"}]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("key `at` appears twice"), "{e}");
        assert!(parse_without_duplicates(r#"{"a": 1, "a": 1}"#).is_err());
        assert!(parse_without_duplicates(r#"{"o": {"k": {}, "k": []}}"#).is_err());
    }

    /// Without a repeated key, the value is serde_json's, and what serde_json refuses is
    /// refused: every kind of value, nesting, escapes, numbers of each kind, trailing text.
    #[test]
    fn the_value_read_in_one_pass_is_serde_jsons() {
        let texts = [
            r#"{"id":"01j0","n":[1,-2,3.5,1e300,18446744073709551615,-9223372036854775808],"s":"a\"\u00e9\n","t":true,"f":false,"z":null}"#,
            r#"[{"a":{"b":[[],{},[{"c":"d"}]]}},"x",0.1]"#,
            r#"  "text"  "#,
            "12",
            r#"{"b":1,"a":2,"B":3}"#,
            "[1,2,]",
            "{\"a\":1} x",
            r#"{"a":1,}"#,
            "",
            r#"{"a":"\ud800"}"#,
        ];
        for t in texts {
            let ours = parse_without_duplicates(t).map_err(|e| e.to_string());
            let theirs = serde_json::from_str::<Value>(t).map_err(|e| e.to_string());
            assert_eq!(ours, theirs, "{t}");
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(
            parse_without_duplicates(&deep).is_err(),
            "past serde_json's nesting limit"
        );
    }
}
