//! [`ShortNames`]: a closed list of short names (an enum's words in notation: goods, units,
//! clans) read without a jump on which name the text is.
//!
//! A `match` on a string tests its length with a jump through a table, then its bytes: in a
//! replay the word differs from entry to entry (which unit, which good), so the processor
//! guesses that jump wrong about as often as not, and a wrong guess costs more than the whole
//! comparison. Here a name of up to twelve bytes is three overlapping four-byte words (at its
//! start, at byte 4 or its last four, and at its end), which together cover every byte; its
//! first and last bytes and its length pick the one slot its name can be in (a perfect hash
//! found when the table is built, at compile time), and the three words and the
//! length are compared with that slot's all at once. What branches are left ask whether the
//! text has a name's length at all (1 to 12 bytes; 4 or more) and whether the name was found,
//! which a replay of valid text answers the same way nearly every time.

/// At most this many bytes in a name.
const MAX_LEN: usize = 12;

const SLOT_BITS: u32 = 6;
const SLOTS: usize = 1 << SLOT_BITS;

/// A closed list of names, each up to twelve bytes, to their index in the list. Built by
/// [`ShortNames::new`] in a `static`: a name too long, a repeat, or a list no slot rule parts
/// stops the build.
#[derive(Debug)]
pub struct ShortNames {
    slots: [Slot; SLOTS],
    /// The multiplier of [`slot`] under which every name has a slot of its own.
    mul: u32,
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    words: [u32; 3],
    /// 0: no name here.
    len: u8,
    index: u8,
}

const EMPTY: Slot = Slot {
    words: [0; 3],
    len: 0,
    index: 0,
};

/// The three words of a name of 1 to `MAX_LEN` bytes (shorter than four: its bytes, padded
/// with zeros, three times). Two names of the same length have the same words only if they
/// are the same name.
#[inline(always)]
const fn words(s: &[u8]) -> [u32; 3] {
    let n = s.len();
    if n >= 4 {
        let mid = if n >= 8 { 4 } else { n - 4 };
        [word_at(s, 0), word_at(s, mid), word_at(s, n - 4)]
    } else {
        let w = byte_at(s, 0) | byte_at(s, 1) << 8 | byte_at(s, 2) << 16;
        [w, w, w]
    }
}

/// The four bytes of `s` from `i` as one word.
#[inline(always)]
const fn word_at(s: &[u8], i: usize) -> u32 {
    // One load (a chunk, not four bytes each checked against the length).
    match s.split_at(i).1.first_chunk::<4>() {
        Some(w) => u32::from_le_bytes(*w),
        None => 0,
    }
}

/// Byte `i` of `s`, 0 past its end.
#[inline(always)]
const fn byte_at(s: &[u8], i: usize) -> u32 {
    if i < s.len() {
        s[i] as u32
    } else {
        0
    }
}

/// The slot of a name by its first and last bytes and its length: those three packed in one
/// word, spread by an odd multiplier, the top six bits.
#[inline(always)]
const fn slot(first: u8, last: u8, len: usize, mul: u32) -> usize {
    let key = first as u32 | (last as u32) << 8 | (len as u32) << 16;
    (key.wrapping_mul(mul) >> (32 - SLOT_BITS)) as usize
}

impl ShortNames {
    /// The table of `names` (index = position in the list). Panics (at compile time, in a
    /// `static`) on an empty or too long name, a repeat, more than 64 names, or names that no
    /// multiplier of 4096 tried gives slots of their own.
    pub const fn new(names: &[&str]) -> ShortNames {
        assert!(
            names.len() <= SLOTS,
            "too many names for a ShortNames table"
        );
        let mut i = 0;
        while i < names.len() {
            let n = names[i].len();
            assert!(
                n >= 1 && n <= MAX_LEN,
                "a name is empty or too long for ShortNames"
            );
            i += 1;
        }
        // Odd multipliers in a fixed sequence (the golden ratio's steps), the first that
        // parts the names.
        let mut n: u32 = 0;
        while n < 4096 {
            let mul = n.wrapping_mul(0x9e37_79b9) | 1;
            if let Some(slots) = Self::place(names, mul) {
                return ShortNames { slots, mul };
            }
            n += 1;
        }
        panic!("no slot rule parts these names (or a name is repeated)");
    }

    /// Every name in its slot under `mul`, or `None` when two share one.
    const fn place(names: &[&str], mul: u32) -> Option<[Slot; SLOTS]> {
        let mut slots = [EMPTY; SLOTS];
        let mut i = 0;
        while i < names.len() {
            let b = names[i].as_bytes();
            let at = slot(b[0], b[b.len() - 1], b.len(), mul);
            if slots[at].len != 0 {
                return None;
            }
            slots[at] = Slot {
                words: words(b),
                len: b.len() as u8,
                index: i as u8,
            };
            i += 1;
        }
        Some(slots)
    }

    /// The index of the name `s`, or `None` when it is none of them.
    #[inline(always)]
    pub fn get(&self, s: &[u8]) -> Option<usize> {
        let n = s.len();
        let (Some(&first), Some(&last)) = (s.first(), s.last()) else {
            return None;
        };
        if n > MAX_LEN {
            return None;
        }
        let e = &self.slots[slot(first, last, n, self.mul)];
        let w = words(s);
        // One test of everything: the bits of every difference together.
        let diff = (e.words[0] ^ w[0]) | (e.words[1] ^ w[1]) | (e.words[2] ^ w[2]);
        let same = (diff == 0) & (usize::from(e.len) == n);
        same.then_some(usize::from(e.index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static GOODS: ShortNames =
        ShortNames::new(&["wool", "milk", "grain", "cheese", "bread", "whisky"]);
    /// Names of every length a table takes, sharing first bytes, last bytes and lengths.
    const NAMES: [&str; 11] = [
        "a",
        "ab",
        "abc",
        "abcd",
        "abcde",
        "abcdefgh",
        "abcdefghi",
        "abcdefghijkl",
        "cow",
        "distillery",
        "woodcutter",
    ];
    static MIXED: ShortNames = ShortNames::new(&NAMES);

    /// Every name reads as its index; every other text, near misses first, as none.
    #[test]
    fn names_read_as_their_index_and_nothing_else_does() {
        let names = NAMES;
        for (i, n) in names.iter().enumerate() {
            assert_eq!(MIXED.get(n.as_bytes()), Some(i), "{n}");
            // Each byte changed, a byte more and a byte fewer: none of these is a name.
            for at in 0..n.len() {
                let mut b = n.as_bytes().to_vec();
                b[at] ^= 0x20;
                assert_eq!(MIXED.get(&b), None, "{n} with byte {at} changed");
                let mut b = n.as_bytes().to_vec();
                b[at] = 0;
                assert_eq!(MIXED.get(&b), None, "{n} with byte {at} zero");
            }
            let longer = format!("{n}x");
            if !names.contains(&longer.as_str()) {
                assert_eq!(MIXED.get(longer.as_bytes()), None, "{longer}");
            }
            let shorter = &n[..n.len() - 1];
            if !names.contains(&shorter) {
                assert_eq!(MIXED.get(shorter.as_bytes()), None, "{shorter}");
            }
        }
        for other in [
            "",
            "abcdefghijklm",
            "woodcutters",
            "distiller",
            "co",
            "cowx",
            "c\0w",
        ] {
            assert_eq!(MIXED.get(other.as_bytes()), None, "{other:?}");
        }
        assert_eq!(GOODS.get(b"whisky"), Some(5));
        assert_eq!(GOODS.get(b"wool"), Some(0));
        assert_eq!(GOODS.get(b"whiskey"), None);
        assert_eq!(GOODS.get(b"Wool"), None);
    }
}
