//! Creating a game: what `plan::create` decides (options and names checked, the deal dealt),
//! header, entries and first snapshot written in one transaction. Imports
//! write through `write_new_game` too.

use super::*;

impl Store {
    /// Creates a game and deals it (the deal is entry 0).
    pub fn create(&self, g: NewGame) -> Result<(Header, Vec<Entry>)> {
        let id = self.new_id(g.at);
        let crate::plan::Planned {
            header,
            entries,
            snaps,
            state,
        } = crate::plan::create(&self.registry, &self.config, id, g)?;
        let writes = self.write_new_game(&header, &entries, &snaps)?;
        self.commit.wait_durable(record(&writes))?;
        self.tips_lock().insert(
            id,
            Arc::new(Mutex::new(Tip {
                header: header.clone(),
                state,
            })),
        );
        Ok((header, entries))
    }

    /// Writes a whole game (header, entries, snapshots, indexes) in one transaction and returns
    /// the writes, for the write-ahead log. Not yet durable.
    pub(crate) fn write_new_game(
        &self,
        header: &Header,
        entries: &[Entry],
        snaps: &[(u32, Vec<u8>)],
    ) -> Result<Vec<WalWrite>> {
        let writes = new_game_writes(header, entries, snaps);
        self.commit_writes(&writes, Some(header.id))?;
        Ok(writes)
    }
}

/// What a new game writes: its header, its entries (sealed when it arrived finished), its
/// snapshots and its places in the kind and player indexes.
pub(crate) fn new_game_writes(
    header: &Header,
    entries: &[Entry],
    snaps: &[(u32, Vec<u8>)],
) -> Vec<WalWrite> {
    let id = header.id;
    let (fixed, tip) = header.split();
    let mut writes = vec![
        write(GAMES, &id.to_bytes(), encode(&fixed)),
        write(TIPS, &id.to_bytes(), encode(&tip)),
    ];
    if header.status == Status::Finished {
        // Arrived whole, and changed after only by a correction (which rewrites the records
        // it touches): one record per 32 entries (see `sealed`).
        writes.extend(
            super::sealed::seal(entries)
                .into_iter()
                .map(|(p, record)| write(ENTRIES, &key(id, p), record)),
        );
    } else {
        writes.extend(
            entries
                .iter()
                .map(|e| write(ENTRIES, &key(id, e.ply), encode(e))),
        );
    }
    writes.extend(
        snaps
            .iter()
            .map(|(p, b)| write(SNAPSHOTS, &key(id, *p), frame(b))),
    );
    writes.push(write(BY_KIND, &kind_key(header), Vec::new()));
    writes.extend(
        header
            .players
            .iter()
            .map(|p| write(BY_PLAYER, &player_key(p, id), Vec::new())),
    );
    writes
}
