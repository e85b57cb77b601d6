//! The two keys a decision is filed under, and the walk that finds a game's decisions.
//!
//! - **Position** ([`By::Position`]): the keyed hash of what is public at the decision
//!   ([`rules_core::GameState::public_hash`]), so transpositions merge: two move orders that
//!   reach the same position, in games of the same setup, meet at one node. Every game here
//!   deals its setup at random (Five Tribes' tiles, Caledonia's map and clans, Mombasa's
//!   display), so positions merge across games only when their setups are the same.
//! - **Line** ([`By::Line`]): the keyed hash of the seats' moves so far as everyone saw them
//!   (the notation, or `hidden` for a move the rules keep secret when it is made), chance
//!   entries left out. Games of any setup that opened with the same decisions meet at one
//!   node: Five Tribes' first bids, Caledonia's clan choices, Mombasa's first rounds.
//!
//! Both are computed from what a spectator knows at the decision, so a key read off a game in
//! play says nothing of its secrets; both are keyed by the deployment's state-hash key.

use crate::ExplorerError;
use rules_core::{Actor, GameRules, GameState, Seat, Viewer};
use siphasher::sip::SipHasher13;
use std::hash::Hasher;
use store::Entry;

/// Which key a node is found by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum By {
    Line,
    Position,
}

impl By {
    /// The flag a row carries (see [`crate::runs::Row`]).
    pub(crate) fn flag(self) -> u8 {
        match self {
            By::Line => 0,
            By::Position => crate::runs::BY_POSITION,
        }
    }
}

/// One seat's move in a finished game, with the keys of the node it was played from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The ply of the entry (the position it was played from is `ply`).
    pub ply: u32,
    pub seat: Seat,
    pub notation: String,
    pub line: u64,
    pub position: u64,
    /// Whether a bot entered it.
    pub bot: bool,
}

/// The line key before any move of a game of `kind` with `players` seats.
pub fn root_line(key: [u8; 16], kind: rules_core::GameKind, players: u8) -> u64 {
    let mut h = SipHasher13::new_with_key(&key);
    h.write(b"ludolog-explorer-line");
    h.write(kind.as_str().as_bytes());
    h.write_u8(players);
    h.finish()
}

/// The line key after `seat` played a move seen as `public` from the node `line`.
pub fn next_line(key: [u8; 16], line: u64, seat: Seat, public: &str) -> u64 {
    let mut h = SipHasher13::new_with_key(&key);
    h.write_u64(line);
    h.write_u8(seat.0);
    h.write(public.as_bytes());
    h.finish()
}

/// Follows a game entry by entry, keeping its line key.
pub struct Walk {
    pub state: Box<dyn GameState>,
    pub line: u64,
    key: [u8; 16],
}

impl Walk {
    /// A new game of `header`'s kind, options, rules version and data.
    pub fn start(
        rules: &dyn GameRules,
        header: &store::Header,
        key: [u8; 16],
    ) -> Result<Walk, ExplorerError> {
        let state = rules
            .new_game_recorded(
                &header.options_json(),
                &header.rules_version,
                &header.data_hash,
            )
            .map_err(|e| ExplorerError::Replay {
                game: header.id,
                ply: 0,
                message: e.to_string(),
            })?;
        let line = root_line(key, header.kind, state.player_count());
        Ok(Walk { state, line, key })
    }

    /// Applies `e`: the line moves on for a seat's move, as a spectator saw it.
    pub fn apply(&mut self, game: store::GameId, e: &Entry) -> Result<(), ExplorerError> {
        let public = match e.actor {
            Actor::Seat(s) => Some((
                s,
                self.state
                    .entry_text(e.actor, &e.notation, Viewer::Spectator),
            )),
            _ => None,
        };
        self.state
            .apply(e.actor, &e.notation)
            .map_err(|err| ExplorerError::Replay {
                game,
                ply: e.ply,
                message: err.to_string(),
            })?;
        if let Some((seat, text)) = public {
            self.line = next_line(self.key, self.line, seat, &text);
        }
        Ok(())
    }

    /// The position key of the state reached.
    pub fn position(&self) -> u64 {
        self.state.public_hash(self.key)
    }
}

/// Every seat move of a game, with the keys of the node it was played from.
pub fn decisions(
    rules: &dyn GameRules,
    header: &store::Header,
    entries: &[Entry],
    key: [u8; 16],
) -> Result<Vec<Decision>, ExplorerError> {
    let mut walk = Walk::start(rules, header, key)?;
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        if let Actor::Seat(seat) = e.actor {
            out.push(Decision {
                ply: e.ply,
                seat,
                notation: e.notation.clone(),
                line: walk.line,
                position: walk.position(),
                bot: e.entered_by == Some(store::EnteredBy::Bot),
            });
        }
        walk.apply(header.id, e)?;
    }
    Ok(out)
}

/// The line key of the position after `entries` (a prefix of the game's log).
pub fn line_at(
    rules: &dyn GameRules,
    header: &store::Header,
    entries: &[Entry],
    key: [u8; 16],
) -> Result<u64, ExplorerError> {
    let mut walk = Walk::start(rules, header, key)?;
    for e in entries {
        walk.apply(header.id, e)?;
    }
    Ok(walk.line)
}
