//! Idempotency records (the `idem` tree): what an append under a key wrote, so that a retry
//! returns it instead of writing again — and who entered it.
//!
//! A key belongs to whoever entered the move under it: the actor's key space is its own (a
//! seat cannot look up another seat's keys at all), and within it, a record answers only the
//! one who wrote it — the seat with its own token, or the game's recorder. Anyone else
//! reusing the key gets `KeyTaken`, the same answer whatever move it sends and before the
//! move is even read: otherwise a recorder, who sees a seat's hidden move as `hidden`, could
//! send guesses under the seat's key and be told `replayed` for the right one.

use super::*;

/// The `idem` key of an actor's idempotency key: game (8) ‖ actor (1: seat, or 0xFF for the
/// dealer) ‖ key. Records written before keys were per actor (game ‖ key) are not looked up:
/// a retry of a move sent before the upgrade is not recognised, which costs that client a
/// `VERSION_CONFLICT` at worst, never a second application.
pub(crate) fn idem_key(game: GameId, actor: Actor, key: &str) -> Vec<u8> {
    let mut v = game.to_bytes().to_vec();
    v.push(match actor {
        Actor::Seat(s) => s.0,
        Actor::Dealer => 0xFF,
    });
    v.extend_from_slice(key.as_bytes());
    v
}

/// An idempotency record. Its postcard fields in this order; `entered_by` last, so a record
/// written before it (which ends after `notation`) reads back with `None`, and one written
/// now reads in a build before it (postcard leaves trailing bytes unread).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct IdemRecord {
    pub first_ply: u32,
    pub count: u32,
    pub notation: String,
    /// Who entered the move (always written now). `None`: a record from before it was kept,
    /// taken as the actor's own ([`EnteredBy::of`]): a recorder retrying a key it used before
    /// the upgrade is told `KeyTaken`, never given the move.
    pub entered_by: Option<EnteredBy>,
}

/// The fields of a record written before `entered_by`.
#[derive(Deserialize)]
struct IdemCore {
    first_ply: u32,
    count: u32,
    notation: String,
}

impl IdemRecord {
    pub(crate) fn decode(bytes: &[u8], game: GameId) -> Result<IdemRecord> {
        let corrupt = |what: String| StoreError::Corrupt {
            game,
            ply: None,
            what: format!("idempotency record: {what}"),
        };
        let payload = unframe(bytes).ok_or_else(|| corrupt("checksum mismatch".into()))?;
        let (core, rest) =
            postcard::take_from_bytes::<IdemCore>(payload).map_err(|e| corrupt(e.to_string()))?;
        let entered_by = if rest.is_empty() {
            None
        } else {
            postcard::from_bytes::<Option<EnteredBy>>(rest).map_err(|e| corrupt(e.to_string()))?
        };
        Ok(IdemRecord {
            first_ply: core.first_ply,
            count: core.count,
            notation: core.notation,
            entered_by,
        })
    }

    /// Refuses `req` unless whoever sends it is whoever entered the record's move: one
    /// answer, whatever the request's move.
    fn check_owner(&self, game: GameId, req: &Append<'_>) -> Result<()> {
        if EnteredBy::of(req.actor, self.entered_by) == EnteredBy::of(req.actor, req.entered_by) {
            Ok(())
        } else {
            Err(StoreError::KeyTaken { game })
        }
    }
}

impl Store {
    /// The idempotency record of `req`'s key, if it has one and the key was used.
    pub(super) fn idem_record(&self, req: &Append<'_>) -> Result<Option<IdemRecord>> {
        let Some(k) = req.key else { return Ok(None) };
        self.idem
            .get(idem_key(req.game, req.actor, k))?
            .map(|bytes| IdemRecord::decode(&bytes, req.game))
            .transpose()
    }

    /// The answer to a retry under a used key, `tip` being the game's locked tip: the first
    /// result, writing nothing; `KeyTaken` for anyone but who entered it (before the move is
    /// read), and an error for another move under the same key or a move since withdrawn.
    pub(super) fn replay_idem(
        &self,
        tip: std::sync::MutexGuard<'_, Tip>,
        rec: IdemRecord,
        req: &Append<'_>,
    ) -> Result<Appended> {
        let id = req.game;
        rec.check_owner(id, req)?;
        let notation = crate::plan::canonical(&tip.header, tip.state.as_ref(), req)?;
        if rec.notation != notation {
            return Err(StoreError::BadInput(
                "idempotency key reused for a different move".into(),
            ));
        }
        let header = tip.header.clone();
        drop(tip);
        let entries = self.entries(id, rec.first_ply, rec.first_ply + rec.count)?;
        let same = entries
            .first()
            .is_some_and(|e| e.key.as_deref() == req.key && e.actor == req.actor);
        if !same {
            return Err(StoreError::Withdrawn {
                game: id,
                ply: rec.first_ply,
            });
        }
        // The first attempt may still be waiting on its flush: be durable too.
        self.commit.wait_durable(Vec::new())?;
        Ok(Appended {
            header,
            entries,
            replayed: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record written before `entered_by` was kept reads back without it; one written now
    /// reads back whole, and its first fields are the old layout's (an older build reads it).
    #[test]
    fn records_before_the_enterer_read_and_new_ones_keep_the_old_layout_first() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct Old {
            first_ply: u32,
            count: u32,
            notation: String,
        }
        let old = Old {
            first_ply: 4,
            count: 2,
            notation: "bid 3".into(),
        };
        let rec = IdemRecord::decode(&encode(&old), GameId(1)).unwrap();
        assert_eq!(rec.entered_by, None);
        assert_eq!(
            (rec.first_ply, rec.count, rec.notation.as_str()),
            (4, 2, "bid 3")
        );
        let new = IdemRecord {
            entered_by: Some(EnteredBy::Recorder),
            ..rec
        };
        let bytes = encode(&new);
        assert_eq!(IdemRecord::decode(&bytes, GameId(1)).unwrap(), new);
        assert_eq!(decode::<Old>(&bytes, GameId(1), None).unwrap(), old);
        assert!(IdemRecord::decode(&bytes[..bytes.len() - 1], GameId(1)).is_err());
    }
}
