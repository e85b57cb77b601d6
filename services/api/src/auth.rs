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

/// Shortest token accepted.
pub const MIN_TOKEN: usize = 16;
/// Longest token accepted.
pub const MAX_TOKEN: usize = 256;

/// The one rule for every token — a seat's, the recorder's, an annotator's, the admin's, the
/// server's control token, and whatever a request presents — as `--help` and every refusal
/// state it. What the server makes (64 hex digits) follows it.
pub const TOKEN_RULE: &str =
    "16 to 256 characters of A-Z a-z 0-9 - . _ ~ + /, then any number of =";

/// Why a text is not a token (the text itself is never repeated: it may be a secret).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("a token is {TOKEN_RULE}; this one has {0} characters")]
    Length(usize),
    #[error("a token is {TOKEN_RULE}; this one has another character")]
    Character,
}

/// Checks `token` against [`TOKEN_RULE`]: the one validator of tokens, for the settings and for
/// requests alike. Its characters are RFC 6750's `b64token`, so any token can be sent as
/// `Authorization: Bearer <token>`.
pub fn check_token(token: &str) -> Result<(), TokenError> {
    let n = token.chars().count();
    let body = token.trim_end_matches('=');
    let chars_ok = !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b));
    if !chars_ok {
        return Err(TokenError::Character);
    }
    if !(MIN_TOKEN..=MAX_TOKEN).contains(&n) {
        return Err(TokenError::Length(n));
    }
    Ok(())
}

impl Caller {
    /// From an `Authorization` header value (or the same text in a WebSocket payload), as
    /// RFC 6750 writes it: the scheme `Bearer` (any case), one space, a token as
    /// [`check_token`] accepts it, nothing else. Anything else is refused rather than guessed
    /// at: a client with a stray space should learn it, not be served as a spectator or as a
    /// seat it did not quite name; a token no server could have given or been given (too
    /// short, too long) is refused the same way.
    pub fn parse(value: Option<&str>) -> Result<Caller, String> {
        let Some(v) = value else {
            return Ok(Caller::default());
        };
        let bad = || {
            Err(format!(
                "the Authorization header must be `Bearer <token>` (one space, no other text), \
                 a token being {TOKEN_RULE}"
            ))
        };
        let Some((scheme, token)) = v.split_once(' ') else {
            return bad();
        };
        if !scheme.eq_ignore_ascii_case("bearer") || check_token(token).is_err() {
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

    const T: &str = "abcdefgh-1234567";

    #[test]
    fn bearer_tokens_are_parsed_and_bounded() {
        assert_eq!(
            Caller::from_authorization(Some(&format!("Bearer {T}")))
                .token
                .as_deref(),
            Some(T)
        );
        assert_eq!(
            Caller::parse(Some(&format!("bearer {T}=")))
                .unwrap()
                .token
                .as_deref(),
            Some(&*format!("{T}="))
        );
        for bad in [
            format!("Basic {T}"),
            "Bearer ".into(),
            format!("Bearer  {T}"),
            format!("Bearer {T} "),
            format!("Bearer {T}\t"),
            format!("Bearer a {T}"),
            "Bearer =".into(),
            format!("Bearer{T}"),
            format!(" Bearer {T}"),
            // Too short: no server makes or is given such a token.
            "Bearer abc".into(),
        ] {
            let bad = bad.as_str();
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
    fn one_rule_for_every_token() {
        assert_eq!(check_token(&"a".repeat(MIN_TOKEN)), Ok(()));
        assert_eq!(check_token(&"a".repeat(MAX_TOKEN)), Ok(()));
        assert_eq!(check_token("Az09-._~+/Az09-._~+/=="), Ok(()));
        assert_eq!(
            check_token(&"a".repeat(MIN_TOKEN - 1)),
            Err(TokenError::Length(MIN_TOKEN - 1))
        );
        assert_eq!(
            check_token(&"a".repeat(MAX_TOKEN + 1)),
            Err(TokenError::Length(MAX_TOKEN + 1))
        );
        for bad in [
            "",
            "================",
            "abcdefgh 12345678",
            "abcdefgh=12345678",
            "é".repeat(20).as_str(),
        ] {
            assert_eq!(check_token(bad), Err(TokenError::Character), "{bad:?}");
        }
        // What the server makes follows the rule.
        assert_eq!(check_token(&new_token().unwrap()), Ok(()));
        let said = check_token("short").unwrap_err().to_string();
        assert!(
            said.contains(TOKEN_RULE) && !said.contains("short"),
            "{said}"
        );
    }

    #[test]
    fn admin_needs_the_configured_token() {
        let c = Caller::from_authorization(Some("Bearer s3cret-0123456789"));
        assert!(c.is_admin(Some("s3cret-0123456789")));
        assert!(!c.is_admin(Some("other")));
        assert!(
            !c.is_admin(None),
            "no admin token configured: nobody is admin"
        );
    }
}
