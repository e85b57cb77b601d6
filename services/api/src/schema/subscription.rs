//! `Subscription`: `gameUpdates`, every entry of a game from a ply on, then each new one as it
//! is played, with the JSON Patch that brings the subscriber's board along.

use super::{app, blocking, caller, parse_id};
use crate::error::ApiError;
use crate::perspective::{self, Perspective};
use crate::App;
use async_graphql::{Context, Json, Result, SimpleObject, Subscription, ID};
use futures_util::Stream;
use rules_core::{GameState, Viewer};
use std::collections::VecDeque;
use std::sync::Arc;
use store::{GameId, Status};

/// One entry of a followed game, as the subscriber may see it.
#[derive(SimpleObject, Clone)]
pub struct GameUpdate {
    /// The ply the entry leads to (entry `n` turns position `n − 1` into position `n`).
    pub ply: u32,
    /// A seat number, or `dealer`.
    pub actor: String,
    /// The entry in notation; `hidden` where the rules keep it from this subscriber.
    #[graphql(name = "move")]
    pub notation: String,
    /// The entry in words, as this subscriber may know it.
    pub description: String,
    pub recorded_at: chrono::DateTime<chrono::Utc>,
    /// The JSON Patch (RFC 6902) from this subscriber's view at `ply − 1` to its view at
    /// `ply`: applied to `position(ply: fromPly) { view }`, it keeps a live board current.
    pub patch: Json<serde_json::Value>,
    /// Whether the game is over after this entry (the stream then ends).
    pub finished: bool,
}

/// Where a stream stands: the position it has sent up to, and the view there.
struct Cursor {
    app: Arc<App>,
    id: GameId,
    viewer: Viewer,
    next: u32,
    state: Option<(Box<dyn GameState>, serde_json::Value)>,
    buf: VecDeque<GameUpdate>,
    done: bool,
}

impl Cursor {
    /// Reads what is new (at most 100 entries), as updates. `Ok(true)` when the game is over
    /// and everything was read.
    async fn read(&mut self) -> Result<bool, ApiError> {
        let (id, viewer, from) = (self.id, self.viewer, self.next);
        let state = self.state.take();
        let (updates, state, over) = blocking(&self.app, move |s| {
            let h = s.header(id)?;
            let finished = h.status == Status::Finished;
            let to = h.plies.min(from.saturating_add(100));
            let (mut state, mut view) = match state {
                Some(sv) => sv,
                None => {
                    let st = s.state_at(id, from)?;
                    let v = st.view(viewer);
                    (st, v)
                }
            };
            let mut out = Vec::new();
            for e in s.entries(id, from, to)? {
                let notation = state.entry_text(e.actor, &e.notation, viewer);
                let description = state.describe(e.actor, &e.notation, viewer);
                state
                    .apply(e.actor, &e.notation)
                    .map_err(|err| ApiError::Internal(err.to_string()))?;
                let after = state.view(viewer);
                let patch =
                    serde_json::to_value(json_patch::diff(&view, &after)).unwrap_or_default();
                view = after;
                out.push(GameUpdate {
                    ply: e.ply + 1,
                    actor: e.actor.to_string(),
                    notation,
                    description,
                    recorded_at: e.recorded_at,
                    patch: Json(patch),
                    finished: finished && e.ply + 1 == h.plies,
                });
            }
            Ok((out, (state, view), finished && to == h.plies))
        })
        .await?;
        self.next = updates.last().map_or(self.next, |u| u.ply);
        self.state = Some(state);
        self.buf.extend(updates);
        Ok(over)
    }
}

pub struct Subscription;

#[Subscription]
impl Subscription {
    /// Every entry from position `fromPly` on (default 0: the whole game), then each new one as
    /// it is played: in order, without gap or repeat, as the chosen perspective sees them (see
    /// `Position.view`). A subscriber that falls behind catches up from the store; one that
    /// reconnects passes the last ply it saw as `fromPly`.
    async fn game_updates(
        &self,
        ctx: &Context<'_>,
        game_id: ID,
        from_ply: Option<u32>,
        seat: Option<u8>,
        perspective: Option<Perspective>,
    ) -> Result<impl Stream<Item = GameUpdate>> {
        let app = app(ctx).clone();
        let id = parse_id(&game_id)?;
        let caller = caller(ctx);
        let header = blocking(&app, move |s| Ok(s.header(id)?)).await?;
        let viewer = perspective::viewer(&header, &caller, seat, perspective)?;
        let start = from_ply.unwrap_or(0);
        if start > header.plies {
            return Err(ApiError::BadInput(format!(
                "fromPly {start} is past the end of the game ({} plies)",
                header.plies
            ))
            .into());
        }
        let rx = app.hub.subscribe(id);
        app.metrics
            .subscriptions
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let cursor = Cursor {
            app,
            id,
            viewer,
            next: start,
            state: None,
            buf: VecDeque::new(),
            done: false,
        };
        // The broadcast only wakes the stream: entries always come from the store, from the next
        // ply not yet sent, so a lagging subscriber catches up and nothing is sent twice.
        Ok(futures_util::stream::unfold(
            (cursor, rx),
            |(mut c, mut rx)| async move {
                loop {
                    if let Some(u) = c.buf.pop_front() {
                        return Some((u, (c, rx)));
                    }
                    if c.done {
                        return None;
                    }
                    match c.read().await {
                        Ok(over) => {
                            c.done = over;
                            if !c.buf.is_empty() || over {
                                continue;
                            }
                        }
                        Err(_) => return None,
                    }
                    match rx.recv().await {
                        Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                            continue
                        }
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                    }
                }
            },
        ))
    }
}
