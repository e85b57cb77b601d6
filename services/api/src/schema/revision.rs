//! Correcting a finished game's record (`correctGame`): by the admin only, as a new revision
//! (`store::revision` decides what a correction may change); every earlier revision stays
//! readable through `Game.revisions` and `game(id:, revision:)`.

use super::{app, blocking, caller, parse_id};
use crate::error::ApiError;
use crate::objects::revision::Revision;
use crate::objects::Game;
use async_graphql::{Context, InputObject, Object, Result, SimpleObject, ID};
use chrono::Utc;
use std::sync::atomic::Ordering;
use store::journal::Author;
use store::revision::Correction;

#[derive(Default)]
pub struct RevisionMutation;

/// One entry to correct.
#[derive(InputObject)]
pub struct CorrectionInput {
    /// The entry, numbered as everywhere: entry n turns position n − 1 into position n.
    pub ply: i32,
    /// Its text as it should have been recorded, in the game's notation.
    pub notation: String,
}

/// What a correction made.
#[derive(SimpleObject)]
pub struct CorrectionResult {
    /// The game at its new (latest) revision.
    pub game: Game,
    /// The new revision.
    pub revision: Revision,
}

#[Object]
impl RevisionMutation {
    /// Corrects a finished game's record (a mistyped score sheet) as a new revision, with the
    /// admin token: the named entries get their new text, and the corrected record must
    /// replay under the game's rules to its end, at the same length (else
    /// `CORRECTION_REFUSED`, naming the entry; `GAME_ACTIVE` for a game still being played).
    /// A game dealt by the store's seed keeps its dealer's entries. Statistics, ratings and
    /// position queries follow the latest revision; every earlier one stays readable and
    /// replays (`Game.revisions`, `game(id:, revision:)`). Refused whole, writing nothing.
    async fn correct_game(
        &self,
        ctx: &Context<'_>,
        game_id: ID,
        corrections: Vec<CorrectionInput>,
        reason: String,
    ) -> Result<CorrectionResult> {
        let app = app(ctx);
        if !caller(ctx).is_admin(app.config.admin_token.as_deref()) {
            return Err(ApiError::Unauthorized("correctGame needs the admin token".into()).into());
        }
        let id = parse_id(&game_id)?;
        if corrections.len() > store::revision::MAX_CHANGES {
            return Err(ApiError::BadInput(format!(
                "a correction changes 1 to {} entries",
                store::revision::MAX_CHANGES
            ))
            .into());
        }
        let changes = corrections
            .into_iter()
            .map(|c| match u32::try_from(c.ply) {
                Ok(n) if n >= 1 => Ok((n - 1, c.notation)),
                _ => Err(ApiError::BadInput(format!(
                    "entry {}: entries count from 1 (entry n leads to position n)",
                    c.ply
                ))),
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        let correction = Correction {
            game: id,
            by: Author::Admin,
            at: Utc::now(),
            changes,
            reason,
        };
        crate::objects::journal::forget(ctx, id);
        let done = blocking(app, move |s| Ok(s.correct(correction)?)).await;
        // After the store has it (or may have it: a failure to sync comes after sled took the
        // writes): no answer read before it is served from the cache after.
        app.corrections.fetch_add(1, Ordering::SeqCst);
        let done = done?;
        let revision = store::revision::revisions(std::slice::from_ref(&done.note))
            .pop()
            .ok_or_else(|| ApiError::Internal("the correction just written is missing".into()))?;
        Ok(CorrectionResult {
            game: Game::new(done.header),
            revision: Revision {
                game: id,
                inner: revision,
            },
        })
    }
}
