//! The fast reading of notation (`Notation::read_*`, what replay takes) against the full
//! parsers: every entry of recorded random games is read fast to the full parser's value, and
//! no mutation of one is read fast to anything the full parser does not give.

use mombasa::{Mombasa, Options};
use rules_core::notation::check_readings;
use rules_core::playout;
use rules_core::replay::text_log;

#[test]
fn fast_readings_agree_with_the_full_parsers_on_recorded_games_and_mutations() {
    for seed in 0..12u64 {
        let o = Options {
            players: 2 + (seed % 3) as u8,
            first_game: false,
            track_cards: seed.is_multiple_of(2),
            first_player: None,
        };
        let p = playout::<Mombasa>(&o, seed, 100_000, true).expect("playout");
        let log = text_log::<Mombasa>(&p.log);
        check_readings::<Mombasa>(&log, 40).unwrap();
    }
}

#[test]
fn the_fast_reading_refuses_what_the_full_parser_refuses() {
    use rules_core::Notation;
    for text in [
        "end 6",
        "end 0",
        "step mo",
        "ready ",
        "plan S3  2",
        "goods coffee 1,1",
        "bonus",
        "bonus sell B11 x",
        "bonus sell  B11",
        "goods coffee",
        "goods  coffee 1",
        "goods expansion 1",
        "enter 15",
        "enter 15 2 3 4",
        "expand stl x",
        "buy R5",
        "book 8a",
        "keep T8 T1",
        "flip 11",
        "flip 16",
        "bonus buy",
        "bonus sell",
        "bonus coffee L1",
        "bonus buy A1",
        "bonus first C3",
        "goods coffee 1 bonus coffee",
    ] {
        assert_eq!(Mombasa::read_move(text), None, "{text:?}");
        assert!(Mombasa::parse_move(text).is_err(), "{text:?}");
    }
    for text in [
        "reveal 0:-",
        "reveal 0:A1@1,A1@2 1:-",
        "tiles 0 T1,T1",
        "starts T1",
        "starts T2,T2,T3",
        "draw cards=A1,A1 books=-",
        "draw cards=- books=A1,A1",
        "setup display=A1,A2,A3,A4,A5,A6,A7,A8,A9,B1,B2 books=A1,A2,A3,A4,B1,B2,B3,B4,C1,C2,C3,C4",
        "setup display=A1,A2,A3,A4,A5,A6,A7,A8,A9,B1,B2,B3 books=A1,A2,A3,A4,B1,B2,B3,B4,C1,C2,C3",
        "setup display=A1,A1,A3,A4,A5,A6,A7,A8,A9,B1,B2,B3 books=A1,A2,A3,A4,B1,B2,B3,B4,C1,C2,C3,C4",
        "setup display=A1,A2,A3,A4,A5,A6,A7,A8,A9,B1,B2,B3 books=A1,A2,A3,A4,B1,B2,B3,B4,C1,C2,C3,C4 sides=A1,A2,B1,C1",
    ] {
        assert_eq!(Mombasa::read_chance(text), None, "{text:?}");
        assert!(Mombasa::parse_chance(text).is_err(), "{text:?}");
    }
}

/// A list in another order than the canonical one is left to the full parser, which reads it
/// to the canonical value.
#[test]
fn lists_out_of_the_canonical_order_are_read_by_the_full_parser() {
    use rules_core::Notation;
    for (text, canonical) in [
        ("reveal 1:- 0:A1@1", "reveal 0:A1@1 1:-"),
        ("draw books=- cards=B5", "draw cards=B5 books=-"),
    ] {
        assert_eq!(Mombasa::read_chance(text), None, "{text:?}");
        assert_eq!(
            Mombasa::parse_chance(text).unwrap(),
            Mombasa::read_chance(canonical).unwrap()
        );
    }
    assert_eq!(
        Mombasa::read_move("goods coffee t,1"),
        Mombasa::read_move("goods coffee 1,t")
    );
}
