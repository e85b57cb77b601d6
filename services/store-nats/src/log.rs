//! The logs on the stream: create, append, read, list, import. What each writes is decided
//! by `store::plan` (the sled store's rules); this module only publishes and reads it.

use crate::codec::{self, Refused};
use crate::line::Line;
use crate::{NatsLog, Tip};
use async_nats::jetstream::message::PublishMessage;
use async_nats::jetstream::stream::LastRawMessageErrorKind;
use rules_core::{Actor, GameState};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use store::portable::{PreparedImport, RecordError};
use store::{plan, Append, Appended, Entry, Filter, GameId, Header, NewGame, Page, Status};
use store::{Result, StoreError};

/// Where a game's log is.
enum Place {
    /// On its own subjects; the header brought up to date by the last entry.
    Live(Header),
    /// In its archive record, at this stream sequence.
    Sealed(Header, u64),
}

/// How many fresh ids a creation tries when another node took the same one.
const ID_TRIES: u32 = 16;

impl NatsLog {
    pub(crate) fn subject_header(&self, id: GameId) -> String {
        format!("{}.g.{id}", self.config.prefix)
    }

    pub(crate) fn subject_entries(&self, id: GameId) -> String {
        format!("{}.e.{id}", self.config.prefix)
    }

    /// A read the stream's leader answers (a subject with no message): fails without a
    /// quorum. One attempt, never retried: readiness must say what the cluster is now, and a retry
    /// would hide a leader that is gone behind an answer from one that has not noticed yet.
    pub(crate) async fn leader_read(&self) -> Result<()> {
        match self
            .stream
            .get_last_raw_message_by_subject(&format!("{}.ready", self.config.prefix))
            .await
        {
            Ok(_) => Ok(()),
            Err(e) if e.kind() == LastRawMessageErrorKind::NoMessageFound => Ok(()),
            Err(e) => Err(codec::unavailable(e)),
        }
    }

    /// Where a game's log is now: its own subjects, or its archive record.
    async fn locate(&self, id: GameId) -> Result<Place> {
        if let Some(found) = self.known_sealed(id)? {
            return Ok(found);
        }
        if let Some(h) = self.read_live_header(id).await? {
            return Ok(Place::Live(h));
        }
        // Sealed on another node since this node's catalog last read the stream?
        self.sync_catalog().await?;
        self.known_sealed(id)?.ok_or(StoreError::NotFound(id))
    }

    fn known_sealed(&self, id: GameId) -> Result<Option<Place>> {
        Ok(self.known(id)?.and_then(|k| {
            let seq = k.sealed?;
            Some(Place::Sealed(k.header, seq))
        }))
    }

    /// The game's header, wherever its log is.
    pub(crate) async fn read_header(&self, id: GameId) -> Result<Header> {
        match self.locate(id).await? {
            Place::Live(h) | Place::Sealed(h, _) => Ok(h),
        }
    }

    /// Every entry of a game in ply order, each with its stream sequence (0 for a sealed
    /// game's: it has no subject to append to). A corrected game's are its latest
    /// revision's: the record's with the journal's corrections applied (`revision`).
    pub(crate) async fn read_entries(&self, id: GameId) -> Result<Vec<(Entry, u64)>> {
        Ok(self.read_line_of(id, None).await?.entries)
    }

    /// As [`Self::read_entries`], with the game's journal as read by the caller.
    pub(crate) async fn read_entries_with(
        &self,
        id: GameId,
        notes: &[store::journal::Note],
    ) -> Result<Vec<(Entry, u64)>> {
        Ok(self.read_line_of(id, Some(notes)).await?.entries)
    }

    /// The corrections of a sealed game are in its journal (`crate::revision`): the notes
    /// given, or read when the header says it was corrected.
    async fn corrections(
        &self,
        h: &Header,
        notes: Option<&[store::journal::Note]>,
    ) -> Result<Option<Vec<store::journal::Note>>> {
        match notes {
            Some(n) => Ok(Some(n.to_vec())),
            // Boxed: reading the notes reads the line too (for its markers' notes).
            None if h.revision > 0 => Ok(Some(Box::pin(self.read_notes(h.id)).await?)),
            None => Ok(None),
        }
    }

    /// A game's line wherever its log is: on its own subject (`crate::line`), or its sealed
    /// record's (entries at sequence 0, the notes its markers held, generation 0: nothing is
    /// appended to it again).
    pub(crate) async fn read_line_of(
        &self,
        id: GameId,
        notes: Option<&[store::journal::Note]>,
    ) -> Result<Line> {
        let from_record = |s: Arc<crate::archive::Sealed>, notes: Option<Vec<_>>| {
            let entries = match notes {
                Some(n) => store::revision::log_latest(&s.entries, &n),
                None => s.entries.clone(),
            };
            Line {
                entries: entries.into_iter().map(|e| (e, 0)).collect(),
                notes: s.notes.clone(),
                last: 0,
                generation: 0,
            }
        };
        match self.locate(id).await? {
            Place::Sealed(h, seq) => {
                let record = self.read_sealed(id, seq).await?;
                Ok(from_record(record, self.corrections(&h, notes).await?))
            }
            Place::Live(h) => {
                let live = tokio::time::timeout(self.config.timeout, self.read_line(id)).await;
                match live {
                    Ok(Ok(line)) if line.entries.len() as u32 >= h.plies => Ok(line),
                    // Purged while being read: sealed meanwhile, so the record is there.
                    other => match self.locate(id).await? {
                        Place::Sealed(h, seq) => {
                            let record = self.read_sealed(id, seq).await?;
                            Ok(from_record(record, self.corrections(&h, notes).await?))
                        }
                        Place::Live(_) => match other {
                            // Still live: a takeback cut the line after its header was read.
                            Ok(line) => line,
                            Err(_) => Err(StoreError::Unavailable(format!(
                                "game {id}: its entries could not be read in time"
                            ))),
                        },
                    },
                }
            }
        }
    }

    /// The header of a game that still has its own subjects: as created, brought up to date
    /// by its last entry. `None` if it has none (never existed, or sealed).
    pub(crate) async fn read_live_header(&self, id: GameId) -> Result<Option<Header>> {
        let Some(created) = self.last_on(&self.subject_header(id)).await? else {
            return Ok(None);
        };
        let mut h = codec::decode_header(id, &created.payload)?;
        let last = self.last_on(&self.subject_entries(id)).await?;
        if last.is_none() && self.last_on(&self.subject_header(id)).await?.is_none() {
            // Sealed between the two reads: the header is purged before the entries, so both
            // are gone now, and the game is read from its record.
            return Ok(None);
        }
        let Some(last) = last else {
            return Ok(Some(h));
        };
        if codec::withdrawn_to(Some(&last.headers)).is_some() {
            // A takeback was the last thing to happen to the line.
            let marker = crate::line::Marker::decode(id, &last.payload)?;
            h.plies = marker.plies;
            h.updated_at = marker.updated_at;
            h.status = Status::Active;
        } else {
            let e = codec::decode_entry(id, &last.payload)?;
            // Before any takeback the line is at least as long as it was created (a reader
            // between a creation's header and its entries sees the header's length); after
            // one, the last entry says.
            if e.ply + 1 > h.plies || codec::generation_of(Some(&last.headers)) > 0 {
                h.plies = e.ply + 1;
                h.updated_at = e.recorded_at;
                h.status = if codec::is_finished(Some(&last.headers)) {
                    Status::Finished
                } else {
                    Status::Active
                };
            }
        }
        Ok(Some(h))
    }

    /// The game's state, header and last sequence from its log; a seeded game left waiting on
    /// chance (its node stopped between a move and the deal after it) is dealt now.
    async fn load_tip(&self, id: GameId) -> Result<Tip> {
        let mut header = self.read_header(id).await?;
        let line = self.read_line_of(id, None).await?;
        let entries = &line.entries;
        let mut state = plan::recorded_start(&self.registry, &header)?;
        let mut keys = HashMap::new();
        // The keys of withdrawn moves stay used (as on sled): a retry under one is told so.
        let withdrawn = line
            .withdrawn()
            .filter_map(|e| {
                let k = e.key.clone()?;
                let by = store::EnteredBy::of(e.actor, e.entered_by);
                Some(((e.actor.to_string(), k), (e.ply, e.notation.clone(), by)))
            })
            .collect();
        for (i, (e, _)) in entries.iter().enumerate() {
            plan::apply_stored(state.as_mut(), id, e)?;
            if let Some(k) = &e.key {
                let dealt = entries[i + 1..]
                    .iter()
                    .take_while(|(d, _)| d.actor == Actor::Dealer)
                    .count() as u32;
                keys.insert(
                    (e.actor.to_string(), k.clone()),
                    (
                        e.ply,
                        1 + dealt,
                        e.notation.clone(),
                        store::EnteredBy::of(e.actor, e.entered_by),
                    ),
                );
            }
        }
        let mut seq = line.last;
        header.plies = entries.len() as u32;
        let mut dealt = Vec::new();
        plan::deal_chance(
            &self.config.store,
            id,
            &mut state,
            header.seed,
            header.plies,
            &mut dealt,
            &mut Vec::new(),
            header.updated_at,
        )?;
        if !dealt.is_empty() {
            let finished = plan::status_of(state.as_ref()) == Status::Finished;
            match self
                .publish_entries(id, line.generation, seq, &dealt, finished)
                .await
            {
                Ok(Some(last)) => seq = last,
                // Another writer (or reader) dealt them first, or moved on: read the game
                // again.
                Ok(None) | Err(StoreError::VersionConflict { .. }) => {
                    return Box::pin(self.load_tip(id)).await
                }
                Err(e) => return Err(e),
            }
            header.plies += dealt.len() as u32;
            header.status = plan::status_of(state.as_ref());
        }
        Ok(Tip {
            header,
            state,
            seq,
            generation: line.generation,
            keys,
            withdrawn,
        })
    }

    /// A game's header, dealt first if its log ends waiting on chance: the node that
    /// appended its last move may have stopped between the move's publish and the deal's,
    /// and then no seat has a legal move until someone deals. Whoever reads the game next
    /// deals it, from its seed, as the appender would have (`load_tip`): idempotently, since
    /// the deal is the seed's and its entries' message ids are the same whoever writes them;
    /// a reader that loses the race reads what the winner wrote. A warm tip at the log's end
    /// was dealt when it was made, so only a game this node has not followed to its end is
    /// replayed here (and its tip kept warm for the reads that follow).
    pub(crate) fn dealt_header(&self, h: Header) -> Result<Header> {
        if h.seed.is_none() || h.status != Status::Active {
            return Ok(h);
        }
        if let Some(t) = self.tips().get(&h.id).cloned() {
            if t.lock().unwrap_or_else(|e| e.into_inner()).header.plies == h.plies {
                return Ok(h);
            }
        }
        let tip = self.rt.block_on(self.load_tip(h.id))?;
        let plies = tip.header.plies;
        self.tips().insert(h.id, Arc::new(Mutex::new(tip)));
        if plies == h.plies {
            Ok(h)
        } else {
            self.rt.block_on(self.read_header(h.id))
        }
    }

    pub(crate) fn tips(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Arc<Mutex<Tip>>>> {
        self.tips.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn tip(&self, id: GameId) -> Result<Arc<Mutex<Tip>>> {
        if let Some(t) = self.tips().get(&id) {
            return Ok(t.clone());
        }
        let tip = Arc::new(Mutex::new(self.rt.block_on(self.load_tip(id))?));
        Ok(self.tips().entry(id).or_insert(tip).clone())
    }

    /// Publishes entries in order, each expecting the one before (the first expects `seq`);
    /// returns the last one's sequence. A conflict on the first is `VersionConflict`. `None`
    /// when the first was written but a later one's place was taken: the entries after an
    /// append's move are the seed's dealer entries, so another writer whose copy of the game
    /// already held the move dealt the same outcomes first (`load_tip`). The move stands; the
    /// log holds what was meant, and maybe more, at sequences not known here.
    async fn publish_entries(
        &self,
        id: GameId,
        generation: u32,
        mut seq: u64,
        entries: &[Entry],
        finished: bool,
    ) -> Result<Option<u64>> {
        for (i, e) in entries.iter().enumerate() {
            let last = i + 1 == entries.len();
            let msg = PublishMessage::build()
                .payload(codec::entry_payload(e)?)
                .headers(codec::entry_headers(e, finished && last, generation))
                .expected_last_subject_sequence(seq);
            let msg_id = codec::msg_id(id, generation, e);
            let published = self
                .publish(self.subject_entries(id), msg, Some(msg_id))
                .await;
            seq = match published.ack {
                // An earlier attempt of this very publish was kept after all.
                Ok(ack) if ack.duplicate && published.retried => ack.sequence,
                // The same entry is already there, written by another writer (or by an
                // earlier attempt whose answer was lost): for the move that starts an append
                // the place is taken, as on any store; the dealer's entries after it are the
                // seed's and the same whoever wrote them. (A clustered stream answers a known
                // message id before it checks the expected sequence — ops/cluster/RESEARCH.md
                // §2; a single server checks the sequence first and says 10071.)
                Ok(ack) if ack.duplicate && i == 0 && e.actor != rules_core::Actor::Dealer => {
                    return Err(StoreError::VersionConflict {
                        game: id,
                        expected: e.ply,
                        current: e.ply + 1,
                    });
                }
                Ok(ack) => ack.sequence,
                Err(err) if i > 0 && matches!(codec::refused(&err), Refused::Conflict) => {
                    return Ok(None);
                }
                Err(err) => {
                    return Err(match codec::refused(&err) {
                        Refused::Conflict => StoreError::VersionConflict {
                            game: id,
                            expected: e.ply,
                            // Unknown here: the caller reloads and tells the real one.
                            current: e.ply + 1,
                        },
                        Refused::Unavailable(m) => StoreError::Unavailable(m),
                        Refused::Other(m) => StoreError::Unavailable(m),
                    });
                }
            };
        }
        Ok(Some(seq))
    }

    /// Publishes a game's header message, expecting none before it.
    async fn publish_header(&self, h: &Header) -> Result<()> {
        let payload = codec::header_payload(h)?;
        // The id names the content: another node creating a game under the same id (ids are
        // made from the clock) publishes another header, which a retry must not take for its
        // own.
        let msg_id = {
            use std::hash::{Hash, Hasher};
            let mut hasher = std::hash::DefaultHasher::new();
            payload.hash(&mut hasher);
            format!("{}:header:{:016x}", h.id, hasher.finish())
        };
        let msg = PublishMessage::build()
            .payload(payload)
            .expected_last_subject_sequence(0);
        let published = self
            .publish(self.subject_header(h.id), msg, Some(msg_id))
            .await;
        match published.ack {
            Ok(a) if a.duplicate && !published.retried => Err(StoreError::Exists(h.id)),
            Ok(_) => Ok(()),
            Err(e) => Err(match codec::refused(&e) {
                Refused::Conflict => StoreError::Exists(h.id),
                Refused::Unavailable(m) | Refused::Other(m) => StoreError::Unavailable(m),
            }),
        }
    }

    pub(crate) fn create_game(&self, g: NewGame) -> Result<(Header, Vec<Entry>)> {
        for _ in 0..ID_TRIES {
            // Another node may take the same id: the header's publish finds out.
            let id = self
                .ids
                .next(g.at, |id| matches!(self.known(id), Ok(Some(_))));
            let planned = plan::create(&self.registry, &self.config.store, id, g.clone())?;
            let finished = planned.header.status == Status::Finished;
            let written = self.rt.block_on(async {
                if finished {
                    let seq = self
                        .publish_sealed(&planned.header, &planned.entries, &[])
                        .await?;
                    self.learn_sealed(planned.header.clone(), seq).await?;
                    return Ok(0);
                }
                self.publish_header(&planned.header).await?;
                // A new game's entries: nobody else deals into a game not yet made known.
                self.publish_entries(id, 0, 0, &planned.entries, false)
                    .await?
                    .ok_or(StoreError::VersionConflict {
                        game: id,
                        expected: 0,
                        current: 1,
                    })
            });
            match written {
                Err(StoreError::Exists(_)) => continue,
                Err(e) => return Err(e),
                Ok(seq) => {
                    let tip = Tip {
                        header: planned.header.clone(),
                        state: planned.state,
                        seq,
                        generation: 0,
                        keys: HashMap::new(),
                        withdrawn: HashMap::new(),
                    };
                    self.tips().insert(id, Arc::new(Mutex::new(tip)));
                    return Ok((planned.header, planned.entries));
                }
            }
        }
        Err(StoreError::Unavailable(
            "no free game id after 16 tries".into(),
        ))
    }

    pub(crate) fn append_entry(&self, req: Append<'_>) -> Result<Appended> {
        let id = req.game;
        plan::check_request(&req)?;
        let tip = self.tip(id)?;
        let mut tip = tip.lock().unwrap_or_else(|e| e.into_inner());
        // Another node may have appended since this tip was loaded: one reload on a conflict.
        for attempt in 0..2 {
            if let Some(k) = req.key {
                let found = tip
                    .keys
                    .get(&(req.actor.to_string(), k.to_string()))
                    .cloned();
                if let Some((first, count, stored, by)) = found {
                    check_key_use(&tip, &req, by, &stored)?;
                    let entries = store::GameLog::entries(self, id, first, first + count)?;
                    let same = entries
                        .first()
                        .is_some_and(|e| e.key.as_deref() == Some(k) && e.actor == req.actor);
                    if !same && attempt == 0 {
                        // Another node took the move back since this tip was loaded.
                        *tip = self.rt.block_on(self.load_tip(id))?;
                        continue;
                    }
                    if !same {
                        return Err(StoreError::Withdrawn {
                            game: id,
                            ply: first,
                        });
                    }
                    return Ok(Appended {
                        header: tip.header.clone(),
                        entries,
                        replayed: true,
                    });
                }
                let gone = tip
                    .withdrawn
                    .get(&(req.actor.to_string(), k.to_string()))
                    .cloned();
                if let Some((ply, stored, by)) = gone {
                    // As on sled: its owner is told its move was taken back.
                    check_key_use(&tip, &req, by, &stored)?;
                    return Err(StoreError::Withdrawn { game: id, ply });
                }
            }
            let notation = plan::canonical(&tip.header, tip.state.as_ref(), &req)?;
            let planned = match plan::append(
                &self.config.store,
                &tip.header,
                tip.state.as_ref(),
                &req,
                notation.clone(),
            ) {
                Err(StoreError::VersionConflict { .. }) if attempt == 0 => {
                    *tip = self.rt.block_on(self.load_tip(id))?;
                    continue;
                }
                other => other?,
            };
            let finished = planned.header.status == Status::Finished;
            let written = self.rt.block_on(self.publish_entries(
                id,
                tip.generation,
                tip.seq,
                &planned.entries,
                finished,
            ));
            match written {
                Err(StoreError::VersionConflict { .. }) if attempt == 0 => {
                    *tip = self.rt.block_on(self.load_tip(id))?;
                    continue;
                }
                Err(StoreError::VersionConflict { .. }) => {
                    return Err(StoreError::VersionConflict {
                        game: id,
                        expected: req.expected_ply,
                        current: tip.header.plies,
                    })
                }
                Err(e) => {
                    // An unknown outcome: the next use of this game reads its log again.
                    drop(tip);
                    self.tips().remove(&id);
                    return Err(e);
                }
                Ok(None) => {
                    // The move is written, and another node dealt what follows it: the
                    // append succeeded; this copy of the game is out of date.
                    drop(tip);
                    self.tips().remove(&id);
                    return Ok(Appended {
                        header: planned.header,
                        entries: planned.entries,
                        replayed: false,
                    });
                }
                Ok(Some(seq)) => {
                    if let Some(k) = req.key {
                        let used = (
                            tip.header.plies,
                            planned.entries.len() as u32,
                            notation,
                            store::EnteredBy::of(req.actor, req.entered_by),
                        );
                        tip.keys
                            .insert((req.actor.to_string(), k.to_string()), used);
                    }
                    tip.seq = seq;
                    tip.header = planned.header.clone();
                    tip.state = planned.state.clone();
                    drop(tip);
                    if finished {
                        // Its hooks run when the follower reads this entry (`follow`).
                        self.tips().remove(&id);
                    }
                    return Ok(Appended {
                        header: planned.header,
                        entries: planned.entries,
                        replayed: false,
                    });
                }
            }
        }
        Err(StoreError::VersionConflict {
            game: id,
            expected: req.expected_ply,
            current: tip.header.plies,
        })
    }

    pub(crate) fn state_at_ply(&self, id: GameId, ply: u32) -> Result<Box<dyn GameState>> {
        if let Some(t) = self.tips().get(&id).cloned() {
            let t = t.lock().unwrap_or_else(|e| e.into_inner());
            if t.header.plies == ply {
                // Current only if its line has not changed since: another node may have taken
                // moves back and played others up to the same length. Asked once: while the
                // stream cannot answer, nothing changes the line, and what was kept is read
                // on (as reads go on without a quorum).
                match self.rt.block_on(self.last_once(&self.subject_entries(id))) {
                    Ok(Some(m)) if m.sequence != t.seq => {}
                    _ => return Ok(t.state.clone()),
                }
            }
        }
        let header = self.rt.block_on(self.read_header(id))?;
        if ply > header.plies {
            return Err(StoreError::NoSuchPly {
                game: id,
                ply,
                plies: header.plies,
            });
        }
        let mut state = plan::recorded_start(&self.registry, &header)?;
        for e in store::GameLog::entries(self, id, 0, ply)? {
            plan::apply_stored(state.as_mut(), id, &e)?;
        }
        Ok(state)
    }

    /// A page of the catalog, newest first (brought up to the stream's end first).
    pub(crate) fn list_games(
        &self,
        filter: &Filter,
        first: usize,
        after: Option<GameId>,
    ) -> Result<Page> {
        self.rt.block_on(self.sync_catalog())?;
        let mut games = Vec::new();
        for k in self.known_games(true, after)? {
            let h = k?.header;
            if filter.accepts(&h) {
                games.push(h);
                if games.len() > first {
                    break;
                }
            }
        }
        Ok(Page::of(games, first))
    }

    /// Every game id, oldest first, from the catalog brought up to the stream's end.
    pub(crate) fn game_ids_now(&self) -> Result<Vec<GameId>> {
        self.rt.block_on(self.sync_catalog())?;
        self.known_games(false, None)?
            .map(|k| k.map(|k| k.header.id))
            .collect()
    }

    pub(crate) fn import_prepared(&self, p: PreparedImport) -> Result<Header, RecordError> {
        let header = p.header().clone();
        let err = |reason: String| RecordError {
            line: p.line(),
            game: Some(header.id.to_string()),
            ply: None,
            reason,
        };
        let finished = header.status == Status::Finished;
        self.rt
            .block_on(async {
                // A sealed game's subjects are gone: only the catalog knows its id is taken.
                if self.known(header.id)?.is_some() {
                    return Err(StoreError::Exists(header.id));
                }
                if finished {
                    if self.read_live_header(header.id).await?.is_some() {
                        return Err(StoreError::Exists(header.id));
                    }
                    let seq = self.publish_sealed(&header, p.entries(), &[]).await?;
                    return self.learn_sealed(header.clone(), seq).await;
                }
                self.publish_header(&header).await?;
                self.publish_entries(header.id, 0, 0, p.entries(), false)
                    .await
                    .map(|_| ())
            })
            .map_err(|e| match e {
                StoreError::Exists(id) => err(format!("game {id} already exists")),
                other => err(other.to_string()),
            })?;
        for n in p.annotations() {
            self.write_journal_note(n.clone())
                .map_err(|e| err(e.to_string()))?;
        }
        // Hooks run when the follower reads the record (`follow`).
        Ok(header)
    }
}

/// A used idempotency key sent again: it belongs to whoever entered its move, and anyone else
/// is told so, whatever move it sends, before the move is read; its owner must send the same
/// move (as on sled).
fn check_key_use(tip: &Tip, req: &Append<'_>, by: store::EnteredBy, stored: &str) -> Result<()> {
    if by != store::EnteredBy::of(req.actor, req.entered_by) {
        return Err(StoreError::KeyTaken { game: req.game });
    }
    let notation = plan::canonical(&tip.header, tip.state.as_ref(), req)?;
    if stored != notation {
        return Err(StoreError::BadInput(
            "idempotency key reused for a different move".into(),
        ));
    }
    Ok(())
}
