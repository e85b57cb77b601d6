//! Secret choices: the start tile kept (steps 15–16) and the planning phase (cards placed
//! face down into open action slots), each followed by a public reveal entry.
//!
//! A seat's choices are moves that only that seat may see (see `Game::move_visible` on [`crate::Mombasa`]);
//! once all have chosen, the game waits on a reveal "chance" entry that the dealer fills in
//! from the state and that must match it exactly, so a replay shows the reveal where it
//! happened and every viewer learns the choices at that point and not before.

use crate::error::Rule;
use crate::ids::{CardId, CardRef, StartTile, NONE, OWN_CARDS, SLOTS};
use crate::moves::Chance;
use crate::state::{Phase, Stage, State};
use arrayvec::ArrayVec;

impl State {
    /// The first seat still to choose, in seat order.
    pub fn first_undecided(&self) -> Option<u8> {
        match self.phase {
            Phase::StartKeep => self.seats.iter().position(|p| p.start == NONE),
            Phase::Planning => self.seats.iter().position(|p| !p.ready),
            _ => None,
        }
        .map(|i| i as u8)
    }

    pub(crate) fn check_keep(&self, seat: u8, t: StartTile) -> Result<(), Rule> {
        let p = self.player(seat).ok_or(Rule::WrongStep)?;
        if p.dealt.contains(&t.0) && t.0 != NONE {
            Ok(())
        } else {
            Err(Rule::NotDealt)
        }
    }

    pub(crate) fn apply_keep(&mut self, seat: u8, t: StartTile) {
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.start = t.0;
        }
        if self.first_undecided().is_none() {
            self.phase = Phase::StartReveal;
        }
    }

    /// Puts `seat`'s start tile into effect: 3 cards to the rest piles, the start bonus.
    pub(crate) fn apply_start_tile(&mut self, seat: u8) {
        let c = self.data();
        let Some(tile) = self
            .player(seat)
            .and_then(|p| c.start_tiles.get(usize::from(p.start)))
        else {
            return;
        };
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            for (pile, &k) in tile.rest.iter().enumerate() {
                let id = CardId(44 + seat * OWN_CARDS + k);
                if p.hand & id.bit() != 0 {
                    p.hand &= !id.bit();
                    p.piles[pile] |= id.bit();
                }
            }
            p.ink = 0;
        }
        if let Some((co, steps)) = tile.track {
            self.advance_track(seat, co, steps);
        }
        self.advance_diamond(seat, tile.diamonds);
    }

    pub(crate) fn check_plan(&self, seat: u8, card: CardRef, slot: u8) -> Result<(), Rule> {
        let p = self.player(seat).ok_or(Rule::WrongStep)?;
        let id = card.resolve(seat).ok_or(Rule::NotInHand)?;
        if p.hand & id.bit() == 0 {
            return Err(Rule::NotInHand);
        }
        if usize::from(slot) >= p.open_slots(self.data()) {
            return Err(Rule::SlotClosed);
        }
        if p.slots.get(usize::from(slot)).copied() != Some(NONE) {
            return Err(Rule::SlotTaken);
        }
        Ok(())
    }

    pub(crate) fn apply_plan(&mut self, seat: u8, card: CardRef, slot: u8) {
        if let (Some(id), Some(p)) = (card.resolve(seat), self.seats.get_mut(usize::from(seat))) {
            p.hand &= !id.bit();
            if let Some(s) = p.slots.get_mut(usize::from(slot)) {
                *s = id.0;
            }
        }
    }

    pub(crate) fn apply_ready(&mut self, seat: u8) {
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.ready = true;
        }
        if self.first_undecided().is_none() {
            self.phase = Phase::Reveal;
        }
    }

    /// The reveal the state waits on (the dealer's "sample": there is nothing random in it).
    pub(crate) fn reveal_due(&self) -> Option<Chance> {
        match self.phase {
            Phase::StartReveal => {
                Some(Chance::Starts(self.seats.iter().map(|p| p.start).collect()))
            }
            Phase::Reveal => Some(Chance::Reveal(
                self.seats
                    .iter()
                    .map(|p| {
                        let mut plan = [None; SLOTS];
                        for (out, &s) in plan.iter_mut().zip(&p.slots) {
                            *out = (s != NONE).then(|| CardId(s).as_ref());
                        }
                        plan
                    })
                    .collect::<ArrayVec<_, 4>>(),
            )),
            _ => None,
        }
    }

    pub(crate) fn apply_reveal(&mut self) {
        match self.phase {
            Phase::StartReveal => {
                for seat in 0..self.players {
                    self.apply_start_tile(seat);
                }
                self.start_round(1);
            }
            Phase::Reveal => {
                for p in &mut self.seats {
                    p.face_up = p
                        .slots
                        .iter()
                        .enumerate()
                        .filter(|(_, &s)| s != NONE)
                        .fold(0, |m, (i, _)| m | (1 << i));
                }
                self.phase = Phase::Actions;
                self.turn = self.first;
                self.stage = Stage::Top;
            }
            _ => {}
        }
    }

    /// Opens round `round`'s planning phase.
    pub(crate) fn start_round(&mut self, round: u8) {
        self.round = round;
        self.phase = Phase::Planning;
        for p in &mut self.seats {
            p.ready = false;
            p.ended = false;
        }
    }
}
