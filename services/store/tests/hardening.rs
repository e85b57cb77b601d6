//! The store against hostile input: idempotency keys belong to the seat that used them, moves
//! are stored in their canonical spelling, records are held to their published schema field by
//! field, and exports keep active games' secrets unless the operator asks.

mod support;

use rules_core::{Actor, Seat, ToAct};
use serde_json::{json, Value};
use store::{Append, GameLog, Status};
use support::*;

#[test]
fn an_idempotency_key_belongs_to_the_seat_that_used_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let id = new_game(&store, 2, 9);
    let s = store.state_at(id, 1).unwrap();
    let ToAct::Seat(first) = s.to_act() else {
        panic!("bidding starts with a seat")
    };
    let other = Seat(1 - first.0);
    let m = s.legal_moves()[0].clone();
    let secret = Append {
        game: id,
        expected_ply: 1,
        actor: Actor::Seat(first),
        notation: &m,
        key: Some("k-secret"),
        at: t0(),
        entered_by: None,
    };
    store.append(secret.clone()).unwrap();
    let plies = store.header(id).unwrap().plies;
    // The other seat sends the same key with a right and a wrong guess of that move: both are
    // simply its own new moves with a key it never used; neither confirms anything.
    for guess in [m.as_str(), "bid 18", "end"] {
        let r = store.append(Append {
            expected_ply: 0,
            actor: Actor::Seat(other),
            notation: guess,
            ..secret.clone()
        });
        match r {
            Ok(a) => panic!("a stale ply must not be applied, and nothing replays: {a:?}"),
            Err(e) => {
                let text = e.to_string();
                assert!(!text.contains("key"), "{guess}: {text}");
                assert_eq!(e.code(), "VERSION_CONFLICT", "{guess}: {text}");
            }
        }
    }
    assert_eq!(store.header(id).unwrap().plies, plies, "nothing written");
    // The owner's retry is still recognised.
    assert!(store.append(secret).unwrap().replayed);
}

#[test]
fn moves_are_stored_in_their_canonical_spelling() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    for (i, variant) in [
        "bid 0\n",
        "bid\t0",
        " bid 0",
        "bid  0",
        "bid 0\r\n",
        "bid 00",
    ]
    .into_iter()
    .enumerate()
    {
        let id = new_game(&store, 2, 9);
        let s = store.state_at(id, 1).unwrap();
        let ToAct::Seat(seat) = s.to_act() else {
            panic!()
        };
        assert!(s.legal_moves().contains(&"bid 0".to_string()));
        let a = store
            .append(Append {
                game: id,
                expected_ply: 1,
                actor: Actor::Seat(seat),
                notation: variant,
                key: Some(&format!("k{i}")),
                at: t0(),
                entered_by: None,
            })
            .unwrap();
        assert_eq!(a.entries[0].notation, "bid 0", "{variant:?}");
        assert_eq!(store.entries(id, 1, 2).unwrap()[0].notation, "bid 0");
        // A retry spelled another way is the same move.
        let again = store
            .append(Append {
                game: id,
                expected_ply: 1,
                actor: Actor::Seat(seat),
                notation: "bid 0",
                key: Some(&format!("k{i}")),
                at: t0(),
                entered_by: None,
            })
            .unwrap();
        assert!(again.replayed);
    }
    // Imports store the canonical spelling too.
    let id = new_game(&store, 2, 9);
    play_out(&store, id, 1, 10_000);
    let mut rec = serde_json::to_value(store.record(id).unwrap()).unwrap();
    let good = rec["entries"][1]["notation"].as_str().unwrap().to_string();
    rec["entries"][1]["notation"] = format!(" {}  ", good.replace(' ', "  ")).into();
    rec["id"] = "036vpvam0zzzz".into();
    let dir = tempfile::tempdir().unwrap();
    let other = open(dir.path());
    let h = other.import_line(1, &rec.to_string()).unwrap();
    assert_eq!(other.entries(h.id, 1, 2).unwrap()[0].notation, good);
}

fn good_record() -> Value {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let id = new_game(&store, 3, 77);
    play_out(&store, id, 2, 10_000);
    let mut r = serde_json::to_value(store.record(id).unwrap()).unwrap();
    // An idempotency key on an entry, to have one to break.
    r["entries"][3]["key"] = "retry-1".into();
    r
}

#[test]
fn import_holds_every_field_to_the_record_schema() {
    let good = good_record();
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    type Edit = fn(&mut Value);
    let cases: Vec<(&str, Edit, &str)> = vec![
        ("id pattern", |r| r["id"] = "NOT-AN-ID".into(), "/id"),
        ("kind", |r| r["kind"] = "chess".into(), "/kind"),
        ("players empty", |r| r["players"] = json!([]), "/players"),
        (
            "player empty name",
            |r| r["players"][0] = "".into(),
            "/players/0",
        ),
        (
            "player bidi override",
            |r| r["players"][1] = "ev\u{202E}lina".into(),
            "/players/1",
        ),
        (
            "player zero width",
            |r| r["players"][1] = "a\u{200B}b".into(),
            "/players/1",
        ),
        (
            "player control",
            |r| r["players"][1] = "a\u{7}b".into(),
            "/players/1",
        ),
        (
            "player padded",
            |r| r["players"][1] = " ada".into(),
            "/players/1",
        ),
        (
            "player too long",
            |r| r["players"][1] = "x".repeat(65).into(),
            "/players/1",
        ),
        ("options", |r| r["options"] = json!([3]), "/options"),
        (
            "seed missing",
            |r| {
                r.as_object_mut().unwrap().remove("seed");
            },
            "seed",
        ),
        ("seed negative", |r| r["seed"] = json!(-1), "/seed"),
        ("seed text", |r| r["seed"] = "77".into(), "/seed"),
        (
            "rules_version",
            |r| r["rules_version"] = json!(1),
            "/rules_version",
        ),
        ("data_hash", |r| r["data_hash"] = json!(null), "/data_hash"),
        (
            "created_at space",
            |r| r["created_at"] = "2026-01-01 00:00:00Z".into(),
            "/created_at",
        ),
        (
            "created_at year -1",
            |r| r["created_at"] = "-0001-01-01T00:00:00Z".into(),
            "/created_at",
        ),
        (
            "created_at no offset",
            |r| r["created_at"] = "2026-01-01T00:00:00".into(),
            "/created_at",
        ),
        (
            "created_at month 13",
            |r| r["created_at"] = "2026-13-01T00:00:00Z".into(),
            "/created_at",
        ),
        (
            "updated_at",
            |r| r["updated_at"] = "yesterday".into(),
            "/updated_at",
        ),
        ("status", |r| r["status"] = "paused".into(), "/status"),
        ("unknown field", |r| r["surprise"] = 1.into(), "surprise"),
        (
            "entries not a list",
            |r| r["entries"] = json!({}),
            "/entries",
        ),
        (
            "entry ply",
            |r| r["entries"][2]["ply"] = json!(-2),
            "/entries/2/ply",
        ),
        (
            "entry actor",
            |r| r["entries"][2]["actor"] = "seat-1".into(),
            "/entries/2/actor",
        ),
        (
            "entry notation long",
            |r| r["entries"][2]["notation"] = "x".repeat(4097).into(),
            "/entries/2/notation",
        ),
        (
            "entry at space",
            |r| r["entries"][2]["at"] = "2026-01-01 00:00:00Z".into(),
            "/entries/2/at",
        ),
        (
            "entry key long",
            |r| r["entries"][3]["key"] = "k".repeat(129).into(),
            "/entries/3/key",
        ),
        (
            "entry key megabyte",
            |r| r["entries"][3]["key"] = "k".repeat(1 << 20).into(),
            "/entries/3/key",
        ),
        (
            "entry key empty",
            |r| r["entries"][3]["key"] = "".into(),
            "/entries/3/key",
        ),
        (
            "entry key control",
            |r| r["entries"][3]["key"] = "a\nb".into(),
            "/entries/3/key",
        ),
        (
            "entry unknown field",
            |r| r["entries"][2]["who"] = "x".into(),
            "/entries/2",
        ),
        // What a schema cannot say: times in order.
        (
            "updated before created",
            |r| {
                r["updated_at"] = "2000-01-01T00:00:00Z".into();
            },
            "before created_at",
        ),
        (
            "entry time backwards",
            |r| {
                let t = r["entries"][5]["at"].clone();
                r["entries"][6]["at"] = t;
                r["entries"][5]["at"] = r["updated_at"].clone();
            },
            "before the time before it",
        ),
        (
            "entry before creation",
            |r| {
                r["entries"][0]["at"] = "2000-01-01T00:00:00Z".into();
            },
            "before the time before it",
        ),
        (
            "entry after update",
            |r| {
                let n = r["entries"].as_array().unwrap().len();
                r["entries"][n - 1]["at"] = "2999-01-01T00:00:00Z".into();
            },
            "after updated_at",
        ),
    ];
    for (i, (what, edit, expect)) in cases.iter().enumerate() {
        let mut r = good.clone();
        edit(&mut r);
        let e = store
            .import_line(i as u64 + 1, &r.to_string())
            .expect_err(what);
        assert!(e.reason.contains(expect), "{what}: {e}");
        assert_eq!(store.game_count(), 0, "{what} wrote something");
    }
    // A key given twice (which readers disagree on: first wins, last wins) is refused, even
    // when the last value is valid — the shape the import fuzz target found.
    let text = good.to_string();
    let at = format!("\"at\":{}", good["entries"][4]["at"]);
    let doubled = text.replacen(&at, &format!("\"at\":\"0\",{at}"), 1);
    assert_ne!(doubled, text);
    let e = store.import_line(998, &doubled).expect_err("a key twice");
    assert!(e.reason.contains("key `at` appears twice"), "{e}");
    assert_eq!(store.game_count(), 0, "a key twice wrote something");
    store.import_line(999, &good.to_string()).unwrap();
    assert_eq!(store.game_count(), 1, "the unbroken record imports");
}

#[test]
fn export_keeps_active_games_unless_the_operator_asks() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let done = new_game(&store, 2, 5);
    play_out(&store, done, 0, 10_000);
    let live = new_game(&store, 2, 6);
    play_out(&store, live, 0, 5);
    assert_eq!(store.header(done).unwrap().status, Status::Finished);
    assert_eq!(store.header(live).unwrap().status, Status::Active);
    let mut out = Vec::new();
    assert_eq!(
        store.export(None, false, &mut out, &mut |_, _| {}).unwrap(),
        1
    );
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(&done.to_string()) && !text.contains(&live.to_string()));
    let mut out = Vec::new();
    assert_eq!(
        store.export(None, true, &mut out, &mut |_, _| {}).unwrap(),
        2
    );
}
