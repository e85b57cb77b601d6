//! Determinization ([`rules_core::Game::determinize`]): a full state consistent with what one
//! viewer knows, its secrets resampled — what a search from that viewer's seat may play on.
//!
//! What is secret in Five Tribes, and why only one thing is resampled:
//! - **Gold** is hidden from the other seats in the view until the end (Ruling 13, F15), but
//!   every gain and payment is a public entry (a bid's cost, a market, a sale, a tile's
//!   payout, Ba'al and Monkir), so each seat's gold follows from the log. It is known, and kept.
//! - **Deck order** is never in the state (F14: each draw is a chance entry naming what it
//!   drew). The resource pile's *contents* are the full deck less the row, the hands and the
//!   discard pile, all public; the same holds for the djinn pile but for the one secret below.
//! - **Sibittis's draw** (`Stage::Sibittis { drawn, .. }`) is seen by its drawer only (F15,
//!   `chance_visible`) until one is kept and the rest go face up to the discard pile. Every
//!   other viewer (a spectator, another seat) knows how many were drawn and that they came
//!   from the pile, whose contents it knows (above) — so the djinns that could be there are
//!   the drawn ones and those still in the pile, and `drawn` is resampled uniformly from them,
//!   its count kept, the pile left holding exactly the rest (no djinn made or lost).
//! - Nothing else: no move is hidden (`move_visible` is the default, always true), and every
//!   other chance outcome is dealt face up.
//!
//! One thing the state cannot say: a draw that emptied the pile part-way reshuffled the
//! discards in (F14), and a viewer at the table saw that the old pile's last djinns were among
//! those drawn. The state keeps no trace of which they were, so the sample may put them back in
//! the pile — a state with the same view, the same moves and the same djinns, only less sharp
//! than a memory of the log.

use crate::state::{Phase, Stage, State};
use rules_core::{ChanceRng, Seat, Viewer};

impl State {
    /// `self` with the djinns Sibittis drew resampled, unless `viewer` is the drawer or sees
    /// every secret; otherwise `self` as it is (gold, the one other hidden value, is known).
    pub(crate) fn determinize(&self, viewer: Viewer, rng: &mut dyn ChanceRng) -> State {
        let mut t = self.clone();
        let Phase::Turn {
            seat,
            stage: Stage::Sibittis { drawn, .. },
        } = &mut t.phase
        else {
            return t;
        };
        if viewer.sees(Seat(*seat)) || drawn.is_empty() {
            return t;
        }
        // What the viewer cannot tell apart: any `drawn.len()` of these, in any order.
        let mut could = t.djinn_deck;
        for &d in drawn.iter() {
            could.insert(d);
        }
        let n = drawn.len();
        drawn.clear();
        for _ in 0..n {
            // Uniform without replacement, in order: a uniformly sampled ordered draw. `could`
            // holds at least `n` in any state the reducer made (the drawn left the pile); a
            // state that broke that (a forged snapshot) draws fewer rather than panicking.
            let k = rng.below(could.len()) as usize;
            let Some(d) = could.iter().nth(k) else { break };
            could.remove(d);
            drawn.push(d);
        }
        t.djinn_deck = could;
        t
    }
}
