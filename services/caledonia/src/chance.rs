//! Chance: sampling and checking the deal, the preparation (contract refills and market
//! drift) and building-bonus draws. The pile is a set of unseen contracts (drawn at random)
//! followed by the ones put under it, in order.

use crate::data::components;
use crate::error::Rule;
use crate::ids::{Clan, ContractId, Good, PortId, TileId};
use crate::moves::{Chance, Deal};
use crate::state::{Phase, Player, Rules, State, Step};
use arrayvec::ArrayVec;
use rules_core::dealer::shuffle;
use rules_core::ChanceRng;

impl State {
    fn port_count(&self) -> u8 {
        if self.options.kickstarter {
            9
        } else {
            8
        }
    }
    fn clans_in_play(&self) -> &'static [Clan] {
        if self.options.kickstarter {
            Clan::ALL
        } else {
            &Clan::ALL[..8]
        }
    }
    /// Boxes on the export board: the data's count for the player count, or under rules 3 in
    /// solo the 1–2 player side's boxes (one stays empty: [`State::deal_count`]).
    pub fn box_count(&self) -> usize {
        match (&components().solo_removal, self.solo_removal()) {
            (Some(r), true) => usize::from(r.boxes),
            _ => self.deal_count(),
        }
    }

    /// Boxes the deal fills: one stays empty with 1 or 3 players (the text, setup 4).
    pub fn deal_count(&self) -> usize {
        usize::from(components().boxes[usize::from(self.players()).min(4)])
    }

    /// Rules 3 solo: after each refill the box of the last price-die roll is emptied.
    pub fn solo_removal(&self) -> bool {
        self.rules >= Rules::V3 && self.players() == 1 && components().solo_removal.is_some()
    }

    /// Whether a preparation needs a price-die roll of its own (rules 3 solo without the
    /// drift, whose rolls would otherwise pick the box).
    pub(crate) fn needs_die(&self) -> bool {
        self.solo_removal() && !self.options.market_drift
    }

    /// Draws `n` from the pile: unseen contracts at random, then the bottom in order.
    fn sample_pile(
        &self,
        n: usize,
        exclude: u64,
        rng: &mut dyn ChanceRng,
    ) -> ArrayVec<ContractId, 6> {
        let mut fresh: ArrayVec<ContractId, 64> = (1..=50u8)
            .filter(|i| (self.pile & !exclude) & (1u64 << i) != 0)
            .map(ContractId)
            .collect();
        shuffle(&mut fresh, rng);
        let mut out: ArrayVec<ContractId, 6> = fresh.iter().take(n.min(6)).copied().collect();
        for b in &self.bottom {
            if out.len() >= n.min(6) {
                break;
            }
            out.push(*b);
        }
        out
    }

    /// Is `list` a draw of `n` the pile can give (fresh first, then the bottom in order)?
    fn check_pile(&self, list: &[ContractId], n: usize) -> bool {
        let fresh_n = self.pile.count_ones() as usize;
        let want = n.min(fresh_n + self.bottom.len());
        if list.len() != want {
            return false;
        }
        let from_fresh = want.min(fresh_n);
        let mut seen = 0u64;
        for id in &list[..from_fresh] {
            let bit = 1u64 << (id.0 & 63);
            if id.0 == 0 || id.0 > 50 || self.pile & bit == 0 || seen & bit != 0 {
                return false;
            }
            seen |= bit;
        }
        list[from_fresh..] == self.bottom[..want - from_fresh]
    }

    fn take_from_pile(&mut self, list: &[ContractId]) {
        for id in list {
            let bit = 1u64 << (id.0 & 63);
            if self.pile & bit != 0 {
                self.pile &= !bit;
            } else if self.bottom.first() == Some(id) {
                self.bottom.remove(0);
            }
        }
    }

    pub fn sample(&self, rng: &mut dyn ChanceRng) -> Option<Chance> {
        match &self.phase {
            Phase::Deal => {
                let sides = [0; 4].map(|_: u8| 1 + rng.below(2) as u8);
                let mut ports: ArrayVec<u8, 9> = (1..=self.port_count()).collect();
                shuffle(&mut ports, rng);
                let mut tiles: ArrayVec<u8, 9> = (1..=self.port_count()).collect();
                shuffle(&mut tiles, rng);
                let first = rng.below(u32::from(self.players())) as u8;
                let mut clans: ArrayVec<Clan, 9> = self.clans_in_play().iter().copied().collect();
                shuffle(&mut clans, rng);
                let mut starts: ArrayVec<u8, 9> =
                    (1..=components().start_tiles.len().min(9) as u8).collect();
                shuffle(&mut starts, rng);
                let k = usize::from(self.players()) + 1;
                let offer = clans
                    .iter()
                    .copied()
                    .zip(starts.iter().copied())
                    .take(k)
                    .collect();
                let mut deck: ArrayVec<u8, 50> = (1..=50).collect();
                shuffle(&mut deck, rng);
                let boxes = deck
                    .iter()
                    .take(self.deal_count())
                    .map(|&i| ContractId(i))
                    .collect();
                Some(Chance::Deal(Box::new(Deal {
                    sides,
                    ports: [0, 1, 2, 3].map(|i| PortId(ports[i])),
                    tiles: [0, 1, 2, 3, 4].map(|i| TileId(tiles[i])),
                    first,
                    offer,
                    boxes,
                })))
            }
            Phase::Prep => {
                let refill = self.sample_pile(self.empty_boxes(), 0, rng);
                let mut drift = ArrayVec::new();
                if self.options.market_drift {
                    let c = components();
                    let mut goods: ArrayVec<Good, 6> = Good::ALL.iter().copied().collect();
                    // Re-rolling repeats of the goods die = drawing distinct goods.
                    shuffle(&mut goods, rng);
                    for g in goods.iter().take(usize::from(c.drift.goods)) {
                        let face = rng.below(c.drift.price_die.len() as u32) as usize;
                        drift.push((*g, c.drift.price_die.get(face).copied().unwrap_or(1)));
                    }
                }
                let die = self.needs_die().then(|| {
                    let faces = &components().drift.price_die;
                    let face = rng.below(faces.len() as u32) as usize;
                    faces.get(face).copied().unwrap_or(1)
                });
                Some(Chance::Prep { refill, drift, die })
            }
            Phase::Draw(t) => Some(Chance::Draw(self.sample_pile(usize::from(t.draw), 0, rng))),
            _ => None,
        }
    }

    pub fn check_chance(&self, c: &Chance) -> Result<(), Rule> {
        match (&self.phase, c) {
            (Phase::Deal, Chance::Deal(d)) => self.check_deal(d),
            (Phase::Prep, Chance::Prep { refill, drift, die }) => {
                if !self.check_pile(refill, self.empty_boxes()) {
                    return Err(Rule::BadDraw);
                }
                let dice = &components().drift;
                match die {
                    Some(d) if self.needs_die() && dice.is_face(*d) => {}
                    None if !self.needs_die() => {}
                    _ => return Err(Rule::BadDrift),
                }
                let want = if self.options.market_drift {
                    usize::from(dice.goods)
                } else {
                    0
                };
                // Distinct goods, each moved by a face of the die: one pass, the goods seen
                // as bits.
                let mut seen = 0u8;
                for &(g, d) in drift {
                    let bit = 1 << g.index();
                    if seen & bit != 0 || !dice.is_face(d) {
                        return Err(Rule::BadDrift);
                    }
                    seen |= bit;
                }
                if drift.len() != want {
                    return Err(Rule::BadDrift);
                }
                Ok(())
            }
            (Phase::Draw(t), Chance::Draw(list)) => {
                if self.check_pile(list, usize::from(t.draw)) {
                    Ok(())
                } else {
                    Err(Rule::BadDraw)
                }
            }
            _ => Err(Rule::WrongChance),
        }
    }

    fn check_deal(&self, d: &Deal) -> Result<(), Rule> {
        match self.deal_problem(d) {
            None => Ok(()),
            Some(_) => Err(Rule::BadDeal),
        }
    }

    /// What of a deal does not match the components, in words (`None`: it matches).
    pub fn deal_problem(&self, d: &Deal) -> Option<&'static str> {
        // Different numbers, each in 1..=hi (at most 63): a bit each, no list kept.
        fn different_in(v: impl IntoIterator<Item = u8>, hi: u8) -> bool {
            let mut seen = 0u64;
            v.into_iter().all(|x| {
                let bit = 1u64 << (x & 63);
                let ok = (1..=hi.min(63)).contains(&x) && seen & bit == 0;
                seen |= bit;
                ok
            })
        }
        let ports = d.ports.iter().map(|p| p.0);
        let tiles = d.tiles.iter().map(|t| t.0);
        let starts = d.offer.iter().map(|o| o.1);
        let boxes = d.boxes.iter().map(|b| b.0);
        let clans_ok = d.offer.iter().enumerate().all(|(i, (c, _))| {
            self.clans_in_play().contains(c) && d.offer[..i].iter().all(|(k, _)| k != c)
        });
        if !d.sides.iter().all(|s| (1..=2).contains(s)) {
            Some("a map module is laid on a side other than 1 or 2")
        } else if !different_in(ports, self.port_count()) {
            Some("the port tiles are not different ports of the box")
        } else if !different_in(tiles, self.port_count()) {
            Some("the round scoring tiles are not different tiles of the box")
        } else if d.first >= self.players() {
            Some("the first player is not a seat of this game")
        } else if d.offer.len() != usize::from(self.players()) + 1 || !clans_ok {
            Some("the clans offered are not one more than the players, each a clan in play, once")
        } else if !different_in(starts, components().start_tiles.len().min(9) as u8) {
            Some("the clans' start tiles are not different start tiles of the box")
        } else if !(d.boxes.len() == self.deal_count() && different_in(boxes, 50)) {
            Some("the contracts laid out are not the export boxes' count of different contracts of the 50")
        } else {
            None
        }
    }

    pub fn apply_chance(&mut self, c: &Chance) {
        match c {
            Chance::Deal(d) => {
                let comp = components();
                // The ports before the sides: setting them forgets what was open.
                self.ports = d.ports;
                self.set_sides(d.sides);
                self.tiles = d.tiles;
                self.offer = d.offer.clone();
                self.prices = [0, 1, 2, 3, 4, 5].map(|i| comp.tracks[i].start);
                self.pile = (1..=50u8).fold(0, |m, i| m | (1u64 << i));
                self.boxes.clear();
                for b in &d.boxes {
                    self.pile &= !(1u64 << (b.0 & 63));
                    self.boxes.push(Some(*b));
                }
                // Rules 3 solo: the 1–2 player side's last box starts empty.
                while self.boxes.len() < self.box_count() && !self.boxes.is_full() {
                    self.boxes.push(None);
                }
                self.order.clear();
                let n = self.players();
                for k in 0..n {
                    self.order.push((d.first + k) % n);
                }
                self.seats.clear();
                for _ in 0..n {
                    self.seats.push(Player::unchosen());
                }
                self.phase = Phase::Clans { idx: 0 };
            }
            Chance::Prep { refill, drift, die } => {
                self.take_from_pile(refill);
                let mut it = refill.iter();
                for b in self.boxes.iter_mut() {
                    if b.is_none() {
                        *b = it.next().copied();
                    }
                }
                // Rules 3 solo: the box showing the last price-die roll (this outcome's own
                // roll, or the drift's last) is emptied, its contract out of the game.
                let roll = die.or_else(|| drift.last().map(|(_, d)| *d));
                if let (true, Some(r), Some(face)) = (
                    self.solo_removal(),
                    components().solo_removal.as_ref(),
                    roll,
                ) {
                    let slot = r.die_faces.iter().position(|&f| f == face);
                    if let Some(b) = slot.and_then(|i| self.boxes.get_mut(i)) {
                        if let Some(id) = b.take() {
                            self.removed |= 1u64 << (id.0 & 63);
                        }
                    }
                }
                for (g, d) in drift {
                    let t = &components().tracks[g.index()];
                    let i = i32::from(self.prices[g.index()]);
                    let size = i32::from(d.abs());
                    let by = if i < i32::from(t.bracket[0]) {
                        size
                    } else if i > i32::from(t.bracket[1]) {
                        -size
                    } else {
                        i32::from(*d)
                    };
                    self.move_price(*g, by);
                }
                self.start_round();
            }
            Chance::Draw(list) => {
                self.take_from_pile(list);
                if let Phase::Draw(t) = &self.phase {
                    let mut t = *t;
                    t.draw = 0;
                    t.step = Step::Keep {
                        drawn: list.clone().into(),
                        max: t.draw_keep,
                    };
                    self.phase = Phase::Action(t);
                }
            }
        }
    }
}
