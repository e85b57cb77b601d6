//! Position filters: a CEL expression compiled once per query, checked before any position is
//! read (names, nesting, work per position: `check`), then evaluated over each indexed
//! position: first the cheap native guards (`guard`), then the expression compiled over the
//! block's columns (`compiled`), and where that does not cover the expression or cannot decide
//! a position, the CEL interpreter through a variable resolver that reads the position's
//! integers in place (`values`).
//!
//! What an expression sees (all integers unless said otherwise):
//! - `ply`, `round`, `phase` (a string), `to_act` (the seat to act, -1 at chance or at the
//!   end), `players`;
//! - the game's global features by name (e.g. `bag`);
//! - `seats`, a list of one map per seat with `seat` and the game's seat features
//!   (`seats.exists(s, s.viziers >= 5)`, `seats[0].gold`, `size(seats)`).

use super::block::PositionRef;
use super::check::{check, Problem, COMMON, MAX_WORK};
use super::columns::{BlockView, Rows};
use super::compiled::{Columns, Compiled};
use super::typing::Kind;
use super::values::Resolver;
use cel::{Context, ExecutionError, Program, Value};
use rules_core::FeatureSchema;

/// Longest expression accepted, in bytes: an expression is a filter, not a program.
pub const MAX_LEN: usize = 2_000;
/// Deepest nesting of the parsed expression accepted. The evaluator (and the drop of the tree)
/// recurses once per level; 600 levels were seen to fit a 2 MiB thread, the size of the
/// server's blocking threads, so 256 keeps well clear of the end of the stack. Bracketed
/// nesting never gets this deep — the parser refuses more than 96 levels of its grammar as a
/// syntax error — but a flat chain (`1 + 1 + …`, `a && b && …`) is one level per operator.
pub const MAX_DEPTH: usize = 256;
/// Most seats a position can have (the index refuses more).
pub const MAX_SEATS: usize = 8;

/// Why an expression was refused or failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    /// The text is not CEL. `line` and `column` count from 1; `message` says in words what
    /// was expected and what was found there (`syntax`).
    #[error("Syntax error at line {line}, column {column}: {message}")]
    Syntax {
        message: String,
        line: u32,
        column: u32,
    },
    #[error("expression too long: {len} bytes, at most {MAX_LEN}")]
    TooLong { len: usize },
    #[error(
        "expression nested too deeply at line {line}, column {column}: at most {MAX_DEPTH} levels"
    )]
    TooDeep { line: u32, column: u32 },
    /// A name that is neither a common feature nor one the game declares.
    #[error("unknown feature `{name}` at line {line}, column {column}; this game has: {known}")]
    UnknownFeature {
        name: String,
        line: u32,
        column: u32,
        known: String,
    },
    /// Nested macros that would cost too much per position.
    #[error("expression too costly at line {line}, column {column}: {work} evaluations per position, at most {MAX_WORK}")]
    TooCostly { work: u64, line: u32, column: u32 },
    /// A macro over something whose size is not known before running it.
    #[error("at line {line}, column {column}: a macro may range over `seats`, a list or map literal, or a map/filter of those")]
    UnboundedRange { line: u32, column: u32 },
    /// The expression failed on a position (e.g. a division by zero, a missing seat field).
    #[error("evaluating at game {game}, ply {ply}: {message}")]
    Eval {
        message: String,
        game: String,
        ply: u32,
    },
    /// The expression visibly gives something else than true or false (`round`, `phase`).
    #[error(
        "the expression must give true or false, but it gives {got} (line {line}, column {column})"
    )]
    NotBooleanFilter {
        got: &'static str,
        line: u32,
        column: u32,
    },
    /// The expression gave something else than true or false.
    #[error("the expression must give true or false, it gave {got} (at game {game}, ply {ply})")]
    NotBoolean { got: String, game: String, ply: u32 },
}

impl FilterError {
    /// The column (from 1) the error points at, where it points at one.
    pub fn column(&self) -> Option<u32> {
        self.place().map(|p| p.1)
    }

    pub fn line(&self) -> Option<u32> {
        self.place().map(|p| p.0)
    }

    /// (line, column) from 1, where the error points at a place in the text.
    fn place(&self) -> Option<(u32, u32)> {
        match self {
            FilterError::Syntax { line, column, .. }
            | FilterError::TooDeep { line, column }
            | FilterError::UnknownFeature { line, column, .. }
            | FilterError::TooCostly { line, column, .. }
            | FilterError::UnboundedRange { line, column }
            | FilterError::NotBooleanFilter { line, column, .. } => Some((*line, *column)),
            _ => None,
        }
    }
}

/// A compiled filter for one game kind's features.
pub struct Filter {
    program: Program,
    /// Node evaluations one position costs at most (see `check`).
    work: u64,
    /// Top-level `feature <op> literal` terms, checked before the interpreter runs.
    guards: Vec<super::guard::Guard>,
    /// The expression over columns, where the compiler covers it.
    compiled: Option<Compiled>,
    /// The columns the guards read (widened whole), then the other columns the compiled
    /// expression reads: fixed ones, and seat features (of every seat).
    guard_columns: Vec<usize>,
    fixed: Vec<usize>,
    seat_features: Vec<usize>,
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

impl Filter {
    /// Compiles `source` for a game with `schema`, refusing what cannot run: syntax errors
    /// (with their column), over-long or over-deep text, names the game does not have.
    pub fn compile(source: &str, schema: FeatureSchema) -> Result<Filter, FilterError> {
        if source.len() > MAX_LEN {
            return Err(FilterError::TooLong { len: source.len() });
        }
        let program = Program::compile(source).map_err(|e| {
            let first = e.errors.first();
            let (line, column) = first.map_or((1, 1), |p| (p.pos.0, p.pos.1));
            let line = u32::try_from(line.max(1)).unwrap_or(1);
            let column = u32::try_from(column.max(1)).unwrap_or(1);
            FilterError::Syntax {
                message: first.map_or_else(
                    || "not a CEL expression".to_string(),
                    |p| super::syntax::in_words(source, line, column, &p.msg),
                ),
                line,
                column,
            }
        })?;
        let at = |id: u64| {
            program
                .source_info()
                .offset_for(id)
                .map_or((1, 1), |(start, _)| line_column(source, start as usize))
        };
        let work = check(program.expression(), &schema).map_err(|p| match p {
            Problem::Unknown { name, id } => {
                let (line, column) = at(id);
                let mut all: Vec<&str> = COMMON.to_vec();
                all.extend(schema.global);
                let seat: Vec<String> = std::iter::once("seat")
                    .chain(schema.seat.iter().copied())
                    .map(|f| format!("seats[].{f}"))
                    .collect();
                FilterError::UnknownFeature {
                    name,
                    line,
                    column,
                    known: format!("{}, {}", all.join(", "), seat.join(", ")),
                }
            }
            Problem::TooDeep { id } => {
                let (line, column) = at(id);
                FilterError::TooDeep { line, column }
            }
            Problem::TooCostly { work, id } => {
                let (line, column) = at(id);
                FilterError::TooCostly { work, line, column }
            }
            Problem::UnboundedRange { id } => {
                let (line, column) = at(id);
                FilterError::UnboundedRange { line, column }
            }
        })?;
        let gives = super::typing::kind_of(program.expression(), &schema, &mut Vec::new());
        if !matches!(gives, Kind::Bool | Kind::Unknown) {
            let (line, column) = at(program.expression().id);
            return Err(FilterError::NotBooleanFilter {
                got: gives.name(),
                line,
                column,
            });
        }
        let guards = super::guard::guards(program.expression(), &schema);
        let compiled = Compiled::compile(program.expression(), &schema);
        let mut guard_columns: Vec<usize> = guards.iter().filter_map(|g| g.column()).collect();
        guard_columns.sort_unstable();
        guard_columns.dedup();
        let mut fixed = Vec::new();
        let mut seat_features = Vec::new();
        if let Some(c) = &compiled {
            fixed.extend(c.fixed_columns());
            seat_features.extend(c.seat_features());
        }
        fixed.retain(|c| !guard_columns.contains(c));
        fixed.sort_unstable();
        fixed.dedup();
        Ok(Filter {
            work,
            guards,
            compiled,
            guard_columns,
            fixed,
            seat_features,
            program,
            root: Context::default(),
            schema,
            source: source.to_string(),
        })
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// Node evaluations one position costs at most: scans divide their budget by it.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Whether the compiler covers the expression (the interpreter then runs only where a
    /// compiled answer is unknown: an overflow, a division by zero, a seat out of range).
    pub fn is_compiled(&self) -> bool {
        self.compiled.is_some()
    }

    /// Reads from `view` the columns this filter needs, before [`Filter::matches_at`], and
    /// returns the rows that can match: from the first to the last that passes the guards
    /// (every row without guards). The guards' columns are widened whole, the others only over
    /// those rows: `round == 3` keeps a tenth of a game, and the scan reads only that tenth.
    pub fn prepare(&self, view: &BlockView<'_>, scratch: &mut Scratch) -> std::ops::Range<u32> {
        scratch.begin();
        for &c in &self.guard_columns {
            scratch.cols.load_whole(view, c);
        }
        let (cols, players) = (&scratch.cols, view.players);
        let pass = |r: &usize| self.guards.iter().all(|g| g.passes_at(cols, players, *r));
        let rows = view.rows;
        let lo = (0..rows).find(pass).unwrap_or(rows);
        let hi = (lo..rows).rev().find(pass).map_or(lo, |r| r + 1);
        if lo < hi {
            let shape = (self.schema.global.len(), self.schema.seat.len());
            let fixed = &self.fixed;
            scratch
                .cols
                .load(view, fixed, &self.seat_features, shape, lo..hi);
        }
        lo as u32..hi as u32
    }

    /// Whether position `ply` of `view` passes; [`Filter::prepare`] read `view` into
    /// `scratch`. `game` names the game in errors. Guards first, then the compiled
    /// expression, then the interpreter where the compiled one cannot decide.
    pub fn matches_at(
        &self,
        view: &BlockView<'_>,
        ply: u32,
        scratch: &mut Scratch,
        game: &dyn Fn() -> String,
    ) -> Result<bool, FilterError> {
        let row = ply as usize;
        let players = view.players;
        if !self
            .guards
            .iter()
            .all(|g| g.passes_at(&scratch.cols, players, row))
        {
            return Ok(false);
        }
        if let Some(c) = &self.compiled {
            if let Ok(b) = c.eval(&scratch.cols, players, row) {
                return Ok(b);
            }
        }
        let schema = self.schema;
        let pos = scratch
            .position(view, &schema, ply)
            .ok_or_else(|| FilterError::Eval {
                message: "the block does not fit the game's features".into(),
                game: game(),
                ply,
            })?;
        self.interpret(&pos, game)
    }

    /// Whether the position passes, by guards and the interpreter (row-wise callers).
    /// `game` names it in errors.
    pub fn matches(
        &self,
        pos: &PositionRef<'_>,
        game: &dyn Fn() -> String,
    ) -> Result<bool, FilterError> {
        if !self.guards.iter().all(|g| g.passes(pos)) {
            return Ok(false);
        }
        self.interpret(pos, game)
    }

    /// The CEL interpreter's answer alone: no guard, no compiled expression (the reference
    /// the fast paths are tested against).
    pub fn interpret(
        &self,
        pos: &PositionRef<'_>,
        game: &dyn Fn() -> String,
    ) -> Result<bool, FilterError> {
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

/// What a scan reuses from block to block: the columns a filter reads, and the reader of
/// whole rows (for the interpreter and the output).
#[derive(Debug, Default)]
pub struct Scratch {
    cols: Columns,
    rows: Rows,
    /// Whether `rows` has begun the current block.
    rows_ready: bool,
}

impl Scratch {
    /// Starts a new block (before [`Filter::prepare`] and [`Scratch::position`]).
    pub fn begin(&mut self) {
        self.rows_ready = false;
    }

    /// Position `ply` of `view`, whole.
    pub fn position(
        &mut self,
        view: &BlockView<'_>,
        schema: &FeatureSchema,
        ply: u32,
    ) -> Option<PositionRef<'_>> {
        if !self.rows_ready {
            self.rows.begin(view);
            self.rows_ready = true;
        }
        self.rows.position(view, schema, ply)
    }
}

fn describe(e: &ExecutionError) -> String {
    match e {
        ExecutionError::NoSuchKey(k) => format!("no such feature: {k}"),
        other => other.to_string(),
    }
}

/// The line and column (from 1) of byte `offset`.
fn line_column(source: &str, offset: usize) -> (u32, u32) {
    let before = source.get(..offset).unwrap_or(source);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}
