//! Legal moves: candidate moves of the position filtered by [`State::check`], so a move is
//! listed exactly when it would be accepted.

use crate::data::BonusKind;
use crate::goods::{card_units, up_tile, TILE_BIT};
use crate::ids::{bits, BookSpace, CardId, Company, DisplayPos, Region, StartTile, Unit};
use crate::ids::{COLUMNS, DISPLAY, NONE, REGIONS, SLOTS};
use crate::moves::{BonusArg, Move};
use crate::state::{Phase, Stage, State};
use arrayvec::ArrayVec;

/// Capacity of the move list. The largest lists, with every bound taken at once:
/// - planning: at most 54 cards in hand (10 own + 44 deck) × 5 slots + `ready` = 271;
/// - between actions: goods, 3 goods × 63 non-empty subsets of ≤ 5 slots + 1 tile = 189;
///   expand 4; bookkeeper 5; diamond 5; bonus spaces 8 × (12 display spaces or 54 cards)
///   — with the data's one buy and one sell space: 12 + 54 + 6 others = 72; end 5: 280;
/// - expanding: 24 regions × 3 columns × 4 return choices + `done` + `cancel` = 290.
///
/// 320 bounds them all; `legal_tests` asserts the bound on the spaces of the data.
pub const MAX_MOVES: usize = 320;

pub type MoveList = ArrayVec<Move, MAX_MOVES>;

impl State {
    /// Every legal move of the seat to act.
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if let rules_core::ToAct::Seat(seat) = self.to_act() {
            self.legal_moves_of(seat.0, out);
        }
    }

    /// Every legal move of `seat`: empty unless it may move now (during planning and the
    /// start-tile choice, any seat still deciding).
    pub fn legal_moves_of(&self, seat: u8, out: &mut MoveList) {
        out.clear();
        if !self.may_act(seat) {
            return;
        }
        let Some(p) = self.player(seat) else { return };
        let push = |out: &mut MoveList, m: Move| {
            if self.check(seat, &m).is_ok() && !out.is_full() {
                out.push(m);
            }
        };
        match (self.phase, self.stage) {
            (Phase::StartKeep, _) => {
                for t in p.dealt {
                    push(out, Move::Keep(StartTile(t)));
                }
            }
            (Phase::Planning, _) => {
                for id in bits(p.hand) {
                    for slot in 0..p.open_slots(self.data()) {
                        if p.slots[slot] == NONE {
                            push(
                                out,
                                Move::Plan {
                                    card: CardId(id).as_ref(),
                                    slot: slot as u8,
                                },
                            );
                        }
                    }
                }
                push(out, Move::Ready);
            }
            (Phase::Actions, Stage::Top) => self.top_moves(seat, out),
            (Phase::Actions, Stage::Goods { .. }) => {
                for pos in 0..DISPLAY as u8 {
                    push(out, Move::Buy(DisplayPos(pos)));
                }
                for c in Company::ALL {
                    push(out, Move::Step(c));
                }
                push(out, Move::Done);
            }
            (Phase::Actions, Stage::Steps { .. }) => {
                for c in Company::ALL {
                    push(out, Move::Step(c));
                }
                push(out, Move::Done);
            }
            (Phase::Actions, Stage::Expand { .. }) => {
                for r in 0..REGIONS as u8 {
                    for column in 0..COLUMNS as u8 {
                        let rets: [Option<u8>; 4] = [None, Some(0), Some(1), Some(2)];
                        for ret in rets {
                            push(
                                out,
                                Move::Enter {
                                    region: Region(r),
                                    column,
                                    ret,
                                },
                            );
                        }
                    }
                }
                push(out, Move::Done);
            }
            (Phase::Actions, Stage::Clerk { .. }) => {
                for pos in 1..=p.books.len() as u8 {
                    push(out, Move::Flip(pos));
                }
                push(out, Move::Ink);
                push(out, Move::Done);
            }
            (Phase::Actions, Stage::Points { .. }) => {
                for sp in 0..DISPLAY as u8 {
                    push(out, Move::Book(BookSpace(sp)));
                }
                push(out, Move::Pound);
            }
            _ => {}
        }
        // Rules 2: an unfinished action may be taken back.
        if self.phase == Phase::Actions && self.stage != Stage::Top {
            push(out, Move::Cancel);
        }
    }

    fn top_moves(&self, seat: u8, out: &mut MoveList) {
        let c = self.data();
        let Some(p) = self.player(seat) else { return };
        let push = |out: &mut MoveList, m: Move| {
            if self.check(seat, &m).is_ok() && !out.is_full() {
                out.push(m);
            }
        };
        for good in Unit::GOODS {
            let mut items = 0u8;
            for slot in 0..SLOTS {
                if let Some((u, _)) = p.up_card(slot).and_then(|card| card_units(self, card)) {
                    if u == good {
                        items |= 1 << slot;
                    }
                }
            }
            if up_tile(c, p, good).is_some() {
                items |= TILE_BIT;
            }
            // Every non-empty subset of the eligible items, smallest mask first.
            let mut sub = items;
            let mut subsets: ArrayVec<u8, 64> = ArrayVec::new();
            while sub != 0 {
                subsets.push(sub);
                sub = (sub - 1) & items;
            }
            for &mask in subsets.iter().rev() {
                push(out, Move::Goods { good, mask });
            }
        }
        for co in Company::ALL {
            push(out, Move::Expand(co));
        }
        for slot in 0..SLOTS as u8 {
            push(out, Move::Clerk(slot));
            push(out, Move::Diamond(slot));
        }
        for (i, space) in c.bonus.iter().enumerate() {
            let space_i = i as u8;
            match space.kind {
                BonusKind::BuyCard { .. } => {
                    for pos in 0..DISPLAY as u8 {
                        push(
                            out,
                            Move::Bonus {
                                space: space_i,
                                arg: BonusArg::Display(DisplayPos(pos)),
                            },
                        );
                    }
                }
                BonusKind::SellCard { .. } => {
                    for id in bits(p.hand) {
                        push(
                            out,
                            Move::Bonus {
                                space: space_i,
                                arg: BonusArg::Card(CardId(id).as_ref()),
                            },
                        );
                    }
                }
                _ => push(
                    out,
                    Move::Bonus {
                        space: space_i,
                        arg: BonusArg::None,
                    },
                ),
            }
        }
        for pile in 0..SLOTS as u8 {
            push(out, Move::End(pile));
        }
    }
}

#[cfg(test)]
mod legal_tests {
    use super::*;

    #[test]
    fn the_capacity_bounds_the_data() {
        for h in crate::data::version_hashes() {
            let c = crate::data::version(h).unwrap();
            let mut bonus = 0;
            for s in &c.bonus {
                bonus += match s.kind {
                    BonusKind::BuyCard { .. } => DISPLAY,
                    BonusKind::SellCard { .. } => 54,
                    _ => 1,
                };
            }
            assert!(3 * 63 + 4 + 5 + 5 + bonus + 5 <= MAX_MOVES);
        }
        const { assert!(54 * SLOTS < MAX_MOVES) };
        const { assert!(REGIONS * COLUMNS * 4 < MAX_MOVES) };
    }
}
