//! What a filter gives, as far as its text says: a filter must give true or false, and one that
//! visibly gives something else (`round`, `seats[0].gold + 1`, `phase`) is refused before any
//! position is read — an export must not find out on its first row, after its headers are sent.
//!
//! The inference is deliberately partial: it knows literals, the features (integers; `phase` a
//! string; `seats` a list), operators, `size`, the macros and the conditional. Anything else is
//! `Unknown` and left to the evaluator, which still refuses a non-boolean result per position.

use cel::common::ast::{Expr, IdedExpr, LiteralValue};
use rules_core::FeatureSchema;

/// The kind of value an expression gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    Int,
    Double,
    Str,
    Bytes,
    Null,
    List,
    Map,
    Unknown,
}

impl Kind {
    /// How an error names it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Bool => "a boolean",
            Kind::Int => "an integer",
            Kind::Double => "a number",
            Kind::Str => "a string",
            Kind::Bytes => "bytes",
            Kind::Null => "null",
            Kind::List => "a list",
            Kind::Map => "a map",
            Kind::Unknown => "a value of unknown type",
        }
    }
}

/// The kind `e` gives for a game with `schema`; macro variables are `Unknown` (`bound` names
/// them, innermost last).
pub fn kind_of(e: &IdedExpr, schema: &FeatureSchema, bound: &mut Vec<String>) -> Kind {
    match &e.expr {
        Expr::Literal(l) => match l {
            LiteralValue::Boolean(_) => Kind::Bool,
            LiteralValue::Int(_) | LiteralValue::UInt(_) => Kind::Int,
            LiteralValue::Double(_) => Kind::Double,
            LiteralValue::String(_) => Kind::Str,
            LiteralValue::Bytes(_) => Kind::Bytes,
            LiteralValue::Null => Kind::Null,
        },
        Expr::Ident(n) if bound.iter().any(|b| b == n) => Kind::Unknown,
        Expr::Ident(n) => match n.as_str() {
            "phase" => Kind::Str,
            "seats" => Kind::List,
            "ply" | "round" | "to_act" | "players" => Kind::Int,
            g if schema.global.contains(&g) => Kind::Int,
            _ => Kind::Unknown,
        },
        Expr::List(_) => Kind::List,
        Expr::Map(_) => Kind::Map,
        Expr::Select(s) if s.test => Kind::Bool,
        Expr::Select(s) => {
            // A seat's field (`seats[0].gold`, `s.viziers` over `seats`) is an integer; the
            // checker has already refused unknown seat fields.
            let from_seats = matches!(&s.operand.expr, Expr::Call(c)
                if c.func_name == "_[_]" && c.args.first().is_some_and(|a| matches!(&a.expr, Expr::Ident(n) if n == "seats")));
            if from_seats {
                Kind::Int
            } else {
                Kind::Unknown
            }
        }
        Expr::Call(c) => match c.func_name.as_str() {
            "_&&_"
            | "_||_"
            | "!_"
            | "_==_"
            | "_!=_"
            | "_<_"
            | "_<=_"
            | "_>_"
            | "_>=_"
            | "@in"
            | "contains"
            | "startsWith"
            | "endsWith"
            | "matches"
            | "@not_strictly_false" => Kind::Bool,
            "size" | "int" | "uint" => Kind::Int,
            "string" => Kind::Str,
            "double" => Kind::Double,
            "_+_" | "_-_" | "_*_" | "_/_" | "_%_" | "-_" => c
                .args
                .first()
                .map_or(Kind::Unknown, |a| kind_of(a, schema, bound)),
            "_?_:_" => {
                let a = c.args.get(1).map(|x| kind_of(x, schema, bound));
                let b = c.args.get(2).map(|x| kind_of(x, schema, bound));
                match (a, b) {
                    (Some(a), Some(b)) if a == b => a,
                    _ => Kind::Unknown,
                }
            }
            _ => Kind::Unknown,
        },
        Expr::Comprehension(c) => {
            // all/exists start from a boolean, map/filter from a list; exists_one compares.
            bound.push(c.iter_var.clone());
            bound.push(c.accu_var.clone());
            let k = match kind_of(&c.accu_init, schema, bound) {
                Kind::Bool => Kind::Bool,
                Kind::List => Kind::List,
                _ => kind_of(&c.result, schema, bound),
            };
            bound.truncate(bound.len() - 2);
            k
        }
        Expr::Struct(_) | Expr::Unspecified => Kind::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(src: &str) -> Kind {
        let schema = FeatureSchema {
            phases: &["bid", "turn"],
            global: &["bag"],
            seat: &["gold", "viziers"],
        };
        let p = cel::Program::compile(src).expect("compiles");
        kind_of(p.expression(), &schema, &mut Vec::new())
    }

    #[test]
    fn kinds_follow_the_text() {
        assert_eq!(kind("round"), Kind::Int);
        assert_eq!(kind("bag + 1"), Kind::Int);
        assert_eq!(kind("phase"), Kind::Str);
        assert_eq!(kind("seats"), Kind::List);
        assert_eq!(kind("seats[0].gold"), Kind::Int);
        assert_eq!(kind("seats.map(s, s.gold)"), Kind::List);
        assert_eq!(kind("size(seats)"), Kind::Int);
        assert_eq!(
            kind("round == 3 && seats.exists(s, s.viziers >= 5)"),
            Kind::Bool
        );
        assert_eq!(kind("seats.all(s, s.gold > 0)"), Kind::Bool);
        assert_eq!(kind("seats.exists_one(s, s.gold > 0)"), Kind::Bool);
        assert_eq!(kind("round > 2 ? true : false"), Kind::Bool);
        assert_eq!(kind("round > 2 ? 1 : 2"), Kind::Int);
        assert_eq!(kind("round > 2 ? 1 : true"), Kind::Unknown);
        assert_eq!(kind("seats.map(s, s.gold)[0]"), Kind::Unknown);
        assert_eq!(kind("round / (ply - ply) == 1"), Kind::Bool);
        assert_eq!(kind("phase > 3"), Kind::Bool);
        assert_eq!(kind("seats[9].gold > 1"), Kind::Bool);
        assert_eq!(kind("seats.map(s, s).exists(t, t.wealth > 3)"), Kind::Bool);
    }
}
