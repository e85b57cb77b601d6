//! Who acts, and check-then-apply: [`State::check`] is the single legality predicate for
//! moves; [`State::apply`] runs only after it passed, so it cannot fail.
//!
//! Rules 2 make an action all or nothing for its player: the position before a multi-step
//! action began is kept (`State::undo`) until the action ends, and `cancel` restores it, so
//! a step refused halfway never leaves a half-done action the seat cannot take back. Once
//! the action reveals something (a book drawn to refill the display) it can no longer be
//! cancelled; what is left then (spending bookkeeping points) always has a legal move. Rules 4
//! allow one cancel a turn: the action begun after it keeps no position, so no seat can begin
//! and cancel actions forever.

use crate::error::Rule;
use crate::ids::NONE;
use crate::moves::Move;
use crate::state::{Phase, Rules, Stage, State};
use crate::undo::Undo;
use rules_core::{Seat, ToAct};

impl State {
    #[inline]
    pub fn to_act(&self) -> ToAct {
        match self.phase {
            Phase::Setup | Phase::StartDeal | Phase::StartReveal | Phase::Reveal | Phase::Prep => {
                ToAct::Chance
            }
            Phase::StartKeep | Phase::Planning => match self.first_undecided() {
                Some(s) => ToAct::Seat(Seat(s)),
                None => ToAct::Chance,
            },
            Phase::Actions if self.book_refill != NONE => ToAct::Chance,
            Phase::Actions => ToAct::Seat(Seat(self.turn)),
            Phase::Over => ToAct::Over,
        }
    }

    /// Every seat that may move now: during the start-tile choice and planning, every seat
    /// still deciding (they decide face down, in any order); otherwise the seat to act.
    pub fn seats_to_act(&self) -> Vec<Seat> {
        match self.phase {
            Phase::StartKeep | Phase::Planning => (0..self.seats.len() as u8)
                .filter(|&s| self.undecided(s))
                .map(Seat)
                .collect(),
            _ => match self.to_act() {
                ToAct::Seat(s) => vec![s],
                ToAct::Chance | ToAct::Over => Vec::new(),
            },
        }
    }

    /// Whether `seat` may move now (see [`State::seats_to_act`]).
    #[inline]
    pub fn may_act(&self, seat: u8) -> bool {
        match self.phase {
            Phase::StartKeep | Phase::Planning => self.undecided(seat),
            _ => self.to_act() == ToAct::Seat(Seat(seat)),
        }
    }

    /// Whether `seat` has still to make its secret choice of this phase.
    fn undecided(&self, seat: u8) -> bool {
        self.seats
            .get(usize::from(seat))
            .is_some_and(|p| match self.phase {
                Phase::StartKeep => p.start == NONE,
                Phase::Planning => !p.ready,
                _ => false,
            })
    }

    /// Whether `seat` (a seat that may act) may play `m` now.
    pub fn check(&self, seat: u8, m: &Move) -> Result<(), Rule> {
        match (self.phase, self.stage, *m) {
            (Phase::StartKeep, _, Move::Keep(t)) => self.check_keep(seat, t),
            (Phase::Planning, _, Move::Plan { card, slot }) => self.check_plan(seat, card, slot),
            (Phase::Planning, _, Move::Ready) => Ok(()),
            (Phase::Actions, Stage::Top, mv) => self.check_top(seat, mv),
            (Phase::Actions, Stage::Goods { .. }, Move::Buy(pos)) => self.check_buy(pos),
            (Phase::Actions, Stage::Goods { .. } | Stage::Steps { .. }, Move::Step(_)) => {
                self.check_step()
            }
            (
                Phase::Actions,
                Stage::Goods { .. }
                | Stage::Steps { .. }
                | Stage::Expand { .. }
                | Stage::Clerk { .. },
                Move::Done,
            ) => Ok(()),
            (
                Phase::Actions,
                Stage::Expand { .. },
                Move::Enter {
                    region,
                    column,
                    ret,
                },
            ) => self.check_enter(region, column, ret),
            (Phase::Actions, Stage::Clerk { .. }, Move::Flip(pos)) => self.check_flip(seat, pos),
            (Phase::Actions, Stage::Clerk { .. }, Move::Ink) => self.check_ink(seat),
            (Phase::Actions, Stage::Points { .. }, Move::Book(space)) => {
                self.check_book(seat, space)
            }
            (Phase::Actions, Stage::Points { .. }, Move::Pound) => Ok(()),
            (Phase::Actions, stage, Move::Cancel) if stage != Stage::Top => {
                match (self.rules, &self.undo) {
                    (Rules::V1, _) => Err(Rule::WrongStep),
                    (_, Undo::None) => Err(Rule::CancelCommitted),
                    (_, Undo::Spent) => Err(Rule::CancelUsed),
                    (_, Undo::Kept(_)) => Ok(()),
                }
            }
            _ => Err(Rule::WrongStep),
        }
    }

    fn check_top(&self, seat: u8, m: Move) -> Result<(), Rule> {
        match m {
            Move::Goods { good, mask } => self.goods_units(seat, good, mask).map(|_| ()),
            Move::Expand(_) => {
                if self.expansion_points(seat) > 0 {
                    Ok(())
                } else {
                    Err(Rule::NoExpansion)
                }
            }
            Move::Clerk(slot) => self.check_clerk(seat, slot),
            Move::Diamond(slot) => {
                let p = self.player(seat).ok_or(Rule::WrongStep)?;
                match p.up_card(usize::from(slot)).map(|c| self.trader_effect(c)) {
                    Some((steps, pounds)) if steps > 0 || pounds > 0 => Ok(()),
                    _ => Err(Rule::NoDiamondTrader),
                }
            }
            Move::Bonus { space, arg } => self.check_bonus(seat, space, arg),
            Move::End(pile) => self.check_end(seat, pile),
            _ => Err(Rule::WrongStep),
        }
    }

    /// Applies a move that [`State::check`] accepted.
    pub fn apply(&mut self, seat: u8, m: &Move) {
        // Rules 2: an action that does not end with its first move keeps the position it
        // began from, for `cancel` (dropped when the action ends or reveals a draw). Ending
        // the turn, a diamond trader and most bonuses end at once: no copy kept for them
        // (half the actions begun in random games, each a copy of the whole position).
        let at_once = match *m {
            Move::End(_) | Move::Diamond(_) => true,
            Move::Bonus { space, .. } => self.bonus_ends_at_once(space),
            _ => false,
        };
        // Rules 4: after a cancel, the turn's next action keeps nothing (one cancel a turn).
        let before = (self.rules >= Rules::V2
            && self.phase == Phase::Actions
            && self.stage == Stage::Top
            && !at_once
            && !matches!(self.undo, Undo::Spent))
        .then(|| self.keep());
        self.apply_move(seat, m);
        let unfinished =
            self.phase == Phase::Actions && self.stage != Stage::Top && self.book_refill == NONE;
        debug_assert!(!(at_once && unfinished), "{m:?} left its action unfinished");
        if let Some(b) = before {
            if unfinished {
                self.undo = Undo::Kept(b);
            } else {
                self.recycle(b);
            }
        }
    }

    fn apply_move(&mut self, seat: u8, m: &Move) {
        match *m {
            Move::Keep(t) => self.apply_keep(seat, t),
            Move::Plan { card, slot } => self.apply_plan(seat, card, slot),
            Move::Ready => self.apply_ready(seat),
            Move::Goods { good, mask } => self.apply_goods(seat, good, mask),
            Move::Buy(pos) => self.apply_buy(seat, pos),
            Move::Step(c) => self.apply_step(seat, c),
            Move::Done => match self.stage {
                Stage::Expand {
                    company, entered, ..
                } => self.expansion_rewards(company, entered),
                Stage::Clerk { .. } => self.apply_clerk_stop(seat),
                _ => self.finish_action(),
            },
            Move::Expand(c) => self.apply_expand(seat, c),
            Move::Enter {
                region,
                column,
                ret,
            } => self.apply_enter(region, column, ret),
            Move::Clerk(slot) => self.apply_clerk(seat, slot),
            Move::Flip(pos) => self.apply_flip(seat, pos),
            Move::Ink => self.apply_ink(seat),
            Move::Book(space) => self.apply_book(seat, space),
            Move::Pound => self.apply_pound(seat),
            Move::Diamond(slot) => {
                self.apply_diamond(seat, usize::from(slot));
                self.finish_action();
            }
            Move::Bonus { space, arg } => self.apply_bonus(seat, space, arg),
            Move::End(pile) => self.apply_end(seat, pile),
            Move::Cancel => self.restore_undo(),
        }
    }
}
