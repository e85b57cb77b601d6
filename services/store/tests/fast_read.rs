//! The import's fast reader changes no answer: whenever `store::portable::fast::read` reads a
//! record, the full path (`read_by_schema`: JSON tree, the schema file, then the record) reads
//! the same record. Checked on real records of every size of game, on edits made to break
//! each rule of the schema, and on thousands of random edits of their text and of their
//! fields. It also reads the records `export` writes, or it would not be a fast path.

mod support;

use serde_json::{json, Value};
use store::portable::{fast, read_by_schema};
use store::GameLog;
use support::*;

fn records() -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let mut out = Vec::new();
    for (players, seed) in [(2, 5), (3, 77), (4, 9)] {
        let id = new_game(&store, players, seed);
        play_out(&store, id, seed, 10_000);
        let mut r = serde_json::to_value(store.record(id).unwrap()).unwrap();
        r["entries"][3]["key"] = "retry-1".into();
        r["entries"][4]["entered_by"] = "recorder".into();
        let at = r["created_at"].clone();
        r["annotations"] = json!([
            {"ply": 1, "glyph": "!?", "comment": "a bold bid", "by": "analyst:Ada", "at": at},
            {"ply": 0, "comment": "línea\ncon tab\t", "by": "0", "at": at},
        ]);
        out.push(r);
    }
    out
}

/// The invariant, for one text; whether the fast reader read it.
fn agrees(text: &str) -> bool {
    match fast::read(text) {
        None => false,
        Some(fast) => {
            let full = read_by_schema(text);
            assert_eq!(
                full.as_ref(),
                Ok(&fast),
                "fast read a record the full path reads otherwise:\n{text}"
            );
            true
        }
    }
}

#[test]
fn exported_records_are_read_by_the_fast_reader_as_the_full_path_reads_them() {
    for r in records() {
        let text = r.to_string();
        assert!(agrees(&text), "an exported record takes the fast path");
        // Leap seconds, lengths counted in characters, times with offsets: still the same.
        let mut r2 = r.clone();
        r2["players"][0] = "é".repeat(64).into();
        r2["entries"][2]["at"] = "2026-06-30T23:59:59.123456789+02:00".into();
        assert!(agrees(&r2.to_string()));
    }
}

#[test]
fn every_edit_the_schema_refuses_is_refused_by_the_fast_reader() {
    let good = records().swap_remove(1);
    type Edit = fn(&mut Value);
    let edits: Vec<(&str, Edit)> = vec![
        ("id", |r| r["id"] = "NOT-AN-ID".into()),
        ("id upper", |r| {
            r["id"] = r["id"].as_str().unwrap().to_uppercase().into()
        }),
        ("kind", |r| r["kind"] = "chess".into()),
        ("players none", |r| r["players"] = json!([])),
        ("players nine", |r| r["players"] = json!(vec!["a"; 9])),
        ("player empty", |r| r["players"][0] = "".into()),
        ("player bidi", |r| r["players"][1] = "ev\u{202E}lina".into()),
        ("player padded", |r| r["players"][1] = " ada".into()),
        ("player long", |r| r["players"][1] = "é".repeat(65).into()),
        ("player number", |r| r["players"][1] = json!(7)),
        ("options array", |r| r["options"] = json!([3])),
        ("options null", |r| r["options"] = json!(null)),
        ("seed missing", |r| {
            r.as_object_mut().unwrap().remove("seed");
        }),
        ("seed negative", |r| r["seed"] = json!(-1)),
        ("seed float", |r| r["seed"] = json!(77.0)),
        ("seed text", |r| r["seed"] = "77".into()),
        ("rules_version", |r| r["rules_version"] = json!(1)),
        ("data_hash", |r| r["data_hash"] = json!(null)),
        ("time space", |r| {
            r["created_at"] = "2026-01-01 00:00:00Z".into()
        }),
        ("time lower t", |r| {
            r["created_at"] = "2026-01-01t00:00:00Z".into()
        }),
        ("time lower z", |r| {
            r["created_at"] = "2026-01-01T00:00:00z".into()
        }),
        ("time no offset", |r| {
            r["created_at"] = "2026-01-01T00:00:00".into()
        }),
        ("time month 13", |r| {
            r["created_at"] = "2026-13-01T00:00:00Z".into()
        }),
        ("time leap second", |r| {
            r["created_at"] = "2016-12-31T23:59:60Z".into()
        }),
        ("time offset 24", |r| {
            r["created_at"] = "2026-01-01T00:00:00+24:00".into()
        }),
        ("time ten digits", |r| {
            r["created_at"] = "2026-01-01T00:00:00.0123456789Z".into()
        }),
        ("status", |r| r["status"] = "paused".into()),
        ("status tagged", |r| r["status"] = json!({"finished": null})),
        ("unknown field", |r| r["surprise"] = 1.into()),
        ("entries object", |r| r["entries"] = json!({})),
        ("entry array", |r| {
            r["entries"][2] = json!([2, "0", "bid 0", "2026-01-01T00:00:00Z"])
        }),
        ("entry ply", |r| r["entries"][2]["ply"] = json!(-2)),
        ("entry ply float", |r| r["entries"][2]["ply"] = json!(2.0)),
        ("entry ply huge", |r| {
            r["entries"][2]["ply"] = json!(1u64 << 40)
        }),
        ("entry actor", |r| {
            r["entries"][2]["actor"] = "seat-1".into()
        }),
        ("entry actor 3 digits", |r| {
            r["entries"][2]["actor"] = "007".into()
        }),
        ("entry actor number", |r| {
            r["entries"][2]["actor"] = json!(0)
        }),
        ("entry notation long", |r| {
            r["entries"][2]["notation"] = "x".repeat(4097).into()
        }),
        ("entry notation long wide", |r| {
            r["entries"][2]["notation"] = "é".repeat(4000).into()
        }),
        ("entry at", |r| {
            r["entries"][2]["at"] = "2026-01-01 00:00:00Z".into()
        }),
        ("entry key null", |r| r["entries"][3]["key"] = json!(null)),
        ("entry key long", |r| {
            r["entries"][3]["key"] = "k".repeat(129).into()
        }),
        ("entry key empty", |r| r["entries"][3]["key"] = "".into()),
        ("entry key control", |r| {
            r["entries"][3]["key"] = "a\u{85}b".into()
        }),
        ("entry key format", |r| {
            r["entries"][3]["key"] = "a\u{200B}b".into()
        }),
        ("entry entered_by", |r| {
            r["entries"][3]["entered_by"] = "10".into()
        }),
        ("entry entered_by null", |r| {
            r["entries"][3]["entered_by"] = json!(null)
        }),
        ("entry unknown", |r| r["entries"][2]["who"] = "x".into()),
        ("annotations object", |r| r["annotations"] = json!({})),
        ("annotations null", |r| r["annotations"] = json!(null)),
        ("annotation glyph", |r| {
            r["annotations"][0]["glyph"] = "!!!".into()
        }),
        ("annotation glyph null", |r| {
            r["annotations"][0]["glyph"] = json!(null)
        }),
        ("annotation comment long", |r| {
            r["annotations"][0]["comment"] = "c".repeat(2001).into()
        }),
        ("annotation by", |r| {
            r["annotations"][0]["by"] = "analyst:".into()
        }),
        ("annotation by line", |r| {
            r["annotations"][0]["by"] = "analyst:a\nb".into()
        }),
        ("annotation by who", |r| {
            r["annotations"][0]["by"] = "someone".into()
        }),
        ("annotation no by", |r| {
            r["annotations"][0].as_object_mut().unwrap().remove("by");
        }),
        ("annotations many", |r| {
            let a = r["annotations"][1].clone();
            r["annotations"] = Value::Array(vec![a; 2001]);
        }),
    ];
    for (what, edit) in &edits {
        let mut r = good.clone();
        edit(&mut r);
        let text = r.to_string();
        agrees(&text);
        // What the schema refuses, the fast reader leaves to the full path, which refuses it.
        if read_by_schema(&text).is_err() {
            assert!(fast::read(&text).is_none(), "{what}");
        }
    }
    // A key given twice, at the top, in an entry, in the options: left to the full path.
    let text = good.to_string();
    for (from, to) in [
        ("\"kind\":", "\"kind\":\"mombasa\",\"kind\":"),
        ("\"notation\":", "\"notation\":\"x\",\"notation\":"),
        ("\"options\":{", "\"options\":{\"players\":2,"),
    ] {
        let doubled = text.replacen(from, to, 1);
        assert_ne!(doubled, text);
        assert!(fast::read(&doubled).is_none(), "{to}");
        assert!(
            read_by_schema(&doubled)
                .unwrap_err()
                .1
                .contains("appears twice"),
            "{to}"
        );
    }
}

/// A small deterministic generator (xorshift), so a failure repeats.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_edits_of_records_never_make_the_two_readers_disagree() {
    let goods: Vec<String> = records().iter().map(Value::to_string).collect();
    let snippets = [
        "\"", ",", "[", "]", "{", "}", ":", "null", "1", "-1", "1.5", "\"x\"", " ", "\\", "T", "Z",
        "é", "\\u0000", "\"k\":1", "e9", "0",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut fast_reads, mut tries) = (0, 0);
    for _ in 0..1500 {
        let good = &goods[rng.below(goods.len())];
        let mut text = good.clone();
        for _ in 0..1 + rng.below(2) {
            let chars: Vec<(usize, char)> = text.char_indices().collect();
            let (at, c) = chars[rng.below(chars.len())];
            let snippet = snippets[rng.below(snippets.len())];
            match rng.below(3) {
                0 => text.replace_range(at..at + c.len_utf8(), ""),
                1 => text.insert_str(at, snippet),
                _ => text.replace_range(at..at + c.len_utf8(), snippet),
            }
        }
        tries += 1;
        fast_reads += usize::from(agrees(&text));
    }
    // Edits of a value: a random field of a random object set to a random value.
    let values = [
        json!(null),
        json!(0),
        json!(-3),
        json!(2.5),
        json!(""),
        json!("0"),
        json!("dealer"),
        json!("2026-01-01T00:00:00Z"),
        json!([]),
        json!({}),
        json!(["a"]),
        json!(true),
        json!("recorder"),
        json!("finished"),
        json!(u64::MAX),
    ];
    for r in records() {
        for _ in 0..500 {
            let mut r = r.clone();
            // A random path down objects and arrays (as a JSON pointer), then what is there
            // replaced.
            let mut path = String::new();
            let mut at = &r;
            for _ in 0..rng.below(4) {
                let step = match at {
                    Value::Object(o) if !o.is_empty() => o.keys().nth(rng.below(o.len())).cloned(),
                    Value::Array(a) if !a.is_empty() => Some(rng.below(a.len()).to_string()),
                    _ => None,
                };
                let Some(step) = step else { break };
                path = format!("{path}/{}", step.replace('~', "~0").replace('/', "~1"));
                at = r.pointer(&path).unwrap();
            }
            let at = r.pointer_mut(&path).unwrap();
            *at = values[rng.below(values.len())].clone();
            tries += 1;
            fast_reads += usize::from(agrees(&r.to_string()));
        }
    }
    // Not vacuous: many edits leave a record the fast reader still reads (and agrees on).
    assert!(fast_reads > tries / 20, "{fast_reads} of {tries} read fast");
}
