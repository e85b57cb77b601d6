//! Single-observer information-set MCTS (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).
//!
//! One tree over the searcher's information set, its nodes the sequences of moves played
//! from the position. Each iteration
//! 1. **determinizes**: samples a full state consistent with what the searcher's seat knows
//!    (`Game::determinize` from its own viewer — the only place hidden information is met);
//! 2. **selects** down the tree among the children whose move is legal in this sample, by
//!    UCB1 counting each child's *availability* (how often it could have been chosen) rather
//!    than its parent's visits; chance on the way is dealt by the game's own `sample_chance`;
//! 3. **expands** one untried legal move — while the node has fewer children than progressive
//!    widening allows (`widen · √visits`), so a list of a thousand moves is not tried whole
//!    before any is tried twice; the rollout policy picks which;
//! 4. **plays out** to the end with the rollout policy and **backs up** one reward per seat,
//!    each node crediting the seat whose move led to it.
//!
//! In a simultaneous step (Mombasa's planning) the searcher moves first at the root, whatever
//! seat the game names first; below, the game's own order. The others' hidden choices are
//! fused into the tree's nodes, as SO-ISMCTS does.
//!
//! Everything random comes from a stream of the seed per iteration: a search is a function of
//! the position, the seat, the configuration and the seed.
use crate::policy::Rollout;
use crate::reward::{rewards, Scale};
use rules_core::{ChanceRng, Dealer, Game, MoveBuf, Seat, ToAct, Viewer};
use rustc_hash::FxHashMap;

#[derive(Debug, Clone, Copy)]
pub struct SearchConfig {
    pub iterations: u32,
    pub rollout: Rollout,
    /// UCB1's exploration constant (rewards are in `0..=1`).
    pub exploration: f64,
    /// Progressive widening: a node with `n` visits has at most `widen · √(n + 1)` children.
    pub widen: f64,
    /// A playout longer than this is scored where it stands.
    pub max_rollout_plies: u32,
}

impl SearchConfig {
    pub fn new(iterations: u32, rollout: Rollout) -> Self {
        SearchConfig {
            iterations,
            rollout,
            exploration: 0.7,
            widen: 3.0,
            max_rollout_plies: 20_000,
        }
    }
}

/// What a search did, for benchmarks and analysis.
#[derive(Debug, Clone, Default)]
pub struct SearchStats {
    pub iterations: u32,
    pub nodes: usize,
    /// Plies played in playouts, in all.
    pub rollout_plies: u64,
    /// The chosen move's visits and mean reward for the searcher.
    pub visits: u32,
    pub value: f64,
}

struct Node<M> {
    /// The seat whose move led here (its reward is credited here).
    mover: Seat,
    visits: u32,
    /// Iterations in which this node's move was legal at its parent.
    avail: u32,
    reward: f64,
    children: Vec<u32>,
    by_move: FxHashMap<M, u32>,
    moved: Option<M>,
}

impl<M> Node<M> {
    fn new(mover: Seat, moved: Option<M>) -> Self {
        Node {
            mover,
            visits: 0,
            avail: 0,
            reward: 0.0,
            children: Vec::new(),
            by_move: FxHashMap::default(),
            moved,
        }
    }
}

/// What one outcome says, summed over the iterations that reached it: per seat the win share
/// (a tie shares it), the final score and the rank (1 = first; tied seats share the better).
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    pub n: u32,
    pub win: Vec<f64>,
    pub score: Vec<f64>,
    pub rank: Vec<f64>,
}

impl Tally {
    pub(crate) fn merge(&mut self, other: &Tally) {
        let players = other.win.len().max(self.win.len());
        for v in [&mut self.win, &mut self.score, &mut self.rank] {
            v.resize(players, 0.0);
        }
        self.n += other.n;
        for (i, (w, (s, r))) in other
            .win
            .iter()
            .zip(other.score.iter().zip(&other.rank))
            .enumerate()
        {
            self.win[i] += w;
            self.score[i] += s;
            self.rank[i] += r;
        }
    }

    pub(crate) fn add(&mut self, o: &rules_core::Outcome, players: usize) {
        if self.win.len() < players {
            self.win.resize(players, 0.0);
            self.score.resize(players, 0.0);
            self.rank.resize(players, 0.0);
        }
        self.n += 1;
        let winners = o.winners.len().max(1) as f64;
        let total = |s: usize| {
            o.scores
                .iter()
                .find(|x| usize::from(x.seat.0) == s)
                .map(|x| (x.total, x.tiebreak))
        };
        for s in 0..players {
            if o.winners.iter().any(|w| usize::from(w.0) == s) {
                self.win[s] += 1.0 / winners;
            }
            let mine = total(s);
            self.score[s] += f64::from(mine.map_or(0, |t| t.0));
            let above = (0..players).filter(|&x| total(x) > mine).count();
            self.rank[s] += 1.0 + above as f64;
        }
    }
}

/// A finished search: its tree, its figures, and the outcomes tallied per move at the root
/// (for the evaluation) and over all iterations.
pub(crate) struct Searched<M> {
    nodes: Vec<Node<M>>,
    pub stats: SearchStats,
    pub all: Tally,
    /// Per root child, the outcomes of the iterations that went through it.
    pub by_child: FxHashMap<u32, Tally>,
    /// The outcomes of the iterations forced through a root move (`run`'s `force`).
    pub forced: Tally,
}

impl<M: Clone> Searched<M> {
    /// The root's moves with who played them, their visits and tallies, most visited first
    /// (forced iterations left out).
    pub fn root_moves(&self) -> Vec<(M, Seat, u32, &Tally)> {
        let mut out: Vec<(M, Seat, u32, &Tally)> = self.nodes[0]
            .children
            .iter()
            .filter_map(|&c| {
                let n = &self.nodes[c as usize];
                let t = self.by_child.get(&c)?;
                Some((n.moved.clone()?, n.mover, t.n, t))
            })
            .collect();
        out.sort_by_key(|m| std::cmp::Reverse(m.2));
        out
    }
}

impl<M: std::hash::Hash + Eq> Searched<M> {
    /// Every outcome through root move `mv`: its iterations and those forced through it.
    pub fn through(&self, mv: &M) -> Tally {
        let mut t = self.forced.clone();
        if let Some(c) = self.nodes[0]
            .by_move
            .get(mv)
            .and_then(|c| self.by_child.get(c))
        {
            t.merge(c);
        }
        t
    }
}

/// The move `me` should play in `s`, searched with `cfg` from seed `seed`; `None` when `me`
/// has no move now. A single legal move is played without search.
pub fn search<G: Game>(
    s: &G::State,
    me: Seat,
    cfg: &SearchConfig,
    seed: u64,
) -> Option<(G::Move, SearchStats)> {
    let mut mine = G::MoveList::default();
    G::legal_moves_of(s, me, &mut mine);
    let own = mine.as_slice();
    match own.len() {
        0 => return None,
        1 => return Some((own[0].clone(), SearchStats::default())),
        _ => {}
    }
    let done = run::<G>(s, me, Viewer::Seat(me), cfg, seed, false, None);
    let mut stats = done.stats;
    let nodes = done.nodes;
    // The most visited of the searcher's own moves (its moves are known exactly).
    let root = &nodes[0];
    let mut best: Option<(u32, f64, &G::Move)> = None;
    for m in own {
        let Some(&c) = root.by_move.get(m) else {
            continue;
        };
        let ch = &nodes[c as usize];
        let value = if ch.visits == 0 {
            0.0
        } else {
            ch.reward / f64::from(ch.visits)
        };
        if best.is_none_or(|(v, q, _)| (ch.visits, value) > (v, q)) {
            best = Some((ch.visits, value, m));
        }
    }
    stats.nodes = nodes.len();
    match best {
        Some((visits, value, m)) => {
            stats.visits = visits;
            stats.value = value;
            Some((m.clone(), stats))
        }
        None => {
            let mut rng = Dealer::new(seed, u64::from(cfg.iterations));
            let k = cfg.rollout.pick::<G>(s, me, own, &mut rng);
            Some((own[k].clone(), stats))
        }
    }
}

/// The search itself: `cfg.iterations` iterations from `s`, each over a state sampled from
/// what `viewer` sees, `me` moving first at the root when it is among the seats to act.
/// `tally`: keep each outcome per root move (for the evaluation). `force`: a root move and a
/// number of playouts it must have — after the iterations, more go through that move until it
/// has them (at most that many more), tallied apart (`Searched::forced`) so they change
/// nothing else the search says; a review values the move actually played this way, from the
/// same tree as the best one.
pub(crate) fn run<G: Game>(
    s: &G::State,
    me: Seat,
    viewer: Viewer,
    cfg: &SearchConfig,
    seed: u64,
    tally: bool,
    force: Option<(&G::Move, u32)>,
) -> Searched<G::Move> {
    let players = usize::from(G::player_count(s));
    let mut nodes: Vec<Node<G::Move>> = vec![Node::new(me, None)];
    let mut stats = SearchStats::default();
    let mut all = Tally::default();
    let mut by_child: FxHashMap<u32, Tally> = FxHashMap::default();
    let mut list = G::MoveList::default();
    let mut path: Vec<u32> = Vec::with_capacity(64);
    let mut scale = Scale::default();
    let mut forced = Tally::default();
    let extra = force.map_or(0, |(_, min)| min);
    'iterations: for i in 0..cfg.iterations.saturating_add(extra) {
        let forcing = i >= cfg.iterations;
        if let (true, Some((mv, min))) = (forcing, force) {
            let had = nodes[0]
                .by_move
                .get(mv)
                .and_then(|c| by_child.get(c))
                .map_or(0, |t| t.n);
            if had + forced.n >= min {
                break;
            }
        }
        let mut rng = Dealer::new(seed, u64::from(i));
        let mut st = G::determinize(s, viewer, &mut rng);
        path.clear();
        path.push(0);
        let mut node = 0u32;
        let mut depth = 0u32;
        // Selection and expansion.
        loop {
            let seat = match G::to_act(&st) {
                ToAct::Over => break,
                ToAct::Chance => {
                    let Some(c) = G::sample_chance(&st, &mut rng) else {
                        break;
                    };
                    if G::resolve(&mut st, &c).is_err() {
                        break;
                    }
                    continue;
                }
                // At the root the searcher moves, even when a simultaneous step names
                // another seat first.
                ToAct::Seat(x) if depth == 0 && x != me && G::seats_to_act(&st).contains(&me) => me,
                ToAct::Seat(x) => x,
            };
            G::legal_moves_of(&st, seat, &mut list);
            let moves = list.as_slice();
            if moves.is_empty() {
                break;
            }
            if let (true, 0, Some((mv, _))) = (forcing, depth, force) {
                // The forced move, whatever UCB would pick (not legal in this sample: no
                // playout).
                if seat != me || !moves.contains(mv) {
                    continue 'iterations;
                }
                if G::play(&mut st, seat, mv).is_err() {
                    continue 'iterations;
                }
                let c = match nodes[0].by_move.get(mv) {
                    Some(&c) => c,
                    None => {
                        let c = nodes.len() as u32;
                        nodes.push(Node::new(seat, Some(mv.clone())));
                        nodes[0].children.push(c);
                        nodes[0].by_move.insert(mv.clone(), c);
                        c
                    }
                };
                nodes[c as usize].avail += 1;
                node = c;
                path.push(c);
                depth += 1;
                continue;
            }
            let n = &nodes[node as usize];
            let mut untried: Vec<usize> = Vec::new();
            let mut compatible: Vec<u32> = Vec::new();
            for (k, m) in moves.iter().enumerate() {
                match n.by_move.get(m) {
                    Some(&c) => compatible.push(c),
                    None => untried.push(k),
                }
            }
            let allowed = (cfg.widen * f64::from(n.visits + 1).sqrt()).ceil() as usize;
            for &c in &compatible {
                nodes[c as usize].avail += 1;
            }
            if !untried.is_empty() && (compatible.len() < allowed || compatible.is_empty()) {
                let k = cfg
                    .rollout
                    .pick_among::<G>(&st, seat, moves, &untried, &mut rng);
                let m = moves[k].clone();
                if G::play(&mut st, seat, &m).is_err() {
                    break;
                }
                let child = nodes.len() as u32;
                let mut fresh = Node::new(seat, Some(m.clone()));
                fresh.avail = 1;
                nodes.push(fresh);
                let parent = &mut nodes[node as usize];
                parent.children.push(child);
                parent.by_move.insert(m, child);
                path.push(child);
                break;
            }
            // UCB1 over the children available in this sample.
            let mut best = (f64::MIN, compatible[0]);
            for &c in &compatible {
                let ch = &nodes[c as usize];
                let v = if ch.visits == 0 {
                    f64::MAX
                } else {
                    ch.reward / f64::from(ch.visits)
                        + cfg.exploration
                            * (f64::from(ch.avail.max(1)).ln() / f64::from(ch.visits)).sqrt()
                };
                if v > best.0 {
                    best = (v, c);
                }
            }
            let c = best.1;
            let Some(m) = nodes[c as usize].moved.clone() else {
                break;
            };
            if G::play(&mut st, seat, &m).is_err() {
                break;
            }
            node = c;
            path.push(c);
            depth += 1;
        }
        // Playout and backup.
        let (outcome, plies) = playout::<G>(st, cfg, &mut rng);
        let r = rewards(&outcome, players, &mut scale);
        stats.rollout_plies += u64::from(plies);
        for &p in &path {
            let n = &mut nodes[p as usize];
            n.visits += 1;
            n.reward += r.get(usize::from(n.mover.0)).copied().unwrap_or(0.0);
        }
        if forcing {
            forced.add(&outcome, players);
        } else if tally {
            all.add(&outcome, players);
            if let Some(&c) = path.get(1) {
                by_child.entry(c).or_default().add(&outcome, players);
            }
        }
        stats.iterations += 1;
    }
    stats.nodes = nodes.len();
    Searched {
        nodes,
        stats,
        all,
        by_child,
        forced,
    }
}

/// Plays `st` to the end with the rollout policy: the outcome and the plies played.
fn playout<G: Game>(
    mut st: G::State,
    cfg: &SearchConfig,
    rng: &mut dyn ChanceRng,
) -> (rules_core::Outcome, u32) {
    let mut list = G::MoveList::default();
    let mut plies = 0u32;
    while plies < cfg.max_rollout_plies {
        match G::to_act(&st) {
            ToAct::Over => break,
            ToAct::Chance => {
                let Some(c) = G::sample_chance(&st, rng) else {
                    break;
                };
                if G::resolve(&mut st, &c).is_err() {
                    break;
                }
            }
            ToAct::Seat(seat) => {
                G::legal_moves(&st, &mut list);
                let moves = list.as_slice();
                if moves.is_empty() {
                    break;
                }
                let k = cfg.rollout.pick::<G>(&st, seat, moves, rng);
                if G::play(&mut st, seat, &moves[k]).is_err() {
                    break;
                }
            }
        }
        plies += 1;
    }
    let outcome =
        G::outcome(&st).unwrap_or_else(|| rules_core::Outcome::from_scores(G::scores(&st)));
    (outcome, plies)
}
