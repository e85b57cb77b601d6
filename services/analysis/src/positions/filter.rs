//! Position filters: a CEL expression compiled once per query and evaluated over each indexed
//! position without converting it to JSON or to CEL maps first.
//!
//! Why a variable resolver and hand-written `Val`s rather than `Context::add_variable`: binding
//! a position the ordinary way builds a `Value::Map` per seat (a hash map and a string per
//! feature) for every position scanned, which costs microseconds; the resolver answers a
//! variable only when the expression reads it, straight from the decoded integers, so a scan
//! runs at millions of positions per second.
//!
//! What an expression sees (all integers unless said otherwise):
//! - `ply`, `round`, `phase` (a string), `to_act` (the seat to act, -1 at chance or at the
//!   end), `players`;
//! - the game's global features by name (e.g. `bag`);
//! - `seats`, a list of one map per seat with `seat` and the game's seat features
//!   (`seats.exists(s, s.viziers >= 5)`, `seats[0].gold`, `size(seats)`).

use super::block::PositionRef;
use cel::common::ast::{EntryExpr, Expr, IdedExpr};
use cel::common::traits::{Indexer, Iterable, Sizer};
use cel::common::types::{CelInt, CelString, Type, LIST_TYPE, MAP_TYPE};
use cel::common::value::{CowVal, Val};
use cel::context::VariableResolver;
use cel::{Context, ExecutionError, Program, Value};
use rules_core::FeatureSchema;

/// Longest expression accepted, in bytes: an expression is a filter, not a program.
pub const MAX_LEN: usize = 2_000;
/// Deepest nesting of brackets and unary operators accepted. The parser and the evaluator
/// recurse once per level; the bound keeps them far from the end of a thread's stack.
pub const MAX_DEPTH: usize = 48;
/// Most seats a position can have (the index refuses more).
pub const MAX_SEATS: usize = 8;

/// Why an expression was refused or failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    /// The text is not CEL. `line` and `column` count from 1.
    #[error("syntax error at line {line}, column {column}: {message}")]
    Syntax {
        message: String,
        line: u32,
        column: u32,
    },
    #[error("expression too long: {len} bytes, at most {MAX_LEN}")]
    TooLong { len: usize },
    #[error("expression nested too deeply at column {column}: at most {MAX_DEPTH} levels")]
    TooDeep { column: u32 },
    /// A name that is neither a common feature nor one the game declares (`column` from 1).
    #[error("unknown feature `{name}` at column {column}; this game has: {known}")]
    UnknownFeature {
        name: String,
        column: u32,
        known: String,
    },
    /// The expression failed on a position (e.g. a division by zero, a missing seat field).
    #[error("evaluating at game {game}, ply {ply}: {message}")]
    Eval {
        message: String,
        game: String,
        ply: u32,
    },
    /// The expression gave something else than true or false.
    #[error("the expression must give true or false, it gave {got} (at game {game}, ply {ply})")]
    NotBoolean { got: String, game: String, ply: u32 },
}

impl FilterError {
    /// The column (from 1) the error points at, where it points at one.
    pub fn column(&self) -> Option<u32> {
        match self {
            FilterError::Syntax { column, .. }
            | FilterError::TooDeep { column }
            | FilterError::UnknownFeature { column, .. } => Some(*column),
            _ => None,
        }
    }

    pub fn line(&self) -> Option<u32> {
        match self {
            FilterError::Syntax { line, .. } => Some(*line),
            FilterError::TooDeep { .. } => Some(1),
            _ => None,
        }
    }
}

/// A compiled filter for one game kind's features.
pub struct Filter {
    program: Program,
    /// Top-level `feature <op> literal` terms, checked before the interpreter runs.
    guards: Vec<super::guard::Guard>,
    /// The root context (the standard library), built once; each position gets a child scope.
    root: Context<'static, 'static>,
    schema: FeatureSchema,
    source: String,
}

impl std::fmt::Debug for Filter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Filter")
            .field("source", &self.source)
            .finish()
    }
}

const COMMON: &[&str] = &["ply", "round", "phase", "to_act", "players", "seats"];

impl Filter {
    /// Compiles `source` for a game with `schema`, refusing what cannot run: syntax errors
    /// (with their column), over-long or over-deep text, names the game does not have.
    pub fn compile(source: &str, schema: FeatureSchema) -> Result<Filter, FilterError> {
        if source.len() > MAX_LEN {
            return Err(FilterError::TooLong { len: source.len() });
        }
        check_depth(source)?;
        let program = Program::compile(source).map_err(|e| {
            let first = e.errors.first();
            let (line, column) = first.map_or((1, 1), |p| (p.pos.0, p.pos.1));
            FilterError::Syntax {
                message: first.map_or_else(|| e.to_string(), |p| p.msg.clone()),
                line: u32::try_from(line.max(1)).unwrap_or(1),
                column: u32::try_from(column.max(1)).unwrap_or(1),
            }
        })?;
        let mut names = Names {
            schema: &schema,
            bound: Vec::new(),
            unknown: None,
        };
        names.walk(program.expression());
        if let Some((name, id)) = names.unknown {
            let column = program
                .source_info()
                .offset_for(id)
                .map_or(1, |(start, _)| column_of(source, start as usize));
            let mut all: Vec<&str> = COMMON.to_vec();
            all.extend(schema.global);
            let seat: Vec<String> = std::iter::once("seat")
                .chain(schema.seat.iter().copied())
                .map(|f| format!("seats[].{f}"))
                .collect();
            return Err(FilterError::UnknownFeature {
                name,
                column,
                known: format!("{}, {}", all.join(", "), seat.join(", ")),
            });
        }
        Ok(Filter {
            guards: super::guard::guards(program.expression(), &schema),
            program,
            root: Context::default(),
            schema,
            source: source.to_string(),
        })
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether the position passes. `game` names it in errors.
    pub fn matches(
        &self,
        pos: &PositionRef<'_>,
        game: &dyn Fn() -> String,
    ) -> Result<bool, FilterError> {
        if !self.guards.iter().all(|g| g.passes(pos)) {
            return Ok(false);
        }
        let resolver = Resolver::new(pos, &self.schema);
        let mut ctx = self.root.new_inner_scope();
        ctx.set_variable_resolver(&resolver);
        match self.program.execute(&ctx) {
            Ok(Value::Bool(b)) => Ok(b),
            Ok(other) => Err(FilterError::NotBoolean {
                got: format!("{other:?}"),
                game: game(),
                ply: pos.ply,
            }),
            Err(e) => Err(FilterError::Eval {
                message: describe(&e),
                game: game(),
                ply: pos.ply,
            }),
        }
    }
}

fn describe(e: &ExecutionError) -> String {
    match e {
        ExecutionError::NoSuchKey(k) => format!("no such feature: {k}"),
        other => other.to_string(),
    }
}

/// Refuses nesting deeper than [`MAX_DEPTH`]: brackets, and runs of unary `!` or `-`, each of
/// which the parser descends into.
fn check_depth(source: &str) -> Result<(), FilterError> {
    let (mut depth, mut unary) = (0usize, 0usize);
    let mut in_string: Option<char> = None;
    for (i, c) in source.chars().enumerate() {
        if let Some(q) = in_string {
            if c == q {
                in_string = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => in_string = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        unary = match c {
            '!' | '-' => unary + 1,
            c if c.is_whitespace() => unary,
            _ => 0,
        };
        if depth + unary > MAX_DEPTH {
            return Err(FilterError::TooDeep {
                column: u32::try_from(i + 1).unwrap_or(u32::MAX),
            });
        }
    }
    Ok(())
}

/// The 1-based column of byte `offset` within its line.
fn column_of(source: &str, offset: usize) -> u32 {
    let before = source.get(..offset).unwrap_or(source);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    u32::try_from(before[line_start..].chars().count() + 1).unwrap_or(u32::MAX)
}

/// Finds the first name an expression reads that the game does not have: a free identifier
/// that is no feature, or a field of a seat (`s.wealth` where `s` ranges over `seats`, or
/// `seats[0].wealth`) that is no seat feature. Comprehension variables are scoped as CEL
/// scopes them, so `seats.exists(x, …) && x > 1` is refused for the second `x`.
struct Names<'s> {
    schema: &'s FeatureSchema,
    /// Names bound here, and whether each ranges over `seats`.
    bound: Vec<(String, bool)>,
    unknown: Option<(String, u64)>,
}

impl Names<'_> {
    fn walk(&mut self, e: &IdedExpr) {
        if self.unknown.is_some() {
            return;
        }
        match &e.expr {
            Expr::Ident(name) => {
                let known = self.bound.iter().any(|(b, _)| b == name)
                    || COMMON.contains(&name.as_str())
                    || self.schema.global.contains(&name.as_str());
                if !known {
                    self.unknown = Some((name.clone(), e.id));
                }
            }
            Expr::Select(sel) => {
                if self.is_seat(&sel.operand)
                    && sel.field != "seat"
                    && !self.schema.seat.contains(&sel.field.as_str())
                {
                    self.unknown = Some((sel.field.clone(), e.id));
                    return;
                }
                self.walk(&sel.operand);
            }
            Expr::Call(call) => {
                if let Some(t) = &call.target {
                    self.walk(t);
                }
                call.args.iter().for_each(|a| self.walk(a));
            }
            Expr::Comprehension(c) => {
                self.walk(&c.iter_range);
                self.walk(&c.accu_init);
                let over_seats = matches!(&c.iter_range.expr, Expr::Ident(n) if n == "seats");
                let depth = self.bound.len();
                self.bound.push((c.iter_var.clone(), over_seats));
                if let Some(v) = &c.iter_var2 {
                    self.bound.push((v.clone(), false));
                }
                self.bound.push((c.accu_var.clone(), false));
                self.walk(&c.loop_cond);
                self.walk(&c.loop_step);
                self.walk(&c.result);
                self.bound.truncate(depth);
            }
            Expr::List(l) => l.elements.iter().for_each(|x| self.walk(x)),
            Expr::Map(m) => m.entries.iter().for_each(|x| self.walk_entry(&x.expr)),
            Expr::Struct(st) => st.entries.iter().for_each(|x| self.walk_entry(&x.expr)),
            Expr::Literal(_) | Expr::Unspecified => {}
        }
    }

    fn walk_entry(&mut self, e: &EntryExpr) {
        match e {
            EntryExpr::StructField(f) => self.walk(&f.value),
            EntryExpr::MapEntry(m) => {
                self.walk(&m.key);
                self.walk(&m.value);
            }
        }
    }

    /// Whether `e` is a seat: a variable ranging over `seats`, or `seats[i]`.
    fn is_seat(&self, e: &IdedExpr) -> bool {
        match &e.expr {
            Expr::Ident(n) => self
                .bound
                .iter()
                .rev()
                .find(|(b, _)| b == n)
                .is_some_and(|b| b.1),
            Expr::Call(c) => {
                c.func_name == "_[_]"
                    && matches!(c.args.first().map(|a| &a.expr), Some(Expr::Ident(n)) if n == "seats")
            }
            _ => false,
        }
    }
}

/// Answers the variables of one position.
struct Resolver<'a> {
    pos: &'a PositionRef<'a>,
    schema: &'a FeatureSchema,
    seats: SeatList<'a>,
}

impl<'a> Resolver<'a> {
    fn new(pos: &'a PositionRef<'a>, schema: &'a FeatureSchema) -> Self {
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
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v>
    where
        Self: 'v,
    {
        Box::new(self.clone())
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
        let i = idx
            .downcast_ref::<CelInt>()
            .ok_or_else(|| ExecutionError::UnexpectedType {
                got: idx.get_type().name().to_owned(),
                want: "int".to_owned(),
            })?;
        usize::try_from(*i.inner())
            .ok()
            .and_then(|i| self.rows.get(i))
            .map(|r| CowVal::Borrowed(r as &dyn Val))
            .ok_or_else(|| ExecutionError::IndexOutOfBounds(Value::Int(*i.inner())))
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
        if name == "seat" {
            return Ok(CowVal::owned(CelInt::from(self.seat)));
        }
        self.names
            .iter()
            .position(|n| *n == name)
            .map(|i| CowVal::owned(CelInt::from(self.values.get(i).copied().unwrap_or(0))))
            .ok_or_else(|| ExecutionError::no_such_key(name))
    }
    fn steal<'v>(self: Box<Self>, idx: &dyn Val) -> Result<Box<dyn Val + 'v>, ExecutionError>
    where
        Self: 'v,
    {
        self.get(idx).map(CowVal::into_owned)
    }
}
