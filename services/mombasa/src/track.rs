//! A seat's bookkeeping track: the books on it in order, held inline and `Copy`.
//!
//! Why not an `ArrayVec`: the whole state is copied at the start of every action (`cancel`
//! restores it), and a seat holding an `ArrayVec` could only be cloned field by field and
//! element by element — a tenth of a Mombasa replay. This type copies as plain bytes and
//! serialises exactly as the `ArrayVec<u8, 16>` it replaces (a length, then the books), so
//! snapshots and state hashes are unchanged (tested below).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Books a track holds at most.
pub const TRACK_BOOKS: usize = 16;

#[derive(Debug, Clone, Copy, Default)]
pub struct Track {
    len: u8,
    books: [u8; TRACK_BOOKS],
}

impl Track {
    pub fn as_slice(&self) -> &[u8] {
        &self.books[..usize::from(self.len)]
    }

    pub fn is_full(&self) -> bool {
        usize::from(self.len) == TRACK_BOOKS
    }

    /// Adds `book` at the end; a full track is left as it is (callers check
    /// [`Track::is_full`] first, as a rule).
    pub fn push(&mut self, book: u8) {
        if let Some(slot) = self.books.get_mut(usize::from(self.len)) {
            *slot = book;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for Track {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a Track {
    type Item = &'a u8;
    type IntoIter = std::slice::Iter<'a, u8>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

// Equality and hashing see the books only, not the unused bytes past them.
impl PartialEq for Track {
    fn eq(&self, other: &Track) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Track {}

impl std::hash::Hash for Track {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl Serialize for Track {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de> Deserialize<'de> for Track {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Track, D::Error> {
        let books = arrayvec::ArrayVec::<u8, TRACK_BOOKS>::deserialize(d)?;
        let mut t = Track::default();
        for b in books {
            t.push(b);
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrayvec::ArrayVec;

    #[test]
    fn a_track_is_stored_and_read_as_the_arrayvec_it_replaces() {
        for n in 0..=TRACK_BOOKS {
            let books: ArrayVec<u8, TRACK_BOOKS> =
                (0..n as u8).map(|i| i.wrapping_mul(37) ^ 5).collect();
            let mut t = Track::default();
            for b in &books {
                t.push(*b);
            }
            assert_eq!(t.as_slice(), books.as_slice());
            assert_eq!(t.is_full(), books.is_full());
            let old = postcard::to_allocvec(&books).unwrap();
            assert_eq!(postcard::to_allocvec(&t).unwrap(), old, "{n} books");
            assert_eq!(postcard::from_bytes::<Track>(&old).unwrap(), t);
            assert_eq!(
                serde_json::to_string(&t).unwrap(),
                serde_json::to_string(&books).unwrap()
            );
        }
        // More books than a track holds are refused, as the ArrayVec refused them.
        let long = postcard::to_allocvec(&vec![1u8; TRACK_BOOKS + 1]).unwrap();
        assert!(postcard::from_bytes::<Track>(&long).is_err());
        let mut full = Track::default();
        (0..20).for_each(|b| full.push(b));
        assert_eq!(full.len(), TRACK_BOOKS);
    }
}
