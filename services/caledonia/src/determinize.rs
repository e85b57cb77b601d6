//! Determinization (`Game::determinize`): a full state consistent with what one viewer knows,
//! its secrets dealt again. What is secret (Ruling C11; `view`, `chance_visible`): all on the
//! table is public but the contract pile, which shows its size only, and the contracts of a
//! pending building-bonus draw, which only their drawer sees. Moves are all public
//! (`move_visible` is the default), so a `keep` tells everyone which contracts were kept.
//!
//! The pile is two parts ([`State::pile`]): the contracts never drawn (a set, drawn at random:
//! no order to hide) and those put under it by earlier building bonuses ([`State::bottom`], in
//! order, drawn after the unseen ones). Their sizes are known to every viewer — each draw's
//! and each keep's count is in the public entries — so both are kept. What is dealt again:
//! - **another seat's pending draw** (for the spectator and every seat but the drawer): its
//!   contracts are as likely to be any of the unseen ones, so the same number is drawn again,
//!   in random order (as the dealer draws), from the draw and the unseen contracts, the rest
//!   going back to the unseen ones ([`State::redraw_pending`]).
//! - **nothing else.** The bottom of the pile stays as it is, for two reasons. The omniscient
//!   view hides it too (its size shows), so a viewer with no draw to be hidden from sees what
//!   the omniscient viewer does, and its determinization must be the state itself
//!   (`rules_core::determinize::check_at`). And a seat knows the contracts it put there
//!   itself, which the state does not record: dealing the bottom again could contradict it.
//!   Keeping it can only tell a search more than its viewer knows (a rival's leftovers),
//!   never something false. The unseen contracts' identities need no dealing: they are what
//!   no other place holds.
//! - The drawer and the omniscient viewer see the draw: the state itself.
use crate::ids::ContractId;
use crate::state::{Phase, State, Step};
use arrayvec::ArrayVec;
use rules_core::dealer::shuffle;
use rules_core::{ChanceRng, CopyList, Seat, Viewer};

/// Every contract id fits: ids are 1..=50, one list holds the unseen ones and a draw.
type Pool = ArrayVec<ContractId, 64>;

impl State {
    /// `Game::determinize`: this state with what `viewer` may not know dealt again with `rng`.
    /// Pure: the same `rng` stream gives the same state.
    pub fn determinize(&self, viewer: Viewer, rng: &mut dyn ChanceRng) -> State {
        let mut t = self.clone();
        t.redraw_pending(viewer, rng);
        t
    }

    /// The seat and contracts of a building-bonus draw waiting to be kept from (the one the
    /// view shows the drawer alone).
    fn pending_draw(&mut self) -> Option<(u8, &mut CopyList<ContractId, 6>)> {
        match &mut self.phase {
            Phase::Action(t) => match &mut t.step {
                Step::Keep { drawn, .. } => Some((t.seat, drawn)),
                _ => None,
            },
            _ => None,
        }
    }

    /// For a `viewer` who may not see it, a pending draw dealt again from the draw and the
    /// unseen contracts: the same number, in random order, the rest back to the unseen ones.
    /// Only when unseen contracts are left after the draw: a draw takes the unseen ones first,
    /// so then it took none from the bottom. When none is left it may have taken the first of
    /// the bottom too (known to whoever put them there), and the state cannot say which of
    /// its contracts those are: it stays as it is (nothing else could have been drawn).
    fn redraw_pending(&mut self, viewer: Viewer, rng: &mut dyn ChanceRng) {
        let unseen: Pool = (1..=50u8)
            .filter(|i| self.pile & (1u64 << i) != 0)
            .map(ContractId)
            .collect();
        let Some((drawer, drawn)) = self.pending_draw() else {
            return;
        };
        if viewer.sees(Seat(drawer)) || unseen.is_empty() {
            return;
        }
        let mut pool: Pool = drawn.iter().copied().collect();
        // A contract is in one place only, so all fit (at most 50); were one in two places,
        // nothing is changed rather than a contract lost.
        if pool.try_extend_from_slice(&unseen).is_err() {
            return;
        }
        // In id order, so the deal reads nothing the viewer does not know: which of the pool
        // were drawn (the order the two lists came in) is the secret.
        pool.sort_unstable_by_key(|c| c.0);
        shuffle(&mut pool, rng);
        let (again, rest) = pool.split_at(drawn.len());
        if let Some(list) = CopyList::from_slice(again) {
            *drawn = list;
            self.pile = bits(rest);
        }
    }
}

/// The pile's bit set of `ids` (bit `id`).
fn bits(ids: &[ContractId]) -> u64 {
    ids.iter().fold(0, |m, id| m | (1u64 << (id.0 & 63)))
}
