//! Moving meeples: pick up a whole tile, drop one per step orthogonally without stepping
//! straight back, end on a tile holding the last meeple's colour, take that colour, and take
//! control of the tile if the move emptied it.

use crate::board::{can_finish, neighbours, Dir};
use crate::error::Rule;
use crate::ids::{Colour, Djinn, Tile};
use crate::state::{Ending, Hand, Phase, Stage, State, NOBODY};

impl State {
    pub(crate) fn check_pick(&self, t: Tile) -> Result<(), Rule> {
        if self.board.is_empty(t) {
            return Err(Rule::EmptyTile);
        }
        if !self.pick_is_finishable(t) {
            return Err(Rule::NoLegalFinish);
        }
        Ok(())
    }

    pub(crate) fn apply_pick(&mut self, seat: u8, t: Tile) {
        let hand = self.board.take_all(t);
        self.phase = Phase::Turn {
            seat,
            stage: Stage::Moving {
                at: t,
                from: None,
                hand,
            },
        };
    }

    pub(crate) fn check_drop(
        &self,
        at: Tile,
        from: Option<Tile>,
        hand: Hand,
        to: Tile,
        colour: Colour,
    ) -> Result<(), Rule> {
        if to.0 >= crate::board::TILES as u8 || neighbours(at) & to.bit() == 0 {
            return Err(Rule::NotOrthogonal);
        }
        if from == Some(to) {
            return Err(Rule::ImmediateReturn);
        }
        let c = colour as usize;
        if hand[c] == 0 {
            return Err(Rule::NotInHand);
        }
        let mut rest = hand;
        rest[c] -= 1;
        if rest.iter().all(|&n| n == 0) {
            // The last meeple: its colour must already be on the tile (Ruling 5: one dropped
            // there earlier in this move counts, and it is on the board by now).
            return if self.board.hand(to)[c] > 0 {
                Ok(())
            } else {
                Err(Rule::LastMeepleColour)
            };
        }
        let mut has = self.board.has_colour();
        has[c] |= to.bit();
        if can_finish(to, Dir::between(at, to), rest, has) {
            Ok(())
        } else {
            Err(Rule::NoLegalFinish)
        }
    }

    pub(crate) fn apply_drop(&mut self, seat: u8, at: Tile, hand: Hand, to: Tile, colour: Colour) {
        let c = colour as usize;
        self.board.add(to, colour, 1);
        self.marid(seat, to);
        let mut rest = hand;
        rest[c] -= 1;
        if rest.iter().all(|&n| n == 0) {
            self.finish_move(seat, to, colour);
        } else {
            self.phase = Phase::Turn {
                seat,
                stage: Stage::Moving {
                    at: to,
                    from: Some(at),
                    hand: rest,
                },
            };
        }
    }

    /// Marid: a meeple dropped on its owner's tile pays the owner 1 (own move) or 2.
    fn marid(&mut self, mover: u8, to: Tile) {
        if let Some(owner) = self.owner_of(Djinn::Marid) {
            if self.board.owner[usize::from(to.0)] == owner {
                self.player_mut(owner).gold += if owner == mover { 1 } else { 2 };
            }
        }
    }

    /// After the last drop: take the colour, control the tile if emptied, then the tribe.
    fn finish_move(&mut self, seat: u8, tile: Tile, colour: Colour) {
        let n = self.board.take_colour(tile, colour);
        self.control_if_emptied(seat, tile);
        self.tribe_action(seat, tile, colour, n);
    }

    /// A tile emptied of meeples by `seat` becomes theirs if nobody owns it and they have a
    /// camel left (Ruling 11). Owned tiles never change hands.
    pub(crate) fn control_if_emptied(&mut self, seat: u8, tile: Tile) {
        let i = usize::from(tile.0);
        if self.board.is_empty(tile) && self.board.owner[i] == NOBODY {
            self.place_camel(seat, tile);
        }
    }

    /// Puts one of `seat`'s camels on `tile`, if they have one; the last one ends the game at
    /// the end of the round.
    pub(crate) fn place_camel(&mut self, seat: u8, tile: Tile) {
        let p = self.player_mut(seat);
        if p.camels == 0 {
            return;
        }
        p.camels -= 1;
        let last = p.camels == 0;
        self.board.owner[usize::from(tile.0)] = seat;
        if last && self.ending.is_none() {
            self.ending = Some(Ending::LastCamel);
        }
    }
}
