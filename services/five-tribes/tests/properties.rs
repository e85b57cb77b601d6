//! Property tests of the reducer contract:
//! - a move is legal iff `play` accepts it; a refused move returns a typed error naming a rule
//!   and leaves the state unchanged;
//! - `parse(format(m)) == m` for every legal move and every chance outcome;
//! - replaying a log twice gives equal states;
//! - the notation parsers never panic on random bytes or strings.

use five_tribes::ids::{Colour, Djinn, Tile};
use five_tribes::{DjinnUse, FiveTribes, Goods, Move, Options, Pay, Redirect, State, Target};
use proptest::prelude::*;
use rules_core::{playout, Action, ChanceRng, Dealer, Game, Notation, RuleViolation, Seat, ToAct};

/// Any move at all, legal or not, from a stream of random numbers.
fn arbitrary_move(r: &mut Dealer) -> Move {
    let tile = |r: &mut Dealer| Tile(r.below(32) as u8); // 30, 31: off the board
    let colour = |r: &mut Dealer| Colour::ALL[r.below(5) as usize];
    let pay = |r: &mut Dealer| {
        [Pay::Elder, Pay::Fakir, Pay::TwoElders, Pay::ElderFakir][r.below(4) as usize]
    };
    let redirect = |r: &mut Dealer| {
        if r.below(2) == 0 {
            None
        } else {
            Some(Redirect {
                at: Tile(r.below(31) as u8),
                pay: [Pay::Elder, Pay::Fakir][r.below(2) as usize],
            })
        }
    };
    let second = |r: &mut Dealer| {
        if r.below(2) == 0 {
            None
        } else {
            Some(Colour::ALL[r.below(5) as usize])
        }
    };
    match r.below(16) {
        0 => Move::Bid {
            spot: r.below(10) as u8,
            kumarbi: r.below(4) as u8,
        },
        1 => Move::Pick(tile(r)),
        2 => Move::Drop {
            to: tile(r),
            colour: colour(r),
        },
        3 => Move::Build {
            fakirs: r.below(4) as u8,
            echidna: if r.below(2) == 0 { None } else { Some(pay(r)) },
        },
        4 => {
            let target = if r.below(2) == 0 {
                Target::Tile {
                    tile: tile(r),
                    first: colour(r),
                    second: second(r),
                }
            } else {
                Target::Seat {
                    seat: r.below(5) as u8,
                    first: colour(r),
                    second: second(r),
                }
            };
            Move::Kill {
                target,
                iblis: if r.below(2) == 0 { None } else { Some(pay(r)) },
            }
        }
        5 => Move::NoKill,
        6 => Move::Palm(redirect(r)),
        7 => Move::Palace(redirect(r)),
        8 => Move::Buy {
            first: r.below(7) as u8,
            second: if r.below(2) == 0 {
                None
            } else {
                Some(r.below(7) as u8)
            },
        },
        9 => Move::TakeDjinn {
            djinn: Djinn::ALL[r.below(22) as usize],
            pay: pay(r),
        },
        10 => Move::Skip,
        11 => Move::Use(match r.below(7) {
            0 => DjinnUse::AnunNak {
                tile: tile(r),
                pay: pay(r),
            },
            1 => DjinnUse::Bouraq {
                village: tile(r),
                pay: pay(r),
                hagis: redirect(r),
            },
            2 => DjinnUse::Enki {
                oasis: tile(r),
                pay: pay(r),
                lamia: redirect(r),
            },
            3 => DjinnUse::Leta {
                tile: tile(r),
                pay: pay(r),
            },
            4 => DjinnUse::Sibittis { pay: pay(r) },
            5 => DjinnUse::Sloar,
            _ => DjinnUse::Utug {
                tile: tile(r),
                pay: pay(r),
            },
        }),
        12 => Move::Keep(Djinn::ALL[r.below(22) as usize]),
        13 => Move::Sell(Goods(r.below(1024) as u16)),
        _ => Move::End,
    }
}

fn positions(seed: u64) -> (u8, Vec<Action<Move, five_tribes::Chance>>) {
    let players = 2 + (seed % 3) as u8;
    let p = playout::<FiveTribes>(&Options { players }, seed, 100_000, true).unwrap();
    (players, p.log)
}

/// The contract holds under the old rules too: a few of the samples (recorded under
/// `five-tribes/1`, which also sold before picking up) replayed from a game made under it.
#[test]
fn old_rules_keep_the_contract_over_the_samples() {
    use rules_core::Actor;
    let all = scenario_harness::samples::records(include_str!(
        "../../../tests/data/random-samples/five-tribes.ndjson"
    ));
    let mut r = Dealer::new(98, 0);
    let mut checked = 0u64;
    for (i, rec) in all.iter().enumerate().step_by(40) {
        let log: Vec<Action<Move, five_tribes::Chance>> = rec
            .entries
            .iter()
            .map(|(actor, text)| match actor {
                Actor::Seat(seat) => Action::Move(*seat, FiveTribes::parse_move(text).unwrap()),
                Actor::Dealer => Action::Chance(FiveTribes::parse_chance(text).unwrap()),
            })
            .collect();
        let o: Options = serde_json::from_value(rec.options.clone()).unwrap();
        let s = FiveTribes::new_game_versioned(&o, &rec.rules_version, &rec.data_hash)
            .unwrap()
            .unwrap();
        assert_eq!(s.rules, five_tribes::state::Rules::V1);
        checked += rules_core::contract::check_log_from::<FiveTribes>(
            s,
            &log,
            &mut || arbitrary_move(&mut r),
            10,
            &Move::End,
        )
        .unwrap_or_else(|e| panic!("sample {i}: {e}"));
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn legal_iff_accepted_and_refusals_change_nothing() {
    let mut r = Dealer::new(99, 0);
    let mut checked = 0u64;
    for seed in 0..24 {
        let (players, log) = positions(seed);
        checked += rules_core::contract::check_log::<FiveTribes>(
            &Options { players },
            &log,
            &mut || arbitrary_move(&mut r),
            40,
            &Move::End,
        )
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn bad_chance_outcomes_are_refused_without_effect() {
    let (players, log) = positions(5);
    let mut s = FiveTribes::new_game(&Options { players }).unwrap();
    let mut refused = 0;
    for a in &log {
        if let Action::Chance(c) = a {
            // An outcome of another kind, or the deal again, is refused.
            for wrong in [
                five_tribes::Chance::Cards(Default::default()),
                five_tribes::Chance::Meeples([Colour::Red; 3].into_iter().collect()),
            ] {
                if &wrong != c {
                    let mut t = s.clone();
                    if FiveTribes::resolve(&mut t, &wrong).is_err() {
                        refused += 1;
                        assert_eq!(t, s);
                    }
                }
            }
        }
        FiveTribes::apply(&mut s, a).unwrap();
    }
    assert!(refused > 0);
}

#[test]
fn a_deal_must_match_the_components() {
    let mut s = FiveTribes::new_game(&Options { players: 3 }).unwrap();
    let mut d = Dealer::new(1, 0);
    let good = FiveTribes::sample_chance(&s, &mut d).unwrap();
    let five_tribes::Chance::Deal(deal) = &good else {
        panic!()
    };
    let mut tampered = deal.clone();
    tampered.meeples[0] = [Colour::Yellow; 3]; // too many yellows
    let before = s.clone();
    let e = FiveTribes::resolve(&mut s, &five_tribes::Chance::Deal(tampered)).unwrap_err();
    assert_eq!(e.rule(), "chance.deal");
    assert_eq!(s, before);
    let mut tampered = deal.clone();
    tampered.djinns[1] = tampered.djinns[0]; // a djinn twice
    assert_eq!(
        FiveTribes::resolve(&mut s, &five_tribes::Chance::Deal(tampered))
            .unwrap_err()
            .rule(),
        "chance.deal"
    );
    let mut tampered = deal.clone();
    tampered.bid_order.pop();
    assert_eq!(
        FiveTribes::resolve(&mut s, &five_tribes::Chance::Deal(tampered))
            .unwrap_err()
            .rule(),
        "chance.deal"
    );
    assert_eq!(s, before);
    FiveTribes::resolve(&mut s, &good).unwrap();
    assert_eq!(FiveTribes::to_act(&s), ToAct::Seat(Seat(deal.bid_order[0])));
}

#[test]
fn replaying_a_log_twice_gives_equal_states() {
    for seed in 100..110 {
        let (players, log) = positions(seed);
        let run = || {
            let mut s = FiveTribes::new_game(&Options { players }).unwrap();
            let mut states: Vec<State> = Vec::new();
            for a in &log {
                FiveTribes::apply(&mut s, a).unwrap();
                states.push(s.clone());
            }
            states
        };
        assert_eq!(run(), run());
    }
}

#[test]
fn bad_options_are_refused() {
    for players in [0, 1, 5, 255] {
        let e = FiveTribes::new_game(&Options { players }).unwrap_err();
        assert_eq!(e.rule(), "setup.options");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn move_parser_never_panics(s in "\\PC{0,60}") {
        let _ = FiveTribes::parse_move(&s);
        let _ = FiveTribes::parse_chance(&s);
    }

    #[test]
    fn parser_survives_near_misses(
        verb in prop::sample::select(vec!["bid", "pick", "drop", "build", "kill", "palm", "palace", "buy", "djinn", "use", "keep", "sell", "deal", "refill", "draw"]),
        rest in "[a-z0-9@+=.,:\\- WFYGBR]{0,40}",
    ) {
        let text = format!("{verb} {rest}");
        let _ = FiveTribes::parse_move(&text);
        let _ = FiveTribes::parse_chance(&text);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..80)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = FiveTribes::parse_move(&text);
        let _ = FiveTribes::parse_chance(&text);
    }
}

/// Formatting never overflows, whatever a move built in code holds (error messages format
/// refused moves, which may come from anywhere).
#[test]
fn formatting_a_move_with_extreme_values_does_not_overflow() {
    let m = Move::Buy {
        first: u8::MAX,
        second: Some(u8::MAX),
    };
    assert_eq!(FiveTribes::format_move(&m), "buy 256 256");
}
