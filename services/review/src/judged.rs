//! A review read as judgements: every seat move with the mover's chance before and after, the
//! best alternative, its class and accuracy; each seat's accuracy and counts; the turning
//! points. Derived on reading from the kept evaluations and the log (the thresholds and
//! formulas are [`ai::judge`]'s, so a change to them needs no new review).
use crate::record::Review;
use ai::judge::{self, Class};
use rules_core::Actor;
use store::Entry;

/// One seat move judged.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    /// The entry's ply (it leads to `ply + 1`).
    pub ply: u32,
    pub seat: u8,
    pub notation: String,
    /// The mover's chance to win before the move and after it: raw, from the position's own
    /// search (through its best move, and through the move played).
    pub before: f64,
    pub after: f64,
    /// The move the search liked best here, with the mover's chance after it.
    pub best: Option<(String, f64)>,
    pub class: Class,
    /// The move's accuracy, in percent.
    pub accuracy: f64,
    /// The seat had one legal move.
    pub forced: bool,
}

impl Judged {
    pub fn loss(&self) -> f64 {
        judge::loss(self.before, self.after)
    }
}

/// Every seat move of the game, judged, in ply order.
pub fn judgements(r: &Review, entries: &[Entry]) -> Vec<Judged> {
    entries
        .iter()
        .filter_map(|e| {
            let Actor::Seat(seat) = e.actor else {
                return None;
            };
            let p = e.ply as usize;
            let (here, next) = (r.plies.get(p)?, r.plies.get(p + 1)?);
            let i = usize::from(seat.0);
            // The raw figures of the position's own search (see `record::PlyEval::raw`); a
            // forced move, none: the chances shown, which it does not change.
            let (before, after) = match here.raw {
                Some((b, a)) => (f64::from(b), f64::from(a)),
                None => (
                    f64::from(here.seats.get(i)?.win),
                    f64::from(next.seats.get(i)?.win),
                ),
            };
            let best = here
                .best
                .as_ref()
                .map(|(mv, win)| (mv.clone(), f64::from(*win)));
            let was_best = best.as_ref().is_some_and(|(mv, _)| *mv == e.notation);
            Some(Judged {
                ply: e.ply,
                seat: seat.0,
                notation: e.notation.clone(),
                before,
                after,
                best,
                class: judge::classify(before, after, was_best),
                accuracy: judge::move_accuracy(before, after),
                forced: here.forced,
            })
        })
        .collect()
}

/// A seat's play over the game.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatReport {
    pub seat: u8,
    /// [`judge::game_accuracy`] over its moves with a choice (`None`: it had none).
    pub accuracy: Option<f64>,
    pub moves: u32,
    /// Moves by class, in [`Class::ALL`]'s order.
    pub classes: [u32; 5],
}

/// Each seat's accuracy and counts, in seat order. Forced moves are left out: they say
/// nothing of the player.
pub fn seat_reports(judged: &[Judged], players: usize) -> Vec<SeatReport> {
    (0..players)
        .map(|seat| {
            let mine: Vec<&Judged> = judged
                .iter()
                .filter(|j| usize::from(j.seat) == seat && !j.forced)
                .collect();
            let mut classes = [0u32; 5];
            for j in &mine {
                classes[j.class as usize] += 1;
            }
            let pairs: Vec<(f64, f64)> = mine.iter().map(|j| (j.before, j.after)).collect();
            SeatReport {
                seat: seat as u8,
                accuracy: judge::game_accuracy(&pairs),
                moves: mine.len() as u32,
                classes,
            }
        })
        .collect()
}

/// Every seat's chance to win at each ply (the win-chance graph).
pub fn chances(r: &Review) -> Vec<Vec<f64>> {
    r.plies
        .iter()
        .map(|p| p.seats.iter().map(|c| f64::from(c.win)).collect())
        .collect()
}
