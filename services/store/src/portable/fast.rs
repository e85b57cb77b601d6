//! The import's fast path: a record line read straight into its type in one pass, for the
//! records (every one `export` writes) whose every field is in a shape this reader can vouch
//! the record schema admits.
//!
//! The schema stays the authority. Checking a record against it means reading the text into a
//! JSON tree, walking the tree with the schema's validator and reading the tree again into the
//! record: two thirds of the checking thread's work in an import. Here serde reads the text
//! into the record's types directly, and [`read`] answers only when every field is in a shape
//! the schema admits, checked field by field below (objects, not arrays of fields; strings,
//! not nulls; times in the schema's one shape; lengths, lists and patterns as the schema says
//! them). Whatever it does not vouch for — anything unusual, every malformed record — it
//! leaves to the full path, which reads the text again and explains what is wrong. So the
//! fast path changes no answer: when it reads a record, the full path reads the same record
//! (`tests/fast_read.rs` holds it to that on every refusal of the schema tests and thousands
//! of random edits of real records), and a test here fails when the schema's limits and
//! patterns change without this reader.

use super::{time, GameRecord, RecordAnnotation, RecordEntry};
use crate::id::GameId;
use crate::record::Status;
use chrono::{DateTime, Utc};
use serde::de::{Deserializer, Error, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;

/// The schema's values this reader holds records to (a test compares them with the file).
pub(crate) const KINDS: [&str; 3] = ["five-tribes", "clans-of-caledonia", "mombasa"];
pub(crate) const GLYPHS: [&str; 6] = ["!", "?", "!!", "??", "!?", "?!"];
pub(crate) const MAX_PLAYERS: usize = 8;
pub(crate) const MAX_NOTATION: usize = 4096;
pub(crate) const MAX_KEY: usize = 128;
pub(crate) const MAX_ANNOTATIONS: usize = 2000;
pub(crate) const MAX_COMMENT: usize = 2000;

/// `line` as its record, when it is in the shapes this reader vouches for; `None` otherwise
/// (the full path then reads it, and accepts it or says why not).
pub fn read(line: &str) -> Option<GameRecord> {
    let mut de = serde_json::Deserializer::from_str(line);
    let Object(r) = Object::<Record>::deserialize(&mut de).ok()?;
    de.end().ok()?;
    r.admitted().then(|| r.into_record())
}

/// A record as this reader takes it: the fields of [`GameRecord`], each read only in the
/// schema's shape.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    id: GameId,
    kind: String,
    players: Vec<String>,
    #[serde(deserialize_with = "object_without_duplicates")]
    options: Value,
    #[serde(deserialize_with = "super::present")]
    seed: Option<u64>,
    rules_version: String,
    data_hash: String,
    #[serde(deserialize_with = "schema_time")]
    created_at: DateTime<Utc>,
    #[serde(deserialize_with = "schema_time")]
    updated_at: DateTime<Utc>,
    #[serde(deserialize_with = "status")]
    status: Status,
    #[serde(deserialize_with = "objects")]
    entries: Vec<Entry>,
    #[serde(default, deserialize_with = "objects")]
    annotations: Vec<Annotation>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    ply: u32,
    actor: String,
    notation: String,
    #[serde(deserialize_with = "schema_time")]
    at: DateTime<Utc>,
    #[serde(default, deserialize_with = "some_string")]
    key: Option<String>,
    #[serde(default, deserialize_with = "some_string")]
    entered_by: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Annotation {
    ply: u32,
    #[serde(default, deserialize_with = "some_string")]
    glyph: Option<String>,
    #[serde(default)]
    comment: String,
    by: String,
    #[serde(deserialize_with = "schema_time")]
    at: DateTime<Utc>,
}

impl Record {
    /// Whether every field the types do not already hold to the schema is as it says.
    fn admitted(&self) -> bool {
        KINDS.contains(&self.kind.as_str())
            && (1..=MAX_PLAYERS).contains(&self.players.len())
            && self
                .players
                .iter()
                .all(|p| crate::store::check_name(p).is_ok())
            && self.options.is_object()
            && self.entries.iter().all(Entry::admitted)
            && self.annotations.len() <= MAX_ANNOTATIONS
            && self.annotations.iter().all(Annotation::admitted)
    }

    /// The record, every field moved across (named, so a field added to [`GameRecord`] cannot
    /// be forgotten here).
    fn into_record(self) -> GameRecord {
        let Record {
            id,
            kind,
            players,
            options,
            seed,
            rules_version,
            data_hash,
            created_at,
            updated_at,
            status,
            entries,
            annotations,
        } = self;
        GameRecord {
            id,
            kind,
            players,
            options,
            seed,
            rules_version,
            data_hash,
            created_at,
            updated_at,
            status,
            entries: entries.into_iter().map(Entry::into_entry).collect(),
            annotations: annotations
                .into_iter()
                .map(Annotation::into_annotation)
                .collect(),
        }
    }
}

impl Entry {
    fn admitted(&self) -> bool {
        // `^([0-9]{1,2}|dealer)$`, `^[^\p{Cc}]+$` (Rust's `is_control` is that category) and
        // `^([0-9]|recorder|bot)$`; a notation's bytes bound its characters.
        let seat = |s: &str, most: usize| {
            (1..=most).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
        };
        (seat(&self.actor, 2) || self.actor == "dealer")
            && self.notation.len() <= MAX_NOTATION
            && self
                .key
                .as_deref()
                .is_none_or(|k| chars_within(k, 1, MAX_KEY) && !k.chars().any(char::is_control))
            && self
                .entered_by
                .as_deref()
                .is_none_or(|e| seat(e, 1) || e == "recorder" || e == "bot")
    }

    fn into_entry(self) -> RecordEntry {
        let Entry {
            ply,
            actor,
            notation,
            at,
            key,
            entered_by,
        } = self;
        RecordEntry {
            ply,
            actor,
            notation,
            at,
            key,
            entered_by,
        }
    }
}

impl Annotation {
    fn admitted(&self) -> bool {
        // `^([0-9]{1,2}|recorder|admin|imported|analyst:.+)$`: an analyst's name is vouched
        // for only without control characters (the pattern's `.` stops at a line feed).
        let by = &self.by;
        let author = ((1..=2).contains(&by.len()) && by.bytes().all(|b| b.is_ascii_digit()))
            || ["recorder", "admin", "imported"].contains(&by.as_str())
            || by
                .strip_prefix("analyst:")
                .is_some_and(|name| !name.is_empty() && !name.chars().any(char::is_control));
        author
            && self.glyph.as_deref().is_none_or(|g| GLYPHS.contains(&g))
            && chars_within(&self.comment, 0, MAX_COMMENT)
    }

    fn into_annotation(self) -> RecordAnnotation {
        let Annotation {
            ply,
            glyph,
            comment,
            by,
            at,
        } = self;
        RecordAnnotation {
            ply,
            glyph,
            comment,
            by,
            at,
        }
    }
}

/// Whether `s` has from `least` to `most` characters (the schema's lengths count characters;
/// a text of more than four bytes a character allowed is refused before it is counted).
fn chars_within(s: &str, least: usize, most: usize) -> bool {
    s.len() <= 4 * most && (least..=most).contains(&s.chars().count())
}

/// `T` read only from a JSON object: serde's derived structs also read an array of their
/// fields in order, which the schema refuses.
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = T;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(V(PhantomData)).map(Object)
    }
}

/// A list of objects ([`Object`]).
fn objects<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    let list = Vec::<Object<T>>::deserialize(d)?;
    Ok(list.into_iter().map(|Object(t)| t).collect())
}

/// A field that, when present, is a string (serde would take `null` as absent).
fn some_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    String::deserialize(d).map(Some)
}

/// A status, only as one of its names (serde would also take `{"active": null}`).
fn status<'de, D: Deserializer<'de>>(d: D) -> Result<Status, D::Error> {
    match <std::borrow::Cow<'de, str>>::deserialize(d)?.as_ref() {
        "active" => Ok(Status::Active),
        "finished" => Ok(Status::Finished),
        other => Err(D::Error::unknown_variant(other, &["active", "finished"])),
    }
}

/// A time in the schema's one shape (and a real date and time), nothing else.
fn schema_time<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
    let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
    time::schema_shape(&text).ok_or_else(|| D::Error::custom("not in the schema's time shape"))
}

/// The options object, read as the full path reads it: a key given twice is refused.
fn object_without_duplicates<'de, D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
    serde::de::DeserializeSeed::deserialize(super::check::ValueWithoutDuplicates, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The limits, lists and patterns checked above are the schema file's: a change to the
    /// file fails here until this reader follows it.
    #[test]
    fn the_reader_holds_records_to_the_schemas_own_limits() {
        let s: Value = serde_json::from_str(super::super::check::SCHEMA).unwrap();
        let p = &s["properties"];
        let e = &p["entries"]["items"]["properties"];
        let a = &p["annotations"]["items"]["properties"];
        assert_eq!(p["kind"]["enum"], json!(KINDS));
        assert_eq!(p["players"]["minItems"], json!(1));
        assert_eq!(p["players"]["maxItems"], json!(MAX_PLAYERS));
        assert_eq!(p["players"]["items"]["minLength"], json!(1));
        assert_eq!(
            p["players"]["items"]["maxLength"],
            json!(crate::store::MAX_NAME)
        );
        assert_eq!(p["id"]["pattern"], "^[0-9a-f][0-9a-hjkmnp-tv-z]{12}$");
        assert_eq!(p["options"]["type"], "object");
        assert_eq!(e["actor"]["pattern"], "^([0-9]{1,2}|dealer)$");
        assert_eq!(e["notation"]["maxLength"], json!(MAX_NOTATION));
        assert_eq!(e["key"]["minLength"], json!(1));
        assert_eq!(e["key"]["maxLength"], json!(MAX_KEY));
        assert_eq!(e["key"]["pattern"], "^[^\\p{Cc}]+$");
        assert_eq!(e["entered_by"]["pattern"], "^([0-9]|recorder|bot)$");
        assert_eq!(p["annotations"]["maxItems"], json!(MAX_ANNOTATIONS));
        assert_eq!(a["glyph"]["enum"], json!(GLYPHS));
        assert_eq!(a["comment"]["maxLength"], json!(MAX_COMMENT));
        assert_eq!(
            a["by"]["pattern"],
            "^([0-9]{1,2}|recorder|admin|imported|analyst:.+)$"
        );
        let shape = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$";
        for t in [&p["created_at"], &p["updated_at"], &e["at"], &a["at"]] {
            assert_eq!(t["pattern"], shape);
            assert_eq!(t["format"], "date-time");
        }
        // Every field of each object is read here (and no other: unknown fields refused).
        let fields = |o: &Value| {
            let mut k: Vec<String> = o.as_object().unwrap().keys().cloned().collect();
            k.sort();
            k
        };
        assert_eq!(fields(p).len(), 12);
        assert_eq!(fields(e).len(), 6);
        assert_eq!(fields(a).len(), 5);
        assert_eq!(
            fields(&p["options"]),
            ["description", "type"],
            "options: any object"
        );
        // What serde requires is what the schema requires (the rest default when absent).
        let required = |o: &Value| o["required"].as_array().unwrap().len();
        assert_eq!(required(&s), 11, "all but annotations");
        assert_eq!(
            p["entries"]["items"]["required"],
            json!(["ply", "actor", "notation", "at"])
        );
        assert_eq!(
            p["annotations"]["items"]["required"],
            json!(["ply", "by", "at"])
        );
        for o in [&s, &p["entries"]["items"], &p["annotations"]["items"]] {
            assert_eq!(o["additionalProperties"], json!(false));
        }
    }

    #[test]
    fn characters_are_counted_as_the_schema_counts_them() {
        for s in [
            "",
            "a",
            "é",
            "ab",
            "日本語",
            "x".repeat(64).as_str(),
            "é".repeat(64).as_str(),
        ] {
            for (least, most) in [(0, 0), (1, 1), (1, 2), (1, 64), (0, 3), (2, 3), (1, 63)] {
                let n = s.chars().count();
                assert_eq!(
                    chars_within(s, least, most),
                    (least..=most).contains(&n),
                    "{s:?} {least}..={most}"
                );
            }
        }
    }

    #[test]
    fn arrays_of_fields_nulls_and_tagged_names_are_left_to_the_full_path() {
        assert!(serde_json::from_str::<Object<Entry>>(
            r#"[0, "0", "bid 0", "2026-01-01T00:00:00Z"]"#
        )
        .is_err());
        assert!(serde_json::from_str::<Object<Entry>>(
            r#"{"ply": 0, "actor": "0", "notation": "bid 0", "at": "2026-01-01T00:00:00Z"}"#
        )
        .is_ok());
        assert!(serde_json::from_str::<Object<Entry>>(
            r#"{"ply": 0, "actor": "0", "notation": "bid 0", "at": "2026-01-01T00:00:00Z", "key": null}"#
        )
        .is_err());
        assert!(status(&mut serde_json::Deserializer::from_str(
            r#"{"active": null}"#
        ))
        .is_err());
        assert!(status(&mut serde_json::Deserializer::from_str(r#""finished""#)).is_ok());
    }
}
