//! Corrections of finished games: an admin fixes a mistyped record as a new **revision**,
//! with who, when and why, and every earlier revision stays readable and replayable.
//!
//! A correction replaces entries one for one (same plies, same actors, same times): the
//! record said `bid 3` where the table played `bid 5`. Revision 0 is the game as recorded;
//! each correction is a journal note ([`NoteBody::Corrected`]) holding, for every entry it
//! changed, the text it had and the text it has now, so any revision's log is the current
//! one with the later changes undone ([`log_at`]). The line (`entries`) always holds the
//! latest revision, which is what statistics, the position index and every unpinned read
//! follow.
//!
//! What a correction must satisfy is decided here, purely and for every backend
//! ([`plan_correction`]): the game is finished, the reason says why, each changed entry is a
//! real entry and really changes, no changed entry lies before a point a takeback went back to
//! (the withdrawn entries were played on the line before it, and are shown replayed there),
//! and the corrected log replays under the game's own rules and component data to a finished
//! game at exactly its recorded length. A game dealt by the
//! store's seed keeps its dealer's entries: those are the seed's, not anybody's typing (a
//! game dealt at a real table has its chance entries typed in, and may have them corrected).

use crate::error::{Result, StoreError};
use crate::journal::{check_comment, Author, Note, NoteBody};
use crate::record::{Entry, Header, Status};
use chrono::{DateTime, Utc};
use rules_core::{Actor, GameState, Registry, ToAct};
use serde::{Deserialize, Serialize};

/// Most entries one correction may change.
pub const MAX_CHANGES: usize = 64;
/// Most corrections one game takes: a record is mistyped a few times, not dozens, and every
/// revision stays readable as a whole game (`Game.revisions { game }` replays each), so the
/// count bounds what one read of a game's revisions costs.
pub const MAX_REVISIONS: u32 = 20;

/// One entry a correction changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// The entry's ply (from 0: entry `ply` turns position `ply` into `ply + 1`).
    pub ply: u32,
    pub actor: Actor,
    /// Its text before the correction.
    pub was: String,
    /// Its text after.
    pub now: String,
}

/// A correction asked: entries by ply (from 0) and their new text, and why.
#[derive(Debug, Clone)]
pub struct Correction {
    pub game: crate::GameId,
    pub by: Author,
    pub at: DateTime<Utc>,
    pub changes: Vec<(u32, String)>,
    pub reason: String,
}

/// A revision as readers get it. Revision 0 is the game as recorded (no author, no reason).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    pub number: u32,
    /// The journal note that made it (`None` for revision 0).
    pub seq: Option<u32>,
    pub by: Option<Author>,
    pub at: Option<DateTime<Utc>>,
    pub reason: String,
    pub changes: Vec<Change>,
}

/// Every revision of a game, from 0 (as recorded) to the latest.
pub fn revisions(notes: &[Note]) -> Vec<Revision> {
    let mut out = vec![Revision {
        number: 0,
        seq: None,
        by: None,
        at: None,
        reason: String::new(),
        changes: Vec::new(),
    }];
    for n in notes {
        if let NoteBody::Corrected {
            revision,
            reason,
            changes,
        } = &n.body
        {
            out.push(Revision {
                number: *revision,
                seq: Some(n.seq),
                by: Some(n.by.clone()),
                at: Some(n.at),
                reason: reason.clone(),
                changes: changes.clone(),
            });
        }
    }
    out
}

/// The latest revision's number (0 for a game never corrected).
pub fn latest(notes: &[Note]) -> u32 {
    notes
        .iter()
        .filter_map(|n| match &n.body {
            NoteBody::Corrected { revision, .. } => Some(*revision),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// The latest revision's log, from revision 0's (the game as recorded) and the journal: every
/// correction applied in order. (A backend that keeps the recorded log and the corrections
/// apart, like JetStream's, reads a corrected game this way.)
pub fn log_latest(recorded: &[Entry], notes: &[Note]) -> Vec<Entry> {
    let mut log = recorded.to_vec();
    for n in notes {
        if let NoteBody::Corrected { changes, .. } = &n.body {
            for c in changes {
                if let Some(e) = log.get_mut(c.ply as usize) {
                    e.notation = c.now.clone();
                }
            }
        }
    }
    log
}

/// The log of revision `revision`, from the current (latest) log and the journal: the later
/// corrections undone, latest first. `None` if the game has no such revision.
pub fn log_at(current: &[Entry], notes: &[Note], revision: u32) -> Option<Vec<Entry>> {
    if revision > latest(notes) {
        return None;
    }
    let mut log = current.to_vec();
    for n in notes.iter().rev() {
        let NoteBody::Corrected {
            revision: r,
            changes,
            ..
        } = &n.body
        else {
            continue;
        };
        if *r <= revision {
            break;
        }
        for c in changes {
            if let Some(e) = log.get_mut(c.ply as usize) {
                e.notation = c.was.clone();
            }
        }
    }
    Some(log)
}

/// A game replayed from its start through `entries` (its whole log, or a prefix), under the
/// rules version and data it was recorded with.
pub fn replay(
    registry: &Registry,
    header: &Header,
    entries: &[Entry],
) -> Result<Box<dyn GameState>> {
    let mut state = crate::plan::recorded_start(registry, header)?;
    for e in entries {
        crate::plan::apply_stored(state.as_mut(), header.id, e)?;
    }
    Ok(state)
}

/// What a correction writes: its note, the corrected log, and the finished game's state.
pub struct PlannedCorrection {
    pub note: Note,
    /// The whole corrected log.
    pub entries: Vec<Entry>,
    /// The plies (from 0) whose entries changed, in order.
    pub changed: Vec<u32>,
    /// The corrected game at its end.
    pub state: Box<dyn GameState>,
    /// Snapshots (ply, state bytes) from the first changed entry on, every `snapshot_every`
    /// plies, as an append would have written them.
    pub snaps: Vec<(u32, Vec<u8>)>,
    /// The header of the new revision.
    pub header: Header,
}

fn refused(ply: Option<u32>, why: impl Into<String>) -> StoreError {
    StoreError::CorrectionRefused {
        ply: ply.map(|p| p + 1),
        why: why.into(),
    }
}

/// Decides what correction `c` of the game (`header`, its journal `notes`, its whole log
/// `entries`) writes, or why it is refused (nothing written). See the module documentation.
pub fn plan_correction(
    registry: &Registry,
    snapshot_every: u32,
    header: &Header,
    notes: &[Note],
    entries: &[Entry],
    c: &Correction,
) -> Result<PlannedCorrection> {
    if header.status != Status::Finished {
        return Err(StoreError::NotFinished(header.id));
    }
    if c.by != Author::Admin {
        return Err(StoreError::BadInput(format!(
            "a finished game is corrected by the admin, not {}",
            c.by
        )));
    }
    if notes.len() >= crate::journal::MAX_NOTES {
        return Err(StoreError::BadInput(format!(
            "game {} has {} notes, the most a journal holds",
            header.id,
            crate::journal::MAX_NOTES
        )));
    }
    if latest(notes) >= MAX_REVISIONS {
        return Err(refused(
            None,
            format!(
                "game {} has {MAX_REVISIONS} revisions, the most a game keeps",
                header.id
            ),
        ));
    }
    if c.reason.trim().is_empty() {
        return Err(StoreError::BadInput(
            "a correction says why it is made (`reason`)".into(),
        ));
    }
    check_comment(&c.reason)?;
    if c.changes.is_empty() || c.changes.len() > MAX_CHANGES {
        return Err(StoreError::BadInput(format!(
            "a correction changes 1 to {MAX_CHANGES} entries"
        )));
    }
    if entries.len() as u32 != header.plies {
        return Err(StoreError::Corrupt {
            game: header.id,
            ply: None,
            what: "the log read for a correction is not the whole game".into(),
        });
    }
    let mut wanted: Vec<(u32, &str)> = c.changes.iter().map(|(p, n)| (*p, n.as_str())).collect();
    wanted.sort_by_key(|(p, _)| *p);
    for pair in wanted.windows(2) {
        if pair[0].0 == pair[1].0 {
            return Err(StoreError::BadInput(format!(
                "entry {} is corrected twice in one correction",
                pair[0].0 + 1
            )));
        }
    }
    // Entries a takeback withdrew were played on the line before the point it went back to,
    // and are shown replayed there (`Game.withdrawals`): that part of the record stands.
    let taken_back = notes
        .iter()
        .filter_map(|n| match &n.body {
            NoteBody::Withdrawn {
                to_ply, request, ..
            } => Some((*to_ply, *request)),
            _ => None,
        })
        .max_by_key(|(to, _)| *to);
    if let (Some((to_ply, request)), Some((p, _))) = (taken_back, wanted.first()) {
        if *p < to_ply {
            return Err(refused(
                Some(*p),
                format!(
                    "it lies before ply {to_ply}, where takeback request {request} took the line back: the entries it withdrew were played after it, so the record before them stands"
                ),
            ));
        }
    }
    if let Some((p, _)) = wanted.iter().find(|(p, _)| *p >= header.plies) {
        return Err(StoreError::NoSuchPly {
            game: header.id,
            ply: p + 1,
            plies: header.plies,
        });
    }
    let mut state = crate::plan::recorded_start(registry, header)?;
    let mut log = Vec::with_capacity(entries.len());
    let mut changes = Vec::new();
    let mut snaps = Vec::new();
    let first = wanted.first().map_or(0, |(p, _)| *p);
    let mut next = wanted.iter().peekable();
    for e in entries {
        let mut e = e.clone();
        if let Some((_, text)) = next.next_if(|(p, _)| *p == e.ply) {
            if e.actor == Actor::Dealer && header.seed.is_some() {
                return Err(refused(
                    Some(e.ply),
                    "a chance entry of a game dealt by the store's seed is the seed's: correct the moves",
                ));
            }
            let now = state
                .canonical(e.actor, text)
                .map_err(|err| refused(Some(e.ply), format!("`{text}`: {err}")))?;
            if now == e.notation {
                return Err(refused(
                    Some(e.ply),
                    format!("the entry already reads `{now}`"),
                ));
            }
            changes.push(Change {
                ply: e.ply,
                actor: e.actor,
                was: std::mem::replace(&mut e.notation, now.clone()),
                now,
            });
        }
        if state.to_act() == ToAct::Over {
            return Err(refused(
                Some(e.ply),
                "the corrected game is over before this entry",
            ));
        }
        state.apply(e.actor, &e.notation).map_err(|err| {
            refused(
                Some(e.ply),
                format!("`{}` no longer applies: {err}", e.notation),
            )
        })?;
        if e.ply >= first && (e.ply + 1).is_multiple_of(snapshot_every) {
            snaps.push((e.ply + 1, state.encode()));
        }
        log.push(e);
    }
    if state.to_act() != ToAct::Over {
        return Err(refused(
            None,
            format!(
                "the corrected game does not end after its {} entries",
                header.plies
            ),
        ));
    }
    let revision = latest(notes) + 1;
    let mut new_header = header.clone();
    new_header.revision = revision;
    Ok(PlannedCorrection {
        note: Note {
            seq: notes.len() as u32,
            plies: header.plies,
            at: c.at,
            by: c.by.clone(),
            body: NoteBody::Corrected {
                revision,
                reason: c.reason.clone(),
                changes: changes.clone(),
            },
        },
        changed: changes.iter().map(|ch| ch.ply).collect(),
        entries: log,
        state,
        snaps,
        header: new_header,
    })
}
