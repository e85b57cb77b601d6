//! Rules scenarios: positions the rules texts make concrete, written as data in
//! `tests/scenarios/*.toml` and run by this one generic test.
//!
//! Each scenario reads given / when / then:
//! - **given** a position in the action phase (or `phase = ...`): `players`, `round`,
//!   `first`, `turn`, the display, book display, map, bases, bonus spaces and `seats`;
//! - **when** `steps` are applied in order (`"0 goods coffee 1,2"`, `"dealer draw ..."`);
//! - **then** every line of `expect` holds (`entry.N`: step N as the log stores it, in its
//!   canonical form), and, with `error`, the last step is refused with that code (a rule's,
//!   or `notation` for text that is no move or outcome at all) and the state is unchanged.
//!
//! The format is documented in `tests/scenarios/README.md`.

use mombasa::ids::{BookSpace, CardId, Company, DisplayPos};
use mombasa::notation::{parse_book, parse_card, parse_tile};
use mombasa::state::Rules;
use mombasa::{Mombasa, Move, Options, Phase, State};
use rules_core::{Game, Notation, RuleViolation, Seat};
use serde::Deserialize;

#[path = "support/paths.rs"]
mod paths;
use paths::{get, legal};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    name: String,
    source: String,
    /// The rules version to play under (`mombasa/1`); default the current one.
    #[serde(default)]
    rules: Option<String>,
    players: u8,
    /// The `first_player` option (a table game's first player).
    #[serde(default)]
    first_player: Option<u8>,
    #[serde(default)]
    phase: Option<String>,
    #[serde(default)]
    round: Option<u8>,
    #[serde(default)]
    first: u8,
    #[serde(default)]
    turn: u8,
    #[serde(default)]
    first_game: bool,
    /// `"R1 A3"`: display space and card; unlisted spaces are empty.
    #[serde(default)]
    display: Vec<String>,
    /// `"2a B7 coins=1"`: book space, book (or `-`), coins.
    #[serde(default)]
    books: Vec<String>,
    /// `"7 cai"`: region (1-based) held by a company.
    #[serde(default)]
    map: Vec<String>,
    /// `"cai 01111 11111 11111"`: the base's columns, front space first, 1 = a post.
    #[serde(default)]
    bases: Vec<String>,
    /// `"coffee 1"`: a bonus space taken by a seat.
    #[serde(default)]
    bonus: Vec<String>,
    /// Deck cards still in the deck; default: every deck card not placed elsewhere.
    #[serde(default)]
    deck: Option<Vec<String>>,
    #[serde(default)]
    coins: Option<Vec<u8>>,
    /// Books still in the supply; default: every book not placed elsewhere.
    #[serde(default)]
    book_supply: Option<Vec<String>>,
    #[serde(default)]
    seats: Vec<String>,
    #[serde(default)]
    steps: Vec<String>,
    error: Option<String>,
    /// Text the refusal's message must contain (with `error`).
    #[serde(default)]
    error_says: Option<String>,
    #[serde(default)]
    expect: Vec<String>,
}

fn card(seat: u8, code: &str) -> CardId {
    parse_card(code)
        .and_then(|r| r.resolve(seat))
        .unwrap_or_else(|| panic!("unknown card {code}"))
}

fn cards(seat: u8, list: &str) -> u128 {
    if list == "-" || list.is_empty() {
        return 0;
    }
    list.split(',').fold(0, |m, c| m | card(seat, c).bit())
}

fn company(s: &str) -> Company {
    Company::from_code(s).unwrap_or_else(|| panic!("unknown company {s}"))
}

fn build(sc: &Scenario) -> State {
    let rules = sc.rules.as_deref().map_or(Rules::CURRENT, |r| {
        Rules::from_name(r).unwrap_or_else(|| panic!("unknown rules version {r}"))
    });
    let o = Options {
        players: sc.players,
        first_game: sc.first_game,
        track_cards: false,
        first_player: sc.first_player,
    };
    let mut s = State::new_versioned(&o, rules, mombasa::data::data_hash()).expect("data");
    s.round = sc.round.unwrap_or(1);
    s.first = sc.first;
    s.setup_first = sc.first;
    s.turn = sc.turn;
    s.phase = match sc.phase.as_deref().unwrap_or("actions") {
        "actions" => Phase::Actions,
        "planning" => Phase::Planning,
        "setup" => Phase::Setup,
        "prep" => Phase::Prep,
        p => panic!("unknown phase {p}"),
    };
    let mut placed: u64 = 0;
    for line in &sc.display {
        let (pos, c) = line.split_once(' ').expect("POS CARD");
        let id = card(0, c);
        s.display[usize::from(DisplayPos::parse(pos).expect("pos").0)] = id.0;
        placed |= 1 << id.0;
    }
    for line in &sc.books {
        let mut w = line.split_whitespace();
        let sp = BookSpace::parse(w.next().expect("space")).expect("space");
        let b = w.next().expect("book");
        if b != "-" {
            let k = parse_book(b).expect("book");
            s.book_display[usize::from(sp.0)] = k;
            s.book_supply &= !(1 << k);
        }
        for kv in w {
            let n = kv.strip_prefix("coins=").expect("coins=N");
            s.book_coins[usize::from(sp.0)] = n.parse().unwrap();
        }
    }
    for line in &sc.map {
        let (r, c) = line.split_once(' ').expect("REGION COMPANY");
        let r: usize = r.parse().unwrap();
        let co = company(c);
        s.map[r - 1] = co as u8;
    }
    for line in &sc.bases {
        let mut w = line.split_whitespace();
        let co = company(w.next().unwrap());
        for (k, col) in w.enumerate() {
            s.bases[co.index()][k] =
                col.chars()
                    .enumerate()
                    .fold(0, |m, (i, ch)| if ch == '1' { m | (1 << i) } else { m });
        }
    }
    // Posts on the map and not taken from a listed base come from column 1's front.
    for co in Company::ALL {
        if !sc.bases.iter().any(|b| b.starts_with(co.code())) {
            for _ in 0..s.regions_of(co).count() {
                let col = (0..3).find(|&k| s.bases[co.index()][k] != 0).unwrap();
                let m = &mut s.bases[co.index()][col];
                *m &= *m - 1;
            }
        }
    }
    for line in &sc.bonus {
        let (space, seat) = line.split_once(' ').expect("SPACE SEAT");
        let i = mombasa::data::components()
            .bonus
            .iter()
            .position(|b| b.code == space)
            .expect("space");
        s.bonus[i] = seat.parse().unwrap();
    }
    if let Some(c) = &sc.coins {
        s.round_coins.copy_from_slice(c);
    }
    for (i, line) in sc.seats.iter().enumerate() {
        let seat = i as u8;
        let p = &mut s.seats[i];
        for kv in line.split_whitespace() {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            match k {
                "pounds" => p.pounds = v.parse().unwrap(),
                "hand" => p.hand = cards(seat, v),
                "slots" => {
                    for (k, c) in v.split(',').enumerate() {
                        if c != "-" {
                            p.slots[k] = card(seat, c).0;
                            p.face_up |= 1 << k;
                        }
                    }
                }
                // Slots (1-based) whose card was used.
                "used" => {
                    for k in v.split(',') {
                        p.face_up &= !(1 << (k.parse::<u8>().unwrap() - 1));
                    }
                }
                "tiles" => {
                    for t in v.split(',') {
                        let k = mombasa::data::components()
                            .bonus_tiles
                            .iter()
                            .position(|x| x.code == t)
                            .expect("tile");
                        p.tiles |= 1 << k;
                        p.tiles_up |= 1 << k;
                        s.tile_at[k] = seat;
                    }
                }
                "diamond" => p.diamond = v.parse().unwrap(),
                "ink" => p.ink = v.parse().unwrap(),
                "books" => {
                    for b in v.split(',') {
                        let k = parse_book(b).expect("book");
                        p.books.push(k);
                        s.book_supply &= !(1 << k);
                    }
                }
                "flipped" => {
                    for b in v.split(',') {
                        p.flipped |= 1 << (b.parse::<u8>().unwrap() - 1);
                    }
                }
                "track" => {
                    for (k, x) in v.split(',').enumerate() {
                        p.track[k] = x.parse().unwrap();
                    }
                }
                "markers" => p.markers = v.parse().unwrap(),
                "markers_used" => p.markers_used = v.parse().unwrap(),
                "ended" => p.ended = true,
                "ready" => p.ready = true,
                "start" => p.start = parse_tile(v).expect("tile"),
                "dealt" => {
                    let (a, b) = v.split_once(',').unwrap();
                    p.dealt = [parse_tile(a).unwrap(), parse_tile(b).unwrap()];
                }
                k if k.starts_with("pile") => {
                    let n: usize = k[4..].parse().unwrap();
                    p.piles[n - 1] = cards(seat, v);
                }
                _ => panic!("unknown seat key {k}"),
            }
        }
    }
    for p in &s.seats {
        placed |= (p.all_cards() & ((1u128 << 44) - 1)) as u64;
    }
    if let Some(list) = &sc.book_supply {
        s.book_supply = list
            .iter()
            .fold(0, |m, b| m | (1 << parse_book(b).expect("book")));
    }
    s.deck = match &sc.deck {
        Some(list) => list.iter().fold(0, |m, c| m | (1 << card(0, c).0)),
        None => s.deck & !placed,
    };
    s
}

/// A refused step: the code a client sees (`notation` for text that is no move or outcome,
/// as `EntryError::code` says; else the rule's) and the message.
struct Refusal {
    code: String,
    message: String,
}

/// The move or outcome of a step's text, or its notation refusal.
fn parse_step(line: &str) -> Result<(String, Result<Move, mombasa::Chance>), Refusal> {
    let (actor, rest) = line.split_once(' ').expect("ACTOR NOTATION");
    let notation = |e: rules_core::NotationError| Refusal {
        code: "notation".into(),
        message: e.to_string(),
    };
    if actor == "dealer" {
        let c = Mombasa::parse_chance(rest).map_err(notation)?;
        Ok((actor.into(), Err(c)))
    } else {
        let m = Mombasa::parse_move(rest).map_err(notation)?;
        Ok((actor.into(), Ok(m)))
    }
}

/// Applies a step; its text as a log stores it (the canonical form: parsed, then formatted),
/// or why it was refused.
fn step(s: &mut State, line: &str) -> Result<String, Refusal> {
    let (actor, parsed) = parse_step(line)?;
    let rule = |e: mombasa::MbError| Refusal {
        code: e.rule().into(),
        message: e.to_string(),
    };
    match parsed {
        Err(c) => {
            Mombasa::resolve(s, &c).map_err(rule)?;
            Ok(format!("dealer {}", Mombasa::format_chance(&c)))
        }
        Ok(m) => {
            Mombasa::play(s, Seat(actor.parse().expect("seat")), &m).map_err(rule)?;
            Ok(format!("{actor} {}", Mombasa::format_move(&m)))
        }
    }
}

/// The move of a seat's step, if it is one that parses.
fn step_move(line: &str) -> Option<Move> {
    match parse_step(line) {
        Ok((actor, Ok(m))) if actor != "dealer" => Some(m),
        _ => None,
    }
}

fn check(s: &State, entries: &[String], expect: &str) -> Result<(), String> {
    for (prefix, want) in [("legal has ", true), ("legal lacks ", false)] {
        if let Some(m) = expect.strip_prefix(prefix) {
            let mv: Move = Mombasa::parse_move(m).map_err(|e| e.to_string())?;
            return if legal(s).contains(&mv) == want {
                Ok(())
            } else {
                Err(format!("`{expect}` fails; legal: {}", get(s, "legal")))
            };
        }
    }
    let (path, want) = expect
        .split_once(" = ")
        .ok_or_else(|| format!("`{expect}`: expected `PATH = VALUE`"))?;
    // `entry.N`: step N (from 1) as the log stores it.
    let got = match path.trim().strip_prefix("entry.") {
        Some(n) => {
            let n: usize = n.parse().map_err(|_| format!("`{path}`: entry.N"))?;
            entries
                .get(n.wrapping_sub(1))
                .cloned()
                .ok_or_else(|| format!("no entry {n}"))?
        }
        None => get(s, path.trim()),
    };
    if got == want.trim() {
        Ok(())
    } else {
        Err(format!("{path}: expected {want}, got {got}"))
    }
}

fn run(sc: &Scenario) -> Result<(), String> {
    let mut s = build(sc);
    let mut entries = Vec::new();
    let n = sc.steps.len();
    for (i, line) in sc.steps.iter().enumerate() {
        let before = s.clone();
        let r = step(&mut s, line);
        match (&sc.error, i + 1 == n, r) {
            (Some(code), true, Err(e)) => {
                if e.code != *code {
                    return Err(format!(
                        "`{line}` failed with {} ({}), expected {code}",
                        e.code, e.message
                    ));
                }
                if let Some(text) = &sc.error_says {
                    if !e.message.contains(text.as_str()) {
                        return Err(format!(
                            "`{line}` refused with `{}`, not saying `{text}`",
                            e.message
                        ));
                    }
                }
                if s != before {
                    return Err(format!("`{line}` was refused but changed the state"));
                }
                if step_move(line).is_some_and(|mv| legal(&before).contains(&mv)) {
                    return Err(format!("`{line}` was refused but listed as legal"));
                }
            }
            (Some(code), true, Ok(_)) => return Err(format!("`{line}` accepted, expected {code}")),
            (_, _, Err(e)) => return Err(format!("`{line}` refused: {}", e.message)),
            (_, _, Ok(entry)) => {
                if step_move(line).is_some_and(|mv| !legal(&before).contains(&mv)) {
                    return Err(format!("`{line}` was accepted but not listed as legal"));
                }
                entries.push(entry);
            }
        }
    }
    let failures: Vec<String> = sc
        .expect
        .iter()
        .filter_map(|e| check(&s, &entries, e).err())
        .collect();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n    "))
    }
}

impl scenario_harness::Scenario for Scenario {
    fn name(&self) -> &str {
        &self.name
    }
    fn source(&self) -> &str {
        &self.source
    }
    fn asserts_something(&self) -> bool {
        !self.expect.is_empty() || self.error.is_some()
    }
}

#[test]
fn rules_scenarios() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios");
    let mut report =
        scenario_harness::run_dir::<Scenario>(std::path::Path::new(dir), |_, sc| run(sc));
    // Every shared ruling (M1–M16) and every ruling of data/mombasa/RULINGS.md has a test.
    let own = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/mombasa/RULINGS.md"
    ))
    .unwrap();
    let own_ids: Vec<String> = own
        .lines()
        .filter_map(|l| l.strip_prefix("| MB"))
        .filter_map(|l| l.split_whitespace().next())
        .map(|n| format!("MB{n}"))
        .collect();
    report.require_sources((1..=16).map(|n| format!("M{n}")).chain(own_ids));
    report.assert_passed();
}
