//! `GameId`: a sortable 64-bit id. High 48 bits: creation time in milliseconds since the Unix
//! epoch; low 16 bits: a counter. Text form: 13 characters of Crockford base32 (lower case),
//! fixed width, so text order is creation order.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(pub u64);

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{0}` is not a game id (13 characters of 0-9 a-z without i, l, o, u)")]
pub struct BadGameId(pub String);

/// Fresh, sortable ids for games created at a given time: its milliseconds, then a counter
/// within one millisecond; ids that `taken` says exist already are passed over.
#[derive(Debug, Default)]
pub struct IdClock(std::sync::Mutex<(u64, u16)>);

impl IdClock {
    pub fn next(
        &self,
        at: chrono::DateTime<chrono::Utc>,
        taken: impl Fn(GameId) -> bool,
    ) -> GameId {
        let millis = u64::try_from(at.timestamp_millis()).unwrap_or(0);
        let mut last = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *last = if millis > last.0 {
            (millis, 0)
        } else if last.1 == u16::MAX {
            (last.0 + 1, 0)
        } else {
            (last.0, last.1 + 1)
        };
        loop {
            let id = GameId::from_parts(last.0, last.1);
            if !taken(id) {
                return id;
            }
            last.1 = last.1.wrapping_add(1);
            if last.1 == 0 {
                last.0 += 1;
            }
        }
    }
}

impl GameId {
    pub fn from_parts(millis: u64, counter: u16) -> GameId {
        GameId((millis << 16) | u64::from(counter))
    }
    pub fn millis(self) -> u64 {
        self.0 >> 16
    }
    pub fn to_bytes(self) -> [u8; 8] {
        self.0.to_be_bytes()
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = [0u8; 13];
        let mut v = self.0;
        for slot in out.iter_mut().rev() {
            *slot = ALPHABET[(v & 31) as usize];
            v >>= 5;
        }
        f.write_str(std::str::from_utf8(&out).map_err(|_| fmt::Error)?)
    }
}

impl FromStr for GameId {
    type Err = BadGameId;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadGameId(s.chars().take(40).collect());
        if s.len() != 13 {
            return Err(bad());
        }
        let mut v: u64 = 0;
        for (i, b) in s.bytes().enumerate() {
            let d = ALPHABET.iter().position(|&a| a == b).ok_or_else(bad)? as u64;
            // The first character carries only 4 bits (13 × 5 = 65).
            if i == 0 && d > 15 {
                return Err(bad());
            }
            v = (v << 5) | d;
        }
        Ok(GameId(v))
    }
}

impl Serialize for GameId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for GameId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_sorts() {
        for v in [0, 1, 31, 32, u64::MAX, 0x0123_4567_89ab_cdef] {
            let id = GameId(v);
            let t = id.to_string();
            assert_eq!(t.len(), 13);
            assert_eq!(t.parse::<GameId>(), Ok(id));
        }
        let a = GameId::from_parts(1_700_000_000_000, 5);
        let b = GameId::from_parts(1_700_000_000_001, 0);
        assert!(a.to_string() < b.to_string());
        assert_eq!(a.millis(), 1_700_000_000_000);
    }

    #[test]
    fn bad_text_is_refused() {
        for bad in [
            "",
            "0",
            "zzzzzzzzzzzzz",
            "0000000000000i",
            "000000000000I",
            "00000000000-0",
        ] {
            assert!(bad.parse::<GameId>().is_err(), "{bad}");
        }
    }
}
