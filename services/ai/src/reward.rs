//! An outcome as one reward per seat, in `0..=1`: mostly the seat's share of the win (a tie
//! shares it), and a little for where its score stands between the lowest and the highest,
//! so that among lost lines the search still prefers the better ones.
use rules_core::Outcome;

/// The weight of the win share; the rest is the score's place between lowest and highest.
const WIN: f64 = 0.8;

/// One reward per seat, in seat order.
pub fn rewards(o: &Outcome, players: usize) -> Vec<f64> {
    let mut out = vec![0.0; players];
    let score = |s: usize| {
        o.scores
            .iter()
            .find(|x| usize::from(x.seat.0) == s)
            .map_or(0, |x| x.total)
    };
    let (lo, hi) = (0..players).fold((i64::MAX, i64::MIN), |(lo, hi), s| {
        let t = i64::from(score(s));
        (lo.min(t), hi.max(t))
    });
    let winners = o.winners.len().max(1) as f64;
    for (s, r) in out.iter_mut().enumerate() {
        let won = o.winners.iter().any(|w| usize::from(w.0) == s);
        let share = if won { 1.0 / winners } else { 0.0 };
        let place = if hi > lo {
            (i64::from(score(s)) - lo) as f64 / (hi - lo) as f64
        } else {
            0.5
        };
        *r = WIN * share + (1.0 - WIN) * place;
    }
    out
}
