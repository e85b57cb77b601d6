//! A position's postcard bytes written by hand, for the state hash of every indexed position
//! ([`rules_core::Game::encode_by_hand`]).
//!
//! The bytes are exactly those `postcard` writes for [`State`]'s derived serialisation (the
//! tests compare the two at every ply of many games, both rules versions): fields in order; a
//! `u8`, a `bool` and each element of a fixed-size array as one byte; other unsigned integers,
//! sequence lengths and enum variant indices as varints; `Option` as a 0/1 byte and the value;
//! tiles, goods and djinns as strings (their text forms). Serde writes a 30-byte array as
//! thirty calls; here it is one copy, and the hash of a position costs a fifth of what it did.

use crate::ids::Tile;
use crate::state::{Draw, Ending, Phase, Player, Resume, Stage, State};
use rules_core::state_hash::HashBytes;

/// `s`'s postcard bytes into `out`.
pub(crate) fn encode(s: &State, out: &mut HashBytes) {
    out.byte(s.players);
    out.varint(u64::from(s.round));
    phase(&s.phase, out);
    let b = &s.board;
    out.bytes(&b.kind);
    out.bytes(b.meeples().as_flattened());
    out.bytes(&b.owner);
    out.bytes(&b.palms);
    out.bytes(&b.palaces);
    out.bytes(&s.bag);
    out.byte(s.palms_left);
    out.byte(s.palaces_left);
    out.varint(s.seats.len() as u64);
    for p in &s.seats {
        player(p, out);
    }
    out.varint(s.row.len() as u64);
    for r in &s.row {
        out.str(r.code());
    }
    out.bytes(&s.deck);
    out.bytes(&s.discard);
    out.varint(s.djinn_row.len() as u64);
    for d in &s.djinn_row {
        out.str(d.slug());
    }
    out.varint(u64::from(s.djinn_deck.0));
    out.varint(u64::from(s.djinn_discard.0));
    out.varint(s.bid_order.len() as u64);
    out.bytes(&s.bid_order);
    out.bytes(&s.turn_track);
    match s.ending {
        None => out.byte(0),
        Some(e) => {
            out.byte(1);
            out.varint(match e {
                Ending::LastCamel => 0,
                Ending::NoMeepleMove => 1,
            });
        }
    }
    out.varint(u64::from(s.djinns_used.0));
    match s.pending {
        None => out.byte(0),
        Some(d) => {
            out.byte(1);
            match d {
                Draw::Cards(n) => {
                    out.varint(0);
                    out.byte(n);
                }
                Draw::Djinns(n) => {
                    out.varint(1);
                    out.byte(n);
                }
                Draw::Meeples(n, t) => {
                    out.varint(2);
                    out.byte(n);
                    tile(t, out);
                }
            }
        }
    }
    out.varint(match s.rules {
        crate::state::Rules::V1 => 0,
        crate::state::Rules::V2 => 1,
    });
}

fn player(p: &Player, out: &mut HashBytes) {
    out.varint(u64::from(p.gold));
    out.byte(p.viziers);
    out.byte(p.elders);
    out.byte(p.camels);
    out.bytes(&p.cards);
    out.varint(u64::from(p.djinns.0));
}

fn phase(ph: &Phase, out: &mut HashBytes) {
    match ph {
        Phase::Deal => out.varint(0),
        Phase::Bid => out.varint(1),
        Phase::Turn { seat, stage: st } => {
            out.varint(2);
            out.byte(*seat);
            stage(st, out)
        }
        Phase::Refill => out.varint(3),
        Phase::Over => out.varint(4),
    }
}

fn stage(st: &Stage, out: &mut HashBytes) {
    match st {
        Stage::Start => out.varint(0),
        Stage::Moving { at, from, hand } => {
            out.varint(1);
            tile(*at, out);
            match from {
                None => out.byte(0),
                Some(f) => {
                    out.byte(1);
                    tile(*f, out);
                }
            }
            out.bytes(hand)
        }
        Stage::Builders { tile: t, count } => {
            out.varint(2);
            tile(*t, out);
            out.byte(*count)
        }
        Stage::Assassins { tile: t, count } => {
            out.varint(3);
            tile(*t, out);
            out.byte(*count)
        }
        Stage::TileAction { tile: t } => {
            out.varint(4);
            tile(*t, out)
        }
        Stage::Free => out.varint(5),
        Stage::Sibittis { drawn, resume } => {
            out.varint(6);
            out.varint(drawn.len() as u64);
            for d in drawn {
                out.str(d.slug());
            }
            out.varint(match resume {
                Resume::Start => 0,
                Resume::Free => 1,
            })
        }
    }
}

/// A tile as its text (`c3`: column letter, row from 1), as its `Serialize` writes it.
fn tile(t: Tile, out: &mut HashBytes) {
    let letter = b'a' + t.col();
    let row = t.row() + 1;
    if row < 10 {
        out.str_bytes(&[letter, b'0' + row]);
    } else {
        out.str_bytes(&[letter, b'0' + row / 10, b'0' + row % 10]);
    }
}
