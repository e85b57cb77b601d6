//! Move and chance notation: short, stable text, documented with examples in
//! `schema/notation/five-tribes.md`. `parse_move(format_move(m)) == m` for every legal move.
//!
//! One notation discipline (issue 37, Ruling F21): what the rules give no order (a Large
//! Market's two cards, Iblis's two victims, a payment's Elder and Fakir, a sale's goods, the
//! meeples laid on a tile or drawn from the bag) is read in any order to one value, which
//! formats as the canonical text a log stores; what happened in an order (the layout, the bid
//! order track, cards and djinns as the piles give them) keeps it. A size the notation fixes
//! for every game (a deal's 30 tiles, 3 meeples a tile, 9 cards, 3 djinns) is refused here; a
//! size the game or the position decides (the markers, every draw) is read at any length and
//! refused by the rules (`chance.deal`, `chance.draw`).

use crate::data::components;
use crate::ids::{Colour, Djinn, Res, Tile};
use crate::moves::{
    in_order, Chance, Deal, DjinnUse, Goods, Move, Pay, Redirect, Target, DRAW_DJINNS_CAP,
    DRAW_MEEPLES_CAP, ORDER_CAP,
};
use arrayvec::ArrayVec;
use rules_core::notation::{cut, pieces, NameIndex};
use rules_core::NotationError;
use std::cmp::Ordering;
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
        Pay::parse(w).ok_or_else(|| self.err("a payment is W, F, WW or WF (or FW)"))
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
    /// One victim, or Iblis's two in tribe order (written in any order).
    fn victims(&mut self) -> Result<(Colour, Option<Colour>), NotationError> {
        let w = self.word("the victims, e.g. G or G+R")?;
        match cut(w, b'+') {
            Some((a, b)) => {
                let (a, b) = in_order(self.colour(a)?, self.colour(b)?);
                Ok((a, Some(b)))
            }
            None => Ok((self.colour(w)?, None)),
        }
    }
    /// A card position of the row, written from 1.
    fn position(&mut self, w: &str) -> Result<u8, NotationError> {
        self.small(w)?
            .checked_sub(1)
            .ok_or_else(|| self.err("positions count from 1"))
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
            let a = p.position(w)?;
            // Two cards in either order: the move takes them in row order.
            let (first, second) = match p.words.next() {
                None => (a, None),
                Some(w) => {
                    let b = p.position(w)?;
                    if a == b {
                        return Err(p.err(
                            "a card is named twice: a Large Market takes two different cards",
                        ));
                    }
                    let (a, b) = in_order(a, b);
                    (a, Some(b))
                }
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
                // A Fakir is a card the notation names; that it is never sold is a rule
                // (`sell.fakirs`).
                let r = Res::from_code(code).ok_or_else(|| p.err("unknown good"))?;
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

/// The items of a `.`-separated list (`-`: none), each read by `f`, and how many were
/// written. Split as it is read: a dealt layout is 30 items, and every replay reads it.
///
/// Every item is read (an unknown one is refused), but only the first `N` are kept: the
/// fixed sizes of a deal are checked against the count, and a list whose length the rules
/// decide holds more than they ever ask for (`moves::ORDER_CAP`), so that one written too
/// long is still refused by them.
fn list<T, const N: usize>(
    items: &str,
    f: impl Fn(&str) -> Result<T, NotationError>,
) -> Result<(ArrayVec<T, N>, usize), NotationError> {
    let mut out = ArrayVec::new();
    if items == "-" {
        return Ok((out, 0));
    }
    let mut n = 0;
    for i in pieces(items, b'.') {
        let v = f(i)?;
        n += 1;
        let _ = out.try_push(v);
    }
    Ok((out, n))
}

/// `f` for [`list`]: an item read by `read`, or "unknown item".
fn known<'a, T>(
    p: &'a P<'_>,
    read: impl Fn(&str) -> Option<T> + 'a,
) -> impl Fn(&str) -> Result<T, NotationError> + 'a {
    move |i| {
        read(i).ok_or_else(|| {
            p.err(&format!(
                "unknown item `{}`",
                i.chars().take(12).collect::<String>()
            ))
        })
    }
}

/// A list of a deal whose size is the same in every game: exactly `want` items.
fn exactly(p: &P<'_>, got: usize, want: usize, what: &str, has: &str) -> Result<(), NotationError> {
    let too = match got.cmp(&want) {
        Ordering::Equal => return Ok(()),
        Ordering::Greater => "many",
        Ordering::Less => "few",
    };
    Err(p.err(&format!("too {too} {what}: {has} {want}, not {got}")))
}

/// The three meeples laid on one tile, in tribe order (they are laid together, in no order).
fn three_meeples(p: &P<'_>, w: &str) -> Result<[Colour; 3], NotationError> {
    let mut out: ArrayVec<Colour, 3> = ArrayVec::new();
    let mut n = 0;
    for ch in w.chars() {
        let c = Colour::from_letter(ch).ok_or_else(|| p.err("a meeple is Y, W, G, B or R"))?;
        n += 1;
        let _ = out.try_push(c);
    }
    let mut three = out.into_inner().ok().filter(|_| n == 3).ok_or_else(|| {
        p.err(&format!(
            "each tile is dealt 3 meeples, not {n} (`{}`)",
            w.chars().take(12).collect::<String>()
        ))
    })?;
    three.sort_unstable();
    Ok(three)
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
            let c = components();
            let (layout_v, n): (ArrayVec<u8, 30>, _) = list(layout_w, known(&p, kind_index))?;
            exactly(&p, n, 30, "tiles", "the layout names")?;
            let layout: [u8; 30] = layout_v
                .into_inner()
                .map_err(|_| p.err("the layout names 30 tiles"))?;
            let (meeples_v, n): (ArrayVec<[Colour; 3], 30>, _) =
                list(meeples_w, |m| three_meeples(&p, m))?;
            exactly(&p, n, 30, "tiles", "the meeples are laid on")?;
            let meeples: [[Colour; 3]; 30] = meeples_v
                .into_inner()
                .map_err(|_| p.err("meeples for 30 tiles"))?;
            // As many markers as the player count makes: the rules' to check (`chance.deal`).
            let (bid_order, _): (ArrayVec<u8, ORDER_CAP>, _) = list(
                order_w,
                known(&p, |s| {
                    if s.len() == 1 {
                        s.parse::<u8>().ok()
                    } else {
                        None
                    }
                }),
            )?;
            let (cards, n) = list(cards_w, known(&p, card))?;
            exactly(&p, n, c.row_size, "resource cards", "the row is dealt")?;
            let (djinns, n) = list(djinns_w, known(&p, Djinn::from_slug))?;
            exactly(&p, n, c.djinn_row, "djinns", "the row is dealt")?;
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
            // As many as the rows lack and the piles hold: the rules' to check (`chance.draw`).
            let (cards, _) = list(cw, known(&p, card))?;
            let (djinns, _) = list(dw, known(&p, Djinn::from_slug))?;
            p.done(Chance::Refill { cards, djinns })
        }
        "draw" => {
            let w = p.word("cards=, djinns= or meeples=")?;
            let (kind, v) =
                cut(w, b'=').ok_or_else(|| p.err("expected cards=, djinns= or meeples="))?;
            // A draw's size is the position's: the rules' to check (`chance.draw`), at any
            // length. Cards and djinns in the pile's order; meeples from the bag in tribe order.
            let c = match kind {
                "cards" => Chance::Cards(list(v, known(&p, card))?.0),
                "djinns" => {
                    let (ds, _): (ArrayVec<Djinn, DRAW_DJINNS_CAP>, _) =
                        list(v, known(&p, Djinn::from_slug))?;
                    Chance::Djinns(ds)
                }
                "meeples" => {
                    let mut out: ArrayVec<Colour, DRAW_MEEPLES_CAP> = ArrayVec::new();
                    for ch in v.chars() {
                        let c = Colour::from_letter(ch)
                            .ok_or_else(|| p.err("a meeple is Y, W, G, B or R"))?;
                        let _ = out.try_push(c);
                    }
                    out.sort_unstable();
                    Chance::Meeples(out)
                }
                _ => return Err(p.err("expected cards=, djinns= or meeples=")),
            };
            p.done(c)
        }
        _ => Err(p.err("unknown outcome")),
    }
}
