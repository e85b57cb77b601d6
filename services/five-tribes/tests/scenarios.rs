//! Rules scenarios: positions the rules text makes concrete, written as data in
//! `tests/scenarios/*.toml` and run by this one generic test (like shakmaty's perft files).
//!
//! Each scenario reads given / when / then:
//! - **given** a position: `players`, `turn` (the seat whose turn starts) or `phase = "bid"`
//!   with `bid_order`, `tiles`, `seats`, rows, track, supplies;
//! - **when** `steps` are applied in order (`"0 pick a1"`, `"dealer draw cards=fi"`);
//! - **then** every line of `expect` holds, and, with `error`, the last step is refused with
//!   that rule code (`notation`: its text does not parse, the store's `BAD_NOTATION`) and the
//!   state is unchanged; with `says`, the refusal's message contains that text; with `stored`,
//!   each step's text is stored as that canonical text (parsed, then formatted, as the store
//!   does).
//!
//! The format is documented in `tests/scenarios/README.md`.

use five_tribes::ids::{Colour, Djinn, Res, Tile};
use five_tribes::legal::MoveList;
use five_tribes::state::{Ending, Phase, Player, Rules, Stage, State, NOBODY};
use five_tribes::{FiveTribes, Move};
use rules_core::{Game, Notation, RuleViolation, Seat, ToAct};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    name: String,
    /// Where in the rules text (or which ruling) the scenario comes from.
    source: String,
    /// The rules version to play under (`five-tribes/1`); default the current one.
    rules: Option<String>,
    players: u8,
    turn: Option<u8>,
    phase: Option<String>,
    #[serde(default)]
    bid_order: Vec<u8>,
    /// `"spot:seat"`, spot = index on the turn order track (0..=8; costs 0,0,0,1,3,5,8,12,18).
    #[serde(default)]
    track: Vec<String>,
    /// `"a1 V5 YYB owner=1 palms=1 palaces=2"`; `-` for no meeples.
    #[serde(default)]
    tiles: Vec<String>,
    /// Kind of every tile not listed (default `L4`, red, no action worth noting).
    default_tile: Option<String>,
    /// `"gold=10 viziers=2 elders=1 camels=3 cards=iv,go,fk,fk djinns=iblis,boaz"`.
    #[serde(default)]
    seats: Vec<String>,
    row: Option<String>,
    djinn_row: Option<String>,
    palms_left: Option<u8>,
    palaces_left: Option<u8>,
    ending: Option<String>,
    #[serde(default)]
    used: Vec<String>,
    #[serde(default)]
    steps: Vec<String>,
    error: Option<String>,
    /// Text the refusal's message must contain.
    says: Option<String>,
    /// The canonical text of each step (`ACTOR NOTATION`), as a log stores it.
    #[serde(default)]
    stored: Vec<String>,
    #[serde(default)]
    expect: Vec<String>,
}

fn kind_index(code: &str) -> u8 {
    let kinds = &five_tribes::data::components().kinds;
    kinds
        .iter()
        .position(|k| k.code == code)
        .unwrap_or_else(|| panic!("unknown tile kind {code}")) as u8
}

fn tile(s: &str) -> Tile {
    Tile::parse(s).unwrap_or_else(|| panic!("bad tile {s}"))
}

fn colour(c: char) -> Colour {
    Colour::from_letter(c).unwrap_or_else(|| panic!("bad meeple {c}"))
}

fn build(sc: &Scenario) -> State {
    let c = five_tribes::data::components();
    let rules = sc.rules.as_deref().map_or(Rules::CURRENT, |r| {
        Rules::from_name(r).unwrap_or_else(|| panic!("unknown rules version {r}"))
    });
    let mut s = State::new_under(sc.players, rules);
    if sc.phase.as_deref() == Some("deal") {
        // A new game waiting on its deal: nothing else is given.
        return s;
    }
    s.round = 1;
    let default_kind = kind_index(sc.default_tile.as_deref().unwrap_or("L4"));
    s.board.kind = [default_kind; 30];
    for line in &sc.tiles {
        let mut w = line.split_whitespace();
        let t = tile(w.next().expect("tile"));
        let i = usize::from(t.0);
        s.board.kind[i] = kind_index(w.next().expect("kind"));
        let meeples = w.next().unwrap_or("-");
        if meeples != "-" {
            for ch in meeples.chars() {
                s.board.add(t, colour(ch), 1);
            }
        }
        for kv in w {
            let (k, v) = kv.split_once('=').expect("key=value");
            let n: u8 = v.parse().expect("number");
            match k {
                "owner" => s.board.owner[i] = n,
                "palms" => s.board.palms[i] = n,
                "palaces" => s.board.palaces[i] = n,
                _ => panic!("unknown tile key {k}"),
            }
        }
    }
    let n = usize::from(sc.players);
    s.seats = (0..n)
        .map(|_| Player {
            gold: c.start_gold,
            camels: c.camels[n],
            ..Player::default()
        })
        .collect();
    for (i, line) in sc.seats.iter().enumerate() {
        let p = &mut s.seats[i];
        for kv in line.split_whitespace() {
            let (k, v) = kv.split_once('=').expect("key=value");
            match k {
                "gold" => p.gold = v.parse().unwrap(),
                "viziers" => p.viziers = v.parse().unwrap(),
                "elders" => p.elders = v.parse().unwrap(),
                "camels" => p.camels = v.parse().unwrap(),
                "fakirs" => p.cards[9] = v.parse().unwrap(),
                "cards" => {
                    for code in v.split(',') {
                        p.cards[usize::from(Res::from_code(code).expect("card").0)] += 1;
                    }
                }
                "djinns" => {
                    for d in v.split(',') {
                        p.djinns.insert(Djinn::from_slug(d).expect("djinn"));
                    }
                }
                _ => panic!("unknown seat key {k}"),
            }
        }
    }
    if let Some(row) = &sc.row {
        s.row = row
            .split_whitespace()
            .map(|c| Res::from_code(c).expect("card"))
            .collect();
    }
    if let Some(row) = &sc.djinn_row {
        s.djinn_row = row
            .split_whitespace()
            .map(|d| Djinn::from_slug(d).expect("djinn"))
            .collect();
    }
    // Piles: everything not on the table or in hands.
    for (i, &n) in c.card_counts.iter().enumerate() {
        let out = s.row.iter().filter(|r| usize::from(r.0) == i).count() as u8
            + s.seats.iter().map(|p| p.cards[i]).sum::<u8>();
        s.deck[i] = n.saturating_sub(out);
    }
    s.djinn_deck = five_tribes::ids::DjinnSet::ALL;
    for d in s.djinn_row.clone() {
        s.djinn_deck.remove(d);
    }
    for p in s.seats.clone() {
        for d in p.djinns.iter() {
            s.djinn_deck.remove(d);
        }
    }
    for col in 0..5 {
        let out: u8 = s.board.meeples().iter().map(|m| m[col]).sum::<u8>()
            + if col == 0 {
                s.seats.iter().map(|p| p.viziers).sum()
            } else {
                0
            }
            + if col == 1 {
                s.seats.iter().map(|p| p.elders).sum()
            } else {
                0
            };
        s.bag[col] = c.meeple_counts[col].saturating_sub(out);
    }
    if let Some(n) = sc.palms_left {
        s.palms_left = n;
    } else {
        s.palms_left = c.palms - s.board.palms.iter().sum::<u8>();
    }
    if let Some(n) = sc.palaces_left {
        s.palaces_left = n;
    } else {
        s.palaces_left = c.palaces - s.board.palaces.iter().sum::<u8>();
    }
    for spot_seat in &sc.track {
        let (spot, seat) = spot_seat.split_once(':').expect("spot:seat");
        s.turn_track[spot.parse::<usize>().unwrap()] = seat.parse().unwrap();
    }
    s.bid_order = sc.bid_order.iter().copied().collect();
    s.ending = sc.ending.as_deref().map(|e| match e {
        "last-camel" => Ending::LastCamel,
        "no-meeple-move" => Ending::NoMeepleMove,
        _ => panic!("unknown ending {e}"),
    });
    for d in &sc.used {
        s.djinns_used.insert(Djinn::from_slug(d).expect("djinn"));
    }
    match (sc.turn, sc.phase.as_deref()) {
        (Some(seat), None) => {
            s.phase = Phase::Turn {
                seat,
                stage: Stage::Start,
            }
        }
        (None, Some("bid")) => s.phase = Phase::Bid,
        (None, Some("over")) => s.phase = Phase::Over,
        other => panic!("give `turn = SEAT` or `phase = \"bid\"|\"over\"|\"deal\"`, not {other:?}"),
    }
    s
}

/// A refused step: the rule code (`notation` when the text does not parse) and the message.
struct Refusal {
    code: String,
    message: String,
}

fn step(s: &mut State, line: &str) -> Result<(), Refusal> {
    let (actor, rest) = line.split_once(' ').expect("ACTOR NOTATION");
    let notation = |e: rules_core::NotationError| Refusal {
        code: "notation".into(),
        message: e.to_string(),
    };
    let rule = |e: five_tribes::FtError| Refusal {
        code: e.rule().into(),
        message: e.to_string(),
    };
    if actor == "dealer" {
        let c = FiveTribes::parse_chance(rest).map_err(notation)?;
        FiveTribes::resolve(s, &c).map_err(rule)
    } else {
        let m = FiveTribes::parse_move(rest).map_err(notation)?;
        FiveTribes::play(s, Seat(actor.parse().expect("seat")), &m).map_err(rule)
    }
}

/// The text a log stores for a step: its canonical form, parsed then formatted.
fn stored(line: &str) -> String {
    let (actor, rest) = line.split_once(' ').expect("ACTOR NOTATION");
    let text = if actor == "dealer" {
        FiveTribes::parse_chance(rest).map(|c| FiveTribes::format_chance(&c))
    } else {
        FiveTribes::parse_move(rest).map(|m| FiveTribes::format_move(&m))
    };
    match text {
        Ok(t) => format!("{actor} {t}"),
        Err(e) => format!("(does not parse: {e})"),
    }
}

fn stage_name(s: &State) -> &'static str {
    match &s.phase {
        Phase::Turn { stage, .. } => match stage {
            Stage::Start => "start",
            Stage::Moving { .. } => "moving",
            Stage::Builders { .. } => "builders",
            Stage::Assassins { .. } => "assassins",
            Stage::TileAction { .. } => "tile-action",
            Stage::Free => "free",
            Stage::Sibittis { .. } => "sibittis",
        },
        _ => "-",
    }
}

fn get(s: &State, path: &str) -> String {
    let legal = || {
        let mut ms = MoveList::new();
        s.legal_moves(&mut ms);
        ms
    };
    match path {
        "phase" => {
            return match s.phase {
                Phase::Deal => "deal",
                Phase::Bid => "bid",
                Phase::Turn { .. } => "turn",
                Phase::Refill => "refill",
                Phase::Over => "over",
            }
            .into()
        }
        "stage" => return stage_name(s).into(),
        "to_act" => {
            return match s.to_act() {
                ToAct::Seat(x) => x.to_string(),
                ToAct::Chance => "chance".into(),
                ToAct::Over => "over".into(),
            }
        }
        "round" => return s.round.to_string(),
        "ending" => return s.ending.map_or("-".into(), |e| format!("{e:?}")),
        "palms_left" => return s.palms_left.to_string(),
        "palaces_left" => return s.palaces_left.to_string(),
        "row" => return s.row.iter().map(|r| r.code()).collect::<Vec<_>>().join(" "),
        "djinn_row" => {
            return s
                .djinn_row
                .iter()
                .map(|d| d.slug())
                .collect::<Vec<_>>()
                .join(" ")
        }
        "bid_order" => {
            return s
                .bid_order
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        }
        "track" => {
            return (0..9)
                .filter(|&i| s.turn_track[i] != NOBODY)
                .map(|i| format!("{i}:{}", s.turn_track[i]))
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
        "legal count" => return legal().len().to_string(),
        "legal" => {
            return legal()
                .iter()
                .map(FiveTribes::format_move)
                .collect::<Vec<_>>()
                .join(" | ");
        }
        "deck size" => return s.deck_size().to_string(),
        _ => {}
    }
    let (head, field) = path
        .split_once('.')
        .unwrap_or_else(|| panic!("unknown path {path}"));
    if let Some(n) = head.strip_prefix("seat") {
        let p = s.player(n.parse().expect("seat"));
        return match field {
            "gold" => p.gold.to_string(),
            "viziers" => p.viziers.to_string(),
            "elders" => p.elders.to_string(),
            "camels" => p.camels.to_string(),
            "fakirs" => p.fakirs().to_string(),
            "djinns" => p
                .djinns
                .iter()
                .map(|d| d.slug())
                .collect::<Vec<_>>()
                .join(" "),
            code => p.cards[usize::from(
                Res::from_code(code)
                    .unwrap_or_else(|| panic!("unknown field {code}"))
                    .0,
            )]
            .to_string(),
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
    if head == "bag" {
        return s.bag[colour(field.chars().next().unwrap()) as usize].to_string();
    }
    if head == "discard" {
        return s.discard[usize::from(Res::from_code(field).expect("card").0)].to_string();
    }
    let t = tile(head);
    let i = usize::from(t.0);
    match field {
        "owner" => {
            if s.board.owner[i] == NOBODY {
                "-".into()
            } else {
                s.board.owner[i].to_string()
            }
        }
        "palms" => s.board.palms[i].to_string(),
        "palaces" => s.board.palaces[i].to_string(),
        "meeples" => s.board.total(t).to_string(),
        c => s.board.meeples()[i][colour(c.chars().next().unwrap()) as usize].to_string(),
    }
}

fn check(s: &State, expect: &str) -> Result<(), String> {
    if let Some(m) = expect.strip_prefix("legal has ") {
        let mv: Move = FiveTribes::parse_move(m).map_err(|e| e.to_string())?;
        let mut ms = MoveList::new();
        s.legal_moves(&mut ms);
        return if ms.contains(&mv) {
            Ok(())
        } else {
            Err(format!("`{m}` is not legal; legal: {}", get(s, "legal")))
        };
    }
    if let Some(m) = expect.strip_prefix("legal lacks ") {
        let mv: Move = FiveTribes::parse_move(m).map_err(|e| e.to_string())?;
        let mut ms = MoveList::new();
        s.legal_moves(&mut ms);
        return if ms.contains(&mv) {
            Err(format!("`{m}` is legal"))
        } else {
            Ok(())
        };
    }
    let (path, want) = expect
        .split_once(" = ")
        .ok_or_else(|| format!("`{expect}`: expected `PATH = VALUE`"))?;
    let got = get(s, path.trim());
    if got == want.trim() {
        Ok(())
    } else {
        Err(format!("{path}: expected {want}, got {got}"))
    }
}

fn run(file: &str, sc: &Scenario) -> Result<(), String> {
    let mut s = build(sc);
    let n = sc.steps.len();
    for (i, line) in sc.steps.iter().enumerate() {
        let before = s.clone();
        let r = step(&mut s, line);
        match (&sc.error, i + 1 == n, r) {
            (Some(code), true, Err(e)) => {
                if &e.code != code {
                    return Err(format!(
                        "step `{line}` failed with {} ({}), expected {code}",
                        e.code, e.message
                    ));
                }
                if let Some(says) = &sc.says {
                    if !e.message.contains(says.as_str()) {
                        return Err(format!(
                            "step `{line}` was refused with `{}`, which does not say `{says}`",
                            e.message
                        ));
                    }
                }
                if s != before {
                    return Err(format!("step `{line}` was refused but changed the state"));
                }
            }
            (Some(code), true, Ok(())) => {
                return Err(format!("step `{line}` was accepted, expected {code}"))
            }
            (_, _, Err(e)) => {
                return Err(format!("step `{line}` refused ({}): {}", e.code, e.message))
            }
            (_, _, Ok(())) => {
                // Legality invariant at every step: the move played was listed as legal.
                if let Some(m) = line
                    .split_once(' ')
                    .filter(|(a, _)| *a != "dealer")
                    .map(|(_, m)| m)
                {
                    let mv = FiveTribes::parse_move(m).map_err(|e| e.to_string())?;
                    let mut ms = MoveList::new();
                    before.legal_moves(&mut ms);
                    if !ms.contains(&mv) {
                        return Err(format!(
                            "`{m}` was accepted but not listed as legal ({file})"
                        ));
                    }
                }
            }
        }
    }
    if sc.error.is_some() && n == 0 {
        return Err("`error` needs at least one step".into());
    }
    if sc.says.is_some() && sc.error.is_none() {
        return Err("`says` needs `error`".into());
    }
    if !sc.stored.is_empty() {
        if sc.stored.len() != n {
            return Err(format!(
                "`stored` names {} entries for {n} steps",
                sc.stored.len()
            ));
        }
        let wrong: Vec<String> = sc
            .steps
            .iter()
            .zip(&sc.stored)
            .map(|(line, want)| (line, want, stored(line)))
            .filter(|(_, want, got)| got != *want)
            .map(|(line, want, got)| format!("`{line}` is stored as `{got}`, expected `{want}`"))
            .collect();
        if !wrong.is_empty() {
            return Err(wrong.join("\n    "));
        }
    }
    let failures: Vec<String> = sc
        .expect
        .iter()
        .filter_map(|e| check(&s, e).err())
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
        !self.expect.is_empty() || self.error.is_some() || !self.stored.is_empty()
    }
}

#[test]
fn rules_scenarios() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios");
    scenario_harness::run_dir::<Scenario>(std::path::Path::new(dir), run).assert_passed();
}
