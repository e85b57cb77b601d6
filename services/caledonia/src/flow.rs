//! Who acts, the single legality predicate (`check`) and its infallible application
//! (`apply`), and the automatic steps between decisions: ending turns, production, round
//! scoring, preparation and the end of the game.

use crate::error::Rule;
use crate::ids::Clan;
use crate::moves::Move;
use crate::state::{Phase, Rules, State, Step, Turn};
use rules_core::{Seat, ToAct};

/// Where a turn goes after [`State::settle`].
enum Settled {
    /// Its seat decides the step it is at.
    Decide,
    /// A chance entry draws contracts for its building bonus first.
    Draw,
    /// The turn is over.
    Over,
}

impl State {
    pub fn to_act(&self) -> ToAct {
        match &self.phase {
            Phase::Deal | Phase::Prep | Phase::Draw(_) => ToAct::Chance,
            Phase::Clans { idx } => ToAct::Seat(Seat(self.clan_chooser(*idx))),
            Phase::Workers { idx } => match self.placer(*idx) {
                Some(s) => ToAct::Seat(Seat(s)),
                None => ToAct::Over,
            },
            Phase::Action(t) => ToAct::Seat(Seat(t.seat)),
            Phase::Production { seat, .. } => ToAct::Seat(Seat(*seat)),
            Phase::Over => ToAct::Over,
        }
    }

    /// Clans are chosen in reverse turn order: the first player chooses last.
    pub fn clan_chooser(&self, idx: u8) -> u8 {
        let n = self.order.len();
        let i = n.saturating_sub(1 + usize::from(idx));
        self.order.get(i).copied().unwrap_or(0)
    }

    /// The seat placing initial worker `idx`: turn order, then reversed (snake), then
    /// Fergusson's third worker.
    pub fn placer(&self, idx: u8) -> Option<u8> {
        let n = self.order.len();
        let i = usize::from(idx);
        if i < n {
            self.order.get(i).copied()
        } else if i < 2 * n {
            self.order.get(2 * n - 1 - i).copied()
        } else if i == 2 * n {
            self.seats
                .iter()
                .position(|p| p.clan == Clan::Fergusson && p.start_tile != 0)
                .map(|s| s as u8)
        } else {
            None
        }
    }

    /// The one legality predicate: `Ok` exactly when `apply` may run.
    pub fn check(&self, seat: u8, m: &Move) -> Result<(), Rule> {
        match &self.phase {
            Phase::Clans { .. } => match m {
                Move::Clan(c) => self.check_clan(*c),
                _ => Err(Rule::WrongStep),
            },
            Phase::Workers { .. } => match m {
                Move::Place(u, h) => self.check_place(seat, *u, *h),
                Move::Done => self.check_place_done(seat),
                _ => Err(Rule::WrongStep),
            },
            Phase::Action(t) => self.check_turn(t, seat, m).map(drop),
            Phase::Production { milk, .. } => match (m, milk) {
                (Move::Make { .. }, false) => self.check_make(seat, m),
                (Move::Milk(k), true) => self.check_milk(seat, *k),
                _ => Err(Rule::WrongStep),
            },
            _ => Err(Rule::WrongStep),
        }
    }

    /// `check` of a move of the action phase. `Ok` holds what the check worked out that
    /// `apply_turn` needs again: an expansion's cost (checked against the seat's money).
    /// The commonest moves (expansions, trades, passes, shipping, hiring) are told apart
    /// here; the rest by `check_step`.
    #[inline(always)]
    fn check_turn(&self, t: &Turn, seat: u8, m: &Move) -> Result<Option<i32>, Rule> {
        let main = matches!(t.step, Step::Start) && m.is_main();
        if main && (t.meat_discount || t.price_good.is_some()) {
            self.check_bound_main(t, seat, m)?;
        }
        let cost = self.check_move(t, seat, m)?;
        // Rules 4: between port 6 and the trade it is for, every other decision keeps that
        // trade possible (the trade itself is the main action `check_bound_main` allows);
        // between port 1 and its meat fulfilment, that fulfilment.
        if !t.main_done && !main && self.rules >= Rules::V4 {
            if let Some(good) = t.price_good {
                self.check_price_kept(seat, m, cost, good)?;
            }
            if t.meat_discount {
                self.check_meat_kept(seat, m, cost)?;
            }
        }
        Ok(cost)
    }

    /// [`State::check_turn`] of the move itself, whatever a port binds.
    #[inline(always)]
    fn check_move(&self, t: &Turn, seat: u8, m: &Move) -> Result<Option<i32>, Rule> {
        match (&t.step, m) {
            (Step::Start, Move::Expand(u, h)) => self.check_expand(seat, *u, *h, false).map(Some),
            (Step::Bonus, Move::Expand(u, h)) if t.expands > 0 => {
                self.check_expand(seat, *u, *h, true).map(Some)
            }
            (Step::Start, Move::Trade { good, sell, n }) => {
                self.check_trade(seat, *good, *sell, *n).map(|()| None)
            }
            (Step::Start, Move::Pass) => Ok(None),
            (Step::Start, Move::Ship) => self.check_ship(seat).map(|()| None),
            (Step::Start, Move::Hire) => self.check_hire(seat).map(|()| None),
            _ => self.check_step(t, seat, m).map(|()| None),
        }
    }

    /// [`State::check_turn`] of the moves it does not tell apart itself.
    fn check_step(&self, t: &Turn, seat: u8, m: &Move) -> Result<(), Rule> {
        match (&t.step, m) {
            (Step::Start, Move::Port { port, ks, args }) => {
                self.check_port(t, seat, *port, *ks, args)
            }
            (Step::Start, Move::Row(a, b)) => self.check_row(t, seat, *a, *b),
            (Step::Start, Move::Cellar(i)) => self.check_cellar(seat, *i),
            (Step::Start, Move::Obtain(list)) => self.check_obtain(seat, list),
            (Step::Start, Move::Tech(k)) => self.check_tech(seat, *k, false),
            (
                Step::Start,
                Move::Fulfil {
                    contracts,
                    slaughter,
                },
            ) => self.check_fulfil_turn(t, seat, contracts, slaughter),
            (Step::Neighbour { goods }, Move::Neighbour(g, n)) => {
                self.check_neighbour(t, seat, *goods, *g, *n)
            }
            (Step::Neighbour { .. }, Move::Done) => Ok(()),
            (Step::Keep { drawn, max }, Move::Keep(list)) => {
                self.check_keep(seat, drawn, *max, list)
            }
            (
                Step::Fulfil {
                    contracts,
                    slaughter,
                },
                Move::Expand(u, h),
            ) => self
                .after_fulfil(t, seat, contracts, slaughter)
                .check_expand(seat, *u, *h, true)
                .map(drop),
            (Step::Fulfil { .. }, Move::Done | Move::Cancel) => Ok(()),
            (Step::Exchange { .. }, Move::Swap(h, u)) => self.check_swap(t, seat, *h, *u),
            (Step::Exchange { .. }, Move::Done) => Ok(()),
            (Step::Bonus, Move::Upgrade(u)) => self.check_upgrade(t, seat, *u),
            (Step::Bonus, Move::Brew(k)) => self.check_brew(t, seat, *k),
            (Step::Bonus, Move::Done) => Ok(()),
            (Step::After, Move::Port { port, ks, args }) => {
                self.check_port(t, seat, *port, *ks, args)
            }
            (Step::After, Move::Cellar(i)) => self.check_cellar(seat, *i),
            (Step::After, Move::Done) => Ok(()),
            (Step::Bonus, Move::Expand(..)) => Err(Rule::NoUpgrade),
            (
                Step::Neighbour { .. }
                | Step::Keep { .. }
                | Step::Exchange { .. }
                | Step::Bonus
                | Step::After,
                Move::Trade { .. }
                | Move::Obtain(_)
                | Move::Expand(..)
                | Move::Ship
                | Move::Tech(_)
                | Move::Hire
                | Move::Fulfil { .. }
                | Move::Pass,
            ) => Err(Rule::MainDone),
            _ => Err(Rule::WrongStep),
        }
    }

    /// A port used before the main action that binds it (rare: apart from `check_turn`).
    #[inline(never)]
    fn check_bound_main(&self, t: &Turn, seat: u8, m: &Move) -> Result<(), Rule> {
        // Port 1 was used for this turn's fulfilment: the main action is that fulfilment
        // (rules 3: while a meat contract can be fulfilled; rules 4: always, `meat_forced`).
        if !matches!(m, Move::Fulfil { .. }) && self.meat_forced(t, seat) {
            return Err(Rule::PortMeatUnused);
        }
        // Rules 3: port 6 moved a price "before trading that good": while that trade is
        // possible, it is the main action (rules 4: it always is, `price_forced`).
        if self
            .price_forced(t, seat)
            .is_some_and(|g| !matches!(m, Move::Trade { good, .. } if *good == g))
        {
            return Err(Rule::PortPriceUnused);
        }
        Ok(())
    }

    /// Rules 4: a decision taken after port 6 and before the trade of its good (a free
    /// action, or a step one of them opened: a bonus upgrade, a neighbour purchase, a keep)
    /// must leave that trade possible. Rare, so the position is simply played on a copy.
    #[cold]
    #[inline(never)]
    fn check_price_kept(
        &self,
        seat: u8,
        m: &Move,
        cost: Option<i32>,
        good: crate::ids::Good,
    ) -> Result<(), Rule> {
        let mut after = self.clone();
        after.apply_turn(seat, m, cost);
        if after.trade_possible(seat, good) {
            Ok(())
        } else {
            Err(Rule::PortPriceTradeLost)
        }
    }

    /// Rules 4: a decision taken after port 1 and before the meat fulfilment it discounts (a
    /// free action, or a step one of them opened: an exchange, a bonus upgrade, a keep) must
    /// leave that fulfilment possible; the step of a pending fulfilment (its free expansion,
    /// `done`, `cancel`) is that fulfilment, or takes it back. Played on a copy, as
    /// `check_price_kept`.
    #[cold]
    #[inline(never)]
    fn check_meat_kept(&self, seat: u8, m: &Move, cost: Option<i32>) -> Result<(), Rule> {
        let mut after = self.clone();
        after.apply_turn(seat, m, cost);
        let bound = match &after.phase {
            Phase::Action(t) | Phase::Draw(t) if t.seat == seat => {
                t.meat_discount && !t.main_done && !after.discount_usable(t, seat)
            }
            _ => false,
        };
        if bound {
            Err(Rule::PortMeatFulfilmentLost)
        } else {
            Ok(())
        }
    }

    /// Applies a move `check` accepted.
    pub fn apply(&mut self, seat: u8, m: &Move) {
        match &self.phase {
            Phase::Clans { idx } => {
                let idx = *idx;
                if let Move::Clan(c) = m {
                    self.apply_clan(seat, *c);
                }
                if usize::from(idx) + 1 >= usize::from(self.players()) {
                    self.phase = Phase::Workers { idx: 0 };
                } else {
                    self.phase = Phase::Clans { idx: idx + 1 };
                }
            }
            Phase::Workers { idx } => {
                let idx = *idx;
                if let Move::Place(u, h) = m {
                    self.apply_place(seat, *u, *h);
                }
                self.phase = Phase::Workers { idx: idx + 1 };
                if self.placer(idx + 1).is_none() {
                    self.round = 1;
                    self.start_round();
                }
            }
            Phase::Action(_) => self.apply_turn(seat, m, None),
            Phase::Production { .. } => {
                match m {
                    Move::Make { .. } => self.apply_make(seat, m),
                    Move::Milk(k) => self.apply_milk(seat, *k),
                    _ => {}
                }
                self.next_production(seat, matches!(m, Move::Make { .. }));
            }
            _ => {}
        }
    }

    /// [`State::check`] and then [`State::apply`] of a move of the seat whose turn it is in
    /// the action phase (nearly every entry of a game): the phase looked at once, not three
    /// times, and an expansion's cost worked out once (`check_turn` gives it). `None` in any
    /// other phase or for another seat, which the general path answers.
    #[inline]
    pub fn play_turn(&mut self, seat: u8, m: &Move) -> Option<Result<(), Rule>> {
        let Phase::Action(t) = &self.phase else {
            return None;
        };
        if t.seat != seat {
            return None;
        }
        Some(
            self.check_turn(t, seat, m)
                .map(|cost| self.apply_turn(seat, m, cost)),
        )
    }

    /// Applies a move of the action phase; `cost`: an expansion's, as `check_turn` gave it.
    fn apply_turn(&mut self, seat: u8, m: &Move, cost: Option<i32>) {
        // The phase is taken out (leaving `Over`: nothing in between reads it), its turn
        // changed where it lies, and every way out below puts a phase back: the same value
        // whole when the turn goes on (a turn moved out and wrapped in a new phase was copied
        // through a temporary, read in wide words over the narrow stores just made to it).
        let mut phase = std::mem::replace(&mut self.phase, Phase::Over);
        let Phase::Action(t) = &mut phase else {
            self.phase = phase;
            return;
        };
        match m {
            Move::Port { port, ks, args } => self.apply_port(t, seat, *port, *ks, args),
            Move::Row(a, b) => {
                t.rowed = true;
                self.apply_row(seat, *a, *b);
            }
            Move::Cellar(i) => self.apply_cellar(seat, *i),
            Move::Trade { good, sell, n } => {
                t.main_done = true;
                self.apply_trade(seat, *good, *sell, *n);
            }
            Move::Obtain(list) => {
                t.main_done = true;
                self.apply_obtain(seat, list);
            }
            Move::Expand(u, h) if matches!(t.step, Step::Fulfil { .. }) => {
                // Rules 3: the fulfilment and its free expansion happen together.
                if let Step::Fulfil {
                    contracts,
                    slaughter,
                } = t.step
                {
                    t.main_done = true;
                    self.apply_fulfil(t, seat, &contracts, &slaughter);
                    t.expands = t.expands.saturating_sub(1);
                    self.apply_expand(t, seat, (*u, *h), true, None);
                }
            }
            Move::Expand(u, h) => {
                let free = matches!(t.step, Step::Bonus);
                if free {
                    t.expands = t.expands.saturating_sub(1);
                } else {
                    t.main_done = true;
                }
                self.apply_expand(t, seat, (*u, *h), free, cost);
            }
            Move::Ship => {
                t.main_done = true;
                self.apply_ship(seat, false);
            }
            Move::Tech(k) => {
                t.main_done = true;
                self.apply_tech(seat, *k, false);
            }
            Move::Hire => {
                t.main_done = true;
                self.apply_hire(seat, false);
            }
            Move::Fulfil {
                contracts,
                slaughter,
            } => {
                // Rules 3: a fulfilment giving a free expansion waits for it, nothing paid,
                // so an illegal target never leaves the contract fulfilled without it.
                if self.rules >= Rules::V3 && self.free_expands(contracts) > 0 {
                    t.step = Step::Fulfil {
                        contracts: *contracts,
                        slaughter: *slaughter,
                    };
                    self.phase = phase;
                    return;
                }
                t.main_done = true;
                self.apply_fulfil(t, seat, contracts, slaughter);
            }
            Move::Pass => {
                t.main_done = true;
                self.apply_pass(seat);
            }
            Move::Neighbour(g, n) => self.apply_neighbour(t, seat, *g, *n),
            Move::Keep(list) => {
                self.apply_keep(seat, &t.step, list);
                t.step = Step::Start;
            }
            Move::Swap(h, u) => {
                t.exchange = t.exchange.saturating_sub(1);
                self.apply_swap(t, seat, *h, *u);
            }
            Move::Upgrade(u) => {
                t.upgrades = t.upgrades.saturating_sub(1);
                self.apply_upgrade(seat, *u);
            }
            Move::Brew(k) => {
                t.brew = 0;
                self.apply_brew(seat, *k);
            }
            Move::Cancel => {}
            Move::Done => match t.step {
                Step::Fulfil {
                    contracts,
                    slaughter,
                } => {
                    t.main_done = true;
                    self.apply_fulfil(t, seat, &contracts, &slaughter);
                    t.expands = 0;
                }
                Step::After => t.finished = true,
                Step::Neighbour { .. } => t.nb_pending = 0,
                Step::Exchange { .. } => t.exchange = 0,
                _ => {
                    t.expands = 0;
                    t.upgrades = 0;
                    t.brew = 0;
                }
            },
            _ => {}
        }
        match self.settle(t) {
            Settled::Decide => self.phase = phase,
            Settled::Draw => self.phase = Phase::Draw(*t),
            Settled::Over => self.end_turn(seat),
        }
    }

    /// After a decision: the next pending step of the turn, or the end of the turn. The turn
    /// is changed in place and the caller puts it back in the phase `Settled` names (a turn
    /// moved into this function and out again was a copy too many on every entry).
    #[inline(always)]
    fn settle(&mut self, t: &mut Turn) -> Settled {
        t.step = Step::Start;
        // Nothing pending (most decisions): one test of the counts together, not six.
        if t.nb_pending | t.draw | t.exchange | t.expands | t.upgrades | t.brew != 0 {
            if let Some(settled) = self.settle_pending(t) {
                return settled;
            }
        }
        if !t.main_done {
            return Settled::Decide;
        }
        // Free actions may follow the main action (ports, the cellar): offer them when one
        // is possible, so a turn without any ends at once.
        if !t.finished && self.free_action_possible(t) {
            t.step = Step::After;
            return Settled::Decide;
        }
        Settled::Over
    }

    /// [`State::settle`] with something pending: its step, in this order, or `None` when
    /// nothing pending is left to decide (neighbours with nothing to sell, an empty pile).
    fn settle_pending(&mut self, t: &mut Turn) -> Option<Settled> {
        let seat = t.seat;
        if t.nb_pending != 0 {
            let goods = t.nb_pending;
            let any = crate::ids::Good::ALL
                .iter()
                .any(|&g| self.check_neighbour(t, seat, goods, g, 1).is_ok());
            if any {
                t.step = Step::Neighbour { goods };
                return Some(Settled::Decide);
            }
            t.nb_pending = 0;
        }
        if t.draw > 0 {
            if self.pile_len() > 0 {
                return Some(Settled::Draw);
            }
            t.draw = 0;
        }
        if t.exchange > 0 {
            t.step = Step::Exchange { left: t.exchange };
            return Some(Settled::Decide);
        }
        if t.expands > 0 || t.upgrades > 0 || t.brew > 0 {
            t.step = Step::Bonus;
            return Some(Settled::Decide);
        }
        None
    }

    fn end_turn(&mut self, seat: u8) {
        // The next seat in turn order that has not passed, wrapping round to this one. The
        // positions still playing as bits, rotated to start after this seat's: no search
        // whose length the processor must guess (this runs at the end of every turn).
        let n = self.order.len();
        let mut pos = 0;
        let mut playing = 0u32;
        for (i, &s) in self.order.iter().enumerate() {
            pos = if s == seat { i } else { pos };
            playing |= u32::from(self.seat(s).is_some_and(|p| !p.passed)) << i;
        }
        let after = (playing | playing << n) >> (pos + 1);
        let next = (after != 0).then(|| {
            let i = pos + 1 + after.trailing_zeros() as usize;
            if i >= n {
                i - n
            } else {
                i
            }
        });
        match next.and_then(|i| self.order.get(i)) {
            Some(&s) => self.phase = Phase::Action(Turn::new(s)),
            None => self.start_production(),
        }
    }

    /// The action phase of the current round, in `order`.
    pub fn start_round(&mut self) {
        for p in &mut self.seats {
            p.passed = false;
        }
        match self.order.first() {
            Some(&s) => self.phase = Phase::Action(Turn::new(s)),
            None => self.phase = Phase::Over,
        }
    }

    /// After round scoring: the next round's preparation, or the end.
    pub fn next_round(&mut self) {
        if self.round >= 5 {
            self.phase = Phase::Over;
            return;
        }
        self.round += 1;
        if self.next_order.len() == self.order.len() {
            self.order = std::mem::take(&mut self.next_order);
        }
        self.next_order.clear();
        // Merchants come back before the market moves (preparation, text order).
        for p in &mut self.seats {
            let back: u8 = p.market_buy.iter().chain(&p.market_sell).sum();
            p.merchants_stock += back;
            p.market_buy = [0; 6];
            p.market_sell = [0; 6];
        }
        if self.prep_needs_chance() {
            self.phase = Phase::Prep;
        } else {
            self.start_round();
        }
    }

    fn prep_needs_chance(&self) -> bool {
        self.options.market_drift
            || self.needs_die()
            || (self.empty_boxes() > 0 && self.pile_len() > 0)
    }

    pub fn empty_boxes(&self) -> usize {
        self.boxes.iter().filter(|b| b.is_none()).count()
    }
}
