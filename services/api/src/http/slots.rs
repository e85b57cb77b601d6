//! `Slots`: how many of something (connections, WebSockets) are open, in total and per client
//! address, with caps on both. Taking a slot gives a `Slot` that gives it back when dropped, so
//! no path that ends a connection (an error, a panic, a peer gone) can leak a count.
//!
//! A slot may be taken as *evictable* (a connection, with its `Idle` handle): at a cap, the
//! oldest evictable slot whose connection is between requests (waiting for a head, or kept
//! alive with nothing to do) is taken from it and its connection told to close, and the new
//! one gets its place. So connections that only hold a place — a thousand slow heads from one
//! address, or from many — cannot keep anyone else out: only connections with requests in
//! progress fill a cap for good. Slots taken without a handle (WebSockets) are never evicted.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

/// Counts of open slots, capped in total and per address.
#[derive(Clone)]
pub struct Slots(Arc<Inner>);

struct Inner {
    total: usize,
    per_addr: usize,
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    /// Every open slot by the order it was taken (oldest first).
    slots: BTreeMap<u64, Entry>,
    by_addr: HashMap<IpAddr, usize>,
    next: u64,
}

struct Entry {
    addr: IpAddr,
    idle: Option<Arc<Idle>>,
}

/// What an evictable slot's holder shares with `Slots`: whether a request is in progress, and
/// the signal to close.
#[derive(Default)]
pub struct Idle {
    busy: AtomicUsize,
    close: Notify,
}

impl Idle {
    /// A request began; it counts until the returned guard is dropped (when its answer has
    /// been sent, body and all).
    pub fn busy(self: &Arc<Self>) -> Busy {
        self.busy.fetch_add(1, Ordering::AcqRel);
        Busy(self.clone())
    }

    /// Completes when the slot was taken away: the holder should close.
    pub async fn evicted(&self) {
        self.close.notified().await
    }
}

/// A request in progress on a connection.
pub struct Busy(Arc<Idle>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Why a slot was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Full {
    /// Every slot is taken by something that may not be evicted.
    Total(usize),
    /// The address holds all it may, none of it evictable.
    Addr(usize),
}

impl Slots {
    /// At most `total` open, and at most `per_addr` from one address.
    pub fn new(total: usize, per_addr: usize) -> Slots {
        Slots(Arc::new(Inner {
            total,
            per_addr,
            open: Mutex::new(Open::default()),
        }))
    }

    /// A slot for `addr` (evictable when `idle` is given), or why there is none.
    pub fn take(&self, addr: IpAddr, idle: Option<Arc<Idle>>) -> Result<Slot, Full> {
        let mut open = self.lock();
        if open.by_addr.get(&addr).copied().unwrap_or(0) >= self.0.per_addr
            && !open.evict_oldest(Some(addr))
        {
            return Err(Full::Addr(self.0.per_addr));
        }
        if open.slots.len() >= self.0.total && !open.evict_oldest(None) {
            return Err(Full::Total(self.0.total));
        }
        let id = open.next;
        open.next += 1;
        open.slots.insert(id, Entry { addr, idle });
        *open.by_addr.entry(addr).or_insert(0) += 1;
        Ok(Slot {
            slots: self.clone(),
            id,
        })
    }

    /// How many are open.
    pub fn open(&self) -> usize {
        self.lock().slots.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        // The counts stay consistent under a panic elsewhere: every change is made whole.
        self.0.open.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Open {
    /// Takes the oldest idle evictable slot (of `addr`, if given) from its holder; false if
    /// there is none.
    fn evict_oldest(&mut self, addr: Option<IpAddr>) -> bool {
        let found = self.slots.iter().find_map(|(id, e)| {
            let idle = e.idle.as_ref()?;
            let mine = addr.is_none_or(|a| a == e.addr);
            (mine && idle.busy.load(Ordering::Acquire) == 0).then_some(*id)
        });
        match found {
            Some(id) => {
                self.remove(id);
                true
            }
            None => false,
        }
    }

    /// Forgets slot `id` (if it is still held) and tells its holder to close.
    fn remove(&mut self, id: u64) {
        let Some(e) = self.slots.remove(&id) else {
            return;
        };
        if let Some(n) = self.by_addr.get_mut(&e.addr) {
            *n -= 1;
            if *n == 0 {
                // Forgotten at once: a scan from many addresses cannot grow the table.
                self.by_addr.remove(&e.addr);
            }
        }
        if let Some(idle) = e.idle {
            idle.close.notify_one();
        }
    }
}

/// One open slot; given back when dropped (unless it was evicted, which gave it back then).
pub struct Slot {
    slots: Slots,
    id: u64,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots.lock().remove(self.id);
    }
}

impl std::fmt::Display for Full {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Full::Total(n) => write!(f, "the server holds its most ({n}) at once"),
            Full::Addr(n) => write!(f, "this client address holds its most ({n}) at once"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn ip(last: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
    }

    #[test]
    fn caps_hold_per_address_and_in_total_and_dropping_gives_back() {
        let slots = Slots::new(3, 2);
        let (a, b) = (ip(2), ip(3));
        let a1 = slots.take(a, None).unwrap();
        let a2 = slots.take(a, None).unwrap();
        assert_eq!(slots.take(a, None).err(), Some(Full::Addr(2)));
        let b1 = slots.take(b, None).unwrap();
        assert_eq!(slots.take(b, None).err(), Some(Full::Total(3)));
        assert_eq!(slots.open(), 3);
        drop(a1);
        assert_eq!(slots.open(), 2);
        let a3 = slots.take(a, None).unwrap();
        drop((a2, a3, b1));
        assert_eq!(slots.open(), 0);
        assert!(
            slots.lock().by_addr.is_empty(),
            "no address is kept once it holds none"
        );
    }

    #[test]
    fn at_a_cap_the_oldest_idle_connection_makes_room_and_busy_ones_stay() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let slots = Slots::new(3, 2);
        let (a, b) = (ip(2), ip(3));
        let idle: Vec<Arc<Idle>> = (0..4).map(|_| Arc::default()).collect();
        let a0 = slots.take(a, Some(idle[0].clone())).unwrap();
        let a1 = slots.take(a, Some(idle[1].clone())).unwrap();
        let working = idle[0].busy();
        // Address a is at its cap: its oldest idle slot (a1: a0 is busy) makes room.
        let a2 = slots.take(a, Some(idle[2].clone())).unwrap();
        rt.block_on(async {
            tokio::time::timeout(std::time::Duration::from_secs(1), idle[1].evicted())
                .await
                .expect("a1 is told to close");
        });
        drop(a1); // its holder closes: nothing more to give back
        assert_eq!(slots.open(), 2);
        // The total cap: with every slot taken, the oldest idle one anywhere makes room (a2;
        // a0 and b0 are busy).
        let b0 = slots.take(b, Some(idle[3].clone())).unwrap();
        let _b_busy = idle[3].busy();
        let c = slots.take(ip(4), None).unwrap();
        rt.block_on(async {
            tokio::time::timeout(std::time::Duration::from_secs(1), idle[2].evicted())
                .await
                .expect("a2 is told to close");
        });
        assert_eq!(slots.open(), 3);
        // Nothing idle is left to evict (a0 and b0 busy, c never evictable): refused.
        assert_eq!(slots.take(ip(5), None).err(), Some(Full::Total(3)));
        drop(working);
        let _d = slots
            .take(ip(5), None)
            .expect("a0 is idle again and makes room");
        assert_eq!(slots.open(), 3);
        drop((a0, a2, b0, c));
    }
}
