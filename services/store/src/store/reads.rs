//! Reading a stored game: its entries, its state at any ply (from the nearest snapshot), and
//! listings of games by kind, status and player with stable cursors.

use super::*;

impl Store {
    /// Entries `from..to` (clamped to the game's length), checksums verified.
    pub fn entries(&self, id: GameId, from: u32, to: u32) -> Result<Vec<Entry>> {
        let mut out = Vec::new();
        for kv in self.entries.range(key(id, from)..key(id, to.max(from))) {
            let (k, v) = kv?;
            let ply = u32::from_be_bytes([k[8], k[9], k[10], k[11]]);
            let e = crate::record::decode_entry(&v, id, Some(ply))?;
            if e.ply != ply {
                return Err(StoreError::Corrupt {
                    game: id,
                    ply: Some(ply),
                    what: "entry under the wrong key".into(),
                });
            }
            out.push(e);
        }
        if out.is_empty() && from < to {
            // No entry under its own key: a sealed log, a range past the end, or no game.
            let mut chunks = self
                .entries
                .range(super::sealed::keys(id, from, to))
                .map(|kv| {
                    let (k, v) = kv?;
                    Ok((u32::from_be_bytes([k[8], k[9], k[10], k[11]]), v))
                })
                .peekable();
            if chunks.peek().is_some() {
                return super::sealed::read(chunks, id, from, to);
            }
            if self.games.get(id.to_bytes())?.is_none() {
                return Err(StoreError::NotFound(id));
            }
        }
        Ok(out)
    }

    /// The state after `ply` entries: from the nearest snapshot at or below `ply`, applying at
    /// most `snapshot_every - 1` entries.
    pub fn state_at(&self, id: GameId, ply: u32) -> Result<Box<dyn GameState>> {
        let header = self.header(id)?;
        if ply > header.plies {
            return Err(StoreError::NoSuchPly {
                game: id,
                ply,
                plies: header.plies,
            });
        }
        let warm = self.tips_lock().get(&id).cloned();
        if let Some(t) = warm {
            let t = t.lock().unwrap_or_else(|e| e.into_inner());
            if t.header.plies == ply {
                return Ok(t.state.clone());
            }
        }
        match self.stored_state_at(&header, ply) {
            // A correction between the snapshot read and the entries read mixes two
            // revisions: read again, at the new one.
            Err(StoreError::Corrupt { .. })
                if header.status == Status::Finished
                    && self.header(id)?.revision != header.revision =>
            {
                self.stored_state_at(&self.header(id)?, ply)
            }
            other => other,
        }
    }

    /// The state after `ply` entries as sled has it (no warm tip looked at, so it may be
    /// called while holding one).
    pub(crate) fn stored_state_at(&self, header: &Header, ply: u32) -> Result<Box<dyn GameState>> {
        let id = header.id;
        let rules = self.rules(header.kind)?;
        let mut from = 0;
        let mut state = None;
        if let Some(kv) = self.snapshots.range(key(id, 0)..=key(id, ply)).next_back() {
            let (k, v) = kv?;
            let snap_ply = u32::from_be_bytes([k[8], k[9], k[10], k[11]]);
            let payload = unframe(&v).ok_or_else(|| StoreError::Corrupt {
                game: id,
                ply: Some(snap_ply),
                what: "snapshot checksum mismatch".into(),
            })?;
            // A snapshot from another rules version is ignored: the log is the truth.
            if let Ok(s) = rules.decode_state(payload) {
                state = Some(s);
                from = snap_ply;
            }
        }
        let mut state = match state {
            Some(s) => s,
            None => crate::plan::recorded_start(&self.registry, header)?,
        };
        for e in self.entries(id, from, ply)? {
            crate::plan::apply_stored(state.as_mut(), id, &e)?;
        }
        Ok(state)
    }

    /// Games matching `filter`, newest first, `first` at most, after the cursor `after`.
    pub fn list(&self, filter: &Filter, first: usize, after: Option<GameId>) -> Result<Page> {
        let mut games = Vec::new();
        let push = |id: GameId, games: &mut Vec<Header>| -> Result<bool> {
            let h = self.header(id)?;
            if filter.accepts(&h) {
                games.push(h);
            }
            Ok(games.len() > first)
        };
        let below = |prefix: &[u8]| -> Vec<u8> {
            let mut k = prefix.to_vec();
            k.extend_from_slice(&after.map_or([0xFF; 8], |a| a.to_bytes()));
            k
        };
        let prefix: Vec<u8> = match (&filter.player, filter.kind) {
            (Some(p), _) => {
                let mut k = p.as_bytes().to_vec();
                k.push(0);
                k
            }
            (None, Some(kind)) => vec![kind_byte(kind)],
            (None, None) => Vec::new(),
        };
        let tree = match (&filter.player, filter.kind) {
            (Some(_), _) => &self.by_player,
            (None, Some(_)) => &self.by_kind,
            (None, None) => &self.games,
        };
        let end = below(&prefix);
        let iter = tree.range(prefix.clone()..end);
        for kv in iter.rev() {
            let (k, _) = kv?;
            let Some(id) = id_from_suffix(&k) else {
                continue;
            };
            if after == Some(id) {
                continue;
            }
            if push(id, &mut games)? {
                break;
            }
        }
        Ok(Page::of(games, first))
    }

    /// Every game id, in id order.
    pub fn game_ids(&self) -> impl Iterator<Item = Result<GameId>> + '_ {
        self.games.iter().keys().map(|k| {
            let k = k?;
            id_from_suffix(&k).ok_or_else(|| StoreError::BadInput("malformed game key".into()))
        })
    }

    pub fn game_count(&self) -> usize {
        self.games.len()
    }
}
