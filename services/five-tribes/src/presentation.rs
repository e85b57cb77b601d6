//! How Five Tribes shows itself ([`rules_core::Presentation`]): the JSON Schema of its view
//! and of its layout, generated from their Rust types (`view`, `layout`), the layout itself
//! (static geometry from `data/five-tribes/`), and every entry in words (`describe`).

mod describe;
pub mod layout;

use crate::{Chance, FiveTribes, Move, Options, State, View};
use rules_core::Seat;

pub use describe::{describe_chance, describe_move};
pub use layout::Layout;

fn schema_value(s: schemars::Schema) -> serde_json::Value {
    s.to_value()
}

impl rules_core::Presentation for FiveTribes {
    fn view_schema() -> serde_json::Value {
        schema_value(schemars::schema_for!(View))
    }

    /// `null` for a player count the game does not have (options are checked before a game
    /// exists, so only a caller that skipped that sees it).
    fn layout(options: &Options) -> serde_json::Value {
        layout::layout(options.players)
            .and_then(|l| serde_json::to_value(l).ok())
            .unwrap_or(serde_json::Value::Null)
    }

    fn layout_schema() -> serde_json::Value {
        schema_value(schemars::schema_for!(Layout))
    }

    fn describe_move(state: &State, seat: Seat, m: &Move) -> String {
        describe::describe_move(state, seat.0, m)
    }

    fn describe_chance(state: &State, c: &Chance, visible: bool) -> String {
        describe::describe_chance(state, c, visible)
    }
}
