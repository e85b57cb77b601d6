//! Action 1, goods: use face-up goods cards of one kind; with their units buy at most one
//! display card (its red value + the display space's) and step company tracks with the rest.
//! Also the units an action area holds, which books and majority spaces read.

use crate::data::{CardKind, Components};
use crate::error::Rule;
use crate::ids::{CardId, Company, DisplayPos, Unit, NONE, SLOTS};
use crate::state::{Player, Stage, State};

/// Bit of the bonus tile in a goods mask.
pub const TILE_BIT: u8 = 1 << SLOTS;

/// The kind and value of a card in game `s` (see [`State::card_def`]).
pub fn card_units(s: &State, card: CardId) -> Option<(Unit, u8)> {
    match s.card_def(card) {
        Some(k) => match k.kind {
            CardKind::Units(u) => Some((u, k.value)),
            _ => None,
        },
        None => None,
    }
}

/// The bonus tile of `unit` in `p`'s area, with its value, if unused.
pub fn up_tile(c: &Components, p: &Player, unit: Unit) -> Option<(usize, u8)> {
    c.bonus_tiles
        .iter()
        .enumerate()
        .find(|(i, t)| t.unit == unit && p.tiles_up & (1 << i) != 0)
        .map(|(i, t)| (i, t.value))
}

/// Units of `unit` on face-up cards and unused tiles (book requirements, Ruling M4).
pub fn face_up_units(s: &State, p: &Player, unit: Unit) -> u32 {
    let c = s.data();
    let cards: u32 = (0..SLOTS)
        .filter_map(|k| p.up_card(k))
        .filter_map(|card| card_units(s, card))
        .filter(|(u, _)| *u == unit)
        .map(|(_, v)| u32::from(v))
        .sum();
    cards + up_tile(c, p, unit).map_or(0, |(_, v)| u32::from(v))
}

/// Units of `unit` on every card and tile in the area, used or not (majorities, Ruling M4).
pub fn area_units(s: &State, p: &Player, unit: Unit) -> u32 {
    if p.ended {
        return 0;
    }
    let c = s.data();
    let cards: u32 = p
        .slots
        .iter()
        .filter(|&&k| k != NONE)
        .filter_map(|&k| card_units(s, CardId(k)))
        .filter(|(u, _)| *u == unit)
        .map(|(_, v)| u32::from(v))
        .sum();
    let tiles: u32 = c
        .bonus_tiles
        .iter()
        .enumerate()
        .filter(|(i, t)| t.unit == unit && p.tiles & (1 << i) != 0)
        .map(|(_, t)| u32::from(t.value))
        .sum();
    cards + tiles
}

/// The purchase price of the card on display space `pos`.
pub fn price(s: &State, pos: DisplayPos) -> Option<u8> {
    let c = s.data();
    let id = *s.display.get(usize::from(pos.0))?;
    if id == NONE {
        return None;
    }
    let card = s.card_def(CardId(id))?;
    Some(card.cost + c.display_price.get(usize::from(pos.0))?)
}

impl State {
    /// Units the goods `mask` names, or the broken rule.
    pub(crate) fn goods_units(&self, seat: u8, good: Unit, mask: u8) -> Result<u8, Rule> {
        let p = self.player(seat).ok_or(Rule::WrongStep)?;
        if !good.is_good() || mask == 0 || mask >= TILE_BIT << 1 {
            return Err(Rule::MixedGoods);
        }
        let mut units = 0u8;
        for slot in 0..SLOTS {
            if mask & (1 << slot) != 0 {
                let card = p.up_card(slot).ok_or(Rule::NotFaceUp)?;
                match card_units(self, card) {
                    Some((u, v)) if u == good => units = units.saturating_add(v),
                    Some((u, _)) if u.is_good() => return Err(Rule::MixedGoods),
                    _ => return Err(Rule::NotFaceUp),
                }
            }
        }
        if mask & TILE_BIT != 0 {
            let (_, v) = up_tile(self.data(), p, good).ok_or(Rule::NotFaceUp)?;
            units = units.saturating_add(v);
        }
        Ok(units)
    }

    pub(crate) fn apply_goods(&mut self, seat: u8, good: Unit, mask: u8) {
        let units = self.goods_units(seat, good, mask).unwrap_or(0);
        let c = self.data();
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            if mask & TILE_BIT != 0 {
                if let Some((i, _)) = up_tile(c, p, good) {
                    p.tiles_up &= !(1 << i);
                }
            }
            p.face_up &= !(mask & (TILE_BIT - 1));
        }
        self.stage = Stage::Goods {
            units,
            bought: false,
        };
    }

    pub(crate) fn check_buy(&self, pos: DisplayPos) -> Result<(), Rule> {
        let Stage::Goods { units, bought } = self.stage else {
            return Err(Rule::WrongStep);
        };
        if bought {
            return Err(Rule::BuyOnce);
        }
        let p = price(self, pos).ok_or(Rule::BuyEmpty)?;
        if p > units {
            return Err(Rule::BuyPrice);
        }
        Ok(())
    }

    /// Moves the card on `pos` into `seat`'s hand.
    pub(crate) fn take_display_card(&mut self, seat: u8, pos: DisplayPos) {
        if let Some(slot) = self.display.get_mut(usize::from(pos.0)) {
            let id = std::mem::replace(slot, NONE);
            if id != NONE {
                if let Some(p) = self.seats.get_mut(usize::from(seat)) {
                    p.hand |= CardId(id).bit();
                }
            }
        }
    }

    pub(crate) fn apply_buy(&mut self, seat: u8, pos: DisplayPos) {
        let cost = price(self, pos).unwrap_or(0);
        self.take_display_card(seat, pos);
        if let Stage::Goods { units, .. } = self.stage {
            let left = units.saturating_sub(cost);
            self.stage = Stage::Goods {
                units: left,
                bought: true,
            };
            if left == 0 {
                self.finish_action();
            }
        }
    }

    pub(crate) fn check_step(&self) -> Result<(), Rule> {
        match self.stage {
            Stage::Goods { units, .. } | Stage::Steps { left: units } if units > 0 => Ok(()),
            Stage::Goods { .. } | Stage::Steps { .. } => Err(Rule::NoUnits),
            _ => Err(Rule::WrongStep),
        }
    }

    pub(crate) fn apply_step(&mut self, seat: u8, company: Company) {
        self.advance_track(seat, company, 1);
        let left = match &mut self.stage {
            Stage::Goods { units, .. } => {
                *units -= 1;
                *units
            }
            Stage::Steps { left } => {
                *left -= 1;
                *left
            }
            _ => 1,
        };
        if left == 0 {
            self.finish_action();
        }
    }
}
