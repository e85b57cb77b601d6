//! Merchandise: selling sets of distinct goods for gold (1-3-7-13-21-30-40-50-60), their
//! end-game value with Al-Amin's wild Fakir pairs, and drawing from the resource pile with its
//! reshuffle.

use crate::data::components;
use crate::error::Rule;
use crate::ids::Res;
use crate::moves::Goods;
use crate::state::State;

/// Value of one set of `n` distinct goods.
pub fn set_value(n: usize) -> u32 {
    let v = &components().suit_values;
    v[n.min(v.len() - 1)]
}

/// Best total over all splits of `goods` into sets of distinct goods (Ruling 14: the greedy
/// split, set k holding every type held at least k times, is optimal because each extra good
/// in a set is worth at least as much as the one before).
pub fn goods_value(goods: &[u8; 9]) -> u32 {
    let max = goods.iter().copied().max().unwrap_or(0);
    (1..=max)
        .map(|k| set_value(goods.iter().filter(|&&n| n >= k).count()))
        .sum()
}

/// Best value with `wilds` goods of free choice added (Al-Amin: a pair of Fakirs is one).
/// Tries every distribution; at most 9 wilds over 9 types.
pub fn goods_value_with_wilds(goods: &[u8; 9], wilds: u8) -> u32 {
    fn go(goods: &mut [u8; 9], from: usize, wilds: u8) -> u32 {
        if wilds == 0 || from == 9 {
            return goods_value(goods);
        }
        let mut best = 0;
        for k in 0..=wilds {
            goods[from] += k;
            best = best.max(go(goods, from + 1, wilds - k));
            goods[from] -= k;
        }
        best
    }
    let mut g = *goods;
    go(&mut g, 0, wilds.min(9))
}

impl State {
    pub(crate) fn check_sell(&self, seat: u8, g: Goods) -> Result<(), Rule> {
        if g.is_empty() {
            return Err(Rule::EmptySet);
        }
        if g.0 & (1 << Res::FAKIR.0) != 0 {
            return Err(Rule::SellFakirs);
        }
        if g.0 >> Res::COUNT != 0 {
            return Err(Rule::NotHeld); // no such card
        }
        let p = self.player(seat);
        if g.iter().any(|r| p.cards[usize::from(r.0)] == 0) {
            return Err(Rule::NotHeld);
        }
        Ok(())
    }

    pub(crate) fn apply_sell(&mut self, seat: u8, g: Goods) {
        for r in g.iter() {
            self.player_mut(seat).cards[usize::from(r.0)] -= 1;
            self.discard[usize::from(r.0)] += 1;
        }
        self.player_mut(seat).gold += set_value(g.len() as usize);
    }

    /// Removes `cards` from the pile in order, reshuffling the discards into the pile when it
    /// runs out. `None` if the pile cannot give these cards.
    pub(crate) fn draw_cards(
        deck: &mut [u8; Res::COUNT],
        discard: &mut [u8; Res::COUNT],
        cards: &[Res],
    ) -> Option<()> {
        for &c in cards {
            if deck.iter().all(|&n| n == 0) {
                *deck = *discard;
                *discard = [0; Res::COUNT];
            }
            let slot = deck.get_mut(usize::from(c.0))?;
            *slot = slot.checked_sub(1)?;
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_score_by_the_table() {
        assert_eq!(goods_value(&[1, 1, 1, 0, 0, 0, 0, 0, 0]), 7);
        // 2 fish + 1 wheat: {fish, wheat} = 3 and {fish} = 1.
        assert_eq!(goods_value(&[0, 0, 0, 0, 0, 0, 2, 1, 0]), 4);
        assert_eq!(goods_value(&[1; 9]), 60);
        assert_eq!(goods_value(&[0; 9]), 0);
    }

    #[test]
    fn wilds_go_where_they_count_most() {
        // Two different goods and one wild: a set of three (7) beats anything else.
        assert_eq!(goods_value_with_wilds(&[1, 1, 0, 0, 0, 0, 0, 0, 0], 1), 7);
        // Nothing held, two wilds: a set of two (3).
        assert_eq!(goods_value_with_wilds(&[0; 9], 2), 3);
    }
}
