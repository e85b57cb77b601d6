//! The fast reading of notation (`Notation::read_*`, what replay takes) against the full
//! parsers: every entry of recorded random games is read fast to the full parser's value, and
//! no mutation of one is read fast to anything the full parser does not give.

use five_tribes::{FiveTribes, Options};
use rules_core::notation::check_readings;
use rules_core::playout;
use rules_core::replay::text_log;

#[test]
fn fast_readings_agree_with_the_full_parsers_on_recorded_games_and_mutations() {
    for seed in 0..12u64 {
        let o = Options {
            players: 2 + (seed % 3) as u8,
        };
        let p = playout::<FiveTribes>(&o, seed, 100_000, true).expect("playout");
        let log = text_log::<FiveTribes>(&p.log);
        check_readings::<FiveTribes>(&log, 40).unwrap();
    }
}

#[test]
fn the_fast_reading_refuses_what_is_not_canonical() {
    use rules_core::Notation;
    for text in [
        "drop  c3 G",
        "drop c3 G ",
        " drop c3 G",
        "drop c3\tG",
        "bid 03",
        "buy 01",
    ] {
        assert_eq!(FiveTribes::read_move(text), None, "{text:?}");
        // ... and the full parser still reads it: `apply_entry` takes it the long way.
        assert!(FiveTribes::parse_move(text).is_ok(), "{text:?}");
    }
}
