//! Entries in words: every move and chance outcome as a sentence, read against the position
//! before it ("Seat 1 expands with a cow to k10 paying £12").
//!
//! Amounts come from the rules themselves (unit costs, prices, the money a move changes), so
//! the words never disagree with the reducer. A move the position refuses (never one of a
//! recorded game) is still described, without the amounts.

use crate::data::{components, PortKind};
use crate::ids::{Clan, ContractId, Good, Hex, Tech, Unit};
use crate::moves::{Chance, Move, PortArgs, Upgrade};
use crate::state::{Phase, Rules, State, Step};
use crate::view::names::{terms, Need, Reward};

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Clan names as printed ("MacDonald"), from the slugs the rules use.
fn clan_name(c: Clan) -> &'static str {
    match c {
        Clan::Buchanan => "Buchanan",
        Clan::Campbell => "Campbell",
        Clan::Cunningham => "Cunningham",
        Clan::Fergusson => "Fergusson",
        Clan::MacDonald => "MacDonald",
        Clan::MacKenzie => "MacKenzie",
        Clan::Robertson => "Robertson",
        Clan::Stewart => "Stewart",
        Clan::MacEwen => "MacEwen",
    }
}

fn need_name(n: Need) -> &'static str {
    match n {
        Need::Wool => "wool",
        Need::Milk => "milk",
        Need::Grain => "grain",
        Need::Cheese => "cheese",
        Need::Bread => "bread",
        Need::Whisky => "whisky",
        Need::Beef => "beef",
        Need::Mutton => "mutton",
    }
}

fn reward_text(r: Reward, n: i32) -> String {
    match r {
        Reward::Money => format!("£{n}"),
        Reward::Hops => format!("{n} hops"),
        Reward::Cotton => format!("{n} cotton"),
        Reward::Tobacco => format!("{n} tobacco"),
        Reward::SugarCane => format!("{n} sugar cane"),
        Reward::FreeExpansion if n == 1 => "a free expansion".into(),
        Reward::FreeExpansion => format!("{n} free expansions"),
        Reward::BonusUpgrade if n == 1 => "a bonus upgrade".into(),
        Reward::BonusUpgrade => format!("{n} bonus upgrades"),
    }
}

/// "contract 12 (4 wool for 2 cotton and 1 hops)".
fn contract_text(id: ContractId) -> String {
    let data = usize::from(id.0)
        .checked_sub(1)
        .and_then(|i| components().contracts.get(i));
    let Some(k) = data else {
        return format!("contract {}", id.0);
    };
    let (asks, pays) = terms(k);
    let asks: Vec<String> = asks
        .iter()
        .map(|a| format!("{} {}", a.count, need_name(a.item)))
        .collect();
    let pays: Vec<String> = pays.iter().map(|p| reward_text(p.item, p.count)).collect();
    format!(
        "contract {} ({} for {})",
        id.0,
        and_list(&asks),
        and_list(&pays)
    )
}

fn contracts_text(list: &[ContractId]) -> String {
    let items: Vec<String> = list.iter().map(|&c| contract_text(c)).collect();
    and_list(&items)
}

fn ids_text(list: &[ContractId]) -> String {
    let items: Vec<String> = list.iter().map(|c| c.0.to_string()).collect();
    and_list(&items)
}

/// " paying £3" / " receiving £5" / "" for a change of money.
fn money(delta: i32) -> String {
    match delta {
        0 => String::new(),
        d if d < 0 => format!(" paying £{}", -d),
        d => format!(" receiving £{d}"),
    }
}

/// What passing pays now: the next free space of next round's turn-order track (solo: its
/// one value), as `State::apply_pass` pays it. Computed rather than read off the money the
/// move changes, because the last pass also ends the round (income comes with it).
fn pass_money(s: &State) -> i32 {
    let table = &components().pass_money[usize::from(s.players()).min(4)];
    let i = if s.players() == 1 {
        0
    } else {
        s.next_order.len()
    };
    table.get(i).copied().unwrap_or(0)
}

/// The change `m` makes to the seat's money, when the position accepts it. Only for moves
/// that cannot end a round (income would be counted in).
fn money_delta(s: &State, seat: u8, m: &Move) -> Option<i32> {
    s.check(seat, m).ok()?;
    let before = s.seat(seat)?.money;
    let mut after = s.clone();
    after.apply(seat, m);
    Some(after.seat(seat)?.money - before)
}

fn money_of(s: &State, seat: u8, m: &Move) -> String {
    money_delta(s, seat, m).map(money).unwrap_or_default()
}

/// A money clause after a comma: "passes, receiving £16".
fn with_comma(clause: String) -> String {
    if clause.is_empty() {
        clause
    } else {
        format!(",{clause}")
    }
}

fn shipping_text(level: u8) -> String {
    match level {
        0 => "level 0 (no crossing)".into(),
        1 => "level 1 (across rivers)".into(),
        n => format!(
            "level {n} (across {})",
            plural(usize::from(n - 1), "loch", "lochs")
        ),
    }
}

fn tech_text(t: Tech) -> &'static str {
    match t {
        Tech::Woodcutter => "its woodcutters' technology",
        Tech::Miner => "its miners' technology",
    }
}

/// "the sheep on e4 and the cow on f5".
fn slaughter_text(s: &State, seat: u8, hexes: &[Hex]) -> String {
    let items: Vec<String> = hexes
        .iter()
        .map(|&h| match s.seat(seat).and_then(|p| p.unit_at(h)) {
            Some(u) => format!("the {u} on {h}"),
            None => format!("the animal on {h}"),
        })
        .collect();
    and_list(&items)
}

fn fulfil_text(s: &State, seat: u8, contracts: &[ContractId], slaughter: &[Hex]) -> String {
    let mut t = format!("fulfils {}", contracts_text(contracts));
    if !slaughter.is_empty() {
        t.push_str(&format!(
            ", slaughtering {}",
            slaughter_text(s, seat, slaughter)
        ));
    }
    t
}

fn goods_made(cheese: u8, bread: u8, whisky: u8) -> String {
    let items: Vec<String> = [(cheese, "cheese"), (bread, "bread"), (whisky, "whisky")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, g)| format!("{n} {g}"))
        .collect();
    if items.is_empty() {
        "nothing".into()
    } else {
        and_list(&items)
    }
}

/// A seat's move in words, read against the position before it.
pub fn describe_move(s: &State, seat: u8, m: &Move) -> String {
    format!("Seat {seat} {}", predicate(s, seat, m))
}

fn predicate(s: &State, seat: u8, m: &Move) -> String {
    let player = s.seat(seat);
    match m {
        Move::Clan(c) => match s.offer.iter().find(|(k, _)| k == c) {
            Some((_, tile)) => format!("chooses clan {} (start tile {tile})", clan_name(*c)),
            None => format!("chooses clan {}", clan_name(*c)),
        },
        Move::Place(u, h) => format!("places a {u} on {h}"),
        Move::Trade { good, sell, n } => {
            let total = s.price(*good) * i32::from(*n);
            let income = player.map_or(0, |p| s.stewart_bonus(p));
            let extra = if income > 0 {
                format!(" (and £{income} trade income)")
            } else {
                String::new()
            };
            let verb = if *sell { "sells" } else { "buys" };
            format!("{verb} {n} {good} for £{total}{extra}")
        }
        Move::Obtain(list) => format!(
            "takes {} from the export board{}",
            contracts_text(list),
            money(s.obtain_money())
        ),
        Move::Expand(u, h) => expand_text(s, seat, *u, *h),
        Move::Ship => {
            let level = player.map_or(0, |p| p.shipping).saturating_add(1);
            format!(
                "upgrades shipping to {}{}",
                shipping_text(level),
                money_of(s, seat, m)
            )
        }
        Move::Tech(t) => format!("upgrades {}{}", tech_text(*t), money_of(s, seat, m)),
        Move::Hire => format!("hires a merchant{}", money_of(s, seat, m)),
        Move::Fulfil {
            contracts,
            slaughter,
        } => {
            let t = fulfil_text(s, seat, contracts, slaughter);
            if s.rules >= Rules::V3 && s.free_expands(contracts) > 0 {
                format!("{t}, with its free expansion to follow")
            } else {
                format!("{t}{}", with_comma(money_of(s, seat, m)))
            }
        }
        Move::Pass => format!("passes{}", with_comma(money(pass_money(s)))),
        Move::Port { port, ks, args } => port_text(s, seat, port.0, *ks, args),
        Move::Row(a, b) => format!("rows a fisherman from {a} to {b}"),
        Move::Cellar(i) => {
            let pay = components().clan.cellar.get(usize::from(*i)).copied();
            format!(
                "takes the barrel out of cellar spot {i} (1 whisky){}",
                money(pay.unwrap_or(0))
            )
        }
        Move::Neighbour(g, n) => format!(
            "buys {n} {g} from its neighbours at the discount{}",
            money_of(s, seat, m)
        ),
        Move::Keep(list) if list.is_empty() => "keeps none of the drawn contracts".into(),
        Move::Keep(list) => format!("keeps {}{}", contracts_text(list), money(s.obtain_money())),
        Move::Upgrade(u) => upgrade_text(s, seat, *u),
        Move::Swap(h, u) => {
            let old = player
                .and_then(|p| p.unit_at(*h))
                .map_or("unit".to_string(), |x| x.to_string());
            format!("exchanges the {old} on {h} for a {u} (port 7)")
        }
        Move::Brew(k) => format!(
            "brews {} from grain{}",
            plural(usize::from(*k), "beer", "beers"),
            money(components().clan.macewen_money * i32::from(*k))
        ),
        Move::Done => done_text(s, seat),
        Move::Make {
            cheese,
            bread,
            whisky,
            cellar,
        } => {
            let mut t = format!("makes {}", goods_made(*cheese, *bread, *whisky));
            if player.is_some_and(|p| p.clan == Clan::MacKenzie) {
                t.push_str(&money(
                    components().clan.mackenzie_income * i32::from(*whisky),
                ));
            }
            if *cellar {
                t.push_str(", laying one whisky in the cellar");
            }
            t
        }
        Move::Milk(0) => "sells no milk to the supply".into(),
        Move::Milk(k) => format!(
            "sells {k} milk to the supply{}",
            money(components().clan.cunningham_milk * i32::from(*k))
        ),
        Move::Cancel => match s.turn().map(|t| &t.step) {
            Some(Step::Fulfil { contracts, .. }) => format!(
                "takes back its fulfilment of contract {} (nothing was paid)",
                ids_text(contracts)
            ),
            _ => "takes back its fulfilment (nothing was paid)".into(),
        },
    }
}

fn expand_text(s: &State, seat: u8, u: Unit, h: Hex) -> String {
    let step = s.turn().map(|t| &t.step);
    let cost = |st: &State, free: bool| {
        st.seat(seat)
            .map(|p| money(-st.unit_cost(p, u, h, free)))
            .unwrap_or_default()
    };
    match step {
        Some(Step::Fulfil {
            contracts,
            slaughter,
        }) => {
            let fulfilled = s
                .turn()
                .map(|t| s.after_fulfil(t, seat, contracts, slaughter));
            let paid = fulfilled.as_ref().map_or(String::new(), |f| cost(f, true));
            format!(
                "{} and takes its free expansion: a {u} to {h}{paid}",
                fulfil_text(s, seat, contracts, slaughter)
            )
        }
        Some(Step::Bonus) => format!("takes a free expansion: a {u} to {h}{}", cost(s, true)),
        _ => format!("expands with a {u} to {h}{}", cost(s, false)),
    }
}

fn port_text(s: &State, seat: u8, port: u8, ks: bool, args: &PortArgs) -> String {
    let c = components();
    let data = usize::from(port)
        .checked_sub(1)
        .and_then(|i| c.ports.get(i));
    let hex = |id: u8| {
        s.ports
            .iter()
            .position(|p| p.0 == id)
            .and_then(|i| s.map().ports.get(i))
            .map(|h| format!(" on {h}"))
            .unwrap_or_default()
    };
    // Amounts from the port data rather than the money the move changes: a port used after
    // passing may end the round, whose income would be counted in.
    let head = if ks {
        let fee = usize::from(crate::ids::KS_PORT.0)
            .checked_sub(1)
            .and_then(|i| c.ports.get(i))
            .map_or(0, |k| k.cost);
        format!(
            "uses port {port} through the Kickstarter port{}{}",
            hex(crate::ids::KS_PORT.0),
            money(-fee)
        )
    } else {
        format!("uses port {port}{}", hex(port))
    };
    let gain = money(data.map_or(0, |d| d.money));
    let effect = match (data.map(|d| d.kind), args) {
        (Some(PortKind::Meat), _) => {
            ": this turn's meat contract needs one animal fewer".to_string()
        }
        (_, PortArgs::Goods { give, get }) => {
            let gets: Vec<String> = get.iter().flatten().map(Good::to_string).collect();
            format!(", giving 1 {give} for {}", and_list(&gets))
        }
        (_, PortArgs::Price { good, up }) => format!(
            ": the {good} price moves {} {}",
            plural(usize::from(data.map_or(0, |d| d.steps)), "step", "steps"),
            if *up { "up" } else { "down" }
        ),
        (Some(PortKind::Upgrade), _) => format!(
            ": a bonus upgrade and {} glory",
            data.map_or(0, |d| d.glory)
        ),
        (Some(PortKind::Exchange), _) => format!(
            ": it may exchange {} for board units",
            plural(
                usize::from(data.map_or(0, |d| d.units)),
                "map unit",
                "map units"
            )
        ),
        (Some(PortKind::Money), _) => gain,
        (Some(PortKind::Draw), _) => {
            if s.seat(seat).is_some_and(|p| p.free_boxes() > 0) {
                format!("{gain} and the building bonus")
            } else {
                gain
            }
        }
        _ => String::new(),
    };
    format!("{head}{effect}")
}

fn upgrade_text(s: &State, seat: u8, u: Upgrade) -> String {
    let what = match u {
        Upgrade::Tech(t) => {
            let cost = components().tech.bonus_cost;
            format!("{} paying £{cost}", tech_text(t))
        }
        Upgrade::Ship => {
            let level = s.seat(seat).map_or(0, |p| p.shipping).saturating_add(1);
            format!("shipping to {}", shipping_text(level))
        }
        Upgrade::Hire => "a merchant hired".into(),
        Upgrade::Retrieve { good, sell } => format!(
            "a merchant back from the {good} {} side",
            if sell { "selling" } else { "buying" }
        ),
    };
    format!("takes a bonus upgrade: {what}")
}

fn done_text(s: &State, seat: u8) -> String {
    match &s.phase {
        Phase::Workers { .. } => "places no worker (none can be placed)".into(),
        Phase::Action(t) => match &t.step {
            Step::Fulfil {
                contracts,
                slaughter,
            } => format!(
                "{} without its free expansion",
                fulfil_text(s, seat, contracts, slaughter)
            ),
            Step::Neighbour { .. } => "buys nothing more from its neighbours".into(),
            Step::Exchange { .. } => "makes no more exchanges".into(),
            Step::Bonus => "leaves its remaining bonuses".into(),
            Step::After | Step::Start => "ends its turn".into(),
            Step::Keep { .. } => "is done keeping contracts".into(),
        },
        _ => "is done".into(),
    }
}

/// A chance outcome in words; `visible` false hides what a building-bonus draw drew.
pub fn describe_chance(s: &State, c: &Chance, visible: bool) -> String {
    match c {
        Chance::Deal(d) => {
            let sides: Vec<String> = ["A", "B", "C", "D"]
                .iter()
                .zip(d.sides)
                .map(|(m, side)| format!("{m}{side}"))
                .collect();
            let ports: Vec<String> = d.ports.iter().map(|p| p.0.to_string()).collect();
            let tiles: Vec<String> = d.tiles.iter().map(|t| t.0.to_string()).collect();
            let offer: Vec<String> = d
                .offer
                .iter()
                .map(|(c, t)| format!("{} (start tile {t})", clan_name(*c)))
                .collect();
            format!(
                "The dealer deals the table: module sides {}; ports {} at the corners of \
                 modules A–D; scoring tiles {} for rounds 1–5; seat {} goes first; clans \
                 offered: {}; {} in the export boxes",
                and_list(&sides),
                and_list(&ports),
                and_list(&tiles),
                d.first,
                and_list(&offer),
                if d.boxes.is_empty() {
                    "no contracts".to_string()
                } else {
                    format!("contracts {}", ids_text(&d.boxes))
                },
            )
        }
        Chance::Prep { refill, drift, die } => {
            let mut t = if refill.is_empty() {
                "The dealer has no contract box to refill".to_string()
            } else {
                format!(
                    "The dealer refills the contract boxes with {} {}",
                    if refill.len() == 1 {
                        "contract"
                    } else {
                        "contracts"
                    },
                    ids_text(refill)
                )
            };
            if !drift.is_empty() {
                let rolls: Vec<String> = drift.iter().map(|(g, d)| format!("{g} {d:+}")).collect();
                t.push_str(&format!("; the market drifts: {}", and_list(&rolls)));
            }
            if let Some(d) = die {
                t.push_str(&format!("; the price die shows {d:+}"));
            }
            t
        }
        Chance::Draw(list) => {
            let seat = match &s.phase {
                Phase::Draw(t) => format!("seat {}", t.seat),
                _ => "the seat in turn".to_string(),
            };
            if visible {
                format!(
                    "The dealer draws {} {} for {seat}",
                    if list.len() == 1 {
                        "contract"
                    } else {
                        "contracts"
                    },
                    ids_text(list)
                )
            } else {
                format!(
                    "The dealer draws {} for {seat}",
                    plural(list.len(), "contract", "contracts")
                )
            }
        }
    }
}
