//! What only the sled store has, given / when / then: corruption of its files, rebuild of its
//! caches, its on-disk layout, and the record schema its exports follow. What every backend
//! must do (appends, conflicts, idempotency, dealing, reads, listings, import and export) is
//! the conformance suite, `tests/conformance.rs`.

use store::{Filter, GameId, GameLog, Store, StoreError};

mod support;

use support::*;

#[test]
fn a_corrupted_byte_is_reported_not_served() {
    let dir = tempfile::tempdir().unwrap();
    let id = {
        let store = open(dir.path());
        let id = new_game(&store, 2, 3);
        play_out(&store, id, 1, 40);
        id
    };
    {
        let db = retry_locked(|| sled::open(dir.path()).map_err(|e| e.to_string()));
        let entries = db.open_tree("entries").unwrap();
        let mut k = id.to_bytes().to_vec();
        k.extend_from_slice(&5u32.to_be_bytes());
        let mut v = entries.get(&k).unwrap().unwrap().to_vec();
        let last = v.len() - 1;
        v[last] ^= 0x01;
        entries.insert(&k, v).unwrap();
        db.flush().unwrap();
    }
    let store = open(dir.path());
    let e = store.entries(id, 0, 10).unwrap_err();
    assert!(matches!(e, StoreError::Corrupt { ply: Some(5), .. }), "{e}");
    assert!(e.to_string().contains("ply 5"), "{e}");
    assert!(matches!(
        store.state_at(id, 7),
        Err(StoreError::Corrupt { .. })
    ));
    // Entries before the damage still read.
    assert_eq!(store.entries(id, 0, 5).unwrap().len(), 5);
}

#[test]
fn rebuild_recomputes_identical_caches() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let ids: Vec<GameId> = (0..4).map(|i| new_game(&store, 3, 200 + i)).collect();
    for (i, id) in ids.iter().enumerate() {
        play_out(&store, *id, i as u64, 150 + 60 * i);
    }
    let snapshot = |store: &Store| {
        let mut out = Vec::new();
        for id in &ids {
            let h = store.header(*id).unwrap();
            for p in (0..=h.plies).step_by(13) {
                out.push(store.state_at(*id, p).unwrap().encode());
            }
        }
        let listing: Vec<GameId> = store
            .list(&Filter::default(), 100, None)
            .unwrap()
            .games
            .iter()
            .map(|h| h.id)
            .collect();
        (out, listing)
    };
    let before = snapshot(&store);
    let report = store.rebuild(&mut |_, _| {}).unwrap();
    assert_eq!(report.games, 4);
    assert_eq!(snapshot(&store), before);
}

#[test]
fn the_record_schema_describes_exported_records() {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../../../schema/game-record.schema.json")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let id = new_game(&store, 2, 1);
    play_out(&store, id, 0, 20);
    // An annotation, so that the record has every field the schema describes.
    store
        .write_note(store::journal::NewNote {
            game: id,
            by: store::journal::Author::Admin,
            at: store_conformance::t0(),
            request: store::journal::NoteRequest::Annotate {
                ply: 3,
                glyph: Some(store::journal::Glyph::Good),
                comment: "a fine bid".into(),
            },
        })
        .unwrap();
    let rec = serde_json::to_value(store.record(id).unwrap()).unwrap();
    let props: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    let fields: Vec<&String> = rec.as_object().unwrap().keys().collect();
    let mut sorted_props = props.clone();
    sorted_props.sort();
    let mut sorted_fields = fields.clone();
    sorted_fields.sort();
    assert_eq!(
        sorted_fields, sorted_props,
        "record fields and schema properties differ"
    );
    for req in schema["required"].as_array().unwrap() {
        assert!(
            rec.get(req.as_str().unwrap()).is_some(),
            "required {req} missing"
        );
    }
    let entry_props = schema["properties"]["entries"]["items"]["properties"]
        .as_object()
        .unwrap();
    for e in rec["entries"].as_array().unwrap() {
        for k in e.as_object().unwrap().keys() {
            assert!(
                entry_props.contains_key(k),
                "entry field {k} not in the schema"
            );
        }
    }
    let note_props = schema["properties"]["annotations"]["items"]["properties"]
        .as_object()
        .unwrap();
    let note = rec["annotations"][0].as_object().unwrap();
    let mut keys: Vec<&String> = note.keys().collect();
    keys.sort();
    let mut want: Vec<&String> = note_props.keys().collect();
    want.sort();
    assert_eq!(keys, want, "annotation fields and schema properties differ");
    let kinds: Vec<&str> = schema["properties"]["kind"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for k in rules_core::GameKind::ALL {
        assert!(kinds.contains(&k.as_str()));
    }
}

#[test]
fn a_store_of_a_newer_layout_is_refused_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let id = {
        let store = open(dir.path());
        new_game(&store, 2, 5)
    };
    assert_eq!(
        swap_format(dir.path(), 99),
        Some(4u32.to_le_bytes().to_vec()),
        "a store is marked with its layout"
    );
    let e = retry_locked(
        || match Store::open(dir.path(), registry(), store::Config::default()) {
            Err(StoreError::InUse(d)) => Err(format!("{d} in use")),
            Err(e) => Ok(e),
            Ok(_) => panic!("a newer layout is refused"),
        },
    );
    assert!(
        matches!(
            e,
            StoreError::Format {
                found: 99,
                supported: 4,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.code(), "STORE_FORMAT");
    assert_eq!(
        swap_format(dir.path(), 2),
        Some(99u32.to_le_bytes().to_vec()),
        "the refusal changed nothing"
    );
    let store = open(dir.path());
    assert!(store.header(id).is_ok());
}

/// Sets the store's layout marker to `v` (sled opened directly, the store closed) and returns
/// what it was.
fn swap_format(dir: &std::path::Path, v: u32) -> Option<Vec<u8>> {
    let db = retry_locked(|| sled::open(dir).map_err(|e| e.to_string()));
    let old = db
        .insert("ludolog:store-format", &v.to_le_bytes())
        .unwrap()
        .map(|b| b.to_vec());
    db.flush().unwrap();
    old
}
