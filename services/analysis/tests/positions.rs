//! Position queries over the per-ply feature index: results checked against the games'
//! own states, paging (also while games finish), the scan budget, the state-hash lookup, and
//! every way a filter is refused.

use analysis::positions::{
    self, by_hash, Cursor, Filter, FilterError, PositionIndex, PositionsError, Query,
};
use analysis::Analysis;
use five_tribes::{FiveTribes, Options, State};
use rules_core::{Action, Erased, Game, GameKind, Notation, Registry};
use std::collections::HashSet;
use store::{Config, GameLog, Store};

const KEY: [u8; 16] = *b"0123456789abcdef";
const SAMPLE: &str = include_str!("../../../tests/data/random-samples/five-tribes.ndjson");

fn store_with(games: usize) -> (tempfile::TempDir, Store, std::sync::Arc<Analysis>) {
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::new().with(Erased::<FiveTribes>::new());
    let store = Store::open(dir.path(), registry, Config::default()).unwrap();
    let analysis = Analysis::attach(&store, KEY).unwrap();
    for (i, line) in SAMPLE.lines().take(games).enumerate() {
        store.import_line(i as u64 + 1, line).unwrap();
    }
    (dir, store, analysis)
}

/// The store's position index, opened for reading beside the writer that the attached
/// analysis holds (as `ludolog positions` opens it while `serve` runs).
fn ix(store: &Store) -> PositionIndex {
    PositionIndex::open_read(store.dir(), store.registry().clone())
        .unwrap()
        .expect("the index files exist once the analysis is attached")
}

/// The whole index of the Five Tribes games, as the NDJSON export writes it.
fn everything(store: &Store) -> Vec<u8> {
    let mut out = Vec::new();
    positions::export_ndjson(&ix(store), GameKind::FiveTribes, None, 1, &mut out, &|| {
        false
    })
    .unwrap();
    out
}

fn filter(expr: &str) -> Result<Filter, FilterError> {
    Filter::compile(expr, FiveTribes::feature_schema())
}

fn all_rows(store: &Store, f: Option<&Filter>, first: usize) -> Vec<Cursor> {
    let mut out = Vec::new();
    let mut after = None;
    loop {
        let page = positions::page(
            &ix(store),
            &Query {
                kind: GameKind::FiveTribes,
                filter: f,
                after,
                first,
                budget: positions::DEFAULT_BUDGET,
            },
        )
        .unwrap();
        out.extend(page.rows.iter().map(|r| Cursor {
            game: r.game,
            ply: r.ply,
        }));
        match page.next {
            Some(c) => after = Some(c),
            None => return out,
        }
    }
}

/// Every position of every stored game, as typed Five Tribes states, replayed here without the
/// index: the oracle the index is checked against.
fn typed_positions(store: &Store) -> Vec<(Cursor, State)> {
    let mut out = Vec::new();
    for id in store.game_ids() {
        let id = id.unwrap();
        let h = store.header(id).unwrap();
        let players = h.players.len() as u8;
        // Each game replays under the rules version it was recorded with.
        let mut s =
            FiveTribes::new_game_versioned(&Options { players }, &h.rules_version, &h.data_hash)
                .expect("a served rules version")
                .unwrap();
        out.push((Cursor { game: id, ply: 0 }, s.clone()));
        for e in store.entries(id, 0, h.plies).unwrap() {
            let action = match e.actor {
                rules_core::Actor::Seat(seat) => {
                    Action::Move(seat, FiveTribes::parse_move(&e.notation).unwrap())
                }
                rules_core::Actor::Dealer => {
                    Action::Chance(FiveTribes::parse_chance(&e.notation).unwrap())
                }
            };
            FiveTribes::apply(&mut s, &action).unwrap();
            out.push((
                Cursor {
                    game: id,
                    ply: e.ply + 1,
                },
                s.clone(),
            ));
        }
    }
    out
}

#[test]
fn a_filter_finds_exactly_the_positions_the_states_say() {
    let (_d, store, _a) = store_with(12);
    let oracle = typed_positions(&store);
    let everything = all_rows(&store, None, 500);
    assert_eq!(everything.len(), oracle.len(), "one row per position");

    let f = filter("round == 3 && seats.exists(s, s.viziers >= 2)").unwrap();
    let got: Vec<Cursor> = all_rows(&store, Some(&f), 50);
    let want: Vec<Cursor> = oracle
        .iter()
        .filter(|(_, s)| s.round == 3 && s.seats.iter().any(|p| p.viziers >= 2))
        .map(|(c, _)| *c)
        .collect();
    assert!(!want.is_empty(), "the sample has such positions");
    assert_eq!(got, want);

    // Seat indexing, size(), the phase string, to_act and a global feature.
    let f = filter(
        "phase == 'bid' && to_act == 0 && size(seats) == players && seats[0].gold > seats[1].gold && bag > 0",
    )
    .unwrap();
    let want: Vec<Cursor> = oracle
        .iter()
        .filter(|(_, s)| {
            matches!(s.phase, five_tribes::state::Phase::Bid)
                && FiveTribes::to_act(s) == rules_core::ToAct::Seat(rules_core::Seat(0))
                && s.seats[0].gold > s.seats[1].gold
                && s.bag.iter().any(|&n| n > 0)
        })
        .map(|(c, _)| *c)
        .collect();
    assert!(!want.is_empty());
    assert_eq!(all_rows(&store, Some(&f), 1000), want);
}

/// Guards (top-level `feature <op> literal` terms checked before the interpreter) change no
/// answer: each filter gives the same rows as its unguarded twin, where `!(… negated)` hides
/// the comparison from the guard finder and leaves it to CEL.
#[test]
fn guarded_and_interpreted_filters_agree() {
    let (_d, store, _a) = store_with(6);
    for (guarded, interpreted) in [
        (
            "round == 3 && seats.exists(s, s.viziers >= 2)",
            "!(round != 3) && seats.exists(s, s.viziers >= 2)",
        ),
        (
            "ply >= 100 && 140 > ply && to_act == 1",
            "!(ply < 100) && !(140 <= ply) && !(to_act != 1)",
        ),
        (
            "bag < 40 && players == 3",
            "!(bag >= 40) && !(players != 3)",
        ),
        ("round != 0 && round <= 2", "!(round == 0) && !(round > 2)"),
    ] {
        let a = all_rows(&store, Some(&filter(guarded).unwrap()), 500);
        let b = all_rows(&store, Some(&filter(interpreted).unwrap()), 500);
        assert!(!a.is_empty(), "{guarded}");
        assert_eq!(a, b, "{guarded}");
    }
}

#[test]
fn rows_carry_the_features_of_the_position() {
    let (_d, store, _a) = store_with(3);
    let f = filter("ply == 40").unwrap();
    let page = positions::page(
        &ix(&store),
        &Query {
            kind: GameKind::FiveTribes,
            filter: Some(&f),
            after: None,
            first: 10,
            budget: positions::DEFAULT_BUDGET,
        },
    )
    .unwrap();
    assert_eq!(page.rows.len(), 3);
    let oracle = typed_positions(&store);
    for row in &page.rows {
        let (_, s) = oracle
            .iter()
            .find(|(c, _)| c.game == row.game && c.ply == 40)
            .unwrap();
        assert_eq!(row.round, i64::from(s.round));
        for seat in &row.seats {
            let p = &s.seats[usize::from(seat.seat)];
            let get = |n: &str| seat.values.iter().find(|(k, _)| *k == n).unwrap().1;
            assert_eq!(get("gold"), i64::from(p.gold));
            assert_eq!(get("viziers"), i64::from(p.viziers));
            assert_eq!(get("score"), i64::from(s.seat_score(seat.seat).total));
        }
    }
}

#[test]
fn paging_while_games_finish_loses_and_repeats_nothing() {
    let (_d, store, _a) = store_with(10);
    let f = filter("seats.exists(s, s.elders >= 1)").unwrap();
    let before: Vec<Cursor> = all_rows(&store, Some(&f), 1000);
    // Page through in small pages, importing a new finished game after every page.
    let mut seen = Vec::new();
    let mut after = None;
    let mut next_line = 10;
    loop {
        let page = positions::page(
            &ix(&store),
            &Query {
                kind: GameKind::FiveTribes,
                filter: Some(&f),
                after,
                first: 97,
                budget: positions::DEFAULT_BUDGET,
            },
        )
        .unwrap();
        seen.extend(page.rows.iter().map(|r| Cursor {
            game: r.game,
            ply: r.ply,
        }));
        if let Some(line) = SAMPLE.lines().nth(next_line) {
            store.import_line(next_line as u64 + 1, line).unwrap();
            next_line += 1;
        }
        match page.next {
            Some(c) => after = Some(c),
            None => break,
        }
    }
    let unique: HashSet<Cursor> = seen.iter().copied().collect();
    assert_eq!(unique.len(), seen.len(), "no row repeated");
    for c in &before {
        assert!(unique.contains(c), "row {c} lost");
    }
    assert!(next_line > 12, "games were imported between pages");
}

#[test]
fn a_page_stops_at_its_scan_budget_and_says_so() {
    let (_d, store, _a) = store_with(4);
    let never = filter("round > 1000").unwrap();
    let total = all_rows(&store, None, 10_000).len() as u64;
    let mut after = None;
    let mut pages = 0;
    let mut scanned = 0;
    loop {
        let page = positions::page(
            &ix(&store),
            &Query {
                kind: GameKind::FiveTribes,
                filter: Some(&never),
                after,
                first: 10,
                budget: 100,
            },
        )
        .unwrap();
        assert!(page.rows.is_empty());
        assert!(page.scanned <= 100);
        scanned += page.scanned;
        pages += 1;
        match page.next {
            Some(c) => {
                assert!(page.budget_exhausted, "stopped early only at the budget");
                after = Some(c)
            }
            None => break,
        }
    }
    assert_eq!(
        scanned, total,
        "the pages together scanned every position once"
    );
    assert_eq!(
        pages,
        total.div_ceil(100) as usize,
        "every page but the last stops at its budget; the last reaches the end"
    );
}

#[test]
fn positions_by_hash_find_every_game_that_reached_a_state() {
    let (_d, store, _a) = store_with(6);
    let id = store.game_ids().next().unwrap().unwrap();
    // Ply 0 is the position before the deal: the same in every game with as many players.
    let h = store.header(id).unwrap();
    let s0 = store.state_at(id, 0).unwrap();
    let hits = by_hash(&store, s0.state_hash(KEY), 100).unwrap();
    let same_size = store
        .game_ids()
        .map(|g| store.header(g.unwrap()).unwrap())
        .filter(|g| g.players.len() == h.players.len())
        .count();
    assert_eq!(hits.len(), same_size);
    assert!(hits
        .iter()
        .all(|x| x.ply == 0 && x.kind == GameKind::FiveTribes));
    // A mid-game position is found in its own game at its own ply.
    let s = store.state_at(id, 57).unwrap();
    let hits = by_hash(&store, s.state_hash(KEY), 100).unwrap();
    assert!(hits.iter().any(|x| x.game == id && x.ply == 57));
    // A hash no state had finds nothing, and another key's hash finds nothing either.
    assert!(by_hash(&store, s.state_hash([9; 16]), 100)
        .unwrap()
        .is_empty());
}

#[test]
fn blocks_lost_with_their_files_are_indexed_again_when_the_analysis_attaches() {
    let (dir, store, analysis) = store_with(6);
    let before = everything(&store);
    assert!(!before.is_empty());
    // As every opener that writes does once the projections are complete (`storecmd`): the
    // mark says that what is missing later was lost, not never made.
    analysis.mark_projections_current(&store).unwrap();
    drop((analysis, store));
    // What a crash before the unsynced blocks reached the disk, or a `backup` copy, leaves:
    // the store and its summaries without (some of) the block files' records.
    let file = dir.path().join("positions").join("five-tribes.blocks");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let registry = Registry::new().with(Erased::<FiveTribes>::new());
    let store = Store::open(dir.path(), registry.clone(), Config::default()).unwrap();
    let _a = Analysis::attach(&store, KEY).unwrap();
    let healed = everything(&store);
    // The same rows; the healed games come back in game order, as the directory is by id.
    assert_eq!(healed, before);
    drop((_a, store));
    std::fs::remove_dir_all(dir.path().join("positions")).unwrap();
    let store = Store::open(dir.path(), registry, Config::default()).unwrap();
    assert!(
        PositionIndex::open_read(dir.path(), store.registry().clone())
            .unwrap()
            .is_none()
    );
    let _a = Analysis::attach(&store, KEY).unwrap();
    assert_eq!(everything(&store), before);
}

/// A kill -9 just after a game finished can lose what is written after it without a sync:
/// its state hashes (a `positionsByHash` lookup then missed it for good) and its summary.
/// Attaching again finds each finished game's missing parts and makes them again.
#[test]
fn hashes_and_summaries_lost_in_a_crash_are_made_again_when_the_analysis_attaches() {
    let (dir, store, analysis) = store_with(6);
    analysis.mark_projections_current(&store).unwrap();
    let id = store.game_ids().next().unwrap().unwrap();
    let hash = store.state_at(id, 57).unwrap().state_hash(KEY);
    let found = |store: &Store| {
        by_hash(store, hash, 100)
            .unwrap()
            .iter()
            .any(|x| x.game == id && x.ply == 57)
    };
    assert!(found(&store));
    let games = analysis.summaries().len();
    assert_eq!(games, 6);
    // What the crash leaves: the game's hashes gone (an empty value reads as none), every
    // summary gone.
    let mut key = vec![0u8];
    key.extend_from_slice(&id.to_bytes());
    store.projection_put(positions::HASHES, &key, &[]).unwrap();
    store.projection_clear(analysis::index::PROJECTION).unwrap();
    drop(analysis);
    assert!(!found(&store), "the lookup misses the game");
    drop(store);
    let registry = Registry::new().with(Erased::<FiveTribes>::new());
    let store = Store::open(dir.path(), registry, Config::default()).unwrap();
    let analysis = Analysis::attach(&store, KEY).unwrap();
    assert!(found(&store), "its hashes are back");
    assert_eq!(analysis.summaries().len(), games, "every summary is back");
    assert_eq!(
        store
            .projection_iter(analysis::index::PROJECTION)
            .unwrap()
            .count(),
        games
    );
}

#[test]
fn a_rebuilt_index_equals_the_one_kept_incrementally() {
    let (_d, store, analysis) = store_with(8);
    let before = everything(&store);
    analysis.clear(&store).unwrap();
    assert!(everything(&store).is_empty());
    store.rebuild(&mut |_, _| {}).unwrap();
    assert_eq!(everything(&store), before);
}

#[test]
fn the_ndjson_export_has_one_parsable_line_per_matching_position() {
    let (_d, store, _a) = store_with(70);
    let f = filter("round == 2").unwrap();
    let mut out = Vec::new();
    let (scanned, written) = positions::export_ndjson(
        &ix(&store),
        GameKind::FiveTribes,
        Some(&f),
        1,
        &mut out,
        &|| false,
    )
    .unwrap();
    // Three workers write the same bytes as one.
    let mut parallel = Vec::new();
    let counts = positions::export_ndjson(
        &ix(&store),
        GameKind::FiveTribes,
        Some(&f),
        3,
        &mut parallel,
        &|| false,
    )
    .unwrap();
    assert_eq!((counts, &parallel), ((scanned, written), &out));
    assert_eq!(
        positions::count(&ix(&store), GameKind::FiveTribes, Some(&f), 2).unwrap(),
        (scanned, written)
    );
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count() as u64, written);
    assert!(written > 0 && scanned > written);
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["round"], 2);
        assert_eq!(
            v["seats"].as_array().unwrap().len() as u64,
            v["players"].as_u64().unwrap()
        );
        assert!(v["seats"][0]["viziers"].is_i64());
    }
}

// ---- every way a filter is refused -------------------------------------------------------

#[test]
fn a_syntax_error_names_its_line_and_column() {
    for (expr, column) in [
        ("round ==", 9),
        ("round == 3 &&& x", 14),
        ("seats.exists(s,", 16),
    ] {
        match filter(expr) {
            Err(FilterError::Syntax {
                line, column: c, ..
            }) => {
                assert_eq!(line, 1, "{expr}");
                assert_eq!(c, column, "{expr}");
            }
            other => panic!("{expr}: {other:?}"),
        }
    }
    let e = filter("round ==\n  && 3").unwrap_err();
    assert_eq!(e.line(), Some(2), "{e}");
    let e = filter("phase == 'a' &&\n  wealth > 1").unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(2), Some(3)), "{e}");
}

#[test]
fn unknown_names_are_refused_before_any_scan() {
    let e = filter("rounds == 3").unwrap_err();
    match &e {
        FilterError::UnknownFeature {
            name,
            known,
            column,
            ..
        } => {
            assert_eq!(name, "rounds");
            assert_eq!(*column, 1);
            assert!(
                known.contains("round") && known.contains("seats[].viziers"),
                "{known}"
            );
        }
        other => panic!("{other:?}"),
    }
    // Comprehension variables are not features, and may be any name.
    assert!(filter("seats.all(p, p.gold >= 0)").is_ok());
    assert!(
        filter("seats.exists(x, x.gold > 0) && x > 1").is_err(),
        "x is unbound outside"
    );
    // A seat field the game does not have, through a variable or an index, with its column.
    for (expr, column) in [
        ("seats.exists(s, s.wealth > 3)", 18),
        ("round == 1 && seats[0].wealth > 3", 23),
    ] {
        match filter(expr) {
            Err(FilterError::UnknownFeature {
                name, column: c, ..
            }) => {
                assert_eq!(name, "wealth", "{expr}");
                assert_eq!(c, column, "{expr}");
            }
            other => panic!("{expr}: {other:?}"),
        }
    }
}

#[test]
fn over_long_and_over_deep_expressions_are_refused() {
    let long = format!("round == 1{}", " ".repeat(2_000));
    assert!(matches!(filter(&long), Err(FilterError::TooLong { .. })));
    // Nesting is counted on the parsed expression (brackets alone add no level there); text
    // nested past the parser's own limit is a syntax error.
    let chain = format!("round == 0{}", " + 1".repeat(300));
    assert!(matches!(
        filter(&chain),
        Err(FilterError::TooDeep { line: 1, .. })
    ));
    let nested = format!("{}1{}", "-(".repeat(200), ")".repeat(200));
    assert!(filter(&nested).is_err(), "past the parser's own limit");
    let brackets = format!("{}true{}", "(".repeat(300), ")".repeat(300));
    assert!(matches!(filter(&brackets), Err(FilterError::Syntax { .. })));
    // Ternaries and strings with escaped quotes do not hide nesting from the count.
    let ternaries = format!("{}true{}", "true ? ".repeat(60), " : false".repeat(60));
    assert!(filter(&ternaries).is_err());
    // Long flat chains are not nesting: the longest ones allowed compile without exhausting
    // a thread's stack (this test runs on a 2 MiB test thread, like the server's workers).
    let (_d, store, _a) = store_with(1);
    let sum = format!("round + 240 == 0{}", " + 1".repeat(240));
    let ands = format!("ply == 0{}", " && true".repeat(240));
    for expr in [&sum, &ands] {
        let f = filter(expr).unwrap();
        let page = positions::page(
            &ix(&store),
            &Query {
                kind: GameKind::FiveTribes,
                filter: Some(&f),
                after: None,
                first: 10,
                budget: 1000,
            },
        )
        .unwrap();
        assert_eq!(page.rows.len(), 1, "only ply 0 (round 0) passes");
    }
    let calls = format!("size(seats){} == 1", ".size()".repeat(3)); // methods on ints fail at run time
    assert!(filter(&calls).is_ok());
    // Within the bounds, deep but legal expressions run.
    let ok = format!("{}true{}", "(".repeat(40), ")".repeat(40));
    assert!(filter(&ok).is_ok());
}

/// Nested macros multiply: a filter whose work per position cannot be bounded, or is too
/// large, is refused before any scan, with where it happens.
#[test]
fn costly_and_unbounded_macros_are_refused() {
    let list = "[0,1,2,3,4,5,6,7,8,9]";
    let nested = |k: usize| {
        let mut e = "round >= 0".to_string();
        for i in 0..k {
            e = format!("{list}.all(a{i}, {e})");
        }
        e
    };
    assert!(
        filter(&nested(2)).is_ok(),
        "a hundred inner tests per position"
    );
    match filter(&nested(5)) {
        Err(FilterError::TooCostly { work, line, .. }) => {
            assert!(work > 5_000, "{work}");
            assert_eq!(line, 1);
        }
        other => panic!("{other:?}"),
    }
    let seats4 = "seats.all(a, seats.all(b, seats.all(c, seats.all(d, seats.all(e, true)))))";
    assert!(matches!(filter(seats4), Err(FilterError::TooCostly { .. })));
    // A range of unknown size: an element of a list, a variable holding a list.
    for expr in [
        "[[1, 2]][0].exists(x, x > 1)",
        "[[1], [2]].exists(l, l.exists(x, x > 1))",
    ] {
        assert!(
            matches!(filter(expr), Err(FilterError::UnboundedRange { .. })),
            "{expr}"
        );
    }
    // Macros over `seats`, literals, and map/filter of them are fine.
    for expr in [
        "seats.map(s, s.gold).exists(g, g > 3)",
        "seats.filter(s, s.gold > 3).all(s, s.viziers >= 0)",
        "{'a': 1}.exists(k, k == 'a')",
        "type(round) == int",
        "[[1, 2]].exists(seats, size(seats) == 2)",
    ] {
        assert!(filter(expr).is_ok(), "{expr}: {:?}", filter(expr));
    }
}

/// The seat list and each seat behave as CEL lists and maps do.
#[test]
fn seats_compare_index_and_measure_like_lists_and_maps() {
    let (_d, store, _a) = store_with(1);
    for expr in [
        "seats == seats",
        "seats[0] == seats[0]",
        "seats[0] != seats[1]",
        // Equality is asked of the left operand: a seat list compares element by element
        // with any list (the built-in list on the left compares only with its own kind).
        "seats == seats.map(s, s)",
        "seats[0] in seats",
        "size(seats[0]) == 12",
        "'gold' in seats[0] && !('wealth' in seats[0])",
        "seats[0u].gold == seats[0].gold",
        "seats[0]['gold'] == seats[0].gold",
    ] {
        let f = filter(expr).unwrap();
        let page = positions::page(
            &ix(&store),
            &Query {
                kind: GameKind::FiveTribes,
                filter: Some(&f),
                after: None,
                first: 5,
                budget: 1000,
            },
        )
        .unwrap_or_else(|e| panic!("{expr}: {e}"));
        assert_eq!(page.rows.len(), 5, "{expr} holds at every position");
    }
}

#[test]
fn a_cursor_at_the_last_ply_number_moves_on_and_a_zero_budget_keeps_the_cursor() {
    let (_d, store, _a) = store_with(3);
    let ids: Vec<_> = store.game_ids().map(|g| g.unwrap()).collect();
    let query = |after, budget| Query {
        kind: GameKind::FiveTribes,
        filter: None,
        after,
        first: 1,
        budget,
    };
    let after = Some(Cursor {
        game: ids[0],
        ply: u32::MAX,
    });
    let page = positions::page(&ix(&store), &query(after, 10)).unwrap();
    assert_eq!(page.rows[0].game, ids[1], "resumes with the next game");
    assert_eq!(page.rows[0].ply, 0);
    let page = positions::page(&ix(&store), &query(after, 0)).unwrap();
    assert!(page.rows.is_empty() && page.budget_exhausted);
    assert_eq!(page.next, after, "nothing scanned: resume where it was");
}

#[test]
fn evaluation_errors_name_the_game_and_ply() {
    let (_d, store, _a) = store_with(1);
    let run = |expr: &str| {
        let f = filter(expr).unwrap();
        positions::page(
            &ix(&store),
            &Query {
                kind: GameKind::FiveTribes,
                filter: Some(&f),
                after: None,
                first: 10,
                budget: 1000,
            },
        )
    };
    for (expr, what) in [
        ("seats.map(s, s).exists(t, t.wealth > 3)", "no such feature"),
        ("round / (ply - ply) == 1", "ivision by zero"),
        ("seats[9].gold > 1", "out of bounds"),
        ("phase > 3", "no matching overload"),
    ] {
        match run(expr) {
            Err(PositionsError::Filter(FilterError::Eval { message, ply, .. })) => {
                assert!(message.contains(what), "{expr}: {message}");
                assert_eq!(ply, 0, "fails on the first position");
            }
            other => panic!("{expr}: {:?}", other.map(|p| p.rows.len())),
        }
    }
    // A filter that visibly gives something else is refused before any position is read ...
    match filter("round + 1") {
        Err(FilterError::NotBooleanFilter { got, column, .. }) => {
            assert_eq!((got, column), ("an integer", 7));
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    // ... and one whose type only shows when it runs is refused at the first position.
    match run("seats.map(s, s.gold)[0]") {
        Err(PositionsError::Filter(FilterError::NotBoolean { got, .. })) => {
            assert!(got.contains("Int"), "{got}")
        }
        other => panic!("{:?}", other.map(|p| p.rows.len())),
    }
}

#[test]
fn a_bad_cursor_and_an_unregistered_kind_are_typed_errors() {
    let (_d, store, _a) = store_with(1);
    assert!(matches!(
        "nonsense".parse::<Cursor>(),
        Err(PositionsError::BadCursor(_))
    ));
    let r = positions::page(
        &ix(&store),
        &Query {
            kind: GameKind::Mombasa,
            filter: None,
            after: None,
            first: 1,
            budget: 10,
        },
    );
    assert!(matches!(
        r,
        Err(PositionsError::UnknownKind(GameKind::Mombasa))
    ));
}
