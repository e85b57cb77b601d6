//! Rules scenarios: positions the rules text makes concrete, written as data in
//! `tests/scenarios/*.toml` and run by this one generic test. Each reads given / when / then:
//! **given** a position (players, options, map sides, ports, scoring tiles, seats, units,
//! boxes, held contracts, prices, round, the seat to act or a phase), **when** `steps` are
//! applied in notation, **then** every `expect` line holds; with `error`, the last step is
//! refused with that rule code and the state is unchanged. Format: `tests/scenarios/README.md`.

use caledonia::ids::{Clan, ContractId, Good, Hex, Import, PortId, TileId, Unit};
use caledonia::map::Map;
use caledonia::state::{Phase, Rules, State, Step, Turn};
use caledonia::{Caledonia, Chance, Deal, Options};
use rules_core::{Game, Notation, RuleViolation, Seat, ToAct};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    name: String,
    source: String,
    /// The rules version to play under (`clans-of-caledonia/3`, `.../2`); default the current one.
    rules: Option<String>,
    players: u8,
    #[serde(default)]
    options: BTreeMap<String, bool>,
    sides: Option<[u8; 4]>,
    ports: Option<[u8; 4]>,
    tiles: Option<[u8; 5]>,
    #[serde(default)]
    round: Option<u8>,
    turn: Option<u8>,
    phase: Option<String>,
    #[serde(default)]
    order: Vec<u8>,
    #[serde(default)]
    seats: Vec<String>,
    #[serde(default)]
    units: Vec<String>,
    boxes: Option<Vec<u8>>,
    pile: Option<Vec<u8>>,
    #[serde(default)]
    prices: Vec<String>,
    #[serde(default)]
    imports: Vec<u16>,
    #[serde(default)]
    steps: Vec<String>,
    error: Option<String>,
    #[serde(default)]
    expect: Vec<String>,
    /// A hand-made map instead of a position: `land`, `lochs`, `rivers` (`"b2-c2"`), the
    /// units `own` with `shipping`; expectations `reach has HEX` / `reach lacks HEX`.
    #[serde(default)]
    layout: Option<Layout>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Layout {
    land: Vec<String>,
    lochs: Vec<String>,
    #[serde(default)]
    rivers: Vec<String>,
    own: Vec<String>,
    shipping: u8,
}

fn rules_of(sc: &Scenario) -> Rules {
    sc.rules.as_deref().map_or(Rules::CURRENT, |r| {
        Rules::from_name(r).unwrap_or_else(|| panic!("unknown rules version {r}"))
    })
}

/// A layout scenario: the reach of `own` on the hand-made map, under the scenario's rules.
fn run_layout(sc: &Scenario, l: &Layout) -> Result<(), String> {
    let mask = |v: &[String]| v.iter().fold(0u128, |m, h| m | hex(h).bit());
    let rivers: Vec<(Hex, Hex)> = l
        .rivers
        .iter()
        .map(|e| {
            let (a, b) = e.split_once('-').expect("river: HEX-HEX");
            (hex(a), hex(b))
        })
        .collect();
    let map = Map::from_layout(mask(&l.land), mask(&l.lochs), &rivers);
    let reach = map.reach(mask(&l.own), l.shipping, rules_of(sc) >= Rules::V3);
    for line in &sc.expect {
        let (want, h) = if let Some(h) = line.strip_prefix("reach has ") {
            (true, h)
        } else if let Some(h) = line.strip_prefix("reach lacks ") {
            (false, h)
        } else {
            return Err(format!(
                "layout scenarios expect `reach has|lacks HEX`, not `{line}`"
            ));
        };
        if (reach & hex(h).bit() != 0) != want {
            return Err(format!("`{line}` fails"));
        }
    }
    Ok(())
}

fn hex(s: &str) -> Hex {
    Hex::parse(s).unwrap_or_else(|| panic!("bad hex {s}"))
}

fn build(sc: &Scenario) -> State {
    let mut o = Options::new(sc.players);
    for (k, v) in &sc.options {
        match k.as_str() {
            "market_drift" => o.market_drift = *v,
            "bonus_retrieve" => o.bonus_retrieve = *v,
            "port7_neighbour_bonus" => o.port7_neighbour_bonus = *v,
            "kickstarter" => o.kickstarter = *v,
            "static_imports" => o.static_imports = *v,
            _ => panic!("unknown option {k}"),
        }
    }
    let mut s = State::new_under(o, rules_of(sc));
    // Clans per seat from `seats` (default: Robertson, Campbell, Cunningham, MacKenzie: no
    // ability that changes costs or money unless a scenario asks for it is hard, so the
    // defaults are the plainest: clans whose powers the scenario does not touch).
    let default_clans = [
        Clan::Cunningham,
        Clan::MacKenzie,
        Clan::Campbell,
        Clan::Buchanan,
    ];
    let mut clans: Vec<Clan> = (0..sc.players)
        .map(|i| default_clans[usize::from(i)])
        .collect();
    for (i, spec) in sc.seats.iter().enumerate() {
        for kv in spec.split_whitespace() {
            if let Some(c) = kv.strip_prefix("clan=") {
                clans[i] = Clan::parse(c).unwrap_or_else(|| panic!("bad clan {c}"));
            }
        }
    }
    // The offer (what the clan phase chooses from): the seats' clans first, filled up with
    // the base clans (MacEwen only joins with the Kickstarter option).
    let in_play = if o.kickstarter {
        Clan::ALL
    } else {
        &Clan::ALL[..8]
    };
    let mut offer: arrayvec::ArrayVec<(Clan, u8), 5> = arrayvec::ArrayVec::new();
    for c in clans.iter().chain(in_play).filter(|c| in_play.contains(c)) {
        if offer.len() <= usize::from(sc.players) && !offer.iter().any(|(k, _)| k == c) {
            offer.push((*c, offer.len() as u8 + 1));
        }
    }
    // By default the boxes hold what a deal leaves: contracts 1.. in the boxes it fills, the
    // rest (rules 3 solo: the sixth box) empty.
    let boxes = sc.boxes.clone().unwrap_or_else(|| {
        (1..=s.box_count() as u8)
            .map(|b| {
                if usize::from(b) <= s.deal_count() {
                    b
                } else {
                    0
                }
            })
            .collect()
    });
    let deal = Deal {
        sides: sc.sides.unwrap_or([1; 4]),
        ports: sc.ports.unwrap_or([1, 2, 3, 4]).map(PortId),
        tiles: sc.tiles.unwrap_or([1, 2, 3, 4, 5]).map(TileId),
        first: 0,
        offer,
        boxes: (1..=s.deal_count() as u8).map(ContractId).collect(),
    };
    Caledonia::resolve(&mut s, &Chance::Deal(Box::new(deal))).unwrap();
    s.boxes = boxes
        .iter()
        .map(|&b| if b == 0 { None } else { Some(ContractId(b)) })
        .collect();
    s.pile = (1..=50u8)
        .filter(|i| !boxes.contains(i))
        .fold(0, |m, i| m | (1u64 << i));
    for (i, c) in clans.iter().enumerate() {
        s.apply_clan(i as u8, *c);
        // Start-tile goods would blur the numbers: seats start with none unless listed.
        s.seats[i].goods = [0; 6];
        s.seats[i].money = 50;
    }
    if let Some(pile) = &sc.pile {
        s.pile = pile.iter().fold(0, |m, &i| m | (1u64 << i));
    }
    for (i, spec) in sc.seats.iter().enumerate() {
        let p = &mut s.seats[i];
        for kv in spec.split_whitespace() {
            let (k, v) = kv
                .split_once('=')
                .unwrap_or_else(|| panic!("bad seat field {kv}"));
            let n = || {
                v.parse::<i64>()
                    .unwrap_or_else(|_| panic!("bad number {kv}"))
            };
            match k {
                "clan" => {}
                "money" => p.money = n() as i32,
                "shipping" => p.shipping = n() as u8,
                "merchants" => p.merchants_stock = n() as u8,
                "track" => p.merchants_track = n() as u8,
                "glory" => p.glory = n() as u32,
                "hops" => p.hops = n() as u16,
                "meat" => p.meat = n() as u16,
                "tech" => p.tech = [v.contains('w'), v.contains('m')],
                "held" => {
                    p.held = v
                        .split(',')
                        .map(|x| ContractId(x.parse().unwrap()))
                        .collect()
                }
                "fulfilled" => {
                    p.fulfilled = v
                        .split(',')
                        .map(|x| x.parse::<u8>().unwrap())
                        .fold(0, |m, i| m | (1u64 << i))
                }
                "imports" => {
                    let v: Vec<u16> = v.split(',').map(|x| x.parse().unwrap()).collect();
                    p.imports = [v[0], v[1], v[2]];
                }
                "cellar" => {
                    for (slot, x) in p.cellar.iter_mut().zip(v.split(',')) {
                        *slot = x.parse().unwrap();
                    }
                }
                "ports" => {
                    p.ports_used = v
                        .split(',')
                        .map(|x| x.parse::<u8>().unwrap())
                        .fold(0, |m, i| m | (1u16 << i))
                }
                k => {
                    if let Some(g) = Good::parse(k) {
                        p.goods[g.index()] = n() as u16;
                    } else if let Some(g) = k.strip_prefix("buy.").and_then(Good::parse) {
                        p.market_buy[g.index()] = n() as u8;
                    } else if let Some(g) = k.strip_prefix("sell.").and_then(Good::parse) {
                        p.market_sell[g.index()] = n() as u8;
                    } else if let Some(u) = k.strip_prefix("supply.").and_then(Unit::parse) {
                        let slot = p.slot(u);
                        p.supply[slot] = n() as u8;
                    } else {
                        panic!("unknown seat field {k}");
                    }
                }
            }
        }
    }
    for u in &sc.units {
        let w: Vec<&str> = u.split_whitespace().collect();
        let seat: usize = w[0].parse().unwrap();
        let unit = Unit::parse(w[1]).unwrap_or_else(|| panic!("bad unit {u}"));
        for h in &w[2..] {
            let p = &mut s.seats[seat];
            p.put(unit, hex(h));
            let slot = p.slot(unit);
            p.supply[slot] = p.supply[slot].saturating_sub(1);
        }
    }
    for pr in &sc.prices {
        let (g, v) = pr.split_once('=').unwrap();
        s.prices[Good::parse(g).unwrap().index()] = v.parse().unwrap();
    }
    for (i, n) in sc.imports.iter().enumerate() {
        s.import_track[i] = *n;
    }
    if !sc.order.is_empty() {
        s.order = sc.order.iter().copied().collect();
    }
    s.round = sc.round.unwrap_or(1);
    match (sc.turn, sc.phase.as_deref()) {
        (Some(t), None) => s.phase = Phase::Action(Turn::new(t)),
        (None, Some("workers")) => s.phase = Phase::Workers { idx: 0 },
        (None, Some("clans")) => {
            s.phase = Phase::Clans { idx: 0 };
            for p in &mut s.seats {
                p.start_tile = 0;
            }
        }
        (None, Some("production")) => s.start_production(),
        (None, Some("over")) => s.phase = Phase::Over,
        (None, Some("round-end")) => {
            s.score_round();
            s.next_round();
        }
        other => panic!("give turn = N or a phase, not {other:?}"),
    }
    s
}

fn apply_step(s: &mut State, step: &str) -> Result<(), String> {
    let (who, text) = step
        .split_once(' ')
        .ok_or("step: `<seat|dealer> <notation>`")?;
    if who == "dealer" {
        // As for a seat's move: what does not parse is refused under the code `notation`.
        let c = Caledonia::parse_chance(text).map_err(|_| "notation".to_string())?;
        Caledonia::resolve(s, &c).map_err(|e| e.rule().to_string())
    } else {
        let seat = Seat(who.parse().map_err(|_| "bad seat")?);
        let m = Caledonia::parse_move(text).map_err(|_| "notation".to_string())?;
        if Caledonia::to_act(s) == ToAct::Seat(seat) {
            let mut list = <Caledonia as Game>::MoveList::default();
            Caledonia::legal_moves(s, &mut list);
            let listed = list.as_slice().contains(&m);
            let r = Caledonia::play(s, seat, &m).map_err(|e| e.rule().to_string());
            assert_eq!(
                listed,
                r.is_ok(),
                "`{step}` listed={listed} but play gave {r:?}"
            );
            r
        } else {
            Caledonia::play(s, seat, &m).map_err(|e| e.rule().to_string())
        }
    }
}

fn value(s: &State, key: &str) -> String {
    let parts: Vec<&str> = key.split('.').collect();
    let scores = s.scores();
    match parts.as_slice() {
        ["phase"] => s.phase_name().to_string(),
        ["round"] => s.round.to_string(),
        ["to_act"] => match s.to_act() {
            ToAct::Seat(x) => x.0.to_string(),
            ToAct::Chance => "chance".into(),
            ToAct::Over => "over".into(),
        },
        ["step"] => match s.turn().map(|t| &t.step) {
            Some(Step::Start) => "start",
            Some(Step::Neighbour { .. }) => "neighbour",
            Some(Step::Keep { .. }) => "keep",
            Some(Step::Exchange { .. }) => "exchange",
            Some(Step::Bonus) => "bonus",
            Some(Step::After) => "after",
            Some(Step::Fulfil { .. }) => "fulfil",
            None => "-",
        }
        .into(),
        ["order"] => s
            .order
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        ["next_order"] => s
            .next_order
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        ["boxes"] => s
            .boxes
            .iter()
            .map(|b| b.map_or("-".into(), |c| c.0.to_string()))
            .collect::<Vec<_>>()
            .join(" "),
        ["pile"] => s.pile_len().to_string(),
        ["price", g] => s.price(Good::parse(g).unwrap()).to_string(),
        ["import", g] => s.import_track[Import::parse(g).unwrap().index()].to_string(),
        ["winners"] => s
            .outcome()
            .map(|o| {
                o.winners
                    .iter()
                    .map(|w| w.0.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_else(|| "-".into()),
        [seat, field, rest @ ..] if seat.starts_with("seat") => {
            let p = &s.seats[seat[4..].parse::<usize>().unwrap()];
            match (*field, rest) {
                ("money", []) => p.money.to_string(),
                ("glory", []) => p.glory.to_string(),
                ("hops", []) => p.hops.to_string(),
                ("shipping", []) => p.shipping.to_string(),
                ("merchants", []) => p.merchants_stock.to_string(),
                ("track", []) => p.merchants_track.to_string(),
                ("held", []) => p
                    .held
                    .iter()
                    .map(|c| c.0.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
                ("fulfilled", []) => p.fulfilled_count().to_string(),
                ("passed", []) => p.passed.to_string(),
                ("units", []) => p.all_units().count_ones().to_string(),
                ("tech", []) => format!("{}{}", u8::from(p.tech[0]), u8::from(p.tech[1])),
                ("cellar", []) => p
                    .cellar
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
                ("imports", []) => p
                    .imports
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
                ("buy", [g]) => p.market_buy[Good::parse(g).unwrap().index()].to_string(),
                ("sell", [g]) => p.market_sell[Good::parse(g).unwrap().index()].to_string(),
                ("supply", [u]) => p.supply[p.slot(Unit::parse(u).unwrap())].to_string(),
                ("count", [u]) => p.unit_count(Unit::parse(u).unwrap()).to_string(),
                ("at", [h]) => p.unit_at(hex(h)).map_or("-".into(), |u| u.to_string()),
                ("settlements", []) => s.map().settlements(p.all_units(), p.shipping).to_string(),
                (g, []) if Good::parse(g).is_some() => {
                    p.goods[Good::parse(g).unwrap().index()].to_string()
                }
                _ => panic!("unknown key {key}"),
            }
        }
        [score, cat] if score.starts_with("score") => {
            let sc = &scores[score[5..].parse::<usize>().unwrap()];
            if *cat == "total" {
                sc.total.to_string()
            } else {
                sc.category(cat)
                    .unwrap_or_else(|| panic!("no category {cat}"))
                    .to_string()
            }
        }
        _ => panic!("unknown key {key}"),
    }
}

fn check_expect(s: &State, line: &str, name: &str) {
    if let Some(rest) = line.strip_prefix("legal ") {
        let mut list = <Caledonia as Game>::MoveList::default();
        Caledonia::legal_moves(s, &mut list);
        let texts: Vec<String> = list.as_slice().iter().map(Caledonia::format_move).collect();
        if let Some(m) = rest.strip_prefix("has ") {
            assert!(
                texts.iter().any(|t| t == m),
                "{name}: `{m}` not legal; legal: {texts:?}"
            );
        } else if let Some(m) = rest.strip_prefix("lacks ") {
            assert!(!texts.iter().any(|t| t == m), "{name}: `{m}` is legal");
        } else if let Some(n) = rest.strip_prefix("count = ") {
            assert_eq!(texts.len().to_string(), n, "{name}: legal = {texts:?}");
        } else {
            panic!("{name}: bad legal line {line}");
        }
        return;
    }
    let (key, want) = line
        .split_once(" = ")
        .unwrap_or_else(|| panic!("{name}: bad expect {line}"));
    assert_eq!(value(s, key), want, "{name}: {key}");
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

/// Runs one scenario; a broken expectation panics with the scenario's name.
fn run(sc: &Scenario) -> Result<(), String> {
    if let Some(l) = &sc.layout {
        return run_layout(sc, l);
    }
    let mut s = build(sc);
    let n = sc.steps.len();
    for (i, step) in sc.steps.iter().enumerate() {
        let before = s.clone();
        let r = apply_step(&mut s, step);
        match (&sc.error, i + 1 == n) {
            (Some(code), true) => {
                assert_eq!(
                    r.as_ref().err(),
                    Some(code),
                    "{}: `{step}` should fail",
                    sc.name
                );
                assert_eq!(s, before, "{}: a refused step changed the state", sc.name);
            }
            _ => {
                if let Err(e) = r {
                    panic!("{}: step `{step}` refused: {e}", sc.name);
                }
            }
        }
    }
    for line in &sc.expect {
        check_expect(&s, line, &sc.name);
    }
    Ok(())
}

#[test]
fn scenarios() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios");
    // A broken expectation panics inside `run`: caught here, so that every failing scenario
    // is reported at once, by name, not only the first.
    let report = scenario_harness::run_dir::<Scenario>(std::path::Path::new(dir), |_, sc| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(sc))).unwrap_or_else(|p| {
            let why = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(why)
        })
    });
    assert!(report.count >= 150, "only {} scenarios", report.count);
    report.assert_passed();
}
