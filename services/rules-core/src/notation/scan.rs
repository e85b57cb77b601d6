//! A cursor over an entry's words, for the fast readings of notation on the replay path.
//!
//! Every replay parses every entry it rebuilds, and an entry is a few short words: finding a
//! word's end a byte at a time, through iterator adapters, cost more than the rules that then
//! apply the move. [`Scan`] finds each space eight bytes at a time and hands out words as
//! `&str`, refusing any text that is not in the canonical form notation is written in (single
//! spaces, no space at either end), so that a reading built on it can leave every other text
//! to its game's full parser.

/// Bytes that are all spaces, to find a space eight bytes at a time.
const SPACES: u64 = u64::from_le_bytes([b' '; 8]);
const LOW: u64 = u64::from_le_bytes([0x01; 8]);
const HIGH: u64 = u64::from_le_bytes([0x80; 8]);

/// The index of the first space in `b`, or its length when it has none.
#[inline(always)]
pub fn space_at(b: &[u8]) -> usize {
    let mut i = 0;
    while let Some(chunk) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        // A byte equal to a space is a zero byte of `x`; the classic test for a zero byte
        // marks the lowest one exactly (a borrow can only mark bytes above it).
        let x = u64::from_le_bytes(*chunk) ^ SPACES;
        let zero = x.wrapping_sub(LOW) & !x & HIGH;
        if zero != 0 {
            return i + (zero.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let tail = b.get(i..).unwrap_or_default();
    i + tail.iter().position(|&c| c == b' ').unwrap_or(tail.len())
}

/// The words of one entry in canonical form, read in order.
#[derive(Debug, Clone)]
pub struct Scan<'a> {
    /// The text after the words read and the space after them; `None` once the last word
    /// (the one the text ends with) is read.
    rest: Option<&'a str>,
}

impl<'a> Scan<'a> {
    #[inline(always)]
    pub fn new(text: &'a str) -> Scan<'a> {
        Scan { rest: Some(text) }
    }

    /// The next word: the text up to the next space or the end, the space passed over.
    /// `None` after the last word, and for an empty word (two spaces in a row, a space at
    /// either end), which canonical text never has.
    #[inline(always)]
    pub fn word(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        let n = space_at(rest.as_bytes());
        if n == 0 {
            return None;
        }
        // `n` is at an ASCII space or the end: a char boundary, so this is never `None`; and
        // `after` is empty (the last word: nothing follows) or starts with that space.
        let (w, after) = rest.split_at_checked(n)?;
        self.rest = after.get(1..);
        Some(w)
    }

    /// Whether every word has been read (a text that ends in a space never gets here).
    #[inline(always)]
    pub fn end(&self) -> bool {
        self.rest.is_none()
    }

    /// `v` when every word has been read, `None` when any is left.
    #[inline(always)]
    pub fn done<T>(&self, v: T) -> Option<T> {
        self.end().then_some(v)
    }

    /// The next word, which must be the last.
    #[inline(always)]
    pub fn last(&mut self) -> Option<&'a str> {
        let w = self.word()?;
        self.done(w)
    }
}

/// A number in canonical decimal (`0`, or up to three digits without a leading zero) that
/// fits a `u8`. Stricter than the full parsers, which is what a fast reading may be: the
/// text it refuses goes the long way.
#[inline(always)]
pub fn number(w: &str) -> Option<u8> {
    let d = |b: u8| u16::from(b.wrapping_sub(b'0'));
    let n = match *w.as_bytes() {
        [a @ b'0'..=b'9'] => d(a),
        [a @ b'1'..=b'9', b @ b'0'..=b'9'] => 10 * d(a) + d(b),
        [a @ b'1'..=b'9', b @ b'0'..=b'9', c @ b'0'..=b'9'] => 100 * d(a) + 10 * d(b) + d(c),
        _ => return None,
    };
    u8::try_from(n).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_at_finds_the_first_space_at_every_offset() {
        for len in 0..40 {
            for at in 0..=len {
                let mut b = vec![b'x'; len];
                if at < len {
                    b[at] = b' ';
                }
                // Bytes beside a space in value, and spaces after the first.
                for (i, x) in b.iter_mut().enumerate().skip(at + 1) {
                    *x = [b'!', b' ', 0x1f, 0xa0, b'@'][i % 5];
                }
                assert_eq!(space_at(&b), at, "{len} {at}");
            }
        }
    }

    #[test]
    fn a_scan_reads_canonical_words_and_refuses_empty_ones() {
        fn read(t: &str) -> (Vec<&str>, bool) {
            let mut s = Scan::new(t);
            let mut out = Vec::new();
            while let Some(w) = s.word() {
                out.push(w);
            }
            (out, s.end())
        }
        assert_eq!(read("drop c3 G"), (vec!["drop", "c3", "G"], true));
        assert_eq!(
            read("a-very-long-word b"),
            (vec!["a-very-long-word", "b"], true)
        );
        assert_eq!(read("end"), (vec!["end"], true));
        assert_eq!(read(""), (vec![], false));
        assert_eq!(read("a "), (vec!["a"], false), "a trailing space");
        assert_eq!(read(" a"), (vec![], false), "a leading space");
        assert_eq!(read("a  b"), (vec!["a"], false), "two spaces");
        assert_eq!(read("é ü"), (vec!["é", "ü"], true));
        assert_eq!(Scan::new("a b").last(), None);
        assert_eq!(Scan::new("ab").last(), Some("ab"));
    }

    #[test]
    fn numbers_are_canonical_and_fit_a_byte() {
        for n in 0..=255u8 {
            assert_eq!(number(&n.to_string()), Some(n));
        }
        for bad in ["", "256", "999", "01", "00", "1000", "-1", "+1", "1a", " 1"] {
            assert_eq!(number(bad), None, "{bad:?}");
        }
    }
}
