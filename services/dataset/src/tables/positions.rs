//! `positions`: one row per position of every finished game (the state after `ply` entries;
//! 0 is before the deal), with the features the game declares — game-wide ones as columns,
//! each seat's as a list of structs — read from the position index's block (nothing replayed).

use super::Rows;
use crate::{DatasetError, Result};
use analysis::positions::block::LEAD;
use analysis::positions::BlockView;
use arrow_array::builder::{ArrayBuilder, Int32Builder, Int64Builder, Int8Builder, StringBuilder};
use arrow_array::{ArrayRef, ListArray, RecordBatch, StructArray};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};
use rules_core::FeatureSchema;
use std::sync::Arc;
use store::Header;

fn seat_fields(f: &FeatureSchema) -> Fields {
    let mut v = vec![Field::new("seat", DataType::Int8, false)];
    v.extend(
        f.seat
            .iter()
            .map(|n| Field::new(*n, DataType::Int64, false)),
    );
    Fields::from(v)
}

fn seats_item(f: &FeatureSchema) -> Arc<Field> {
    Arc::new(Field::new("item", DataType::Struct(seat_fields(f)), true))
}

pub(super) fn schema(f: &FeatureSchema) -> SchemaRef {
    let mut fields = vec![
        Field::new("game_id", DataType::Utf8, false),
        Field::new("ply", DataType::Int32, false),
        Field::new("round", DataType::Int32, false),
        Field::new("phase", DataType::Utf8, false),
        Field::new("to_act", DataType::Int8, true),
        Field::new("players", DataType::Int8, false),
    ];
    fields.extend(
        f.global
            .iter()
            .map(|n| Field::new(*n, DataType::Int64, false)),
    );
    fields.push(Field::new("seats", DataType::List(seats_item(f)), false));
    Arc::new(Schema::new(fields))
}

pub(super) struct Builder {
    features: FeatureSchema,
    id: StringBuilder,
    ply: Int32Builder,
    round: Int32Builder,
    phase: StringBuilder,
    to_act: Int8Builder,
    players: Int8Builder,
    global: Vec<Int64Builder>,
    offsets: Vec<i32>,
    seat: Int8Builder,
    seat_values: Vec<Int64Builder>,
    column: Vec<i64>,
}

impl Builder {
    pub(super) fn new(features: FeatureSchema) -> Builder {
        Builder {
            id: StringBuilder::new(),
            ply: Int32Builder::new(),
            round: Int32Builder::new(),
            phase: StringBuilder::new(),
            to_act: Int8Builder::new(),
            players: Int8Builder::new(),
            global: features
                .global
                .iter()
                .map(|_| Int64Builder::new())
                .collect(),
            offsets: vec![0],
            seat: Int8Builder::new(),
            seat_values: features.seat.iter().map(|_| Int64Builder::new()).collect(),
            column: Vec::new(),
            features,
        }
    }

    /// Adds the positions of `h`'s stored block.
    pub(super) fn push(&mut self, h: &Header, block: &[u8]) -> Result<()> {
        let bad = |why: &str| DatasetError::BadGame(h.id, format!("position block: {why}"));
        let view = BlockView::parse(block).map_err(|e| bad(&e.to_string()))?;
        if !view.fits(&self.features) {
            return Err(bad("its columns are not this kind's features"));
        }
        let rows = view.rows;
        let id = h.id.to_string();
        for ply in 0..rows {
            self.id.append_value(&id);
            self.ply.append_value(ply as i32);
            self.players.append_value(view.players as i8);
        }
        view.decode(0, &mut self.column);
        for &r in &self.column {
            self.round.append_value(r as i32);
        }
        view.decode(1, &mut self.column);
        for &p in &self.column {
            let name = usize::try_from(p)
                .ok()
                .and_then(|i| self.features.phases.get(i))
                .copied()
                .unwrap_or("unknown");
            self.phase.append_value(name);
        }
        view.decode(2, &mut self.column);
        for &t in &self.column {
            self.to_act
                .append_option(i8::try_from(t).ok().filter(|t| *t >= 0));
        }
        for (g, b) in self.global.iter_mut().enumerate() {
            view.decode(LEAD + g, &mut self.column);
            b.append_slice(&self.column);
        }
        // Seats: position by position, each seat a struct (its number, then its features).
        let (g, w, players) = (
            self.features.global.len(),
            self.features.seat.len(),
            usize::from(view.players),
        );
        let mut cols: Vec<Vec<i64>> = Vec::with_capacity(players * w);
        for c in 0..players * w {
            let mut v = Vec::new();
            view.decode(LEAD + g + c, &mut v);
            cols.push(v);
        }
        let mut at = *self.offsets.last().unwrap_or(&0);
        for row in 0..rows {
            for s in 0..players {
                self.seat.append_value(s as i8);
                for (f, b) in self.seat_values.iter_mut().enumerate() {
                    b.append_value(cols[s * w + f].get(row).copied().unwrap_or(0));
                }
            }
            at += players as i32;
            self.offsets.push(at);
        }
        Ok(())
    }
}

impl Rows for Builder {
    fn len(&self) -> usize {
        self.id.len()
    }

    fn finish(&mut self, schema: &SchemaRef) -> Result<RecordBatch> {
        let mut cols: Vec<ArrayRef> = vec![
            Arc::new(self.id.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.round.finish()),
            Arc::new(self.phase.finish()),
            Arc::new(self.to_act.finish()),
            Arc::new(self.players.finish()),
        ];
        cols.extend(
            self.global
                .iter_mut()
                .map(|b| Arc::new(b.finish()) as ArrayRef),
        );
        let mut children: Vec<ArrayRef> = vec![Arc::new(self.seat.finish())];
        children.extend(
            self.seat_values
                .iter_mut()
                .map(|b| Arc::new(b.finish()) as ArrayRef),
        );
        let seats = StructArray::try_new(seat_fields(&self.features), children, None)?;
        let offsets = std::mem::replace(&mut self.offsets, vec![0]);
        let list = ListArray::try_new(
            seats_item(&self.features),
            OffsetBuffer::new(offsets.into()),
            Arc::new(seats),
            None,
        )?;
        cols.push(Arc::new(list));
        Ok(RecordBatch::try_new(schema.clone(), cols)?)
    }
}
