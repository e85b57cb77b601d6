//! Guards: the comparisons of an integer feature with a literal found among a filter's
//! top-level `&&` terms (`round == 3 && …`), checked natively before the CEL interpreter runs.
//!
//! Why this is exact, not a heuristic: in CEL, `false && x` is `false` whatever `x` is, even an
//! error, and `&&` is commutative in that respect; so a position where one top-level term is
//! false fails the whole filter, and skipping the interpreter there changes no answer. Most
//! filters name a round, a ply or a phase-like number, and most positions fail that term: the
//! interpreter then runs only on the few that pass it.

use super::block::PositionRef;
use cel::common::ast::{Expr, IdedExpr, LiteralValue};
use rules_core::FeatureSchema;

/// An integer a guard reads from a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Var {
    Ply,
    Round,
    ToAct,
    Players,
    Global(usize),
}

/// A CEL integer comparison, shared by the guards and the compiled tree (`compiled.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    /// The comparison a CEL operator names (`_<=_`), if it is one.
    pub(super) fn of_cel(name: &str) -> Option<Cmp> {
        Some(match name {
            "_==_" => Cmp::Eq,
            "_!=_" => Cmp::Ne,
            "_<_" => Cmp::Lt,
            "_<=_" => Cmp::Le,
            "_>_" => Cmp::Gt,
            "_>=_" => Cmp::Ge,
            _ => return None,
        })
    }

    pub(super) fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }

    /// The same comparison with its sides swapped (`3 < x` is `x > 3`).
    fn flip(self) -> Cmp {
        match self {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
            same => same,
        }
    }
}

/// One `feature <op> literal` term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Guard {
    var: Var,
    op: Cmp,
    value: i64,
}

impl Guard {
    /// Whether the position passes this term.
    pub fn passes(&self, p: &PositionRef<'_>) -> bool {
        let x = match self.var {
            Var::Ply => i64::from(p.ply),
            Var::Round => p.round,
            Var::ToAct => p.to_act,
            Var::Players => i64::from(p.players),
            Var::Global(i) => p.global.get(i).copied().unwrap_or(0),
        };
        self.holds(x)
    }

    /// The column the term reads (round 0, to_act 2, a global from 3), if any.
    pub fn column(&self) -> Option<usize> {
        match self.var {
            Var::Round => Some(0),
            Var::ToAct => Some(2),
            Var::Global(i) => Some(super::block::LEAD + i),
            Var::Ply | Var::Players => None,
        }
    }

    /// Whether the position at `row` of a block of `players` seats passes, its columns loaded
    /// in `cols` (see [`Guard::column`]).
    pub fn passes_at(&self, cols: &super::compiled::Columns, players: u8, row: usize) -> bool {
        let x = match self.var {
            Var::Ply => row as i64,
            Var::Players => i64::from(players),
            _ => self.column().and_then(|c| cols.get(c, row)).unwrap_or(0),
        };
        self.holds(x)
    }

    fn holds(&self, x: i64) -> bool {
        self.op.holds(x, self.value)
    }
}

/// The guards among the top-level `&&` terms of `e`.
pub fn guards(e: &IdedExpr, schema: &FeatureSchema) -> Vec<Guard> {
    let mut out = Vec::new();
    collect(e, schema, &mut out);
    out
}

fn collect(e: &IdedExpr, schema: &FeatureSchema, out: &mut Vec<Guard>) {
    let Expr::Call(call) = &e.expr else {
        return;
    };
    if call.target.is_some() {
        return;
    }
    if call.func_name == "_&&_" {
        call.args.iter().for_each(|a| collect(a, schema, out));
        return;
    }
    let Some(op) = Cmp::of_cel(&call.func_name) else {
        return;
    };
    let [a, b] = call.args.as_slice() else {
        return;
    };
    // `round == 3`, or `3 == round` with the comparison turned around.
    let (var, value, op) = match (var_of(a, schema), int_of(b), var_of(b, schema), int_of(a)) {
        (Some(v), Some(n), _, _) => (v, n, op),
        (_, _, Some(v), Some(n)) => (v, n, op.flip()),
        _ => return,
    };
    out.push(Guard { var, op, value });
}

fn var_of(e: &IdedExpr, schema: &FeatureSchema) -> Option<Var> {
    let Expr::Ident(name) = &e.expr else {
        return None;
    };
    Some(match name.as_str() {
        "ply" => Var::Ply,
        "round" => Var::Round,
        "to_act" => Var::ToAct,
        "players" => Var::Players,
        other => Var::Global(schema.global.iter().position(|g| *g == other)?),
    })
}

fn int_of(e: &IdedExpr) -> Option<i64> {
    match &e.expr {
        Expr::Literal(LiteralValue::Int(i)) => Some(*i.inner()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: FeatureSchema = FeatureSchema {
        phases: &["p"],
        global: &["bag"],
        seat: &["gold"],
    };

    fn of(src: &str) -> Vec<Guard> {
        guards(cel::Program::compile(src).unwrap().expression(), &SCHEMA)
    }

    #[test]
    fn top_level_comparisons_with_literals_become_guards() {
        assert_eq!(of("round == 3 && seats.exists(s, s.gold > 1)").len(), 1);
        assert_eq!(of("round == 3 && (ply > 10 && 4 >= bag)").len(), 3);
        let g = of("5 < ply")[0];
        assert_eq!((g.var, g.op, g.value), (Var::Ply, Cmp::Gt, 5));
        // Not guards: under `||` or `!`, a seat feature, a non-literal, a double.
        for src in [
            "round == 3 || ply == 1",
            "!(round == 3)",
            "seats[0].gold == 1",
            "round == ply",
            "round == 3.0",
        ] {
            assert!(of(src).is_empty(), "{src}");
        }
    }
}
