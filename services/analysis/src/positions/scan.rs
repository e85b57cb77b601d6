//! Walking the index block by block: in order on one thread (pages, which stop anywhere), or
//! with several workers whose results are put back in order (whole scans: exports, counts).
//!
//! Blocks are read from the kind's file a batch at a time (one read for each run of records
//! that lie one after the other, which a file written in game order is); one reader hands
//! batches to the workers, and the caller consumes each batch's result in index order, so the
//! output of a parallel export is byte for byte that of a sequential one.

use super::columns::BlockView;
use super::file::{Batch, BlockFile, Extent};
use super::filter::Scratch;
use super::{Cursor, PositionsError};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Mutex;
use store::GameId;

/// Blocks read and handed to a worker at a time: enough to make reads and the hand-over
/// cheap, few enough that two workers stay busy on a small index and a page reads little
/// past its end.
const BATCH: usize = 32;

pub(super) enum Step {
    Go,
    Stop,
}

/// Visits the blocks of `file` from the one holding `after` (or the first), in game order,
/// with the first ply to read in each, until `visit` stops. Returns whether the end of the
/// index was reached.
pub(super) fn blocks(
    file: &BlockFile,
    after: Option<Cursor>,
    mut visit: impl FnMut(GameId, BlockView<'_>, u32) -> Result<Step, PositionsError>,
) -> Result<bool, PositionsError> {
    let extents: Vec<(GameId, Extent)> = file.extents(after.map(|c| c.game));
    for chunk in extents.chunks(BATCH) {
        let (bytes, ranges) = file.read_many(chunk)?;
        for (id, range) in ranges {
            // A cursor at the last possible ply resumes with the next game.
            let first_ply = match after {
                Some(c) if c.game == id => c.ply.saturating_add(1),
                _ => 0,
            };
            let view = BlockView::parse(&bytes[range]).map_err(|_| PositionsError::BadBlock(id))?;
            if let Step::Stop = visit(id, view, first_ply)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Every block of `file` through `work` on `threads` workers (each with its own scratch),
/// each result given to `consume` in game order. `consume` may stop the scan with an error.
pub(super) fn par_blocks<T: Send>(
    file: &BlockFile,
    threads: usize,
    work: impl Fn(GameId, BlockView<'_>, &mut Scratch) -> Result<T, PositionsError> + Sync,
    mut consume: impl FnMut(T) -> Result<(), PositionsError>,
) -> Result<(), PositionsError> {
    if threads <= 1 {
        let mut scratch = Scratch::default();
        blocks(file, None, |id, view, _| {
            consume(work(id, view, &mut scratch)?)?;
            Ok(Step::Go)
        })?;
        return Ok(());
    }
    // Set when the consumer has stopped: the reader stops reading, the workers drain.
    let stop = AtomicBool::new(false);
    let stop = &stop;
    let (jobs_tx, jobs_rx) = mpsc::sync_channel::<(usize, Batch)>(threads * 2);
    let jobs_rx = Mutex::new(jobs_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, Result<Vec<T>, PositionsError>)>();
    let extents = file.extents(None);
    std::thread::scope(|s| {
        // The reader: batches of raw blocks, numbered.
        let extents = &extents;
        let reader = s.spawn(move || -> Result<usize, PositionsError> {
            let mut seq = 0;
            for chunk in extents.chunks(BATCH) {
                if stop.load(Ordering::Relaxed) {
                    return Ok(seq);
                }
                if jobs_tx.send((seq, file.read_many(chunk)?)).is_err() {
                    return Ok(seq); // the consumer stopped
                }
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
                    let (bytes, ranges) = batch;
                    let out = ranges
                        .into_iter()
                        .map(|(id, range)| {
                            let view = BlockView::parse(&bytes[range])
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
