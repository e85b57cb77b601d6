//! The conformance suite of the storage trait [`store::GameLog`]: every check that says what
//! a backend must do — appends, expected-ply conflicts, idempotency keys, dealing, reads at
//! any ply, listings and their cursors, import and export byte-identical, finish hooks and
//! projections, who an idempotency key answers to, a journal's limits — written once against
//! `&dyn GameLog`, so each backend runs the same suite unchanged (issue 15).
//!
//! A backend's test file names a constructor of fresh, empty stores and expands
//! [`conformance_tests!`], which makes one `#[test]` per check:
//!
//! ```ignore
//! store_conformance::conformance_tests!(|| {
//!     let dir = tempfile::tempdir().unwrap();
//!     let store = store::Store::open(dir.path(), store_conformance::registry(), Default::default()).unwrap();
//!     store_conformance::Backend::new(store, dir)
//! });
//! ```
//!
//! # Layout
//! - this file: [`Backend`], the helpers the checks share, and the macro;
//! - [`checks`]: the checks, one public function each (`checks/owners.rs`: who an idempotency
//!   key answers to; `checks/revisions.rs`: corrections of finished games).

use chrono::{DateTime, Duration, Utc};
use five_tribes::FiveTribes;
use rules_core::{Actor, Erased, Registry, ToAct};
use std::any::Any;
use store::{Append, GameId, GameLog, NewGame};

pub mod checks;

/// A fresh, empty store under test, with whatever must live as long as it (a temporary
/// folder, a server's connection).
pub struct Backend {
    log: Box<dyn GameLog>,
    _keep: Box<dyn Any + Send + Sync>,
}

impl Backend {
    pub fn new(log: impl GameLog + 'static, keep: impl Any + Send + Sync) -> Backend {
        Backend {
            log: Box::new(log),
            _keep: Box::new(keep),
        }
    }
}

impl std::ops::Deref for Backend {
    type Target = dyn GameLog;
    fn deref(&self) -> &(dyn GameLog + 'static) {
        &*self.log
    }
}

/// The games the checks play: Five Tribes (every check needs only one kind).
pub fn registry() -> Registry {
    Registry::new().with(Erased::<FiveTribes>::new())
}

pub fn t0() -> DateTime<Utc> {
    DateTime::from_timestamp(1_790_000_000, 0).unwrap_or_default()
}

/// Creates a Five Tribes game of `players` from `seed`; checks that the deal is entry 0.
pub fn new_game(store: &dyn GameLog, players: u8, seed: u64) -> GameId {
    let names = (0..players).map(|i| format!("player{i}")).collect();
    let (h, entries) = store
        .create(NewGame {
            kind: rules_core::GameKind::FiveTribes,
            players: names,
            options: serde_json::json!({ "players": players }),
            seed: Some(seed),
            at: t0(),
            seat_token_hashes: vec![],
            recorder_token_hash: None,
        })
        .unwrap();
    assert_eq!(entries.len(), 1, "the deal is entry 0");
    assert_eq!(entries[0].actor, Actor::Dealer);
    assert_eq!(h.plies, 1);
    h.id
}

/// Plays a seeded choice of legal move until the game ends or `max` appends; returns the plies.
pub fn play_out(store: &dyn GameLog, id: GameId, choose: u64, max: usize) -> u32 {
    for i in 0..max {
        let h = store.header(id).unwrap();
        let s = store.state_at(id, h.plies).unwrap();
        let ToAct::Seat(seat) = s.to_act() else {
            return h.plies;
        };
        let moves = s.legal_moves();
        let m = &moves[(choose as usize + i * 7919) % moves.len()];
        store
            .append(Append {
                game: id,
                expected_ply: h.plies,
                actor: Actor::Seat(seat),
                notation: m,
                key: None,
                at: t0() + Duration::seconds(i as i64),
                entered_by: None,
            })
            .unwrap();
    }
    store.header(id).unwrap().plies
}

/// One `#[test]` per check of [`checks`], each on fresh stores made by `$new` (an expression
/// of type `Fn() -> Backend`).
#[macro_export]
macro_rules! conformance_tests {
    ($new:expr) => {
        $crate::conformance_tests!(@each $new;
            a_game_plays_to_the_end_and_every_ply_replays,
            conflicts_illegal_moves_and_client_deals_are_refused_and_write_nothing,
            an_idempotent_retry_returns_the_first_result_and_writes_nothing,
            sixteen_threads_racing_on_one_game_write_each_ply_once,
            listing_pages_by_kind_status_and_player_with_stable_cursors,
            export_then_import_is_byte_identical,
            import_rejects_bad_records_whole_with_reasons,
            paging_while_games_are_created_loses_and_repeats_nothing,
            finish_hooks_run_once_per_finished_game,
            projections_keep_put_values_in_key_order_until_cleared,
            annotations_and_studies_are_kept,
            an_idempotency_key_belongs_to_whoever_entered_its_move,
            a_journal_refuses_a_note_past_its_byte_limit_and_writes_nothing,
            a_correction_is_a_new_revision_that_replays_and_projections_follow,
            refused_corrections_write_nothing,
            a_takeback_withdraws_up_to_the_last_chance_entry,
            a_retry_of_a_withdrawn_move_is_told_so,
            seats_answer_takebacks_and_annotations_on_withdrawn_plies_are_marked,
            seats_accepting_with_the_ask_are_written_with_it,
        );
    };
    (@each $new:expr; $($check:ident),* $(,)?) => {
        $(
            #[test]
            fn $check() {
                $crate::checks::$check(&$new);
            }
        )*
    };
}
