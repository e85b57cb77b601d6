//! Text forms of moves and chance outcomes (documented in `schema/notation/caledonia.md`).
//! Parsers return a typed error on any input and never panic; `parse(format(x)) == x`.

use crate::data::components;
use crate::ids::{Clan, ContractId, Good, Hex, PortId, Tech, TileId, Unit};
use crate::moves::{Chance, Deal, Move, PortArgs, Upgrade};
use arrayvec::ArrayVec;
use rules_core::notation::{cut, pieces, short_key, split_words, words};
use rules_core::CopyList;
use rules_core::NotationError;
use std::fmt::Write;

fn join<T>(items: &[T], sep: &str, f: impl Fn(&T) -> String) -> String {
    if items.is_empty() {
        return "-".into();
    }
    items.iter().map(f).collect::<Vec<_>>().join(sep)
}

fn ids(list: &[ContractId], sep: &str) -> String {
    join(list, sep, |c| c.0.to_string())
}

pub fn format_move(m: &Move) -> String {
    match m {
        Move::Clan(c) => format!("clan {c}"),
        Move::Place(u, h) => format!("place {u} {h}"),
        Move::Trade { good, sell, n } => {
            format!("{} {good} {n}", if *sell { "sell" } else { "buy" })
        }
        Move::Obtain(l) => format!("obtain {}", ids(l, "+")),
        Move::Expand(u, h) => format!("expand {u} {h}"),
        Move::Ship => "ship".into(),
        Move::Tech(t) => format!("tech {t}"),
        Move::Hire => "hire".into(),
        Move::Fulfil {
            contracts,
            slaughter,
        } => {
            let mut s = format!("fulfil {}", ids(contracts, "+"));
            if !slaughter.is_empty() {
                let _ = write!(s, " slaughter {}", join(slaughter, "+", |h| h.to_string()));
            }
            s
        }
        Move::Pass => "pass".into(),
        Move::Port { port, ks, args } => {
            let mut s = format!("port {}{}", if *ks { "ks " } else { "" }, port.0);
            match args {
                PortArgs::None => {}
                PortArgs::Goods { give, get } => {
                    let gets: Vec<Good> = get.iter().flatten().copied().collect();
                    let _ = write!(s, " {give}>{}", join(&gets, "+", |g| g.to_string()));
                }
                PortArgs::Price { good, up } => {
                    let _ = write!(s, " {good}{}", if *up { "+" } else { "-" });
                }
            }
            s
        }
        Move::Row(a, b) => format!("row {a} {b}"),
        Move::Cellar(i) => format!("cellar {i}"),
        Move::Neighbour(g, n) => format!("nb {g} {n}"),
        Move::Keep(l) => format!("keep {}", ids(l, "+")),
        Move::Upgrade(u) => match u {
            Upgrade::Tech(t) => format!("upgrade tech {t}"),
            Upgrade::Ship => "upgrade ship".into(),
            Upgrade::Hire => "upgrade hire".into(),
            Upgrade::Retrieve { good, sell } => {
                format!(
                    "upgrade retrieve {good} {}",
                    if *sell { "sell" } else { "buy" }
                )
            }
        },
        Move::Swap(h, u) => format!("swap {h} {u}"),
        Move::Brew(k) => format!("brew {k}"),
        Move::Done => "done".into(),
        Move::Make {
            cheese,
            bread,
            whisky,
            cellar,
        } => {
            format!(
                "make {cheese} {bread} {whisky}{}",
                if *cellar { " cellar" } else { "" }
            )
        }
        Move::Milk(k) => format!("milk {k}"),
        Move::Cancel => "cancel".into(),
    }
}

struct P<'a> {
    text: &'a str,
}

impl<'a> P<'a> {
    fn err(&self, why: &str) -> NotationError {
        NotationError::new(self.text, why)
    }
    /// A number of at most three digits without a leading zero, up to 255.
    fn num(&self, s: &str) -> Result<u8, NotationError> {
        let d = |b: u8| u16::from(b - b'0');
        let n = match *s.as_bytes() {
            [a @ b'0'..=b'9'] => d(a),
            [a @ b'1'..=b'9', b @ b'0'..=b'9'] => 10 * d(a) + d(b),
            [a @ b'1'..=b'9', b @ b'0'..=b'9', c @ b'0'..=b'9'] => 100 * d(a) + 10 * d(b) + d(c),
            _ => return Err(self.err("expected a number")),
        };
        u8::try_from(n).map_err(|_| self.err("number out of range"))
    }
    fn hex(&self, s: &str) -> Result<Hex, NotationError> {
        Hex::parse(s).ok_or_else(|| self.err("expected a hex like c7"))
    }
    fn unit(&self, s: &str) -> Result<Unit, NotationError> {
        Unit::parse(s).ok_or_else(|| self.err("expected a unit"))
    }
    fn good(&self, s: &str) -> Result<Good, NotationError> {
        Good::parse(s).ok_or_else(|| self.err("expected a good"))
    }
    fn list<T, const N: usize>(
        &self,
        s: &str,
        sep: u8,
        f: impl Fn(&str) -> Result<T, NotationError>,
    ) -> Result<ArrayVec<T, N>, NotationError> {
        let mut out = ArrayVec::new();
        if s == "-" {
            return Ok(out);
        }
        for part in pieces(s, sep) {
            out.try_push(f(part)?)
                .map_err(|_| self.err("list too long"))?;
        }
        Ok(out)
    }
    /// A contract's number: one that names no contract at all (`0`, `51`) is a notation
    /// error wherever it is written, whatever the position.
    fn contract(&self, s: &str) -> Result<ContractId, NotationError> {
        let n = self.num(s)?;
        ContractId::named(n).ok_or_else(|| {
            self.err(&format!(
                "no contract {n}: contracts are numbered 1-{}",
                ContractId::COUNT
            ))
        })
    }
    /// Contracts of an outcome (`refill=`, `boxes=`, a draw), in the order the table laid
    /// them out or drew them: that order is part of what happened.
    fn contracts<const N: usize>(
        &self,
        s: &str,
        sep: u8,
    ) -> Result<ArrayVec<ContractId, N>, NotationError> {
        self.list(s, sep, |x| self.contract(x))
    }
    /// The contracts a move names (`obtain`, `fulfil`, `keep`): the rules give them no order,
    /// so any order is read and the move holds them lowest first, the canonical form. `-` (no
    /// contract) only where `empty` allows it; a contract named twice stays twice, for the
    /// rules to refuse (`contract.list`).
    fn contract_set(&self, s: &str, empty: bool) -> Result<CopyList<ContractId, 2>, NotationError> {
        let mut list: ArrayVec<ContractId, 2> = self.list(s, b'+', |x| self.contract(x))?;
        if list.is_empty() && !empty {
            return Err(self.err("name at least one contract"));
        }
        list.sort_unstable();
        Ok(list.into())
    }
    /// A port tile's number: one that names no port tile at all (`0`, `10`) is a notation
    /// error; a port that exists but is not in play is the rules' (`port.not-in-play`).
    fn port(&self, s: &str) -> Result<PortId, NotationError> {
        let n = self.num(s)?;
        PortId::named(n)
            .ok_or_else(|| self.err(&format!("no port {n}: port tiles are numbered 1-9")))
    }
    /// A round scoring tile's number (1-9).
    fn tile(&self, n: u8) -> Result<TileId, NotationError> {
        TileId::named(n)
            .ok_or_else(|| self.err(&format!("no scoring tile {n}: tiles are numbered 1-9")))
    }
    /// A start tile's number (1 to the number of start tiles).
    fn start_tile(&self, s: &str) -> Result<u8, NotationError> {
        let n = self.num(s)?;
        let count = start_tiles();
        if (1..=count).contains(&n) {
            Ok(n)
        } else {
            Err(self.err(&format!(
                "no start tile {n}: start tiles are numbered 1-{count}"
            )))
        }
    }
}

/// How many start tiles there are (the numbers a deal's offer may pair with a clan).
pub(crate) fn start_tiles() -> u8 {
    components().start_tiles.len().min(9) as u8
}

/// How many spots MacKenzie's cellar has (numbered from 0).
pub(crate) fn cellar_spots() -> u8 {
    components().clan.cellar.len().min(4) as u8
}

/// The words that start a move, as short tags (none is longer than seven bytes): the first
/// word picks the arm by one 64-bit comparison, then the rest are matched as a slice.
/// The words that start a move, as short keys (the fast reading matches them too).
pub(crate) mod head {
    use rules_core::notation::short_tag as tag;
    pub const CLAN: u64 = tag("clan");
    pub const PLACE: u64 = tag("place");
    pub const BUY: u64 = tag("buy");
    pub const SELL: u64 = tag("sell");
    pub const OBTAIN: u64 = tag("obtain");
    pub const EXPAND: u64 = tag("expand");
    pub const SHIP: u64 = tag("ship");
    pub const TECH: u64 = tag("tech");
    pub const HIRE: u64 = tag("hire");
    pub const FULFIL: u64 = tag("fulfil");
    pub const PASS: u64 = tag("pass");
    pub const PORT: u64 = tag("port");
    pub const ROW: u64 = tag("row");
    pub const CELLAR: u64 = tag("cellar");
    pub const NB: u64 = tag("nb");
    pub const KEEP: u64 = tag("keep");
    pub const UPGRADE: u64 = tag("upgrade");
    pub const SWAP: u64 = tag("swap");
    pub const BREW: u64 = tag("brew");
    pub const DONE: u64 = tag("done");
    pub const CANCEL: u64 = tag("cancel");
    pub const MAKE: u64 = tag("make");
    pub const MILK: u64 = tag("milk");
}

pub fn parse_move(text: &str) -> Result<Move, NotationError> {
    use head::*;
    let p = P { text };
    let mut buf = [""; 8];
    let n = split_words(text, &mut buf).ok_or_else(|| p.err("unknown move"))?;
    let (first, rest) = buf[..n]
        .split_first()
        .ok_or_else(|| p.err("unknown move"))?;
    let m = match (short_key(first), rest) {
        (CLAN, [c]) => Move::Clan(Clan::parse(c).ok_or_else(|| p.err("unknown clan"))?),
        (PLACE, [u, h]) => Move::Place(p.unit(u)?, p.hex(h)?),
        (BUY | SELL, [g, n]) => Move::Trade {
            good: p.good(g)?,
            sell: *first == "sell",
            n: p.num(n)?,
        },
        (OBTAIN, [l]) => Move::Obtain(p.contract_set(l, false)?),
        (EXPAND, [u, h]) => Move::Expand(p.unit(u)?, p.hex(h)?),
        (SHIP, []) => Move::Ship,
        (TECH, [t]) => Move::Tech(Tech::parse(t).ok_or_else(|| p.err("tech woodcutter or miner"))?),
        (HIRE, []) => Move::Hire,
        (FULFIL, [l]) => Move::Fulfil {
            contracts: p.contract_set(l, false)?,
            slaughter: CopyList::new(),
        },
        (FULFIL, [l, "slaughter", s]) => {
            let mut slaughter: ArrayVec<Hex, 8> = p.list(s, b'+', |x| p.hex(x))?;
            if slaughter.is_empty() {
                return Err(p.err("list the animals slaughtered"));
            }
            // The hexes may come in any order; the move holds (and prints) them lowest first,
            // the canonical form. A hex named twice stays twice, for the rules to refuse.
            slaughter.sort();
            Move::Fulfil {
                contracts: p.contract_set(l, false)?,
                slaughter: slaughter.into(),
            }
        }
        (PASS, []) => Move::Pass,
        (PORT, rest) => parse_port(&p, rest)?,
        (ROW, [a, b]) => Move::Row(p.hex(a)?, p.hex(b)?),
        (CELLAR, [i]) => {
            // A spot the cellar does not have names nothing: a notation error, as a contract
            // number that names none.
            let spot = p.num(i)?;
            let spots = cellar_spots();
            if spot >= spots {
                return Err(p.err(&format!(
                    "no cellar spot {spot}: the cellar's spots are 0-{}",
                    spots.saturating_sub(1)
                )));
            }
            Move::Cellar(spot)
        }
        (NB, [g, n]) => Move::Neighbour(p.good(g)?, p.num(n)?),
        (KEEP, [l]) => Move::Keep(p.contract_set(l, true)?),
        (UPGRADE, ["tech", t]) => Move::Upgrade(Upgrade::Tech(
            Tech::parse(t).ok_or_else(|| p.err("tech woodcutter or miner"))?,
        )),
        (UPGRADE, ["ship"]) => Move::Upgrade(Upgrade::Ship),
        (UPGRADE, ["hire"]) => Move::Upgrade(Upgrade::Hire),
        (UPGRADE, ["retrieve", g, side @ ("buy" | "sell")]) => Move::Upgrade(Upgrade::Retrieve {
            good: p.good(g)?,
            sell: *side == "sell",
        }),
        (SWAP, [h, u]) => Move::Swap(p.hex(h)?, p.unit(u)?),
        (BREW, [k]) => Move::Brew(p.num(k)?),
        (DONE, []) => Move::Done,
        (CANCEL, []) => Move::Cancel,
        (MAKE, [c, b, w, cellar @ ..]) if matches!(cellar, [] | ["cellar"]) => Move::Make {
            cheese: p.num(c)?,
            bread: p.num(b)?,
            whisky: p.num(w)?,
            cellar: !cellar.is_empty(),
        },
        (MILK, [k]) => Move::Milk(p.num(k)?),
        _ => return Err(p.err("unknown move")),
    };
    Ok(m)
}

fn parse_port(p: &P, rest: &[&str]) -> Result<Move, NotationError> {
    let (ks, rest) = match rest {
        ["ks", more @ ..] => (true, more),
        _ => (false, rest),
    };
    let (id, args) = match rest {
        [id] => (*id, None),
        [id, a] => (*id, Some(*a)),
        _ => return Err(p.err("port <id> [choice]")),
    };
    let port = p.port(id)?;
    let args = match args {
        None => PortArgs::None,
        Some(a) => {
            if let Some((give, gets)) = cut(a, b'>') {
                let mut list: ArrayVec<Good, 3> = p.list(gets, b'+', |x| p.good(x))?;
                // The goods gained come in no order the rules impose: any order is read, and
                // the move holds them in the goods' order (wool milk grain cheese bread
                // whisky), the canonical form.
                list.sort_unstable();
                let mut get = [None; 3];
                for (slot, g) in get.iter_mut().zip(list) {
                    *slot = Some(g);
                }
                if get[0].is_none() {
                    return Err(p.err("gain at least one good"));
                }
                PortArgs::Goods {
                    give: p.good(give)?,
                    get,
                }
            } else if let Some(g) = a.strip_suffix('+') {
                PortArgs::Price {
                    good: p.good(g)?,
                    up: true,
                }
            } else if let Some(g) = a.strip_suffix('-') {
                PortArgs::Price {
                    good: p.good(g)?,
                    up: false,
                }
            } else {
                return Err(p.err("port choice: give>get+get or good+ / good-"));
            }
        }
    };
    Ok(Move::Port { port, ks, args })
}

pub fn format_chance(c: &Chance) -> String {
    match c {
        Chance::Deal(d) => format!(
            "deal sides={} ports={} tiles={} first={} offer={} boxes={}",
            d.sides.iter().map(|s| s.to_string()).collect::<String>(),
            join(&d.ports, ",", |p| p.0.to_string()),
            join(&d.tiles, ",", |t| t.0.to_string()),
            d.first,
            join(&d.offer, ",", |(c, t)| format!("{c}/{t}")),
            ids(&d.boxes, ","),
        ),
        Chance::Prep { refill, drift, die } => {
            let mut s = format!(
                "prep refill={} drift={}",
                ids(refill, ","),
                join(drift, ",", |(g, d)| format!("{g}{d:+}"))
            );
            if let Some(d) = die {
                s.push_str(&format!(" die={d:+}"));
            }
            s
        }
        Chance::Draw(l) => format!("draw {}", ids(l, ",")),
    }
}

/// A price-die face written with its sign: `+2`, `-3`.
fn die_face(p: &P, n: &str) -> Result<i8, NotationError> {
    let sign = match n.as_bytes().first() {
        Some(b'+') => 1,
        Some(b'-') => -1,
        _ => return Err(p.err("a die face is +n or -n")),
    };
    let size = p.num(n.get(1..).unwrap_or(""))?;
    let size = i8::try_from(size).map_err(|_| p.err("die out of range"))?;
    Ok(sign * size)
}

fn field<'a>(p: &P, w: &'a str, key: &str) -> Result<&'a str, NotationError> {
    w.strip_prefix(key)
        .and_then(|r| r.strip_prefix('='))
        .ok_or_else(|| p.err("expected key=value fields in order"))
}

pub fn parse_chance(text: &str) -> Result<Chance, NotationError> {
    let p = P { text };
    let w = words::<8>(text).ok_or_else(|| p.err("unknown chance outcome"))?;
    match w.as_slice() {
        ["deal", s, po, ti, fi, of, bo] => {
            let sides_s = field(&p, s, "sides")?;
            if sides_s.len() != 4 || !sides_s.bytes().all(|b| b == b'1' || b == b'2') {
                return Err(p.err("sides: four digits 1 or 2"));
            }
            let mut sides = [1u8; 4];
            for (slot, b) in sides.iter_mut().zip(sides_s.bytes()) {
                *slot = b - b'0';
            }
            let ports: ArrayVec<PortId, 4> =
                p.list(field(&p, po, "ports")?, b',', |x| p.port(x))?;
            let tiles: ArrayVec<TileId, 5> =
                p.list(field(&p, ti, "tiles")?, b',', |x| p.tile(p.num(x)?))?;
            let ports: [PortId; 4] = ports.into_inner().map_err(|_| p.err("four ports"))?;
            let tiles: [TileId; 5] = tiles.into_inner().map_err(|_| p.err("five tiles"))?;
            let first = p.num(field(&p, fi, "first")?)?;
            let offer = p.list(field(&p, of, "offer")?, b',', |x| {
                let (c, t) = cut(x, b'/').ok_or_else(|| p.err("offer: clan/tile"))?;
                Ok((
                    Clan::parse(c).ok_or_else(|| p.err("unknown clan"))?,
                    p.start_tile(t)?,
                ))
            })?;
            let boxes = p.contracts(field(&p, bo, "boxes")?, b',')?;
            Ok(Chance::Deal(Box::new(Deal {
                sides,
                ports,
                tiles,
                first,
                offer,
                boxes,
            })))
        }
        ["prep", r, d, rest @ ..] if rest.len() <= 1 => {
            let refill = p.contracts(field(&p, r, "refill")?, b',')?;
            let drift = p.list(field(&p, d, "drift")?, b',', |x| {
                let at = x
                    .find(['+', '-'])
                    .ok_or_else(|| p.err("drift: good+n or good-n"))?;
                let (g, n) = x.split_at(at);
                Ok((p.good(g)?, die_face(&p, n)?))
            })?;
            let die = match rest {
                [e] => Some(die_face(&p, field(&p, e, "die")?)?),
                _ => None,
            };
            Ok(Chance::Prep { refill, drift, die })
        }
        ["draw", l] => Ok(Chance::Draw(p.contracts(l, b',')?)),
        _ => Err(p.err("unknown chance outcome")),
    }
}
