//! A game's journal: what happens to a game beside its line of play — takebacks asked,
//! answered and carried out, and annotations — appended in order and never changed.
//!
//! The line of play (`entries`) is what the rules replay; the journal says how it came to be
//! that line. An accepted takeback is a journal note ([`NoteBody::Withdrawn`]) that holds the
//! entries it withdraws, so they stay readable and replayable, and the line is then shorter:
//! the expected ply of the next append counts the line, as the issue asks.
//!
//! Deciding what a request writes is here, pure and shared by every backend
//! ([`plan_note`]); a backend only reads the game, calls it under its per-game write lock,
//! and writes what it returns.
//!
//! # Takebacks
//! - A seat or the recorder asks to take the line back to `to_ply` (it then has `to_ply`
//!   entries). One request may be open at a time.
//! - **Nothing known is taken back**: a takeback may not withdraw a chance entry (a deal, a
//!   draw, a refill, a reveal) — after it, someone knows what they did not before. The rules
//!   decide what is chance: those are exactly the entries whose actor is the dealer.
//! - The recorder's request is carried out at once: one person recording the whole table
//!   corrects their own typing. A seat's request asks every other seat; the recorder may answer
//!   for the table. One refusal closes it (the asker may refuse its own, to take it back);
//!   once every asked seat (or the recorder) accepts, the line is withdrawn to `to_ply`, if
//!   the rule above still allows it then.
//!
//! # Annotations
//! A comment and/or a glyph on a position (`ply` 0 is the start, `ply` n the position after
//! entry n − 1), by a seat, the recorder, an analyst or an admin. An annotation on a ply that
//! a later takeback withdrew stays in the journal, marked withdrawn by [`annotations`].

use crate::error::{Result, StoreError};
use crate::id::GameId;
use crate::record::{Entry, Header, Status};
use chrono::{DateTime, Utc};
use rules_core::{Actor, Seat};
use serde::{Deserialize, Serialize};

mod author;
mod size;

pub use author::{Author, Glyph};
pub use size::{check_room, note_bytes, JournalSize};

/// Longest comment of an annotation or a study item, in characters.
pub const MAX_COMMENT: usize = 2000;
/// Most notes one game's journal may hold: a journal is read whole (by `Game.annotations`,
/// by each wake of a live subscription). Its bytes are bounded too, by the store's
/// `Config::max_journal_bytes` (see [`check_room`]).
pub const MAX_NOTES: usize = 2000;

/// One note of a game's journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// Its place in the journal, from 0.
    pub seq: u32,
    /// How many entries the line had when it was written.
    pub plies: u32,
    pub at: DateTime<Utc>,
    pub by: Author,
    pub body: NoteBody,
}

/// What a note says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum NoteBody {
    /// Asks to take the line back to `to_ply` entries.
    TakebackAsked { to_ply: u32 },
    /// An answer to the request written as note `request`.
    TakebackAnswered { request: u32, accept: bool },
    /// The line was taken back to `to_ply` entries, as request `request` asked: `entries` are
    /// the ones withdrawn, in order, as they were.
    Withdrawn {
        request: u32,
        to_ply: u32,
        #[serde(with = "entries_json")]
        entries: Vec<Entry>,
    },
    /// A comment and/or a glyph on position `ply`.
    Annotation {
        ply: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        glyph: Option<Glyph>,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        comment: String,
    },
    /// The finished game was corrected by an admin: revision `revision` (see
    /// [`crate::revision`]), changing these entries, for this reason.
    Corrected {
        revision: u32,
        reason: String,
        changes: Vec<crate::revision::Change>,
    },
}

/// What a caller asks to write in a game's journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoteRequest {
    /// Asks to take the line back to `to_ply`; the seats in `accepted_by` (asked seats, not
    /// the asker: the server's bots) accept in the same write, so the request and their
    /// answers stand or fall together.
    AskTakeback {
        to_ply: u32,
        accepted_by: Vec<Seat>,
    },
    AnswerTakeback {
        request: u32,
        accept: bool,
    },
    Annotate {
        ply: u32,
        glyph: Option<Glyph>,
        comment: String,
    },
}

/// A request to write, with who asks and when.
#[derive(Debug, Clone)]
pub struct NewNote {
    pub game: GameId,
    pub by: Author,
    pub at: DateTime<Utc>,
    pub request: NoteRequest,
}

/// What a note request wrote: the notes, and the line's new length when a takeback was
/// carried out (its entries from there on are withdrawn).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Noted {
    pub header: Header,
    pub notes: Vec<Note>,
    pub withdrawn_to: Option<u32>,
}

/// Where a takeback request stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakebackState {
    pub request: u32,
    pub asked_by: Author,
    pub to_ply: u32,
    /// The line's length when it was asked.
    pub plies: u32,
    /// Seats that have accepted so far.
    pub accepted: Vec<Seat>,
    pub outcome: TakebackOutcome,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TakebackOutcome {
    Open,
    Refused,
    Withdrawn,
}

/// Every takeback request of a journal, in order, with where each stands.
pub fn takebacks(notes: &[Note]) -> Vec<TakebackState> {
    let mut out: Vec<TakebackState> = Vec::new();
    for n in notes {
        match &n.body {
            NoteBody::TakebackAsked { to_ply } => out.push(TakebackState {
                request: n.seq,
                asked_by: n.by.clone(),
                to_ply: *to_ply,
                plies: n.plies,
                accepted: Vec::new(),
                outcome: TakebackOutcome::Open,
            }),
            NoteBody::TakebackAnswered { request, accept } => {
                if let Some(t) = out.iter_mut().find(|t| t.request == *request) {
                    match (accept, &n.by) {
                        (false, _) => t.outcome = TakebackOutcome::Refused,
                        (true, Author::Seat(s)) => t.accepted.push(*s),
                        (true, _) => {}
                    }
                }
            }
            NoteBody::Withdrawn { request, .. } => {
                if let Some(t) = out.iter_mut().find(|t| t.request == *request) {
                    t.outcome = TakebackOutcome::Withdrawn;
                }
            }
            NoteBody::Annotation { .. } | NoteBody::Corrected { .. } => {}
        }
    }
    out
}

/// An annotation as readers get it: with whether a later takeback withdrew its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    pub seq: u32,
    pub ply: u32,
    pub glyph: Option<Glyph>,
    pub comment: String,
    pub by: Author,
    pub at: DateTime<Utc>,
    pub withdrawn: bool,
}

/// The annotations of a journal, in the order written.
pub fn annotations(notes: &[Note]) -> Vec<Annotation> {
    let mut out: Vec<Annotation> = Vec::new();
    for n in notes {
        match &n.body {
            NoteBody::Annotation {
                ply,
                glyph,
                comment,
            } => out.push(Annotation {
                seq: n.seq,
                ply: *ply,
                glyph: *glyph,
                comment: comment.clone(),
                by: n.by.clone(),
                at: n.at,
                withdrawn: false,
            }),
            NoteBody::Withdrawn { to_ply, .. } => {
                for a in out.iter_mut().filter(|a| a.ply > *to_ply) {
                    a.withdrawn = true;
                }
            }
            _ => {}
        }
    }
    out
}

/// What the game must show the planner: its header, its journal's size, its notes when the
/// request reads them ([`needs_notes`]), and the line's entries from `line_from` on (enough
/// to check a takeback: from its target to the end).
pub struct Game<'a> {
    pub header: &'a Header,
    /// The whole journal when [`needs_notes`] says the request reads it; else may be empty
    /// (an annotation reads only `size`).
    pub notes: &'a [Note],
    /// The whole journal's size, whatever `notes` holds.
    pub size: JournalSize,
    /// Most bytes the journal may hold (`Config::max_journal_bytes`; 0: no limit).
    pub max_bytes: u64,
    /// The line's last entries, `line_from..header.plies`.
    pub tail: &'a [Entry],
}

/// Whether planning `req` reads the journal's notes (a takeback's requests and answers do);
/// an annotation needs only the journal's size.
pub fn needs_notes(req: &NoteRequest) -> bool {
    !matches!(req, NoteRequest::Annotate { .. })
}

/// A note, or a takeback to carry out (the backend removes the line's entries from `to_ply`
/// on, and writes the `Withdrawn` note holding them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Planned {
    Note(Note),
    Withdraw { request: u32, to_ply: u32 },
}

/// From which ply a request needs the line's entries (see [`Game::tail`]).
pub fn tail_needed(req: &NoteRequest, notes: &[Note]) -> Option<u32> {
    match req {
        NoteRequest::AskTakeback { to_ply, .. } => Some(*to_ply),
        NoteRequest::AnswerTakeback { request, .. } => takebacks(notes)
            .into_iter()
            .find(|t| t.request == *request)
            .map(|t| t.to_ply),
        NoteRequest::Annotate { .. } => None,
    }
}

/// Decides what `req` writes, or why it is refused (nothing written). Pure: the backend reads
/// the game and writes the result under its per-game write lock. The notes planned must fit
/// the journal's limits ([`check_room`]); a withdrawal's note, which the backend fills with
/// the entries it withdraws, is checked again by the backend once it is whole.
pub fn plan_note(g: &Game<'_>, req: &NewNote) -> Result<Vec<Planned>> {
    let planned = plan(g, req)?;
    let notes: Vec<Note> = planned
        .iter()
        .filter_map(|p| match p {
            Planned::Note(n) => Some(n.clone()),
            Planned::Withdraw { .. } => None,
        })
        .collect();
    check_room(g.header.id, g.size, g.max_bytes, &notes)?;
    if g.size.notes as usize + planned.len() > MAX_NOTES {
        // The withdrawal's note counts too.
        return Err(StoreError::JournalFull {
            game: g.header.id,
            why: format!("the most a journal holds is {MAX_NOTES} notes"),
        });
    }
    Ok(planned)
}

fn plan(g: &Game<'_>, req: &NewNote) -> Result<Vec<Planned>> {
    let mut seq = g.size.notes;
    let mut note = |by: Author, body: NoteBody| {
        let n = Note {
            seq,
            plies: g.header.plies,
            at: req.at,
            by,
            body,
        };
        seq += 1;
        Planned::Note(n)
    };
    match &req.request {
        NoteRequest::Annotate {
            ply,
            glyph,
            comment,
        } => {
            check_comment(comment)?;
            if glyph.is_none() && comment.trim().is_empty() {
                return Err(StoreError::BadInput(
                    "an annotation needs a comment or a glyph".into(),
                ));
            }
            if *ply > g.header.plies {
                return Err(StoreError::NoSuchPly {
                    game: g.header.id,
                    ply: *ply,
                    plies: g.header.plies,
                });
            }
            Ok(vec![note(
                req.by.clone(),
                NoteBody::Annotation {
                    ply: *ply,
                    glyph: *glyph,
                    comment: comment.clone(),
                },
            )])
        }
        NoteRequest::AskTakeback {
            to_ply,
            accepted_by,
        } => {
            let to_ply = *to_ply;
            check_takeback(g, to_ply)?;
            if let Some(open) = takebacks(g.notes)
                .into_iter()
                .find(|t| t.outcome == TakebackOutcome::Open)
            {
                return Err(refused(format!(
                    "a takeback is already asked (request {}, to ply {}): it is answered first",
                    open.request, open.to_ply
                )));
            }
            let asked = asked_seats(g.header.players.len(), &req.by);
            if let Some(s) = accepted_by.iter().enumerate().find_map(|(i, s)| {
                (!matches!(req.by, Author::Seat(_))
                    || !asked.contains(s)
                    || accepted_by[..i].contains(s))
                .then_some(s)
            }) {
                return Err(StoreError::BadInput(format!(
                    "seat {} cannot accept with the ask: a seat's request is accepted with it by the seats it asks ({}), each once",
                    s.0,
                    asked_text(&asked)
                )));
            }
            match &req.by {
                // A solo game's seat has nobody to ask: its request is carried out at once.
                Author::Seat(_) if !asked.is_empty() => {
                    let request = g.size.notes;
                    let mut out = vec![note(req.by.clone(), NoteBody::TakebackAsked { to_ply })];
                    for s in accepted_by {
                        out.push(note(
                            Author::Seat(*s),
                            NoteBody::TakebackAnswered {
                                request,
                                accept: true,
                            },
                        ));
                    }
                    if asked.iter().all(|a| accepted_by.contains(a)) {
                        out.push(Planned::Withdraw { request, to_ply });
                    }
                    Ok(out)
                }
                Author::Seat(_) | Author::Recorder => {
                    let request = g.size.notes;
                    Ok(vec![
                        note(req.by.clone(), NoteBody::TakebackAsked { to_ply }),
                        Planned::Withdraw { request, to_ply },
                    ])
                }
                other => Err(StoreError::BadInput(format!(
                    "a takeback is asked by a seat or the recorder, not {other}"
                ))),
            }
        }
        NoteRequest::AnswerTakeback { request, accept } => {
            let Some(t) = takebacks(g.notes)
                .into_iter()
                .find(|t| t.request == *request)
            else {
                return Err(StoreError::NotAsked(format!(
                    "game {} has no takeback request {request}",
                    g.header.id
                )));
            };
            if t.outcome != TakebackOutcome::Open {
                return Err(StoreError::NotAsked(format!(
                    "takeback request {request} is closed ({})",
                    match t.outcome {
                        TakebackOutcome::Refused => "refused",
                        _ => "carried out",
                    }
                )));
            }
            let asked = asked_seats(g.header.players.len(), &t.asked_by);
            let done = match &req.by {
                Author::Recorder => true,
                // The asker may take its own request back (it cannot accept it).
                by if *by == t.asked_by && !*accept => false,
                Author::Seat(s) if asked.contains(s) && !t.accepted.contains(s) => {
                    asked.iter().all(|a| a == s || t.accepted.contains(a))
                }
                Author::Seat(s) if t.accepted.contains(s) => {
                    return Err(StoreError::NotAsked(format!(
                        "seat {} has already accepted takeback request {request}",
                        s.0
                    )))
                }
                other => {
                    return Err(StoreError::NotAsked(format!(
                        "takeback request {request} asks {}; {other} was not asked",
                        asked_text(&asked)
                    )))
                }
            };
            if *accept && done {
                check_takeback(g, t.to_ply)?;
                if g.header.plies != t.plies {
                    return Err(refused(format!(
                        "the line has moved on since request {request} was asked ({} entries then, {} now): ask again",
                        t.plies, g.header.plies
                    )));
                }
            }
            let mut out = vec![note(
                req.by.clone(),
                NoteBody::TakebackAnswered {
                    request: *request,
                    accept: *accept,
                },
            )];
            if *accept && done {
                out.push(Planned::Withdraw {
                    request: *request,
                    to_ply: t.to_ply,
                });
            }
            Ok(out)
        }
    }
}

/// The `Withdrawn` note of a takeback carried out, holding the `entries` it takes off the
/// line: it follows the notes planned with it (`before`: its request, or the answer that
/// completed it), numbered on from `first_seq` when there are none.
pub fn withdrawal_note(
    before: &[Note],
    first_seq: u32,
    header: &Header,
    req: &NewNote,
    (request, to_ply): (u32, u32),
    entries: Vec<Entry>,
) -> Note {
    Note {
        seq: before.last().map_or(first_seq, |n| n.seq + 1),
        plies: header.plies,
        at: req.at,
        by: req.by.clone(),
        body: NoteBody::Withdrawn {
            request,
            to_ply,
            entries,
        },
    }
}

/// The seats a request by `asker` waits on: every other seat.
fn asked_seats(players: usize, asker: &Author) -> Vec<Seat> {
    (0..players as u8)
        .map(Seat)
        .filter(|s| *asker != Author::Seat(*s))
        .collect()
}

fn asked_text(seats: &[Seat]) -> String {
    let list: Vec<String> = seats.iter().map(|s| format!("seat {}", s.0)).collect();
    format!("{} (or the recorder)", list.join(", "))
}

fn refused(why: String) -> StoreError {
    StoreError::TakebackRefused(why)
}

/// Whether the line may be taken back to `to_ply`: the game is being played, something would
/// be withdrawn, and nothing withdrawn is a chance entry.
fn check_takeback(g: &Game<'_>, to_ply: u32) -> Result<()> {
    let h = g.header;
    if h.status != Status::Active {
        return Err(refused(format!(
            "game {} is over: a finished game is corrected by an admin, not taken back",
            h.id
        )));
    }
    if to_ply >= h.plies {
        return Err(refused(format!(
            "the line has {} entries: a takeback to ply {to_ply} withdraws nothing",
            h.plies
        )));
    }
    if let Some(e) = g
        .tail
        .iter()
        .rev()
        .find(|e| e.ply >= to_ply && e.actor == Actor::Dealer)
    {
        return Err(refused(format!(
            "entry {} is a chance outcome (a deal, a draw, a refill or a reveal) that made something known: a takeback may reach back to ply {} at most",
            e.ply + 1,
            e.ply + 1
        )));
    }
    Ok(())
}

/// A comment's length and characters: printable text and line breaks.
pub fn check_comment(comment: &str) -> Result<()> {
    if comment.chars().count() > MAX_COMMENT {
        return Err(StoreError::BadInput(format!(
            "a comment is at most {MAX_COMMENT} characters"
        )));
    }
    if comment
        .chars()
        .any(|c| (c.is_control() && c != '\n' && c != '\t') || is_format(c))
    {
        return Err(StoreError::BadInput(
            "a comment may not hold control or bidirectional format characters".into(),
        ));
    }
    Ok(())
}

fn is_format(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Reads a journal note stored as JSON (framed by the backend).
pub fn decode_note(bytes: &[u8], game: GameId) -> Result<Note> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt {
        game,
        ply: None,
        what: format!("journal note: {e}"),
    })
}

pub fn encode_note(n: &Note) -> Vec<u8> {
    // A note is plain data: serialising it cannot fail.
    serde_json::to_vec(n).unwrap_or_default()
}

/// Entries inside a JSON note: their time as RFC 3339 text to the nanosecond (an `Entry`'s own
/// form is the nanosecond count as an `i128`, which JSON readers do not take).
mod entries_json {
    use crate::record::{EnteredBy, Entry};
    use chrono::{DateTime, Utc};
    use rules_core::Actor;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct JsonEntry {
        ply: u32,
        actor: Actor,
        notation: String,
        at: DateTime<Utc>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        entered_by: Option<EnteredBy>,
    }

    pub fn serialize<S: Serializer>(v: &[Entry], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|e| JsonEntry {
            ply: e.ply,
            actor: e.actor,
            notation: e.notation.clone(),
            at: e.recorded_at,
            key: e.key.clone(),
            entered_by: e.entered_by,
        }))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Entry>, D::Error> {
        Ok(Vec::<JsonEntry>::deserialize(d)?
            .into_iter()
            .map(|e| Entry {
                ply: e.ply,
                actor: e.actor,
                notation: e.notation,
                recorded_at: e.at,
                key: e.key,
                entered_by: e.entered_by,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A note holding entries reads back as written (times to the nanosecond).
    #[test]
    fn a_withdrawal_note_round_trips_through_its_json() {
        let at = DateTime::from_timestamp(1_790_000_000, 123_456_789).unwrap_or_default();
        let note = Note {
            seq: 3,
            plies: 9,
            at,
            by: Author::Seat(Seat(1)),
            body: NoteBody::Withdrawn {
                request: 2,
                to_ply: 7,
                entries: vec![Entry {
                    ply: 7,
                    actor: Actor::Seat(Seat(0)),
                    notation: "bid 3".into(),
                    recorded_at: at,
                    key: Some("k".into()),
                    entered_by: Some(crate::record::EnteredBy::Recorder),
                }],
            },
        };
        let back = decode_note(&encode_note(&note), GameId(1)).unwrap();
        assert_eq!(back, note);
    }
}
