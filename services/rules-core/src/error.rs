//! Errors every game shares, and the trait that lets generic code name the rule a game's
//! error broke.

use crate::game::ToAct;
use crate::ids::Seat;
use thiserror::Error;

/// A game's rule error: generic code (the store, the API) reports `rule()` as a stable code,
/// e.g. `movement.last-meeple-colour`, next to the error's message.
pub trait RuleViolation:
    std::error::Error + Clone + PartialEq + Eq + Send + Sync + 'static
{
    fn rule(&self) -> &'static str;
}

/// Errors about who may act, the same for every game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TurnError {
    #[error("seat {seat} cannot act: {expected}")]
    WrongSeat { seat: Seat, expected: Expected },
    #[error("the game is over")]
    GameOver,
    #[error("a chance outcome was supplied but {expected}")]
    NoChancePending { expected: Expected },
    #[error("options: {0}")]
    BadOptions(String),
}

impl TurnError {
    pub fn rule(&self) -> &'static str {
        match self {
            TurnError::WrongSeat { .. } => "turn.wrong-seat",
            TurnError::GameOver => "turn.game-over",
            TurnError::NoChancePending { .. } => "turn.no-chance-pending",
            TurnError::BadOptions(_) => "setup.options",
        }
    }

    pub fn wrong_seat(seat: Seat, to_act: ToAct) -> Self {
        TurnError::WrongSeat {
            seat,
            expected: Expected(to_act),
        }
    }

    pub fn no_chance(to_act: ToAct) -> Self {
        TurnError::NoChancePending {
            expected: Expected(to_act),
        }
    }

    /// The turn check every game's `play` starts with: `seat` must be the seat to act.
    pub fn expect_seat(to_act: ToAct, seat: Seat) -> Result<(), TurnError> {
        match to_act {
            ToAct::Seat(x) if x == seat => Ok(()),
            ToAct::Over => Err(TurnError::GameOver),
            other => Err(TurnError::wrong_seat(seat, other)),
        }
    }

    /// The turn check every game's `resolve` starts with: a chance outcome must be pending.
    pub fn expect_chance(to_act: ToAct) -> Result<(), TurnError> {
        match to_act {
            ToAct::Chance => Ok(()),
            ToAct::Over => Err(TurnError::GameOver),
            other => Err(TurnError::no_chance(other)),
        }
    }
}

/// Who was expected to act, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expected(pub ToAct);

impl std::fmt::Display for Expected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            ToAct::Seat(s) => write!(f, "seat {s} is to act"),
            ToAct::Chance => f.write_str("the game waits on a chance outcome"),
            ToAct::Over => f.write_str("the game is over"),
        }
    }
}

/// A notation string that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad notation `{text}`: {reason}")]
pub struct NotationError {
    /// The offending text, cut to 80 characters.
    pub text: String,
    pub reason: String,
}

impl NotationError {
    pub fn new(text: &str, reason: impl Into<String>) -> Self {
        NotationError {
            text: text.chars().take(80).collect(),
            reason: reason.into(),
        }
    }
}

/// Declares a game's `Rule` enum — every rule a move or outcome can break — from lines
/// `Variant = "stable.code": "what the rule says"`, with `code()`, `text()` and `ALL`.
/// The codes are the stable text clients match on (`extensions.rule` in the API).
#[macro_export]
macro_rules! rule_set {
    ($($v:ident = $code:literal : $text:literal),* $(,)?) => {
        /// A rule of the game that a move or outcome can break. `code()` is stable text.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Rule { $($v),* }
        impl Rule {
            /// Every rule, in declaration order.
            pub const ALL: &'static [Rule] = &[$(Rule::$v),*];
            pub const fn code(self) -> &'static str {
                match self { $(Rule::$v => $code),* }
            }
            pub const fn text(self) -> &'static str {
                match self { $(Rule::$v => $text),* }
            }
        }
    };
}

#[cfg(test)]
mod rule_set_tests {
    crate::rule_set! {
        First = "a.first": "the first rule",
        Second = "b.second": "the second rule",
    }

    #[test]
    fn a_rule_set_gives_codes_texts_and_all() {
        assert_eq!(Rule::ALL, &[Rule::First, Rule::Second]);
        assert_eq!(Rule::Second.code(), "b.second");
        assert_eq!(Rule::First.text(), "the first rule");
    }
}
