//! `Study`: a named, ordered set of moments — (game, ply, comment) — with its own id and page.
//! Its texts are charged to the response budget as they are shown (`budget`).

use super::Game;
use crate::schema::{app, blocking};
use async_graphql::{Context, Object, Result, ID};
use chrono::{DateTime, Utc};
use store::study::{Study, StudyItem};

pub struct StudyObject(pub Study);

#[Object(name = "Study")]
impl StudyObject {
    async fn id(&self) -> ID {
        ID(self.0.id.to_string())
    }
    async fn name(&self, ctx: &Context<'_>) -> Result<&str> {
        crate::budget::charge_str(ctx, &self.0.name)?;
        Ok(&self.0.name)
    }
    /// `analyst:NAME` or `admin`.
    async fn author(&self) -> String {
        self.0.by.to_string()
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.0.created_at
    }
    /// The study's page in the viewer, relative to the server.
    async fn url(&self) -> String {
        format!("/study/{}", self.0.id)
    }
    /// Its moments, in order.
    #[graphql(complexity = "50 * child_complexity + 1")]
    async fn items(&self) -> Vec<StudyMoment> {
        self.0.items.iter().cloned().map(StudyMoment).collect()
    }
}

pub struct StudyMoment(StudyItem);

#[Object]
impl StudyMoment {
    async fn game_id(&self) -> ID {
        ID(self.0.game.to_string())
    }
    /// The position: 0 is the start, n the position after entry n.
    async fn ply(&self) -> u32 {
        self.0.ply
    }
    async fn comment(&self, ctx: &Context<'_>) -> Result<&str> {
        crate::budget::charge_str(ctx, &self.0.comment)?;
        Ok(&self.0.comment)
    }
    /// The game (null if it is no longer stored).
    #[graphql(complexity = "5 + child_complexity")]
    async fn game(&self, ctx: &Context<'_>) -> Result<Option<Game>> {
        let id = self.0.game;
        let found = blocking(app(ctx), move |s| match s.header(id) {
            Ok(h) => Ok(Some(h)),
            Err(store::StoreError::NotFound(_)) => Ok(None),
            Err(e) => Err(e.into()),
        })
        .await?;
        Ok(found.map(Game::new))
    }
    /// Moves played from the position on the analysis board (empty: the position itself).
    async fn branch(&self) -> &[String] {
        &self.0.branch
    }
    /// The moment in the viewer, relative to the server (its branch opened when it has one).
    async fn url(&self) -> String {
        let mut u = format!("/games/{}?ply={}", self.0.game, self.0.ply);
        if !self.0.branch.is_empty() {
            u.push_str("&branch=1");
            for m in &self.0.branch {
                u.push_str("&b=");
                u.push_str(&url_component(m));
            }
        }
        u
    }
}

/// `s` as a URL query value: unreserved characters kept, every other byte percent-encoded.
fn url_component(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
