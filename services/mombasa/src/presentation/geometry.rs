//! Drawing coordinates of the map: points, rectangles and lines in board units, and the
//! schematic placement of `data/mombasa/layout.json` (a cell per region of `map.json`'s
//! grid; bases and their connectors placed by hand).
//!
//! The file is presentation, not rules: it is not among the hashed data files, so moving a
//! drawing never makes a new data version.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

const LAYOUT_JSON: &str = include_str!("../../../../data/mombasa/layout.json");

/// A point in board units (x to the right, y down).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// Distance from the left edge.
    pub x: u16,
    /// Distance from the top edge.
    pub y: u16,
}

/// A rectangle in board units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rect {
    /// Left edge.
    pub x: u16,
    /// Top edge.
    pub y: u16,
    /// Width.
    pub width: u16,
    /// Height.
    pub height: u16,
}

/// A straight line in board units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Line {
    /// One end.
    pub from: Point,
    /// The other end.
    pub to: Point,
}

/// `layout.json` as read.
#[derive(Debug, Clone, Deserialize)]
pub struct Geometry {
    pub width: u16,
    pub height: u16,
    origin_x: u16,
    origin_y: u16,
    cell: u16,
    inset: u16,
    bases: Vec<PlacedBase>,
}

/// A base's rectangle and the connectors of its borders.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlacedBase {
    pub company: String,
    pub rect: Rect,
    pub links: Vec<Link>,
}

/// The connector from a base to a region it borders.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    pub region: u8,
    pub from: Point,
    pub to: Point,
}

impl PlacedBase {
    /// The connector to `region` (1-based).
    pub fn link(&self, region: u8) -> Option<Line> {
        self.links
            .iter()
            .find(|l| l.region == region)
            .map(|l| Line {
                from: l.from,
                to: l.to,
            })
    }
}

/// The file's shape, flattened into [`Geometry`].
#[derive(Deserialize)]
struct File {
    map: Size,
    grid: Grid,
    bases: Vec<PlacedBase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Size {
    width: u16,
    height: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Grid {
    origin_x: u16,
    origin_y: u16,
    cell: u16,
    inset: u16,
}

impl Geometry {
    /// Parses the file's text.
    pub fn parse(text: &str) -> Result<Geometry, serde_json::Error> {
        let f: File = serde_json::from_str(text)?;
        Ok(Geometry {
            width: f.map.width,
            height: f.map.height,
            origin_x: f.grid.origin_x,
            origin_y: f.grid.origin_y,
            cell: f.grid.cell,
            inset: f.grid.inset,
            bases: f.bases,
        })
    }

    /// The embedded file. The tests prove it parses; a broken one would draw nothing rather
    /// than fail a request.
    pub fn embedded() -> Geometry {
        Geometry::parse(LAYOUT_JSON).unwrap_or(Geometry {
            width: 0,
            height: 0,
            origin_x: 0,
            origin_y: 0,
            cell: 0,
            inset: 0,
            bases: Vec::new(),
        })
    }

    /// The rectangle of the region in grid cell (`row`, `column`): the cell less its inset,
    /// so that borders and connectors run in the gaps.
    pub fn cell(&self, row: u8, column: u8) -> Rect {
        let at = |origin: u16, k: u8| {
            origin
                .saturating_add(self.cell.saturating_mul(u16::from(k)))
                .saturating_add(self.inset)
        };
        Rect {
            x: at(self.origin_x, column),
            y: at(self.origin_y, row),
            width: self.cell.saturating_sub(2 * self.inset),
            height: self.cell.saturating_sub(2 * self.inset),
        }
    }

    /// The border between two neighbouring cells: the line between their rectangles, across
    /// the gap, through the middle of the side they share.
    pub fn between(&self, a: (u8, u8), b: (u8, u8)) -> Line {
        let (ra, rb) = (self.cell(a.0, a.1), self.cell(b.0, b.1));
        let mid = |r: Rect| Point {
            x: r.x + r.width / 2,
            y: r.y + r.height / 2,
        };
        let (ca, cb) = (mid(ra), mid(rb));
        // The edge of `r` facing `to`, on the line between the centres.
        let edge = |r: Rect, from: Point, to: Point| {
            if from.y == to.y {
                let x = if to.x > from.x { r.x + r.width } else { r.x };
                Point { x, y: from.y }
            } else {
                let y = if to.y > from.y { r.y + r.height } else { r.y };
                Point { x: from.x, y }
            }
        };
        Line {
            from: edge(ra, ca, cb),
            to: edge(rb, cb, ca),
        }
    }

    /// The placement of `company`'s base (by slug).
    pub fn base(&self, company: &str) -> Option<&PlacedBase> {
        self.bases.iter().find(|b| b.company == company)
    }
}
