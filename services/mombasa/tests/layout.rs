//! The layout (`Presentation::layout`): it validates against its schema, holds every
//! component the view names (ids join the two), flags reconstructed items as the data files do
//! and every map item as reconstructed (the drawing is ours), and its schematic map is drawable:
//! regions do not overlap, borders run between neighbours, and no connector crosses a region.

#[path = "support/samples.rs"]
mod samples;

use mombasa::{Mombasa, Options};
use rules_core::{Game, Presentation, Viewer};
use serde_json::Value;
use std::collections::BTreeSet;

const LAYOUT_JSON: &str = include_str!("../../../data/mombasa/layout.json");

fn layout(players: u8) -> Value {
    Mombasa::layout(&Options {
        players,
        first_game: false,
        track_cards: false,
        first_player: None,
    })
}

fn list<'a>(v: &'a Value, key: &str) -> &'a Vec<Value> {
    v[key].as_array().unwrap_or_else(|| panic!("no list {key}"))
}

fn flags(items: &[Value]) -> Vec<bool> {
    items
        .iter()
        .map(|x| x["reconstructed"].as_bool().expect("a reconstructed flag"))
        .collect()
}

#[test]
fn the_layout_validates_and_holds_every_component() {
    let schema = Mombasa::layout_schema();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for (players, coins) in [(2, 6), (3, 9), (4, 12)] {
        let l = layout(players);
        let errors: Vec<String> = validator.iter_errors(&l).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(l["players"], players);
        assert_eq!(l["rounds"], 7);
        let map = &l["map"];
        assert_eq!(list(map, "regions").len(), 24);
        assert_eq!(list(map, "borders").len(), 38);
        assert_eq!(list(map, "bases").len(), 4);
        for b in list(map, "bases") {
            assert_eq!(list(b, "spaces").len(), 15);
            assert_eq!(list(b, "borders").len(), 3);
        }
        assert_eq!(list(&l, "trackSides").len(), 8);
        assert_eq!(list(&l, "displaySpaces").len(), 12);
        assert_eq!(list(&l, "bookSpaces").len(), 12);
        assert_eq!(list(&l, "bonusSpaces").len(), 7);
        assert_eq!(list(&l, "bonusTiles").len(), 4);
        let round = list(&l, "roundTrack");
        assert_eq!(round.len(), 7);
        let sum: u64 = round.iter().map(|r| r["coins"].as_u64().unwrap()).sum();
        assert_eq!(sum, coins);
    }
}

#[test]
fn reconstructed_items_are_flagged() {
    let l = layout(4);
    let map = &l["map"];
    // The drawing is ours: every map item is flagged, whatever its data says.
    assert_eq!(map["reconstructed"], true);
    for key in ["regions", "borders", "bases"] {
        assert!(flags(list(map, key)).iter().all(|&f| f), "{key}");
    }
    for b in list(map, "bases") {
        assert!(flags(list(b, "spaces")).iter().all(|&f| f));
        assert!(flags(list(b, "borders")).iter().all(|&f| f));
    }
    for side in list(&l, "trackSides") {
        assert_eq!(side["reconstructed"], true);
        assert!(flags(list(side, "spaces")).iter().all(|&f| f));
    }
    for key in ["diamondTrack", "bookkeepingTrack"] {
        assert!(flags(list(&l[key], "spaces")).iter().all(|&f| f), "{key}");
    }
    for key in ["displaySpaces", "bookSpaces", "bonusTiles"] {
        assert!(flags(list(&l, key)).iter().all(|&f| f), "{key}");
    }
    // What the rules texts state is not flagged: the first-player, buy and sell spaces, the
    // round track's coins, the action slots.
    let bonus: Vec<(String, bool)> = list(&l, "bonusSpaces")
        .iter()
        .map(|b| {
            (
                b["id"].as_str().unwrap().to_string(),
                b["reconstructed"] == true,
            )
        })
        .collect();
    for (id, flagged) in &bonus {
        assert_eq!(
            *flagged,
            !["first", "buy", "sell"].contains(&id.as_str()),
            "{id}"
        );
    }
    assert!(!flags(list(&l, "roundTrack")).iter().any(|&f| f));
    assert_eq!(l["actionSlots"]["reconstructed"], false);
}

/// A rectangle as (x0, y0, x1, y1).
fn rect(v: &Value) -> (i64, i64, i64, i64) {
    let n = |k: &str| v[k].as_i64().unwrap();
    (n("x"), n("y"), n("x") + n("width"), n("y") + n("height"))
}

fn point(v: &Value) -> (i64, i64) {
    (v["x"].as_i64().unwrap(), v["y"].as_i64().unwrap())
}

fn inside((x, y): (i64, i64), (x0, y0, x1, y1): (i64, i64, i64, i64)) -> bool {
    x > x0 && x < x1 && y > y0 && y < y1
}

fn on_edge((x, y): (i64, i64), (x0, y0, x1, y1): (i64, i64, i64, i64)) -> bool {
    let between = |a, lo, hi| a >= lo && a <= hi;
    ((x == x0 || x == x1) && between(y, y0, y1)) || ((y == y0 || y == y1) && between(x, x0, x1))
}

/// Points along a line, every board unit or so.
fn along(line: &Value) -> Vec<(i64, i64)> {
    let (a, b) = (point(&line["from"]), point(&line["to"]));
    let n = (a.0 - b.0).abs().max((a.1 - b.1).abs()).max(1);
    (0..=n)
        .map(|k| (a.0 + (b.0 - a.0) * k / n, a.1 + (b.1 - a.1) * k / n))
        .collect()
}

#[test]
fn the_schematic_map_is_drawable() {
    let l = layout(3);
    let map = &l["map"];
    let (w, h) = (
        map["width"].as_i64().unwrap(),
        map["height"].as_i64().unwrap(),
    );
    let regions: Vec<(u64, (i64, i64, i64, i64))> = list(map, "regions")
        .iter()
        .map(|r| (r["id"].as_u64().unwrap(), rect(&r["rect"])))
        .collect();
    let bases: Vec<(i64, i64, i64, i64)> = list(map, "bases")
        .iter()
        .map(|b| rect(&b["rect"]))
        .collect();
    let all: Vec<_> = regions
        .iter()
        .map(|r| r.1)
        .chain(bases.iter().copied())
        .collect();
    for (i, a) in all.iter().enumerate() {
        assert!(a.0 >= 0 && a.1 >= 0 && a.2 <= w && a.3 <= h && a.0 < a.2 && a.1 < a.3);
        for b in &all[i + 1..] {
            let overlap = a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3;
            assert!(!overlap, "{a:?} overlaps {b:?}");
        }
    }
    let of = |id: u64| regions.iter().find(|r| r.0 == id).unwrap().1;
    // A line touches its two ends' shapes on their edges and crosses no shape.
    let check = |line: &Value, from: (i64, i64, i64, i64), to: (i64, i64, i64, i64)| {
        assert!(on_edge(point(&line["from"]), from), "{line}");
        assert!(on_edge(point(&line["to"]), to), "{line}");
        for p in along(line) {
            assert!(
                !all.iter().any(|r| inside(p, *r)),
                "{line} crosses a shape at {p:?}"
            );
        }
    };
    for b in list(map, "borders") {
        check(
            &b["line"],
            of(b["a"].as_u64().unwrap()),
            of(b["b"].as_u64().unwrap()),
        );
    }
    for (base, r) in list(map, "bases").iter().zip(&bases) {
        for b in list(base, "borders") {
            check(&b["line"], *r, of(b["region"].as_u64().unwrap()));
        }
    }
    // layout.json places a connector for exactly the borders the map data gives each base.
    let file: Value = serde_json::from_str(LAYOUT_JSON).unwrap();
    for base in list(map, "bases") {
        let placed = list(&file, "bases")
            .iter()
            .find(|b| b["company"] == base["company"])
            .unwrap();
        let links: BTreeSet<u64> = list(placed, "links")
            .iter()
            .map(|x| x["region"].as_u64().unwrap())
            .collect();
        let borders: BTreeSet<u64> = list(base, "borders")
            .iter()
            .map(|x| x["region"].as_u64().unwrap())
            .collect();
        assert_eq!(links, borders, "{}", base["company"]);
    }
}

fn ids(v: &[Value], key: &str) -> BTreeSet<String> {
    v.iter()
        .map(|x| match &x[key] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

#[test]
fn every_id_a_view_names_is_in_the_layout() {
    let l = layout(4);
    let map = &l["map"];
    let sides = ids(list(&l, "trackSides"), "id");
    let base_spaces = ids(list(&list(map, "bases")[0], "spaces"), "id");
    let diamond = list(&l["diamondTrack"], "spaces").len() as u64;
    let mut views = 0;
    samples::replay_samples(
        |_, _, _| {},
        |_, s| {
            let v = serde_json::to_value(Mombasa::view(s, Viewer::Omniscient)).unwrap();
            views += 1;
            assert_eq!(
                ids(list(&v, "display"), "id"),
                ids(list(&l, "displaySpaces"), "id")
            );
            assert_eq!(
                ids(list(&v, "bookDisplay"), "id"),
                ids(list(&l, "bookSpaces"), "id")
            );
            assert_eq!(ids(list(&v, "map"), "id"), ids(list(map, "regions"), "id"));
            assert_eq!(
                ids(list(&v, "bonusSpaces"), "id"),
                ids(list(&l, "bonusSpaces"), "id")
            );
            assert_eq!(
                ids(list(&v, "bonusTiles"), "id"),
                ids(list(&l, "bonusTiles"), "id")
            );
            for co in list(&v, "companies") {
                assert!(sides.contains(co["side"].as_str().unwrap()));
                assert_eq!(ids(list(co, "base"), "id"), base_spaces);
            }
            for seat in list(&v, "seats") {
                assert!(seat["diamondSpace"].as_u64().unwrap() < diamond);
                for m in list(seat, "companyTracks") {
                    assert!(m["space"].as_u64().unwrap() < 24);
                }
            }
        },
    );
    assert_eq!(views, 200);
}
