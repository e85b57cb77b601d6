//! Moves judged by the win chance they cost: the one place the thresholds, the classes, the
//! accuracy of a move and of a game, and the turning points are defined, so the API, the
//! viewer, the exports and the benchmarks all say the same (lichess keeps its counterpart in
//! `winningChances.ts` and `AccuracyPercent.scala`).
//!
//! A seat's move at ply `p` is judged on the evaluation of the position it moved in. `before`
//! is the mover's chance to win there — the search reads it through the move it likes best,
//! so it is also the best alternative's chance —; `after` is the mover's chance after the
//! move played: the value that same search gave it when it tried the move often enough (the
//! two then come from the same samples and differ by the move, not by the noise of two
//! searches), else the evaluation of the position the move made (`p + 1`). The move's
//! **loss** is `max(0, before − after)`. Chances are probabilities (`0..=1`, ties shared).
//!
//! | class | loss of win chance | lichess (its winning chances run −1…1: half these) |
//! |---|---|---|
//! | best | the search's own first choice | — |
//! | good | under 0.06 | under 0.1 (0.05 of probability) |
//! | inaccuracy `?!` | 0.06 to 0.12 | 0.1 (0.05) |
//! | mistake `?` | 0.12 to 0.20 | 0.2 (0.10) |
//! | blunder `??` | 0.20 and more | 0.3 (0.15) |
//!
//! The thresholds sit above lichess's because two searches of 1,000 iterations disagree by a
//! few points on the same position (the spread is in `ops/BENCHMARKS.md`, "Judgements"):
//! below 0.06 a loss is not told apart from that noise. A seat with no chance left loses
//! none, so in a lost game every move is good (as on lichess).
//!
//! **Accuracy** is lichess's `AccuracyPercent`, read on win chances in percent: a move's
//! accuracy is `103.1668 · e^(−0.04354 · (before − after)) − 3.1669 + 1`, clamped to 0…100
//! (100 when the move lost nothing); a seat's accuracy over a game is the mean of the
//! volatility-weighted mean and the harmonic mean of its moves' accuracies, the weights being
//! the standard deviation of the seat's win chance over a sliding window of its moves (window
//! `clamp(moves / 10, 2, 8)`, weights clamped to 0.5…12). lichess's windows run over both
//! sides' plies; here each seat's run over its own moves, since a seat's chance is its own.

/// A move's class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    Best,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Class {
    /// Every class, best first.
    pub const ALL: [Class; 5] = [
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
    ];

    /// The glyph a move list shows (`""` for best and good moves).
    pub fn glyph(self) -> &'static str {
        match self {
            Class::Best | Class::Good => "",
            Class::Inaccuracy => "?!",
            Class::Mistake => "?",
            Class::Blunder => "??",
        }
    }

    /// Its lowercase name, as exports and the API's enum spell it.
    pub fn name(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }
}

/// The least loss of win chance of an inaccuracy, a mistake and a blunder.
pub const INACCURACY: f64 = 0.06;
pub const MISTAKE: f64 = 0.12;
pub const BLUNDER: f64 = 0.20;

/// The loss of a move that took the mover's chance from `before` to `after`.
pub fn loss(before: f64, after: f64) -> f64 {
    (before - after).max(0.0)
}

/// The class of a move: `best` when it is the search's own first choice, otherwise by its
/// loss.
pub fn classify(before: f64, after: f64, was_best: bool) -> Class {
    let l = loss(before, after);
    if was_best {
        Class::Best
    } else if l >= BLUNDER {
        Class::Blunder
    } else if l >= MISTAKE {
        Class::Mistake
    } else if l >= INACCURACY {
        Class::Inaccuracy
    } else {
        Class::Good
    }
}

/// A move's accuracy in percent (lichess's `AccuracyPercent.fromWinPercents`, on chances).
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    let (b, a) = (before * 100.0, after * 100.0);
    if a >= b {
        return 100.0;
    }
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (b - a)).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// A seat's accuracy over a game, from its moves' `(before, after)` chances in order; `None`
/// for a seat that made no move.
pub fn game_accuracy(moves: &[(f64, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let acc: Vec<f64> = moves.iter().map(|&(b, a)| move_accuracy(b, a)).collect();
    // The seat's chance before each move and after its last, in percent.
    let mut wins: Vec<f64> = moves.iter().map(|&(b, _)| b * 100.0).collect();
    wins.push(moves[moves.len() - 1].1 * 100.0);
    let window = (moves.len() / 10).clamp(2, 8);
    let weights: Vec<f64> = (0..acc.len())
        .map(|i| {
            // The window ending at the move's result (the first windows are the first one).
            let end = (i + 2).max(window).min(wins.len());
            let w = &wins[end.saturating_sub(window)..end];
            std_dev(w).clamp(0.5, 12.0)
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let weighted = acc.iter().zip(&weights).map(|(a, w)| a * w).sum::<f64>() / total;
    // A move of accuracy 0 would make the harmonic mean 0: lichess floors each at a little
    // above it, as here.
    let harmonic = acc.len() as f64 / acc.iter().map(|a| 1.0 / a.max(0.01)).sum::<f64>();
    Some((weighted + harmonic) / 2.0)
}

fn std_dev(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// A swing of the game: the entry at `ply` (the one leading to `ply + 1`) moved `seat`'s
/// chance by `swing` (signed), the largest change of any seat's chance there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Swing {
    pub ply: u32,
    pub seat: usize,
    pub swing: f64,
}

/// The `first` largest swings of a game whose evaluation at every ply is `chances[ply][seat]`,
/// largest first (ties: the earlier).
pub fn turning_points(chances: &[Vec<f64>], first: usize) -> Vec<Swing> {
    let mut swings: Vec<Swing> = chances
        .windows(2)
        .enumerate()
        .filter_map(|(p, w)| {
            w[0].iter()
                .zip(&w[1])
                .enumerate()
                .map(|(seat, (b, a))| Swing {
                    ply: p as u32,
                    seat,
                    swing: a - b,
                })
                .max_by(|x, y| x.swing.abs().total_cmp(&y.swing.abs()))
        })
        .collect();
    swings.sort_by(|x, y| {
        y.swing
            .abs()
            .total_cmp(&x.swing.abs())
            .then(x.ply.cmp(&y.ply))
    });
    swings.truncate(first);
    swings
}
