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
        // Lists the rules give no order, out of the canonical one (issue 37): the full parser
        // reads them to the canonical move.
        "buy 4 1",
        "kill d3 G+Y iblis W",
        "kill @1 W+Y iblis F",
        "djinn enki FW",
        "use utug c4 FW",
    ] {
        assert_eq!(FiveTribes::read_move(text), None, "{text:?}");
        // ... and the full parser still reads it: `apply_entry` takes it the long way.
        assert!(FiveTribes::parse_move(text).is_ok(), "{text:?}");
    }
}

/// What the fast reading leaves to the full parser, the full parser refuses or reads to the
/// canonical value: never a value of its own (issue 37).
#[test]
fn lists_out_of_order_are_read_to_the_canonical_value_or_left_to_the_parser() {
    use rules_core::Notation;
    for (text, canonical) in [
        ("buy 4 1", "buy 1 4"),
        ("kill d3 G+Y iblis W", "kill d3 Y+G iblis W"),
        ("djinn enki FW", "djinn enki WF"),
        ("sell po+iv", "sell iv+po"),
    ] {
        let m = FiveTribes::parse_move(text).unwrap();
        assert_eq!(FiveTribes::format_move(&m), canonical);
        assert!(FiveTribes::read_move(text).is_none_or(|r| r == m), "{text}");
    }
    assert!(FiveTribes::parse_move("buy 2 2").is_err());
    assert_eq!(FiveTribes::read_move("buy 2 2"), None);
    for (text, canonical) in [
        ("draw meeples=RWY", "draw meeples=YWR"),
        ("draw meeples=BY", "draw meeples=YB"),
    ] {
        let c = FiveTribes::parse_chance(text).unwrap();
        assert_eq!(FiveTribes::format_chance(&c), canonical);
        // Games stored before issue 37 wrote these in draw order: read fast, to the same value.
        assert_eq!(FiveTribes::read_chance(text), Some(c), "{text}");
    }
}
