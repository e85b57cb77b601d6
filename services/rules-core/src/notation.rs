//! Move notation: the short, stable text that logs, exports and the API carry.
//!
//! Stored games are text, not Rust values, so a refactor of a game's types can never make an
//! old log unreadable. Every game documents its notation in `schema/notation/<game>.md` and
//! tests `parse(format(m)) == m` for every legal move.

use crate::error::NotationError;
use crate::game::Game;
use arrayvec::ArrayVec;

mod agree;
mod names;
mod scan;
mod short_names;

pub use agree::check_readings;
pub use names::{CodeIndex, NameIndex};
pub use scan::{number, space_at, Cursor, Scan};
pub use short_names::ShortNames;

/// A game's notation. `parse_*` accept everything the game's notation allows and explain
/// what they refuse; `read_*` are their fast readings, for text in exactly the form `format_*`
/// write it: `Some` only where `parse_*` give `Ok` with the same value, `None` for anything
/// else. What applies an entry from its text ([`crate::erased::apply_entry`]: replay and the
/// store) tries `read_*` first and `parse_*` for what it leaves. The two are checked against
/// each other on recorded games and on mutations of their text by [`check_readings`].
pub trait Notation: Game {
    fn format_move(m: &Self::Move) -> String;
    fn parse_move(text: &str) -> Result<Self::Move, NotationError>;
    fn format_chance(c: &Self::Chance) -> String;
    fn parse_chance(text: &str) -> Result<Self::Chance, NotationError>;
    /// The fast reading of a move in canonical form (see the trait): `None` by default.
    fn read_move(_text: &str) -> Option<Self::Move> {
        None
    }
    /// The fast reading of a chance outcome in canonical form: `None` by default.
    fn read_chance(_text: &str) -> Option<Self::Chance> {
        None
    }
    /// [`Notation::read_chance`] into `slot`, where the caller will read it: what the replay
    /// calls. A game whose outcomes hold lists builds them in the slot (an outcome built in
    /// the reader and then moved out to the caller is copied in wide words over the narrow
    /// stores just made to it, a stall the processor cannot forward); it must leave in
    /// `slot` exactly what `read_chance` returns.
    #[inline(always)]
    fn read_chance_into(text: &str, slot: &mut Option<Self::Chance>) {
        *slot = Self::read_chance(text);
    }
}

/// The words of an entry, split at single spaces, on the stack; `None` when it has more than
/// `N`. An empty word (two spaces, a leading or trailing space) is kept for the caller to
/// refuse. Replay parses every entry of every game it rebuilds, so this is on the hottest
/// path there is: see [`split_words`] for the form without a copy.
#[inline]
pub fn words<const N: usize>(text: &str) -> Option<ArrayVec<&str, N>> {
    let mut buf = [""; N];
    let n = split_words(text, &mut buf)?;
    Some(buf[..n].iter().copied().collect())
}

/// [`words`] into the caller's array: how many words `text` has, `None` when more than `N`.
/// No allocation, and nothing returned but a count: an `Option<ArrayVec>` of words returned by
/// value cost a copy of its 136 bytes and a stalled reload per entry. Each space is found
/// eight bytes at a time ([`space_at`]).
#[inline(always)]
pub fn split_words<'a, const N: usize>(text: &'a str, out: &mut [&'a str; N]) -> Option<usize> {
    let mut n = 0;
    let mut rest = text;
    loop {
        let at = space_at(rest.as_bytes());
        // `at` is at an ASCII space or the end: a char boundary, so this is never `None`.
        let (word, after) = rest.split_at_checked(at)?;
        *out.get_mut(n)? = word;
        n += 1;
        match after.get(1..) {
            Some(next) => rest = next,
            None => return Some(n),
        }
    }
}

/// The pieces of `text` between the bytes `sep` (an ASCII separator: `,` in a list), exactly
/// as `text.split(sep as char)` gives them: empty pieces kept, one empty piece for an empty
/// text. A byte loop: `str::split`'s searcher cost some forty instructions a call on the few
/// bytes of a list in a log entry (and finding the separator eight bytes at a time, as
/// [`Scan`] finds spaces, was slower still on items of two or three bytes).
#[inline]
pub fn pieces(text: &str, sep: u8) -> Pieces<'_> {
    Pieces {
        rest: Some(text),
        sep,
    }
}

/// The items of a list in an entry separated by `sep` (`-`: none), each read by `f`: `None`
/// when an item is not read or there are more than `N`. What the games' readings of notation
/// share for their lists.
#[inline]
pub fn list<T, const N: usize>(
    text: &str,
    sep: u8,
    f: impl Fn(&str) -> Option<T>,
) -> Option<ArrayVec<T, N>> {
    let mut out = ArrayVec::new();
    if text != "-" {
        for item in pieces(text, sep) {
            out.try_push(f(item)?).ok()?;
        }
    }
    Some(out)
}

/// The value of a `key=value` word, `None` for any other word.
#[inline]
pub fn field<'a>(word: &'a str, key: &str) -> Option<&'a str> {
    word.strip_prefix(key)?.strip_prefix('=')
}

/// `text` split at the first byte `sep` (an ASCII separator), as `text.split_once(sep as
/// char)` gives it, by a byte loop (see [`pieces`]).
#[inline]
pub fn cut(text: &str, sep: u8) -> Option<(&str, &str)> {
    let i = text.bytes().position(|b| b == sep)?;
    Some((text.get(..i)?, text.get(i + 1..)?))
}

/// The iterator of [`pieces`].
#[derive(Debug, Clone)]
pub struct Pieces<'a> {
    rest: Option<&'a str>,
    sep: u8,
}

impl<'a> Iterator for Pieces<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        match rest.bytes().position(|b| b == self.sep) {
            // `get`, not indexing: with a non-ASCII `sep` the byte could fall inside a
            // character, and the rest is then given whole rather than cut there.
            Some(i) => match (rest.get(..i), rest.get(i + 1..)) {
                (Some(piece), after) => {
                    self.rest = after;
                    Some(piece)
                }
                (None, _) => self.rest.take(),
            },
            None => self.rest.take(),
        }
    }
}

/// The longest name kept as a packed key (the sixteenth byte holds the length).
const PACKED: usize = 15;

/// A word of up to [`PACKED`] bytes as one integer, its bytes and its length (so `a` and
/// `a\0` differ); `None` for a longer word.
pub const fn key(word: &str) -> Option<u128> {
    let b = word.as_bytes();
    if b.len() > PACKED {
        return None;
    }
    let mut k = (b.len() as u128) << (8 * PACKED);
    let mut i = 0;
    while i < b.len() {
        k |= (b[i] as u128) << (8 * i);
        i += 1;
    }
    Some(k)
}

/// The [`key`] of a word the code names, for a `const` that a `match` compares keys with:
/// a word too long for a key fails the build.
pub const fn tag(word: &str) -> u128 {
    match key(word) {
        Some(k) => k,
        None => panic!("a tag has at most 15 bytes"),
    }
}

/// The [`key`] of a word read from input, [`NO_KEY`] for one too long: parsers match it
/// against [`tag`]s (one integer comparison each, where a `&str` pattern is a length check
/// and a `memcmp`).
#[inline]
pub fn word_key(word: &str) -> u128 {
    // [`key`]'s value from two overlapping loads instead of a loop over the bytes: a byte
    // both loads hold lands twice in the same place, and `|` keeps it as it is. The bytes
    // are put together in the narrowest integer that holds them: a `u128` shifted by a
    // variable amount is a branchy sequence of instructions, a `u32` or `u64` one.
    let b = word.as_bytes();
    let n = b.len();
    let len = (n as u128) << (8 * PACKED);
    let le4 = |i: usize| {
        b.get(i..i + 4)
            .and_then(|s| <[u8; 4]>::try_from(s).ok())
            .map_or(0, |a| u64::from(u32::from_le_bytes(a)))
    };
    let le8 = |i: usize| {
        b.get(i..i + 8)
            .and_then(|s| <[u8; 8]>::try_from(s).ok())
            .map_or(0, u64::from_le_bytes)
    };
    let at = |i: usize| b.get(i).map_or(0, |&x| u32::from(x)) << (8 * (i & 3));
    match n {
        0 => len,
        // Overlapping reads again: the middle byte of three, or the second of two twice.
        1..=3 => len | u128::from(at(0) | at(n / 2) | at(n - 1)),
        4..=8 => len | u128::from(le4(0) | le4(n - 4) << (8 * (n - 4))),
        9..=PACKED => {
            // The second load's place, 8 to 56 bits up: its low part joins the first word,
            // what it shifts past 64 bits makes the second.
            let up = 8 * (n - 8);
            let (first, last) = (le8(0), le8(n - 8));
            len | u128::from(first | last << up) | u128::from(last >> (64 - up)) << 64
        }
        _ => NO_KEY,
    }
}

/// The key of no word: its length byte (255) is longer than any key's.
pub const NO_KEY: u128 = u128::MAX;

/// The longest word a [`short_key`] holds (the eighth byte holds the length).
const SHORT: usize = 7;

/// A word of up to seven bytes as one `u64`, its bytes and its length, as [`key`] packs longer
/// ones: the first word of an entry (`expand`, `sell`, `upgrade`) picks a parser's arm, and a
/// 64-bit key is built and compared in half the instructions. [`NO_SHORT_KEY`] for a longer
/// word.
#[inline]
pub fn short_key(word: &str) -> u64 {
    let b = word.as_bytes();
    let n = b.len();
    let len = (n as u64) << (8 * SHORT);
    let at = |i: usize| b.get(i).map_or(0, |&x| u64::from(x)) << (8 * i);
    let le4 = |i: usize| {
        b.get(i..i + 4)
            .and_then(|s| <[u8; 4]>::try_from(s).ok())
            .map_or(0, |a| u64::from(u32::from_le_bytes(a)))
    };
    match n {
        // Overlapping reads: a byte read twice lands twice in the same place.
        0..=3 => len | at(0) | at(n / 2) | at(n.saturating_sub(1)),
        4..=SHORT => len | le4(0) | le4(n - 4) << (8 * (n - 4)),
        _ => NO_SHORT_KEY,
    }
}

/// The [`short_key`] of a word the code names, for a `const` a `match` compares keys with: a
/// word longer than seven bytes fails the build.
pub const fn short_tag(word: &str) -> u64 {
    let b = word.as_bytes();
    if b.len() > SHORT {
        panic!("a short tag has at most 7 bytes");
    }
    let mut k = (b.len() as u64) << (8 * SHORT);
    let mut i = 0;
    while i < b.len() {
        k |= (b[i] as u64) << (8 * i);
        i += 1;
    }
    k
}

/// The short key of no word: its length byte (255) is longer than any short key's.
pub const NO_SHORT_KEY: u64 = u64::MAX;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_what_str_split_gives() {
        for text in [
            "", ",", "a", "a,b", ",a", "a,", "a,,b", "12,t,3", "é,ü,", ",,,",
        ] {
            let ours: Vec<&str> = pieces(text, b',').collect();
            let std: Vec<&str> = text.split(',').collect();
            assert_eq!(ours, std, "{text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn pieces_match_str_split_on_any_text(text in "[a,é1 ]{0,40}") {
            let ours: Vec<&str> = pieces(&text, b',').collect();
            let std: Vec<&str> = text.split(',').collect();
            proptest::prop_assert_eq!(ours, std);
            proptest::prop_assert_eq!(cut(&text, b','), text.split_once(','));
        }
    }

    #[test]
    fn words_split_at_single_spaces_and_keep_empty_words() {
        assert_eq!(
            words::<4>("plan A1 3").unwrap().as_slice(),
            ["plan", "A1", "3"]
        );
        assert_eq!(words::<4>("ready").unwrap().as_slice(), ["ready"]);
        assert_eq!(words::<4>("").unwrap().as_slice(), [""]);
        assert_eq!(words::<4>("a  b").unwrap().as_slice(), ["a", "", "b"]);
        assert_eq!(words::<4>(" a ").unwrap().as_slice(), ["", "a", ""]);
        assert_eq!(words::<3>("a b c").unwrap().len(), 3);
        assert!(words::<3>("a b c d").is_none());
        assert_eq!(
            words::<2>("é ü").unwrap().as_slice(),
            ["é", "ü"],
            "a multi-byte letter is never cut"
        );
    }

    #[test]
    fn words_agree_with_splitting_at_spaces_for_every_length_and_byte() {
        // Spaces at every offset, beside every other kind of byte (a space's neighbours in
        // value, `!` and `\x1f`, multi-byte letters, a no-break space).
        let alphabet = [" ", "a", "!", "\x1f", "\u{7f}", "é", "  ", "\u{a0}"];
        let mut x = 7u32;
        for len in 0..40 {
            for _ in 0..60 {
                let text: String = (0..len)
                    .map(|_| {
                        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        alphabet[(x >> 16) as usize % alphabet.len()]
                    })
                    .collect();
                let want: Vec<&str> = text.split(' ').collect();
                match words::<64>(&text) {
                    Some(got) => assert_eq!(got.as_slice(), want, "{text:?}"),
                    None => assert!(want.len() > 64),
                }
                assert_eq!(words::<3>(&text).is_some(), want.len() <= 3, "{text:?}");
                let mut buf = [""; 5];
                match split_words(&text, &mut buf) {
                    Some(n) => assert_eq!(&buf[..n], want, "{text:?}"),
                    None => assert!(want.len() > 5, "{text:?}"),
                }
            }
        }
    }

    #[test]
    fn short_keys_are_the_tags_of_their_words_and_tell_words_apart() {
        let mut x = 7u32;
        let mut seen = std::collections::HashMap::new();
        for len in 0..=9 {
            for _ in 0..200 {
                let w: String = (0..len)
                    .map(|_| {
                        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        // A few letters and the zero byte, so that words collide often.
                        char::from(b"ab\0"[(x >> 16) as usize % 3])
                    })
                    .collect();
                let k = short_key(&w);
                if len > 7 {
                    assert_eq!(k, NO_SHORT_KEY, "{w:?}");
                    continue;
                }
                assert_eq!(k, short_tag(&w), "{w:?}");
                assert_eq!(*seen.entry(k).or_insert_with(|| w.clone()), w);
            }
        }
    }

    #[test]
    fn word_keys_tell_every_word_apart_and_long_words_match_no_tag() {
        let words = [
            "",
            "a",
            "a\0",
            "\0",
            "ab",
            "ba",
            "fifteen-bytes-x",
            "fifteen-bytes-y",
        ];
        for (i, a) in words.iter().enumerate() {
            assert_eq!(word_key(a), tag(a), "{a:?}");
            for b in &words[i + 1..] {
                assert_ne!(word_key(a), word_key(b), "{a:?} and {b:?}");
            }
        }
        assert_eq!(word_key("sixteen-bytes-xy"), NO_KEY);
        // The loads of `word_key` give the byte loop's key at every length.
        let mut x = 11u32;
        for len in 0..=17 {
            for _ in 0..50 {
                let w: String = (0..len)
                    .map(|_| {
                        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        char::from(b'!' + (x >> 16) as u8 % 90)
                    })
                    .collect();
                assert_eq!(word_key(&w), key(&w).unwrap_or(NO_KEY), "{w:?}");
            }
        }
        assert!(words.iter().all(|w| tag(w) != NO_KEY));
    }
}
