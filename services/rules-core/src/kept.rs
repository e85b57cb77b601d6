//! [`Kept`]: a value worked out from a position and kept beside it, outside the position;
//! [`Memo`]: a small answer kept the first time it is asked for, under what it depends on.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A value worked out from the position and kept beside it (a union of bit boards asked for
/// several times an entry, the map a state's options assemble): not part of the position, so
/// equal to any other, hashed as nothing and (with `#[serde(skip)]` on the field) never
/// written. Whoever changes what it is worked out from sets it again, and sets it when a state
/// is read; two equal positions then have the same kept values.
#[derive(Clone, Copy, Default)]
pub struct Kept<T>(pub T);

impl<T> PartialEq for Kept<T> {
    fn eq(&self, _: &Kept<T>) -> bool {
        true
    }
}

impl<T> Eq for Kept<T> {}

impl<T> std::hash::Hash for Kept<T> {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl<T> std::fmt::Debug for Kept<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Kept")
    }
}

/// A small answer (a `u8`) kept beside a position the first time it is asked for, under a
/// key naming what besides the position's kept parts it depends on, or nothing (`0`): a game
/// keeps it in a [`Kept`] and forgets it when what it was worked out from changes. Set through
/// `&self` (the question is asked while checking a move), so an atomic rather than a `Cell`, as
/// a state is shared between threads: relaxed, since every thread works out the same answer
/// from the same position. A key is nonzero and below 2^56 (the word holds the key and the
/// answer).
#[derive(Default)]
pub struct Memo(AtomicU64);

impl Memo {
    /// The answer kept under `key`, if any.
    #[inline(always)]
    pub fn get(&self, key: u64) -> Option<u8> {
        let v = self.0.load(Relaxed);
        (v >> 8 == key).then_some(v as u8)
    }

    /// Keeps `value` under `key`.
    #[inline(always)]
    pub fn set(&self, key: u64, value: u8) {
        debug_assert!(
            key != 0 && key >> 56 == 0,
            "a memo key is nonzero and below 2^56"
        );
        self.0.store(key << 8 | u64::from(value), Relaxed);
    }

    /// Nothing kept any more.
    #[inline(always)]
    pub fn forget(&self) {
        self.0.store(0, Relaxed);
    }
}

impl Clone for Memo {
    fn clone(&self) -> Memo {
        Memo(AtomicU64::new(self.0.load(Relaxed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memo_answers_only_under_its_key_until_forgotten() {
        let m = Memo::default();
        assert_eq!(m.get(1), None, "nothing kept at first");
        m.set(7, 3);
        assert_eq!(m.get(7), Some(3));
        assert_eq!(m.get(6), None, "another key is not answered");
        let copy = m.clone();
        m.forget();
        assert_eq!(m.get(7), None);
        assert_eq!(copy.get(7), Some(3), "a clone keeps its own answer");
        m.set((1 << 56) - 1, 255);
        assert_eq!(
            m.get((1 << 56) - 1),
            Some(255),
            "the largest key and answer"
        );
    }
}
