//! [`CopyList`]: a short list that is `Copy`, for the few lists inside a position's hot parts.
//!
//! An `ArrayVec` has a destructor even when its items have none, and so gives every type
//! around it drop glue: each time a game's phase (holding its turn, holding a step with a
//! list) was overwritten, the old one was first looked into to drop it. Replay overwrites the
//! phase in most entries. A `CopyList` is plain data (a length and an array), and reads and
//! writes exactly as an `ArrayVec` of the same items does: serialised as the sequence of its
//! items, equal, hashed and printed as that slice.

use arrayvec::ArrayVec;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// At most `N` items (`N` < 256), `Copy` when they are.
#[derive(Clone, Copy)]
pub struct CopyList<T: Copy + Default, const N: usize> {
    len: u8,
    /// The items, then `T::default()` in every place past `len` (never read).
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> CopyList<T, N> {
    /// No items.
    pub fn new() -> CopyList<T, N> {
        const { assert!(N < 256, "a CopyList holds fewer than 256 items") };
        CopyList {
            len: 0,
            items: [T::default(); N],
        }
    }

    /// A list of `items`; `None` when there are more than `N`.
    pub fn from_slice(items: &[T]) -> Option<CopyList<T, N>> {
        let mut list = CopyList::new();
        list.items.get_mut(..items.len())?.copy_from_slice(items);
        // At most `N` < 256.
        list.len = items.len() as u8;
        Some(list)
    }

    /// The items as a slice.
    pub fn as_slice(&self) -> &[T] {
        self.items.get(..usize::from(self.len)).unwrap_or_default()
    }
}

impl<T: Copy + Default, const N: usize> Default for CopyList<T, N> {
    fn default() -> CopyList<T, N> {
        CopyList::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for CopyList<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a CopyList<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> std::slice::Iter<'a, T> {
        self.as_slice().iter()
    }
}

impl<T: Copy + Default, const N: usize> From<ArrayVec<T, N>> for CopyList<T, N> {
    fn from(v: ArrayVec<T, N>) -> CopyList<T, N> {
        let mut list = CopyList::new();
        for (place, item) in list.items.iter_mut().zip(&v) {
            *place = *item;
        }
        // `N` < 256 (checked in `new`), so the length fits.
        list.len = v.len() as u8;
        list
    }
}

/// The items of an array no longer than the list can be (checked when compiled).
impl<T: Copy + Default, const N: usize, const K: usize> From<[T; K]> for CopyList<T, N> {
    fn from(a: [T; K]) -> CopyList<T, N> {
        const { assert!(K <= N, "more items than the list holds") };
        let mut list = CopyList::new();
        for (place, item) in list.items.iter_mut().zip(a) {
            *place = item;
        }
        // `K` <= `N` < 256.
        list.len = K as u8;
        list
    }
}

impl<T: Copy + Default, const N: usize> From<CopyList<T, N>> for ArrayVec<T, N> {
    fn from(list: CopyList<T, N>) -> ArrayVec<T, N> {
        list.iter().copied().collect()
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for CopyList<T, N> {
    fn eq(&self, other: &CopyList<T, N>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for CopyList<T, N> {}

impl<T: Copy + Default + Hash, const N: usize> Hash for CopyList<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state)
    }
}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for CopyList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl<T: Copy + Default + Serialize, const N: usize> Serialize for CopyList<T, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de, T: Copy + Default + Deserialize<'de>, const N: usize> Deserialize<'de>
    for CopyList<T, N>
{
    /// As an `ArrayVec` reads it: a sequence of at most `N` items.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CopyList<T, N>, D::Error> {
        ArrayVec::<T, N>::deserialize(d).map(CopyList::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_list_reads_writes_compares_and_prints_as_the_array_vec_of_its_items() {
        for items in [vec![], vec![3u8], vec![1, 2, 3, 4]] {
            let v: ArrayVec<u8, 4> = items.iter().copied().collect();
            let list = CopyList::from(v.clone());
            assert_eq!(&*list, &items[..]);
            assert_eq!(ArrayVec::from(list), v);
            let json = serde_json::to_string(&list).unwrap();
            assert_eq!(json, serde_json::to_string(&v).unwrap());
            assert_eq!(
                serde_json::from_str::<CopyList<u8, 4>>(&json).unwrap(),
                list
            );
            assert_eq!(format!("{list:?}"), format!("{v:?}"));
            let hash = |x: &dyn Fn(&mut std::collections::hash_map::DefaultHasher)| {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                x(&mut h);
                h.finish()
            };
            assert_eq!(hash(&|h| list.hash(h)), hash(&|h| v.hash(h)));
        }
        // Lists of different lengths differ, even where their first items agree.
        let a = CopyList::<u8, 4>::from([7u8, 8].into_iter().collect::<ArrayVec<u8, 4>>());
        let b = CopyList::<u8, 4>::from([7u8].into_iter().collect::<ArrayVec<u8, 4>>());
        assert_ne!(a, b);
        assert_eq!(b, CopyList::from(ArrayVec::from_iter([7u8])));
        assert_eq!(CopyList::<u8, 4>::from([7u8, 8]), a);
        assert!(CopyList::<u8, 4>::from([0u8; 0]).is_empty());
        assert_eq!(CopyList::<u8, 4>::from_slice(&[7, 8]), Some(a));
        assert_eq!(CopyList::<u8, 2>::from_slice(&[1, 2, 3]), None);
        // More items than it holds: refused, as an ArrayVec refuses them.
        assert!(serde_json::from_str::<CopyList<u8, 2>>("[1,2,3]").is_err());
        assert!(serde_json::from_str::<ArrayVec<u8, 2>>("[1,2,3]").is_err());
    }
}
