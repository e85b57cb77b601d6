//! One notation discipline (issue 37; Ruling F21; `schema/notation/five-tribes.md`), through
//! the interface the store uses: a list the rules give no order is accepted in any order and
//! stored in one canonical order; a list whose order is what happened is kept as written; a
//! refusal names the real reason, and a list of the wrong size gets one code per kind of list
//! (the notation's for the sizes it fixes, the rules' for the sizes the game decides).
//!
//! The rules scenarios in `tests/scenarios/notation.toml` show the same points on positions.

use five_tribes::state::Phase;
use five_tribes::{FiveTribes, Move, Options, State, Target};
use rules_core::erased::EntryError;
use rules_core::{playout, Action, Actor, Erased, Game, GameRules, Notation, RuleViolation, Seat};

/// The 4-player deal of `schema/notation/five-tribes.md`, its meeples as the dealer wrote them
/// before issue 37 (in draw order).
const DEAL: &str = "deal layout=P10.S6.V5.O8.V5.O8.S6.S6.L4.S6.P15.P6.V5.P6.O8.O8.L4.L4.V5.O8.S6.P6.O8.S6.S6.S6.V5.P12.L4.P6 meeples=YYG.GRR.BGB.WWW.RRW.GYG.BGW.WBB.RGY.BGY.RGR.BYY.WWR.WGR.BRB.RWY.GBB.WWG.BBW.GWW.RWY.RYG.WBY.RBW.WYG.GWB.BYG.BRR.YRR.YGY order=2.0.3.1 cards=po.fk.fk.sp.fk.fk.fk.pa.fi djinns=kumarbi.boaz.enki";

fn seat(n: u8) -> Actor {
    Actor::Seat(Seat(n))
}

#[test]
fn lists_without_order_are_stored_in_one_order_and_ordered_lists_as_written() {
    let rules = Erased::<FiveTribes>::new();
    let s = rules
        .new_game(&serde_json::json!({ "players": 4 }))
        .unwrap();
    for (actor, text, stored) in [
        // Two market cards: row order.
        (seat(0), "buy 4 1", "buy 1 4"),
        (seat(0), "buy 1 4", "buy 1 4"),
        (seat(0), "buy 6 5", "buy 5 6"),
        // Iblis's two victims: tribe order (Y W G B R).
        (seat(0), "kill d3 G+Y iblis W", "kill d3 Y+G iblis W"),
        (seat(0), "kill d3 R+B iblis F", "kill d3 B+R iblis F"),
        (seat(0), "kill d3 G+G iblis F", "kill d3 G+G iblis F"),
        (seat(0), "kill @1 W+Y iblis F", "kill @1 Y+W iblis F"),
        // An Elder and a Fakir: `WF`, wherever a payment is written.
        (seat(0), "djinn enki FW", "djinn enki WF"),
        (seat(0), "build +1 echidna FW", "build +1 echidna WF"),
        (seat(0), "kill e2 G iblis W", "kill e2 G iblis W"),
        (seat(0), "use utug c4 FW", "use utug c4 WF"),
        (seat(0), "use sibittis FW", "use sibittis WF"),
        (
            seat(0),
            "use bouraq b2 FW hagis c3 W",
            "use bouraq b2 WF hagis c3 W",
        ),
        // The goods of a sale: the cards' order.
        (seat(0), "sell po+fi+iv", "sell iv+fi+po"),
        // Meeples from the bag: tribe order.
        (Actor::Dealer, "draw meeples=RBY", "draw meeples=YBR"),
        (Actor::Dealer, "draw meeples=GG", "draw meeples=GG"),
        // Draws from a pile: the pile's order, kept (a reshuffle can fall between two cards,
        // and the rows are filled in it).
        (Actor::Dealer, "draw cards=wh.fi", "draw cards=wh.fi"),
        (
            Actor::Dealer,
            "draw djinns=leta.baal.enki",
            "draw djinns=leta.baal.enki",
        ),
        (
            Actor::Dealer,
            "refill cards=wh.fi djinns=leta.baal",
            "refill cards=wh.fi djinns=leta.baal",
        ),
    ] {
        assert_eq!(s.canonical(actor, text).unwrap(), stored, "{text}");
        // Canonical text is a fixed point.
        assert_eq!(s.canonical(actor, stored).unwrap(), stored, "{stored}");
    }
    // The deal: each tile's three meeples in tribe order; the layout, the markers, the cards
    // and the djinns as dealt.
    let deal = s.canonical(Actor::Dealer, DEAL).unwrap();
    assert!(
        deal.contains(" meeples=YYG.GRR.GBB.WWW.WRR.YGG.WGB."),
        "{deal}"
    );
    assert!(
        deal.starts_with("deal layout=P10.S6.V5.O8.V5.O8.S6.S6.L4."),
        "{deal}"
    );
    assert!(
        deal.ends_with(" order=2.0.3.1 cards=po.fk.fk.sp.fk.fk.fk.pa.fi djinns=kumarbi.boaz.enki"),
        "{deal}"
    );
    // A card named twice is no pair of cards: the notation says so.
    match s.canonical(seat(0), "buy 2 2") {
        Err(EntryError::Notation(e)) => assert!(e.reason.contains("named twice"), "{e}"),
        other => panic!("{other:?}"),
    }
}

/// The dealer writes canonical text (so a seeded game's dealt entries, stored canonical, still
/// agree with what the seed deals when a record is imported), and the deal it writes before
/// and after issue 37 is the same position.
#[test]
fn the_dealer_writes_canonical_outcomes() {
    let rules = Erased::<FiveTribes>::new();
    for seed in 0..6u64 {
        let players = 2 + (seed % 3) as u8;
        let p = playout::<FiveTribes>(&Options { players }, seed, 100_000, true).unwrap();
        let s = rules
            .new_game(&serde_json::json!({ "players": players }))
            .unwrap();
        for a in &p.log {
            if let Action::Chance(c) = a {
                let text = FiveTribes::format_chance(c);
                assert_eq!(s.canonical(Actor::Dealer, &text).unwrap(), text);
                assert_eq!(FiveTribes::parse_chance(&text).as_ref(), Ok(c));
            }
        }
    }
    // The deal in its old spelling and in its canonical one give the same position.
    let game = || FiveTribes::new_game(&Options { players: 4 }).unwrap();
    let (mut old, mut new) = (game(), game());
    FiveTribes::resolve(&mut old, &FiveTribes::parse_chance(DEAL).unwrap()).unwrap();
    let canonical = FiveTribes::format_chance(&FiveTribes::parse_chance(DEAL).unwrap());
    FiveTribes::resolve(&mut new, &FiveTribes::parse_chance(&canonical).unwrap()).unwrap();
    assert_eq!(old, new);
    // ... and the fast reading takes the old spelling (every game stored before) to it too.
    assert_eq!(
        FiveTribes::read_chance(DEAL),
        Some(FiveTribes::parse_chance(DEAL).unwrap())
    );
}

/// A move built in code out of the notation's order (only code can build one: the parser
/// never gives it) is refused with the notation's rule, not with a rule of the game it does
/// not break; `legal_moves` lists the canonical move only.
#[test]
fn moves_built_out_of_order_are_refused_by_the_notation_rule() {
    let (mut buys, mut kills) = (0, 0);
    for seed in 0..40u64 {
        let players = 2 + (seed % 3) as u8;
        let p = playout::<FiveTribes>(&Options { players }, seed, 100_000, true).unwrap();
        let mut s = FiveTribes::new_game(&Options { players }).unwrap();
        for a in &p.log {
            if let Action::Move(who, _) = a {
                let mut list = Default::default();
                FiveTribes::legal_moves(&s, &mut list);
                for m in list.iter() {
                    let swapped = match *m {
                        Move::Buy {
                            first,
                            second: Some(second),
                        } => {
                            buys += 1;
                            let twice = Move::Buy {
                                first,
                                second: Some(first),
                            };
                            assert_eq!(refusal(&s, *who, &twice), "notation");
                            Move::Buy {
                                first: second,
                                second: Some(first),
                            }
                        }
                        Move::Kill {
                            target:
                                Target::Tile {
                                    tile,
                                    first,
                                    second: Some(second),
                                },
                            iblis,
                        } if first != second => {
                            kills += 1;
                            Move::Kill {
                                target: Target::Tile {
                                    tile,
                                    first: second,
                                    second: Some(first),
                                },
                                iblis,
                            }
                        }
                        _ => continue,
                    };
                    assert!(!list.contains(&swapped));
                    assert_eq!(refusal(&s, *who, &swapped), "notation", "{swapped:?}");
                    // The text of the swapped move is the canonical move.
                    let text = FiveTribes::format_move(&swapped);
                    assert_eq!(FiveTribes::parse_move(&text).as_ref(), Ok(m), "{text}");
                }
            }
            FiveTribes::apply(&mut s, a).unwrap();
        }
    }
    assert!(buys > 0 && kills > 0, "{buys} buys, {kills} kills");
}

fn refusal(s: &State, seat: Seat, m: &Move) -> &'static str {
    let mut t = s.clone();
    let e = FiveTribes::play(&mut t, seat, m).unwrap_err();
    assert_eq!(&t, s);
    e.rule()
}

/// A deal's sizes: the layout's 30 tiles, 3 meeples a tile, the 9 cards and the 3 djinns are the
/// same in every game, fixed by the notation (`notation`: `BAD_NOTATION` in the store);
/// the turn order markers are as many as the player count makes them (`chance.deal`, a rule:
/// `ILLEGAL_MOVE`), however many are written.
#[test]
fn a_deal_of_the_wrong_size_gets_one_code_per_list() {
    let rules = Erased::<FiveTribes>::new();
    let with = |field: &str, value: &str| -> String {
        DEAL.split(' ')
            .map(|w| match w.split_once('=') {
                Some((k, _)) if k == field => format!("{k}={value}"),
                _ => w.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let field = |name: &str| -> String {
        DEAL.split(' ')
            .find_map(|w| w.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
            .unwrap()
            .to_string()
    };
    let (layout, meeples) = (field("layout"), field("meeples"));
    let all_but_last = |l: &str| l.rsplit_once('.').unwrap().0.to_string();
    let notation = [
        with("cards", "po.fk.fk.sp.fk.fk.fk.pa"),
        with("cards", "po.fk.fk.sp.fk.fk.fk.pa.fi.fi"),
        with("cards", &["fi"; 40].join(".")),
        with("cards", "-"),
        with("djinns", "kumarbi.boaz"),
        with("djinns", "kumarbi.boaz.enki.leta"),
        with("djinns", "-"),
        with("layout", &format!("{layout}.P6")),
        with("layout", &all_but_last(&layout)),
        with("meeples", &format!("{meeples}.RRR")),
        with("meeples", &all_but_last(&meeples)),
        with("meeples", &format!("YYGG{}", &meeples[3..])),
        with("meeples", &format!("YY{}", &meeples[3..])),
    ];
    for (players, order) in [(4, "2.0.3.1"), (2, "1.0.1.0"), (3, "2.0.1")] {
        let mut s = rules
            .new_game(&serde_json::json!({ "players": players }))
            .unwrap();
        let before = s.encode();
        for text in &notation {
            let text = text.replace("order=2.0.3.1", &format!("order={order}"));
            match s.apply(Actor::Dealer, &text) {
                Err(EntryError::Notation(_)) => {}
                other => panic!("{players} players, `{text}`: {other:?}"),
            }
        }
        let markers: Vec<String> = match players {
            2 => vec!["1.0.1", "1.0.1.0.1", "1.0.1.1", "0.1.0.1.0.1.0.1.0"],
            3 => vec!["2.0", "2.0.1.0", "2.0.1.2.0.1", "2.0.3"],
            _ => vec!["2.0.3", "2.0.3.1.0", "2.0.3.1.0.1.2.3", "0.0.0.0"],
        }
        .into_iter()
        .map(|o| with("order", o))
        .collect();
        for text in &markers {
            let e = s.apply(Actor::Dealer, text).unwrap_err();
            assert_eq!(e.code(), "chance.deal", "{players} players, `{text}`: {e}");
        }
        assert_eq!(s.encode(), before);
        s.apply(Actor::Dealer, &with("order", order)).unwrap();
    }
}

/// A draw's size is the position's (what the djinn draws, what the piles and the bag hold):
/// a draw of the wrong size is `chance.draw`, however long, never the notation's.
#[test]
fn a_draw_of_the_wrong_size_is_the_draws_rule_however_long() {
    let rules = Erased::<FiveTribes>::new();
    // The first clean-up of a recorded game.
    let p = playout::<FiveTribes>(&Options { players: 3 }, 7, 100_000, true).unwrap();
    let mut s = rules
        .new_game(&serde_json::json!({ "players": 3 }))
        .unwrap();
    let mut t = FiveTribes::new_game(&Options { players: 3 }).unwrap();
    let mut refills = 0;
    for a in &p.log {
        if matches!(t.phase, Phase::Refill) {
            refills += 1;
            let before = s.encode();
            for text in [
                format!("refill cards={} djinns=-", ["fi"; 17].join(".")),
                format!("refill cards={} djinns=-", ["fi"; 40].join(".")),
                format!(
                    "refill cards=- djinns={}",
                    [
                        "leta", "baal", "enki", "boaz", "iblis", "nekir", "utug", "sloar",
                        "shamhat"
                    ]
                    .join(".")
                ),
            ] {
                let e = s.apply(Actor::Dealer, &text).unwrap_err();
                assert_eq!(e.code(), "chance.draw", "`{text}`: {e}");
            }
            assert_eq!(s.encode(), before);
        }
        let text = match a {
            Action::Move(_, m) => FiveTribes::format_move(m),
            Action::Chance(c) => FiveTribes::format_chance(c),
        };
        let actor = match a {
            Action::Move(who, _) => Actor::Seat(*who),
            Action::Chance(_) => Actor::Dealer,
        };
        s.apply(actor, &text).unwrap();
        FiveTribes::apply(&mut t, a).unwrap();
        if refills > 0 {
            break;
        }
    }
    assert!(refills > 0);
}

/// Importing a seeded record stores each entry's canonical text and checks each chance entry
/// against what the seed deals (`store::portable`): the random samples kept as test data, whose deals and
/// Anun-Nak draws were written in draw order before issue 37, still agree, because the dealer
/// writes the canonical text the parser now gives them.
#[test]
fn seeded_samples_still_agree_with_what_their_seed_deals() {
    let rules = Erased::<FiveTribes>::new();
    let mut dealt = 0;
    for line in include_str!("../../../tests/data/random-samples/five-tribes.ndjson").lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let seed = v["seed"].as_u64().expect("a seeded sample");
        let mut s = rules
            .new_game_recorded(
                &v["options"],
                v["rules_version"].as_str().unwrap(),
                v["data_hash"].as_str().unwrap(),
            )
            .unwrap();
        for e in v["entries"].as_array().unwrap() {
            let actor: Actor = e["actor"].as_str().unwrap().parse().unwrap();
            let text = e["notation"].as_str().unwrap();
            let canonical = s.canonical(actor, text).unwrap();
            if actor == Actor::Dealer {
                let ply = rules_core::Ply(e["ply"].as_u64().unwrap() as u32);
                assert_eq!(s.deal(seed, ply).as_deref(), Some(canonical.as_str()));
                dealt += 1;
            }
            s.apply(actor, &canonical).unwrap();
        }
    }
    assert!(dealt > 100, "{dealt}");
}
