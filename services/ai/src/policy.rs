//! Rollout policies: how a playout from a search's leaf chooses moves. `Random` is uniform
//! over the legal moves; `Greedy` looks at a few of them and takes the one that scores the
//! most now for the seat moving (by the game's own `scores`), a random one now and then so
//! that playouts still explore — cheap, game-agnostic, and better informed than random.
use rules_core::{ChanceRng, Game, Seat};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rollout {
    Random,
    Greedy,
}

/// How many moves the greedy policy looks at (a sample, so a thousand moves cost little).
const GREEDY_LOOKS: u32 = 4;
/// One choice in this many is random, whatever the policy.
const GREEDY_RANDOM_ONE_IN: u32 = 8;

impl Rollout {
    /// The index of the move `seat` plays among `moves` (not empty) in `s`.
    pub fn pick<G: Game>(
        self,
        s: &G::State,
        seat: Seat,
        moves: &[G::Move],
        rng: &mut dyn ChanceRng,
    ) -> usize {
        let n = moves.len() as u32;
        match self {
            Rollout::Random => rng.below(n) as usize,
            Rollout::Greedy if n == 1 || rng.below(GREEDY_RANDOM_ONE_IN) == 0 => {
                rng.below(n) as usize
            }
            Rollout::Greedy => greedy::<G>(s, seat, moves, rng),
        }
    }

    /// As [`Rollout::pick`], among `moves[k]` for `k` in `among` (not empty): the index into
    /// `moves`. For a search's expansion, which picks among the moves not tried yet.
    pub fn pick_among<G: Game>(
        self,
        s: &G::State,
        seat: Seat,
        moves: &[G::Move],
        among: &[usize],
        rng: &mut dyn ChanceRng,
    ) -> usize {
        let n = among.len() as u32;
        if self == Rollout::Random || n == 1 || rng.below(GREEDY_RANDOM_ONE_IN) == 0 {
            return among[rng.below(n) as usize];
        }
        let mut best = (i32::MIN, among[0]);
        for _ in 0..GREEDY_LOOKS.min(n) {
            let i = among[rng.below(n) as usize];
            let score = score_after::<G>(s, seat, &moves[i]);
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }
}

/// The seat's score right after `m` (`i32::MIN` if `m` is refused).
fn score_after<G: Game>(s: &G::State, seat: Seat, m: &G::Move) -> i32 {
    let mut t = s.clone();
    if G::play(&mut t, seat, m).is_err() {
        return i32::MIN;
    }
    G::scores(&t)
        .iter()
        .find(|x| x.seat == seat)
        .map_or(0, |x| x.total)
}

/// The best of a few sampled moves by the seat's score right after it.
pub fn greedy<G: Game>(
    s: &G::State,
    seat: Seat,
    moves: &[G::Move],
    rng: &mut dyn ChanceRng,
) -> usize {
    let n = moves.len() as u32;
    let mut best = (i32::MIN, 0usize);
    for _ in 0..GREEDY_LOOKS.min(n) {
        let i = rng.below(n) as usize;
        let score = score_after::<G>(s, seat, &moves[i]);
        if score > best.0 {
            best = (score, i);
        }
    }
    best.1
}
