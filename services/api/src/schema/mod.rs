//! The GraphQL schema's roots: `Query` (`query.rs`), `Mutation` (`mutation.rs`, `journal.rs`) and
//! `Subscription` (`subscription.rs`); the objects they return are in `objects`.
//!
//! Every store call runs on the blocking pool (`spawn_blocking`): sled is synchronous and must
//! never stall the async runtime. Whose eyes a position is seen through is decided in one
//! place, `perspective::viewer`.

mod journal;
mod mutation;
mod query;
mod revision;
mod subscription;

pub use journal::{JournalMutation, TakebackResult};
pub use mutation::{CreatedGame, GameMutation, PlayResult};
pub(crate) use query::{games_filter, list_games};
pub use query::{Node, Query, StatsFilterInput};
pub use revision::{CorrectionResult, RevisionMutation};
pub use subscription::Subscription;

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::App;
use async_graphql::{Context, Schema};
use std::sync::Arc;
use store::{GameId, GameLog};

pub type LudologSchema = Schema<Query, Mutation, Subscription>;

/// Every mutation: games and moves (`mutation.rs`), and the journal — takebacks, annotations,
/// studies (`journal.rs`).
#[derive(async_graphql::MergedObject, Default)]
pub struct Mutation(GameMutation, JournalMutation, RevisionMutation);

pub(crate) fn app<'a>(ctx: &Context<'a>) -> &'a Arc<App> {
    ctx.data_unchecked::<Arc<App>>()
}

pub(crate) fn caller<'a>(ctx: &Context<'a>) -> Caller {
    ctx.data_opt::<Caller>().cloned().unwrap_or_default()
}

/// Runs a store call on the blocking pool.
pub async fn blocking<T: Send + 'static>(
    app: &Arc<App>,
    f: impl FnOnce(&dyn GameLog) -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    let store = app.store.clone();
    tokio::task::spawn_blocking(move || f(&*store))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
}

/// A game id from its text; a malformed one is a `BAD_INPUT` error saying what an id is.
pub(crate) fn parse_id(id: &str) -> ApiResult<GameId> {
    id.parse::<GameId>().map_err(|_| {
        ApiError::BadInput(format!(
            "`{}` is not a game id (13 characters of lower-case Crockford base32, e.g. 036vpvam00000)",
            id.chars().take(40).collect::<String>()
        ))
    })
}

pub(crate) fn page(app: &App, first: Option<i32>) -> ApiResult<usize> {
    let n = first.unwrap_or(20);
    if n < 0 || n as usize > app.config.max_page {
        return Err(ApiError::LimitExceeded(format!(
            "page size is 0 to {}, not {n}",
            app.config.max_page
        )));
    }
    Ok(n as usize)
}
