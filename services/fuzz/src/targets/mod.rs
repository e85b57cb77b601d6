//! The fuzz targets, by name, and how to build each.
//!
//! - `notation-<game>`: arbitrary text as an entry at positions of random games;
//! - `reducer-<game>`: scripts walking a game with mutated legal moves;
//! - `import`: mutated game records through the store's importer;
//! - `filter`: mutated CEL position filters, compiled and evaluated;
//! - `graphql`: whole GraphQL requests against the in-process schema;
//! - `graphql-shapes`: documents of hostile shape (fragment graphs, repeated fields) built
//!   from a program, against the same schema, the guard's field limit checked by an oracle.
//!
//! `<game>` is `five-tribes`, `caledonia` or `mombasa`.

pub mod check;
pub mod filter;
pub mod graphql;
pub mod import;
pub mod notation;
pub mod reducer;
pub mod shapes;

use crate::target::Target;
use rules_core::GameKind;

/// Every target's name, in the order `ops/fuzz.sh` runs them.
pub const NAMES: &[&str] = &[
    "notation-five-tribes",
    "notation-caledonia",
    "notation-mombasa",
    "reducer-five-tribes",
    "reducer-caledonia",
    "reducer-mombasa",
    "import",
    "filter",
    "graphql",
    "graphql-shapes",
];

/// Why a target could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("no target `{0}` (targets: {names})", names = NAMES.join(", "))]
    Unknown(String),
    #[error(transparent)]
    Import(#[from] import::SetupError),
    #[error(transparent)]
    Graphql(#[from] graphql::SetupError),
}

fn kind_of(slug: &str) -> Option<GameKind> {
    GameKind::ALL
        .into_iter()
        .find(|k| crate::games::slug(*k) == slug)
}

/// Builds the target `name`; `seed` chooses its random games.
pub fn build(name: &str, seed: u64) -> Result<Box<dyn Target>, BuildError> {
    if let Some(kind) = name.strip_prefix("notation-").and_then(kind_of) {
        return Ok(Box::new(notation::Notation::new(kind, seed)));
    }
    if let Some(kind) = name.strip_prefix("reducer-").and_then(kind_of) {
        return Ok(Box::new(reducer::Reducer::new(kind, seed)));
    }
    match name {
        "import" => Ok(Box::new(import::Import::new()?)),
        "filter" => Ok(Box::new(filter::FilterTarget::new())),
        "graphql" => Ok(Box::new(graphql::Graphql::new()?)),
        "graphql-shapes" => Ok(Box::new(shapes::Shapes::new()?)),
        _ => Err(BuildError::Unknown(name.to_string())),
    }
}
