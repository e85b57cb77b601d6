//! Live updates: a broadcast channel per game that says "the game has grown" after each
//! durable append.
//!
//! The signal carries only the game's new length: a subscription always reads its entries
//! from the store, from the next ply it owes, so a subscriber that lagged behind the bounded
//! channel catches up from the store, nothing is sent twice, and appends never wait on
//! subscribers.

use std::collections::HashMap;
use std::sync::Mutex;
use store::GameId;
use tokio::sync::broadcast;

const CAPACITY: usize = 64;

#[derive(Default)]
pub struct Hub {
    channels: Mutex<HashMap<GameId, broadcast::Sender<u32>>>,
}

impl Hub {
    pub fn subscribe(&self, game: GameId) -> broadcast::Receiver<u32> {
        let mut map = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(game)
            .or_insert_with(|| broadcast::channel(CAPACITY).0)
            .subscribe()
    }

    /// Wakes the game's subscribers: it now has `plies` entries.
    pub fn publish(&self, game: GameId, plies: u32) {
        let mut map = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = map.get(&game) {
            if tx.send(plies).is_err() {
                // Nobody listens any more.
                map.remove(&game);
            }
        }
    }
}
