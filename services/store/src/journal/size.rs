//! How much a game's journal holds, and the limits it is held to.
//!
//! A journal is read whole by everything that shows it (annotations, takebacks, each wake of
//! a live subscription), so what one game's journal may cost is bounded twice: in notes
//! ([`super::MAX_NOTES`]) and in bytes (`Config::max_journal_bytes`, the notes' JSON as every
//! backend stores it). A backend keeps the running [`JournalSize`] of a game, so that an
//! annotation — which needs nothing else of the journal — is planned without reading it.

use super::{encode_note, Note};
use crate::error::{Result, StoreError};
use crate::id::GameId;

/// A journal's note count and its notes' bytes (each note's JSON, [`note_bytes`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JournalSize {
    pub notes: u32,
    pub bytes: u64,
}

impl JournalSize {
    /// The size of `notes`, a whole journal.
    pub fn of(notes: &[Note]) -> JournalSize {
        let mut size = JournalSize::default();
        for n in notes {
            size.add(n);
        }
        size
    }

    /// Counts one more note.
    pub fn add(&mut self, note: &Note) {
        self.notes += 1;
        self.bytes += note_bytes(note);
    }

    /// Counts one more note of `bytes` stored bytes (as read, without decoding it).
    pub fn add_stored(&mut self, bytes: usize) {
        self.notes += 1;
        self.bytes += bytes as u64;
    }
}

/// The bytes a note takes: its JSON, as every backend stores it (sled adds its checksum).
pub fn note_bytes(note: &Note) -> u64 {
    encode_note(note).len() as u64
}

/// Whether `new` notes fit after a journal of `size` within the limits: at most
/// [`super::MAX_NOTES`] notes and `max_bytes` bytes (0: no byte limit). Refused with
/// `JournalFull`, which says which limit it would pass.
pub fn check_room(game: GameId, size: JournalSize, max_bytes: u64, new: &[Note]) -> Result<()> {
    let mut after = size;
    for n in new {
        after.add(n);
    }
    let why = if after.notes as usize > super::MAX_NOTES {
        format!(
            "it has {} notes, the most a journal holds is {}",
            size.notes,
            super::MAX_NOTES
        )
    } else if max_bytes > 0 && after.bytes > max_bytes {
        format!(
            "it holds {} bytes and this would bring it to {}, past the limit of {max_bytes} bytes (max_journal_bytes)",
            size.bytes, after.bytes
        )
    } else {
        return Ok(());
    };
    Err(StoreError::JournalFull { game, why })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::{Author, NoteBody};

    fn note(seq: u32, comment: &str) -> Note {
        Note {
            seq,
            plies: 3,
            at: chrono::DateTime::from_timestamp(1_790_000_000, 0).unwrap_or_default(),
            by: Author::Recorder,
            body: NoteBody::Annotation {
                ply: 1,
                glyph: None,
                comment: comment.into(),
            },
        }
    }

    /// A note's size is its JSON's; the bytes limit is inclusive, and 0 means none.
    #[test]
    fn room_is_counted_in_notes_and_json_bytes() {
        let a = note(0, "a comment");
        assert_eq!(note_bytes(&a), encode_note(&a).len() as u64);
        let size = JournalSize::of(std::slice::from_ref(&a));
        assert_eq!(size.notes, 1);
        let b = note(1, "another");
        let exact = size.bytes + note_bytes(&b);
        let id = GameId(1);
        assert!(check_room(id, size, exact, std::slice::from_ref(&b)).is_ok());
        let e = check_room(id, size, exact - 1, std::slice::from_ref(&b)).unwrap_err();
        assert_eq!(e.code(), "LIMIT_EXCEEDED");
        assert!(check_room(id, size, 0, std::slice::from_ref(&b)).is_ok());
        let full = JournalSize {
            notes: super::super::MAX_NOTES as u32,
            bytes: 0,
        };
        assert!(check_room(id, full, 0, &[b]).is_err());
    }
}
