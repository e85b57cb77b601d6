//! Statistics and the position index follow a corrected game's latest revision: after a
//! correction, the summaries, the index's rows and its state hashes are exactly those of a
//! store where the game was recorded that way from the start — also when the correction was
//! made while no analysis was attached (a crash between the two), which the next attach mends.

use analysis::positions::{self, by_hash, PositionIndex};
use analysis::Analysis;
use chrono::Duration;
use five_tribes::FiveTribes;
use rules_core::{Actor, Erased, GameKind, Registry};
use store::journal::Author;
use store::revision::{plan_correction, Correction};
use store::{Config, GameId, GameLog, Store};

const KEY: [u8; 16] = *b"0123456789abcdef";
const SAMPLE: &str = include_str!("../../../tests/data/random-samples/five-tribes.ndjson");
const GAMES: usize = 4;

fn open(dir: &std::path::Path) -> Store {
    let registry = Registry::new().with(Erased::<FiveTribes>::new());
    Store::open(dir, registry, Config::default()).unwrap()
}

fn import(store: &Store, lines: &[String]) {
    for (i, line) in lines.iter().enumerate() {
        store.import_line(i as u64 + 1, line).unwrap();
    }
}

fn everything(store: &Store) -> Vec<u8> {
    let ix = PositionIndex::open_read(store.dir(), store.registry().clone())
        .unwrap()
        .unwrap();
    let mut out = Vec::new();
    positions::export_ndjson(&ix, GameKind::FiveTribes, None, 1, &mut out, &|| false).unwrap();
    out
}

/// A correction of one of the first sample game's moves that its record still takes, and
/// that changes its final scores (so a summary left unreplaced would show).
fn a_correction(store: &Store, id: GameId) -> Correction {
    let h = store.header(id).unwrap();
    let entries = store.entries(id, 0, h.plies).unwrap();
    let scores = store
        .state_at(id, h.plies)
        .unwrap()
        .outcome()
        .unwrap()
        .scores;
    for e in entries.iter().rev().filter(|e| e.actor != Actor::Dealer) {
        let state = store.state_at(id, e.ply).unwrap();
        for m in state.legal_moves() {
            let c = Correction {
                game: id,
                by: Author::Admin,
                at: h.updated_at + Duration::days(1),
                changes: vec![(e.ply, m.clone())],
                reason: "typo".into(),
            };
            if m == e.notation {
                continue;
            }
            let Ok(planned) = plan_correction(store.registry(), 32, &h, &[], &entries, &c) else {
                continue;
            };
            if planned.state.outcome().unwrap().scores != scores {
                return c;
            }
        }
    }
    panic!("no correctable entry");
}

#[test]
fn the_analysis_follows_the_latest_revision_even_after_a_crash() {
    let lines: Vec<String> = SAMPLE.lines().take(GAMES).map(str::to_string).collect();
    let dirs = [(); 3].map(|_| tempfile::tempdir().unwrap());

    // A: corrected with the analysis attached.
    let a = open(dirs[0].path());
    let analysis_a = Analysis::attach(&a, KEY).unwrap();
    import(&a, &lines);
    let id = a.game_ids().next().unwrap().unwrap();
    let before = everything(&a);
    let old_summary = analysis_a
        .summaries()
        .into_iter()
        .find(|g| g.id == id)
        .unwrap();
    let c = a_correction(&a, id);
    let old_header = a.header(id).unwrap();
    let old_end = a.state_at(id, old_header.plies).unwrap();
    a.correct(c.clone()).unwrap();
    let plies = a.header(id).unwrap().plies;
    let new_end = a.state_at(id, plies).unwrap();
    assert_ne!(everything(&a), before, "the corrected game's rows changed");
    let summary = |an: &Analysis| an.summaries().into_iter().find(|g| g.id == id).unwrap();
    assert_ne!(
        summary(&analysis_a).seats,
        old_summary.seats,
        "the summary is the corrected game's"
    );

    // B: the same games, the first recorded as corrected from the start.
    let mut fixed = lines.clone();
    fixed[0] = serde_json::to_string(&a.record(id).unwrap()).unwrap();
    let b = open(dirs[1].path());
    let analysis_b = Analysis::attach(&b, KEY).unwrap();
    import(&b, &fixed);
    assert_eq!(everything(&a), everything(&b));
    assert_eq!(analysis_a.summaries(), analysis_b.summaries());
    // A finish hook of the recorded game that runs late does not bring it back.
    analysis_a
        .on_finish(&a, &old_header, old_end.as_ref(), None)
        .unwrap();
    assert_eq!(everything(&a), everything(&b));
    assert_eq!(analysis_a.summaries(), analysis_b.summaries());
    // The state hashes: the corrected end is found, the old one no longer.
    let found = |s: &Store, hash| {
        by_hash(s, hash, 100)
            .unwrap()
            .iter()
            .any(|x| x.game == id && x.ply == plies)
    };
    assert!(found(&a, new_end.state_hash(KEY)));
    if old_end.state_hash(KEY) != new_end.state_hash(KEY) {
        assert!(!found(&a, old_end.state_hash(KEY)));
    }

    // C: corrected while no analysis was attached; the next attach brings it up to date.
    let c_store = open(dirs[2].path());
    let analysis_c = Analysis::attach(&c_store, KEY).unwrap();
    import(&c_store, &lines);
    analysis_c.mark_projections_current(&c_store).unwrap();
    drop((analysis_c, c_store));
    let c_store = open(dirs[2].path());
    c_store.correct(c).unwrap();
    drop(c_store);
    let c_store = open(dirs[2].path());
    let analysis_c = Analysis::attach(&c_store, KEY).unwrap();
    assert_eq!(everything(&c_store), everything(&b));
    assert_eq!(analysis_c.summaries(), analysis_b.summaries());
    assert!(found(&c_store, new_end.state_hash(KEY)));
}
