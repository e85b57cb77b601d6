//! A review read as judgements, on a crafted review: the raw figures of each position's own
//! search decide the class, a forced move is best and left out of the seat's accuracy, a
//! chance entry is not judged, and a review of another revision or evaluator is stale.
use chrono::Utc;
use review::record::{Chances, Head, PlyEval, Review, EVALUATOR};
use review::{judgements, seat_reports};
use rules_core::{Actor, Seat};
use store::Entry;

fn chances(w: [f32; 2]) -> Vec<Chances> {
    w.iter()
        .map(|&win| Chances {
            win,
            low: win,
            high: win,
            score: 0.0,
            rank: 1.0,
        })
        .collect()
}

fn ply(w: [f32; 2], best: Option<&str>, raw: Option<(f32, f32)>, forced: bool) -> PlyEval {
    PlyEval {
        seats: chances(w),
        best: best.map(|b| (b.to_string(), w[0])),
        raw,
        forced,
        exact: false,
    }
}

fn entry(ply: u32, actor: Actor, notation: &str) -> Entry {
    Entry {
        ply,
        actor,
        notation: notation.into(),
        recorded_at: Utc::now(),
        key: None,
        entered_by: None,
    }
}

#[test]
fn each_seat_move_is_judged_on_its_own_searchs_raw_figures() {
    let review = Review {
        head: Head {
            revision: 0,
            rules_version: "v".into(),
            evaluator: EVALUATOR.into(),
            iterations: 500,
        },
        plies: vec![
            ply([0.5, 0.5], None, None, false),
            // Seat 0 plays `b` where the search liked `a`: 0.62 → 0.30 raw, a blunder (the
            // calibrated 0.5s shown would hide it).
            ply([0.5, 0.5], Some("a"), Some((0.62, 0.30)), false),
            // Seat 1 plays the search's own choice.
            ply([0.3, 0.7], Some("c"), Some((0.7, 0.69)), false),
            // Seat 0's only move.
            ply([0.3, 0.7], Some("d"), None, true),
            // Seat 1 loses 0.08: an inaccuracy.
            ply([0.3, 0.7], Some("e"), Some((0.7, 0.62)), false),
            ply([0.0, 1.0], None, None, false),
        ],
        calibrated: true,
    };
    let entries = vec![
        entry(0, Actor::Dealer, "deal"),
        entry(1, Actor::Seat(Seat(0)), "b"),
        entry(2, Actor::Seat(Seat(1)), "c"),
        entry(3, Actor::Seat(Seat(0)), "d"),
        entry(4, Actor::Seat(Seat(1)), "f"),
    ];
    let j = judgements(&review, &entries);
    let got: Vec<(u32, u8, &str, bool)> = j
        .iter()
        .map(|m| (m.ply, m.seat, m.class.name(), m.forced))
        .collect();
    assert_eq!(
        got,
        [
            (1, 0, "blunder", false),
            (2, 1, "best", false),
            (3, 0, "best", true),
            (4, 1, "inaccuracy", false),
        ]
    );
    assert!((j[0].loss() - 0.32).abs() < 1e-6);
    assert_eq!(j[0].best.as_ref().map(|b| b.0.as_str()), Some("a"));
    let r = seat_reports(&j, 2);
    assert_eq!(
        (r[0].moves, r[0].classes),
        (1, [0, 0, 0, 0, 1]),
        "the forced move left out"
    );
    assert_eq!((r[1].moves, r[1].classes), (2, [1, 0, 1, 0, 0]));
    assert!(r[0].accuracy.unwrap() < r[1].accuracy.unwrap());
}

#[test]
fn a_review_of_another_revision_or_evaluator_is_stale() {
    let mut h = store::Header {
        id: store::GameId(1),
        kind: rules_core::GameKind::FiveTribes,
        players: vec!["a".into(), "b".into()],
        options: "{}".into(),
        seed: Some(1),
        rules_version: "v".into(),
        data_hash: "d".into(),
        created_at: Utc::now(),
        updated_at: Utc::now(),
        status: store::Status::Finished,
        plies: 0,
        seat_token_hashes: Vec::new(),
        recorder_token_hash: None,
        revision: 0,
    };
    let head = Head::of(&h, 500);
    assert!(head.is_current(&h));
    h.revision = 1;
    assert!(!head.is_current(&h), "a correction makes it stale");
    h.revision = 0;
    let old = Head {
        evaluator: "ismcts-0".into(),
        ..head.clone()
    };
    assert!(!old.is_current(&h), "another evaluator's review is stale");
    let other_budget = Head::of(&h, 1000);
    assert!(
        other_budget.is_current(&h),
        "a review at another budget still serves"
    );
}
