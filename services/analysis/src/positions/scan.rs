//! Walking the index block by block: in order on one thread (pages, which stop anywhere), or
//! with several workers whose results are put back in order (whole scans: exports, counts).
//!
//! Why the parallel scan reads on one thread: sled's iterator is sequential, and reading a
//! block costs little beside filtering it; one reader hands batches of blocks to the workers,
//! and the caller consumes each batch's result in index order, so the output of a parallel
//! export is byte for byte that of a sequential one.

use super::columns::BlockView;
use super::filter::Scratch;
use super::{block_key, id_of, kind_byte, Cursor, PositionsError};
use rules_core::GameKind;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Mutex;
use store::{GameId, Store};

/// Blocks handed to a worker at a time: enough to make the hand-over cheap, few enough that
/// two workers stay busy on a small index.
const BATCH: usize = 32;

pub(super) enum Step {
    Go,
    Stop,
}

/// Visits the blocks of `kind` from the one holding `after` (or the first), in game order,
/// with the first ply to read in each, until `visit` stops. Returns whether the end of the
/// index was reached.
pub(super) fn blocks(
    store: &Store,
    kind: GameKind,
    after: Option<Cursor>,
    mut visit: impl FnMut(GameId, BlockView<'_>, u32) -> Result<Step, PositionsError>,
) -> Result<bool, PositionsError> {
    let kb = kind_byte(kind);
    let start = match after {
        Some(c) => block_key(kind, c.game),
        None => vec![kb],
    };
    for kv in store.projection_range(super::BLOCKS, &start)? {
        let (key, value) = kv?;
        if key.first() != Some(&kb) {
            break;
        }
        let id = id_of(&key).ok_or(PositionsError::BadBlock(GameId(0)))?;
        // A cursor at the last possible ply resumes with the next game.
        let first_ply = match after {
            Some(c) if c.game == id => c.ply.saturating_add(1),
            _ => 0,
        };
        let view = BlockView::parse(&value).map_err(|_| PositionsError::BadBlock(id))?;
        if let Step::Stop = visit(id, view, first_ply)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Every block of `kind` through `work` on `threads` workers (each with its own scratch),
/// each result given to `consume` in game order. `consume` may stop the scan with an error.
pub(super) fn par_blocks<T: Send>(
    store: &Store,
    kind: GameKind,
    threads: usize,
    work: impl Fn(GameId, BlockView<'_>, &mut Scratch) -> Result<T, PositionsError> + Sync,
    mut consume: impl FnMut(T) -> Result<(), PositionsError>,
) -> Result<(), PositionsError> {
    if threads <= 1 {
        let mut scratch = Scratch::default();
        blocks(store, kind, None, |id, view, _| {
            consume(work(id, view, &mut scratch)?)?;
            Ok(Step::Go)
        })?;
        return Ok(());
    }
    let kb = kind_byte(kind);
    type Batch = (usize, Vec<(Vec<u8>, Vec<u8>)>);
    // Set when the consumer has stopped: the reader stops reading, the workers drain.
    let stop = AtomicBool::new(false);
    let stop = &stop;
    let (jobs_tx, jobs_rx) = mpsc::sync_channel::<Batch>(threads * 2);
    let jobs_rx = Mutex::new(jobs_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, Result<Vec<T>, PositionsError>)>();
    std::thread::scope(|s| {
        // The reader: batches of raw blocks, numbered.
        let reader = s.spawn(move || -> Result<usize, PositionsError> {
            let mut seq = 0;
            let mut batch = Vec::with_capacity(BATCH);
            for kv in store.projection_range(super::BLOCKS, &[kb])? {
                if stop.load(Ordering::Relaxed) {
                    return Ok(seq);
                }
                let (key, value) = kv?;
                if key.first() != Some(&kb) {
                    break;
                }
                batch.push((key.to_vec(), value));
                if batch.len() == BATCH {
                    if jobs_tx.send((seq, std::mem::take(&mut batch))).is_err() {
                        return Ok(seq); // the consumer stopped
                    }
                    seq += 1;
                }
            }
            if !batch.is_empty() {
                let _ = jobs_tx.send((seq, batch));
                seq += 1;
            }
            Ok(seq)
        });
        for _ in 0..threads {
            let done_tx = done_tx.clone();
            let (jobs_rx, work) = (&jobs_rx, &work);
            s.spawn(move || {
                let mut scratch = Scratch::default();
                loop {
                    let job = jobs_rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok((seq, batch)) = job else { return };
                    if stop.load(Ordering::Relaxed) {
                        continue; // drain, so that the reader never waits on a full queue
                    }
                    let out = batch
                        .iter()
                        .map(|(key, value)| {
                            let id = id_of(key).ok_or(PositionsError::BadBlock(GameId(0)))?;
                            let view = BlockView::parse(value)
                                .map_err(|_| PositionsError::BadBlock(id))?;
                            work(id, view, &mut scratch)
                        })
                        .collect();
                    if done_tx.send((seq, out)).is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
        drop(done_tx);
        // Results in order: a batch that arrives early waits for those before it.
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        let mut outcome = Ok(());
        for (seq, out) in done_rx.iter() {
            waiting.insert(seq, out);
            while let Some(out) = waiting.remove(&next) {
                next += 1;
                let step = out.and_then(|items| items.into_iter().try_for_each(&mut consume));
                if let Err(e) = step {
                    outcome = Err(e);
                    break;
                }
            }
            if outcome.is_err() {
                break;
            }
        }
        // Stopping early: the reader stops at its next block, the workers drain what it sent.
        stop.store(true, Ordering::Relaxed);
        drop(done_rx);
        let read = reader.join().unwrap_or(Ok(0));
        outcome?;
        read.map(|_| ())
    })
}
