//! [`rules_core::Game::determinize`] for Mombasa: a full position consistent with what one
//! viewer knows, the secrets it may not know resampled.
//!
//! # What a viewer does not know
//! Every place the view ([`crate::view`], `seat_view`) hides something, and whether public
//! entries tell it anyway:
//! - **Another seat's hand** (the view gives its size only, and `card_shares`, which is read
//!   off the cards the seat owns). *Known*: every card reaches a hand by a public entry and
//!   leaves it by one. The setup puts a seat's ten cards of its colour into its hand; the
//!   start tiles' reveal moves three of them to the rest piles; a card bought (goods action,
//!   buy-card space) comes from the face-up display, a sold one is named by the public `sell`,
//!   a rest pile taken back (`end`) was public; nothing is ever drawn face down into a hand
//!   (the deck only refills the display, face up). The one hidden move that touches a hand is
//!   `plan`, so *which* cards a seat holds is known but for the cards it planned this round:
//!   its hand and its planned cards together are a known set. Kept.
//! - **The cards another seat planned this round** (Planning and Reveal: the view shows a
//!   card back in each filled slot, not the card). *Secret*, resampled: of the seat's known
//!   set (hand ∪ planned), as many cards as it has filled slots, drawn without replacement
//!   and laid in those slots; the rest is its hand. Every such layout is one the planning
//!   rules allow (`State::check_plan`: any card of the hand into any open empty slot, one
//!   card a slot, in any order), and the filled slots, the hand's size and the seat's cards
//!   stay what they are. Whether a seat is `ready` is *shown* by the view (a table sees who
//!   has finished planning, and who may still move, `seats_to_act`, follows from it): kept,
//!   though the `ready` move itself is hidden.
//! - **The start tiles dealt to another seat** (the view never shows another seat's
//!   `dealt_tiles` before the game ends) and, before the start reveal, **the one it kept**
//!   (whether it has kept one is public, as who may still move). *Secret*: the deal
//!   (`tiles`) and `keep` entries are seen by their seat only, and the reveal (`starts`)
//!   shows the kept tiles alone, so the tile a seat did not keep stays unknown to the others
//!   all game. Resampled from the tiles the viewer cannot place — all but its own two (when
//!   it has them) and, after the reveal, every seat's kept tile — without replacement, seat
//!   by seat: after the reveal the kept tile stays and its partner is drawn; before it, both
//!   are drawn and a kept one is one of them, at random (both could have been kept). The
//!   order within the pair is drawn too (the deal's order is as hidden as its tiles). A
//!   tile nobody was dealt is in the box, which holds whatever is left.
//! - **The deck's and the book supply's order** exist nowhere (each draw is dealt when it
//!   happens); their contents are what no public entry has taken out. Nothing to do.
//!
//! The position kept for `cancel` (`State::undo`, only in the action phase, when nothing is
//! planned) holds the same start tiles as the position: it is given the resampled ones, so
//! cancelling never brings the real ones back.

use crate::data::START_TILES;
use crate::ids::{bits, CardId, NONE};
use crate::state::{Phase, State};
use arrayvec::ArrayVec;
use rules_core::{ChanceRng, Seat, Viewer};

/// Takes a uniformly drawn element out of `pool` (`None` when it is empty).
fn draw<T: Copy, const N: usize>(pool: &mut ArrayVec<T, N>, rng: &mut dyn ChanceRng) -> Option<T> {
    if pool.is_empty() {
        return None;
    }
    let i = rng.below(pool.len() as u32) as usize;
    Some(pool.swap_remove(i.min(pool.len() - 1)))
}

impl State {
    /// This position as `viewer` might believe it to be: see the module docs. Pure: the
    /// same `rng` stream gives the same state.
    pub fn determinize(&self, viewer: Viewer, rng: &mut dyn ChanceRng) -> State {
        let mut t = self.clone();
        // The game over, every viewer sees everything (`seat_view`).
        if self.phase == Phase::Over {
            return t;
        }
        t.resample_start_tiles(viewer, rng);
        if matches!(self.phase, Phase::Planning | Phase::Reveal) {
            t.resample_plans(viewer, rng);
        }
        let dealt: Vec<_> = t.seats.iter().map(|p| p.dealt).collect();
        if let Some(u) = t.undo.kept_mut() {
            for (q, d) in u.seats.iter_mut().zip(dealt) {
                q.dealt = d;
            }
        }
        t
    }

    /// Whether the kept start tiles are public yet (the `starts` reveal has been applied, or
    /// the first-game option handed them out openly at setup).
    fn starts_public(&self) -> bool {
        !matches!(
            self.phase,
            Phase::Setup | Phase::StartDeal | Phase::StartKeep | Phase::StartReveal
        )
    }

    fn resample_start_tiles(&mut self, viewer: Viewer, rng: &mut dyn ChanceRng) {
        let public = self.starts_public();
        let hidden = |seat: usize| !viewer.sees(Seat(seat as u8));
        // The tiles whose place the viewer knows: its own pair, and the kept ones once public.
        let mut known = 0u32;
        for (i, p) in self.seats.iter().enumerate() {
            let mut mark = |t: u8| {
                if t != NONE {
                    known |= 1u32.checked_shl(u32::from(t)).unwrap_or(0);
                }
            };
            if !hidden(i) {
                p.dealt.iter().for_each(|&t| mark(t));
            }
            if public {
                mark(p.start);
            }
        }
        let mut pool: ArrayVec<u8, START_TILES> = (0..START_TILES as u8)
            .filter(|&t| known & (1 << t) == 0)
            .collect();
        for (i, p) in self.seats.iter_mut().enumerate() {
            if !hidden(i) || p.dealt[0] == NONE {
                continue;
            }
            let pair = if public {
                // The kept tile is known; its partner is not.
                if p.start == NONE || !p.dealt.contains(&p.start) {
                    continue;
                }
                let Some(other) = draw(&mut pool, rng) else {
                    continue;
                };
                [p.start, other]
            } else {
                let (Some(a), Some(b)) = (draw(&mut pool, rng), draw(&mut pool, rng)) else {
                    continue;
                };
                if p.start != NONE {
                    p.start = if rng.below(2) == 0 { a } else { b };
                }
                [a, b]
            };
            p.dealt = if rng.below(2) == 0 {
                pair
            } else {
                [pair[1], pair[0]]
            };
        }
    }

    fn resample_plans(&mut self, viewer: Viewer, rng: &mut dyn ChanceRng) {
        for (i, p) in self.seats.iter_mut().enumerate() {
            if viewer.sees(Seat(i as u8)) {
                continue;
            }
            let planned = p
                .slots
                .iter()
                .filter(|&&c| c != NONE)
                .fold(0u128, |m, &c| m | CardId(c).bit());
            if planned == 0 {
                continue;
            }
            let mut pool: ArrayVec<u8, 128> = bits(p.hand | planned).collect();
            let mut hand = p.hand | planned;
            for slot in p.slots.iter_mut().filter(|c| **c != NONE) {
                // `pool` holds the seat's cards, at least one for each filled slot.
                if let Some(c) = draw(&mut pool, rng) {
                    *slot = c;
                }
                hand &= !CardId(*slot).bit();
            }
            p.hand = hand;
        }
    }
}
