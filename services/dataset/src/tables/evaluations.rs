//! `evaluations`: one row per position and seat of every finished game with a current review
//! — the seat's chance to win with its interval, expected score and rank — and, on the row of
//! the seat whose move made the position, that move's judgement (as the CSV export).

use super::Rows;
use crate::Result;
use arrow_array::builder::{
    ArrayBuilder, Float32Builder, Int32Builder, Int8Builder, StringBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::sync::Arc;
use store::{Entry, Header};

pub(super) fn schema() -> SchemaRef {
    let f32_col = |n: &str, null: bool| Field::new(n, DataType::Float32, null);
    Arc::new(Schema::new(vec![
        Field::new("game_id", DataType::Utf8, false),
        Field::new("ply", DataType::Int32, false),
        Field::new("seat", DataType::Int8, false),
        Field::new("player", DataType::Utf8, false),
        f32_col("win_chance", false),
        f32_col("low", false),
        f32_col("high", false),
        f32_col("expected_score", false),
        f32_col("expected_rank", false),
        Field::new("move", DataType::Utf8, true),
        Field::new("judgement", DataType::Utf8, true),
        f32_col("before", true),
        f32_col("after", true),
        f32_col("loss", true),
        Field::new("best", DataType::Utf8, true),
        f32_col("best_win_chance", true),
    ]))
}

#[derive(Default)]
pub(super) struct Builder {
    id: StringBuilder,
    ply: Int32Builder,
    seat: Int8Builder,
    player: StringBuilder,
    win: Float32Builder,
    low: Float32Builder,
    high: Float32Builder,
    score: Float32Builder,
    rank: Float32Builder,
    mv: StringBuilder,
    judgement: StringBuilder,
    before: Float32Builder,
    after: Float32Builder,
    loss: Float32Builder,
    best: StringBuilder,
    best_win: Float32Builder,
}

impl Builder {
    pub(super) fn push(&mut self, h: &Header, r: &review::Review, entries: &[Entry]) {
        let judged = review::judgements(r, entries);
        let id = h.id.to_string();
        for row in review::export::rows(h, r, &judged) {
            let (c, j) = (row.chances, row.judged);
            self.id.append_value(&id);
            self.ply.append_value(row.ply as i32);
            self.seat.append_value(row.seat as i8);
            self.player.append_value(row.player);
            self.win.append_value(c.win);
            self.low.append_value(c.low);
            self.high.append_value(c.high);
            self.score.append_value(c.score);
            self.rank.append_value(c.rank);
            self.mv.append_option(j.map(|j| &j.notation));
            self.judgement.append_option(j.map(|j| j.class.name()));
            self.before.append_option(j.map(|j| j.before as f32));
            self.after.append_option(j.map(|j| j.after as f32));
            self.loss.append_option(j.map(|j| j.loss() as f32));
            let best = j.and_then(|j| j.best.as_ref());
            self.best.append_option(best.map(|b| &b.0));
            self.best_win.append_option(best.map(|b| b.1 as f32));
        }
    }
}

impl Rows for Builder {
    fn len(&self) -> usize {
        self.id.len()
    }

    fn finish(&mut self, schema: &SchemaRef) -> Result<RecordBatch> {
        let cols: Vec<ArrayRef> = vec![
            Arc::new(self.id.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.seat.finish()),
            Arc::new(self.player.finish()),
            Arc::new(self.win.finish()),
            Arc::new(self.low.finish()),
            Arc::new(self.high.finish()),
            Arc::new(self.score.finish()),
            Arc::new(self.rank.finish()),
            Arc::new(self.mv.finish()),
            Arc::new(self.judgement.finish()),
            Arc::new(self.before.finish()),
            Arc::new(self.after.finish()),
            Arc::new(self.loss.finish()),
            Arc::new(self.best.finish()),
            Arc::new(self.best_win.finish()),
        ];
        Ok(RecordBatch::try_new(schema.clone(), cols)?)
    }
}
