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
    #[arg(long, requires = "game")]
    pub ply: Option<u32>,
    /// Or a node by its hash (`ExplorerNode.hash`), with the kind and the player count.
    #[arg(long, value_parser = crate::cli::kind_parser(), requires_all = ["players", "hash"])]
    pub kind: Option<GameKind>,
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=8))]
    pub players: Option<u8>,
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
