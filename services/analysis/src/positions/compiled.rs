//! Filters compiled to a typed tree evaluated over a block's columns, without the CEL
//! interpreter: integers stay integers, names are column numbers, `seats.exists(s, …)` is a
//! loop over seat numbers.
//!
//! What compiles: integer and boolean literals; `ply`, `round`, `to_act`, `players` and the
//! game's globals; `phase == "…"` and `!=`; `+ - * / %` and unary `-` on integers;
//! comparisons; `&& || !` and `?:`; `size(seats)`, `seats[i].feature`; `exists`, `all` and
//! `exists_one` over `seats` with `s.seat` and `s.feature` inside (nested too). Anything else
//! (strings beyond the phase, doubles, uints, lists, `map`, `filter`, `has`, `in`, functions)
//! leaves the whole filter to the interpreter.
//!
//! Why a compiled answer always equals the interpreter's: the tree only answers where the
//! interpreter's answer is certain. Every operation that can fail in CEL (overflow, division
//! by zero, a seat out of range) gives [`Unknown`] here, and a position with an unknown answer
//! is handed to the interpreter, which gives the answer or the error with its message. `&&`
//! and `||` absorb an unknown beside a deciding side, as CEL does (`false && error` is false
//! either way round); `exists` and `all` likewise over their elements, as the interpreter's
//! comprehensions do. A property test checks both agree on random filters.

use cel::common::ast::{ComprehensionExpr, Expr, IdedExpr, LiteralValue};
use rules_core::FeatureSchema;

use super::block::LEAD;
use super::guard::Cmp;

/// An answer the tree cannot give: the interpreter decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unknown;

type R<T> = Result<T, Unknown>;

#[derive(Debug, Clone)]
enum Int {
    Lit(i64),
    /// A column read at the row: round (0), to_act (2), a global (LEAD + i).
    Col(usize),
    Ply,
    Players,
    /// The seat number bound by the macro `depth` levels in.
    SeatOf(usize),
    /// Feature `f` of the seat bound at `depth`.
    SeatFeature {
        depth: usize,
        f: usize,
    },
    /// Feature `f` of the seat an expression names (`seats[i].f`).
    IndexedFeature {
        seat: Box<Int>,
        f: usize,
    },
    Neg(Box<Int>),
    Bin(Arith, Box<Int>, Box<Int>),
    Cond(Box<Bool>, Box<Int>, Box<Int>),
}

#[derive(Debug, Clone, Copy)]
enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Debug, Clone)]
enum Bool {
    Lit(bool),
    Cmp(Cmp, Box<Int>, Box<Int>),
    /// `==` (or `!=` when `ne`) of two booleans.
    Same(bool, Box<Bool>, Box<Bool>),
    /// `phase == "…"`: the phase's index in the schema, `None` for a name the game does not
    /// have (never equal); `ne` for `!=`.
    Phase {
        index: Option<i64>,
        ne: bool,
    },
    Not(Box<Bool>),
    And(Box<Bool>, Box<Bool>),
    Or(Box<Bool>, Box<Bool>),
    Cond(Box<Bool>, Box<Bool>, Box<Bool>),
    Exists(Box<Bool>),
    All(Box<Bool>),
    ExistsOne(Box<Bool>),
}

/// A filter compiled over columns.
#[derive(Debug, Clone)]
pub struct Compiled {
    root: Bool,
    /// The fixed columns the tree reads (round, phase, to_act, globals).
    fixed: Vec<usize>,
    /// The seat features the tree reads (of every seat).
    seat_features: Vec<usize>,
    globals: usize,
    seat_width: usize,
    phases: i64,
}

/// The columns of one block a filter reads, widened; the rest stay empty.
#[derive(Debug, Default)]
pub struct Columns {
    pub(super) cols: Vec<Vec<i64>>,
}

impl Columns {
    /// Widens from `view`, over rows `span`, the `fixed` columns and the `seat_features` of
    /// every seat, for a schema with `globals` global and `seat_width` seat features (the rows
    /// outside `span` read as zeros: see [`super::columns::BlockView::decode_span`]).
    pub fn load(
        &mut self,
        view: &super::columns::BlockView<'_>,
        fixed: &[usize],
        seat_features: &[usize],
        (globals, seat_width): (usize, usize),
        span: std::ops::Range<usize>,
    ) {
        let base = LEAD + globals;
        let seats = (0..usize::from(view.players)).flat_map(|seat| {
            seat_features
                .iter()
                .map(move |f| base + seat * seat_width + f)
        });
        for c in fixed.iter().copied().chain(seats) {
            if let Some(col) = self.column_mut(view, c) {
                view.decode_span(c, span.clone(), col);
            }
        }
    }

    /// Column `c` of `view` widened whole.
    pub fn load_whole(&mut self, view: &super::columns::BlockView<'_>, c: usize) {
        if let Some(col) = self.column_mut(view, c) {
            view.decode(c, col);
        }
    }

    /// The vector column `c` is widened into, if `view` has that column.
    fn column_mut(
        &mut self,
        view: &super::columns::BlockView<'_>,
        c: usize,
    ) -> Option<&mut Vec<i64>> {
        let n = view.columns();
        if c >= n {
            return None;
        }
        if self.cols.len() < n {
            self.cols.resize_with(n, Vec::new);
        }
        self.cols.get_mut(c)
    }

    /// The value of column `c` at `row`, if loaded.
    pub fn get(&self, c: usize, row: usize) -> Option<i64> {
        self.cols.get(c)?.get(row).copied()
    }
}

/// One row being evaluated.
struct At<'c> {
    cols: &'c [Vec<i64>],
    row: usize,
    players: i64,
    base: usize,
    width: usize,
    phases: i64,
    /// Seats bound by the enclosing macros, innermost last.
    bound: [i64; MAX_DEPTH_BOUND],
}

/// Deepest nesting of seat macros compiled (deeper filters are interpreted).
const MAX_DEPTH_BOUND: usize = 8;

impl Compiled {
    /// Compiles `e` for `schema`, or `None` if it uses what this compiler does not cover.
    pub fn compile(e: &IdedExpr, schema: &FeatureSchema) -> Option<Compiled> {
        let mut c = Compiler {
            schema,
            bound: Vec::new(),
            fixed: Vec::new(),
            seat_features: Vec::new(),
        };
        let root = c.boolean(e)?;
        Some(Compiled {
            root,
            fixed: c.fixed,
            seat_features: c.seat_features,
            globals: schema.global.len(),
            seat_width: schema.seat.len(),
            phases: schema.phases.len() as i64,
        })
    }

    /// The fixed columns (round 0, phase 1, to_act 2, globals from 3) the tree reads.
    pub fn fixed_columns(&self) -> &[usize] {
        &self.fixed
    }

    /// The seat features (indices into the schema's) the tree reads, of every seat.
    pub fn seat_features(&self) -> &[usize] {
        &self.seat_features
    }

    /// The answer at `row` (its ply) of a block with `players` seats whose columns
    /// [`Compiled::load`] put in `cols`.
    pub fn eval(&self, cols: &Columns, players: u8, row: usize) -> R<bool> {
        let at = At {
            cols: &cols.cols,
            row,
            players: i64::from(players),
            base: LEAD + self.globals,
            width: self.seat_width,
            phases: self.phases,
            bound: [0; MAX_DEPTH_BOUND],
        };
        let mut at = at;
        at.bool(&self.root, 0)
    }
}

impl At<'_> {
    fn col(&self, c: usize) -> R<i64> {
        self.cols
            .get(c)
            .and_then(|v| v.get(self.row))
            .copied()
            .ok_or(Unknown)
    }

    fn seat_col(&self, seat: i64, f: usize) -> R<i64> {
        if seat < 0 || seat >= self.players {
            return Err(Unknown);
        }
        self.col(self.base + seat as usize * self.width + f)
    }

    fn int(&mut self, e: &Int, depth: usize) -> R<i64> {
        match e {
            Int::Lit(v) => Ok(*v),
            Int::Col(c) => self.col(*c),
            Int::Ply => Ok(self.row as i64),
            Int::Players => Ok(self.players),
            Int::SeatOf(d) => Ok(self.bound[*d]),
            Int::SeatFeature { depth: d, f } => self.seat_col(self.bound[*d], *f),
            Int::IndexedFeature { seat, f } => {
                let s = self.int(seat, depth)?;
                self.seat_col(s, *f)
            }
            Int::Neg(a) => self.int(a, depth)?.checked_neg().ok_or(Unknown),
            Int::Bin(op, a, b) => {
                let (a, b) = (self.int(a, depth)?, self.int(b, depth)?);
                match op {
                    Arith::Add => a.checked_add(b),
                    Arith::Sub => a.checked_sub(b),
                    Arith::Mul => a.checked_mul(b),
                    Arith::Div => a.checked_div(b),
                    Arith::Rem => a.checked_rem(b),
                }
                .ok_or(Unknown)
            }
            Int::Cond(c, a, b) => {
                if self.bool(c, depth)? {
                    self.int(a, depth)
                } else {
                    self.int(b, depth)
                }
            }
        }
    }

    fn bool(&mut self, e: &Bool, depth: usize) -> R<bool> {
        match e {
            Bool::Lit(b) => Ok(*b),
            Bool::Cmp(op, a, b) => {
                let (a, b) = (self.int(a, depth)?, self.int(b, depth)?);
                Ok(op.holds(a, b))
            }
            Bool::Same(ne, a, b) => Ok((self.bool(a, depth)? == self.bool(b, depth)?) != *ne),
            Bool::Phase { index, ne } => {
                // A phase the schema does not name reads as "unknown" to the interpreter.
                let here = self.col(1)?;
                if !(0..self.phases).contains(&here) {
                    return Err(Unknown);
                }
                Ok((Some(here) == *index) != *ne)
            }
            Bool::Not(a) => Ok(!self.bool(a, depth)?),
            Bool::And(a, b) => match self.bool(a, depth) {
                Ok(false) => Ok(false),
                left => match (left, self.bool(b, depth)) {
                    (_, Ok(false)) => Ok(false),
                    (Ok(true), Ok(true)) => Ok(true),
                    _ => Err(Unknown),
                },
            },
            Bool::Or(a, b) => match self.bool(a, depth) {
                Ok(true) => Ok(true),
                left => match (left, self.bool(b, depth)) {
                    (_, Ok(true)) => Ok(true),
                    (Ok(false), Ok(false)) => Ok(false),
                    _ => Err(Unknown),
                },
            },
            Bool::Cond(c, a, b) => {
                if self.bool(c, depth)? {
                    self.bool(a, depth)
                } else {
                    self.bool(b, depth)
                }
            }
            Bool::Exists(body) | Bool::All(body) => {
                let decisive = matches!(e, Bool::Exists(_));
                let mut unknown = false;
                for seat in 0..self.players {
                    self.bound[depth] = seat;
                    match self.bool(body, depth + 1) {
                        Ok(b) if b == decisive => return Ok(decisive),
                        Ok(_) => {}
                        Err(Unknown) => unknown = true,
                    }
                }
                if unknown {
                    Err(Unknown)
                } else {
                    Ok(!decisive)
                }
            }
            Bool::ExistsOne(body) => {
                let mut n = 0;
                for seat in 0..self.players {
                    self.bound[depth] = seat;
                    n += i32::from(self.bool(body, depth + 1)?);
                }
                Ok(n == 1)
            }
        }
    }
}

struct Compiler<'s> {
    schema: &'s FeatureSchema,
    /// Names bound by the enclosing seat macros, innermost last.
    bound: Vec<String>,
    fixed: Vec<usize>,
    seat_features: Vec<usize>,
}

fn call(e: &IdedExpr) -> Option<(&str, &[IdedExpr])> {
    match &e.expr {
        Expr::Call(c) if c.target.is_none() => Some((c.func_name.as_str(), c.args.as_slice())),
        _ => None,
    }
}

fn is_ident(e: &IdedExpr, name: &str) -> bool {
    matches!(&e.expr, Expr::Ident(n) if n == name)
}

impl Compiler<'_> {
    fn read(&mut self, c: usize) -> Int {
        if !self.fixed.contains(&c) {
            self.fixed.push(c);
        }
        Int::Col(c)
    }

    fn seat_feature(&mut self, name: &str) -> Option<usize> {
        let f = self.schema.seat.iter().position(|s| *s == name)?;
        if !self.seat_features.contains(&f) {
            self.seat_features.push(f);
        }
        Some(f)
    }

    /// `seats`, unless a macro has bound that name.
    fn is_seats(&self, e: &IdedExpr) -> bool {
        is_ident(e, "seats") && !self.bound.iter().any(|b| b == "seats")
    }

    fn int(&mut self, e: &IdedExpr) -> Option<Int> {
        match &e.expr {
            Expr::Literal(LiteralValue::Int(i)) => Some(Int::Lit(*i.inner())),
            Expr::Ident(name) => {
                if self.bound.iter().any(|b| b == name) {
                    return None; // a seat used as a number
                }
                Some(match name.as_str() {
                    "ply" => Int::Ply,
                    "round" => self.read(0),
                    "to_act" => self.read(2),
                    "players" => Int::Players,
                    other => {
                        let i = self.schema.global.iter().position(|g| *g == other)?;
                        self.read(LEAD + i)
                    }
                })
            }
            Expr::Select(sel) if !sel.test => {
                let field = sel.field.as_str();
                // `s.feature` of a seat a macro bound…
                if let Expr::Ident(var) = &sel.operand.expr {
                    let depth = self.bound.iter().rposition(|b| b == var)?;
                    if field == "seat" {
                        return Some(Int::SeatOf(depth));
                    }
                    let f = self.seat_feature(field)?;
                    return Some(Int::SeatFeature { depth, f });
                }
                // …or `seats[i].feature`.
                let (name, args) = call(&sel.operand)?;
                if name != "_[_]" || args.len() != 2 || !self.is_seats(&args[0]) {
                    return None;
                }
                let seat = Box::new(self.int(&args[1])?);
                if field == "seat" {
                    return None;
                }
                let f = self.seat_feature(field)?;
                Some(Int::IndexedFeature { seat, f })
            }
            Expr::Call(c) => {
                let args = c.args.as_slice();
                match (&c.target, c.func_name.as_str(), args) {
                    (None, "size", [a]) if self.is_seats(a) => Some(Int::Players),
                    (Some(t), "size", []) if self.is_seats(t) => Some(Int::Players),
                    (None, "-_", [a]) => Some(Int::Neg(Box::new(self.int(a)?))),
                    (None, "_?_:_", [c, a, b]) => Some(Int::Cond(
                        Box::new(self.boolean(c)?),
                        Box::new(self.int(a)?),
                        Box::new(self.int(b)?),
                    )),
                    (None, op, [a, b]) => {
                        let op = match op {
                            "_+_" => Arith::Add,
                            "_-_" => Arith::Sub,
                            "_*_" => Arith::Mul,
                            "_/_" => Arith::Div,
                            "_%_" => Arith::Rem,
                            _ => return None,
                        };
                        Some(Int::Bin(op, Box::new(self.int(a)?), Box::new(self.int(b)?)))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn boolean(&mut self, e: &IdedExpr) -> Option<Bool> {
        match &e.expr {
            Expr::Literal(LiteralValue::Boolean(b)) => Some(Bool::Lit(*b.inner())),
            Expr::Comprehension(c) => self.macro_over_seats(c),
            Expr::Call(_) => {
                let (name, args) = call(e)?;
                match (name, args) {
                    ("!_", [a]) => Some(Bool::Not(Box::new(self.boolean(a)?))),
                    ("_&&_", [a, b]) => Some(Bool::And(
                        Box::new(self.boolean(a)?),
                        Box::new(self.boolean(b)?),
                    )),
                    ("_||_", [a, b]) => Some(Bool::Or(
                        Box::new(self.boolean(a)?),
                        Box::new(self.boolean(b)?),
                    )),
                    ("_?_:_", [c, a, b]) => Some(Bool::Cond(
                        Box::new(self.boolean(c)?),
                        Box::new(self.boolean(a)?),
                        Box::new(self.boolean(b)?),
                    )),
                    (op @ ("_==_" | "_!=_"), [a, b]) => {
                        let ne = op == "_!=_";
                        if let Some(p) = self.phase_test(a, b).or_else(|| self.phase_test(b, a)) {
                            return Some(Bool::Phase { index: p, ne });
                        }
                        if let (Some(x), Some(y)) = (self.int(a), self.int(b)) {
                            let cmp = if ne { Cmp::Ne } else { Cmp::Eq };
                            return Some(Bool::Cmp(cmp, Box::new(x), Box::new(y)));
                        }
                        Some(Bool::Same(
                            ne,
                            Box::new(self.boolean(a)?),
                            Box::new(self.boolean(b)?),
                        ))
                    }
                    (op, [a, b]) => {
                        // (`==` and `!=` were matched above.)
                        let cmp = Cmp::of_cel(op)?;
                        Some(Bool::Cmp(
                            cmp,
                            Box::new(self.int(a)?),
                            Box::new(self.int(b)?),
                        ))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `phase` against a string literal: `Some(index)` (`Some(None)` for a phase the game
    /// does not have), or `None` if `a`/`b` are not that.
    fn phase_test(&mut self, a: &IdedExpr, b: &IdedExpr) -> Option<Option<i64>> {
        if !is_ident(a, "phase") || self.bound.iter().any(|n| n == "phase") {
            return None;
        }
        let Expr::Literal(LiteralValue::String(s)) = &b.expr else {
            return None;
        };
        let s: &str = s.inner();
        if !self.fixed.contains(&1) {
            self.fixed.push(1);
        }
        Some(
            self.schema
                .phases
                .iter()
                .position(|p| *p == s)
                .map(|i| i as i64),
        )
    }

    /// `seats.exists(s, …)`, `seats.all(s, …)`, `seats.exists_one(s, …)`, recognised by the
    /// shape the parser expands them to.
    fn macro_over_seats(&mut self, c: &ComprehensionExpr) -> Option<Bool> {
        if !self.is_seats(&c.iter_range)
            || c.iter_var2.is_some()
            || c.accu_var != "@result"
            || self.bound.len() >= MAX_DEPTH_BOUND
        {
            return None;
        }
        let init = match &c.accu_init.expr {
            Expr::Literal(LiteralValue::Boolean(b)) => Some(*b.inner()),
            Expr::Literal(LiteralValue::Int(i)) if *i.inner() == 0 => None,
            _ => return None,
        };
        let (step, args) = call(&c.loop_step)?;
        let body = match (init, step, args) {
            (Some(false), "_||_", [acc, body]) | (Some(true), "_&&_", [acc, body])
                if is_ident(acc, "@result") && is_ident(&c.result, "@result") =>
            {
                body
            }
            (None, "_?_:_", [body, _, acc]) if is_ident(acc, "@result") => body,
            _ => return None,
        };
        self.bound.push(c.iter_var.clone());
        let compiled = self.boolean(body);
        self.bound.pop();
        let compiled = Box::new(compiled?);
        Some(match init {
            Some(false) => Bool::Exists(compiled),
            Some(true) => Bool::All(compiled),
            None => Bool::ExistsOne(compiled),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: FeatureSchema = FeatureSchema {
        phases: &["deal", "turn"],
        global: &["bag"],
        seat: &["gold", "viziers"],
    };

    fn compiles(src: &str) -> bool {
        let p = cel::Program::compile(src).unwrap();
        Compiled::compile(p.expression(), &SCHEMA).is_some()
    }

    #[test]
    fn what_compiles_and_what_is_left_to_the_interpreter() {
        for src in [
            "round == 3 && seats.exists(s, s.viziers >= 5)",
            "phase == \"turn\" || phase != \"nope\"",
            "seats.all(a, seats.exists(b, a.gold >= b.gold - 1))",
            "seats.exists_one(s, s.seat == to_act)",
            "size(seats) == 4 && seats[3].gold % 2 == 0",
            "(ply > 10 ? bag : -bag) < 5 == true",
        ] {
            assert!(compiles(src), "{src}");
        }
        for src in [
            "round == 3.0",
            "round == 3u",
            "phase.startsWith(\"t\")",
            "seats.map(s, s.gold).exists(g, g > 1)",
            "has(seats[0].gold)",
            "round in [1, 2]",
            "seats.exists(s, s == seats[0])",
        ] {
            assert!(!compiles(src), "{src}");
        }
    }
}
