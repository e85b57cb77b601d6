//! Action 3, the bookkeeper, and bookkeeping points.
//!
//! The ink marker moves book by book along the seat's bookkeeping track; entering a face-up
//! book needs its requirement met by the face-up cards of the action area (Ruling M4), a
//! turned book none. Where it stops, a face-up book pays its reward if the marker moved
//! (Ruling M3); then the card's bookkeeping points are spent, one decision at a time: a book
//! from the display (A/B 1 point, C 2) onto the next free track space with the coins on its
//! display space, or 1 pound per point.

use crate::error::Rule;
use crate::goods::face_up_units;
use crate::ids::{BookSpace, Unit, NONE};
use crate::state::{Stage, State};

impl State {
    pub(crate) fn check_clerk(&self, seat: u8, slot: u8) -> Result<(), Rule> {
        let p = self.player(seat).ok_or(Rule::WrongStep)?;
        match p
            .up_card(usize::from(slot))
            .map(|id| self.card_def(id).map(|k| k.kind))
        {
            Some(Some(crate::data::CardKind::Bookkeeper)) => Ok(()),
            _ => Err(Rule::NoBookkeeper),
        }
    }

    pub(crate) fn apply_clerk(&mut self, seat: u8, slot: u8) {
        let points = self
            .player(seat)
            .and_then(|p| p.up_card(usize::from(slot)))
            .and_then(|id| self.card_def(id))
            .map_or(0, |k| k.value);
        let Some(p) = self.seats.get_mut(usize::from(seat)) else {
            return;
        };
        p.face_up &= !(1 << slot);
        self.stage = Stage::Clerk {
            points,
            flipped: false,
            moved: 0,
        };
    }

    pub(crate) fn check_flip(&self, seat: u8, pos: u8) -> Result<(), Rule> {
        let Stage::Clerk { flipped, moved, .. } = self.stage else {
            return Err(Rule::WrongStep);
        };
        let p = self.player(seat).ok_or(Rule::WrongStep)?;
        if flipped || moved > 0 || pos == 0 || usize::from(pos) > p.books.len() {
            return Err(Rule::FlipOnce);
        }
        if p.flipped & (1 << (pos - 1)) != 0 {
            return Err(Rule::FlipOnce);
        }
        if p.pounds < 2 {
            return Err(Rule::FlipPounds);
        }
        Ok(())
    }

    pub(crate) fn apply_flip(&mut self, seat: u8, pos: u8) {
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.pounds -= 2;
            p.flipped |= 1 << (pos - 1);
        }
        if let Stage::Clerk { flipped, .. } = &mut self.stage {
            *flipped = true;
        }
    }

    /// Whether `seat` may move the ink marker onto the next book.
    pub(crate) fn check_ink(&self, seat: u8) -> Result<(), Rule> {
        if !matches!(self.stage, Stage::Clerk { .. }) {
            return Err(Rule::WrongStep);
        }
        let c = self.data();
        let p = self.player(seat).ok_or(Rule::WrongStep)?;
        let next = usize::from(p.ink);
        let book = *p.books.get(next).ok_or(Rule::NoNextBook)?;
        if p.flipped & (1 << next) != 0 {
            return Ok(());
        }
        let def = c.books.get(usize::from(book)).ok_or(Rule::NoNextBook)?;
        for u in Unit::ALL {
            if face_up_units(self, p, u) < u32::from(def.requires[u.index()]) {
                return Err(Rule::BookRequirement);
            }
        }
        Ok(())
    }

    pub(crate) fn apply_ink(&mut self, seat: u8) {
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.ink += 1;
        }
        if let Stage::Clerk { moved, .. } = &mut self.stage {
            *moved += 1;
        }
    }

    /// The ink marker stops: the book's reward, then the card's points.
    pub(crate) fn apply_clerk_stop(&mut self, seat: u8) {
        let Stage::Clerk { points, moved, .. } = self.stage else {
            return;
        };
        let c = self.data();
        if moved > 0 {
            if let Some(p) = self.player(seat) {
                let at = usize::from(p.ink).wrapping_sub(1);
                let face_up = p.flipped & (1 << (at & 15)) == 0;
                let reward = p
                    .books
                    .get(at)
                    .and_then(|b| c.books.get(usize::from(*b)))
                    .map(|b| b.reward);
                if let (true, Some(r)) = (face_up, reward) {
                    self.pay(seat, r, None);
                }
            }
        }
        self.spend_points_or_finish(points);
    }

    /// Starts spending `points` bookkeeping points, or ends the action when there are none.
    pub(crate) fn spend_points_or_finish(&mut self, points: u8) {
        if points > 0 {
            self.stage = Stage::Points { left: points };
        } else {
            self.finish_action();
        }
    }

    pub(crate) fn check_book(&self, seat: u8, space: BookSpace) -> Result<(), Rule> {
        let Stage::Points { left } = self.stage else {
            return Err(Rule::WrongStep);
        };
        let c = self.data();
        let book = *self
            .book_display
            .get(usize::from(space.0))
            .ok_or(Rule::NoDisplayBook)?;
        if book == NONE {
            return Err(Rule::NoDisplayBook);
        }
        let p = self.player(seat).ok_or(Rule::WrongStep)?;
        if p.books.len() + 1 >= usize::from(c.bookkeeping.length) || p.books.is_full() {
            return Err(Rule::TrackFull);
        }
        let letter = c.books.get(usize::from(book)).map_or(0, |b| b.letter);
        if c.book_cost
            .get(usize::from(letter))
            .copied()
            .unwrap_or(u8::MAX)
            > left
        {
            return Err(Rule::PointCost);
        }
        Ok(())
    }

    pub(crate) fn apply_book(&mut self, seat: u8, space: BookSpace) {
        let c = self.data();
        let i = usize::from(space.0);
        let book = std::mem::replace(&mut self.book_display[i], NONE);
        let coins = std::mem::take(&mut self.book_coins[i]);
        let cost = c
            .books
            .get(usize::from(book))
            .and_then(|b| c.book_cost.get(usize::from(b.letter)))
            .copied()
            .unwrap_or(1);
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.books.push(book);
            p.pounds += u16::from(coins);
        }
        // Rules 2: the space is refilled at once from the same pile, a chance entry; what it
        // reveals cannot be taken back, so the action can no longer be cancelled.
        if self.rules >= crate::state::Rules::V2 && self.refill_supply(space.0) != 0 {
            self.book_refill = space.0;
            self.drop_undo();
        }
        self.spend(cost);
    }

    pub(crate) fn apply_pound(&mut self, seat: u8) {
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.pounds += 1;
        }
        self.spend(1);
    }

    fn spend(&mut self, cost: u8) {
        if let Stage::Points { left } = self.stage {
            let left = left.saturating_sub(cost);
            if left == 0 {
                self.finish_action();
            } else {
                self.stage = Stage::Points { left };
            }
        }
    }
}
