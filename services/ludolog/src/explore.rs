//! `ludolog explorer`: a node of the explorer of decisions read from a data folder, printed
//! as one JSON object — the moves finished games played from it and how they went.

use crate::storecmd;
use anyhow::{bail, Context, Result};
use chrono::{DateTime, Utc};
use explorer::{By, Filter, Movers};
use rules_core::GameKind;

#[derive(clap::Args)]
pub struct ExplorerArgs {
    /// A game: its position after `--ply` entries (default: the start) is the node.
    #[arg(long, conflicts_with_all = ["kind", "hash"])]
    pub game: Option<String>,
    /// The position after this many entries of `--game` (default 0, the start).
    #[arg(long, requires = "game")]
    pub ply: Option<u32>,
    /// Or a node by its hash (`ExplorerNode.hash`), with the kind and the player count.
    #[arg(long, value_parser = crate::cli::kind_parser(), requires_all = ["players", "hash"])]
    pub kind: Option<GameKind>,
    /// With `--kind`: the node's player count.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=8))]
    pub players: Option<u8>,
    /// With `--kind`: the node's hash, 16 hex digits.
    #[arg(long)]
    pub hash: Option<String>,
    /// Find the node by the line of decisions (games of any setup that opened alike) or by
    /// the public position (transpositions, within one setup).
    #[arg(long, value_enum, default_value = "line")]
    pub by: ByArg,
    /// Only games where this player held a seat.
    #[arg(long)]
    pub player: Option<String>,
    /// Only games that ended at or after this time (RFC 3339).
    #[arg(long)]
    pub since: Option<DateTime<Utc>>,
    /// Only games that ended before this time (RFC 3339).
    #[arg(long)]
    pub until: Option<DateTime<Utc>>,
    /// Only games played under this rules version.
    #[arg(long)]
    pub rules_version: Option<String>,
    /// Whose moves count.
    #[arg(long, value_enum, default_value = "any")]
    pub movers: MoversArg,
    /// Most moves printed.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub first: u32,
    #[command(flatten)]
    pub data: crate::cli::DataDir,
}

#[derive(clap::ValueEnum, Clone, Copy)]
pub enum ByArg {
    Line,
    Position,
}

#[derive(clap::ValueEnum, Clone, Copy)]
pub enum MoversArg {
    Any,
    Bots,
    People,
}

pub fn run(a: ExplorerArgs) -> Result<()> {
    storecmd::existing(&a.data.data_dir)?;
    let (store, analysis) = storecmd::open_analysed(&a.data.data_dir)?;
    let ex = analysis.explorer();
    let by = match a.by {
        ByArg::Line => By::Line,
        ByArg::Position => By::Position,
    };
    let (kind, players, key) = match (&a.game, a.kind, a.players, &a.hash) {
        (Some(id), _, _, _) => {
            let id: store::GameId = id
                .parse()
                .with_context(|| format!("`{id}` is not a game id"))?;
            let h = store::GameLog::header(&store, id)?;
            let ply = a.ply.unwrap_or(0);
            if ply > h.plies {
                bail!(
                    "game {id} has {} entries; --ply {ply} is past its end",
                    h.plies
                );
            }
            let state = store::GameLog::state_at(&store, id, ply)?;
            let key = match by {
                By::Position => state.public_hash(ex.key()),
                By::Line => {
                    let entries = store::GameLog::entries(&store, id, 0, ply)?;
                    let rules = store::GameLog::registry(&store)
                        .get(h.kind)
                        .with_context(|| format!("no rules for {}", h.kind))?;
                    explorer::line_at(rules, &h, &entries, ex.key())?
                }
            };
            (h.kind, state.player_count(), key)
        }
        (None, Some(kind), Some(players), Some(hash)) => {
            if hash.len() != 16 {
                bail!("a node hash is 16 hex digits, as ExplorerNode.hash gives it");
            }
            let key = u64::from_str_radix(hash, 16)
                .with_context(|| format!("`{hash}` is not 16 hex digits"))?;
            (kind, players, key)
        }
        _ => bail!("give a node: --game ID [--ply N], or --kind K --players N --hash H"),
    };
    let filter = Filter {
        since: a.since,
        until: a.until,
        player: a.player,
        movers_named: None,
        rules_version: a.rules_version,
        movers: match a.movers {
            MoversArg::Any => Movers::Any,
            MoversArg::Bots => Movers::Bots,
            MoversArg::People => Movers::People,
        },
    };
    let node = ex.node(kind, players, by, key, &filter)?;
    let moves: Vec<serde_json::Value> = node
        .moves
        .iter()
        .take(a.first as usize)
        .map(|m| {
            serde_json::json!({
                "notation": m.notation, "games": m.games, "wins": m.wins,
                "win_rate": m.win_rate, "low": m.low, "high": m.high,
                "mean_score": m.mean_score, "mean_rank": m.mean_rank,
                "last_game": m.last_game.to_string(), "last_ply": m.last_ply,
            })
        })
        .collect();
    let out = serde_json::json!({
        "kind": kind.as_str(),
        "players": players,
        "by": match by { By::Line => "line", By::Position => "position" },
        "hash": format!("{key:016x}"),
        "reached": node.stored,
        "games": node.games,
        "moves": moves,
    });
    println!("{out}");
    Ok(())
}

/// `ludolog bench explorer`: explorer queries at nodes of random decisions of the stored
/// finished games (by line and by position in turn), timed one by one after their keys are
/// found; the largest nodes (each kind's first decision by line) apart; and the explorer's size.
/// With `dump`, what a reference run needs to answer the same queries (see the CLI's help).
pub fn bench(
    data_dir: &std::path::Path,
    queries: usize,
    seed: u64,
    dump: Option<&std::path::Path>,
) -> Result<serde_json::Value> {
    let (store, analysis) = storecmd::open_analysed(data_dir)?;
    let ex = analysis.explorer();
    let games = store::finished_games(&store, None)?;
    if games.is_empty() {
        bail!("no finished games in {}", data_dir.display());
    }
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut picks = Vec::with_capacity(queries);
    let mut roots = std::collections::BTreeMap::new();
    let mut entries_total = 0u64;
    for h in &games {
        entries_total += u64::from(h.plies);
    }
    while picks.len() < queries {
        let h = &games[(next() % games.len() as u64) as usize];
        let entries = store::GameLog::entries(&store, h.id, 0, h.plies)?;
        let rules = store::GameLog::registry(&store)
            .get(h.kind)
            .with_context(|| format!("no rules for {}", h.kind))?;
        let d = explorer::decisions(rules, h, &entries, ex.key())?;
        let players = h.players.len() as u8;
        if let Some(first) = d.first() {
            roots.entry((h.kind, players)).or_insert(first.line);
        }
        if d.is_empty() {
            continue;
        }
        let one = &d[(next() % d.len() as u64) as usize];
        let (by, key) = if picks.len() % 2 == 0 {
            (By::Line, one.line)
        } else {
            (By::Position, one.position)
        };
        picks.push((h.kind, players, by, key));
    }
    let time = |kind, players, by, key, filter: &Filter| -> Result<(f64, u32)> {
        let t = std::time::Instant::now();
        let n = ex.node(kind, players, by, key, filter)?;
        Ok((t.elapsed().as_secs_f64() * 1e3, n.games))
    };
    let none = Filter::default();
    let mut ms = Vec::with_capacity(picks.len());
    for &(kind, players, by, key) in &picks {
        ms.push(time(kind, players, by, key, &none)?.0);
    }
    ms.sort_by(f64::total_cmp);
    let pct = |v: &[f64], p: f64| v[((v.len() as f64 - 1.0) * p).round() as usize];
    let mut root_ms = Vec::new();
    let mut root_games = 0;
    for (&(kind, players), &key) in &roots {
        for _ in 0..20 {
            let (t, g) = time(kind, players, By::Line, key, &none)?;
            root_ms.push(t);
            root_games = root_games.max(g);
        }
    }
    root_ms.sort_by(f64::total_cmp);
    if let Some(dir) = dump {
        write_dump(ex, dir, &picks, &roots)?;
    }
    let (rows, bytes) = ex
        .sizes()
        .iter()
        .fold((0, 0), |(r, b), (_, _, rows, bytes)| (r + rows, b + bytes));
    Ok(serde_json::json!({
        "games": games.len(),
        "entries": entries_total,
        "queries": ms.len(),
        "p50_ms": pct(&ms, 0.5),
        "p99_ms": pct(&ms, 0.99),
        "max_ms": pct(&ms, 1.0),
        "largest_nodes_games": root_games,
        "largest_nodes_p50_ms": pct(&root_ms, 0.5),
        "largest_nodes_p99_ms": pct(&root_ms, 0.99),
        "rows": rows,
        "run_bytes": bytes,
        "run_bytes_per_entry": bytes as f64 / entries_total.max(1) as f64,
    }))
}

/// The rows, figures and queries of a reference run (`bench explorer --dump`): per query its
/// kind, player count, key (0 by line, 1 by position), whether it is a largest node, and the
/// games our node counted, so the reference's answer can be checked against it.
fn write_dump(
    ex: &explorer::Explorer,
    dir: &std::path::Path,
    picks: &[(rules_core::GameKind, u8, By, u64)],
    roots: &std::collections::BTreeMap<(rules_core::GameKind, u8), u64>,
) -> Result<()> {
    use std::io::Write;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let create = |name: String| -> Result<std::io::BufWriter<std::fs::File>> {
        let path = dir.join(name);
        let f =
            std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?;
        Ok(std::io::BufWriter::new(f))
    };
    for kind in rules_core::GameKind::ALL {
        let (mut rows, mut seats) = (
            create(format!("{kind}.rows"))?,
            create(format!("{kind}.seats.csv"))?,
        );
        ex.dump(kind, &mut rows, &mut seats)?;
        rows.flush()?;
        seats.flush()?;
    }
    let mut q = create("queries.csv".into())?;
    writeln!(q, "kind,players,position,key,largest,games")?;
    let none = Filter::default();
    let all = picks
        .iter()
        .map(|&(k, p, by, key)| (k, p, by, key, 0))
        .chain(roots.iter().map(|(&(k, p), &key)| (k, p, By::Line, key, 1)));
    for (kind, players, by, key, largest) in all {
        let games = ex.node(kind, players, by, key, &none)?.games;
        let position = u8::from(by == By::Position);
        writeln!(q, "{kind},{players},{position},{key},{largest},{games}")?;
    }
    q.flush()?;
    Ok(())
}
