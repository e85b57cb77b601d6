//! Each seat's accuracy in the reviewed games, beside how it did: what `statistics { byAccuracy
//! }` and the accuracy chart are made of. Read from the kept reviews (the last position of a
//! review is the outcome: each seat's share of the win and its final score), one game at a
//! time; a game without a current review is left out.
use crate::judged::{judgements, seat_reports};
use crate::record::{self, Kept};
use crate::ReviewError;
use store::{GameId, GameLog, Status};

/// One seat of a reviewed game.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatAccuracy {
    pub game: GameId,
    pub players: u8,
    pub seat: u8,
    pub player: String,
    /// 0 to 100.
    pub accuracy: f64,
    /// Its share of the win (1, 0, or 1/k for a k-way tie).
    pub won: f64,
    pub score: f64,
}

/// The seats with an accuracy of the reviewed games among `games` (finished ones only).
pub fn seat_accuracies(
    store: &dyn GameLog,
    games: &[GameId],
) -> Result<Vec<SeatAccuracy>, ReviewError> {
    let mut out = Vec::new();
    for &id in games {
        let h = store.header(id)?;
        if h.status != Status::Finished {
            continue;
        }
        let Kept::Current(r) = record::read(store, &h)? else {
            continue;
        };
        let Some(end) = r.plies.last() else {
            continue;
        };
        let entries = store.entries(id, 0, h.plies)?;
        let judged = judgements(&r, &entries);
        for s in seat_reports(&judged, h.players.len()) {
            let (Some(accuracy), Some(c)) = (s.accuracy, end.seats.get(usize::from(s.seat))) else {
                continue;
            };
            out.push(SeatAccuracy {
                game: id,
                players: h.players.len() as u8,
                seat: s.seat,
                player: h
                    .players
                    .get(usize::from(s.seat))
                    .cloned()
                    .unwrap_or_default(),
                accuracy,
                won: f64::from(c.win),
                score: f64::from(c.score),
            });
        }
    }
    Ok(out)
}
