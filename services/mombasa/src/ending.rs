//! Action 6, ending one's action phase (one rest pile into hand, the action area's cards to
//! their rest piles, bonus tiles back), turn order, and the end of the action phase: the
//! preparation phase (round-track coins to the book display, the display slides right) or,
//! after round 7, the end of the game.

use crate::error::Rule;
use crate::ids::{CardId, NONE, SLOTS};
use crate::state::{Phase, Stage, State};

impl State {
    pub(crate) fn check_end(&self, seat: u8, pile: u8) -> Result<(), Rule> {
        let p = self.player(seat).ok_or(Rule::WrongStep)?;
        let open = p.open_slots(self.data());
        let pile = usize::from(pile);
        if pile >= open {
            return Err(Rule::EndPile);
        }
        let any = p.piles.iter().take(open).any(|&m| m != 0);
        if any && p.piles.get(pile).copied().unwrap_or(0) == 0 {
            return Err(Rule::EndPile);
        }
        Ok(())
    }

    pub(crate) fn apply_end(&mut self, seat: u8, pile: u8) {
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            let pile = usize::from(pile).min(SLOTS - 1);
            p.hand |= std::mem::take(&mut p.piles[pile]);
            for (i, s) in p.slots.iter_mut().enumerate() {
                if *s != NONE {
                    p.piles[i] |= CardId(*s).bit();
                    *s = NONE;
                }
            }
            p.face_up = 0;
            p.tiles = 0;
            p.tiles_up = 0;
            p.ended = true;
        }
        for t in &mut self.tile_at {
            if *t == seat {
                *t = NONE;
            }
        }
        self.finish_action();
    }

    /// The current action is over: the next seat still in the phase acts (clockwise), or the
    /// phase ends when every seat has ended it (Ruling M8).
    pub(crate) fn finish_action(&mut self) {
        self.stage = Stage::Top;
        self.drop_undo();
        // The turn passes: a spent cancel (rules 4) is the ending turn's.
        self.undo = crate::undo::Undo::None;
        let n = self.players;
        let next = (1..=n)
            .map(|i| (self.turn + i) % n)
            .find(|&s| self.seats.get(usize::from(s)).is_some_and(|p| !p.ended));
        match next {
            Some(s) => self.turn = s,
            None if self.round >= self.data().rounds => self.end_game(),
            None => self.begin_prep(),
        }
    }

    /// The game ends after round 7's action phase. Rules 2: "first, each player takes the
    /// cards of their rest piles back into hand" (zh, final scoring), so the final position
    /// shows them there (the shares they carry count wherever the cards lie).
    fn end_game(&mut self) {
        self.phase = Phase::Over;
        // A book taken by the last action needs no replacement any more.
        self.book_refill = NONE;
        if self.rules >= crate::state::Rules::V2 {
            for p in &mut self.seats {
                for pile in &mut p.piles {
                    p.hand |= std::mem::take(pile);
                }
            }
        }
    }

    /// Preparation steps (a) and the first half of (b); the refill is the next chance entry.
    fn begin_prep(&mut self) {
        // (a) The coins of the round-track space of the round about to start (2..7) go to the
        // book display column below it: one to the first row, a second to the second row.
        let next = usize::from(self.round) + 1;
        if let Some(coins) = self.round_coins.get_mut(next.wrapping_sub(2)) {
            let k = std::mem::take(coins);
            let col = (next - 2) * 2;
            for row in 0..usize::from(k.min(2)) {
                self.book_coins[col + row] += 1;
            }
        }
        // (b) The right column goes to the discard pile; each row slides right.
        for row in 0..4 {
            let right = std::mem::replace(&mut self.display[8 + row], NONE);
            if right != NONE {
                self.discard |= 1 << right;
            }
            let left = std::mem::replace(&mut self.display[row], NONE);
            let mid = std::mem::replace(&mut self.display[4 + row], NONE);
            match (left != NONE, mid != NONE) {
                (true, true) => {
                    self.display[4 + row] = left;
                    self.display[8 + row] = mid;
                }
                (true, false) => self.display[8 + row] = left,
                (false, true) => self.display[8 + row] = mid,
                (false, false) => {}
            }
        }
        self.phase = Phase::Prep;
    }

    /// Preparation step (c) after the refill, then the next round.
    pub(crate) fn end_prep(&mut self) {
        for p in &mut self.seats {
            p.markers_used = 0;
        }
        self.bonus = [NONE; 8];
        for (t, w) in self.tile_won.iter_mut().enumerate() {
            if *w != NONE {
                if let Some(p) = self.seats.get_mut(usize::from(*w)) {
                    p.tiles |= 1 << t;
                    p.tiles_up |= 1 << t;
                }
                self.tile_at[t] = *w;
                *w = NONE;
            }
        }
        if self.next_first != NONE {
            self.first = std::mem::replace(&mut self.next_first, NONE);
        }
        self.start_round(self.round + 1);
    }
}
