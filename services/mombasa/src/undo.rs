//! Rules 2's `cancel`: the position an unfinished action began from ([`State::undo`]), and
//! the box it is kept in; rules 4's one cancel a turn ([`Undo::Spent`]).
//!
//! Every Rules-2 action that begins keeps a copy of the position (but those that always end at
//! once: ending the turn, a diamond trader, most bonuses; `State::apply`), and most actions
//! end a move or two later and drop it. Allocating that box (and the seats' vector inside it)
//! and freeing it again was a seventh of a replayed entry's work; the box is now handed back
//! to the state as a [`Spare`] when the action ends, and the next action copies the position
//! into it in place. The spare is not part of the position: equal to any other, hashed as nothing,
//! never written, and not copied with the state.

use crate::state::{Rules, State};
use serde::{Deserialize, Serialize};

/// What `cancel` can go back to ([`State::undo`]).
///
/// Postcard writes it exactly as it wrote the `Option<Box<State>>` it replaced (a variant
/// index, then the position for [`Undo::Kept`]), so the positions of games under rules 1–3,
/// where [`Undo::Spent`] never occurs, keep their bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Undo {
    /// Nothing to go back to: no unfinished action, or one that has drawn from a pile.
    #[default]
    None,
    /// The position the unfinished action began from.
    Kept(Box<State>),
    /// Rules 4: the seat to act has cancelled an action this turn; the action it begins next
    /// keeps nothing (one cancel a turn). Cleared when the turn passes.
    Spent,
}

impl Undo {
    /// The kept position, if any.
    pub fn kept(&self) -> Option<&State> {
        match self {
            Undo::Kept(b) => Some(b),
            _ => None,
        }
    }

    pub fn kept_mut(&mut self) -> Option<&mut State> {
        match self {
            Undo::Kept(b) => Some(b),
            _ => None,
        }
    }

    /// The kept position, taken out (nothing left in its place); a spent cancel stays spent.
    fn take_kept(&mut self) -> Option<Box<State>> {
        match std::mem::take(self) {
            Undo::Kept(b) => Some(b),
            other => {
                *self = other;
                None
            }
        }
    }
}

/// A box kept for the next [`State::undo`] (see the module docs); `None` until an action has
/// ended once since the state was made or read.
#[derive(Default)]
pub struct Spare(Option<Box<State>>);

impl Clone for Spare {
    /// A copy of a state has no spare: the box is reused by one state only.
    fn clone(&self) -> Spare {
        Spare(None)
    }
}

impl PartialEq for Spare {
    fn eq(&self, _: &Spare) -> bool {
        true
    }
}

impl Eq for Spare {}

impl std::hash::Hash for Spare {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl std::fmt::Debug for Spare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Spare")
    }
}

impl State {
    /// The position as it is now, boxed for [`State::undo`]: copied into the spare box when
    /// there is one, a new box otherwise.
    pub(crate) fn keep(&mut self) -> Box<State> {
        match self.spare.0.take() {
            Some(mut b) => {
                b.copy_from(self);
                b
            }
            None => Box::new(self.clone()),
        }
    }

    /// The kept position is no longer needed (the action ended, or revealed a draw): its box
    /// becomes the spare.
    pub(crate) fn drop_undo(&mut self) {
        if let Some(b) = self.undo.take_kept() {
            self.recycle(b);
        }
    }

    /// `b`, a kept position no longer needed, becomes the spare box.
    pub(crate) fn recycle(&mut self, b: Box<State>) {
        self.spare = Spare(Some(b));
    }

    /// `cancel`: back to the kept position; the abandoned one's box becomes the spare. Under
    /// rules 4 the restored position remembers the cancel: the turn's next action keeps none.
    pub(crate) fn restore_undo(&mut self) {
        if let Some(mut b) = self.undo.take_kept() {
            std::mem::swap(self, &mut *b);
            if self.rules >= Rules::V4 {
                self.undo = Undo::Spent;
            }
            // `b` now holds the abandoned position, whose own spare (if any) is not kept: a
            // spare never holds another.
            b.spare = Spare(None);
            self.spare = Spare(Some(b));
        }
    }

    /// `self` made equal to `s`, reusing the seats' vector. Every field is named, so a field
    /// added to [`State`] cannot be forgotten here.
    fn copy_from(&mut self, s: &State) {
        let State {
            options,
            players,
            phase,
            round,
            first,
            next_first,
            setup_first,
            turn,
            stage,
            seats,
            display,
            deck,
            discard,
            boxed,
            book_display,
            book_coins,
            book_supply,
            round_coins,
            sides,
            bases,
            boxed_posts,
            map,
            bonus,
            tile_at,
            tile_won,
            rules,
            book_refill,
            undo,
            spare: _,
            data,
            components,
        } = s;
        self.options.clone_from(options);
        self.players = *players;
        self.phase = *phase;
        self.round = *round;
        self.first = *first;
        self.next_first = *next_first;
        self.setup_first = *setup_first;
        self.turn = *turn;
        self.stage = *stage;
        self.seats.clone_from(seats);
        self.display = *display;
        self.deck = *deck;
        self.discard = *discard;
        self.boxed = *boxed;
        self.book_display = *book_display;
        self.book_coins = *book_coins;
        self.book_supply = *book_supply;
        self.round_coins = *round_coins;
        self.sides = *sides;
        self.bases = *bases;
        self.boxed_posts = *boxed_posts;
        self.map = *map;
        self.bonus = *bonus;
        self.tile_at = *tile_at;
        self.tile_won = *tile_won;
        self.rules = *rules;
        self.book_refill = *book_refill;
        self.undo.clone_from(undo);
        self.data = *data;
        self.components = *components;
    }
}
