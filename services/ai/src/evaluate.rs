//! A position's evaluation: for each seat its chance to win (ties shared) with a 95 %
//! interval, its expected final score and rank, and the best moves of the seat to act, each
//! with the mover's win chance after it.
//!
//! The figures are the search's own ([`crate::mcts`]), read at its root: the outcomes of the
//! iterations through the most visited move (the move the search would play) make the
//! position's evaluation, and each root move's outcomes make its line in the best moves. A
//! finished game's evaluation is its outcome, exactly.
//!
//! Perspective is the viewer's: every iteration samples the hidden parts of the position from
//! what `viewer` sees (`Game::determinize`), so an evaluation for a seat or a spectator reads
//! nothing they could not see; only the omniscient viewer searches the real position. The
//! candidate moves of the seat to act are those legal in the samples, so for a viewer who
//! cannot see that seat's hand they are moves it might have, never a read of the one it holds.
//!
//! The win chances are raw: the share of the search's playouts won, not yet calibrated
//! against real outcomes. The interval is Wilson's over the playouts behind the figure (how
//! sure the search is of its own estimate, not of the game).
use crate::arena::wilson;
use crate::mcts::{run, SearchConfig, Tally};
use crate::policy::Rollout;
use rules_core::{Game, Seat, ToAct, Viewer};

/// One seat's prospects.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatOutlook {
    pub seat: Seat,
    /// Chance to win, ties shared, in `0..=1`.
    pub win: f64,
    /// Wilson 95 % interval of `win` over the playouts behind it.
    pub low: f64,
    pub high: f64,
    /// Expected final score.
    pub score: f64,
    /// Expected final rank (1 = first; tied seats share the better rank).
    pub rank: f64,
}

/// One candidate move of the seat to act.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveOutlook<M> {
    pub mv: M,
    pub seat: Seat,
    /// Iterations that tried it.
    pub visits: u32,
    /// The mover's chance to win after it, with its interval, and expected score.
    pub win: f64,
    pub low: f64,
    pub high: f64,
    pub score: f64,
}

/// A position's evaluation for one viewer.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation<M> {
    /// Seats in order.
    pub seats: Vec<SeatOutlook>,
    /// The seat to act's moves, most tried first (empty when the game is over or chance acts).
    pub best: Vec<MoveOutlook<M>>,
    /// Iterations searched (0 for a finished game: its outcome is exact).
    pub iterations: u32,
    /// Playouts behind `seats` (the iterations through the most tried move).
    pub playouts: u32,
    /// Whether the figures are the game's final outcome.
    pub exact: bool,
    /// Whether the chances went through a calibration map ([`crate::calibrate`]).
    pub calibrated: bool,
    /// The move [`Judge::played`] named, as the same search valued it (at least
    /// [`Judge::playouts`] playouts through it).
    pub played: Option<MoveOutlook<M>>,
}

/// What a review asks of an evaluation beyond [`evaluate()`]: the seat whose moves to advise
/// when several may act, and the move that seat played, to be valued from the same tree.
#[derive(Debug, Clone, Copy)]
pub struct Judge<'m, M> {
    pub mover: Option<Seat>,
    pub played: Option<&'m M>,
    /// Playouts through `played` the search makes sure of.
    pub playouts: u32,
}

impl<M> Default for Judge<'_, M> {
    fn default() -> Self {
        Judge {
            mover: None,
            played: None,
            playouts: 0,
        }
    }
}

/// Evaluates `s` for `viewer` with a search of `iterations` (random rollouts) from `seed`;
/// `best` moves are kept. Pure: the same arguments give the same evaluation.
pub fn evaluate<G: Game>(
    s: &G::State,
    viewer: Viewer,
    iterations: u32,
    best: usize,
    seed: u64,
) -> Evaluation<G::Move> {
    evaluate_for::<G>(s, viewer, Judge::default(), iterations, best, seed)
}

/// [`evaluate()`] for a review: advising `judge.mover` when it is among the seats to act (a
/// simultaneous step, such as Mombasa's planning, names another first), and valuing the move
/// it played with at least `judge.playouts` playouts through it, from the same tree as the
/// best move (two searches would differ by their noise and by which seat each puts at its
/// root; the same tree differs by the move alone).
pub fn evaluate_for<G: Game>(
    s: &G::State,
    viewer: Viewer,
    judge: Judge<'_, G::Move>,
    iterations: u32,
    best: usize,
    seed: u64,
) -> Evaluation<G::Move> {
    let mover = judge.mover;
    let players = usize::from(G::player_count(s));
    if let Some(o) = G::outcome(s) {
        let mut t = Tally::default();
        t.add(&o, players);
        return Evaluation {
            seats: outlooks(&t, players),
            best: Vec::new(),
            iterations: 0,
            playouts: 0,
            exact: true,
            calibrated: false,
            played: None,
        };
    }
    // Chance to act: the position's value is the mean over what chance may bring, and there
    // is no move to advise.
    let (me, advise) = match G::to_act(s) {
        ToAct::Seat(x) => match mover {
            Some(m) if m != x && G::seats_to_act(s).contains(&m) => (m, true),
            _ => (x, true),
        },
        ToAct::Chance | ToAct::Over => (Seat(0), false),
    };
    let cfg = SearchConfig::new(iterations.max(1), Rollout::Random);
    let force = judge.played.filter(|_| advise).map(|m| (m, judge.playouts));
    let done = run::<G>(s, me, viewer, &cfg, seed, true, force);
    let played = force.map(|(mv, _)| {
        let t = done.through(mv);
        outlook(mv, me, &t)
    });
    let moves = if advise {
        done.root_moves()
    } else {
        Vec::new()
    };
    let lead = moves.first().map_or(&done.all, |m| m.3);
    let best = moves
        .iter()
        .take(best)
        .map(|&(ref mv, seat, _, t)| outlook(mv, seat, t))
        .collect();
    Evaluation {
        seats: outlooks(lead, players),
        best,
        iterations: done.stats.iterations,
        playouts: lead.n,
        exact: false,
        calibrated: false,
        played,
    }
}

/// `mv`'s line, from the outcomes through it, for the seat that plays it.
fn outlook<M: Clone>(mv: &M, seat: Seat, t: &Tally) -> MoveOutlook<M> {
    let i = usize::from(seat.0);
    let n = t.n.max(1);
    let win = t.win.get(i).copied().unwrap_or(0.0) / f64::from(n);
    let (low, high) = wilson(win * f64::from(n), u64::from(n));
    MoveOutlook {
        mv: mv.clone(),
        seat,
        visits: t.n,
        win,
        low,
        high,
        score: t.score.get(i).copied().unwrap_or(0.0) / f64::from(n),
    }
}

fn outlooks(t: &Tally, players: usize) -> Vec<SeatOutlook> {
    let n = t.n.max(1);
    let per = |v: &Vec<f64>, i: usize| v.get(i).copied().unwrap_or(0.0) / f64::from(n);
    (0..players)
        .map(|i| {
            let win = per(&t.win, i);
            let (low, high) = wilson(win * f64::from(n), u64::from(n));
            SeatOutlook {
                seat: Seat(i as u8),
                win,
                low,
                high,
                score: per(&t.score, i),
                rank: per(&t.rank, i),
            }
        })
        .collect()
}
