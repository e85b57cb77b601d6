//! `seats`: one row per finished game and seat — result, score and its breakdown (a column
//! per category of the kind's score sheet), tags.

use super::games::list_of;
use super::Rows;
use crate::Result;
use analysis::GameSummary;
use arrow_array::builder::{
    ArrayBuilder, BooleanBuilder, Int32Builder, Int8Builder, ListBuilder, StringBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::sync::Arc;
use store::Header;

pub(super) fn schema(categories: &[String]) -> SchemaRef {
    let mut fields = vec![
        Field::new("game_id", DataType::Utf8, false),
        Field::new("seat", DataType::Int8, false),
        Field::new("player", DataType::Utf8, false),
        Field::new("won", DataType::Boolean, false),
        Field::new("winners", DataType::Int8, false),
        Field::new("score", DataType::Int32, false),
        Field::new("rank", DataType::Int8, false),
    ];
    fields.extend(
        categories
            .iter()
            .map(|c| Field::new(format!("score_{c}"), DataType::Int32, true)),
    );
    fields.push(Field::new("tags", list_of(DataType::Utf8), false));
    Arc::new(Schema::new(fields))
}

pub(super) struct Builder {
    categories: Vec<String>,
    id: StringBuilder,
    seat: Int8Builder,
    player: StringBuilder,
    won: BooleanBuilder,
    winners: Int8Builder,
    score: Int32Builder,
    rank: Int8Builder,
    breakdown: Vec<Int32Builder>,
    tags: ListBuilder<StringBuilder>,
}

impl Builder {
    pub(super) fn new(categories: &[String]) -> Builder {
        Builder {
            categories: categories.to_vec(),
            id: StringBuilder::new(),
            seat: Int8Builder::new(),
            player: StringBuilder::new(),
            won: BooleanBuilder::new(),
            winners: Int8Builder::new(),
            score: Int32Builder::new(),
            rank: Int8Builder::new(),
            breakdown: categories.iter().map(|_| Int32Builder::new()).collect(),
            tags: ListBuilder::new(StringBuilder::new()),
        }
    }

    pub(super) fn push(&mut self, h: &Header, s: &GameSummary) {
        let id = h.id.to_string();
        let winners = s.winners() as i8;
        for (i, seat) in s.seats.iter().enumerate() {
            self.id.append_value(&id);
            self.seat.append_value(i as i8);
            self.player.append_value(&seat.player);
            self.won.append_value(seat.won);
            self.winners.append_value(winners);
            self.score.append_value(seat.total);
            // 1 for the best total; equal totals share the better rank (as the explorer).
            let better = s.seats.iter().filter(|o| o.total > seat.total).count();
            self.rank.append_value((better + 1) as i8);
            for (c, b) in self.categories.iter().zip(&mut self.breakdown) {
                b.append_option(seat.breakdown.iter().find(|(k, _)| k == c).map(|(_, v)| *v));
            }
            for t in &seat.tags {
                self.tags.values().append_value(t);
            }
            self.tags.append(true);
        }
    }
}

impl Rows for Builder {
    fn len(&self) -> usize {
        self.id.len()
    }

    fn finish(&mut self, schema: &SchemaRef) -> Result<RecordBatch> {
        let mut cols: Vec<ArrayRef> = vec![
            Arc::new(self.id.finish()),
            Arc::new(self.seat.finish()),
            Arc::new(self.player.finish()),
            Arc::new(self.won.finish()),
            Arc::new(self.winners.finish()),
            Arc::new(self.score.finish()),
            Arc::new(self.rank.finish()),
        ];
        cols.extend(
            self.breakdown
                .iter_mut()
                .map(|b| Arc::new(b.finish()) as ArrayRef),
        );
        cols.push(Arc::new(self.tags.finish()));
        Ok(RecordBatch::try_new(schema.clone(), cols)?)
    }
}
