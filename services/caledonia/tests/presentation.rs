//! Presentation (the schemas' conventions are checked for every game in
//! `services/api/tests/conventions.rs`): every position
//! of every sample game validates against the view schema for a spectator, every seat and the
//! omniscient viewer; views hide only building-bonus draws, from everyone but their drawer
//! and the omniscient viewer; the layout joins every hex id a view names; every entry of
//! every sample game is described in words.
//!
//! The samples replay under the rules and data versions they were recorded with, as
//! `rules_versions.rs` does. One pass over them checks views and words together, to keep
//! the run short.

mod support;

use caledonia::state::State;
use caledonia::view::names::Unit;
use caledonia::{Caledonia, Chance, Move, Options};
use rules_core::{Action, Actor, Erased, Game, GameRules, Notation, Presentation, Seat, Viewer};
use scenario_harness::samples::records;
use serde_json::Value;
use std::collections::BTreeMap;
use support::hexes_in_play;

const SAMPLES: &str = include_str!("../../../tests/data/random-samples/caledonia.ndjson");

#[test]
fn layouts_validate_and_hold_both_sides_of_every_module() {
    let schema = Caledonia::layout_schema();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let rules = Erased::<Caledonia>::new();
    for players in 1..=4 {
        for kickstarter in [false, true] {
            let o = serde_json::json!({"players": players, "kickstarter": kickstarter});
            let l = rules.layout(&o).unwrap();
            let errors: Vec<String> = validator.iter_errors(&l).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{o}: {errors:?}");
            let modules = l["modules"].as_array().unwrap();
            assert_eq!(modules.len(), 4);
            let mut ports = 0;
            for m in modules {
                let sides = m["sides"].as_array().unwrap();
                assert_eq!(sides.len(), 2);
                for (side, s) in (1..).zip(sides) {
                    assert_eq!(s["side"], side);
                    let hexes = s["hexes"].as_array().unwrap();
                    assert_eq!(hexes.len(), 30);
                    for h in hexes {
                        let (c, r) = (h["column"].as_u64().unwrap(), h["row"].as_u64().unwrap());
                        let c0 = m["firstColumn"].as_u64().unwrap();
                        let r0 = m["firstRow"].as_u64().unwrap();
                        assert!(
                            (c0..c0 + 6).contains(&c) && (r0..r0 + 5).contains(&r),
                            "{h}"
                        );
                        let name = format!("{}{}", char::from(b'a' + c as u8), r + 1);
                        assert_eq!(h["id"], name.as_str());
                        assert_eq!(h["x"], 2 * c + r % 2);
                        assert_eq!(
                            h["q"].as_i64().unwrap(),
                            c as i64 - (r as i64 - (r % 2) as i64) / 2
                        );
                        // The per-hex map is a reconstruction (data/caledonia/SOURCES.md).
                        assert_eq!(h["reconstructed"], true, "{h}");
                        if h["kind"] == "port" {
                            ports += 1;
                        }
                        if h["kind"] == "blocked" {
                            assert_eq!(players, 1);
                        }
                    }
                }
            }
            // One port space per module side for the player count.
            assert_eq!(ports, 8, "{o}");
            let tiles = if kickstarter { 9 } else { 8 };
            assert_eq!(l["ports"].as_array().unwrap().len(), tiles);
            assert_eq!(l["scoringTiles"].as_array().unwrap().len(), tiles);
            assert_eq!(l["contracts"].as_array().unwrap().len(), 50);
            assert_eq!(l["mapSize"], if players <= 2 { "small" } else { "large" });
        }
    }
}

/// The words the default implementation would give, or the erased fallbacks.
fn is_fallback(d: &str, actor: Actor, notation: &str) -> bool {
    d == notation
        || d.starts_with("The dealer: ")
        || d == "The dealer deals (hidden)"
        || d.contains("(hidden until revealed)")
        || matches!(actor, Actor::Seat(s) if d.starts_with(&format!("Seat {} plays ", s.0)))
}

/// Checks one position's views: the spectator's validates; every other viewer's equals it but
/// for `draw`, whose contracts only the drawer and the omniscient viewer see (and validates
/// when it differs). Views are compared typed and turned into JSON once per distinct view:
/// building a JSON value is most of the cost of this test. Returns how many secret draws were
/// checked.
fn check_views(
    s: &State,
    viewers: &[Viewer],
    validator: &jsonschema::Validator,
    layout: &Value,
    hexes: &mut BTreeMap<String, String>,
    at: &str,
) -> usize {
    let mut public = Caledonia::view(s, Viewer::Spectator);
    let spectator = serde_json::to_value(&public).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&spectator)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{at}: {errors:?}");
    let mut draws = 0;
    let public_draw = public.draw.take();
    if let Some(d) = &public_draw {
        assert!(d.contracts.is_none(), "{at}: a spectator sees a draw");
        draws += 1;
    }
    for &viewer in viewers {
        let mut v = Caledonia::view(s, viewer);
        let draw = v.draw.take();
        assert_eq!(v, public, "{at}: {viewer} sees more than a draw");
        if let Some(d) = &draw {
            let sees = viewer == Viewer::Omniscient || viewer == Viewer::Seat(Seat(d.seat));
            assert_eq!(
                d.contracts.is_some(),
                sees,
                "{at}: {viewer}, seat {}'s draw",
                d.seat
            );
            if let Some(c) = &d.contracts {
                assert_eq!(c.len(), usize::from(d.count), "{at}");
            }
        }
        if draw != public_draw {
            v.draw = draw;
            assert!(
                validator.is_valid(&serde_json::to_value(&v).unwrap()),
                "{at} {viewer}"
            );
        }
    }
    // Every hex a view names is a hex of the module side it says is in play (the sides are
    // dealt once: the index is built at the first position that has them).
    if hexes.is_empty() {
        *hexes = hexes_in_play(layout, &spectator);
    }
    let kind = |id: &str| hexes.get(id).map_or("not in the layout", String::as_str);
    for seat in &public.seats {
        for u in &seat.units {
            let k = kind(&u.hex);
            let water = u.unit == Unit::Fisherman && (k == "loch" || k == "port");
            assert!(k == "land" || water, "{at}: {u:?} on a {k} hex");
        }
    }
    for p in &public.ports {
        assert_eq!(kind(&p.hex), "port", "{at}");
    }
    for b in &public.blocked {
        assert_eq!(kind(b), "blocked", "{at}");
    }
    draws
}

fn action(actor: Actor, text: &str) -> Action<Move, Chance> {
    match actor {
        Actor::Dealer => Action::Chance(Caledonia::parse_chance(text).unwrap()),
        Actor::Seat(seat) => Action::Move(seat, Caledonia::parse_move(text).unwrap()),
    }
}

#[test]
fn every_sample_position_validates_for_every_viewer_and_every_entry_is_described() {
    let validator = jsonschema::validator_for(&Caledonia::view_schema()).unwrap();
    let rules = Erased::<Caledonia>::new();
    let (mut positions, mut entries, mut draws, mut hidden) = (0, 0, 0, 0);
    for (i, r) in records(SAMPLES).iter().enumerate() {
        let layout = rules.layout(&r.options).unwrap();
        let mut hexes = BTreeMap::new();
        let players = r.options["players"].as_u64().unwrap() as u8;
        let viewers: Vec<Viewer> = std::iter::once(Viewer::Omniscient)
            .chain((0..players).map(|p| Viewer::Seat(Seat(p))))
            .collect();
        // The words through the erased interface the service uses; the views typed.
        let mut s = rules
            .new_game_recorded(&r.options, &r.rules_version, &r.data_hash)
            .unwrap();
        let o: Options = serde_json::from_value(r.options.clone()).unwrap();
        let mut typed = Caledonia::new_game_versioned(&o, &r.rules_version, &r.data_hash)
            .unwrap()
            .unwrap();
        for (ply, (actor, text)) in r.entries.iter().enumerate() {
            let at = format!("sample {i} ply {ply} ({text})");
            draws += check_views(&typed, &viewers, &validator, &layout, &mut hexes, &at);
            positions += 1;
            let all = s.describe(*actor, text, Viewer::Omniscient);
            let public = s.describe(*actor, text, Viewer::Spectator);
            for d in [&all, &public] {
                assert!(!is_fallback(d, *actor, text), "{at}: {d}");
            }
            if s.entry_text(*actor, text, Viewer::Spectator) == "hidden" {
                // A building-bonus draw: the words name the drawer and the count, not the
                // contracts; the omniscient viewer reads them.
                assert!(text.starts_with("draw "), "{at}");
                assert_eq!(s.entry_text(*actor, text, Viewer::Omniscient), *text);
                let ids: Vec<&str> = text["draw ".len()..].split(',').collect();
                let seat = Caledonia::view(&typed, Viewer::Spectator)
                    .turn
                    .unwrap()
                    .seat;
                let n = ids.len();
                let count = if n == 1 {
                    "1 contract".into()
                } else {
                    format!("{n} contracts")
                };
                assert_eq!(
                    public,
                    format!("The dealer draws {count} for seat {seat}"),
                    "{at}"
                );
                let listed = match ids.as_slice() {
                    [one] => format!("contract {one}"),
                    [init @ .., last] => format!("contracts {} and {last}", init.join(", ")),
                    [] => String::new(),
                };
                assert_eq!(
                    all,
                    format!("The dealer draws {listed} for seat {seat}"),
                    "{at}"
                );
                hidden += 1;
            } else {
                assert_eq!(all, public, "{at}");
            }
            entries += 1;
            s.apply(*actor, text)
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            Caledonia::apply(&mut typed, &action(*actor, text)).unwrap();
        }
        draws += check_views(
            &typed,
            &viewers,
            &validator,
            &layout,
            &mut hexes,
            &format!("sample {i} end"),
        );
        positions += 1;
    }
    eprintln!(
        "{positions} positions, {entries} entries, {draws} secret draws, {hidden} hidden entries"
    );
    assert!(entries > 20_000 && draws > 0 && hidden > 0);
}
