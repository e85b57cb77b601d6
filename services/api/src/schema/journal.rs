//! The journal's mutations: takebacks (asked, answered), annotations, studies. Who may do
//! what is decided here; what a request writes, by `store::journal` (the same for every
//! backend).

use super::{app, blocking, caller, parse_id};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::objects::journal::{self as shown, Annotation, Takeback};
use crate::objects::Game;
use crate::App;
use async_graphql::{Context, InputObject, Object, Result, SimpleObject, ID};
use chrono::Utc;
use std::sync::Arc;
use store::journal::{Author, Glyph, NewNote, NoteRequest};
use store::study::{Study, StudyId, StudyItem};
use store::Header;

#[derive(Default)]
pub struct JournalMutation;

/// What a takeback request or answer did.
#[derive(SimpleObject)]
pub struct TakebackResult {
    /// The game after it (its `plies` shorter when the takeback was carried out).
    pub game: Game,
    /// The request, as it now stands.
    pub takeback: Takeback,
}

/// One moment of a new study.
#[derive(InputObject)]
pub struct StudyItemInput {
    pub game_id: ID,
    /// The position: 0 is the start, n the position after entry n.
    pub ply: u32,
    #[graphql(default)]
    pub comment: String,
    /// Moves played from `ply` on the analysis board (`Position.explore`'s `moves`, chance
    /// typed in or `*`): kept with the moment, on a finished game only, and checked to play.
    #[graphql(default)]
    pub branch: Vec<String>,
}

/// Who the caller is in `game`, for the journal: its recorder, one of its seats, an analyst
/// (a configured annotation token), or the admin.
pub(crate) fn author(app: &App, c: &Caller, game: Option<&Header>) -> Option<Author> {
    if let Some(h) = game {
        if c.is_recorder(h) {
            return Some(Author::Recorder);
        }
        if let Some(s) = c.seat_in(h) {
            return Some(Author::Seat(s));
        }
    }
    if let Some(name) = c.analyst(&app.config.annotators) {
        return Some(Author::Analyst(name));
    }
    c.is_admin(app.config.admin_token.as_deref())
        .then_some(Author::Admin)
}

async fn note(
    ctx: &Context<'_>,
    game: store::GameId,
    by: Author,
    request: NoteRequest,
) -> Result<store::journal::Noted, ApiError> {
    let app = app(ctx);
    // What this request read of the journal before is out of date once it is written to.
    shown::forget(ctx, game);
    let noted = blocking(app, move |s| {
        Ok(s.write_note(NewNote {
            game,
            by,
            at: Utc::now(),
            request,
        })?)
    })
    .await?;
    app.hub.publish(game, noted.header.plies);
    // A takeback carried out may leave a bot to act.
    app.bots.wake(&noted.header);
    Ok(noted)
}

async fn takeback_result(
    app: &Arc<App>,
    noted: store::journal::Noted,
    request: u32,
) -> Result<TakebackResult> {
    let id = noted.header.id;
    let notes = blocking(app, move |s| Ok(s.journal(id)?)).await?;
    let takeback = shown::takebacks(&notes)
        .into_iter()
        .find(|t| t.request == request)
        .ok_or_else(|| ApiError::Internal("the request just written is missing".into()))?;
    Ok(TakebackResult {
        game: Game::new(noted.header),
        takeback,
    })
}

#[Object]
impl JournalMutation {
    /// Asks to take the line back to `toPly` entries (position `toPly` becomes the latest),
    /// with a seat's token or the recorder's. The recorder's is carried out at once; a seat's
    /// waits on every other seat (or the recorder) to accept (`answerTakeback`); the server's
    /// bot seats accept at once. Refused
    /// (`TAKEBACK_REFUSED`) when it would withdraw a chance entry — a deal, draw, refill or
    /// reveal, after which someone knows something — or nothing, or when the game is over or
    /// another request is open.
    async fn ask_takeback(
        &self,
        ctx: &Context<'_>,
        game_id: ID,
        to_ply: i32,
    ) -> Result<TakebackResult> {
        let app = app(ctx);
        let id = parse_id(&game_id)?;
        let to_ply = u32::try_from(to_ply).map_err(|_| {
            ApiError::BadInput(format!(
                "toPly {to_ply} is before the start: positions count from 0"
            ))
        })?;
        let header = blocking(app, move |s| Ok(s.header(id)?)).await?;
        let by = match author(app, &caller(ctx), Some(&header)) {
            Some(a @ (Author::Seat(_) | Author::Recorder)) => a,
            _ => {
                return Err(ApiError::Unauthorized(
                    "askTakeback needs a seat's token or the recorder's".into(),
                )
                .into())
            }
        };
        let asker = match &by {
            Author::Seat(s) => Some(*s),
            _ => None,
        };
        // The server's bots accept at once (a bot does not mind), in the same write as the
        // ask: a takeback in a game against bots waits only on the people asked, and no bot's
        // move or crash can come between the ask and their answers.
        let accepted_by = match asker {
            Some(asker) => crate::bots::bot_seats(&header)
                .into_iter()
                .map(|(seat, _)| seat)
                .filter(|s| *s != asker)
                .collect(),
            None => Vec::new(),
        };
        let noted = note(
            ctx,
            id,
            by,
            NoteRequest::AskTakeback {
                to_ply,
                accepted_by,
            },
        )
        .await?;
        let request = noted.notes.first().map_or(0, |n| n.seq);
        takeback_result(app, noted, request).await
    }

    /// Accepts or refuses takeback request `request`: each seat it asks (every seat but the
    /// one asking) answers with its token, or the recorder answers for the table. One refusal
    /// closes it (the asker may refuse its own request, to take it back); the last acceptance
    /// carries it out. `NOT_ASKED` for anyone else, or a closed
    /// request.
    async fn answer_takeback(
        &self,
        ctx: &Context<'_>,
        game_id: ID,
        request: i32,
        accept: bool,
    ) -> Result<TakebackResult> {
        let app = app(ctx);
        let id = parse_id(&game_id)?;
        let request = u32::try_from(request)
            .map_err(|_| ApiError::BadInput(format!("no takeback request {request}")))?;
        let header = blocking(app, move |s| Ok(s.header(id)?)).await?;
        let by = match author(app, &caller(ctx), Some(&header)) {
            Some(a @ (Author::Seat(_) | Author::Recorder)) => a,
            _ => {
                return Err(ApiError::Unauthorized(
                    "answerTakeback needs a seat's token or the recorder's".into(),
                )
                .into())
            }
        };
        let noted = note(ctx, id, by, NoteRequest::AnswerTakeback { request, accept }).await?;
        takeback_result(app, noted, request).await
    }

    /// Writes a comment and/or a glyph (`!`, `?`, `!!`, `??`, `!?`, `?!`) on position `ply`
    /// (0: the start). By the game's seats or recorder, an analyst (an annotation token the
    /// server was given), or the admin. A public game's annotations are public.
    async fn annotate(
        &self,
        ctx: &Context<'_>,
        game_id: ID,
        ply: i32,
        glyph: Option<String>,
        #[graphql(default)] comment: String,
    ) -> Result<Annotation> {
        let app = app(ctx);
        let id = parse_id(&game_id)?;
        let ply = u32::try_from(ply)
            .map_err(|_| ApiError::BadInput(format!("ply {ply}: positions count from 0")))?;
        let glyph = glyph
            .map(|g| {
                Glyph::parse(&g).ok_or_else(|| {
                    ApiError::BadInput(format!(
                        "glyph `{}`: one of ! ? !! ?? !? ?!",
                        g.chars().take(8).collect::<String>()
                    ))
                })
            })
            .transpose()?;
        let header = blocking(app, move |s| Ok(s.header(id)?)).await?;
        let by = author(app, &caller(ctx), Some(&header)).ok_or_else(|| {
            ApiError::Unauthorized(
                "annotate needs a seat's or the recorder's token of this game, an annotation token, or the admin token"
                    .into(),
            )
        })?;
        let noted = note(
            ctx,
            id,
            by,
            NoteRequest::Annotate {
                ply,
                glyph,
                comment,
            },
        )
        .await?;
        let notes = noted.notes;
        shown::annotations(&notes, true).pop().ok_or_else(|| {
            ApiError::Internal("the annotation just written is missing".into()).into()
        })
    }

    /// Makes a study: a named, ordered set of moments (game, ply, comment), with its own id
    /// and page (`/study/<id>`). By an analyst (annotation token) or the admin. Every moment
    /// must be a position of a stored game.
    async fn create_study(
        &self,
        ctx: &Context<'_>,
        name: String,
        items: Vec<StudyItemInput>,
    ) -> Result<crate::objects::StudyObject> {
        let app = app(ctx);
        let by = match author(app, &caller(ctx), None) {
            Some(a @ (Author::Analyst(_) | Author::Admin)) => a,
            _ => {
                return Err(ApiError::Unauthorized(
                    "createStudy needs an annotation token or the admin token".into(),
                )
                .into())
            }
        };
        if items.len() > store::study::MAX_ITEMS {
            return Err(ApiError::BadInput(format!(
                "a study holds 1 to {} moments",
                store::study::MAX_ITEMS
            ))
            .into());
        }
        let items = items
            .into_iter()
            .map(|i| {
                Ok(StudyItem {
                    game: parse_id(&i.game_id)?,
                    ply: i.ply,
                    comment: i.comment,
                    branch: i.branch,
                })
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        let id = StudyId(store::GameId(
            crate::auth::random_seed().map_err(|e| ApiError::Internal(e.to_string()))?,
        ));
        let study = Study {
            id,
            name,
            by,
            created_at: Utc::now(),
            items,
        };
        let study = blocking(app, move |s| {
            store::study::check(&study, &|g| Ok(s.header(g)?.plies))?;
            // A branch is kept only where nothing is secret, and only if it plays.
            for (n, item) in study.items.iter().enumerate() {
                if item.branch.is_empty() {
                    continue;
                }
                let h = s.header(item.game)?;
                if h.status != store::Status::Finished {
                    return Err(ApiError::BadInput(format!(
                        "moment {}: a branch is kept only on a finished game's moment (game {} is still being played)",
                        n + 1,
                        item.game
                    )));
                }
                let state = s.state_at(item.game, item.ply)?;
                let viewer = rules_core::Viewer::Omniscient;
                crate::objects::branch::play(&h, item.ply, state.as_ref(), viewer, &item.branch, 0, None)?;
            }
            s.put_study(&study)?;
            Ok(study)
        })
        .await?;
        Ok(crate::objects::StudyObject(study))
    }
}

/// A study id from its text.
pub(crate) fn parse_study_id(id: &str) -> Result<StudyId, ApiError> {
    id.parse::<StudyId>().map_err(|_| {
        ApiError::BadInput(format!(
            "`{}` is not a study id (13 characters of lower-case Crockford base32)",
            id.chars().take(40).collect::<String>()
        ))
    })
}
