//! [`NameIndex`]: component names (a card's code, a tile's id) to their index, for the
//! readers of notation.
//!
//! Notation names components by their data ids; comparing a word with every name in turn was
//! most of a replay's parse time, so a parser builds one index per kind of component, once,
//! and looks names up. Names of up to fifteen bytes (all of today's) are keys packed into one
//! integer ([`key`]); their index is a table found when the index is built in which every
//! name has a slot of its own (a perfect hash: one multiplication picks the slot, one
//! comparison confirms the name), less work than a general hash map's probing, on a path
//! that looks a name up in most entries of a replay.

use super::{key, word_key, NO_KEY};
use rustc_hash::FxHashMap;

/// Names to their index in the list they were given in.
#[derive(Debug)]
pub struct NameIndex {
    /// Each slot: one more than the index of the name whose key lands there, 0 for none
    /// (`u16`: the 256th name is 256).
    slots: Box<[u16]>,
    /// The key of the name of each index (`NO_KEY` for a long name or a repeat).
    keys: Box<[u128]>,
    /// The odd multiplier and the shift that put every name in a slot of its own.
    mul: u64,
    shift: u32,
    /// Names longer than a packed key, by hash (no component has one today).
    long: FxHashMap<Box<str>, u8>,
    /// Every packed key by hash, instead of the table, for names no table parts (two keys
    /// whose halves fold to the same word: no multiplier tells them apart). Empty otherwise.
    clashing: FxHashMap<u128, u8>,
}

impl Default for NameIndex {
    fn default() -> NameIndex {
        NameIndex::new([])
    }
}

/// `k`'s two halves folded into one word (the high half holds the length byte and any bytes
/// past the eighth).
#[inline(always)]
fn fold(k: u128) -> u64 {
    k as u64 ^ (k >> 64) as u64
}

/// The slot of `k` in a table of `64 - shift` bits: its fold spread by an odd multiplier,
/// the top bits.
#[inline(always)]
fn slot(k: u128, mul: u64, shift: u32) -> usize {
    (fold(k).wrapping_mul(mul) >> shift) as usize
}

/// The largest table tried: 2^16 slots part any 256 names with nearly every multiplier, so
/// this is never reached by names whose folds differ.
const MAX_BITS: u32 = 20;

/// The `n`-th multiplier tried (splitmix64, made odd): a fixed sequence, so an index is
/// built the same way every time.
fn multiplier(n: u64) -> u64 {
    let mut z = n.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) | 1
}

impl NameIndex {
    /// The index of names in order: the `i`-th name is `i` (up to 256 names). A repeated name
    /// keeps its first index, as a scan from the front would find it.
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> NameIndex {
        let mut keys = Vec::new();
        let mut long = FxHashMap::default();
        let mut seen = FxHashMap::default();
        for (i, name) in names.into_iter().enumerate() {
            let Ok(i) = u8::try_from(i) else { break };
            let k = match key(name) {
                Some(k) if seen.insert(k, i).is_none() => k,
                Some(_) => NO_KEY,
                None => {
                    long.entry(name.into()).or_insert(i);
                    NO_KEY
                }
            };
            keys.push(k);
        }
        let packed: Vec<(usize, u128)> = keys
            .iter()
            .copied()
            .enumerate()
            .filter(|&(_, k)| k != NO_KEY)
            .collect();
        // At least eight slots a name: a multiplier that parts them all is then found in a
        // few tries (the chance that one does is about e^(-n/16)); after 64 failures the
        // table doubles. From 2^16 slots (at most 256 names) nearly every multiplier works.
        let mut bits = (packed.len().max(1) * 8)
            .next_power_of_two()
            .trailing_zeros();
        let mut folds: Vec<u64> = packed.iter().map(|&(_, k)| fold(k)).collect();
        folds.sort_unstable();
        folds.dedup();
        let mut tries = 0u64;
        // Keys whose folds differ are parted by some table (an odd multiplier is a bijection
        // of words, so at 64 bits every one parts them); two that fold alike never are.
        while folds.len() == packed.len() && bits <= MAX_BITS {
            let (mul, shift) = (multiplier(tries), 64 - bits);
            let mut slots = vec![0u16; 1 << bits];
            let parted = packed.iter().all(|&(i, k)| {
                let s = &mut slots[slot(k, mul, shift)];
                let free = *s == 0;
                *s = i as u16 + 1;
                free
            });
            if parted {
                return NameIndex {
                    slots: slots.into(),
                    keys: keys.into(),
                    mul,
                    shift,
                    long,
                    clashing: FxHashMap::default(),
                };
            }
            tries += 1;
            if tries.is_multiple_of(64) {
                bits += 1;
            }
        }
        // No table: every packed key by hash (`get` finds no slot in an empty table).
        NameIndex {
            slots: Box::new([]),
            keys: keys.into(),
            mul: 1,
            shift: 63,
            long,
            clashing: packed.iter().map(|&(i, k)| (k, i as u8)).collect(),
        }
    }

    /// The index of `name`: its key from [`word_key`]'s loads, its slot by one
    /// multiplication, the name there confirmed by one comparison of keys.
    #[inline(always)]
    pub fn get(&self, name: &str) -> Option<u8> {
        let k = word_key(name);
        if k == NO_KEY {
            return self.long.get(name).copied();
        }
        let Some(&s) = self.slots.get(slot(k, self.mul, self.shift)) else {
            return self.clashing.get(&k).copied();
        };
        let i = usize::from(s.checked_sub(1)?);
        // The index is below 256: it came from a `u8`.
        (self.keys.get(i) == Some(&k)).then_some(i as u8)
    }
}

/// Codes of one capital letter and a number (`A7`, `B16`, `X`: cards, books, tiles) to their
/// index in the list they were given in, by a table with a slot for every letter and number
/// up to 99: no key to build, no hash, one load. Where a name is not of that form, the
/// [`NameIndex`] of the same names answers instead.
#[derive(Debug)]
pub struct CodeIndex {
    /// Slot `letter * 101 + n`, `n` 0 for the letter alone and the number plus one otherwise:
    /// one more than the code's index, 0 for none. Empty when some name is not such a code.
    table: Box<[u8]>,
    names: NameIndex,
}

/// The slot of a code, `None` for text of another form (a number with a leading zero is
/// not a code: the table holds one spelling of each).
#[inline(always)]
fn code_slot(s: &[u8]) -> Option<usize> {
    let letter = |l: u8| usize::from(l - b'A') * 101;
    let digit = |d: u8| usize::from(d - b'0');
    Some(match *s {
        [l @ b'A'..=b'Z'] => letter(l),
        [l @ b'A'..=b'Z', d @ b'0'..=b'9'] => letter(l) + 1 + digit(d),
        [l @ b'A'..=b'Z', t @ b'1'..=b'9', d @ b'0'..=b'9'] => {
            letter(l) + 1 + 10 * digit(t) + digit(d)
        }
        _ => return None,
    })
}

impl CodeIndex {
    /// The index of `names` in order (up to 255 of them; a repeated name keeps its first).
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str> + Clone) -> CodeIndex {
        let mut table = vec![0u8; 26 * 101];
        let mut all_codes = true;
        for (i, name) in names.clone().into_iter().enumerate() {
            match (code_slot(name.as_bytes()), u8::try_from(i + 1)) {
                (Some(slot), Ok(v)) => {
                    if table[slot] == 0 {
                        table[slot] = v;
                    }
                }
                _ => all_codes = false,
            }
        }
        CodeIndex {
            table: if all_codes {
                table.into()
            } else {
                Box::new([])
            },
            names: NameIndex::new(names),
        }
    }

    /// Whether the table answers (every name is a code), which [`CodeIndex::read_prefix`]
    /// needs.
    pub fn by_table(&self) -> bool {
        !self.table.is_empty()
    }

    /// The code at the start of `text` (a letter and the digits after it): its index and
    /// length. `None` when there is none or it names nothing, and always when the names are not
    /// all codes: a reader by codes then leaves the text to its full parser.
    #[inline(always)]
    pub fn read_prefix(&self, text: &[u8]) -> Option<(u8, usize)> {
        let n = match *text {
            [_, b'0'..=b'9', b'0'..=b'9', ..] => 3,
            [_, b'0'..=b'9', ..] => 2,
            _ => 1,
        };
        if text.get(n).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        let i = self.table.get(code_slot(text.get(..n)?)?)?.checked_sub(1)?;
        Some((i, n))
    }

    /// The index of `name`.
    #[inline(always)]
    pub fn get(&self, name: &str) -> Option<u8> {
        if self.table.is_empty() {
            return self.names.get(name);
        }
        self.table.get(code_slot(name.as_bytes())?)?.checked_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_index_finds_each_code_and_nothing_else() {
        let codes = ["A1", "A9", "B16", "X", "A1", "Z99", "C0"];
        let ix = CodeIndex::new(codes);
        assert!(
            !ix.table.is_empty(),
            "every name is a code: the table answers"
        );
        assert_eq!(ix.get("A1"), Some(0), "the first of a repeated code");
        for (i, code) in codes.iter().enumerate().filter(|&(i, _)| i != 4) {
            assert_eq!(ix.get(code), Some(i as u8), "{code}");
        }
        for absent in [
            "", "A", "A01", "A2", "B1", "B160", "x", "a1", "A 1", "Z9", "C00", "X0",
        ] {
            assert_eq!(ix.get(absent), None, "{absent:?}");
        }
        // A name of another form: the name index answers for every name.
        let names = ["A1", "T-8", "B16"];
        let ix = CodeIndex::new(names);
        assert!(ix.table.is_empty());
        for (i, name) in names.iter().enumerate() {
            assert_eq!(ix.get(name), Some(i as u8), "{name}");
        }
        assert_eq!(ix.get("A2"), None);
        assert_eq!(
            ix.read_prefix(b"A1,"),
            None,
            "no table: nothing read by prefix"
        );
    }

    #[test]
    fn a_code_is_read_from_the_start_of_a_text_up_to_its_last_digit() {
        let ix = CodeIndex::new(["A1", "B16", "X", "C10"]);
        assert_eq!(ix.read_prefix(b"A1"), Some((0, 2)));
        assert_eq!(ix.read_prefix(b"A1@3"), Some((0, 2)));
        assert_eq!(ix.read_prefix(b"B16,A1"), Some((1, 3)));
        assert_eq!(ix.read_prefix(b"X@1"), Some((2, 1)));
        assert_eq!(ix.read_prefix(b"C10 "), Some((3, 3)));
        for absent in [
            &b""[..],
            b"A",
            b"A11",
            b"B160",
            b"B1",
            b"C01",
            b"X1",
            b"x",
            b"@A1",
            b"A1x",
        ] {
            let got = ix.read_prefix(absent);
            // "A1x": the code is A1 and the caller judges the byte after it.
            if absent == b"A1x" {
                assert_eq!(got, Some((0, 2)));
            } else {
                assert_eq!(got, None, "{:?}", String::from_utf8_lossy(absent));
            }
        }
    }

    #[test]
    fn a_name_index_finds_each_name_at_its_position_and_nothing_else() {
        let ix = NameIndex::new(["A1", "B2", "A1", "C3"]);
        assert_eq!(ix.get("A1"), Some(0), "the first of a repeated name");
        assert_eq!(ix.get("B2"), Some(1));
        assert_eq!(ix.get("C3"), Some(3));
        assert_eq!(ix.get("a1"), None);
        assert_eq!(ix.get(""), None);
        // Packed and long names, and names that differ only in length or trailing bytes.
        let names = [
            "",
            "a",
            "a\0",
            "fifteen-bytes-x",
            "sixteen-bytes-xy",
            "sixteen-bytes-xz",
        ];
        let ix = NameIndex::new(names);
        for (i, name) in names.iter().enumerate() {
            assert_eq!(ix.get(name), Some(i as u8), "{name:?}");
        }
        for absent in [
            "\0",
            "a\0\0",
            "fifteen-bytes-",
            "sixteen-bytes-x",
            "sixteen-bytes-xyz",
        ] {
            assert_eq!(ix.get(absent), None, "{absent:?}");
        }
    }

    /// Two names whose keys' halves fold to the same word (bytes 0–6 and 8–14 swapped, the
    /// eighth equal to the length's byte there) are parted by no table: the index keeps them
    /// by hash, and still finds each and nothing else.
    #[test]
    fn names_no_table_parts_are_found_by_hash() {
        let (a, b) = ("abcdefg\x0fhijklmn", "hijklmn\x0fabcdefg");
        assert_eq!(fold(key(a).unwrap()), fold(key(b).unwrap()));
        let ix = NameIndex::new([a, "x", b]);
        assert!(ix.slots.is_empty());
        assert_eq!(ix.get(a), Some(0));
        assert_eq!(ix.get("x"), Some(1));
        assert_eq!(ix.get(b), Some(2));
        assert_eq!(ix.get("y"), None);
    }

    /// Every index of random names (up to 256) finds each name at its first
    /// position and no other word, whatever the slots its keys land in.
    #[test]
    fn random_name_lists_are_indexed_exactly() {
        let mut x = 99u64;
        let mut next = move || {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) as usize
        };
        for n in [0, 1, 2, 9, 30, 64, 120, 200, 256] {
            let names: Vec<String> = (0..n)
                .map(|_| {
                    let len = 1 + next() % 5;
                    (0..len)
                        .map(|_| char::from(b"AB12x-"[next() % 6]))
                        .collect()
                })
                .collect();
            let ix = NameIndex::new(names.iter().map(String::as_str));
            for name in &names {
                let first = names.iter().position(|m| m == name).map(|i| i as u8);
                assert_eq!(ix.get(name), first, "{name:?} among {n}");
            }
            for _ in 0..200 {
                let w: String = (0..next() % 7)
                    .map(|_| char::from(b"AB12x-"[next() % 6]))
                    .collect();
                let want = names.iter().position(|m| *m == w).map(|i| i as u8);
                assert_eq!(ix.get(&w), want, "{w:?}");
            }
        }
    }
}
