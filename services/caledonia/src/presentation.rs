//! How Clans of Caledonia shows itself (`rules_core::Presentation`): the JSON Schemas of its
//! view and layout (generated from the Rust types, so they cannot drift from the JSON), the
//! layout of a game with given options ([`crate::layout`]) and each entry in words
//! ([`describe`]).

mod describe;

use crate::layout::{layout, Layout};
use crate::moves::{Chance, Move};
use crate::state::{Options, State};
use crate::view::View;
use crate::Caledonia;
use rules_core::Seat;
use serde_json::Value;

impl rules_core::Presentation for Caledonia {
    fn view_schema() -> Value {
        serde_json::to_value(schemars::schema_for!(View)).unwrap_or(Value::Null)
    }

    /// Both sides of every module, hex by hex: the deal picks the sides, and each view names
    /// them (see [`crate::layout`]).
    fn layout(options: &Options) -> Value {
        serde_json::to_value(layout(options)).unwrap_or(Value::Null)
    }

    fn layout_schema() -> Value {
        serde_json::to_value(schemars::schema_for!(Layout)).unwrap_or(Value::Null)
    }

    fn describe_move(state: &State, seat: Seat, m: &Move) -> String {
        describe::describe_move(state, seat.0, m)
    }

    /// A hidden building-bonus draw says who drew how many, not what.
    fn describe_chance(state: &State, c: &Chance, visible: bool) -> String {
        describe::describe_chance(state, c, visible)
    }
}
