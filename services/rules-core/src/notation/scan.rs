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

/// A cursor over an entry's bytes, for outcomes whose words hold lists (`refill=21,11`,
/// `drift=wool-1,grain+2`): literal parts matched in place and items read up to the byte that
/// ends them, without splitting the text into words and then into pieces first. As strict
/// as [`Scan`]: anything not in canonical form ends the reading with `None`.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    /// The bytes not read yet. Bytes, not `&str`: every step passes over ASCII, and cutting a
    /// `&str` checks for a character boundary each time (a preparation's dozen steps cost
    /// more than its rules).
    rest: &'a [u8],
}

impl<'a> Cursor<'a> {
    #[inline(always)]
    pub fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            rest: text.as_bytes(),
        }
    }

    /// Passes over `lit`, which must come next.
    #[inline(always)]
    pub fn tag(&mut self, lit: &str) -> Option<()> {
        self.rest = self.rest.strip_prefix(lit.as_bytes())?;
        Some(())
    }

    /// Passes over `b` if it comes next.
    #[inline(always)]
    pub fn eat(&mut self, b: u8) -> bool {
        match self.rest {
            [c, rest @ ..] if *c == b => {
                self.rest = rest;
                true
            }
            _ => false,
        }
    }

    /// The bytes up to the first for which `stop` holds (or the end), passed over; for a
    /// name's `parse_bytes`.
    #[inline(always)]
    pub fn until(&mut self, stop: impl Fn(u8) -> bool) -> Option<&'a [u8]> {
        let n = self
            .rest
            .iter()
            .position(|&b| stop(b))
            .unwrap_or(self.rest.len());
        let (w, rest) = self.rest.split_at_checked(n)?;
        self.rest = rest;
        Some(w)
    }

    /// A [`number`] (its digits, up to the first other byte): read from the bytes where they
    /// stand, without cutting the digits off first (the deal and every preparation are mostly
    /// numbers).
    #[inline(always)]
    pub fn number(&mut self) -> Option<u8> {
        let b = self.rest;
        let d = |x: u8| u16::from(x - b'0');
        let (n, len) = match *b {
            [x @ b'1'..=b'9', y @ b'0'..=b'9', z @ b'0'..=b'9', ..] => {
                (100 * d(x) + 10 * d(y) + d(z), 3)
            }
            [x @ b'1'..=b'9', y @ b'0'..=b'9', ..] => (10 * d(x) + d(y), 2),
            [x @ b'0'..=b'9', ..] => (d(x), 1),
            _ => return None,
        };
        // Another digit: longer than a canonical number (or one with a leading zero).
        if b.get(len).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        self.rest = b.get(len..)?;
        u8::try_from(n).ok()
    }

    /// A signed number as `{:+}` writes it (`+2`, `-3`, `+0`), within an `i8`.
    #[inline(always)]
    pub fn signed(&mut self) -> Option<i8> {
        let sign = if self.eat(b'+') {
            1
        } else if self.eat(b'-') {
            -1
        } else {
            return None;
        };
        Some(sign * i8::try_from(self.number()?).ok()?)
    }

    /// Items `item` reads, each but the last followed by `sep`; `-` alone (before a space or
    /// the end) for none, as [`super::list`] reads a list word. `None` when an item is not
    /// read or there are more than `N`.
    #[inline(always)]
    pub fn list<T, const N: usize>(
        &mut self,
        sep: u8,
        item: impl FnMut(&mut Cursor<'a>) -> Option<T>,
    ) -> Option<arrayvec::ArrayVec<T, N>> {
        let mut out = arrayvec::ArrayVec::new();
        self.list_into(sep, &mut out, item)?;
        Some(out)
    }

    /// [`Cursor::list`] pushed onto `out` where it lies (a list inside a value being built:
    /// built apart and then moved in, its narrow stores were read back in wide words).
    #[inline(always)]
    pub fn list_into<T, const N: usize>(
        &mut self,
        sep: u8,
        out: &mut arrayvec::ArrayVec<T, N>,
        mut item: impl FnMut(&mut Cursor<'a>) -> Option<T>,
    ) -> Option<()> {
        if let [b'-', next @ ..] = self.rest {
            if matches!(next.first(), None | Some(b' ')) {
                self.eat(b'-');
                return Some(());
            }
        }
        loop {
            out.try_push(item(self)?).ok()?;
            if !self.eat(sep) {
                return Some(());
            }
        }
    }

    /// Whether the whole text has been read.
    #[inline(always)]
    pub fn end(&self) -> bool {
        self.rest.is_empty()
    }

    /// `v` when the whole text has been read.
    #[inline(always)]
    pub fn done<T>(&self, v: T) -> Option<T> {
        self.end().then_some(v)
    }
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

    /// The cursor reads a number where it stands as [`number`] reads the digits cut off
    /// before it, and leaves the rest after them.
    #[test]
    fn the_cursor_reads_numbers_as_number_does() {
        let mut digits: Vec<String> = (0..1100).map(|n| n.to_string()).collect();
        digits.extend(["00", "01", "007", "010", "0255", ""].map(String::from));
        for d in &digits {
            for tail in ["", ",", "x", " 1", "é"] {
                let text = format!("{d}{tail}");
                let mut c = Cursor::new(&text);
                let got = c.number();
                assert_eq!(got, number(d), "{text:?}");
                if got.is_some() {
                    assert_eq!(c.rest, tail.as_bytes(), "{text:?}");
                }
            }
        }
    }

    /// A list of numbers and a list of signed items, as [`fields`] reads them.
    type Fields = (Vec<u8>, Vec<(String, i8)>);

    /// `refill=…` and `drift=…` words as the cursor reads them.
    fn fields(text: &str) -> Option<Fields> {
        let mut c = Cursor::new(text);
        c.tag("refill=")?;
        let a: arrayvec::ArrayVec<u8, 4> = c.list(b',', Cursor::number)?;
        c.tag(" drift=")?;
        let b: arrayvec::ArrayVec<(String, i8), 4> = c.list(b',', |c| {
            let g = c.until(|b| b == b'+' || b == b'-')?;
            Some((String::from_utf8(g.to_vec()).ok()?, c.signed()?))
        })?;
        c.done((a.to_vec(), b.to_vec()))
    }

    #[test]
    fn the_cursor_reads_canonical_lists_and_nothing_else() {
        let s = |v: &[(&str, i8)]| v.iter().map(|(g, n)| (g.to_string(), *n)).collect();
        assert_eq!(
            fields("refill=21,0 drift=wool-1,x+0"),
            Some((vec![21, 0], s(&[("wool", -1), ("x", 0)])))
        );
        assert_eq!(fields("refill=- drift=-"), Some((vec![], vec![])));
        assert_eq!(
            fields("refill=7 drift=a+127"),
            Some((vec![7], s(&[("a", 127)])))
        );
        for bad in [
            "refill=21,,0 drift=-",
            "refill=21, drift=-",
            "refill=021 drift=-",
            "refill=256 drift=-",
            "refill=1,2,3,4,5 drift=-",
            "refill=-1 drift=-",
            "refill=- drift=-x",
            "refill=-  drift=-",
            "refill=- drift=a+128",
            "refill=- drift=a2",
            "refill=- drift=a+2 ",
            "refill=- drift=a+2,",
            "refill=1 drift=a+2x",
        ] {
            assert_eq!(fields(bad), None, "{bad:?}");
        }
        let mut c = Cursor::new("ab");
        assert!(!c.eat(b'b') && c.eat(b'a') && c.eat(b'b') && c.end());
    }
}
