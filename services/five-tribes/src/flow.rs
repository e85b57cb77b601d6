//! The shape of a game: who acts, checking and applying a move, and the automatic steps
//! between decisions (forced tile actions, turn and round changes, clean-up, game end).
//!
//! Every move is checked in full by `check` before `apply` touches the state, and `apply`
//! has no failure path: that is how a refused move leaves the state unchanged.

use crate::data::components;
use crate::error::Rule;
use crate::moves::Move;
use crate::state::{Phase, Resume, Rules, Stage, State, BID_SPOTS, NOBODY};
use rules_core::ToAct;

impl State {
    /// A new game for `players` players, waiting on its deal, under the current rules.
    pub fn new(players: u8) -> State {
        State::new_under(players, crate::state::Rules::CURRENT)
    }

    /// A new game for `players` players under the rules version `rules`.
    pub fn new_under(players: u8, rules: crate::state::Rules) -> State {
        let c = components();
        State {
            players,
            round: 0,
            phase: Phase::Deal,
            board: crate::state::Board::new([0; crate::board::TILES]),
            bag: c.meeple_counts,
            palms_left: c.palms,
            palaces_left: c.palaces,
            seats: Default::default(),
            row: Default::default(),
            deck: [0; 10],
            discard: [0; 10],
            djinn_row: Default::default(),
            djinn_deck: Default::default(),
            djinn_discard: Default::default(),
            bid_order: Default::default(),
            turn_track: [NOBODY; BID_SPOTS],
            ending: None,
            djinns_used: Default::default(),
            pending: None,
            rules,
        }
    }

    pub fn to_act(&self) -> ToAct {
        if self.pending.is_some() {
            return ToAct::Chance;
        }
        match &self.phase {
            Phase::Deal | Phase::Refill => ToAct::Chance,
            Phase::Over => ToAct::Over,
            Phase::Bid => match self.bid_order.first() {
                Some(&s) => ToAct::Seat(rules_core::Seat(s)),
                None => ToAct::Over,
            },
            Phase::Turn { seat, .. } => ToAct::Seat(rules_core::Seat(*seat)),
        }
    }

    /// Checks `m` by the seat to act, without changing anything.
    pub(crate) fn check(&self, seat: u8, m: &Move) -> Result<(), Rule> {
        match (&self.phase, m) {
            (Phase::Bid, Move::Bid { spot, kumarbi }) => self.check_bid(seat, *spot, *kumarbi),
            (Phase::Turn { stage, .. }, _) => self.check_in_turn(seat, stage, m),
            _ => Err(Rule::WrongStep),
        }
    }

    fn check_in_turn(&self, seat: u8, stage: &Stage, m: &Move) -> Result<(), Rule> {
        match (stage, m) {
            (Stage::Start, Move::Pick(t)) => {
                if t.0 >= crate::board::TILES as u8 {
                    return Err(Rule::EmptyTile);
                }
                self.check_pick(*t)
            }
            (Stage::Start | Stage::Free, Move::Use(u)) => self.check_use(seat, *u),
            // §2.6: the sale comes "before ending your turn", after the move and its actions.
            // Before picking up it is refused while a move is possible; a turn without one
            // (Ruling 12, F9) may still sell before `end`.
            (Stage::Start, Move::Sell(g)) if self.rules >= Rules::V2 => {
                self.check_sell(seat, *g)?;
                if self.any_legal_pick() {
                    Err(Rule::SellAfterMove)
                } else {
                    Ok(())
                }
            }
            (Stage::Start | Stage::Free, Move::Sell(g)) => self.check_sell(seat, *g),
            (Stage::Start, Move::End) => {
                if self.any_legal_pick() {
                    Err(Rule::MustMove)
                } else {
                    Ok(())
                }
            }
            (Stage::Free, Move::End) => Ok(()),
            (Stage::Moving { at, from, hand }, Move::Drop { to, colour }) => {
                self.check_drop(*at, *from, *hand, *to, *colour)
            }
            (Stage::Builders { .. }, Move::Build { fakirs, echidna }) => {
                self.check_build(seat, *fakirs, *echidna)
            }
            (Stage::Assassins { tile, count }, Move::Kill { target, iblis }) => {
                self.check_kill(seat, *tile, *count, *target, *iblis)
            }
            (Stage::Assassins { .. }, Move::NoKill) => Ok(()),
            (
                Stage::TileAction { tile },
                Move::Palm(_)
                | Move::Palace(_)
                | Move::Buy { .. }
                | Move::TakeDjinn { .. }
                | Move::Skip,
            ) => self.check_tile_move(seat, *tile, m),
            (Stage::Sibittis { drawn, .. }, Move::Keep(d)) => Self::check_keep(drawn, *d),
            _ => Err(Rule::WrongStep),
        }
    }

    /// Applies a checked move and runs the automatic steps that follow it.
    pub(crate) fn apply(&mut self, seat: u8, m: &Move) {
        let stage = match &self.phase {
            Phase::Turn { stage, .. } => Some(stage.clone()),
            _ => None,
        };
        match (stage, m) {
            (None, Move::Bid { spot, kumarbi }) => self.apply_bid(seat, *spot, *kumarbi),
            (Some(Stage::Start), Move::Pick(t)) => self.apply_pick(seat, *t),
            (Some(Stage::Start), Move::Use(u)) => self.apply_use(seat, *u, Resume::Start),
            (Some(_), Move::Use(u)) => self.apply_use(seat, *u, Resume::Free),
            (Some(_), Move::Sell(g)) => self.apply_sell(seat, *g),
            (Some(_), Move::End) => self.next_turn(),
            (Some(Stage::Moving { at, hand, .. }), Move::Drop { to, colour }) => {
                self.apply_drop(seat, at, hand, *to, *colour)
            }
            (Some(Stage::Builders { tile, count }), Move::Build { fakirs, echidna }) => {
                self.apply_build(seat, tile, count, *fakirs, *echidna)
            }
            (Some(Stage::Assassins { tile, count }), Move::Kill { target, iblis }) => {
                self.apply_kill(seat, tile, count, *target, *iblis)
            }
            (Some(Stage::Assassins { tile, .. }), Move::NoKill) => {
                self.phase = Phase::Turn {
                    seat,
                    stage: Stage::TileAction { tile },
                };
            }
            (Some(Stage::TileAction { tile }), _) => self.apply_tile_move(seat, tile, m),
            (Some(Stage::Sibittis { drawn, resume }), Move::Keep(d)) => {
                self.apply_keep(seat, &drawn, *d, resume)
            }
            _ => {}
        }
        self.advance();
    }

    /// Runs the steps that need no decision: builders with nothing to add, assassins with no
    /// one to kill, tile actions with nothing to choose.
    #[inline]
    pub(crate) fn advance(&mut self) {
        // Most entries leave the turn at a step with a choice: only the steps that may play
        // themselves go into the loop (out of line, with the registers it saves).
        if self.pending.is_none()
            && matches!(
                self.phase,
                Phase::Turn {
                    stage: Stage::Builders { .. }
                        | Stage::Assassins { .. }
                        | Stage::TileAction { .. },
                    ..
                }
            )
        {
            self.advance_steps();
        }
    }

    /// [`State::advance`]'s loop.
    #[inline(never)]
    fn advance_steps(&mut self) {
        while self.pending.is_none() {
            let Phase::Turn { seat, stage } = &self.phase else {
                return;
            };
            let seat = *seat;
            match *stage {
                Stage::Builders { tile, count } if !self.build_has_choice(seat) => {
                    self.apply_build(seat, tile, count, 0, None);
                }
                Stage::Assassins { tile, count } if !self.any_kill_target(seat, tile, count) => {
                    self.phase = Phase::Turn {
                        seat,
                        stage: Stage::TileAction { tile },
                    };
                }
                Stage::TileAction { tile } if !self.tile_action_has_choice(seat, tile) => {
                    self.auto_tile_action(seat, tile);
                }
                _ => return,
            }
        }
    }

    /// The next marker on the turn order track (highest spot first) takes its turn, or the
    /// round ends.
    pub(crate) fn next_turn(&mut self) {
        let Some(spot) = (0..BID_SPOTS).rev().find(|&s| self.turn_track[s] != NOBODY) else {
            self.end_round();
            return;
        };
        let seat = self.turn_track[spot];
        self.turn_track[spot] = NOBODY;
        // 2.1: the marker goes to the first free spot of the bid order track.
        self.bid_order.push(seat);
        self.djinns_used = Default::default();
        self.phase = Phase::Turn {
            seat,
            stage: Stage::Start,
        };
        if self.ending.is_none() && !self.any_legal_pick() {
            self.ending = Some(crate::state::Ending::NoMeepleMove);
        }
    }

    fn end_round(&mut self) {
        if self.ending.is_some() {
            self.phase = Phase::Over;
            return;
        }
        let (cards, djinns) = self.refill_counts();
        if cards + djinns > 0 {
            self.phase = Phase::Refill;
        } else {
            self.start_round();
        }
    }

    pub(crate) fn start_round(&mut self) {
        self.round += 1;
        self.phase = Phase::Bid;
        self.djinns_used = Default::default();
    }
}
