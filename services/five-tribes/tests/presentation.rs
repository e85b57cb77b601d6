//! Presentation: the view's and the layout's JSON Schemas (every sample position valid for
//! every viewer; their conventions are checked for every game in
//! `services/api/tests/conventions.rs`), who sees
//! gold and Sibittis's draws, the layout's ids and numbers, and every entry in words.
//!
//! The samples were recorded under `five-tribes/1` and replay under it (`rules_versions.rs`).

use five_tribes::{FiveTribes, Move, Options, State, View};
use rules_core::{Actor, Game, Notation, Presentation, Seat, ToAct, Viewer};
use scenario_harness::samples::{records, Record};
use serde_json::Value;

const SAMPLES: &str = include_str!("../../../tests/data/random-samples/five-tribes.ndjson");
const RESOURCES: &str = include_str!("../../../data/five-tribes/resources.json");

/// Replays `r` under its recorded rules, calling `f` with each position and the entry played
/// on it (`None` for the final position).
fn replay(r: &Record, mut f: impl FnMut(&State, Option<&(Actor, String)>)) {
    let o: Options = serde_json::from_value(r.options.clone()).unwrap();
    let mut s = FiveTribes::new_game_versioned(&o, &r.rules_version, &r.data_hash)
        .expect("a known rules version and data hash")
        .unwrap();
    for e in &r.entries {
        f(&s, Some(e));
        match e.0 {
            Actor::Seat(seat) => {
                FiveTribes::play(&mut s, seat, &FiveTribes::parse_move(&e.1).unwrap()).unwrap()
            }
            Actor::Dealer => {
                FiveTribes::resolve(&mut s, &FiveTribes::parse_chance(&e.1).unwrap()).unwrap()
            }
        }
    }
    f(&s, None);
}

fn viewers(players: u8) -> Vec<Viewer> {
    let mut v = vec![Viewer::Spectator, Viewer::Omniscient];
    v.extend((0..players).map(|s| Viewer::Seat(Seat(s))));
    v
}

fn json(s: &State, viewer: Viewer) -> Value {
    serde_json::to_value(FiveTribes::view(s, viewer)).unwrap()
}

/// What decides whether a view is valid beyond its Rust types: which nullable fields hold a
/// value, and which enum values appear. Two views of one shape pass or fail together.
fn shape(v: &View) -> String {
    let some_none = |all: Vec<bool>| (all.iter().any(|x| *x), all.iter().any(|x| !*x));
    format!(
        "{:?}",
        (
            (v.perspective, v.viewer_seat.is_some(), v.phase, v.ending),
            v.tiles.is_empty(),
            some_none(v.tiles.iter().map(|t| t.owner.is_some()).collect()),
            some_none(
                v.turn_order_track
                    .iter()
                    .map(|t| t.seat.is_some())
                    .collect()
            ),
            v.seats.iter().map(|p| p.gold.is_some()).collect::<Vec<_>>(),
            v.turn.as_ref().map(|t| {
                (
                    t.stage,
                    (
                        t.at.is_some(),
                        t.from.is_some(),
                        t.hand.is_some(),
                        t.tile.is_some(),
                    ),
                    (
                        t.tribe_count.is_some(),
                        t.sibittis.is_some(),
                        t.sibittis_count.is_some(),
                    ),
                )
            }),
            v.waiting_on.map(|w| (w.kind, w.tile.is_some())),
        )
    )
}

/// (a) Every position of every sample game, for a spectator, every seat and the omniscient
/// viewer, is valid against `view_schema()`: each view of a shape not seen before is
/// validated, and every view of every tenth game (validating all 256,000 views as JSON takes
/// minutes on a shared machine). (b) Gold shows to whom it may: a spectator sees nobody's
/// gold while the game is on, a seat its own, the omniscient viewer everyone's; Sibittis's
/// draw likewise.
#[test]
fn every_sample_position_is_valid_and_shows_each_viewer_what_it_may() {
    let validator = jsonschema::validator_for(&FiveTribes::view_schema()).unwrap();
    let mut shapes = std::collections::BTreeSet::new();
    let (mut views, mut validated, mut sibittis) = (0u32, 0u32, 0u32);
    for (i, r) in records(SAMPLES).iter().enumerate() {
        let players = r.options["players"].as_u64().unwrap() as u8;
        replay(r, |s, _| {
            let over = FiveTribes::to_act(s) == ToAct::Over;
            for viewer in viewers(players) {
                let v = FiveTribes::view(s, viewer);
                views += 1;
                for p in &v.seats {
                    let sees = over || viewer.sees(Seat(p.seat));
                    assert_eq!(p.gold.is_some(), sees, "sample {i}: {viewer} sees {p:?}");
                }
                if let Some(t) = v.turn.as_ref().filter(|t| t.sibittis_count.is_some()) {
                    assert_eq!(t.sibittis.is_some(), viewer.sees(Seat(t.seat)), "{viewer}");
                    sibittis += 1;
                }
                if i % 10 == 0 || shapes.insert(shape(&v)) {
                    let json = serde_json::to_value(&v).unwrap();
                    if let Err(e) = validator.validate(&json) {
                        panic!("sample {i}, {viewer}: {e} at {}", e.instance_path());
                    }
                    validated += 1;
                }
            }
            if !over && i % 10 == 0 {
                // The same, as the JSON a spectator is served.
                let spectator = json(s, Viewer::Spectator);
                for p in spectator["seats"].as_array().unwrap() {
                    assert!(p["gold"].is_null(), "a spectator saw gold: {p}");
                }
            }
        });
    }
    eprintln!(
        "{views} views, {} shapes, {validated} validated",
        shapes.len()
    );
    assert!(
        sibittis > 0,
        "no sample uses Sibittis: its draw is untested"
    );
}

#[test]
fn a_sibittis_draw_is_visible_to_its_drawer_and_the_omniscient_viewer_only() {
    let mut seen = 0;
    for r in records(SAMPLES) {
        let players = r.options["players"].as_u64().unwrap() as u8;
        replay(&r, |s, e| {
            let Some((Actor::Dealer, text)) = e else {
                return;
            };
            let c = FiveTribes::parse_chance(text).unwrap();
            let hidden =
                (0..players).any(|p| !FiveTribes::chance_visible(s, &c, Viewer::Seat(Seat(p))));
            assert!(
                FiveTribes::chance_visible(s, &c, Viewer::Omniscient),
                "{text}"
            );
            if hidden {
                assert!(text.starts_with("draw djinns="), "{text}");
                assert!(!FiveTribes::chance_visible(s, &c, Viewer::Spectator));
                seen += 1;
            }
        });
    }
    assert!(seen > 0);
}

/// The trait's default words, which every entry must improve on.
fn is_fallback(text: &str) -> bool {
    text.is_empty()
        || text.starts_with("The dealer: ")
        || text == "The dealer deals (hidden)"
        || (text.starts_with("Seat ") && text.contains(" plays "))
}

#[test]
fn every_sample_entry_has_words_of_its_own() {
    let mut described = 0u32;
    for (i, r) in records(SAMPLES).iter().enumerate() {
        replay(r, |s, e| {
            let Some((actor, text)) = e else { return };
            let words: Vec<String> = match actor {
                Actor::Seat(seat) => {
                    let m: Move = FiveTribes::parse_move(text).unwrap();
                    vec![FiveTribes::describe_move(s, *seat, &m)]
                }
                Actor::Dealer => {
                    let c = FiveTribes::parse_chance(text).unwrap();
                    let hidden = FiveTribes::describe_chance(s, &c, false);
                    let shown = FiveTribes::describe_chance(s, &c, true);
                    if text.starts_with("draw djinns=") {
                        // The hidden words name no djinn.
                        for d in five_tribes::ids::Djinn::ALL {
                            if d == five_tribes::ids::Djinn::Sibittis {
                                continue; // the power used, not a djinn drawn
                            }
                            let name = &five_tribes::data::components().djinns[d as usize].name;
                            assert!(!hidden.contains(name.as_str()), "{hidden}");
                        }
                    }
                    vec![hidden, shown]
                }
            };
            for w in words {
                assert!(!is_fallback(&w), "sample {i}, `{text}`: {w:?}");
                assert!(!w.contains("  "), "sample {i}, `{text}`: {w:?}");
                described += 1;
            }
        });
    }
    eprintln!("{described} descriptions");
}

/// The words of sample 0's first entries (a two-player game).
#[test]
fn typical_entries_read_as_expected() {
    let r = &records(SAMPLES)[0];
    let mut words = Vec::new();
    replay(r, |s, e| {
        if let Some((actor, text)) = e {
            words.push(match actor {
                Actor::Seat(seat) => {
                    FiveTribes::describe_move(s, *seat, &FiveTribes::parse_move(text).unwrap())
                }
                Actor::Dealer => {
                    FiveTribes::describe_chance(s, &FiveTribes::parse_chance(text).unwrap(), true)
                }
            });
        }
    });
    assert_eq!(
        words[0],
        "The dealer lays out the tiles with three meeples on each, sets the bid order \
         (seats 1, 0, 1, 0), deals the market (pottery, 5 Fakirs, spice, papyrus and fish) and \
         the djinns Kumarbi, Boaz and Enki"
    );
    assert_eq!(words[1], "Seat 1 bids 8");
    assert_eq!(words[2], "Seat 0 bids 3");
    assert_eq!(
        words[5],
        "Seat 1 picks up 3 meeples on e1: an elder and 2 assassins"
    );
    assert_eq!(words[6], "Seat 1 drops an assassin on f1");
    assert_eq!(
        words[8],
        "Seat 1 drops the last meeple, an elder, on f3 and takes the 3 elders there"
    );
    assert_eq!(words[10], "Seat 1 ends the turn");
    for (i, w) in words.iter().enumerate().take(40) {
        eprintln!("{i}: {}  <=  {}", w, r.entries[i].1);
    }
}

/// The first sample entry whose notation starts with `prefix`, and its words (a chance
/// outcome as a viewer who may see it, or not).
fn first_words(prefix: &str, visible: bool) -> (String, String) {
    first_where(|text, _| text.starts_with(prefix), visible)
}

/// The first sample entry whose notation and words pass `pick`, and its words.
fn first_where(pick: impl Fn(&str, &str) -> bool, visible: bool) -> (String, String) {
    let mut found = None;
    for r in records(SAMPLES) {
        replay(&r, |s, e| {
            let Some((actor, text)) = e else { return };
            if found.is_some() {
                return;
            }
            let words = match actor {
                Actor::Seat(seat) => {
                    FiveTribes::describe_move(s, *seat, &FiveTribes::parse_move(text).unwrap())
                }
                Actor::Dealer => FiveTribes::describe_chance(
                    s,
                    &FiveTribes::parse_chance(text).unwrap(),
                    visible,
                ),
            };
            if pick(text, &words) {
                found = Some((text.clone(), words));
            }
        });
        if let Some(f) = found {
            return f;
        }
    }
    panic!("no sample entry fits")
}

#[test]
fn less_common_entries_read_as_expected() {
    let cases = [
        ("kill @0 W", true, "Seat 2's assassins kill an elder in front of seat 0"),
        ("kill @0 Y+Y", true, "Seat 3's assassins kill 2 viziers in front of seat 0 (the second with Iblis, paying an Elder)"),
        ("bid 5 kumarbi", true, "Seat 1 bids 5, paying 1 with Kumarbi (discarding 2 Fakirs)"),
        ("palace a4", true, "Seat 1 places a palace on a4 instead of b5, with Hagis (paying an Elder)"),
        ("use sibittis", true, "Seat 0 uses Sibittis, paying an Elder and a Fakir, to draw 3 djinns and keep one"),
        ("draw djinns=", true, "Seat 0 draws Jafaar, Anun-Nak and Marid with Sibittis"),
        ("draw djinns=", false, "Seat 0 draws 3 djinns with Sibittis (seen by that seat only)"),
        ("keep", true, "Seat 0 keeps the djinn Anun-Nak (Sibittis) and discards the other 2 djinns"),
        ("refill", true, "The dealer refills the market with jewels, silk and 2 Fakirs"),
        ("draw meeples=", false, "The dealer draws 3 meeples from the bag onto e1 (Anun-Nak)"),
        ("build echidna", true, "Seat 1's 2 builders earn 12 gold around d3, doubled by Echidna (paying two Elders)"),
        ("sell", true, "Seat 1 sells spice for 1 gold"),
        ("skip", true, "Seat 2 takes nothing at the Small Market on e3"),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|&(prefix, visible, want)| {
            let (text, words) = first_words(prefix, visible);
            (words != want).then(|| format!("`{text}`: {words:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
    // A move that empties its last tile takes control of it.
    let (text, words) = first_where(|_, w| w.contains("camel on the emptied"), true);
    assert_eq!(
        (text.as_str(), words.as_str()),
        (
            "drop e3 B",
            "Seat 1 drops the last meeple, a builder, on e3, takes the 3 builders there and \
             places a camel on the emptied tile"
        ),
    );
}

#[test]
fn the_layout_names_what_the_views_place_on_it() {
    let validator = jsonschema::validator_for(&FiveTribes::layout_schema()).unwrap();
    for players in 2..=4u8 {
        let l = FiveTribes::layout(&Options { players });
        validator.validate(&l).unwrap();
        let spaces = l["spaces"].as_array().unwrap();
        assert_eq!(spaces.len(), 30);
        assert_eq!(
            (l["rows"].as_u64(), l["columns"].as_u64()),
            (Some(5), Some(6))
        );
        for sp in spaces {
            let id = sp["id"].as_str().unwrap();
            let (col, row) = (id.as_bytes()[0] - b'a', id.as_bytes()[1] - b'1');
            assert_eq!(
                (sp["row"].as_u64(), sp["column"].as_u64()),
                (Some(u64::from(row)), Some(u64::from(col)))
            );
            assert_eq!(sp["reconstructed"], false);
        }
        let markers = l["seatSetup"]["markers"].as_u64().unwrap();
        assert_eq!(
            l["bidOrderTrack"].as_array().unwrap().len() as u64,
            u64::from(players) * markers
        );
        assert_eq!(l["djinns"].as_array().unwrap().len(), 22);
    }
    assert!(FiveTribes::layout(&Options { players: 7 }).is_null());

    // The card slugs are the data's names, in the data's order.
    let data: Value = serde_json::from_str(RESOURCES).unwrap();
    let names: Vec<&str> = data["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    let l = FiveTribes::layout(&Options { players: 3 });
    let slugs: Vec<&str> = l["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["card"].as_str().unwrap())
        .collect();
    assert_eq!(slugs, names);

    // A dealt view's ids and spots are the layout's.
    let r = &records(SAMPLES)[3];
    let mut checked = false;
    replay(r, |s, _| {
        if checked || FiveTribes::to_act(s) == ToAct::Chance {
            return;
        }
        let v = json(s, Viewer::Spectator);
        let ids: Vec<&Value> = v["tiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| &t["id"])
            .collect();
        let layout_ids: Vec<&Value> = l["spaces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| &t["id"])
            .collect();
        assert_eq!(ids, layout_ids);
        let costs = |x: &Value| -> Vec<Value> {
            x.as_array()
                .unwrap()
                .iter()
                .map(|t| t["cost"].clone())
                .collect()
        };
        assert_eq!(costs(&v["turnOrderTrack"]), costs(&l["turnOrderTrack"]));
        let kinds: Vec<&Value> = l["tileKinds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| &k["code"])
            .collect();
        assert!(v["tiles"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| kinds.contains(&&t["code"])));
        checked = true;
    });
    assert!(checked);
}
