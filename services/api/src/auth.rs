//! Seat tokens, the recorder's, annotation tokens and the admin token.
//!
//! `createGame` returns one random secret token per seat; the store keeps only their SHA-256.
//! A request carries a token as `Authorization: Bearer …` (HTTP) or in the WebSocket
//! `connection_init` payload (`{"authorization": "Bearer …"}`), since browsers cannot set
//! headers on WebSockets. Which seat a token opens is decided per game.

use rules_core::{Seat, Viewer};
use sha2::{Digest, Sha256};
use store::Header;

/// Who is calling, as far as the request says.
#[derive(Debug, Clone, Default)]
pub struct Caller {
    pub token: Option<String>,
}

/// Longest token accepted.
pub const MAX_TOKEN: usize = 256;

impl Caller {
    /// From an `Authorization` header value (or the same text in a WebSocket payload), as
    /// RFC 6750 writes it: the scheme `Bearer` (any case), one space, the token (its
    /// characters: letters, digits, `-._~+/`, then any `=`), nothing else. Anything else is
    /// refused rather than guessed at: a client with a stray space should learn it, not be
    /// served as a spectator or as a seat it did not quite name.
    pub fn parse(value: Option<&str>) -> Result<Caller, String> {
        let Some(v) = value else {
            return Ok(Caller::default());
        };
        let bad = || {
            Err(
                "the Authorization header must be `Bearer <token>` (one space, no other text)"
                    .to_string(),
            )
        };
        let Some((scheme, token)) = v.split_once(' ') else {
            return bad();
        };
        let body = token.trim_end_matches('=');
        let token_ok = !body.is_empty()
            && token.len() <= MAX_TOKEN
            && body
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b));
        if !scheme.eq_ignore_ascii_case("bearer") || !token_ok {
            return bad();
        }
        Ok(Caller {
            token: Some(token.to_string()),
        })
    }

    /// As `parse`, for callers that have already refused malformed headers.
    pub fn from_authorization(value: Option<&str>) -> Caller {
        Caller::parse(value).unwrap_or_default()
    }

    /// The seat this caller's token opens in `game`, if any.
    pub fn seat_in(&self, game: &Header) -> Option<Seat> {
        let t = self.token.as_ref()?;
        let h = hash_token(t);
        game.seat_token_hashes
            .iter()
            .position(|x| *x == h)
            .map(|i| Seat(i as u8))
    }

    /// Whether this caller holds `game`'s recorder token (enters any seat's move and every
    /// chance entry of a game at a real table).
    pub fn is_recorder(&self, game: &Header) -> bool {
        match (&self.token, &game.recorder_token_hash) {
            (Some(t), Some(h)) => constant_time_eq(hash_token(t).as_bytes(), h.as_bytes()),
            _ => false,
        }
    }

    /// What this caller may see of `game`: its seat's view, or a spectator's.
    pub fn viewer(&self, game: &Header) -> Viewer {
        self.seat_in(game).map_or(Viewer::Spectator, Viewer::Seat)
    }

    /// The analyst whose annotation token this caller holds, if any.
    pub fn analyst(&self, annotators: &[(String, String)]) -> Option<String> {
        let t = self.token.as_ref()?;
        annotators
            .iter()
            .find(|(_, tok)| constant_time_eq(tok.as_bytes(), t.as_bytes()))
            .map(|(name, _)| name.clone())
    }

    pub fn is_admin(&self, admin_token: Option<&str>) -> bool {
        match (admin_token, &self.token) {
            (Some(a), Some(t)) => constant_time_eq(a.as_bytes(), t.as_bytes()),
            _ => false,
        }
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A new secret: 32 random bytes, hex.
pub fn new_token() -> Result<String, getrandom::Error> {
    let mut b = [0u8; 32];
    getrandom::getrandom(&mut b)?;
    Ok(hex::encode(b))
}

/// A random seed for a game whose creator gave none.
pub fn random_seed() -> Result<u64, getrandom::Error> {
    let mut b = [0u8; 8];
    getrandom::getrandom(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_tokens_are_parsed_and_bounded() {
        assert_eq!(
            Caller::from_authorization(Some("Bearer abc"))
                .token
                .as_deref(),
            Some("abc")
        );
        assert_eq!(
            Caller::parse(Some("bearer abc=")).unwrap().token.as_deref(),
            Some("abc=")
        );
        for bad in [
            "Basic abc",
            "Bearer ",
            "Bearer  abc",
            "Bearer abc ",
            "Bearer abc\t",
            "Bearer a bc",
            "Bearer =",
            "Bearerabc",
            " Bearer abc",
        ] {
            assert!(Caller::parse(Some(bad)).is_err(), "{bad:?} is refused");
            assert_eq!(Caller::from_authorization(Some(bad)).token, None);
        }
        assert_eq!(Caller::parse(None).unwrap().token, None);
        assert_eq!(
            Caller::from_authorization(Some(&format!("Bearer {}", "x".repeat(300)))).token,
            None
        );
        assert_eq!(Caller::from_authorization(None).token, None);
    }

    #[test]
    fn admin_needs_the_configured_token() {
        let c = Caller::from_authorization(Some("Bearer s3cret"));
        assert!(c.is_admin(Some("s3cret")));
        assert!(!c.is_admin(Some("other")));
        assert!(
            !c.is_admin(None),
            "no admin token configured: nobody is admin"
        );
    }
}
