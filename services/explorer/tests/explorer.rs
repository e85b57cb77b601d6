//! The explorer against a brute-force count over the sample games (every node of the first
//! three decisions of every game, by line and by position, under every filter), kept across a
//! reopen and a rebuild; transpositions merged by position and not by line; a correction
//! moving a game to another branch.

use caledonia::Caledonia;
use chrono::{DateTime, Utc};
use explorer::{decisions, By, Explorer, Facts, Filter, Movers, Node};
use five_tribes::FiveTribes;
use mombasa::Mombasa;
use rules_core::{Actor, Erased, GameKind, Registry, Seat, ToAct};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use store::{GameId, GameLog, Store};

const KEY: [u8; 16] = *b"explorer-tests!!";
/// Small runs, so the samples make several and merge them.
const CONFIG: explorer::Config = explorer::Config { flush_rows: 2000 };

fn registry() -> Registry {
    Registry::new()
        .with(Erased::<FiveTribes>::new())
        .with(Erased::<Caledonia>::new())
        .with(Erased::<Mombasa>::new())
}

fn open(dir: &Path) -> Store {
    Store::open(dir, registry(), store::Config::default()).unwrap()
}

fn samples_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples")
}

fn import_samples(store: &Store) {
    for file in ["five-tribes", "caledonia", "mombasa"] {
        let text = std::fs::read_to_string(samples_dir().join(format!("{file}.ndjson"))).unwrap();
        for (i, line) in text.lines().enumerate() {
            store.import_line(i as u64 + 1, line).unwrap();
        }
    }
}

/// Every finished game's decisions and facts, read straight from the store.
struct Truth {
    games: Vec<(store::Header, Facts, Vec<explorer::Decision>)>,
}

impl Truth {
    fn of(store: &Store) -> Truth {
        let games = store::finished_games(store, None)
            .unwrap()
            .into_iter()
            .map(|h| {
                let entries = store.entries(h.id, 0, h.plies).unwrap();
                let rules = store.registry().get(h.kind).unwrap();
                let d = decisions(rules, &h, &entries, KEY).unwrap();
                let state = store.state_at(h.id, h.plies).unwrap();
                let f = Facts::of(&h, state.as_ref()).unwrap();
                (h, f, d)
            })
            .collect();
        Truth { games }
    }

    /// The node counted game by game: (games, per move (games, wins, score sum, rank sum, last end)).
    fn node(&self, kind: GameKind, players: u8, by: By, key: u64, filter: &Filter) -> Brute {
        let mut games = HashSet::new();
        let mut moves: BTreeMap<String, (u32, f64, f64, f64, i64)> = BTreeMap::new();
        for (h, f, ds) in &self.games {
            if h.kind != kind || f.seats.len() != usize::from(players) {
                continue;
            }
            let ended = h.updated_at.timestamp();
            let game_ok = filter.since.is_none_or(|s| ended >= s.timestamp())
                && filter.until.is_none_or(|u| ended < u.timestamp())
                && filter
                    .rules_version
                    .as_deref()
                    .is_none_or(|v| v == h.rules_version)
                && filter
                    .player
                    .as_deref()
                    .is_none_or(|p| h.players.iter().any(|q| q == p));
            if !game_ok {
                continue;
            }
            let mut played_here = HashSet::new();
            for d in ds {
                let k = match by {
                    By::Line => d.line,
                    By::Position => d.position,
                };
                let seat = &f.seats[d.seat.index()];
                let mover_ok = match filter.movers {
                    Movers::Any => true,
                    Movers::Bots => d.bot,
                    Movers::People => !d.bot,
                } && filter
                    .movers_named
                    .as_ref()
                    .is_none_or(|n| n.contains(&seat.player));
                if k != key || !mover_ok || !played_here.insert(d.notation.clone()) {
                    continue;
                }
                games.insert(h.id);
                let m = moves.entry(d.notation.clone()).or_default();
                m.0 += 1;
                m.1 += f64::from(seat.share);
                m.2 += f64::from(seat.score);
                m.3 += f64::from(seat.rank);
                m.4 = m.4.max(ended);
            }
        }
        Brute {
            games: games.len() as u32,
            moves,
        }
    }
}

struct Brute {
    games: u32,
    moves: BTreeMap<String, (u32, f64, f64, f64, i64)>,
}

fn ended_of(store: &Store, id: GameId) -> i64 {
    store.header(id).unwrap().updated_at.timestamp()
}

fn assert_same(store: &Store, node: &Node, brute: &Brute, what: &str) {
    assert_eq!(node.games, brute.games, "{what}: games at the node");
    assert_eq!(node.moves.len(), brute.moves.len(), "{what}: moves");
    for m in &node.moves {
        let b = brute
            .moves
            .get(&m.notation)
            .unwrap_or_else(|| panic!("{what}: {} not played", m.notation));
        let n = f64::from(b.0);
        assert_eq!(m.games, b.0, "{what}: {} games", m.notation);
        assert!((m.wins - b.1).abs() < 1e-4, "{what}: {} wins", m.notation);
        assert!(
            (m.mean_score - b.2 / n).abs() < 1e-6,
            "{what}: {} mean score",
            m.notation
        );
        assert!(
            (m.mean_rank - b.3 / n).abs() < 1e-6,
            "{what}: {} mean rank",
            m.notation
        );
        assert!(
            m.low <= m.win_rate && m.win_rate <= m.high,
            "{what}: interval"
        );
        assert_eq!(
            ended_of(store, m.last_game),
            b.4,
            "{what}: {} last game",
            m.notation
        );
    }
    let counts: Vec<u32> = node.moves.iter().map(|m| m.games).collect();
    assert!(
        counts.windows(2).all(|w| w[0] >= w[1]),
        "{what}: most played first"
    );
}

fn filters(truth: &Truth) -> Vec<(&'static str, Filter)> {
    let mut ends: Vec<i64> = truth
        .games
        .iter()
        .map(|(h, _, _)| h.updated_at.timestamp())
        .collect();
    ends.sort_unstable();
    let mid = DateTime::<Utc>::from_timestamp(ends[ends.len() / 2], 0).unwrap();
    let version = truth.games[0].0.rules_version.clone();
    vec![
        ("none", Filter::default()),
        (
            "player",
            Filter {
                player: Some("mcts:1000".into()),
                ..Filter::default()
            },
        ),
        (
            "since",
            Filter {
                since: Some(mid),
                ..Filter::default()
            },
        ),
        (
            "until",
            Filter {
                until: Some(mid),
                ..Filter::default()
            },
        ),
        (
            "rules",
            Filter {
                rules_version: Some(version),
                ..Filter::default()
            },
        ),
        (
            "bots",
            Filter {
                movers: Movers::Bots,
                ..Filter::default()
            },
        ),
        (
            "people",
            Filter {
                movers: Movers::People,
                ..Filter::default()
            },
        ),
        (
            "movers named",
            Filter {
                movers_named: Some(["mcts:2000".to_string()].into()),
                ..Filter::default()
            },
        ),
    ]
}

/// Checks every node of the first three decisions of every game under every filter; answers
/// how many (node, filter) pairs had moves.
fn check_all(store: &Store, ex: &Explorer, truth: &Truth) -> usize {
    let mut checked = 0;
    let mut seen = HashSet::new();
    for (h, f, ds) in &truth.games {
        for d in ds.iter().take(3) {
            for by in [By::Line, By::Position] {
                let key = if by == By::Line { d.line } else { d.position };
                if !seen.insert((h.kind, by, key)) {
                    continue;
                }
                let players = f.seats.len() as u8;
                for (name, filter) in filters(truth) {
                    let node = ex.node(h.kind, players, by, key, &filter).unwrap();
                    let brute = truth.node(h.kind, players, by, key, &filter);
                    let what = format!("{} {players}p {by:?} {key:x} ({name})", h.kind);
                    assert_same(store, &node, &brute, &what);
                    checked += usize::from(!node.moves.is_empty());
                }
            }
        }
    }
    checked
}

#[test]
fn counts_match_a_brute_force_count_over_the_samples_across_reopens_and_rebuilds() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = open(dir.path());
        // Attached first: the games are filed by the finish hook as they are imported.
        let ex = Explorer::attach_with(&store, KEY, CONFIG).unwrap();
        import_samples(&store);
        let truth = Truth::of(&store);
        assert_eq!(truth.games.len(), 216);
        let checked = check_all(&store, &ex, &truth);
        assert!(checked > 500, "only {checked} nodes with moves");
        // The first decision of the same kind and player count is one line node for all.
        let (h, f, ds) = &truth.games[0];
        let root = ex
            .node(
                h.kind,
                f.seats.len() as u8,
                By::Line,
                ds[0].line,
                &Filter::default(),
            )
            .unwrap();
        let same = truth
            .games
            .iter()
            .filter(|(g, gf, _)| g.kind == h.kind && gf.seats.len() == f.seats.len())
            .count();
        assert_eq!(
            root.games as usize, same,
            "every game opens at the line's root"
        );
        let sizes = ex.sizes();
        assert!(
            sizes
                .iter()
                .all(|(_, games, rows, _)| *games == 72 && *rows > 0),
            "{sizes:?}"
        );
        assert!(
            sizes.iter().any(|(_, _, _, bytes)| *bytes > 0),
            "some rows became a run: {sizes:?}"
        );
    }
    {
        // Reopened: runs from their files, the rest from the store's rows.
        let store = open(dir.path());
        let ex = Explorer::attach_with(&store, KEY, CONFIG).unwrap();
        let truth = Truth::of(&store);
        check_all(&store, &ex, &truth);
        // Rebuilt from nothing, as `ludolog rebuild` does; then with the run files lost.
        ex.clear(&store).unwrap();
        assert_eq!(
            ex.node(
                GameKind::Mombasa,
                2,
                By::Line,
                truth.games[0].2[0].line,
                &Filter::default()
            )
            .unwrap(),
            Node::default()
        );
        for (h, _, _) in &truth.games {
            let state = store.state_at(h.id, h.plies).unwrap();
            ex.file(&store, h, state.as_ref(), None).unwrap();
        }
        check_all(&store, &ex, &truth);
    }
    std::fs::remove_dir_all(dir.path().join("explorer")).unwrap();
    let store = open(dir.path());
    let ex = Explorer::attach_with(&store, KEY, CONFIG).unwrap();
    check_all(&store, &ex, &Truth::of(&store));
}

#[test]
fn a_bad_filter_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let ex = Explorer::attach_with(&store, KEY, CONFIG).unwrap();
    let t = DateTime::<Utc>::from_timestamp(1_800_000_000, 0).unwrap();
    let backwards = Filter {
        since: Some(t),
        until: Some(t - chrono::Duration::days(1)),
        ..Filter::default()
    };
    assert!(matches!(
        ex.node(GameKind::FiveTribes, 2, By::Line, 1, &backwards),
        Err(explorer::ExplorerError::Filter(
            explorer::FilterError::EmptyRange { .. }
        ))
    ));
    let nobody = Filter {
        player: Some(String::new()),
        ..Filter::default()
    };
    assert!(ex
        .node(GameKind::FiveTribes, 2, By::Line, 1, &nobody)
        .is_err());
}

/// A Mombasa game of two seats from `seed`, played by the store up to its first position
/// where both seats may move (the first planning).
fn mombasa_at_planning(store: &Store, seed: u64) -> GameId {
    let (h, _) = store
        .create(store::NewGame {
            kind: GameKind::Mombasa,
            players: vec!["ada".into(), "bo".into()],
            options: serde_json::json!({ "players": 2 }),
            seed: Some(seed),
            at: store_conformance::t0(),
            seat_token_hashes: vec![],
            recorder_token_hash: None,
        })
        .unwrap();
    for i in 0..200 {
        let h = store.header(h.id).unwrap();
        let s = store.state_at(h.id, h.plies).unwrap();
        let seats = s.seats_to_act();
        if seats.len() == 2
            && !s.legal_moves_of(seats[1]).is_empty()
            && i > 0
            && s.phase() == "planning"
        {
            return h.id;
        }
        let ToAct::Seat(seat) = s.to_act() else {
            panic!("seed {seed}: over before planning")
        };
        append(store, h.id, seat, &s.legal_moves_of(seat)[0]);
    }
    panic!("seed {seed}: no planning reached");
}

fn append(store: &Store, id: GameId, seat: Seat, m: &str) {
    let h = store.header(id).unwrap();
    store
        .append(store::Append {
            game: id,
            expected_ply: h.plies,
            actor: Actor::Seat(seat),
            notation: m,
            key: None,
            at: store_conformance::t0() + chrono::Duration::seconds(i64::from(h.plies)),
            entered_by: None,
        })
        .unwrap();
}

#[test]
fn transpositions_merge_by_position_and_not_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let ex = Explorer::attach_with(&store, KEY, CONFIG).unwrap();
    // Two games of one setup reach the first planning alike; there each seat plans a card,
    // in one game seat 0 first, in the other seat 1 first.
    let a = mombasa_at_planning(&store, 11);
    let b = mombasa_at_planning(&store, 11);
    let at = store.header(a).unwrap().plies;
    let s = store.state_at(a, at).unwrap();
    let (m0, m1) = (
        s.legal_moves_of(Seat(0))[0].clone(),
        s.legal_moves_of(Seat(1))[0].clone(),
    );
    append(&store, a, Seat(0), &m0);
    append(&store, a, Seat(1), &m1);
    append(&store, b, Seat(1), &m1);
    append(&store, b, Seat(0), &m0);
    let (sa, sb) = (
        store.state_at(a, at + 2).unwrap(),
        store.state_at(b, at + 2).unwrap(),
    );
    assert_eq!(
        sa.encode(),
        sb.encode(),
        "the two orders reach one position"
    );
    for id in [a, b] {
        store_conformance::play_out(&store, id, 5, 5000);
        assert_eq!(store.header(id).unwrap().status, store::Status::Finished);
    }
    let truth = Truth::of(&store);
    let next = |id: GameId| {
        let (_, _, ds) = truth.games.iter().find(|(h, _, _)| h.id == id).unwrap();
        ds.iter().find(|d| d.ply >= at + 2).unwrap().clone()
    };
    let (da, db) = (next(a), next(b));
    assert_eq!(da.position, db.position, "one node by position");
    assert_ne!(
        da.line, db.line,
        "two by line: the moves came in another order"
    );
    let f = Filter::default();
    assert_eq!(
        ex.node(GameKind::Mombasa, 2, By::Position, da.position, &f)
            .unwrap()
            .games,
        2
    );
    assert_eq!(
        ex.node(GameKind::Mombasa, 2, By::Line, da.line, &f)
            .unwrap()
            .games,
        1
    );
    assert_eq!(
        ex.node(GameKind::Mombasa, 2, By::Line, db.line, &f)
            .unwrap()
            .games,
        1
    );
    // Where the orders part, the line counts both games and the position key too (one
    // position before either plans), each game's own first move a move of the node.
    let first = ex
        .node(
            GameKind::Mombasa,
            2,
            By::Line,
            {
                let (_, _, ds) = truth.games.iter().find(|(h, _, _)| h.id == a).unwrap();
                ds.iter().find(|d| d.ply == at).unwrap().line
            },
            &f,
        )
        .unwrap();
    assert_eq!(first.games, 2);
    assert_eq!(first.moves.len(), 2, "{:?}", first.moves);
}

#[test]
fn a_correction_moves_the_game_to_another_branch() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let ex = Explorer::attach_with(&store, KEY, CONFIG).unwrap();
    let id = store_conformance::new_game(&store, 2, 3);
    store_conformance::play_out(&store, id, 3, 5000);
    let h = store.header(id).unwrap();
    let entries = store.entries(id, 0, h.plies).unwrap();
    // The last seat move that another legal move can replace with the rest still replaying.
    let (ply, was, now) = entries
        .iter()
        .rev()
        .filter(|e| e.actor != Actor::Dealer)
        .find_map(|e| {
            let state = store.state_at(id, e.ply).unwrap();
            state
                .legal_moves()
                .into_iter()
                .filter(|m| *m != e.notation)
                .find_map(|m| {
                    let c = correction(id, e.ply, &m);
                    store::revision::plan_correction(store.registry(), 32, &h, &[], &entries, &c)
                        .is_ok()
                        .then(|| (e.ply, e.notation.clone(), m))
                })
        })
        .expect("a correctable entry");
    let truth = Truth::of(&store);
    let node = truth.games[0].2.iter().find(|d| d.ply == ply).unwrap().line;
    let f = Filter::default();
    let before = ex
        .node(GameKind::FiveTribes, 2, By::Line, node, &f)
        .unwrap();
    assert_eq!(
        before
            .moves
            .iter()
            .map(|m| m.notation.as_str())
            .collect::<Vec<_>>(),
        [was.as_str()]
    );
    store.correct(correction(id, ply, &now)).unwrap();
    let after = ex
        .node(GameKind::FiveTribes, 2, By::Line, node, &f)
        .unwrap();
    assert_eq!(
        after.games, 1,
        "the game is counted once, in its new revision"
    );
    assert_eq!(
        after
            .moves
            .iter()
            .map(|m| m.notation.as_str())
            .collect::<Vec<_>>(),
        [now.as_str()]
    );
    // And so after a reopen.
    drop(ex);
    drop(store);
    let store = open(dir.path());
    let ex = Explorer::attach_with(&store, KEY, CONFIG).unwrap();
    let again = ex
        .node(GameKind::FiveTribes, 2, By::Line, node, &f)
        .unwrap();
    assert_eq!(again, after);
}

fn correction(id: GameId, ply: u32, m: &str) -> store::revision::Correction {
    store::revision::Correction {
        game: id,
        by: store::journal::Author::Admin,
        at: store_conformance::t0() + chrono::Duration::days(1),
        changes: vec![(ply, m.to_string())],
        reason: "typo".into(),
    }
}
