//! Legal moves: candidates filtered by [`State::check`] (or by the same per-move check with
//! the seat's reach computed once), so a move is listed exactly when it is accepted.
//!
//! Capacity: the largest list is a turn's start. Expansions: at most 8 unit kinds fit one
//! hex (a hex of all three terrains) × 120 hexes = 960; trades 6 goods × 2 sides × 7
//! merchants = 84; obtains 6 + 15 pairs; fulfils 3 contract sets × 6 cow × 6 sheep choices =
//! 108; ports 7 uses × at most 30 choices = 210; rows 8 fishermen × 6 = 48; cellar 4; ship,
//! 2 techs, hire, pass 5: 1,440 in all. Other steps are smaller (production 5×5×5×2 = 250,
//! milk 256, swaps 40 units × 8 = 320).

use crate::ids::{bits, Clan, ContractId, Good, Hex, PortId, Tech, Unit, KS_PORT};
use crate::moves::{Move, PortArgs, Upgrade};
use crate::state::{Phase, State, Step, Turn};
use arrayvec::ArrayVec;
use rules_core::CopyList;

pub const CAPACITY: usize = 1536;
pub type MoveList = ArrayVec<Move, CAPACITY>;

fn push(out: &mut MoveList, m: Move) {
    // The capacity argument above bounds every list; never panic if it were wrong.
    let _ = out.try_push(m);
}

impl State {
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        let rules_core::ToAct::Seat(seat) = self.to_act() else {
            return;
        };
        let seat = seat.0;
        let consider = |m: Move, out: &mut MoveList| {
            if self.check(seat, &m).is_ok() {
                push(out, m);
            }
        };
        match &self.phase {
            Phase::Clans { .. } => {
                for (c, _) in &self.offer {
                    consider(Move::Clan(*c), out);
                }
            }
            Phase::Workers { .. } => {
                let m = self.map();
                for u in [Unit::Woodcutter, Unit::Miner, Unit::Fisherman] {
                    for h in bits((m.land | m.loch | m.port_mask) & self.terrain_for(u)) {
                        consider(Move::Place(u, h), out);
                    }
                }
                if out.is_empty() {
                    consider(Move::Done, out);
                }
            }
            Phase::Production { milk: false, .. } => {
                for cheese in 0..=4 {
                    for bread in 0..=4 {
                        for whisky in 0..=4 {
                            for cellar in [false, true] {
                                consider(
                                    Move::Make {
                                        cheese,
                                        bread,
                                        whisky,
                                        cellar,
                                    },
                                    out,
                                );
                            }
                        }
                    }
                }
            }
            Phase::Production { milk: true, .. } => {
                let have = self.goods_of(seat, Good::Milk).min(255) as u8;
                for k in 0..=have {
                    consider(Move::Milk(k), out);
                }
            }
            Phase::Action(t) => self.turn_moves(t, seat, out),
            _ => {}
        }
    }

    fn expansions(&self, seat: u8, free: bool, out: &mut MoveList) {
        let Some(p) = self.seat(seat) else { return };
        let reach = self.reach_of(p);
        let empty = !self.occupied();
        for u in Unit::ALL {
            for h in bits(reach & empty & self.terrain_for(*u)) {
                if self.check_expand_with(p, *u, h, free, reach).is_ok() {
                    push(out, Move::Expand(*u, h));
                }
            }
        }
    }

    fn turn_moves(&self, t: &Turn, seat: u8, out: &mut MoveList) {
        let Some(p) = self.seat(seat) else { return };
        let mut consider = |m: Move, out: &mut MoveList| {
            if self.check(seat, &m).is_ok() {
                push(out, m);
            }
        };
        match &t.step {
            Step::Start => {
                self.port_moves(seat, &mut consider, out);
                if p.clan == Clan::MacDonald {
                    for f in bits(p.units[Unit::Fisherman.index()]) {
                        for to in bits(crate::grid::ADJ[usize::from(f.0)]) {
                            consider(Move::Row(f, to), out);
                        }
                    }
                }
                for i in 0..4 {
                    consider(Move::Cellar(i), out);
                }
                for g in Good::ALL {
                    for sell in [false, true] {
                        for n in 1..=p.merchants_stock {
                            consider(Move::Trade { good: *g, sell, n }, out);
                        }
                    }
                }
                let offered: ArrayVec<ContractId, 6> =
                    self.boxes.iter().flatten().copied().collect();
                let mut sorted = offered.clone();
                sorted.sort();
                for (i, a) in sorted.iter().enumerate() {
                    consider(Move::Obtain([*a].into()), out);
                    for b in &sorted[i + 1..] {
                        consider(Move::Obtain([*a, *b].into()), out);
                    }
                }
                // After port 1 the main action is the discounted fulfilment, after port 6
                // the trade of its good (rules 3: while one is possible; rules 4: always):
                // `check` refuses the rest; expansions bypass it, so skip them.
                if !self.meat_forced(t, seat) && self.price_forced(t, seat).is_none() {
                    self.expansions(seat, false, out);
                }
                consider(Move::Ship, out);
                consider(Move::Tech(Tech::Woodcutter), out);
                consider(Move::Tech(Tech::Miner), out);
                consider(Move::Hire, out);
                self.fulfil_moves(t, seat, out);
                consider(Move::Pass, out);
            }
            Step::After => {
                self.port_moves(seat, &mut consider, out);
                for i in 0..4 {
                    consider(Move::Cellar(i), out);
                }
                consider(Move::Done, out);
            }
            Step::Neighbour { .. } => {
                let cap = self.nb_cap();
                for g in Good::ALL {
                    for n in 1..=cap {
                        consider(Move::Neighbour(*g, n), out);
                    }
                }
                consider(Move::Done, out);
            }
            Step::Keep { drawn, .. } => {
                let mut sorted: ArrayVec<ContractId, 6> = drawn.iter().copied().collect();
                sorted.sort();
                consider(Move::Keep(CopyList::new()), out);
                for (i, a) in sorted.iter().enumerate() {
                    consider(Move::Keep([*a].into()), out);
                    for b in &sorted[i + 1..] {
                        consider(Move::Keep([*a, *b].into()), out);
                    }
                }
            }
            Step::Fulfil {
                contracts,
                slaughter,
            } => {
                // The free expansions open once the fulfilment is paid (`check` asks the same
                // position), then `done` without one, or `cancel`.
                self.after_fulfil(t, seat, contracts, slaughter)
                    .expansions(seat, true, out);
                consider(Move::Done, out);
                consider(Move::Cancel, out);
            }
            Step::Exchange { .. } => {
                for h in bits(p.all_units()) {
                    for u in Unit::ALL {
                        consider(Move::Swap(h, *u), out);
                    }
                }
                consider(Move::Done, out);
            }
            Step::Bonus => {
                if t.expands > 0 {
                    self.expansions(seat, true, out);
                }
                let mut ups: ArrayVec<Upgrade, 16> = ArrayVec::new();
                ups.extend([
                    Upgrade::Tech(Tech::Woodcutter),
                    Upgrade::Tech(Tech::Miner),
                    Upgrade::Ship,
                    Upgrade::Hire,
                ]);
                for g in Good::ALL {
                    for sell in [false, true] {
                        let _ = ups.try_push(Upgrade::Retrieve { good: *g, sell });
                    }
                }
                for u in ups {
                    consider(Move::Upgrade(u), out);
                }
                for k in 1..=t.brew {
                    consider(Move::Brew(k), out);
                }
                consider(Move::Done, out);
            }
        }
    }

    fn port_moves(
        &self,
        seat: u8,
        consider: &mut impl FnMut(Move, &mut MoveList),
        out: &mut MoveList,
    ) {
        let basics = [Good::Wool, Good::Milk, Good::Grain];
        let processed = [Good::Cheese, Good::Bread, Good::Whisky];
        let _ = seat;
        for ks in [false, true] {
            if ks && !self.ports.contains(&KS_PORT) {
                continue;
            }
            for port in self.ports {
                if port == KS_PORT {
                    continue;
                }
                let plain = |port: PortId| Move::Port {
                    port,
                    ks,
                    args: PortArgs::None,
                };
                match self.port_kind(port) {
                    Some(crate::data::PortKind::Basic) => {
                        for give in basics {
                            for a in 0..3 {
                                for b in a..3 {
                                    for c in b..3 {
                                        let get =
                                            [Some(basics[a]), Some(basics[b]), Some(basics[c])];
                                        consider(
                                            Move::Port {
                                                port,
                                                ks,
                                                args: PortArgs::Goods { give, get },
                                            },
                                            out,
                                        );
                                    }
                                }
                            }
                        }
                    }
                    Some(crate::data::PortKind::Processed) => {
                        for give in processed {
                            for a in 0..3 {
                                for b in a..3 {
                                    let get = [Some(processed[a]), Some(processed[b]), None];
                                    consider(
                                        Move::Port {
                                            port,
                                            ks,
                                            args: PortArgs::Goods { give, get },
                                        },
                                        out,
                                    );
                                }
                            }
                        }
                    }
                    Some(crate::data::PortKind::Price) => {
                        for g in Good::ALL {
                            for up in [true, false] {
                                consider(
                                    Move::Port {
                                        port,
                                        ks,
                                        args: PortArgs::Price { good: *g, up },
                                    },
                                    out,
                                );
                            }
                        }
                    }
                    _ => consider(plain(port), out),
                }
            }
        }
    }

    fn fulfil_moves(&self, t: &Turn, seat: u8, out: &mut MoveList) {
        self.fulfil_candidates(seat, |contracts, slaughter| {
            let lists = (
                CopyList::from_slice(contracts),
                CopyList::from_slice(slaughter),
            );
            if let (Some(contracts), Some(slaughter)) = lists {
                if self
                    .check_fulfil_turn(t, seat, &contracts, &slaughter)
                    .is_ok()
                {
                    push(
                        out,
                        Move::Fulfil {
                            contracts,
                            slaughter,
                        },
                    );
                }
            }
            false
        });
    }

    /// Every Fulfil the seat might make: each set of held contracts (two only for
    /// Buchanan) with each subset of its cows and sheep no larger than the meat asked, lists
    /// sorted; `f` returns `true` to stop. The checks decide which are legal.
    pub fn fulfil_candidates(&self, seat: u8, mut f: impl FnMut(&[ContractId], &[Hex]) -> bool) {
        let Some(p) = self.seat(seat) else { return };
        let mut sets: ArrayVec<ArrayVec<ContractId, 2>, 3> = ArrayVec::new();
        let mut held = p.held.clone();
        held.sort();
        for (i, a) in held.iter().enumerate() {
            sets.push([*a].into_iter().collect());
            for b in &held[i + 1..] {
                sets.push([*a, *b].into_iter().collect());
            }
        }
        let cows: ArrayVec<Hex, 16> = bits(p.units[Unit::Cow.index()]).take(16).collect();
        let sheep: ArrayVec<Hex, 16> = bits(p.units[Unit::Sheep.index()]).take(16).collect();
        for set in sets {
            let (mut beef, mut mutton) = (0usize, 0usize);
            for id in &set {
                if let Some(k) = self.contract(*id) {
                    beef += usize::from(k.beef);
                    mutton += usize::from(k.mutton);
                }
            }
            for cm in 0u32..(1 << cows.len()) {
                if cm.count_ones() as usize > beef {
                    continue;
                }
                for sm in 0u32..(1 << sheep.len()) {
                    if sm.count_ones() as usize > mutton {
                        continue;
                    }
                    let mut slaughter: ArrayVec<Hex, 8> = ArrayVec::new();
                    for (i, h) in cows.iter().enumerate() {
                        if cm & (1 << i) != 0 {
                            let _ = slaughter.try_push(*h);
                        }
                    }
                    for (i, h) in sheep.iter().enumerate() {
                        if sm & (1 << i) != 0 {
                            let _ = slaughter.try_push(*h);
                        }
                    }
                    slaughter.sort();
                    if f(&set, &slaughter) {
                        return;
                    }
                }
            }
        }
    }
}
