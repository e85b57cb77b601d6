//! Final scoring after round 7's action phase, as the score sheet's seven lines: cash; for
//! each company, shares (last share icon reached on its track + share icons on every card the
//! player owns) × the coins showing at its base; the diamond and bookkeeping tracks' last
//! value reached (the marker's own space counts, Ruling M11; books are worth nothing). Ties
//! share the victory (the text; Ruling M14).

use crate::data::ValueTrack;
use crate::ids::Company;
use crate::state::{Phase, State};
use rules_core::{Outcome, Seat, SeatScore};

/// The last value on `track` at or before `pos`.
pub fn track_value(track: &ValueTrack, pos: u8) -> u8 {
    track
        .values
        .iter()
        .take(usize::from(pos) + 1)
        .rev()
        .find_map(|v| *v)
        .unwrap_or(0)
}

impl State {
    /// `seat`'s score sheet as it would stand now.
    pub fn seat_score(&self, seat: u8) -> SeatScore {
        let c = self.data();
        let Some(p) = self.player(seat) else {
            return SeatScore::new(Seat(seat), Vec::new(), None);
        };
        let mut lines: Vec<(&'static str, i32)> = vec![("pounds", i32::from(p.pounds))];
        for co in Company::ALL {
            let v = self.shares(seat, co) as i32 * i32::from(self.share_value(co));
            lines.push((co.slug(), v));
        }
        lines.push(("diamonds", i32::from(track_value(&c.diamond, p.diamond))));
        lines.push(("bookkeeping", i32::from(track_value(&c.bookkeeping, p.ink))));
        SeatScore::new(Seat(seat), lines, None)
    }

    pub fn scores(&self) -> Vec<SeatScore> {
        (0..self.players).map(|s| self.seat_score(s)).collect()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        (self.phase == Phase::Over).then(|| Outcome::from_scores(self.scores()))
    }
}
