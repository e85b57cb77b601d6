//! Answering a node: a pass over its rows (each run's, then those waiting), counting each
//! game once per move, with the filter read from the packed figures where it can be.

use crate::runs::{self, Row, BOT};
use crate::{By, Explorer, ExplorerError, Filter, MoveStats, Node, RECENT};
use rules_core::GameKind;

impl Explorer {
    /// The node `key` of `kind` with `players` seats, found `by` line or position, counting
    /// what `filter` lets through.
    pub fn node(
        &self,
        kind: GameKind,
        players: u8,
        by: By,
        key: u64,
        filter: &Filter,
    ) -> Result<Node, ExplorerError> {
        filter.check()?;
        let kinds = self.kinds.read().unwrap_or_else(|e| e.into_inner());
        let Some(k) = kinds.get(&kind) else {
            return Ok(Node::default());
        };
        let flag = by.flag();
        let mut acc: rustc_hash::FxHashMap<u32, Acc> = Default::default();
        let mut seen = vec![0u64; k.cols.len().div_ceil(64)];
        let mut games = 0u32;
        let mut stored = false;
        // Filters on names and versions read the facts; the rest reads only the packed figures.
        let plain = filter.player.is_none()
            && filter.rules_version.is_none()
            && filter.movers_named.is_none();
        let mut count = |r: Row| {
            if r.flags & runs::BY_POSITION != flag {
                return;
            }
            let g = r.game as usize;
            let Some(c) = k.cols.get(g) else {
                return;
            };
            if c.players != players {
                return;
            }
            stored = true;
            let bot = r.flags & BOT != 0;
            let counted = !c.dead
                && if plain {
                    filter.timed(c.ended) && filter.by(bot)
                } else {
                    k.facts
                        .get(g)
                        .is_some_and(|f| filter.game(f) && filter.mover(f, r.seat, bot))
                };
            let seat = usize::from(r.seat);
            if !counted || seat >= 4 {
                return;
            }
            let bit = &mut seen[g / 64];
            let first = *bit & (1 << (g % 64)) == 0;
            *bit |= 1 << (g % 64);
            if first {
                games += 1;
            }
            let a = acc.entry(r.mv).or_default();
            if a.last_game_counted == Some(r.game) {
                return; // the same game at the node again, playing the same move
            }
            a.last_game_counted = Some(r.game);
            // Rows come oldest run first and in ordinal order within each, then the newest:
            // the last ones kept are the latest filed.
            if a.recent.len() == RECENT {
                a.recent.pop_front();
            }
            a.recent.push_back((r.game, r.ply, r.seat));
            a.games += 1;
            a.wins += f64::from(c.share[seat]);
            a.score += f64::from(c.score[seat]);
            a.rank += f64::from(c.rank[seat]);
            if a.last.is_none_or(|(e, _, _, _)| c.ended >= e) {
                a.last = Some((c.ended, r.game, r.ply, r.seat));
            }
        };
        if let Some(runs) = &k.runs {
            for slice in runs.find(key) {
                runs::unpack(slice).for_each(&mut count);
            }
        }
        let mut pending: Vec<Row> = k.delta.iter().filter(|r| r.key == key).copied().collect();
        pending.sort_unstable();
        pending.into_iter().for_each(&mut count);
        let mut moves: Vec<MoveStats> = acc
            .into_iter()
            .filter_map(|(mv, a)| {
                let (_, game, ply, seat) = a.last?;
                let (low, high) = rules_core::outcome::wilson(a.wins, u64::from(a.games));
                let n = f64::from(a.games);
                let rate = a.wins / n;
                // The interval's ends are computed apart: at a rate of 0 or 1 rounding can
                // leave it a hair inside; it always holds the rate.
                let (low, high) = (low.min(rate), high.max(rate));
                Some(MoveStats {
                    notation: k.moves.get(mv as usize)?.clone(),
                    games: a.games,
                    wins: a.wins,
                    win_rate: rate,
                    low,
                    high,
                    mean_score: a.score / n,
                    mean_rank: a.rank / n,
                    last_game: k.facts.get(game as usize)?.id,
                    last_ply: u32::from(ply),
                    last_seat: seat,
                    recent: a
                        .recent
                        .iter()
                        .rev()
                        .filter_map(|&(g, ply, seat)| {
                            Some((k.facts.get(g as usize)?.id, u32::from(ply), seat))
                        })
                        .collect(),
                })
            })
            .collect();
        moves.sort_by(|a, b| {
            b.games
                .cmp(&a.games)
                .then_with(|| a.notation.cmp(&b.notation))
        });
        Ok(Node {
            stored,
            games,
            moves,
        })
    }
}

#[derive(Default)]
struct Acc {
    games: u32,
    wins: f64,
    score: f64,
    rank: f64,
    /// (end, ordinal, ply, seat) of the latest game to play the move.
    last: Option<(i64, u32, u16, u8)>,
    last_game_counted: Option<u32>,
    /// (ordinal, ply, seat) of the latest games to play it, oldest first.
    recent: std::collections::VecDeque<(u32, u16, u8)>,
}

impl Explorer {
    /// Everything a node of `kind` is counted from, for a reference run beside [`node`]
    /// (`ludolog bench explorer --dump`): each row (runs oldest first, then those waiting),
    /// as the run files hold it, to `rows`; and each game's figures, one CSV line a seat
    /// (`game,seat,players,dead,share,score,rank`; `game` is the rows' ordinal), to `seats`.
    ///
    /// [`node`]: Explorer::node
    pub fn dump(
        &self,
        kind: GameKind,
        rows: &mut dyn std::io::Write,
        seats: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let kinds = self.kinds.read().unwrap_or_else(|e| e.into_inner());
        let Some(k) = kinds.get(&kind) else {
            return Ok(());
        };
        if let Some(runs) = &k.runs {
            for bytes in runs.all() {
                rows.write_all(bytes)?;
            }
        }
        let mut b = Vec::with_capacity(runs::ROW);
        for r in &k.delta {
            b.clear();
            r.write(&mut b);
            rows.write_all(&b)?;
        }
        writeln!(seats, "game,seat,players,dead,share,score,rank")?;
        for (g, c) in k.cols.iter().enumerate() {
            for s in 0..usize::from(c.players).min(4) {
                writeln!(
                    seats,
                    "{g},{s},{},{},{},{},{}",
                    c.players, c.dead, c.share[s], c.score[s], c.rank[s]
                )?;
            }
        }
        Ok(())
    }
}
