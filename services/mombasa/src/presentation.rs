//! How Mombasa shows itself ([`rules_core::Presentation`]): the JSON Schema of its view, the
//! layout a viewer draws the board from (with its schema), and every entry in words.
//!
//! Schemas are generated from the Rust types (`schemars`), so the view, its schema and the
//! typed API cannot drift apart; `tests/presentation.rs` validates every position of every
//! sample game against the view schema and holds both schemas to the shapes
//! `schema/views/README.md` lists. How to draw the game: `schema/views/mombasa.md`.

mod describe;
mod geometry;
mod layout;

pub use describe::{card_words, company_name, describe_hidden_move};
pub use geometry::{Line, Point, Rect};
pub use layout::{layout, Layout};

use crate::{Chance, Mombasa, Move, Options, State, View};
use rules_core::{Presentation, Seat};

/// A type's JSON Schema as a JSON value.
fn schema_of<T: schemars::JsonSchema>() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(T)).unwrap_or(serde_json::Value::Null)
}

impl Presentation for Mombasa {
    fn view_schema() -> serde_json::Value {
        schema_of::<View>()
    }

    /// The layout for the options' player count (the round track's coins depend on it); the
    /// track sides a game plays with are in its view (`companies[].side`).
    fn layout(options: &Options) -> serde_json::Value {
        serde_json::to_value(layout(options.players)).unwrap_or(serde_json::Value::Null)
    }

    fn layout_schema() -> serde_json::Value {
        schema_of::<Layout>()
    }

    fn describe_move(state: &State, seat: Seat, m: &Move) -> String {
        describe::describe_move(state, seat, m)
    }

    fn describe_chance(state: &State, c: &Chance, visible: bool) -> String {
        describe::describe_chance(state, c, visible)
    }
}
