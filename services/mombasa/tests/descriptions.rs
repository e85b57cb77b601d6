//! Entries in words (`Presentation::describe_move` / `describe_chance`): every entry of every
//! sample game gets its own description (never the trait's fallback, never an unknown
//! component), and a few read exactly as written here.

#[path = "support/samples.rs"]
mod samples;

use mombasa::{Chance, Mombasa, Move};
use rules_core::{Notation, Presentation, Seat};
use samples::{replay_samples, Entry};
use std::collections::BTreeMap;

/// The description of an entry for a viewer who may see it.
fn describe(s: &mombasa::State, e: &Entry) -> String {
    match e {
        Entry::Move(seat, m) => Mombasa::describe_move(s, *seat, m),
        Entry::Chance(c) => Mombasa::describe_chance(s, c, true),
    }
}

fn notation(e: &Entry) -> String {
    match e {
        Entry::Move(_, m) => Mombasa::format_move(m),
        Entry::Chance(c) => Mombasa::format_chance(c),
    }
}

/// The first word of the notation: the kind of entry.
fn kind(e: &Entry) -> String {
    notation(e).split(' ').next().unwrap_or("").to_string()
}

#[test]
fn every_sample_entry_has_a_description_of_its_own() {
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    replay_samples(
        |g, s, e| {
            let text = describe(s, e);
            let n = notation(e);
            let fallback = match e {
                Entry::Move(seat, _) => text.starts_with(&format!("Seat {} plays ", seat.0)),
                Entry::Chance(_) => text.starts_with("The dealer"),
            };
            assert!(
                !fallback && !text.is_empty() && text != n,
                "game {g}, {n}: {text}"
            );
            assert!(!text.contains('?'), "game {g}, {n}: {text}");
            if let Entry::Move(seat, _) = e {
                assert!(text.starts_with(&format!("Seat {} ", seat.0)), "{text}");
            }
            if let Entry::Chance(c @ Chance::StartTiles { seat, .. }) = e {
                let hidden = Mombasa::describe_chance(s, c, false);
                assert_eq!(
                    hidden,
                    format!("Seat {seat} is dealt two start tiles (hidden)")
                );
            }
            *kinds.entry(kind(e)).or_default() += 1;
        },
        |_, _| {},
    );
    // Every kind of entry the samples hold was seen (rules 1 has no `cancel` or `book` entry).
    let seen: Vec<&str> = kinds.keys().map(String::as_str).collect();
    for k in [
        "setup", "tiles", "keep", "starts", "plan", "ready", "reveal", "goods", "buy", "step",
        "done", "expand", "enter", "clerk", "ink", "book", "pound", "diamond", "bonus", "end",
        "draw",
    ] {
        assert!(seen.contains(&k), "no {k} entry in the samples: {seen:?}");
    }
}

#[test]
fn hidden_moves_say_what_happened_without_what_was_chosen() {
    use mombasa::presentation::describe_hidden_move;
    let plan = Mombasa::parse_move("plan A3 2").unwrap();
    assert_eq!(
        describe_hidden_move(Seat(2), &plan),
        "Seat 2 plans a card (hidden until the reveal)"
    );
    let keep = Mombasa::parse_move("keep T4").unwrap();
    assert_eq!(
        describe_hidden_move(Seat(1), &keep),
        "Seat 1 keeps a start tile (hidden until the reveal)"
    );
    assert_eq!(
        describe_hidden_move(Seat(0), &Move::Ready),
        "Seat 0 is done planning"
    );
}

/// Every entry of every sample game: its notation and its description.
fn all_words() -> Vec<(String, String)> {
    let mut out = Vec::new();
    replay_samples(|_, s, e| out.push((notation(e), describe(s, e))), |_, _| {});
    out
}

#[test]
fn entries_read_as_written() {
    let words = all_words();
    let expect = |n: &str, w: &str| {
        let found = words.iter().any(|(nn, ww)| nn == n && ww == w);
        let said: Vec<&String> = words
            .iter()
            .filter(|(nn, _)| nn == n)
            .map(|(_, w)| w)
            .collect();
        assert!(found, "{n}: expected {w:?}, said {said:?}");
    };
    expect(
        "setup display=A8,A1,A2,A7,A4,A5,A6,A9,A3,B4,B11,B12 \
         books=A1,A5,A24,A6,B13,B1,B20,B21,C21,C9,C10,C18",
        "The setup: the display is dealt (R1 A8, R2 A1, R3 A2, R4 A7, M1 A4, M2 A5, M3 A6, \
         M4 A9, L1 A3, L2 B4, L3 B11, L4 B12) and the book display (2a A1, 2b A5, 3a A24, \
         3b A6, 4a B13, 4b B1, 5a B20, 5b B21, 6a C21, 6b C9, 7a C10, 7b C18)",
    );
    expect("tiles 0 T9,T2", "Seat 0 is dealt start tiles T9 and T2");
    expect("keep T2", "Seat 0 keeps start tile T2");
    expect(
        "starts T2,T6",
        "The start tiles kept are revealed: seat 0 T2, seat 1 T6",
    );
    expect(
        "plan X 3",
        "Seat 0 plans the card X (1 expansion point) in slot 3",
    );
    expect(
        "plan S8 2",
        "Seat 1 plans the card S8 (bookkeeper, 1 point) in slot 2",
    );
    expect("ready", "Seat 0 is done planning");
    expect(
        "reveal 0:S1@1,S5@2,X@3 1:S8@2,S1@3",
        "The plans are revealed: seat 0 S1 in slot 1, S5 in slot 2 and X in slot 3; \
         seat 1 S8 in slot 2 and S1 in slot 3",
    );
    expect(
        "reveal 0:S6@1,X@2,S2@3 1:-",
        "The plans are revealed: seat 0 S6 in slot 1, X in slot 2 and S2 in slot 3; seat 1 nothing",
    );
    expect(
        "goods coffee 3",
        "Seat 0 uses S4 (2 coffee) in slot 3 for 2 coffee units",
    );
    expect(
        "goods cotton t",
        "Seat 1 uses the cotton bonus tile for 2 cotton units",
    );
    expect(
        "step cpt",
        "Seat 0 moves 1 step on the Cape Town track, to space 3, gaining 1 pound",
    );
    expect(
        "buy R3",
        "Seat 1 buys B11 (diamond trader, 2 diamond steps, 1 pound, 1 more step per 2 mines \
         in Mombasa's regions) from display space R3 for 2 units",
    );
    expect(
        "expand cpt",
        "Seat 0 expands for Cape Town with 1 expansion point",
    );
    expect(
        "enter 24 1",
        "Seat 0 enters region 24 (Natal) for Cape Town with the post from base column 1, \
         for 1 point",
    );
    expect(
        "book 4a",
        "Seat 1 takes book B9 from space 4a for 1 bookkeeping point and the 1 pound on it",
    );
    expect("pound", "Seat 1 takes 1 pound for a bookkeeping point");
    expect(
        "diamond 2",
        "Seat 1 uses B11 (diamond trader, 2 diamond steps, 1 pound, 1 more step per 2 mines \
         in Mombasa's regions) in slot 2: 2 diamond steps and 1 pound",
    );
    expect("clerk 1", "Seat 0 uses S8 (bookkeeper, 1 point) in slot 1");
    expect(
        "flip 2",
        "Seat 0 pays 2 pounds to turn book A6 (bookkeeping space 2) face down",
    );
    expect("done", "Seat 0 leaves the ink marker where it is");
    expect("done", "Seat 0 forfeits 1 track step left");
    expect(
        "done",
        "Seat 1 ends the expansion for Cape Town (2 points unused) without entering a region",
    );
    expect(
        "bonus first",
        "Seat 1 places a bonus marker on the first-player space: first player next round, \
         and 1 bookkeeping point",
    );
    expect(
        "bonus coffee",
        "Seat 0 places a bonus marker on the coffee majority space: 2 track steps and the \
         coffee bonus tile for next round",
    );
    expect(
        "bonus buy R1",
        "Seat 1 places a bonus marker on the buy space and buys A3 (2 cotton) from display \
         space R1 for 2 pounds (1 fee and 1 price)",
    );
    expect(
        "bonus sell A3",
        "Seat 1 places a bonus marker on the sell space and sells A3 (2 cotton) for 2 pounds",
    );
    expect(
        "end 1",
        "Seat 0 ends their action phase, taking rest pile 1 (S1, S2, S8) into hand",
    );
    expect(
        "enter 15 2 3",
        "Seat 0 enters region 15 (Abyssinia) for Mombasa with the post from base column 2, \
         for 2 points, displacing Cairo's post, which returns to its base column 3",
    );
    expect(
        "ink",
        "Seat 3 moves the ink marker onto book A15 (bookkeeping space 1)",
    );
    expect(
        "draw cards=B9,B2,B15,B1 books=A18,B9",
        "The preparation refills the display (L1 B9, L2 B2, L3 B15, L4 B1) and the book \
         display (3b A18, 4a B9)",
    );
}

/// Rules 3 (rulings M15, M16) in words: a track space that printed a bonus marker pays none,
/// and a majority space whose tile another seat holds pays its steps alone; rules 2 as before.
#[test]
fn descriptions_follow_the_rules_version() {
    use mombasa::ids::Company;
    use mombasa::state::Rules;
    use mombasa::{BonusArg, Options, Phase, State};
    let o = Options {
        players: 3,
        first_game: false,
        track_cards: false,
        first_player: None,
    };
    let c = mombasa::data::components();
    let cotton_space = c.bonus.iter().position(|b| b.code == "cotton").unwrap() as u8;
    let cotton_tile = c
        .bonus_tiles
        .iter()
        .position(|t| t.code == "cotton")
        .unwrap();
    let at = |rules: Rules| {
        let mut s = State::new_versioned(&o, rules, mombasa::data::data_hash()).unwrap();
        s.phase = Phase::Actions;
        s.round = 2;
        // Mombasa's first-game side A1 prints a bonus marker on space 3.
        s.seats[0].track[Company::Mombasa.index()] = 2;
        s.tile_at[cotton_tile] = 0;
        s
    };
    let step = Move::Step(Company::Mombasa);
    let cotton = Move::Bonus {
        space: cotton_space,
        arg: BonusArg::None,
    };
    let v3 = at(Rules::V3);
    assert_eq!(
        Mombasa::describe_move(&v3, Seat(0), &step),
        "Seat 0 moves 1 step on the Mombasa track, to space 3"
    );
    assert_eq!(
        Mombasa::describe_move(&v3, Seat(1), &cotton),
        "Seat 1 places a bonus marker on the cotton majority space: 2 track steps (the cotton \
         bonus tile, held by seat 0, is not won)"
    );
    assert!(Mombasa::describe_move(&v3, Seat(0), &cotton)
        .ends_with("and the cotton bonus tile for next round"));
    let v2 = at(Rules::V2);
    assert_eq!(
        Mombasa::describe_move(&v2, Seat(0), &step),
        "Seat 0 moves 1 step on the Mombasa track, to space 3, gaining 1 bonus marker"
    );
    assert!(Mombasa::describe_move(&v2, Seat(1), &cotton)
        .ends_with("2 track steps and the cotton bonus tile for next round"));
}
