//! Static checks of a parsed filter, before any position is read: every name exists, the
//! nesting is bounded, and so is the work one position can cost.
//!
//! Why bound the work: CEL has no loops, but its macros nest. `L.all(a, L.all(b, …))` over a
//! ten-element list runs 10^k inner tests per position, and `map` builds 10^k-element lists,
//! so a filter of a few hundred bytes could pin a server thread for days or exhaust memory.
//! A macro may therefore only range over something of known size — `seats` (at most
//! [`MAX_SEATS`]), a list or map literal, or a `map`/`filter` of those — and the sum over the
//! expression's nodes of how many times each runs per position is bounded by [`MAX_WORK`].

use super::filter::{MAX_DEPTH, MAX_SEATS};
use cel::common::ast::{EntryExpr, Expr, IdedExpr};
use rules_core::FeatureSchema;

/// Most node evaluations one position may cost.
pub const MAX_WORK: u64 = 5_000;

/// Names every filter may read besides the game's globals.
pub const COMMON: &[&str] = &["ply", "round", "phase", "to_act", "players", "seats"];

/// CEL's type names, which `type(x) == int` reads as identifiers.
const TYPE_NAMES: &[&str] = &[
    "int",
    "uint",
    "double",
    "bool",
    "string",
    "bytes",
    "list",
    "map",
    "null_type",
    "type",
    "dyn",
];

/// What a check refused, at the node with AST id `id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    Unknown { name: String, id: u64 },
    TooDeep { id: u64 },
    TooCostly { work: u64, id: u64 },
    UnboundedRange { id: u64 },
}

/// Checks `e` for a game with `schema`; returns the work per position (node evaluations).
pub fn check(e: &IdedExpr, schema: &FeatureSchema) -> Result<u64, Problem> {
    let mut c = Checker {
        schema,
        bound: Vec::new(),
        work: 0,
    };
    c.walk(e, 1, 1)?;
    Ok(c.work)
}

struct Checker<'s> {
    schema: &'s FeatureSchema,
    /// Names bound by enclosing macros, and whether each ranges over `seats`.
    bound: Vec<(String, bool)>,
    work: u64,
}

impl Checker<'_> {
    /// `times`: how often this node runs per position; `depth`: its nesting.
    fn walk(&mut self, e: &IdedExpr, times: u64, depth: usize) -> Result<(), Problem> {
        if depth > MAX_DEPTH {
            return Err(Problem::TooDeep { id: e.id });
        }
        self.work = self.work.saturating_add(times);
        if self.work > MAX_WORK {
            return Err(Problem::TooCostly {
                work: self.work,
                id: e.id,
            });
        }
        let d = depth + 1;
        match &e.expr {
            Expr::Ident(name) => {
                let known = self.bound.iter().any(|(b, _)| b == name)
                    || COMMON.contains(&name.as_str())
                    || TYPE_NAMES.contains(&name.as_str())
                    || self.schema.global.contains(&name.as_str());
                if !known {
                    return Err(Problem::Unknown {
                        name: name.clone(),
                        id: e.id,
                    });
                }
            }
            Expr::Select(sel) => {
                if self.is_seat(&sel.operand)
                    && sel.field != "seat"
                    && !self.schema.seat.contains(&sel.field.as_str())
                {
                    return Err(Problem::Unknown {
                        name: sel.field.clone(),
                        id: e.id,
                    });
                }
                self.walk(&sel.operand, times, d)?;
            }
            Expr::Call(call) => {
                if let Some(t) = &call.target {
                    self.walk(t, times, d)?;
                }
                for a in &call.args {
                    self.walk(a, times, d)?;
                }
            }
            Expr::Comprehension(c) => {
                self.walk(&c.iter_range, times, d)?;
                self.walk(&c.accu_init, times, d)?;
                let n = self
                    .range_size(&c.iter_range)
                    .ok_or(Problem::UnboundedRange {
                        id: c.iter_range.id,
                    })?;
                let inner = times.saturating_mul(n.max(1));
                let over_seats = self.names_seats(&c.iter_range);
                let depth_before = self.bound.len();
                self.bound.push((c.iter_var.clone(), over_seats));
                if let Some(v) = &c.iter_var2 {
                    self.bound.push((v.clone(), false));
                }
                self.bound.push((c.accu_var.clone(), false));
                let r = self
                    .walk(&c.loop_cond, inner, d)
                    .and_then(|_| self.walk(&c.loop_step, inner, d))
                    .and_then(|_| self.walk(&c.result, times, d));
                self.bound.truncate(depth_before);
                r?;
            }
            Expr::List(l) => {
                for x in &l.elements {
                    self.walk(x, times, d)?;
                }
            }
            Expr::Map(m) => {
                for x in &m.entries {
                    self.walk_entry(&x.expr, times, d)?;
                }
            }
            Expr::Struct(st) => {
                for x in &st.entries {
                    self.walk_entry(&x.expr, times, d)?;
                }
            }
            Expr::Literal(_) | Expr::Unspecified => {}
        }
        Ok(())
    }

    fn walk_entry(&mut self, e: &EntryExpr, times: u64, depth: usize) -> Result<(), Problem> {
        match e {
            EntryExpr::StructField(f) => self.walk(&f.value, times, depth),
            EntryExpr::MapEntry(m) => {
                self.walk(&m.key, times, depth)?;
                self.walk(&m.value, times, depth)
            }
        }
    }

    /// How many elements a macro's range can have, when that is known without running it.
    fn range_size(&self, e: &IdedExpr) -> Option<u64> {
        match &e.expr {
            Expr::Ident(n) if self.names_seats(e) => {
                let _ = n;
                Some(MAX_SEATS as u64)
            }
            Expr::List(l) => Some(l.elements.len() as u64),
            Expr::Map(m) => Some(m.entries.len() as u64),
            // `map` and `filter` give at most as many elements as they range over.
            Expr::Comprehension(c) => self.range_size(&c.iter_range),
            _ => None,
        }
    }

    /// Whether `e` is the `seats` list itself (not shadowed by a macro variable).
    fn names_seats(&self, e: &IdedExpr) -> bool {
        matches!(&e.expr, Expr::Ident(n) if n == "seats" && !self.bound.iter().any(|(b, _)| b == n))
    }

    /// Whether `e` is one seat: a variable ranging over `seats`, or `seats[i]`.
    fn is_seat(&self, e: &IdedExpr) -> bool {
        match &e.expr {
            Expr::Ident(n) => self
                .bound
                .iter()
                .rev()
                .find(|(b, _)| b == n)
                .is_some_and(|b| b.1),
            Expr::Call(c) => {
                c.func_name == "_[_]" && c.args.first().is_some_and(|a| self.names_seats(a))
            }
            _ => false,
        }
    }
}
