//! Action 5, a bonus marker: every bonus space with its requirement and reward. A space holds
//! one marker and is blocked for the rest of the round; the action uses no card.
//!
//! - first player: not for the first player (Ruling M2); first player next round and the
//!   space's bookkeeping points;
//! - buy card: pay the fee, then buy a display card at its purchase price in pounds (M6);
//! - sell card: discard a card from hand for 2 pounds per red value;
//! - majority: most units of its kind in the action area, ties shared, 0 never (M4); track
//!   steps split as the player likes, and the space's bonus tile for the next round (M9)
//!   unless, under rules 3, another seat holds it (M16).

use crate::data::BonusKind;
use crate::error::Rule;
use crate::goods::{area_units, price};
use crate::ids::{CardId, DECK_CARDS, NONE};
use crate::moves::BonusArg;
use crate::state::{Rules, Stage, State};

impl State {
    pub(crate) fn check_bonus(&self, seat: u8, space: u8, arg: BonusArg) -> Result<(), Rule> {
        let c = self.data();
        let def = c.bonus.get(usize::from(space)).ok_or(Rule::NoSuchSpace)?;
        let p = self.player(seat).ok_or(Rule::WrongStep)?;
        if p.markers_left() == 0 {
            return Err(Rule::NoMarker);
        }
        if self.bonus.get(usize::from(space)).copied() != Some(NONE) {
            return Err(Rule::SpaceTaken);
        }
        match (def.kind, arg) {
            (BonusKind::FirstPlayer { .. }, BonusArg::None) => {
                if seat == self.first {
                    return Err(Rule::FirstPlayer);
                }
            }
            (BonusKind::BuyCard { fee }, BonusArg::Display(pos)) => {
                let cost = price(self, pos).ok_or(Rule::BuyEmpty)?;
                if p.pounds < u16::from(fee) + u16::from(cost) {
                    return Err(Rule::BonusPounds);
                }
            }
            (BonusKind::SellCard { .. }, BonusArg::Card(r)) => {
                let id = r.resolve(seat).ok_or(Rule::NotInHand)?;
                if p.hand & id.bit() == 0 {
                    return Err(Rule::NotInHand);
                }
            }
            (BonusKind::Majority { of, .. }, BonusArg::None) => {
                // A tie is a majority: refused when the seat has none of the units or
                // another seat has more (the others counted only while needed).
                let mine = area_units(self, p, of);
                let beaten = self
                    .seats
                    .iter()
                    .enumerate()
                    .any(|(s, q)| s != usize::from(seat) && area_units(self, q, of) > mine);
                if mine == 0 || beaten {
                    return Err(Rule::Majority);
                }
            }
            _ => return Err(Rule::NoSuchSpace),
        }
        Ok(())
    }

    /// Whether [`State::apply_bonus`] on `space` ends the action at once: every bonus but a
    /// majority's steps and the first-player space's bookkeeping points, spent after it.
    pub(crate) fn bonus_ends_at_once(&self, space: u8) -> bool {
        match self.data().bonus.get(usize::from(space)).map(|d| d.kind) {
            Some(BonusKind::FirstPlayer { bookkeeping }) => bookkeeping == 0,
            Some(BonusKind::Majority { steps, .. }) => steps == 0,
            _ => true,
        }
    }

    /// Takes bonus `space`. A stage left to spend after it (steps, bookkeeping points) must be
    /// one [`State::bonus_ends_at_once`] knows of: `State::apply` keeps no copy for `cancel`
    /// otherwise (a debug assertion there catches a stage it does not know).
    pub(crate) fn apply_bonus(&mut self, seat: u8, space: u8, arg: BonusArg) {
        let c = self.data();
        let Some(def) = c.bonus.get(usize::from(space)) else {
            return;
        };
        self.bonus[usize::from(space)] = seat;
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.markers_used += 1;
        }
        match (def.kind, arg) {
            (BonusKind::FirstPlayer { bookkeeping }, _) => {
                self.next_first = seat;
                self.spend_points_or_finish(bookkeeping);
            }
            (BonusKind::BuyCard { fee }, BonusArg::Display(pos)) => {
                let cost = price(self, pos).unwrap_or(0);
                if let Some(p) = self.seats.get_mut(usize::from(seat)) {
                    p.pounds = p.pounds.saturating_sub(u16::from(fee) + u16::from(cost));
                }
                self.take_display_card(seat, pos);
                self.finish_action();
            }
            (BonusKind::SellCard { per_red }, BonusArg::Card(r)) => {
                if let Some(id) = r.resolve(seat) {
                    self.sell(seat, id, per_red);
                }
                self.finish_action();
            }
            (BonusKind::Majority { steps, tile, .. }, _) => {
                if self.may_win_tile(seat, tile) {
                    if let Some(w) = self.tile_won.get_mut(usize::from(tile)) {
                        *w = seat;
                    }
                }
                if steps > 0 {
                    self.stage = Stage::Steps { left: steps };
                } else {
                    self.finish_action();
                }
            }
            _ => self.finish_action(),
        }
    }

    /// Whether `seat` wins bonus `tile` by taking its majority space. Rules 3 (ruling M16): a
    /// tile is held by its winner from the moment it is won until it returns (at the end of its
    /// holder's action phase, M9), and while another seat holds it the space pays its steps
    /// alone. Rules 1 and 2 let the space's taker win it whoever held it.
    pub fn may_win_tile(&self, seat: u8, tile: u8) -> bool {
        let t = usize::from(tile);
        let free = |holder: Option<&u8>| holder.is_none_or(|&h| h == NONE || h == seat);
        self.rules < Rules::V3 || (free(self.tile_at.get(t)) && free(self.tile_won.get(t)))
    }

    /// A sold card leaves the game: a deck card to the discard pile, a start card to the box.
    fn sell(&mut self, seat: u8, id: CardId, per_red: u8) {
        let red = self.card_def(id).map_or(0, |c| c.cost);
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.hand &= !id.bit();
            p.pounds += u16::from(red) * u16::from(per_red);
        }
        if id.0 < DECK_CARDS {
            self.discard |= 1 << id.0;
        } else {
            self.boxed |= id.bit();
        }
    }
}
