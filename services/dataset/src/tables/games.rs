//! `games`: one row per finished game.

use super::Rows;
use crate::Result;
use analysis::GameSummary;
use arrow_array::builder::{
    ArrayBuilder, Int32Builder, Int8Builder, ListBuilder, StringBuilder,
    TimestampMicrosecondBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use std::sync::Arc;
use store::Header;

pub(crate) fn time() -> DataType {
    DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()))
}

pub(crate) fn list_of(t: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("item", t, true)))
}

pub(super) fn schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("game_id", DataType::Utf8, false),
        Field::new("rules_version", DataType::Utf8, false),
        Field::new("created_at", time(), false),
        Field::new("ended_at", time(), false),
        Field::new("players", DataType::Int8, false),
        Field::new("plies", DataType::Int32, false),
        Field::new("rounds", DataType::Int32, false),
        Field::new("revision", DataType::Int32, false),
        Field::new("player_names", list_of(DataType::Utf8), false),
        Field::new("scores", list_of(DataType::Int32), false),
        Field::new("winners", list_of(DataType::Int8), false),
    ]))
}

pub(super) struct Builder {
    id: StringBuilder,
    rules: StringBuilder,
    created: TimestampMicrosecondBuilder,
    ended: TimestampMicrosecondBuilder,
    players: Int8Builder,
    plies: Int32Builder,
    rounds: Int32Builder,
    revision: Int32Builder,
    names: ListBuilder<StringBuilder>,
    scores: ListBuilder<Int32Builder>,
    winners: ListBuilder<Int8Builder>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            id: StringBuilder::new(),
            rules: StringBuilder::new(),
            created: TimestampMicrosecondBuilder::new().with_timezone("UTC"),
            ended: TimestampMicrosecondBuilder::new().with_timezone("UTC"),
            players: Int8Builder::new(),
            plies: Int32Builder::new(),
            rounds: Int32Builder::new(),
            revision: Int32Builder::new(),
            names: ListBuilder::new(StringBuilder::new()),
            scores: ListBuilder::new(Int32Builder::new()),
            winners: ListBuilder::new(Int8Builder::new()),
        }
    }
}

impl Builder {
    pub(super) fn push(&mut self, h: &Header, s: &GameSummary) {
        self.id.append_value(h.id.to_string());
        self.rules.append_value(&h.rules_version);
        self.created.append_value(h.created_at.timestamp_micros());
        self.ended.append_value(h.updated_at.timestamp_micros());
        self.players.append_value(s.seats.len() as i8);
        self.plies.append_value(h.plies as i32);
        self.rounds.append_value(s.rounds as i32);
        self.revision.append_value(h.revision as i32);
        for seat in &s.seats {
            self.names.values().append_value(&seat.player);
            self.scores.values().append_value(seat.total);
        }
        self.names.append(true);
        self.scores.append(true);
        for (i, seat) in s.seats.iter().enumerate() {
            if seat.won {
                self.winners.values().append_value(i as i8);
            }
        }
        self.winners.append(true);
    }
}

impl Rows for Builder {
    fn len(&self) -> usize {
        self.id.len()
    }

    fn finish(&mut self, schema: &SchemaRef) -> Result<RecordBatch> {
        let cols: Vec<ArrayRef> = vec![
            Arc::new(self.id.finish()),
            Arc::new(self.rules.finish()),
            Arc::new(self.created.finish()),
            Arc::new(self.ended.finish()),
            Arc::new(self.players.finish()),
            Arc::new(self.plies.finish()),
            Arc::new(self.rounds.finish()),
            Arc::new(self.revision.finish()),
            Arc::new(self.names.finish()),
            Arc::new(self.scores.finish()),
            Arc::new(self.winners.finish()),
        ];
        Ok(RecordBatch::try_new(schema.clone(), cols)?)
    }
}
