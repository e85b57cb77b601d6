//! `moves`: one row per entry of every finished game — a seat's move or a chance outcome.

use super::games::time;
use super::Rows;
use crate::Result;
use arrow_array::builder::{
    ArrayBuilder, Int32Builder, Int8Builder, StringBuilder, TimestampMicrosecondBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use rules_core::Actor;
use std::sync::Arc;
use store::{EnteredBy, Entry, Header};

pub(super) fn schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("game_id", DataType::Utf8, false),
        Field::new("ply", DataType::Int32, false),
        Field::new("seat", DataType::Int8, true),
        Field::new("move", DataType::Utf8, false),
        Field::new("entered_by", DataType::Utf8, true),
        Field::new("recorded_at", time(), false),
    ]))
}

pub(super) struct Builder {
    id: StringBuilder,
    ply: Int32Builder,
    seat: Int8Builder,
    mv: StringBuilder,
    by: StringBuilder,
    at: TimestampMicrosecondBuilder,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            id: StringBuilder::new(),
            ply: Int32Builder::new(),
            seat: Int8Builder::new(),
            mv: StringBuilder::new(),
            by: StringBuilder::new(),
            at: TimestampMicrosecondBuilder::new().with_timezone("UTC"),
        }
    }
}

impl Builder {
    pub(super) fn push(&mut self, h: &Header, entries: &[Entry]) {
        let id = h.id.to_string();
        for e in entries {
            self.id.append_value(&id);
            // The entry that makes position n is ply n (from 1), as in every export.
            self.ply.append_value(e.ply as i32 + 1);
            match e.actor {
                Actor::Seat(s) => self.seat.append_value(s.0 as i8),
                Actor::Dealer => self.seat.append_null(),
            }
            self.mv.append_value(&e.notation);
            self.by.append_option(e.entered_by.map(|b| match b {
                EnteredBy::Seat(_) => "seat",
                EnteredBy::Recorder => "recorder",
                EnteredBy::Bot => "bot",
            }));
            self.at.append_value(e.recorded_at.timestamp_micros());
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
            Arc::new(self.mv.finish()),
            Arc::new(self.by.finish()),
            Arc::new(self.at.finish()),
        ];
        Ok(RecordBatch::try_new(schema.clone(), cols)?)
    }
}
