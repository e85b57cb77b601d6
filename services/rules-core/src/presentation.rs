//! How a game shows itself to people and programs: the JSON Schema of its view, the static
//! geometry a viewer needs to draw it (its layout), and each entry in words.
//!
//! The view's JSON Schema is the contract of the typed API: the GraphQL service builds the
//! game's GraphQL types from it, the viewer reads the JSON it describes, and a test validates
//! every position of every sample game against it. So a view follows the conventions written
//! in `schema/views/README.md`: camelCase keys, objects rather than tuples or maps with
//! open-ended keys, enum values as lowercase slugs, a hidden value `null` (or a count), never a
//! placeholder string.
//!
//! Every method has a default, so a game implements what it has; the service shows what there
//! is (a game without a view schema has no typed board, only its JSON view).

use crate::game::Game;
use crate::ids::Seat;
use crate::notation::Notation;

pub trait Presentation: Game + Notation {
    /// The JSON Schema (draft 2020-12, as `schemars` writes it) of what `view` returns.
    fn view_schema() -> serde_json::Value {
        serde_json::Value::Null
    }

    /// What a viewer needs to draw a game with these options and is not in any view: the
    /// board's shape, tracks, spaces, with a `reconstructed` flag on every item that is not
    /// verified against a public source.
    fn layout(_options: &Self::Options) -> serde_json::Value {
        serde_json::Value::Null
    }

    /// The JSON Schema of `layout`'s output.
    fn layout_schema() -> serde_json::Value {
        serde_json::Value::Null
    }

    /// A seat's move in words, in English, as the position before it explains it ("Seat 2
    /// picks up 4 meeples on c3 and drops …").
    fn describe_move(_state: &Self::State, seat: Seat, m: &Self::Move) -> String {
        format!("Seat {} plays {}", seat.0, Self::format_move(m))
    }

    /// A chance outcome in words. `visible`: whether the viewer may know the outcome; when not,
    /// the words say what happened without what came out ("the dealer deals seat 1 two cards").
    fn describe_chance(_state: &Self::State, c: &Self::Chance, visible: bool) -> String {
        if visible {
            format!("The dealer: {}", Self::format_chance(c))
        } else {
            "The dealer deals (hidden)".to_string()
        }
    }
}
