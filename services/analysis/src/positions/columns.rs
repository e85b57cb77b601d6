//! A game's indexed positions as stored: column by column, each column at the narrowest
//! fixed width that holds its values, and as runs of equal values where that is smaller.
//!
//! Why columns: a filter reads a few features (`round`, each seat's `viziers`) of every
//! position. Stored row by row as varints, a scan had to decode all fifty values of a row to
//! reach those five; stored by column, it widens the columns the filter names and skips the
//! rest. Why runs: most features change every few plies (a round lasts dozens), so a column is
//! mostly repeats; runs make a block several times smaller, and reading the index from disk
//! (the store's pages) is what a whole query costs most.
//!
//! Layout (little-endian):
//! ```text
//! [0]        MAGIC
//! [1]        players
//! [2..6]     rows (u32): positions, ply 0 to the last
//! [6..8]     columns (u16): round, phase, to_act, the globals, then seat 0's features, seat 1's…
//! then per column: its code (u8: width 1, 2, 4 or 8 bytes, | RUNS when stored as runs) and
//!                  its length in bytes (u32)
//! then each column's body, column after column:
//!   plain: `rows` signed values at the width;
//!   runs:  (count u8 in 1..=255, value at the width) pairs whose counts add up to `rows`.
//! ```

use super::block::{GameBlock, PositionRef, LEAD};
use rules_core::FeatureSchema;

/// First byte of a columnar block. The row-wise blocks of earlier versions began with the
/// player count as a postcard varint (2 to 8), so they can never be mistaken for one.
pub const MAGIC: u8 = 0xC2;
const HEADER: usize = 8;
/// Per column: code and length.
const DESCRIPTOR: usize = 5;
/// The code bit of a column stored as runs.
const RUNS: u8 = 0x80;

/// Why stored bytes are not a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("not a columnar position block")]
pub struct NotABlock;

fn width_of(lo: i64, hi: i64) -> u8 {
    if lo >= i64::from(i8::MIN) && hi <= i64::from(i8::MAX) {
        1
    } else if lo >= i64::from(i16::MIN) && hi <= i64::from(i16::MAX) {
        2
    } else if lo >= i64::from(i32::MIN) && hi <= i64::from(i32::MAX) {
        4
    } else {
        8
    }
}

impl GameBlock {
    /// The stored form of the block (see the module docs).
    pub fn encode(&self) -> Vec<u8> {
        let rows = self.len();
        let cols = self.width as usize;
        let mut descriptors = Vec::with_capacity(cols * DESCRIPTOR);
        let mut bodies = Vec::new();
        let mut column = Vec::with_capacity(rows);
        for c in 0..cols {
            column.clear();
            column.extend((0..rows).map(|r| self.values[r * cols + c]));
            let (lo, hi) = column
                .iter()
                .fold((0i64, 0i64), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
            let w = width_of(lo, hi);
            let mut runs: Vec<(u8, i64)> = Vec::new();
            for v in &column {
                match runs.last_mut() {
                    Some((n, last)) if *last == *v && *n < u8::MAX => *n += 1,
                    _ => runs.push((1, *v)),
                }
            }
            let start = bodies.len();
            let code = if runs.len() * (1 + usize::from(w)) < rows * usize::from(w) {
                for (n, v) in runs {
                    bodies.push(n);
                    bodies.extend_from_slice(&v.to_le_bytes()[..usize::from(w)]);
                }
                w | RUNS
            } else {
                for v in &column {
                    bodies.extend_from_slice(&v.to_le_bytes()[..usize::from(w)]);
                }
                w
            };
            descriptors.push(code);
            descriptors.extend_from_slice(&((bodies.len() - start) as u32).to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER + descriptors.len() + bodies.len());
        out.push(MAGIC);
        out.push(self.players);
        out.extend_from_slice(&(rows as u32).to_le_bytes());
        out.extend_from_slice(&(cols as u16).to_le_bytes());
        out.extend_from_slice(&descriptors);
        out.extend_from_slice(&bodies);
        out
    }
}

/// A stored block read in place.
#[derive(Debug, Clone, Copy)]
pub struct BlockView<'a> {
    pub players: u8,
    pub rows: usize,
    descriptors: &'a [u8],
    data: &'a [u8],
}

fn value(bytes: &[u8], w: usize) -> i64 {
    let mut full = [0u8; 8];
    full[..w].copy_from_slice(&bytes[..w]);
    // Sign-extend from the column's width.
    let shift = 64 - 8 * w as u32;
    (i64::from_le_bytes(full) << shift) >> shift
}

/// The rows a column of runs `N` bytes each (a count, then a value of `N - 1` bytes) covers;
/// `None` if the body is not whole runs or a run is empty. One pass, each width its own loop
/// (checking every block's runs at opening was a tenth of a scan).
fn runs_cover<const N: usize>(body: &[u8]) -> Option<usize> {
    let (runs, rest) = body.as_chunks::<N>();
    if !rest.is_empty() {
        return None;
    }
    let (sum, empty) = runs.iter().fold((0usize, false), |(sum, empty), r| {
        (sum + usize::from(r[0]), empty | (r[0] == 0))
    });
    (!empty).then_some(sum)
}

impl<'a> BlockView<'a> {
    /// Reads the header and checks every column: its code, its length, and for runs that
    /// they cover the rows exactly. Whatever the bytes, reading a parsed view cannot fail.
    pub fn parse(bytes: &'a [u8]) -> Result<BlockView<'a>, NotABlock> {
        let head = bytes.get(..HEADER).ok_or(NotABlock)?;
        if head[0] != MAGIC {
            return Err(NotABlock);
        }
        let rows = u32::from_le_bytes([head[2], head[3], head[4], head[5]]) as usize;
        let cols = usize::from(u16::from_le_bytes([head[6], head[7]]));
        let end = HEADER + cols * DESCRIPTOR;
        let descriptors = bytes.get(HEADER..end).ok_or(NotABlock)?;
        let data = &bytes[end..];
        let mut at = 0usize;
        for d in descriptors.chunks_exact(DESCRIPTOR) {
            let w = usize::from(d[0] & !RUNS);
            let len = u32::from_le_bytes([d[1], d[2], d[3], d[4]]) as usize;
            if !matches!(w, 1 | 2 | 4 | 8) {
                return Err(NotABlock);
            }
            let body = data.get(at..at.checked_add(len).ok_or(NotABlock)?);
            let body = body.ok_or(NotABlock)?;
            if d[0] & RUNS == 0 {
                if Some(len) != rows.checked_mul(w) {
                    return Err(NotABlock);
                }
            } else {
                let covered = match w {
                    1 => runs_cover::<2>(body),
                    2 => runs_cover::<3>(body),
                    4 => runs_cover::<5>(body),
                    _ => runs_cover::<9>(body),
                };
                if covered != Some(rows) {
                    return Err(NotABlock);
                }
            }
            at += len;
        }
        if at != data.len() {
            return Err(NotABlock);
        }
        Ok(BlockView {
            players: head[1],
            rows,
            descriptors,
            data,
        })
    }

    /// Number of columns.
    pub fn columns(&self) -> usize {
        self.descriptors.len() / DESCRIPTOR
    }

    /// Whether the block has the columns `schema` declares for its players.
    pub fn fits(&self, schema: &FeatureSchema) -> bool {
        self.columns() == LEAD + schema.global.len() + usize::from(self.players) * schema.seat.len()
    }

    /// Column `c`: its width, whether stored as runs, and its body.
    fn column(&self, c: usize) -> (usize, bool, &'a [u8]) {
        let len = |d: &[u8]| u32::from_le_bytes([d[1], d[2], d[3], d[4]]) as usize;
        let mut chunks = self.descriptors.chunks_exact(DESCRIPTOR);
        let start: usize = chunks.by_ref().take(c).map(len).sum();
        let d = chunks.next().unwrap_or(&[1, 0, 0, 0, 0]);
        let body = &self.data[start..start + len(d)];
        (usize::from(d[0] & !RUNS), d[0] & RUNS != 0, body)
    }

    /// Column `c`, widened to `i64`, into `out` (replacing what it held).
    pub fn decode(&self, c: usize, out: &mut Vec<i64>) {
        out.clear();
        let (w, runs, bytes) = self.column(c);
        if runs {
            for r in bytes.chunks_exact(1 + w) {
                out.extend(std::iter::repeat_n(value(&r[1..], w), usize::from(r[0])));
            }
            return;
        }
        match w {
            1 => out.extend(bytes.iter().map(|b| i64::from(*b as i8))),
            2 => out.extend(
                bytes
                    .chunks_exact(2)
                    .map(|b| i64::from(i16::from_le_bytes([b[0], b[1]]))),
            ),
            4 => out.extend(
                bytes
                    .chunks_exact(4)
                    .map(|b| i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))),
            ),
            _ => out.extend(bytes.chunks_exact(8).map(|b| value(b, 8))),
        }
    }

    /// Rows `span` of column `c`, widened, into `out` (replacing what it held): `out` ends
    /// `span.end` long (clamped to the rows) and holds zeros before `span.start`. For a filter
    /// whose guards leave a few rows of a block: only those are widened.
    pub fn decode_span(&self, c: usize, span: std::ops::Range<usize>, out: &mut Vec<i64>) {
        let (lo, hi) = (span.start.min(self.rows), span.end.min(self.rows));
        out.clear();
        out.resize(lo, 0);
        if lo >= hi {
            return;
        }
        let (w, runs, bytes) = self.column(c);
        if !runs {
            let cells = bytes.chunks_exact(w).skip(lo).take(hi - lo);
            out.extend(cells.map(|b| value(b, w)));
            return;
        }
        let mut at = 0usize;
        for r in bytes.chunks_exact(1 + w) {
            let end = at + usize::from(r[0]);
            if end > lo {
                let n = end.min(hi) - at.max(lo);
                out.extend(std::iter::repeat_n(value(&r[1..], w), n));
            }
            if end >= hi {
                break;
            }
            at = end;
        }
    }
}

/// Whole rows of one block read in increasing order, each column's place kept from row to
/// row: reading a block's matches costs its runs once plus a value per column per match,
/// where finding a row from each column's start would walk its runs again for each match.
#[derive(Debug, Default)]
pub struct Rows {
    cols: Vec<RunCursor>,
    row: Vec<i64>,
}

/// Where one column's reading stands.
#[derive(Debug, Clone, Copy)]
struct RunCursor {
    /// The column's body in the block's data.
    start: usize,
    len: usize,
    width: usize,
    runs: bool,
    /// For runs: the current run's offset in the body, and the first row it covers.
    at: usize,
    first: usize,
}

impl Rows {
    /// Starts reading `view` (call before its first row).
    pub fn begin(&mut self, view: &BlockView<'_>) {
        self.cols.clear();
        let mut start = 0usize;
        for d in view.descriptors.chunks_exact(DESCRIPTOR) {
            let len = u32::from_le_bytes([d[1], d[2], d[3], d[4]]) as usize;
            self.cols.push(RunCursor {
                start,
                len,
                width: usize::from(d[0] & !RUNS),
                runs: d[0] & RUNS != 0,
                at: 0,
                first: 0,
            });
            start += len;
        }
    }

    /// The position at `ply` of `view` (the block [`Rows::begin`] started; rows are read
    /// fastest in increasing order, any order is right). `None` past the end or for a block
    /// that does not fit `schema`.
    pub fn position<'s>(
        &'s mut self,
        view: &BlockView<'_>,
        schema: &FeatureSchema,
        ply: u32,
    ) -> Option<PositionRef<'s>> {
        let r = ply as usize;
        if r >= view.rows || !view.fits(schema) || self.cols.len() != view.columns() {
            return None;
        }
        self.row.clear();
        for c in &mut self.cols {
            let body = view.data.get(c.start..c.start + c.len)?;
            let w = c.width;
            let v = if c.runs {
                if r < c.first {
                    (c.at, c.first) = (0, 0);
                }
                loop {
                    let run = body.get(c.at..c.at + 1 + w)?;
                    let n = usize::from(run[0]);
                    if r < c.first + n {
                        break value(&run[1..], w);
                    }
                    c.first += n;
                    c.at += 1 + w;
                }
            } else {
                value(body.get(r * w..(r + 1) * w)?, w)
            };
            self.row.push(v);
        }
        PositionRef::of_row(schema, view.players, ply, &self.row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::positions::block::tests::SCHEMA;

    /// The bytes of a block of `players` with rows of `width` `values`.
    fn encoded(players: u8, width: u32, values: &[i64]) -> Vec<u8> {
        GameBlock {
            players,
            width,
            values: values.to_vec(),
        }
        .encode()
    }

    #[test]
    fn columns_round_trip_at_every_width() {
        let values = vec![
            0,
            0,
            -1,
            7,
            1,
            2,
            300,
            -4, //
            1,
            1,
            0,
            -70_000,
            5,
            -128,
            7,
            i64::MIN, //
            2,
            1,
            1,
            1 << 40,
            127,
            6,
            -32_768,
            i64::MAX,
        ];
        let bytes = encoded(2, 8, &values);
        let v = BlockView::parse(&bytes).unwrap();
        assert_eq!((v.players, v.rows, v.columns()), (2, 3, 8));
        assert!(v.fits(&SCHEMA));
        let mut col = Vec::new();
        for c in 0..8 {
            v.decode(c, &mut col);
            let want: Vec<i64> = (0..3).map(|r| values[r * 8 + c]).collect();
            assert_eq!(col, want, "column {c}");
        }
        let mut rows = Rows::default();
        rows.begin(&v);
        for r in 0..3u32 {
            let p = rows.position(&v, &SCHEMA, r).unwrap();
            assert_eq!(p.round, values[r as usize * 8]);
            assert_eq!(p.seats, &values[r as usize * 8 + 4..(r as usize + 1) * 8]);
        }
        // Narrow columns are stored narrow: the header, the descriptors, then
        // 1+1+1+4+8+1+2+8 bytes per row (no column repeats, so none is stored as runs).
        assert_eq!(bytes.len(), 8 + 8 * 5 + 3 * (1 + 1 + 1 + 8 + 1 + 1 + 2 + 8));
        let p = rows.position(&v, &SCHEMA, 1).unwrap();
        assert_eq!((p.ply, p.round, p.phase, p.to_act), (1, 1, "b", 0));
        assert_eq!(p.global, &[-70_000]);
    }

    #[test]
    fn repeated_values_are_stored_as_runs() {
        // 600 rows of one player: round steps every 300 rows, x alternates, y is constant.
        let values: Vec<i64> = (0..600i64)
            .flat_map(|r| [r / 300, 1, r % 2, 5, -2])
            .collect();
        let bytes = encoded(1, 5, &values);
        let v = BlockView::parse(&bytes).unwrap();
        let mut col = Vec::new();
        for c in 0..5 {
            v.decode(c, &mut col);
            assert_eq!(col, (0..600).map(|r| values[r * 5 + c]).collect::<Vec<_>>());
        }
        // round: runs of 255, 45, 255, 45 (4 × 2 bytes); phase, y, g: 3 runs each (6 bytes);
        // x: plain (600 bytes).
        assert_eq!(bytes.len(), 8 + 5 * 5 + 8 + 3 * 6 + 600);
    }

    #[test]
    fn a_position_read_by_the_row_reader_is_its_columns_at_that_row() {
        // One player, the test schema's six columns: runs (round, phase, constant ones, a
        // column that changes every 7 rows) beside a plain one; rows at every run's edges.
        let values: Vec<i64> = (0..700i64)
            .flat_map(|r| [r / 256, 0, r % 2, -3, r / 7, 1 << 33])
            .collect();
        let bytes = encoded(1, 6, &values);
        let v = BlockView::parse(&bytes).unwrap();
        assert!(v.fits(&SCHEMA));
        let mut cols = vec![Vec::new(); 6];
        for (c, col) in cols.iter_mut().enumerate() {
            v.decode(c, col);
        }
        // Rows read in order, and after going back, are the columns at those rows.
        let mut rows = Rows::default();
        rows.begin(&v);
        for r in [
            0u32, 1, 6, 7, 254, 255, 256, 257, 511, 512, 699, 3, 300, 256,
        ] {
            let p = rows.position(&v, &SCHEMA, r).unwrap();
            let want: Vec<i64> = cols.iter().map(|c| c[r as usize]).collect();
            let phase = SCHEMA.phases.iter().position(|x| *x == p.phase);
            let got: Vec<i64> = [p.round, phase.map_or(-1, |i| i as i64), p.to_act]
                .into_iter()
                .chain(p.global.iter().copied())
                .chain(p.seats.iter().copied())
                .collect();
            assert_eq!(got, want, "row {r}");
            assert_eq!(got, values[r as usize * 6..(r as usize + 1) * 6]);
        }
        assert!(rows.position(&v, &SCHEMA, 700).is_none());

        // A span of a column is its widened column over those rows, zeros before.
        let mut part = Vec::new();
        for (lo, hi) in [(0, 700), (7, 8), (250, 520), (699, 700), (5, 5), (690, 900)] {
            for (c, col) in cols.iter().enumerate() {
                v.decode_span(c, lo..hi, &mut part);
                let hi = hi.min(700);
                assert_eq!(part.len(), hi.max(lo.min(hi)), "column {c}, {lo}..{hi}");
                assert_eq!(
                    part[lo.min(hi)..],
                    col[lo.min(hi)..hi],
                    "column {c}, {lo}..{hi}"
                );
                assert!(part[..lo.min(hi)].iter().all(|x| *x == 0));
            }
        }
    }

    #[test]
    fn damaged_bytes_are_refused() {
        let bytes = encoded(1, 5, &[1, 2, 3, 4, 5]);
        assert!(BlockView::parse(&bytes).is_ok());
        for cut in 0..bytes.len() {
            assert_eq!(BlockView::parse(&bytes[..cut]).err(), Some(NotABlock));
        }
        let mut bad = bytes.clone();
        bad[8] = 3; // no such width
        assert!(BlockView::parse(&bad).is_err());
        let mut runs = bytes.clone();
        runs[8] = 1 | RUNS; // a plain column read as runs
        assert!(BlockView::parse(&runs).is_err());
        let mut old = bytes;
        old[0] = 2; // a row-wise block of two players
        assert!(BlockView::parse(&old).is_err());
        let mut long = encoded(1, 5, &[1, 2, 3, 4, 5]);
        long.push(0);
        assert!(BlockView::parse(&long).is_err());
    }
}
