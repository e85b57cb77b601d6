//! Creating a game: options checked, names checked, the deal dealt (entry 0 and any chance
//! that follows), header, entries and first snapshot written in one transaction. Imports
//! write through `write_new_game` too.

use super::*;

impl Store {
    /// Creates a game and deals it (the deal is entry 0).
    pub fn create(&self, g: NewGame) -> Result<(Header, Vec<Entry>)> {
        let rules = self.rules(g.kind)?;
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
        let id = self.new_id(g.at);
        let mut entries = Vec::new();
        let mut snaps = Vec::new();
        self.deal_chance(id, &mut state, Some(g.seed), &mut entries, &mut snaps, g.at)?;
        let header = Header {
            id,
            kind: g.kind,
            players: g.players,
            options: options.to_string(),
            seed: Some(g.seed),
            rules_version: rules.rules_version().to_string(),
            data_hash: rules.data_hash(),
            created_at: g.at,
            updated_at: g.at,
            status: if state.to_act() == ToAct::Over {
                Status::Finished
            } else {
                Status::Active
            },
            plies: entries.len() as u32,
            seat_token_hashes: g.seat_token_hashes,
        };
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
        let id = header.id;
        let (fixed, tip) = header.split();
        let mut writes = vec![
            write(GAMES, &id.to_bytes(), encode(&fixed)),
            write(TIPS, &id.to_bytes(), encode(&tip)),
        ];
        if header.status == Status::Finished {
            // Arrived whole and will never change: one record (see `sealed`).
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
        self.commit_writes(&writes, Some(id))?;
        Ok(writes)
    }

    /// While the game waits on chance and the store deals it, deal: each outcome becomes a
    /// dealer entry. Snapshots due are collected in `snaps`.
    pub(super) fn deal_chance(
        &self,
        id: GameId,
        state: &mut Box<dyn GameState>,
        seed: Option<u64>,
        entries: &mut Vec<Entry>,
        snaps: &mut Vec<(u32, Vec<u8>)>,
        at: DateTime<Utc>,
    ) -> Result<()> {
        let Some(seed) = seed else { return Ok(()) };
        let base = entries.last().map_or(0, |e| e.ply + 1);
        let mut ply = base;
        while state.to_act() == ToAct::Chance {
            let notation = state
                .deal(seed, Ply(ply))
                .ok_or_else(|| StoreError::Rejected {
                    game: id,
                    ply,
                    error: EntryError::Rule {
                        rule: "chance.undealable",
                        message: "the dealer cannot deal this".into(),
                    },
                })?;
            state
                .apply(Actor::Dealer, &notation)
                .map_err(|error| StoreError::Rejected {
                    game: id,
                    ply,
                    error,
                })?;
            entries.push(Entry {
                ply,
                actor: Actor::Dealer,
                notation,
                recorded_at: at,
                key: None,
            });
            ply += 1;
            if ply.is_multiple_of(self.config.snapshot_every) {
                snaps.push((ply, state.encode()));
            }
        }
        Ok(())
    }
}
