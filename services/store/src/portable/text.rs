//! The game text: a plain format a person can type from a score sheet, and read
//! (`schema/notation/game-text.md`). Header lines (`Game:`, `Players:`, `Date:`, …), a blank
//! line, then one entry per line — `who: notation`, `who` a player's name, a seat number or
//! `dealer` — in the game's own notation. `#` starts a comment, on a line of its own or after
//! an entry. Several games in one file are separated by a line `---`.
//!
//! [`parse`] turns a text into a [`GameRecord`], replaying it as it reads so that a mistake
//! is reported at its line, in the words of the rules; the record is then imported as any
//! record is (validated again, written whole or not at all). [`write`] turns a record back into
//! text; `write(parse(t))` is `t` for every text `write` made. A text keeps no time per entry
//! (a score sheet has none): every entry is recorded at the game's `Date`.

use super::{GameRecord, RecordEntry, RecordError};
use crate::id::GameId;
use crate::journal::Glyph;
use crate::record::Status;
use chrono::{DateTime, NaiveDate, Utc};
use rules_core::{Actor, GameKind, Registry, Seat, ToAct};
use std::hash::Hasher;
use std::str::FromStr;

/// The header keys, in the order [`write`] writes them.
const KEYS: [&str; 8] = [
    "Id", "Game", "Players", "Date", "Options", "Seed", "Rules", "Data",
];

/// A game read from text, with its comments.
#[derive(Debug, Clone, PartialEq)]
pub struct GameText {
    pub record: GameRecord,
    /// Comments, each on the ply of the entry before it (`None`: on the game, before its
    /// first entry), in order.
    pub comments: Vec<(Option<u32>, String)>,
    /// The line that names the game (its `Id:` header, else its first line), for errors
    /// met after reading it (a game already in the store).
    pub line: u64,
}

/// Every game of a text (games separated by lines `---`), each read or refused on its own.
pub fn parse_all(registry: &Registry, text: &str) -> Vec<Result<GameText, RecordError>> {
    let mut out = Vec::new();
    let (mut start, mut first_line) = (0, 1u64);
    let mut line_no = 0u64;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        line_no += 1;
        let end = offset + line.len();
        if line.trim() == "---" {
            out.push(parse(registry, &text[start..offset], first_line));
            start = end;
            first_line = line_no + 1;
        }
        offset = end;
    }
    if !text[start..].trim().is_empty() || out.is_empty() {
        out.push(parse(registry, &text[start..], first_line));
    }
    out
}

/// One game's text; `first_line` numbers its first line in errors.
pub fn parse(registry: &Registry, text: &str, first_line: u64) -> Result<GameText, RecordError> {
    let mut reader = Reader {
        registry,
        line: first_line,
        headers: Vec::new(),
        game: None,
        comments: Vec::new(),
    };
    let mut in_header = true;
    for (i, raw) in text.lines().enumerate() {
        reader.line = first_line + i as u64;
        let (content, comment) = match raw.split_once('#') {
            Some((c, note)) => (c.trim(), Some(note.trim())),
            None => (raw.trim(), None),
        };
        if content.is_empty() {
            if in_header && !reader.headers.is_empty() && comment.is_none() {
                in_header = false;
            }
        } else if in_header {
            reader.header(content)?;
        } else {
            reader.entry(content)?;
        }
        if let Some(note) = comment.filter(|n| !n.is_empty()) {
            let ply = reader
                .game
                .as_ref()
                .and_then(|g| g.entries.len().checked_sub(1));
            reader
                .comments
                .push((ply.map(|p| p as u32), note.to_string()));
        }
    }
    reader.finish()
}

/// A record as text.
pub fn write(record: &GameRecord) -> String {
    let mut out = String::new();
    let names = nameable(&record.players);
    let players = if names {
        record.players.join(", ")
    } else {
        serde_json::to_string(&record.players).unwrap_or_default()
    };
    let options = serde_json::to_string(&record.options).unwrap_or_default();
    let date = record
        .created_at
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let mut line = |k: &str, v: &str| out.push_str(&format!("{k}: {v}\n"));
    line("Id", &record.id.to_string());
    line("Game", &record.kind);
    line("Players", &players);
    line("Date", &date);
    line("Options", &options);
    if let Some(seed) = record.seed {
        line("Seed", &seed.to_string());
    }
    line("Rules", &record.rules_version);
    line("Data", &record.data_hash);
    out.push('\n');
    for e in &record.entries {
        let who = match e.actor.parse::<usize>() {
            Ok(seat) if names => record.players.get(seat).cloned().unwrap_or(e.actor.clone()),
            _ => e.actor.clone(),
        };
        out.push_str(&format!("{who}: {}\n", e.notation));
    }
    out
}

/// One annotation as a game text carries it: a comment on position `ply`.
pub type TextNote = (u32, Option<Glyph>, String);

/// The annotations a text's comments make. A comment after an entry is on the position that
/// entry leads to (one before any entry, on the start); consecutive comments on one position
/// are one annotation, their lines joined; a comment opening with a glyph (`!`, `?`, `!!`,
/// `??`, `!?`, `?!`) gives the annotation that glyph. Refused: a comment the journal would
/// refuse (too long, control characters).
pub fn annotations(t: &GameText) -> Result<Vec<TextNote>, RecordError> {
    let mut out: Vec<TextNote> = Vec::new();
    let mut last: Option<Option<u32>> = None;
    for (at, text) in &t.comments {
        let ply = at.map_or(0, |p| p + 1);
        let (first, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let glyph = Glyph::parse(first);
        let body = if glyph.is_some() {
            rest.trim()
        } else {
            text.as_str()
        };
        match out.last_mut() {
            Some(prev) if last == Some(*at) => {
                if !prev.2.is_empty() && !body.is_empty() {
                    prev.2.push('\n');
                }
                prev.2.push_str(body);
                prev.1 = prev.1.or(glyph);
            }
            _ => out.push((ply, glyph, body.to_string())),
        }
        last = Some(*at);
    }
    for (ply, _, c) in &out {
        crate::journal::check_comment(c).map_err(|e| RecordError {
            line: t.line,
            game: Some(t.record.id.to_string()),
            ply: Some(*ply),
            reason: format!("comment: {e}"),
        })?;
    }
    Ok(out)
}

/// A record as text with its own annotations as comments: what `ludolog export --text` and
/// `Game.text` write.
pub fn write_record(record: &GameRecord) -> String {
    let notes: Vec<TextNote> = record
        .annotations
        .iter()
        .map(|a| {
            let glyph = a.glyph.as_deref().and_then(crate::journal::Glyph::parse);
            (a.ply, glyph, a.comment.clone())
        })
        .collect();
    write_annotated(record, &notes)
}

/// A record as text, with annotations as comments (see [`annotations`], which reads them
/// back as they were).
pub fn write_annotated(record: &GameRecord, notes: &[TextNote]) -> String {
    let plain = write(record);
    if notes.is_empty() {
        return plain;
    }
    let comment = |(_, glyph, text): &TextNote| -> String {
        let mut lines: Vec<&str> = text.lines().collect();
        if lines.is_empty() {
            lines.push("");
        }
        let mut out = String::new();
        for (i, l) in lines.iter().enumerate() {
            let g = glyph.filter(|_| i == 0).map(Glyph::as_str);
            let words: Vec<&str> = g
                .into_iter()
                .chain(Some(*l).filter(|l| !l.is_empty()))
                .collect();
            out.push_str(format!("# {}", words.join(" ")).trim_end());
            out.push('\n');
        }
        out
    };
    let mut out = String::new();
    let mut body = false;
    let mut entry = 0u32;
    for line in plain.split_inclusive('\n') {
        out.push_str(line);
        if !body {
            if line == "\n" {
                body = true;
                for n in notes.iter().filter(|n| n.0 == 0) {
                    out.push_str(&comment(n));
                }
            }
            continue;
        }
        entry += 1;
        for n in notes.iter().filter(|n| n.0 == entry) {
            out.push_str(&comment(n));
        }
    }
    out
}

/// Whether entries can name their players: every name unique, not `dealer`, not a number, and
/// without the text's own marks.
fn nameable(players: &[String]) -> bool {
    players.iter().enumerate().all(|(i, p)| {
        !p.is_empty()
            && p.trim() == p
            && !p.contains([':', '#', ',', '\n', '"', '['])
            && !p.eq_ignore_ascii_case("dealer")
            && p.parse::<u64>().is_err()
            && !players[..i].contains(p)
    })
}

/// The game as read so far: its rules, the state its entries lead to, the entries.
struct Game {
    players: Vec<String>,
    state: Box<dyn rules_core::GameState>,
    entries: Vec<(Actor, String)>,
}

struct Reader<'a> {
    registry: &'a Registry,
    line: u64,
    /// (key, value, line) in the order met.
    headers: Vec<(&'static str, String, u64)>,
    game: Option<Game>,
    comments: Vec<(Option<u32>, String)>,
}

impl Reader<'_> {
    fn err(&self, ply: Option<u32>, reason: String) -> RecordError {
        RecordError {
            line: self.line,
            game: self.value("Id").map(str::to_string),
            ply,
            reason,
        }
    }

    /// An error about a header value, at its line (or here, if it is missing).
    fn err_at(&self, key: &str, reason: String) -> RecordError {
        let line = self
            .headers
            .iter()
            .find(|(k, _, _)| *k == key)
            .map_or(self.line, |h| h.2);
        RecordError {
            line,
            ..self.err(None, reason)
        }
    }

    fn value(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _, _)| *k == key)
            .map(|(_, v, _)| v.as_str())
    }

    fn header(&mut self, content: &str) -> Result<(), RecordError> {
        let Some((key, value)) = content.split_once(':') else {
            return Err(self.err(
                None,
                format!("`{content}` is not a header line (`Key: value`); entries come after a blank line"),
            ));
        };
        let Some(key) = KEYS.iter().find(|k| k.eq_ignore_ascii_case(key.trim())) else {
            return Err(self.err(
                None,
                format!(
                    "unknown header `{}` (known: {}); entries come after a blank line",
                    key.trim(),
                    KEYS.join(", ")
                ),
            ));
        };
        if self.value(key).is_some() {
            return Err(self.err(None, format!("`{key}` given twice")));
        }
        self.headers
            .push((key, value.trim().to_string(), self.line));
        Ok(())
    }

    /// The game the headers describe, made at the first entry.
    fn start(&self) -> Result<Game, RecordError> {
        let need = |k: &str| {
            self.value(k)
                .ok_or_else(|| self.err(None, format!("the header has no `{k}:` line")))
        };
        let kind =
            GameKind::from_str(need("Game")?).map_err(|e| self.err_at("Game", e.to_string()))?;
        let rules = self
            .registry
            .get(kind)
            .ok_or_else(|| self.err_at("Game", format!("game kind {kind} is not served here")))?;
        let players = players(need("Players")?).map_err(|r| self.err_at("Players", r))?;
        let options = match self.value("Options") {
            Some(o) => serde_json::from_str(o)
                .map_err(|e| self.err_at("Options", format!("Options: not JSON ({e})")))?,
            None => serde_json::json!({ "players": players.len() }),
        };
        let version = self.value("Rules").unwrap_or(rules.rules_version());
        let data = self
            .value("Data")
            .map_or_else(|| rules.data_hash(), str::to_string);
        let state = rules
            .new_game_recorded(&options, version, &data)
            .map_err(|e| self.err_at("Options", format!("Options: {e}")))?;
        if usize::from(state.player_count()) != players.len() {
            return Err(self.err_at(
                "Players",
                format!(
                    "{} players named for a game of {}",
                    players.len(),
                    state.player_count()
                ),
            ));
        }
        Ok(Game {
            players,
            state,
            entries: Vec::new(),
        })
    }

    fn entry(&mut self, content: &str) -> Result<(), RecordError> {
        if self.game.is_none() {
            self.game = Some(self.start()?);
        }
        let Some(game) = self.game.as_ref() else {
            return Ok(());
        };
        // The ply this entry makes, as README numbers them (its index + 1).
        let ply = game.entries.len() as u32 + 1;
        let Some((who, notation)) = content.split_once(':') else {
            return Err(self.err(
                Some(ply),
                format!("`{content}` is not an entry (`who: notation`)"),
            ));
        };
        let (who, notation) = (who.trim(), notation.trim());
        let actor = if who.eq_ignore_ascii_case("dealer") {
            Actor::Dealer
        } else if let Ok(n) = who.parse::<u8>() {
            Actor::Seat(Seat(n))
        } else if let Some(i) = game.players.iter().position(|p| p == who) {
            Actor::Seat(Seat(i as u8))
        } else {
            return Err(self.err(
                Some(ply),
                format!("`{who}` is neither a player of this game, a seat number, nor `dealer`"),
            ));
        };
        if let Actor::Seat(Seat(n)) = actor {
            if usize::from(n) >= game.players.len() {
                return Err(self.err(Some(ply), format!("there is no seat {n}")));
            }
        }
        if game.state.to_act() == ToAct::Over {
            return Err(self.err(Some(ply), "the game is already over".into()));
        }
        let canonical = game
            .state
            .canonical(actor, notation)
            .map_err(|e| self.err(Some(ply), e.to_string()))?;
        let mut state = game.state.clone_box();
        state
            .apply(actor, &canonical)
            .map_err(|e| self.err(Some(ply), e.to_string()))?;
        if let Some(g) = self.game.as_mut() {
            g.state = state;
            g.entries.push((actor, canonical));
        }
        Ok(())
    }

    fn finish(mut self) -> Result<GameText, RecordError> {
        if self.game.is_none() {
            self.game = Some(self.start()?);
        }
        let Some(game) = self.game.take() else {
            return Err(self.err(None, "no game".into()));
        };
        let date = self
            .value("Date")
            .ok_or_else(|| self.err(None, "the header has no `Date:` line".into()))?;
        let at = date_time(date).map_err(|r| self.err_at("Date", r))?;
        let seed = self
            .value("Seed")
            .map(|s| s.parse::<u64>())
            .transpose()
            .map_err(|_| self.err_at("Seed", "Seed: not a 64-bit unsigned integer".into()))?;
        let kind = self.value("Game").unwrap_or_default().to_string();
        let rules = GameKind::from_str(&kind)
            .ok()
            .and_then(|k| self.registry.get(k));
        let id = match self.value("Id") {
            Some(id) => id
                .parse::<GameId>()
                .map_err(|e| self.err_at("Id", e.to_string()))?,
            // The same text always gets the same id: importing it twice is refused, not doubled.
            None => {
                let mut h = siphasher::sip::SipHasher13::new();
                for (k, v, _) in &self.headers {
                    h.write(k.as_bytes());
                    h.write(v.as_bytes());
                }
                for (a, n) in &game.entries {
                    h.write(a.to_string().as_bytes());
                    h.write(n.as_bytes());
                }
                GameId::from_parts(at.timestamp_millis().max(0) as u64, h.finish() as u16)
            }
        };
        let status = if game.state.to_act() == ToAct::Over {
            Status::Finished
        } else {
            Status::Active
        };
        let options = match self.value("Options") {
            Some(o) => serde_json::from_str(o).unwrap_or_default(),
            None => serde_json::json!({ "players": game.players.len() }),
        };
        let record = GameRecord {
            id,
            kind,
            players: game.players,
            options,
            seed,
            rules_version: self
                .value("Rules")
                .map(str::to_string)
                .or_else(|| rules.map(|r| r.rules_version().to_string()))
                .unwrap_or_default(),
            data_hash: self
                .value("Data")
                .map(str::to_string)
                .or_else(|| rules.map(|r| r.data_hash()))
                .unwrap_or_default(),
            created_at: at,
            updated_at: at,
            status,
            entries: game
                .entries
                .into_iter()
                .enumerate()
                .map(|(ply, (actor, notation))| RecordEntry {
                    ply: ply as u32,
                    actor: actor.to_string(),
                    notation,
                    at,
                    key: None,
                    entered_by: None,
                })
                .collect(),
            // The text's comments are written as annotations by its importer
            // (`annotations`), by `imported`.
            annotations: Vec::new(),
        };
        let line = self
            .headers
            .iter()
            .find(|(k, _, _)| *k == "Id")
            .or(self.headers.first())
            .map_or(self.line, |h| h.2);
        Ok(GameText {
            record,
            comments: self.comments,
            line,
        })
    }
}

/// `Players:` — names separated by commas, or a JSON array of names (for names with commas).
fn players(value: &str) -> Result<Vec<String>, String> {
    let names: Vec<String> = if value.starts_with('[') {
        serde_json::from_str(value)
            .map_err(|e| format!("Players: not a JSON list of names ({e})"))?
    } else {
        value.split(',').map(|p| p.trim().to_string()).collect()
    };
    if names.iter().any(String::is_empty) {
        return Err("Players: an empty name".into());
    }
    Ok(names)
}

/// `Date:` — a day (`2026-11-28`, midnight UTC) or an RFC 3339 time.
fn date_time(value: &str) -> Result<DateTime<Utc>, String> {
    if let Ok(t) = DateTime::parse_from_rfc3339(value) {
        return Ok(t.with_timezone(&Utc));
    }
    NaiveDate::parse_from_str(value, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| t.and_utc())
        .ok_or_else(|| {
            format!("Date: `{value}` is neither a day (2026-11-28) nor an RFC 3339 time")
        })
}
