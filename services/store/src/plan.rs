//! What a creation or an append writes, decided by the game's rules alone: the request's
//! limits, the canonical notation, the move checked against the state, the dealer's entries
//! that follow it, the snapshots due and the new header. Every backend writes exactly what
//! this decides (and only that), so the same request gives the same log on any of them.

use crate::error::{Result, StoreError};
use crate::id::GameId;
use crate::record::{Entry, Header, Status};
use crate::store::{check_name, Append, Config, NewGame, MAX_KEY, MAX_NOTATION};
use chrono::{DateTime, Utc};
use rules_core::{Actor, EntryError, GameKind, GameRules, GameState, Ply, Registry, ToAct};

/// Snapshots due: (ply, the encoded state after that many entries).
pub type Snapshots = Vec<(u32, Vec<u8>)>;

/// What to write for a creation or an append, and the state after it.
pub struct Planned {
    pub header: Header,
    pub entries: Vec<Entry>,
    pub snaps: Snapshots,
    pub state: Box<dyn GameState>,
}

/// The rules of `kind`, or `UnknownKind`.
pub fn rules(registry: &Registry, kind: GameKind) -> Result<&dyn GameRules> {
    registry
        .get(kind)
        .ok_or_else(|| StoreError::UnknownKind(kind.to_string()))
}

/// A stored game as it began, under the rules version and component data it was recorded
/// with; options no longer valid are `Corrupt`.
pub fn recorded_start(registry: &Registry, header: &Header) -> Result<Box<dyn GameState>> {
    rules(registry, header.kind)?
        .new_game_recorded(
            &header.options_json(),
            &header.rules_version,
            &header.data_hash,
        )
        .map_err(|e| StoreError::Corrupt {
            game: header.id,
            ply: None,
            what: format!("stored options no longer valid: {e}"),
        })
}

/// Applies a stored entry; one that no longer applies is `Corrupt`.
pub fn apply_stored(state: &mut dyn GameState, id: GameId, e: &Entry) -> Result<()> {
    state
        .apply(e.actor, &e.notation)
        .map_err(|err| StoreError::Corrupt {
            game: id,
            ply: Some(e.ply),
            what: format!("stored entry no longer applies: {err}"),
        })
}

/// A new game `id` from `g`: options and names checked, dealt from its seed.
pub fn create(registry: &Registry, config: &Config, id: GameId, g: NewGame) -> Result<Planned> {
    let rules = rules(registry, g.kind)?;
    let options = rules
        .normalize_options(&g.options)
        .map_err(|e| StoreError::BadInput(e.to_string()))?;
    let mut state = rules
        .new_game(&options)
        .map_err(|e| StoreError::BadInput(e.to_string()))?;
    for p in &g.players {
        check_name(p)?;
    }
    if g.players.len() != usize::from(state.player_count()) {
        return Err(StoreError::BadInput(format!(
            "{} player names for a {}-player game",
            g.players.len(),
            state.player_count()
        )));
    }
    let mut entries = Vec::new();
    let mut snaps = Vec::new();
    deal_chance(
        config,
        id,
        &mut state,
        g.seed,
        0,
        &mut entries,
        &mut snaps,
        g.at,
    )?;
    let header = Header {
        id,
        kind: g.kind,
        players: g.players,
        options: options.to_string(),
        seed: g.seed,
        rules_version: rules.rules_version().to_string(),
        data_hash: rules.data_hash(),
        created_at: g.at,
        updated_at: g.at,
        status: status_of(state.as_ref()),
        plies: entries.len() as u32,
        seat_token_hashes: g.seat_token_hashes,
        recorder_token_hash: g.recorder_token_hash,
        revision: 0,
    };
    Ok(Planned {
        header,
        entries,
        snaps,
        state,
    })
}

/// The limits every append request keeps, before anything is read.
pub fn check_request(req: &Append<'_>) -> Result<()> {
    if req.notation.len() > MAX_NOTATION {
        return Err(StoreError::BadInput(format!(
            "notation longer than {MAX_NOTATION} bytes"
        )));
    }
    if let Some(k) = req.key {
        if k.is_empty() || k.len() > MAX_KEY || k.chars().any(char::is_control) {
            return Err(StoreError::BadInput(format!(
                "an idempotency key is 1 to {MAX_KEY} bytes without control characters"
            )));
        }
    }
    Ok(())
}

/// The log's one spelling of the request's move, at the game's tip.
pub fn canonical(header: &Header, tip: &dyn GameState, req: &Append<'_>) -> Result<String> {
    tip.canonical(req.actor, req.notation)
        .map_err(|error| StoreError::Rejected {
            game: header.id,
            ply: header.plies + 1,
            error,
        })
}

/// The append of `notation` (canonical, from [`canonical`]) at the tip: the expected ply, who
/// may deal, the move applied, and the dealer's entries that follow it.
pub fn append(
    config: &Config,
    header: &Header,
    tip: &dyn GameState,
    req: &Append<'_>,
    notation: String,
) -> Result<Planned> {
    let id = header.id;
    let ply = header.plies;
    if req.expected_ply != ply {
        return Err(StoreError::VersionConflict {
            game: id,
            expected: req.expected_ply,
            current: ply,
        });
    }
    if req.actor == Actor::Dealer && header.seed.is_some() {
        return Err(StoreError::Rejected {
            game: id,
            ply: ply + 1,
            error: EntryError::Rule {
                rule: "store.dealt-by-store",
                message: "this game is dealt by the store from its seed; clients do not deal"
                    .into(),
            },
        });
    }
    let mut state = tip.clone_box();
    state
        .apply(req.actor, &notation)
        .map_err(|error| StoreError::Rejected {
            game: id,
            ply: ply + 1,
            error,
        })?;
    let mut entries = vec![Entry {
        ply,
        actor: req.actor,
        notation,
        recorded_at: req.at,
        key: req.key.map(str::to_string),
        entered_by: req.entered_by,
    }];
    let mut snaps = Vec::new();
    if (ply + 1).is_multiple_of(config.snapshot_every) {
        snaps.push((ply + 1, state.encode()));
    }
    deal_chance(
        config,
        id,
        &mut state,
        header.seed,
        ply + 1,
        &mut entries,
        &mut snaps,
        req.at,
    )?;
    let mut header = header.clone();
    header.plies = ply + entries.len() as u32;
    header.updated_at = req.at;
    header.status = status_of(state.as_ref());
    Ok(Planned {
        header,
        entries,
        snaps,
        state,
    })
}

pub fn status_of(state: &dyn GameState) -> Status {
    if state.to_act() == ToAct::Over {
        Status::Finished
    } else {
        Status::Active
    }
}

/// While the game waits on chance and the store deals it, deal: each outcome becomes a
/// dealer entry after the last of `entries` (or at ply `next` when there is none). Snapshots
/// due go to `snaps`.
#[allow(clippy::too_many_arguments)]
pub fn deal_chance(
    config: &Config,
    id: GameId,
    state: &mut Box<dyn GameState>,
    seed: Option<u64>,
    next: u32,
    entries: &mut Vec<Entry>,
    snaps: &mut Snapshots,
    at: DateTime<Utc>,
) -> Result<()> {
    let Some(seed) = seed else { return Ok(()) };
    let mut ply = entries.last().map_or(next, |e| e.ply + 1);
    while state.to_act() == ToAct::Chance {
        let notation = state
            .deal(seed, Ply(ply))
            .ok_or_else(|| StoreError::Rejected {
                game: id,
                ply: ply + 1,
                error: EntryError::Rule {
                    rule: "chance.undealable",
                    message: "the dealer cannot deal this".into(),
                },
            })?;
        state
            .apply(Actor::Dealer, &notation)
            .map_err(|error| StoreError::Rejected {
                game: id,
                ply: ply + 1,
                error,
            })?;
        entries.push(Entry {
            ply,
            actor: Actor::Dealer,
            notation,
            recorded_at: at,
            key: None,
            entered_by: None,
        });
        ply += 1;
        if ply.is_multiple_of(config.snapshot_every) {
            snaps.push((ply, state.encode()));
        }
    }
    Ok(())
}
