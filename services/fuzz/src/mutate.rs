//! Byte and text mutations: how the driver makes a new input from a corpus entry.
//!
//! Inputs here are mostly text (notation, JSON, CEL, GraphQL), so besides the classic byte
//! operations (bit flips, interesting bytes, deletions, duplications, splicing) there are
//! text-aware ones: change a number, swap two tokens, insert a dictionary token or an awkward
//! character (whitespace, NUL, a bidi override, a multi-byte letter), and nest a stretch in
//! brackets many levels deep. Each new input stacks one to a few operations (havoc).

use crate::rng::Rng;

/// Numbers worth trying wherever a number was.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "8",
    "9",
    "10",
    "15",
    "16",
    "31",
    "32",
    "63",
    "64",
    "99",
    "100",
    "127",
    "128",
    "255",
    "256",
    "1000",
    "32767",
    "32768",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967295",
    "4294967296",
    "9007199254740993",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "00",
    "007",
    "-0",
    "+1",
    "1e9",
    "1.5",
    "0x10",
];

/// Awkward text worth inserting anywhere.
const SPECIAL: &[&str] = &[
    " ", "  ", "\t", "\n", "\r\n", "\0", "\u{202e}", "\u{feff}", "\u{200b}", "é", "ß", "😀",
    "\u{ffff}", "-", "+", ".", ",", ":", ";", "=", "@", "/", "\\", "\"", "'", "`", "{", "}", "[",
    "]", "(", ")", "<", ">", "!", "?", "*", "&", "|", "#", "$", "%", "_", "~", "^",
];

const BRACKETS: &[(&[u8], &[u8])] = &[
    (b"[", b"]"),
    (b"(", b")"),
    (b"{", b"}"),
    (b"{a:", b"}"),
    (b"-(", b")"),
    (b"!", b""),
    (b"[", b",0]"),
];

/// What a mutation may draw on besides the input itself.
pub struct Sources<'a> {
    /// Tokens of the input language (move words, field names, feature names …).
    pub dictionary: &'a [Vec<u8>],
    /// Other inputs, for splicing.
    pub corpus: &'a [Vec<u8>],
    /// Longest input to make.
    pub max_len: usize,
}

/// A new input made from `input` by one to a few stacked operations.
pub fn mutate(input: &[u8], src: &Sources<'_>, rng: &mut Rng) -> Vec<u8> {
    let mut out = input.to_vec();
    let rounds = 1 + rng.small(6);
    for _ in 0..rounds {
        one(&mut out, src, rng);
        if out.len() > src.max_len {
            out.truncate(src.max_len);
        }
    }
    out
}

fn one(data: &mut Vec<u8>, src: &Sources<'_>, rng: &mut Rng) {
    let len = data.len();
    match rng.below(16) {
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            data[i] = *rng
                .pick(&[0u8, 1, 0x7f, 0x80, 0xff, b'0', b'9', b'a', b'z', b' '])
                .unwrap_or(&0);
        }
        2 => {
            let i = rng.below(len + 1);
            data.insert(i, rng.below(256) as u8);
        }
        3 if len > 0 => {
            let a = rng.below(len);
            let n = 1 + rng.small((len - a).min(64));
            data.drain(a..a + n);
        }
        4 if len > 0 => {
            let a = rng.below(len);
            let n = 1 + rng.small((len - a).min(64));
            let chunk = data[a..a + n].to_vec();
            let at = rng.below(len + 1);
            splice_in(data, at, &chunk);
        }
        5 | 6 => change_number(data, rng),
        7 => swap_tokens(data, rng),
        8 if len > 0 => data.truncate(rng.below(len)),
        9 => splice_other(data, src, rng),
        10 | 11 => {
            if let Some(tok) = rng.pick(src.dictionary) {
                let tok = tok.clone();
                if rng.one_in(2) {
                    replace_token(data, &tok, rng);
                } else {
                    let at = token_boundary(data, rng);
                    splice_in(data, at, &tok);
                }
            }
        }
        12 => {
            let s = SPECIAL[rng.below(SPECIAL.len())].as_bytes();
            let at = rng.below(len + 1);
            splice_in(data, at, s);
        }
        13 => nest(data, src.max_len, rng),
        14 if len > 0 => {
            // Repeat a short chunk many times (aliases, list items, entries).
            let a = rng.below(len);
            let n = 1 + rng.small((len - a).min(32));
            let chunk = data[a..a + n].to_vec();
            let times = 2 + rng.small(64);
            let room = src.max_len.saturating_sub(len) / n.max(1);
            let mut rep = Vec::new();
            for _ in 0..times.min(room) {
                rep.extend_from_slice(&chunk);
            }
            splice_in(data, a + n, &rep);
        }
        15 if len > 0 => {
            // Case flip of one ASCII letter.
            let i = rng.below(len);
            if data[i].is_ascii_alphabetic() {
                data[i] ^= 0x20;
            }
        }
        _ => {
            let at = rng.below(len + 1);
            data.insert(at, b' ');
        }
    }
}

fn splice_in(data: &mut Vec<u8>, at: usize, bytes: &[u8]) {
    let at = at.min(data.len());
    data.splice(at..at, bytes.iter().copied());
}

/// Spans of tokens: runs of letters, digits and `_`, or single other characters.
fn tokens(data: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
        if word(data[i]) {
            let start = i;
            while i < data.len() && word(data[i]) {
                i += 1;
            }
            out.push((start, i));
        } else {
            if !data[i].is_ascii_whitespace() {
                out.push((i, i + 1));
            }
            i += 1;
        }
    }
    out
}

fn token_boundary(data: &[u8], rng: &mut Rng) -> usize {
    let t = tokens(data);
    match rng.pick(&t) {
        Some(&(a, b)) => {
            if rng.one_in(2) {
                a
            } else {
                b
            }
        }
        None => data.len(),
    }
}

fn change_number(data: &mut Vec<u8>, rng: &mut Rng) {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < data.len() {
        if data[i].is_ascii_digit() {
            let start = if i > 0 && data[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            while i < data.len() && data[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((start, i));
        } else {
            i += 1;
        }
    }
    let Some(&(a, b)) = rng.pick(&runs) else {
        // No number: put one somewhere.
        let n = NUMBERS[rng.below(NUMBERS.len())].as_bytes();
        let at = token_boundary(data, rng);
        splice_in(data, at, n);
        return;
    };
    let old: i128 = std::str::from_utf8(&data[a..b])
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let new = match rng.below(6) {
        0 => (old + 1).to_string(),
        1 => (old - 1).to_string(),
        2 => (old.saturating_mul(2)).to_string(),
        3 => rng.below(20).to_string(),
        4 => (rng.next_u64() >> rng.below(64)).to_string(),
        _ => NUMBERS[rng.below(NUMBERS.len())].to_string(),
    };
    data.splice(a..b, new.into_bytes());
}

fn swap_tokens(data: &mut Vec<u8>, rng: &mut Rng) {
    let t = tokens(data);
    if t.len() < 2 {
        return;
    }
    let x = rng.below(t.len());
    let y = rng.below(t.len());
    let (p, q) = if t[x].0 <= t[y].0 {
        (t[x], t[y])
    } else {
        (t[y], t[x])
    };
    if p == q || p.1 > q.0 {
        return;
    }
    let mut out = Vec::with_capacity(data.len());
    out.extend_from_slice(&data[..p.0]);
    out.extend_from_slice(&data[q.0..q.1]);
    out.extend_from_slice(&data[p.1..q.0]);
    out.extend_from_slice(&data[p.0..p.1]);
    out.extend_from_slice(&data[q.1..]);
    *data = out;
}

fn replace_token(data: &mut Vec<u8>, with: &[u8], rng: &mut Rng) {
    let t = tokens(data);
    if let Some(&(a, b)) = rng.pick(&t) {
        data.splice(a..b, with.iter().copied());
    } else {
        data.extend_from_slice(with);
    }
}

/// Crossover: a prefix of this input and a suffix of another, or another's chunk inserted.
fn splice_other(data: &mut Vec<u8>, src: &Sources<'_>, rng: &mut Rng) {
    let Some(other) = rng.pick(src.corpus) else {
        return;
    };
    if other.is_empty() {
        return;
    }
    if rng.one_in(2) {
        let cut = rng.below(data.len() + 1);
        let from = rng.below(other.len());
        data.truncate(cut);
        data.extend_from_slice(&other[from..]);
    } else {
        let a = rng.below(other.len());
        let n = 1 + rng.small((other.len() - a).min(256));
        let at = rng.below(data.len() + 1);
        let chunk = other[a..a + n].to_vec();
        splice_in(data, at, &chunk);
    }
}

/// Wraps a stretch of the input in brackets, a few or many levels deep.
fn nest(data: &mut Vec<u8>, max_len: usize, rng: &mut Rng) {
    let (open, close) = BRACKETS[rng.below(BRACKETS.len())];
    let depth = match rng.below(4) {
        0 => 1 + rng.below(4),
        1 => 8 + rng.below(32),
        2 => 64 + rng.below(256),
        _ => 300 + rng.below(3000),
    };
    let cost = depth * (open.len() + close.len());
    if data.len() + cost > max_len {
        return;
    }
    let a = rng.below(data.len() + 1);
    let b = a + rng.below(data.len() - a + 1);
    let mut out = Vec::with_capacity(data.len() + cost);
    out.extend_from_slice(&data[..a]);
    for _ in 0..depth {
        out.extend_from_slice(open);
    }
    out.extend_from_slice(&data[a..b]);
    for _ in 0..depth {
        out.extend_from_slice(close);
    }
    out.extend_from_slice(&data[b..]);
    *data = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_are_seeded_and_bounded() {
        let dict = vec![b"bid".to_vec(), b"pick".to_vec()];
        let corpus = vec![b"drop f1 R".to_vec(), b"buy 4 6".to_vec()];
        let src = Sources {
            dictionary: &dict,
            corpus: &corpus,
            max_len: 200,
        };
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..500)
                .map(|_| mutate(b"bid 12", &src, &mut rng))
                .collect::<Vec<_>>()
        };
        let a = run(3);
        assert_eq!(a, run(3));
        assert!(a.iter().all(|m| m.len() <= 200));
        let distinct: std::collections::BTreeSet<_> = a.iter().collect();
        assert!(distinct.len() > 200, "{}", distinct.len());
    }

    #[test]
    fn token_and_number_operations() {
        let mut rng = Rng::new(1);
        let mut d = b"bid 12".to_vec();
        swap_tokens(&mut d, &mut rng);
        swap_tokens(&mut d, &mut rng);
        let mut seen_numbers = false;
        for _ in 0..50 {
            let mut e = b"buy 4 6".to_vec();
            change_number(&mut e, &mut rng);
            seen_numbers |= e != b"buy 4 6";
        }
        assert!(seen_numbers);
        assert_eq!(tokens(b"pick e1"), vec![(0, 4), (5, 7)]);
    }
}
