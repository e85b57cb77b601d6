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
    ] {
        assert_eq!(Mombasa::read_move(text), None, "{text:?}");
        assert!(Mombasa::parse_move(text).is_err(), "{text:?}");
    }
}
