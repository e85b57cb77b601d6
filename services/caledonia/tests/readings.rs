//! The fast reading of notation (`Notation::read_*`, what replay takes) against the full
//! parsers: every entry of recorded random games is read fast to the full parser's value, and
//! no mutation of one is read fast to anything the full parser does not give.

use caledonia::{Caledonia, Options};
use rules_core::notation::check_readings;
use rules_core::replay::text_log;
use rules_core::{playout, Notation};

#[test]
fn fast_readings_agree_with_the_full_parsers_on_recorded_games_and_mutations() {
    for seed in 0..16u64 {
        let o = Options::new(1 + (seed % 4) as u8);
        let p = playout::<Caledonia>(&o, seed, 100_000, true).expect("playout");
        let log = text_log::<Caledonia>(&p.log);
        check_readings::<Caledonia>(&log, 40).unwrap();
    }
}

#[test]
fn the_fast_reading_refuses_what_the_full_parser_refuses() {
    for text in [
        "make 1 0 0 ",
        "make 1 0 0 x",
        "make 01 0 0",
        "pass ",
        "sell wool",
        "expand  miner c7",
    ] {
        assert_eq!(Caledonia::read_move(text), None, "{text:?}");
        assert!(Caledonia::parse_move(text).is_err(), "{text:?}");
    }
    assert_eq!(
        Caledonia::read_chance("prep refill=3 drift=wool+1 die=-0"),
        Caledonia::parse_chance("prep refill=3 drift=wool+1 die=-0").ok()
    );
}
