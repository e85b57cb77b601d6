//! The `expect` paths of the scenario files: what `seat0.pounds`, `display.R1`, `value.cai`
//! ... read from a state.

use mombasa::ids::{BookSpace, CardId, Company, DisplayPos, NONE, SLOTS};
use mombasa::legal::MoveList;
use mombasa::notation::{book_code, card_code};
use mombasa::{Mombasa, Stage, State};
use rules_core::{Game, Notation, ToAct};

fn company(s: &str) -> Company {
    Company::from_code(s).unwrap_or_else(|| panic!("unknown company {s}"))
}

pub fn legal(s: &State) -> MoveList {
    let mut ms = MoveList::new();
    s.legal_moves(&mut ms);
    ms
}

fn codes(mask: u128) -> String {
    let v: Vec<String> = mombasa::ids::bits(mask)
        .map(|id| card_code(CardId(id).as_ref()))
        .collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(",")
    }
}

pub fn get(s: &State, path: &str) -> String {
    match path {
        "phase" => return Mombasa::phase(s).into(),
        "to_act" => {
            return match s.to_act() {
                ToAct::Seat(x) => x.to_string(),
                ToAct::Chance => "chance".into(),
                ToAct::Over => "over".into(),
            }
        }
        "round" => return s.round.to_string(),
        "first" => return s.first.to_string(),
        "setup_first" => return s.setup_first.to_string(),
        "next_first" => {
            return if s.next_first == NONE {
                "-".into()
            } else {
                s.next_first.to_string()
            }
        }
        "stage" => {
            return match s.stage {
                Stage::Top => "top",
                Stage::Goods { .. } => "goods",
                Stage::Expand { .. } => "expand",
                Stage::Clerk { .. } => "clerk",
                Stage::Points { .. } => "points",
                Stage::Steps { .. } => "steps",
            }
            .into()
        }
        "deck" => return s.deck.count_ones().to_string(),
        "discard" => return s.discard.count_ones().to_string(),
        "round_coins" => {
            return s
                .round_coins
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        }
        "winners" => {
            let o = s.outcome().expect("the game is over");
            return o
                .winners
                .iter()
                .map(|w| w.to_string())
                .collect::<Vec<_>>()
                .join(" ");
        }
        "legal count" => return legal(s).len().to_string(),
        "legal" => {
            return legal(s)
                .iter()
                .map(Mombasa::format_move)
                .collect::<Vec<_>>()
                .join(" | ")
        }
        _ => {}
    }
    let (head, field) = path
        .split_once('.')
        .unwrap_or_else(|| panic!("unknown path {path}"));
    if let Some(n) = head.strip_prefix("seat") {
        let seat: u8 = n.parse().expect("seat");
        let p = s.player(seat).expect("seat");
        if let Some(co) = field.strip_prefix("track.") {
            return p.track[company(co).index()].to_string();
        }
        if let Some(co) = field.strip_prefix("shares.") {
            return s.shares(seat, company(co)).to_string();
        }
        // The red value of a card as this seat holds it (`red.X`: its "1" card).
        if let Some(code) = field.strip_prefix("red.") {
            let id = mombasa::notation::parse_card(code)
                .and_then(|r| r.resolve(seat))
                .unwrap_or_else(|| panic!("unknown card {code}"));
            return s.card_def(id).map_or("-".into(), |c| c.cost.to_string());
        }
        if let Some(k) = field.strip_prefix("pile") {
            return codes(p.piles[k.parse::<usize>().unwrap() - 1]);
        }
        return match field {
            "pounds" => p.pounds.to_string(),
            "diamond" => p.diamond.to_string(),
            "ink" => p.ink.to_string(),
            "hand" => codes(p.hand),
            "hand_size" => p.hand.count_ones().to_string(),
            "markers_left" => p.markers_left().to_string(),
            "markers" => p.markers.to_string(),
            "open_slots" => p.open_slots(s.data()).to_string(),
            "ended" => p.ended.to_string(),
            "slots" => (0..SLOTS)
                .map(|k| match p.slots[k] {
                    NONE => "-".to_string(),
                    c => card_code(CardId(c).as_ref()),
                })
                .collect::<Vec<_>>()
                .join(","),
            "face_up" => format!("{:05b}", p.face_up.reverse_bits() >> 3),
            "tiles" => p.tiles.to_string(),
            "start" => p.start.to_string(),
            "books" => {
                let v: Vec<String> = p.books.iter().map(|&b| book_code(b)).collect();
                if v.is_empty() {
                    "-".into()
                } else {
                    v.join(",")
                }
            }
            _ => panic!("unknown seat field {field}"),
        };
    }
    if let Some(n) = head.strip_prefix("score") {
        let sc = s.seat_score(n.parse().expect("seat"));
        return if field == "total" {
            sc.total.to_string()
        } else {
            sc.category(field)
                .unwrap_or_else(|| panic!("unknown category {field}"))
                .to_string()
        };
    }
    match head {
        "display" => {
            let id = s.display[usize::from(DisplayPos::parse(field).expect("pos").0)];
            if id == NONE {
                "-".into()
            } else {
                card_code(CardId(id).as_ref())
            }
        }
        "book" => {
            let b = s.book_display[usize::from(BookSpace::parse(field).expect("space").0)];
            if b == NONE {
                "-".into()
            } else {
                book_code(b)
            }
        }
        "coins" => s.book_coins[usize::from(BookSpace::parse(field).expect("space").0)].to_string(),
        "map" => {
            let o = s.map[field.parse::<usize>().unwrap() - 1];
            Company::ALL
                .get(usize::from(o))
                .map_or("-".into(), |c| c.code().into())
        }
        "value" => s.share_value(company(field)).to_string(),
        "base" => s.bases[company(field).index()]
            .iter()
            .map(|&m| {
                (0..5)
                    .map(|i| if m & (1 << i) != 0 { '1' } else { '0' })
                    .collect()
            })
            .collect::<Vec<String>>()
            .join(" "),
        "boxed" => s.boxed_posts[company(field).index()].to_string(),
        "bonus" => {
            let i = mombasa::data::components()
                .bonus
                .iter()
                .position(|b| b.code == field)
                .expect("space");
            if s.bonus[i] == NONE {
                "-".into()
            } else {
                s.bonus[i].to_string()
            }
        }
        "tile_won" | "tile_at" => {
            let i = mombasa::data::components()
                .bonus_tiles
                .iter()
                .position(|b| b.code == field)
                .expect("tile");
            let v = if head == "tile_won" {
                s.tile_won[i]
            } else {
                s.tile_at[i]
            };
            if v == NONE {
                "-".into()
            } else {
                v.to_string()
            }
        }
        _ => panic!("unknown path {path}"),
    }
}
