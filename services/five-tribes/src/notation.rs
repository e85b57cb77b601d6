//! Move and chance notation: short, stable text, documented with examples in
//! `schema/notation/five-tribes.md`. `parse_move(format_move(m)) == m` for every legal move.

use crate::data::components;
use crate::ids::{Colour, Djinn, Res, Tile};
use crate::moves::{Chance, Deal, DjinnUse, Goods, Move, Pay, Redirect, Target};
use arrayvec::ArrayVec;
use rules_core::notation::{cut, pieces, NameIndex};
use rules_core::NotationError;
use std::fmt::Write;
use std::sync::OnceLock;

fn pay_suffix(out: &mut String, name: &str, r: Option<Redirect>) {
    if let Some(r) = r {
        let _ = write!(out, " {name} {} {}", r.at, r.pay.code());
    }
}

fn victims(first: Colour, second: Option<Colour>) -> String {
    match second {
        Some(s) => format!("{}+{}", first.letter(), s.letter()),
        None => first.letter().to_string(),
    }
}

pub fn format_move(m: &Move) -> String {
    let mut s = String::with_capacity(16);
    match *m {
        Move::Bid { spot, kumarbi } => {
            let cost = components()
                .bid_costs
                .get(usize::from(spot))
                .copied()
                .unwrap_or(0);
            let _ = write!(s, "bid {cost}");
            if kumarbi > 0 {
                let _ = write!(s, " kumarbi {kumarbi}");
            }
        }
        Move::Pick(t) => {
            let _ = write!(s, "pick {t}");
        }
        Move::Drop { to, colour } => {
            let _ = write!(s, "drop {to} {}", colour.letter());
        }
        Move::Build { fakirs, echidna } => {
            s.push_str("build");
            if fakirs > 0 {
                let _ = write!(s, " +{fakirs}");
            }
            if let Some(p) = echidna {
                let _ = write!(s, " echidna {}", p.code());
            }
        }
        Move::Kill { target, iblis } => {
            match target {
                Target::Tile {
                    tile,
                    first,
                    second,
                } => {
                    let _ = write!(s, "kill {tile} {}", victims(first, second));
                }
                Target::Seat {
                    seat,
                    first,
                    second,
                } => {
                    let _ = write!(s, "kill @{seat} {}", victims(first, second));
                }
            }
            if let Some(p) = iblis {
                let _ = write!(s, " iblis {}", p.code());
            }
        }
        Move::NoKill => s.push_str("nokill"),
        Move::Palm(r) => match r {
            None => s.push_str("palm"),
            Some(r) => {
                let _ = write!(s, "palm {} lamia {}", r.at, r.pay.code());
            }
        },
        Move::Palace(r) => match r {
            None => s.push_str("palace"),
            Some(r) => {
                let _ = write!(s, "palace {} hagis {}", r.at, r.pay.code());
            }
        },
        Move::Buy { first, second } => {
            // Widened: a move built in code may hold any u8, and formatting must not overflow.
            let _ = write!(s, "buy {}", u16::from(first) + 1);
            if let Some(x) = second {
                let _ = write!(s, " {}", u16::from(x) + 1);
            }
        }
        Move::TakeDjinn { djinn, pay } => {
            let _ = write!(s, "djinn {djinn} {}", pay.code());
        }
        Move::Skip => s.push_str("skip"),
        Move::Use(u) => {
            let _ = write!(s, "use {}", u.djinn());
            match u {
                DjinnUse::AnunNak { tile, pay }
                | DjinnUse::Leta { tile, pay }
                | DjinnUse::Utug { tile, pay } => {
                    let _ = write!(s, " {tile} {}", pay.code());
                }
                DjinnUse::Bouraq {
                    village,
                    pay,
                    hagis,
                } => {
                    let _ = write!(s, " {village} {}", pay.code());
                    pay_suffix(&mut s, "hagis", hagis);
                }
                DjinnUse::Enki { oasis, pay, lamia } => {
                    let _ = write!(s, " {oasis} {}", pay.code());
                    pay_suffix(&mut s, "lamia", lamia);
                }
                DjinnUse::Sibittis { pay } => {
                    let _ = write!(s, " {}", pay.code());
                }
                DjinnUse::Sloar => {}
            }
        }
        Move::Keep(d) => {
            let _ = write!(s, "keep {d}");
        }
        Move::Sell(g) => {
            s.push_str("sell ");
            let codes: Vec<&str> = g.iter().map(|r| r.code()).collect();
            s.push_str(&codes.join("+"));
        }
        Move::End => s.push_str("end"),
    }
    s
}

struct P<'a> {
    text: &'a str,
    words: std::str::SplitAsciiWhitespace<'a>,
}

impl<'a> P<'a> {
    fn err(&self, why: &str) -> NotationError {
        NotationError::new(self.text, why)
    }
    fn word(&mut self, what: &str) -> Result<&'a str, NotationError> {
        self.words
            .next()
            .ok_or_else(|| self.err(&format!("expected {what}")))
    }
    fn done<T>(&mut self, v: T) -> Result<T, NotationError> {
        match self.words.next() {
            None => Ok(v),
            Some(_) => Err(self.err("unexpected text at the end")),
        }
    }
    fn tile(&mut self) -> Result<Tile, NotationError> {
        let w = self.word("a tile (a1..f5)")?;
        Tile::parse(w).ok_or_else(|| self.err("a tile is a column a-f and a row 1-5, e.g. c3"))
    }
    fn pay(&mut self) -> Result<Pay, NotationError> {
        let w = self.word("a payment (W, F, WW or WF)")?;
        Pay::from_code(w).ok_or_else(|| self.err("a payment is W, F, WW or WF"))
    }
    fn colour(&self, w: &str) -> Result<Colour, NotationError> {
        let mut cs = w.chars();
        match (cs.next(), cs.next()) {
            (Some(c), None) => {
                Colour::from_letter(c).ok_or_else(|| self.err("a meeple is Y, W, G, B or R"))
            }
            _ => Err(self.err("a meeple is Y, W, G, B or R")),
        }
    }
    fn victims(&mut self) -> Result<(Colour, Option<Colour>), NotationError> {
        let w = self.word("the victims, e.g. G or G+R")?;
        match cut(w, b'+') {
            Some((a, b)) => Ok((self.colour(a)?, Some(self.colour(b)?))),
            None => Ok((self.colour(w)?, None)),
        }
    }
    fn djinn(&mut self) -> Result<Djinn, NotationError> {
        let w = self.word("a djinn")?;
        Djinn::from_slug(w).ok_or_else(|| self.err("unknown djinn"))
    }
    fn small(&mut self, w: &str) -> Result<u8, NotationError> {
        if w.is_empty() || w.len() > 3 || !w.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.err("expected a number"));
        }
        w.parse().map_err(|_| self.err("number out of range"))
    }
    /// An optional `name TILE PAY` suffix (Hagis, Lamia).
    fn redirect(&mut self, name: &str) -> Result<Option<Redirect>, NotationError> {
        match self.words.next() {
            None => Ok(None),
            Some(w) if w == name => {
                let at = self.tile()?;
                let pay = self.pay()?;
                self.done(Some(Redirect { at, pay }))
            }
            Some(_) => Err(self.err(&format!("expected `{name}` or the end"))),
        }
    }
}

pub fn parse_move(text: &str) -> Result<Move, NotationError> {
    let mut p = P {
        text,
        words: text.split_ascii_whitespace(),
    };
    let verb = p.word("a move")?;
    match verb {
        "bid" => {
            let w = p.word("a bid")?;
            let cost = p.small(w)?;
            let costs = &components().bid_costs;
            let spot = if cost == 0 {
                0
            } else {
                costs
                    .iter()
                    .position(|&c| c == u32::from(cost))
                    .ok_or_else(|| p.err("no spot has that cost"))? as u8
            };
            let kumarbi = match p.words.next() {
                None => 0,
                Some("kumarbi") => {
                    let w = p.word("a number of Fakirs")?;
                    let n = p.small(w)?;
                    if n == 0 {
                        return Err(p.err("kumarbi needs at least 1 Fakir"));
                    }
                    n
                }
                Some(_) => return Err(p.err("expected `kumarbi N` or the end")),
            };
            p.done(Move::Bid { spot, kumarbi })
        }
        "pick" => {
            let t = p.tile()?;
            p.done(Move::Pick(t))
        }
        "drop" => {
            let to = p.tile()?;
            let w = p.word("a meeple colour")?;
            let colour = p.colour(w)?;
            p.done(Move::Drop { to, colour })
        }
        "build" => {
            let mut fakirs = 0;
            let mut echidna = None;
            let mut next = p.words.next();
            if let Some(w) = next {
                if let Some(n) = w.strip_prefix('+') {
                    fakirs = p.small(n)?;
                    if fakirs == 0 {
                        return Err(p.err("write `build`, not `build +0`"));
                    }
                    next = p.words.next();
                }
            }
            match next {
                None => {}
                Some("echidna") => echidna = Some(p.pay()?),
                Some(_) => return Err(p.err("expected `+N`, `echidna PAY` or the end")),
            }
            p.done(Move::Build { fakirs, echidna })
        }
        "kill" => {
            let w = p.word("a tile or @seat")?;
            let target_of = |p: &mut P<'_>| -> Result<Target, NotationError> {
                let (first, second) = p.victims()?;
                if let Some(seat) = w.strip_prefix('@') {
                    let seat = p.small(seat)?;
                    Ok(Target::Seat {
                        seat,
                        first,
                        second,
                    })
                } else {
                    let tile = Tile::parse(w).ok_or_else(|| p.err("expected a tile or @seat"))?;
                    Ok(Target::Tile {
                        tile,
                        first,
                        second,
                    })
                }
            };
            let target = target_of(&mut p)?;
            let iblis = match p.words.next() {
                None => None,
                Some("iblis") => Some(p.pay()?),
                Some(_) => return Err(p.err("expected `iblis PAY` or the end")),
            };
            p.done(Move::Kill { target, iblis })
        }
        "nokill" => p.done(Move::NoKill),
        "palm" | "palace" => {
            let name = if verb == "palm" { "lamia" } else { "hagis" };
            let r = match p.words.next() {
                None => None,
                Some(w) => {
                    let at = Tile::parse(w).ok_or_else(|| p.err("expected a tile"))?;
                    let kw = p.word(name)?;
                    if kw != name {
                        return Err(p.err(&format!("expected `{name}`")));
                    }
                    let pay = p.pay()?;
                    Some(Redirect { at, pay })
                }
            };
            p.done(if verb == "palm" {
                Move::Palm(r)
            } else {
                Move::Palace(r)
            })
        }
        "buy" => {
            let w = p.word("a card position")?;
            let first = p
                .small(w)?
                .checked_sub(1)
                .ok_or_else(|| p.err("positions count from 1"))?;
            let second = match p.words.next() {
                None => None,
                Some(w) => Some(
                    p.small(w)?
                        .checked_sub(1)
                        .ok_or_else(|| p.err("positions count from 1"))?,
                ),
            };
            p.done(Move::Buy { first, second })
        }
        "djinn" => {
            let djinn = p.djinn()?;
            let pay = p.pay()?;
            p.done(Move::TakeDjinn { djinn, pay })
        }
        "skip" => p.done(Move::Skip),
        "use" => {
            let d = p.djinn()?;
            let u = match d {
                Djinn::AnunNak | Djinn::Leta | Djinn::Utug => {
                    let tile = p.tile()?;
                    let pay = p.pay()?;
                    match d {
                        Djinn::AnunNak => DjinnUse::AnunNak { tile, pay },
                        Djinn::Leta => DjinnUse::Leta { tile, pay },
                        _ => DjinnUse::Utug { tile, pay },
                    }
                }
                Djinn::Bouraq => {
                    let village = p.tile()?;
                    let pay = p.pay()?;
                    let hagis = p.redirect("hagis")?;
                    return Ok(Move::Use(DjinnUse::Bouraq {
                        village,
                        pay,
                        hagis,
                    }));
                }
                Djinn::Enki => {
                    let oasis = p.tile()?;
                    let pay = p.pay()?;
                    let lamia = p.redirect("lamia")?;
                    return Ok(Move::Use(DjinnUse::Enki { oasis, pay, lamia }));
                }
                Djinn::Sibittis => DjinnUse::Sibittis { pay: p.pay()? },
                Djinn::Sloar => DjinnUse::Sloar,
                _ => return Err(p.err("that djinn has no power to use on its own")),
            };
            p.done(Move::Use(u))
        }
        "keep" => {
            let d = p.djinn()?;
            p.done(Move::Keep(d))
        }
        "sell" => {
            let w = p.word("goods, e.g. iv+go+fi")?;
            let mut g = 0u16;
            for code in pieces(w, b'+') {
                let r = Res::from_code(code).ok_or_else(|| p.err("unknown good"))?;
                if r.is_fakir() {
                    return Err(p.err("Fakirs cannot be sold"));
                }
                if g & (1 << r.0) != 0 {
                    return Err(p.err("a set holds each good once"));
                }
                g |= 1 << r.0;
            }
            p.done(Move::Sell(Goods(g)))
        }
        "end" => p.done(Move::End),
        _ => Err(p.err("unknown move")),
    }
}

fn join<T>(items: impl IntoIterator<Item = T>, f: impl Fn(T) -> String) -> String {
    let v: Vec<String> = items.into_iter().map(f).collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(".")
    }
}

pub fn format_chance(c: &Chance) -> String {
    let cards = |cs: &[Res]| join(cs.iter(), |r| r.code().to_string());
    let djinns = |ds: &[Djinn]| join(ds.iter(), |d| d.slug().to_string());
    match c {
        Chance::Deal(d) => {
            let kinds = &components().kinds;
            format!(
                "deal layout={} meeples={} order={} cards={} djinns={}",
                join(d.layout.iter(), |&k| kinds[usize::from(k)].code.clone()),
                join(d.meeples.iter(), |m| m.iter().map(|c| c.letter()).collect()),
                join(d.bid_order.iter(), |s| s.to_string()),
                cards(&d.cards),
                djinns(&d.djinns)
            )
        }
        Chance::Refill {
            cards: cs,
            djinns: ds,
        } => format!("refill cards={} djinns={}", cards(cs), djinns(ds)),
        Chance::Cards(cs) => format!("draw cards={}", cards(cs)),
        Chance::Djinns(ds) => format!("draw djinns={}", djinns(ds)),
        Chance::Meeples(ms) => format!(
            "draw meeples={}",
            ms.iter().map(|c| c.letter()).collect::<String>()
        ),
    }
}

/// The value of a `name=value` word.
fn field<'a>(p: &mut P<'a>, name: &str) -> Result<&'a str, NotationError> {
    let w = p.word(name)?;
    w.strip_prefix(name)
        .and_then(|v| v.strip_prefix('='))
        .ok_or_else(|| p.err(&format!("expected `{name}=`")))
}

/// The items of a `.`-separated list (`-`: none), each read by `f`. Split as it is read: a
/// dealt layout is 30 items, and every replay reads it.
fn list<T, const N: usize>(
    p: &P<'_>,
    items: &str,
    f: impl Fn(&str) -> Option<T>,
) -> Result<ArrayVec<T, N>, NotationError> {
    let mut out = ArrayVec::new();
    if items == "-" {
        return Ok(out);
    }
    for i in pieces(items, b'.') {
        let v = f(i).ok_or_else(|| {
            p.err(&format!(
                "unknown item `{}`",
                i.chars().take(12).collect::<String>()
            ))
        })?;
        out.try_push(v).map_err(|_| p.err("too many items"))?;
    }
    Ok(out)
}

/// Tile kinds by code, indexed once (a dealt layout names 30).
pub(crate) fn kind_index(code: &str) -> Option<u8> {
    static KINDS: OnceLock<NameIndex> = OnceLock::new();
    KINDS
        .get_or_init(|| NameIndex::new(components().kinds.iter().map(|k| k.code.as_str())))
        .get(code)
}

fn card(s: &str) -> Option<Res> {
    Res::from_code(s)
}

pub fn parse_chance(text: &str) -> Result<Chance, NotationError> {
    let mut p = P {
        text,
        words: text.split_ascii_whitespace(),
    };
    match p.word("an outcome")? {
        "deal" => {
            let layout_w = field(&mut p, "layout")?;
            let meeples_w = field(&mut p, "meeples")?;
            let order_w = field(&mut p, "order")?;
            let cards_w = field(&mut p, "cards")?;
            let djinns_w = field(&mut p, "djinns")?;
            let layout_v: ArrayVec<u8, 30> = list(&p, layout_w, kind_index)?;
            let layout: [u8; 30] = layout_v
                .into_inner()
                .map_err(|_| p.err("the layout names 30 tiles"))?;
            let meeples_v: ArrayVec<[Colour; 3], 30> = list(&p, meeples_w, |m| {
                let mut cs = m.chars().map(Colour::from_letter);
                match (cs.next(), cs.next(), cs.next(), cs.next()) {
                    (Some(Some(a)), Some(Some(b)), Some(Some(c)), None) => Some([a, b, c]),
                    _ => None,
                }
            })?;
            let meeples: [[Colour; 3]; 30] = meeples_v
                .into_inner()
                .map_err(|_| p.err("meeples for 30 tiles"))?;
            let bid_order = list(&p, order_w, |s| {
                if s.len() == 1 {
                    s.parse::<u8>().ok()
                } else {
                    None
                }
            })?;
            let cards = list(&p, cards_w, card)?;
            let djinns = list(&p, djinns_w, Djinn::from_slug)?;
            p.done(Chance::Deal(Box::new(Deal {
                layout,
                meeples,
                bid_order,
                cards,
                djinns,
            })))
        }
        "refill" => {
            let cw = field(&mut p, "cards")?;
            let dw = field(&mut p, "djinns")?;
            let cards = list(&p, cw, card)?;
            let djinns = list(&p, dw, Djinn::from_slug)?;
            p.done(Chance::Refill { cards, djinns })
        }
        "draw" => {
            let w = p.word("cards=, djinns= or meeples=")?;
            let (kind, v) =
                cut(w, b'=').ok_or_else(|| p.err("expected cards=, djinns= or meeples="))?;
            let c = match kind {
                "cards" => Chance::Cards(list(&p, v, card)?),
                "djinns" => Chance::Djinns(list(&p, v, Djinn::from_slug)?),
                "meeples" => {
                    let mut out = ArrayVec::new();
                    for ch in v.chars() {
                        let c = Colour::from_letter(ch)
                            .ok_or_else(|| p.err("a meeple is Y, W, G, B or R"))?;
                        out.try_push(c).map_err(|_| p.err("at most 3 meeples"))?;
                    }
                    Chance::Meeples(out)
                }
                _ => return Err(p.err("expected cards=, djinns= or meeples=")),
            };
            p.done(c)
        }
        _ => Err(p.err("unknown outcome")),
    }
}
