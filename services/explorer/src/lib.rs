//! The explorer of decisions: for a node of a game kind — a public position, or a line of
//! decisions from the start ([`By`]) — every move played from it in the stored finished
//! games, with how many games played it, the mover's wins (ties shared) with a Wilson
//! interval, mean final score and rank, and the last game that played it; filtered by date,
//! player, the movers' names (a rating band), rules version and bots or people.
//!
//! Kept incrementally: the store's finish hook (appends, imports, `rebuild`) files each seat
//! move of a finished game under its node's two keys; a correction retires the game's rows
//! and files its new revision. Derived data, on every backend: projections of the store hold
//! the truth (a game's facts and rows, the move texts), run files beside it the rows sorted by
//! key, so a node is a few binary searches and a pass over its rows, never a replay.
//!
//! # Layout
//! - [`key`]: the two keys of a node, and the walk that finds a game's decisions.
//! - [`facts`]: what is kept of each game (seats, results, end, rules version).
//! - [`filter`]: which games and moves a node counts.
//! - [`runs`]: the sorted run files.
//! - `node`: answering a node (one pass over its rows).
//! - this file: [`Explorer`] — attaching to a store, filing games, the kinds it holds.

pub mod facts;
pub mod filter;
pub mod key;
mod node;
pub mod runs;

pub use facts::Facts;
pub use filter::{Filter, FilterError, Movers};
pub use key::{decisions, line_at, By, Decision, Walk};

use rules_core::{GameKind, GameState};
use runs::{Row, Runs, RunsError, BOT};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use store::{Entry, GameId, GameLog, Header, StoreError};

/// The projection of each game's [`Facts`]: key kind (1) ‖ ordinal (4, big-endian).
pub const GAMES: &str = "explorer-games";
/// The projection of each game's rows, packed: same key.
pub const ROWS: &str = "explorer-rows";
/// The projection of the move texts: key kind (1) ‖ move id (4, big-endian).
pub const MOVES: &str = "explorer-moves";
/// The projection of how far each kind's runs go: key kind (1), value the first ordinal not
/// in a run (4, big-endian); the run files' manifest must agree.
pub const COVERED: &str = "explorer-covered";

/// How the explorer keeps its rows.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Rows kept in memory (20 bytes each) before they become a run file.
    pub flush_rows: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            flush_rows: 1 << 16,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ExplorerError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Runs(#[from] RunsError),
    #[error(transparent)]
    Filter(#[from] FilterError),
    #[error("game {game} does not replay at ply {ply}: {message}")]
    Replay {
        game: GameId,
        ply: u32,
        message: String,
    },
    #[error("the projection `{0}` holds an unreadable value")]
    BadProjection(&'static str),
}

/// A move played from a node, and how the games that played it went for its mover.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveStats {
    pub notation: String,
    pub games: u32,
    /// The mover's wins, a tie counting its share.
    pub wins: f64,
    pub win_rate: f64,
    /// The Wilson 95 % interval of the win rate.
    pub low: f64,
    pub high: f64,
    pub mean_score: f64,
    pub mean_rank: f64,
    /// The game that played it last (latest end), and the ply of the move in it.
    pub last_game: GameId,
    pub last_ply: u32,
    /// The seat that played it there.
    pub last_seat: u8,
    /// The latest games filed that played it (at most [`RECENT`]): game, ply of the move,
    /// seat — what an average over their reviews reads.
    pub recent: Vec<(GameId, u32, u8)>,
}

/// Games per move kept in [`MoveStats::recent`].
pub const RECENT: usize = 32;

/// A node: the games that reached it (and counted) and the moves played from it, most
/// played first.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Node {
    /// Whether any finished game of the player count reached the node, counted or not.
    pub stored: bool,
    pub games: u32,
    pub moves: Vec<MoveStats>,
}

/// A game's figures as a node reads them, packed beside the facts so that counting a node
/// follows no pointer: its rows come in ordinal order, and so do these.
#[derive(Debug, Clone, Copy, Default)]
struct Cols {
    ended: i64,
    players: u8,
    dead: bool,
    share: [f32; 4],
    score: [i32; 4],
    rank: [u8; 4],
}

impl Cols {
    fn of(f: &Facts) -> Cols {
        let mut c = Cols {
            ended: f.ended,
            players: f.seats.len() as u8,
            dead: f.dead,
            ..Cols::default()
        };
        for (i, s) in f.seats.iter().take(4).enumerate() {
            c.share[i] = s.share;
            c.score[i] = s.score;
            c.rank[i] = s.rank;
        }
        c
    }
}

/// What the explorer holds of one game kind.
#[derive(Default)]
struct Kind {
    runs: Option<Runs>,
    /// Rows of the games from `runs.covered()` on, not yet a run.
    delta: Vec<Row>,
    facts: Vec<Facts>,
    /// The facts' figures, packed (one per ordinal).
    cols: Vec<Cols>,
    /// The ordinal holding each game now.
    by_id: HashMap<GameId, u32>,
    moves: Vec<String>,
    move_ids: HashMap<String, u32>,
}

/// The explorer of every game kind, attached to a store.
pub struct Explorer {
    key: [u8; 16],
    config: Config,
    dir: PathBuf,
    kinds: RwLock<HashMap<GameKind, Kind>>,
    /// Held while a game is filed: it may be reported finished more than once, by more than
    /// one thread, and is filed once.
    filing: Mutex<()>,
}

fn kind_byte(kind: GameKind) -> u8 {
    GameKind::ALL.iter().position(|k| *k == kind).unwrap_or(0) as u8
}

fn pkey(kind: GameKind, n: u32) -> [u8; 5] {
    let mut k = [0; 5];
    k[0] = kind_byte(kind);
    k[1..].copy_from_slice(&n.to_be_bytes());
    k
}

fn ordinal_of(key: &[u8]) -> Option<u32> {
    Some(u32::from_be_bytes(key.get(1..5)?.try_into().ok()?))
}

impl Explorer {
    /// Loads what `store` keeps, files the finished games it lacks (a crash, an older folder)
    /// and registers for the games that finish from now on. `key` is the state-hash key.
    pub fn attach(store: &dyn GameLog, key: [u8; 16]) -> Result<Arc<Explorer>, ExplorerError> {
        Self::attach_with(store, key, Config::default())
    }

    /// [`Explorer::attach`] with `config`.
    pub fn attach_with(
        store: &dyn GameLog,
        key: [u8; 16],
        config: Config,
    ) -> Result<Arc<Explorer>, ExplorerError> {
        let ex = Arc::new(Self::open(store, key, config)?);
        let hook = Arc::downgrade(&ex);
        store.on_finish(Arc::new(
            move |store: &dyn GameLog,
                  header: &Header,
                  state: &dyn GameState,
                  entries: Option<&[Entry]>| {
                if let Some(ex) = hook.upgrade() {
                    match ex.file(store, header, state, entries) {
                        // The store away (an election): filed when the game is offered again.
                        Err(ExplorerError::Store(e @ StoreError::Unavailable(_))) => return Err(e),
                        Err(e) => {
                            tracing::warn!(game = %header.id, error = %e, "explorer: game not filed")
                        }
                        Ok(_) => {}
                    }
                }
                Ok(())
            },
        ));
        Ok(ex)
    }

    /// Loads what `store` keeps and files the finished games it lacks (a crash, an older
    /// folder), registering for nothing: for an owner that calls [`Explorer::file`] from its
    /// own finish hook (`analysis::Analysis`).
    pub fn open(
        store: &dyn GameLog,
        key: [u8; 16],
        config: Config,
    ) -> Result<Explorer, ExplorerError> {
        let ex = Explorer {
            key,
            config,
            dir: store.dir().join("explorer"),
            kinds: RwLock::default(),
            filing: Mutex::default(),
        };
        ex.load(store)?;
        ex.catch_up(store)?;
        Ok(ex)
    }

    /// The state-hash key the nodes are keyed with.
    pub fn key(&self) -> [u8; 16] {
        self.key
    }

    /// Loads what is kept; anything damaged or out of step (an unreadable value, a run file
    /// missing or cut short, runs ahead of the facts) makes it start again empty: derived data,
    /// filed again from the store's finished games by [`Explorer::catch_up`].
    fn load(&self, store: &dyn GameLog) -> Result<(), ExplorerError> {
        match self.try_load(store) {
            Ok(()) => Ok(()),
            Err(ExplorerError::Store(e)) => Err(ExplorerError::Store(e)),
            Err(e) => {
                tracing::warn!(error = %e, "explorer: kept data unusable; filing every game again");
                let _ = std::fs::remove_dir_all(&self.dir);
                for p in [GAMES, ROWS, MOVES, COVERED] {
                    store.projection_clear(p)?;
                }
                let mut kinds = self.kinds.write().unwrap_or_else(|e| e.into_inner());
                kinds.clear();
                for kind in GameKind::ALL {
                    kinds.entry(kind).or_default().runs =
                        Some(Runs::open(&self.dir.join(kind.as_str()))?);
                }
                Ok(())
            }
        }
    }

    fn try_load(&self, store: &dyn GameLog) -> Result<(), ExplorerError> {
        let mut kinds = self.kinds.write().unwrap_or_else(|e| e.into_inner());
        for kv in store.projection_iter(GAMES)? {
            let (k, v) = kv?;
            let kind = kind_of(&k).ok_or(ExplorerError::BadProjection(GAMES))?;
            let f: Facts =
                postcard::from_bytes(&v).map_err(|_| ExplorerError::BadProjection(GAMES))?;
            let slot = kinds.entry(kind).or_default();
            let n = ordinal_of(&k).ok_or(ExplorerError::BadProjection(GAMES))?;
            if n as usize != slot.facts.len() {
                return Err(ExplorerError::BadProjection(GAMES));
            }
            if !f.dead {
                slot.by_id.insert(f.id, n);
            }
            slot.cols.push(Cols::of(&f));
            slot.facts.push(f);
        }
        for kv in store.projection_iter(MOVES)? {
            let (k, v) = kv?;
            let kind = kind_of(&k).ok_or(ExplorerError::BadProjection(MOVES))?;
            let text = String::from_utf8(v).map_err(|_| ExplorerError::BadProjection(MOVES))?;
            let slot = kinds.entry(kind).or_default();
            slot.move_ids.insert(text.clone(), slot.moves.len() as u32);
            slot.moves.push(text);
        }
        for kind in GameKind::ALL {
            let slot = kinds.entry(kind).or_default();
            let runs = Runs::open(&self.dir.join(kind.as_str()))?;
            let covered = store
                .projection_range(COVERED, &[kind_byte(kind)])?
                .next()
                .transpose()?
                .filter(|(k, _)| k.as_slice() == [kind_byte(kind)])
                .and_then(|(_, v)| Some(u32::from_be_bytes(v.get(..4)?.try_into().ok()?)))
                .unwrap_or(0);
            if runs.covered() != covered || covered as usize > slot.facts.len() {
                return Err(ExplorerError::Runs(runs::RunsError::Mismatch(
                    self.dir.clone(),
                )));
            }
            // The rows of the games after the runs wait in the projection (those in a run
            // were dropped from it when the run was written).
            let mut rows = Vec::new();
            for kv in store.projection_range(ROWS, &pkey(kind, runs.covered()))? {
                let (k, v) = kv?;
                if kind_of(&k) != Some(kind) {
                    break;
                }
                rows.extend(runs::unpack(&v));
            }
            slot.delta = rows;
            slot.runs = Some(runs);
        }
        Ok(())
    }

    fn catch_up(&self, store: &dyn GameLog) -> Result<(), ExplorerError> {
        let filed = |h: &Header| {
            let kinds = self.kinds.read().unwrap_or_else(|e| e.into_inner());
            kinds
                .get(&h.kind)
                .and_then(|k| k.by_id.get(&h.id).map(|&n| k.facts[n as usize].revision))
                == Some(h.revision)
        };
        for h in store::finished_games(store, None)? {
            if filed(&h) {
                continue;
            }
            let state = store.state_at(h.id, h.plies)?;
            if let Err(e) = self.file(store, &h, state.as_ref(), None) {
                tracing::warn!(game = %h.id, error = %e, "explorer: game not filed");
            }
        }
        Ok(())
    }

    /// Files a finished game (or its new revision); a game filed already is left as it is.
    /// `entries` is its whole log when the caller has it.
    pub fn file(
        &self,
        store: &dyn GameLog,
        header: &Header,
        state: &dyn GameState,
        entries: Option<&[Entry]>,
    ) -> Result<(), ExplorerError> {
        let Some(facts) = Facts::of(header, state) else {
            return Ok(());
        };
        let _one = self.filing.lock().unwrap_or_else(|e| e.into_inner());
        let old = {
            let kinds = self.kinds.read().unwrap_or_else(|e| e.into_inner());
            let k = kinds.get(&header.kind);
            match k.and_then(|k| {
                k.by_id
                    .get(&header.id)
                    .map(|&n| (n, k.facts[n as usize].revision))
            }) {
                Some((_, r)) if r >= header.revision => return Ok(()),
                other => other.map(|(n, _)| n),
            }
        };
        let read;
        let entries = match entries {
            Some(e) => e,
            None => {
                read = store.entries(header.id, 0, header.plies)?;
                &read
            }
        };
        let decisions = key::decisions(
            store
                .registry()
                .get(header.kind)
                .ok_or(ExplorerError::Replay {
                    game: header.id,
                    ply: 0,
                    message: format!("no rules for {}", header.kind),
                })?,
            header,
            entries,
            self.key,
        )?;

        let mut kinds = self.kinds.write().unwrap_or_else(|e| e.into_inner());
        let k = kinds.entry(header.kind).or_default();
        let ordinal = k.facts.len() as u32;
        let mut rows = Vec::with_capacity(decisions.len() * 2);
        for d in &decisions {
            let Ok(ply) = u16::try_from(d.ply) else { break };
            let mv = match k.move_ids.get(&d.notation) {
                Some(&id) => id,
                None => {
                    let id = k.moves.len() as u32;
                    store.projection_put(MOVES, &pkey(header.kind, id), d.notation.as_bytes())?;
                    k.moves.push(d.notation.clone());
                    k.move_ids.insert(d.notation.clone(), id);
                    id
                }
            };
            let flags = if d.bot { BOT } else { 0 };
            for (by, key) in [(By::Line, d.line), (By::Position, d.position)] {
                rows.push(Row {
                    key,
                    game: ordinal,
                    ply,
                    mv,
                    seat: d.seat.0,
                    flags: flags | by.flag(),
                });
            }
        }
        store.projection_put(ROWS, &pkey(header.kind, ordinal), &runs::pack(&rows))?;
        let bytes =
            postcard::to_allocvec(&facts).map_err(|_| ExplorerError::BadProjection(GAMES))?;
        store.projection_put(GAMES, &pkey(header.kind, ordinal), &bytes)?;
        if let Some(n) = old {
            // The earlier revision's rows stay in their run, skipped as dead; its projection
            // rows go, so a run rebuilt from the store no longer holds them.
            let f = &mut k.facts[n as usize];
            f.dead = true;
            k.cols[n as usize].dead = true;
            let bytes =
                postcard::to_allocvec(&*f).map_err(|_| ExplorerError::BadProjection(GAMES))?;
            store.projection_put(GAMES, &pkey(header.kind, n), &bytes)?;
            store.projection_put(ROWS, &pkey(header.kind, n), &[])?;
        }
        k.cols.push(Cols::of(&facts));
        k.facts.push(facts);
        k.by_id.insert(header.id, ordinal);
        k.delta.extend(rows);
        if k.delta.len() >= self.config.flush_rows {
            let rows = std::mem::take(&mut k.delta);
            if let Some(runs) = k.runs.as_mut() {
                let from = runs.covered();
                runs.add(rows, ordinal + 1)?;
                store.projection_put(
                    COVERED,
                    &[kind_byte(header.kind)],
                    &(ordinal + 1).to_be_bytes(),
                )?;
                // In a run now (written and synced before its manifest): the projection's copy
                // goes, so the rows are kept once. A run lost later is filed again from the
                // games (`load`).
                for n in from..=ordinal {
                    store.projection_put(ROWS, &pkey(header.kind, n), &[])?;
                }
            }
        }
        Ok(())
    }

    /// Forgets everything, for a rebuild (the store then files every finished game again).
    pub fn clear(&self, store: &dyn GameLog) -> Result<(), ExplorerError> {
        let _one = self.filing.lock().unwrap_or_else(|e| e.into_inner());
        let mut kinds = self.kinds.write().unwrap_or_else(|e| e.into_inner());
        for k in kinds.values_mut() {
            if let Some(r) = k.runs.as_mut() {
                r.clear()?;
            }
            let runs = k.runs.take();
            *k = Kind {
                runs,
                ..Kind::default()
            };
        }
        for p in [GAMES, ROWS, MOVES, COVERED] {
            store.projection_clear(p)?;
        }
        Ok(())
    }

    /// Games filed (live, not replaced by a correction) and rows held, per kind.
    pub fn sizes(&self) -> Vec<(GameKind, usize, usize, u64)> {
        let kinds = self.kinds.read().unwrap_or_else(|e| e.into_inner());
        GameKind::ALL
            .iter()
            .filter_map(|kind| {
                let k = kinds.get(kind)?;
                let (rows, bytes) = k.runs.as_ref().map_or((0, 0), |r| r.size());
                Some((*kind, k.by_id.len(), rows + k.delta.len(), bytes))
            })
            .collect()
    }
}

fn kind_of(key: &[u8]) -> Option<GameKind> {
    GameKind::ALL.get(usize::from(*key.first()?)).copied()
}
