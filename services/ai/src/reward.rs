//! An outcome as one reward per seat, in `0..=1`: mostly the seat's share of the win (a tie
//! shares it), and a little for where its score stands between the lowest and the highest,
//! so that among lost lines the search still prefers the better ones.
//!
//! A solo game has no one to beat (its one seat always "wins"), so there the reward is the
//! score's place between the lowest and the highest final score the search has seen so far
//! ([`Scale`], single-player MCTS's normalisation): without it every line looks alike and the
//! search plays at random. In games of several seats a part of the reward is that same
//! absolute place, so that the search also prefers lines where it scores more, not only more
//! than the others.
use rules_core::Outcome;

/// The weight of the win share.
const WIN: f64 = 0.8;
/// The weight of the score's place among the seats of the same playout.
const PLACE: f64 = 0.1;
// The rest, `1 - WIN - PLACE`, is the score's place on the search's [`Scale`].

/// The lowest and highest final scores a search has seen (any seat).
#[derive(Debug, Clone, Copy)]
pub struct Scale {
    lo: i64,
    hi: i64,
}

impl Default for Scale {
    fn default() -> Self {
        Scale {
            lo: i64::MAX,
            hi: i64::MIN,
        }
    }
}

impl Scale {
    fn see(&mut self, t: i64) {
        self.lo = self.lo.min(t);
        self.hi = self.hi.max(t);
    }

    /// `t`'s place between the lowest and highest seen, in `0..=1` (0.5 while they are equal).
    fn place(&self, t: i64) -> f64 {
        if self.hi > self.lo {
            ((t - self.lo) as f64 / (self.hi - self.lo) as f64).clamp(0.0, 1.0)
        } else {
            0.5
        }
    }
}

/// One reward per seat, in seat order; `scale` learns the outcome's scores first.
pub fn rewards(o: &Outcome, players: usize, scale: &mut Scale) -> Vec<f64> {
    let mut out = vec![0.0; players];
    let score = |s: usize| {
        o.scores
            .iter()
            .find(|x| usize::from(x.seat.0) == s)
            .map_or(0, |x| i64::from(x.total))
    };
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for s in 0..players {
        let t = score(s);
        (lo, hi) = (lo.min(t), hi.max(t));
        scale.see(t);
    }
    if players == 1 {
        out[0] = scale.place(score(0));
        return out;
    }
    let winners = o.winners.len().max(1) as f64;
    for (s, r) in out.iter_mut().enumerate() {
        let won = o.winners.iter().any(|w| usize::from(w.0) == s);
        let share = if won { 1.0 / winners } else { 0.0 };
        let place = if hi > lo {
            (score(s) - lo) as f64 / (hi - lo) as f64
        } else {
            0.5
        };
        *r = WIN * share + PLACE * place + (1.0 - WIN - PLACE) * scale.place(score(s));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules_core::{Seat, SeatScore};

    fn outcome(totals: &[i32]) -> Outcome {
        Outcome::from_scores(
            totals
                .iter()
                .enumerate()
                .map(|(i, &t)| SeatScore::new(Seat(i as u8), vec![("points", t)], None))
                .collect(),
        )
    }

    #[test]
    fn a_solo_reward_grows_with_the_score_among_those_seen() {
        let mut scale = Scale::default();
        assert_eq!(rewards(&outcome(&[40]), 1, &mut scale), [0.5]);
        assert_eq!(rewards(&outcome(&[80]), 1, &mut scale), [1.0]);
        assert_eq!(rewards(&outcome(&[60]), 1, &mut scale), [0.5]);
        assert_eq!(rewards(&outcome(&[40]), 1, &mut scale), [0.0]);
    }

    #[test]
    fn the_winner_gets_most_a_tie_shares_and_more_points_count_a_little() {
        let mut scale = Scale::default();
        let r = rewards(&outcome(&[50, 70]), 2, &mut scale);
        assert!(r[1] > 0.9 && r[0] < 0.1, "{r:?}");
        let tie = rewards(&outcome(&[60, 60]), 2, &mut scale);
        assert_eq!(tie[0], tie[1]);
        assert!((tie[0] - 0.5).abs() < 0.11, "{tie:?}");
        // Losing 60 to 70 is better than losing 50 to 70.
        let closer = rewards(&outcome(&[60, 70]), 2, &mut scale);
        assert!(closer[0] > r[0], "{closer:?} {r:?}");
        assert!(r.iter().chain(&tie).all(|x| (0.0..=1.0).contains(x)));
    }
}
