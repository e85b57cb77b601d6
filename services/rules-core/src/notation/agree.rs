//! The check that a game's fast readings of notation ([`Notation::read_move`],
//! [`Notation::read_chance`], [`Notation::read_chance_into`]) agree with its full parsers: what
//! a game's tests run over its recorded games.

use super::Notation;
use crate::ids::Actor;
use std::fmt::Debug;

/// Checks `log` (entries in notation, as a game formats them) against `G`'s fast readings and
/// its full parsers:
/// - every entry is read by the fast reading, to the value the full parser gives: the fast
///   path is the one replay takes, not a path nothing reaches;
/// - for every entry, `mutations` variants of its text (a byte dropped, doubled, replaced by
///   one of the bytes notation uses, the text cut short, a space or a tab put in): wherever
///   the fast reading gives a value, the full parser gives the same one.
///
/// The first disagreement, described, as `Err`.
pub fn check_readings<G: Notation>(
    log: &[(Actor, String)],
    mutations: usize,
) -> Result<(), String> {
    let mut x = 0x9e37_79b9_u32;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x as usize
    };
    // The slot an outcome is read into is never emptied between readings, as a caller may
    // reuse one: each reading must replace what the one before left (or leave `None`).
    let mut slot = None;
    for (actor, text) in log {
        let dealer = matches!(actor, Actor::Dealer);
        agree::<G>(dealer, text, true, &mut slot)?;
        for _ in 0..mutations {
            let t = mutate(text, &mut next);
            agree::<G>(dealer, &t, false, &mut slot)?;
        }
    }
    Ok(())
}

/// Bytes a mutation puts in: notation's punctuation, digits, letters, a space, a tab (never
/// part of a multi-byte letter: the text must stay a `str`).
const BYTES: &[u8] = b" \t,.+-=:@>/_019aAbcdeglmprstwGRWY";

fn mutate(text: &str, next: &mut impl FnMut() -> usize) -> String {
    let mut b = text.as_bytes().to_vec();
    let at = if b.is_empty() { 0 } else { next() % b.len() };
    let byte = BYTES[next() % BYTES.len()];
    match next() % 7 {
        0 if !b.is_empty() => {
            b.remove(at);
        }
        1 if !b.is_empty() => b.insert(at, b[at]),
        2 if !b.is_empty() => b[at] = byte,
        3 => b.insert(at, byte),
        4 => b.truncate(at),
        5 => b.insert(at, b' '),
        _ => b.extend_from_slice(if next().is_multiple_of(2) {
            b" "
        } else {
            b"\t"
        }),
    }
    // A byte changed inside a multi-byte letter could break UTF-8: the text is then kept as
    // it was (notation is ASCII, so this is rare).
    String::from_utf8(b).unwrap_or_else(|_| text.to_string())
}

fn agree<G: Notation>(
    dealer: bool,
    text: &str,
    must_read: bool,
    slot: &mut Option<G::Chance>,
) -> Result<(), String> {
    if dealer {
        // Both readings of an outcome: by value, and into the slot (what replay calls).
        let full = G::parse_chance(text);
        compare(text, must_read, G::read_chance(text).as_ref(), &full)?;
        G::read_chance_into(text, slot);
        compare(text, must_read, slot.as_ref(), &full)
    } else {
        compare(
            text,
            must_read,
            G::read_move(text).as_ref(),
            &G::parse_move(text),
        )
    }
}

/// A fast reading of `text` (`fast`) against the full parser's answer.
fn compare<T: PartialEq + Debug, E: Debug>(
    text: &str,
    must_read: bool,
    fast: Option<&T>,
    full: &Result<T, E>,
) -> Result<(), String> {
    match (fast, full) {
        (None, _) if must_read => Err(format!("{text:?} is not read by the fast reading")),
        (None, _) => Ok(()),
        (Some(f), Ok(p)) if f == p => Ok(()),
        (Some(f), p) => Err(format!(
            "{text:?}: the fast reading gives {f:?}, the full parser {p:?}"
        )),
    }
}
