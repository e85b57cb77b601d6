//! Final scores: a total per seat, its breakdown by scoring category, and the winners.

use crate::ids::Seat;
use serde::Serialize;

/// One seat's score. `total` is always the sum of `breakdown`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatScore {
    pub seat: Seat,
    pub total: i32,
    /// (category, points), in the order of the game's score sheet.
    pub breakdown: Vec<(&'static str, i32)>,
    /// Compared only between seats with equal totals (e.g. money in Clans of Caledonia).
    /// `None` where the game has no tie-breaker.
    pub tiebreak: Option<i64>,
}

impl SeatScore {
    pub fn new(seat: Seat, breakdown: Vec<(&'static str, i32)>, tiebreak: Option<i64>) -> Self {
        let total = breakdown.iter().map(|(_, v)| v).sum();
        SeatScore {
            seat,
            total,
            breakdown,
            tiebreak,
        }
    }

    pub fn category(&self, name: &str) -> Option<i32> {
        self.breakdown
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }
}

/// The result of a finished game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub scores: Vec<SeatScore>,
    /// Every seat with the best (total, tie-breaker): ties share the win.
    pub winners: Vec<Seat>,
}

impl Outcome {
    pub fn from_scores(scores: Vec<SeatScore>) -> Self {
        let best = scores.iter().map(|s| (s.total, s.tiebreak)).max();
        let winners = scores
            .iter()
            .filter(|s| Some((s.total, s.tiebreak)) == best)
            .map(|s| s.seat)
            .collect();
        Outcome { scores, winners }
    }

    pub fn score(&self, seat: Seat) -> Option<&SeatScore> {
        self.scores.iter().find(|s| s.seat == seat)
    }
}

/// The 95% Wilson score interval (z = 1.96) of `successes` in `trials` (a tie counting its
/// share of a win), unrounded; (0, 0) without trials. Wilson rather than the normal
/// approximation because seat and tag counts are often small and rates near 0 or 1, where the
/// normal interval leaves [0, 1]. Statistics and the explorer read win rates through it.
pub fn wilson(successes: f64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 0.0);
    }
    let n = trials as f64;
    let p = successes / n;
    let z = 1.959_963_984_540_054_f64;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * ((p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt()) / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_share_the_win() {
        let o = Outcome::from_scores(vec![
            SeatScore::new(Seat(0), vec![("a", 10), ("b", 5)], None),
            SeatScore::new(Seat(1), vec![("a", 15)], None),
            SeatScore::new(Seat(2), vec![("a", 3)], None),
        ]);
        assert_eq!(o.winners, vec![Seat(0), Seat(1)]);
        assert_eq!(o.scores[0].total, 15);
    }

    #[test]
    fn tiebreak_separates_equal_totals_only() {
        let o = Outcome::from_scores(vec![
            SeatScore::new(Seat(0), vec![("a", 10)], Some(7)),
            SeatScore::new(Seat(1), vec![("a", 10)], Some(9)),
            SeatScore::new(Seat(2), vec![("a", 9)], Some(99)),
        ]);
        assert_eq!(o.winners, vec![Seat(1)]);
    }
}
