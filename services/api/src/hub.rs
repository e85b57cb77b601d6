//! Live updates: a broadcast channel per game, fed after each durable append.
//!
//! A subscriber first subscribes, then reads the stored entries from its `fromPly`, then
//! forwards live entries, skipping those it already sent. Channels are bounded: a subscriber
//! too slow to keep up is told it lagged and catches up from the store — appends never wait on
//! subscribers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use store::{Entry, GameId};
use tokio::sync::broadcast;

const CAPACITY: usize = 256;

#[derive(Default)]
pub struct Hub {
    channels: Mutex<HashMap<GameId, broadcast::Sender<Arc<Entry>>>>,
}

impl Hub {
    pub fn subscribe(&self, game: GameId) -> broadcast::Receiver<Arc<Entry>> {
        let mut map = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(game)
            .or_insert_with(|| broadcast::channel(CAPACITY).0)
            .subscribe()
    }

    pub fn publish(&self, game: GameId, entries: &[Entry]) {
        let mut map = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = map.get(&game) {
            for e in entries {
                if tx.send(Arc::new(e.clone())).is_err() {
                    // Nobody listens any more.
                    map.remove(&game);
                    return;
                }
            }
        }
    }
}
