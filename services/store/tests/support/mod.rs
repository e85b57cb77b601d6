#![allow(dead_code)]
//! Helpers shared by the store's tests: a Five Tribes store, new games, random play.

use chrono::{DateTime, Duration, Utc};
use five_tribes::FiveTribes;
use rules_core::{Actor, Erased, Registry, ToAct};
use store::{Append, Config, GameId, NewGame, Store};

pub fn registry() -> Registry {
    Registry::new().with(Erased::<FiveTribes>::new())
}

pub fn t0() -> DateTime<Utc> {
    DateTime::from_timestamp(1_790_000_000, 0).unwrap()
}

pub fn open(dir: &std::path::Path) -> Store {
    Store::open(dir, registry(), Config::default()).unwrap()
}

pub fn new_game(store: &Store, players: u8, seed: u64) -> GameId {
    let names = (0..players).map(|i| format!("player{i}")).collect();
    let (h, entries) = store
        .create(NewGame {
            kind: rules_core::GameKind::FiveTribes,
            players: names,
            options: serde_json::json!({ "players": players }),
            seed,
            at: t0(),
            seat_token_hashes: vec![],
        })
        .unwrap();
    assert_eq!(entries.len(), 1, "the deal is entry 0");
    assert_eq!(entries[0].actor, Actor::Dealer);
    assert_eq!(h.plies, 1);
    h.id
}

/// Plays the first legal move (or a seeded pick) until the game ends or `max` appends.
pub fn play_out(store: &Store, id: GameId, choose: u64, max: usize) -> u32 {
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
            })
            .unwrap();
    }
    store.header(id).unwrap().plies
}
