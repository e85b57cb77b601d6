//! The values a filter reads, served in place from a decoded block: a variable resolver for
//! the position's names and two lazy CEL values, `seats` (a list) and each seat (a map from
//! feature name to integer).
//!
//! Why hand-written `Val`s rather than `Context::add_variable`: binding a position the ordinary
//! way builds a `Value::Map` per seat (a hash map and a string per feature) for every position
//! scanned, which costs microseconds; these answer a name only when the expression reads it,
//! straight from the integers, so a scan runs at millions of positions per second. They
//! implement what CEL lists and maps offer: indexing (int or uint), size, `in`, iteration for
//! the macros, and equality.

use super::block::PositionRef;
use super::filter::MAX_SEATS;
use cel::common::traits::{Container, Indexer, Iterable, Sizer};
use cel::common::types::{CelInt, CelString, CelUInt, Type, LIST_TYPE, MAP_TYPE};
use cel::common::value::{CowVal, Val};
use cel::context::VariableResolver;
use cel::{ExecutionError, Value};
use rules_core::FeatureSchema;

/// Answers the variables of one position.
pub(super) struct Resolver<'a> {
    pos: &'a PositionRef<'a>,
    schema: &'a FeatureSchema,
    seats: SeatList<'a>,
}

impl<'a> Resolver<'a> {
    pub(super) fn new(pos: &'a PositionRef<'a>, schema: &'a FeatureSchema) -> Self {
        let width = schema.seat.len();
        let mut rows = arrayvec::ArrayVec::new();
        for seat in 0..usize::from(pos.players).min(MAX_SEATS) {
            let values = pos
                .seats
                .get(seat * width..(seat + 1) * width)
                .unwrap_or(&[]);
            rows.push(SeatRow {
                seat: seat as i64,
                names: schema.seat,
                values,
            });
        }
        Resolver {
            pos,
            schema,
            seats: SeatList { rows },
        }
    }
}

impl VariableResolver for Resolver<'_> {
    fn resolve<'b>(&'b self, variable: &str) -> Option<CowVal<'b, 'b>> {
        let int = |v: i64| Some(CowVal::owned(CelInt::from(v)));
        match variable {
            "ply" => int(i64::from(self.pos.ply)),
            "round" => int(self.pos.round),
            "phase" => Some(CowVal::owned(CelString::from(self.pos.phase))),
            "to_act" => int(self.pos.to_act),
            "players" => int(i64::from(self.pos.players)),
            "seats" => Some(CowVal::Borrowed(&self.seats)),
            name => {
                let i = self.schema.global.iter().position(|g| *g == name)?;
                int(self.pos.global.get(i).copied().unwrap_or(0))
            }
        }
    }
}

/// The `seats` list: one [`SeatRow`] per seat, read in place.
#[derive(Debug, Clone)]
struct SeatList<'a> {
    rows: arrayvec::ArrayVec<SeatRow<'a>, MAX_SEATS>,
}

/// One seat's features as a CEL map from feature name to integer.
#[derive(Debug, Clone, Copy)]
struct SeatRow<'a> {
    seat: i64,
    names: &'static [&'static str],
    values: &'a [i64],
}

impl Val for SeatList<'_> {
    fn get_type(&self) -> &Type {
        &LIST_TYPE
    }
    fn cel_type() -> &'static Type {
        &LIST_TYPE
    }
    fn as_indexer<'b, 'v>(&'b self) -> Option<&'b (dyn Indexer + 'v)>
    where
        Self: 'v,
    {
        Some(self)
    }
    fn as_iterable<'b, 'v>(&'b self) -> Option<&'b (dyn Iterable + 'v)>
    where
        Self: 'v,
    {
        Some(self)
    }
    fn as_sizer(&self) -> Option<&dyn Sizer> {
        Some(self)
    }
    fn as_container(&self) -> Option<&dyn Container> {
        Some(self)
    }
    /// Lists are equal when their elements are, in order (`seats == seats`,
    /// `seats.map(s, s) == seats`). Compared through the list interface, since borrowed values
    /// cannot be downcast.
    fn equals(&self, other: &dyn Val) -> bool {
        let (Some(size), Some(items)) = (other.as_sizer(), other.as_iterable()) else {
            return false;
        };
        if *size.size().inner() != self.rows.len() as i64 {
            return false;
        }
        let mut it = items.iter();
        self.rows
            .iter()
            .all(|r| it.next().is_some_and(|o| r.equals(o)))
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v>
    where
        Self: 'v,
    {
        Box::new(self.clone())
    }
}

impl Container for SeatList<'_> {
    /// `x in seats`: whether some seat equals `x`.
    fn contains(&self, value: &dyn Val) -> Result<bool, ExecutionError> {
        Ok(self.rows.iter().any(|r| r.equals(value)))
    }
}

impl Sizer for SeatList<'_> {
    fn size(&self) -> CelInt {
        CelInt::from(self.rows.len() as i64)
    }
}

impl Indexer for SeatList<'_> {
    fn get<'b, 'v>(&'b self, idx: &dyn Val) -> Result<CowVal<'b, 'v>, ExecutionError>
    where
        Self: 'v,
    {
        // CEL indexes lists by int or uint.
        let i: i64 = if let Some(i) = idx.downcast_ref::<CelInt>() {
            *i.inner()
        } else if let Some(u) = idx.downcast_ref::<CelUInt>() {
            i64::try_from(*u.inner()).unwrap_or(i64::MAX)
        } else {
            return Err(ExecutionError::UnexpectedType {
                got: idx.get_type().name().to_owned(),
                want: "int".to_owned(),
            });
        };
        usize::try_from(i)
            .ok()
            .and_then(|i| self.rows.get(i))
            .map(|r| CowVal::Borrowed(r as &dyn Val))
            .ok_or(ExecutionError::IndexOutOfBounds(Value::Int(i)))
    }
    fn steal<'v>(self: Box<Self>, idx: &dyn Val) -> Result<Box<dyn Val + 'v>, ExecutionError>
    where
        Self: 'v,
    {
        self.get(idx).map(CowVal::into_owned)
    }
}

struct SeatIter<'b, 'a> {
    rows: std::slice::Iter<'b, SeatRow<'a>>,
}

impl<'b, 'a: 'v, 'v> cel::common::traits::Iterator<'b, 'v> for SeatIter<'b, 'a> {
    fn next(&mut self) -> Option<&'b (dyn Val + 'v)> {
        self.rows.next().map(|r| r as &dyn Val)
    }
}

impl<'a> Iterable for SeatList<'a> {
    fn iter<'b, 'v>(&'b self) -> Box<dyn cel::common::traits::Iterator<'b, 'v> + 'b>
    where
        Self: 'v,
    {
        Box::new(SeatIter {
            rows: self.rows.iter(),
        })
    }
}

impl SeatRow<'_> {
    fn field(&self, name: &str) -> Option<i64> {
        if name == "seat" {
            return Some(self.seat);
        }
        let i = self.names.iter().position(|n| *n == name)?;
        Some(self.values.get(i).copied().unwrap_or(0))
    }
}

impl Val for SeatRow<'_> {
    fn get_type(&self) -> &Type {
        &MAP_TYPE
    }
    fn cel_type() -> &'static Type {
        &MAP_TYPE
    }
    fn as_indexer<'b, 'v>(&'b self) -> Option<&'b (dyn Indexer + 'v)>
    where
        Self: 'v,
    {
        Some(self)
    }
    fn as_sizer(&self) -> Option<&dyn Sizer> {
        Some(self)
    }
    fn as_container(&self) -> Option<&dyn Container> {
        Some(self)
    }
    /// Maps are equal when they have the same keys with equal values: compared through the
    /// map interface (size, then every key), so a seat also equals an equal map literal.
    fn equals(&self, other: &dyn Val) -> bool {
        let (Some(size), Some(index)) = (other.as_sizer(), other.as_indexer()) else {
            return false;
        };
        if *size.size().inner() != self.names.len() as i64 + 1 {
            return false;
        }
        std::iter::once(("seat", self.seat))
            .chain(self.names.iter().copied().zip(self.values.iter().copied()))
            .all(|(k, v)| {
                index
                    .get(&CelString::from(k))
                    .is_ok_and(|got| got.as_ref().equals(&CelInt::from(v)))
            })
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v>
    where
        Self: 'v,
    {
        Box::new(*self)
    }
}

impl Indexer for SeatRow<'_> {
    fn get<'b, 'v>(&'b self, idx: &dyn Val) -> Result<CowVal<'b, 'v>, ExecutionError>
    where
        Self: 'v,
    {
        let name =
            idx.downcast_ref::<CelString>()
                .ok_or_else(|| ExecutionError::UnexpectedType {
                    got: idx.get_type().name().to_owned(),
                    want: "string".to_owned(),
                })?;
        let name = name.inner();
        self.field(name)
            .map(|v| CowVal::owned(CelInt::from(v)))
            .ok_or_else(|| ExecutionError::no_such_key(name))
    }
    fn steal<'v>(self: Box<Self>, idx: &dyn Val) -> Result<Box<dyn Val + 'v>, ExecutionError>
    where
        Self: 'v,
    {
        self.get(idx).map(CowVal::into_owned)
    }
}

impl Sizer for SeatRow<'_> {
    /// `size(seats[0])`: the number of keys, `seat` included.
    fn size(&self) -> CelInt {
        CelInt::from(self.names.len() as i64 + 1)
    }
}

impl Container for SeatRow<'_> {
    /// `'gold' in seats[0]`: whether the seat has that key.
    fn contains(&self, key: &dyn Val) -> Result<bool, ExecutionError> {
        let name =
            key.downcast_ref::<CelString>()
                .ok_or_else(|| ExecutionError::UnexpectedType {
                    got: key.get_type().name().to_owned(),
                    want: "string".to_owned(),
                })?;
        Ok(self.field(name.inner()).is_some())
    }
}
