//! The diamond track and the diamond traders.
//!
//! A trader's effect is data (`cards.json`): steps, pounds, and for a company trader one more
//! step per so many mine icons in the regions that company holds (the text's Cairo example).

use crate::data::CardKind;
use crate::ids::{CardId, Company};
use crate::state::State;

impl State {
    /// Moves `seat`'s diamond marker; each step past the end pays 2 pounds (Ruling M7).
    pub(crate) fn advance_diamond(&mut self, seat: u8, steps: u8) {
        let c = self.data();
        let Some(p) = self.seats.get_mut(usize::from(seat)) else {
            return;
        };
        for _ in 0..steps {
            if p.diamond + 1 < c.diamond.length {
                p.diamond += 1;
            } else {
                p.pounds += u16::from(c.diamond_overflow);
            }
        }
    }

    /// Mine icons in the regions `company` holds.
    pub fn mines_of(&self, company: Company) -> u32 {
        let c = self.data();
        self.regions_of(company)
            .filter_map(|r| c.regions.get(r))
            .map(|r| u32::from(r.mines))
            .sum()
    }

    /// The steps and pounds a diamond trader gives now.
    pub fn trader_effect(&self, card: CardId) -> (u8, u8) {
        match self.card_def(card).map(|k| (k.kind, k.value)) {
            Some((
                CardKind::Diamond {
                    pounds,
                    mines,
                    per_mines,
                },
                value,
            )) => {
                let extra = match mines {
                    Some(co) if per_mines > 0 => self.mines_of(co) / u32::from(per_mines),
                    _ => 0,
                };
                (value.saturating_add(extra.min(50) as u8), pounds)
            }
            _ => (0, 0),
        }
    }

    /// Applies a checked diamond-trader action.
    pub(crate) fn apply_diamond(&mut self, seat: u8, slot: usize) {
        let Some(card) = self.player(seat).and_then(|p| p.up_card(slot)) else {
            return;
        };
        let (steps, pounds) = self.trader_effect(card);
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.face_up &= !(1 << slot);
            p.pounds += u16::from(pounds);
        }
        self.advance_diamond(seat, steps);
    }
}
