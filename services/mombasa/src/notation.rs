//! The text form of moves and chance outcomes (documented in `schema/notation/mombasa.md`).
//! Card, book, tile, region and bonus-space names are the data files' ids, so a log reads
//! like the components.

use crate::data::{components, BonusKind};
use crate::ids::{BookSpace, CardRef, Company, DisplayPos, Region, StartTile, Unit};
use crate::ids::{BOOK_SPACES, DECK_CARDS, OWN_CARDS, SLOTS};
use crate::moves::{BonusArg, Chance, Move};
use arrayvec::ArrayVec;
use rules_core::notation::{cut, pieces, split_words, word_key, words, CodeIndex, NameIndex};
use rules_core::NotationError;
use std::fmt::Write;
use std::sync::OnceLock;

/// The components' names, indexed once. Names are the same in every data version (a
/// correction may not rename, see `data/versions.rs`), so the current data's serve all.
/// Cards, books and tiles are named by a letter and a number (`B16`): their table is indexed
/// by the code itself; a card is read in most entries of a replay.
pub(crate) struct Names {
    pub(crate) cards: CodeIndex,
    pub(crate) books: CodeIndex,
    tiles: CodeIndex,
    sides: NameIndex,
    pub(crate) bonus: NameIndex,
    /// What each bonus space names after it.
    pub(crate) bonus_takes: Vec<Takes>,
}

#[inline(always)]
pub(crate) fn names() -> &'static Names {
    static NAMES: OnceLock<Names> = OnceLock::new();
    // Built once, by a function apart: the building inlined here made every reader of a
    // name save registers for it (a third of reading a card).
    match NAMES.get() {
        Some(n) => n,
        None => NAMES.get_or_init(index_names),
    }
}

#[cold]
#[inline(never)]
fn index_names() -> Names {
    let c = components();
    Names {
        // Own cards (44..54) are named by seat 0's block: the codes are the same for
        // every seat.
        cards: CodeIndex::new(
            c.cards
                .iter()
                .take(usize::from(DECK_CARDS + OWN_CARDS))
                .map(|k| k.code.as_str()),
        ),
        books: CodeIndex::new(c.books.iter().map(|k| k.code.as_str())),
        tiles: CodeIndex::new(c.start_tiles.iter().map(|k| k.code.as_str())),
        sides: NameIndex::new(c.sides.iter().map(|k| k.name.as_str())),
        bonus: NameIndex::new(c.bonus.iter().map(|k| k.code.as_str())),
        bonus_takes: c.bonus.iter().map(|k| Takes::of(k.kind)).collect(),
    }
}

pub fn card_code(r: CardRef) -> String {
    let c = components();
    // Own cards (44..54) are named by seat 0's block: the codes are the same for every seat.
    c.cards
        .get(usize::from(r.0))
        .map_or_else(|| "?".into(), |k| k.code.clone())
}

#[inline]
pub fn parse_card(s: &str) -> Option<CardRef> {
    names().cards.get(s).map(CardRef)
}

pub fn book_code(b: u8) -> String {
    components()
        .books
        .get(usize::from(b))
        .map_or_else(|| "?".into(), |k| k.code.clone())
}

#[inline]
pub fn parse_book(s: &str) -> Option<u8> {
    names().books.get(s)
}

pub fn tile_code(t: u8) -> String {
    components()
        .start_tiles
        .get(usize::from(t))
        .map_or_else(|| "?".into(), |k| k.code.clone())
}

#[inline]
pub fn parse_tile(s: &str) -> Option<u8> {
    names().tiles.get(s)
}

fn side_code(x: u8) -> String {
    components()
        .sides
        .get(usize::from(x))
        .map_or_else(|| "?".into(), |k| k.name.clone())
}

pub(crate) fn parse_side(s: &str) -> Option<u8> {
    names().sides.get(s)
}

/// A 1-based number in `1..=max`, as a 0-based index.
pub(crate) fn index1(s: &str, max: usize) -> Option<u8> {
    index1_bytes(s.as_bytes(), max)
}

/// [`index1`] of a number's bytes.
#[inline]
pub(crate) fn index1_bytes(s: &[u8], max: usize) -> Option<u8> {
    let n = match *s {
        [d] if d.is_ascii_digit() => usize::from(d - b'0'),
        [t, d] if t.is_ascii_digit() && d.is_ascii_digit() => {
            usize::from(t - b'0') * 10 + usize::from(d - b'0')
        }
        _ => return None,
    };
    (1..=max).contains(&n).then(|| (n - 1) as u8)
}

pub fn format_move(m: &Move) -> String {
    let c = components();
    match *m {
        Move::Keep(t) => format!("keep {}", tile_code(t.0)),
        Move::Plan { card, slot } => format!("plan {} {}", card_code(card), u16::from(slot) + 1),
        Move::Ready => "ready".into(),
        Move::Goods { good, mask } => {
            let mut items: Vec<String> = (0..SLOTS)
                .filter(|s| mask & (1 << s) != 0)
                .map(|s| (s + 1).to_string())
                .collect();
            if mask & crate::goods::TILE_BIT != 0 {
                items.push("t".into());
            }
            format!("goods {} {}", good.code(), items.join(","))
        }
        Move::Buy(pos) => format!("buy {}", pos.code()),
        Move::Step(co) => format!("step {}", co.code()),
        Move::Done => "done".into(),
        Move::Expand(co) => format!("expand {}", co.code()),
        Move::Enter {
            region,
            column,
            ret,
        } => {
            let mut s = format!(
                "enter {} {}",
                u16::from(region.0) + 1,
                u16::from(column) + 1
            );
            if let Some(k) = ret {
                let _ = write!(s, " {}", u16::from(k) + 1);
            }
            s
        }
        Move::Clerk(slot) => format!("clerk {}", u16::from(slot) + 1),
        Move::Flip(pos) => format!("flip {pos}"),
        Move::Ink => "ink".into(),
        Move::Book(space) => format!("book {}", space.code()),
        Move::Pound => "pound".into(),
        Move::Diamond(slot) => format!("diamond {}", u16::from(slot) + 1),
        Move::Bonus { space, arg } => {
            let code = c
                .bonus
                .get(usize::from(space))
                .map_or("?", |b| b.code.as_str());
            match arg {
                BonusArg::None => format!("bonus {code}"),
                BonusArg::Display(pos) => format!("bonus {code} {}", pos.code()),
                BonusArg::Card(r) => format!("bonus {code} {}", card_code(r)),
            }
        }
        Move::End(pile) => format!("end {}", u16::from(pile) + 1),
        Move::Cancel => "cancel".into(),
    }
}

/// The words that start a move, as [`tag`]s: the verb picks its arm by one integer
/// comparison.
mod verb {
    use rules_core::notation::tag;
    pub const KEEP: u128 = tag("keep");
    pub const PLAN: u128 = tag("plan");
    pub const READY: u128 = tag("ready");
    pub const GOODS: u128 = tag("goods");
    pub const BUY: u128 = tag("buy");
    pub const STEP: u128 = tag("step");
    pub const DONE: u128 = tag("done");
    pub const EXPAND: u128 = tag("expand");
    pub const ENTER: u128 = tag("enter");
    pub const CLERK: u128 = tag("clerk");
    pub const FLIP: u128 = tag("flip");
    pub const INK: u128 = tag("ink");
    pub const BOOK: u128 = tag("book");
    pub const POUND: u128 = tag("pound");
    pub const DIAMOND: u128 = tag("diamond");
    pub const BONUS: u128 = tag("bonus");
    pub const END: u128 = tag("end");
    pub const CANCEL: u128 = tag("cancel");
}

/// What a bonus space names after it in `bonus SPACE ARG`: nothing, a display space (the
/// buy space) or a card from hand (the sell space). The same in every data version, as the
/// names are (`data/versions.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Takes {
    Nothing,
    Display,
    Card,
}

impl Takes {
    fn of(kind: BonusKind) -> Takes {
        match kind {
            BonusKind::BuyCard { .. } => Takes::Display,
            BonusKind::SellCard { .. } => Takes::Card,
            BonusKind::FirstPlayer { .. } | BonusKind::Majority { .. } => Takes::Nothing,
        }
    }

    /// Whether `arg` is what a space of this kind names.
    fn fits(self, arg: BonusArg) -> bool {
        matches!(
            (self, arg),
            (Takes::Nothing, BonusArg::None)
                | (Takes::Display, BonusArg::Display(_))
                | (Takes::Card, BonusArg::Card(_))
        )
    }
}

/// Why a move of the right words is still no move at all, whatever the position: a bonus
/// space with the wrong kind of argument, a bookkeeping-track space past the track's 10. The
/// full parser and the fast reading (`reading`) both refuse by it.
pub(crate) fn move_shape(m: &Move) -> Result<(), &'static str> {
    match *m {
        Move::Bonus { space, arg } => match names().bonus_takes.get(usize::from(space)) {
            None => Err("unknown bonus space"),
            Some(t) if t.fits(arg) => Ok(()),
            Some(Takes::Nothing) => Err("that bonus space takes no argument"),
            Some(Takes::Display) => Err("the buy space names a display space: `bonus buy L1..R4`"),
            Some(Takes::Card) => Err("the sell space names a card from hand: `bonus sell CARD`"),
        },
        Move::Flip(pos) if pos == 0 || usize::from(pos) > BOOK_SPACES => {
            Err("bookkeeping track spaces are 1..10")
        }
        _ => Ok(()),
    }
}

/// How each move is written, for the refusal of a wrong number of words: the words after the
/// verb it takes at least and at most.
fn usage(verb: u128) -> Option<(&'static str, usize, usize)> {
    Some(match verb {
        verb::KEEP => ("keep TILE", 1, 1),
        verb::PLAN => ("plan CARD SLOT", 2, 2),
        verb::GOODS => ("goods GOOD SLOT,SLOT,t", 2, 2),
        verb::BUY => ("buy SPACE", 1, 1),
        verb::STEP => ("step COMPANY", 1, 1),
        verb::EXPAND => ("expand COMPANY", 1, 1),
        verb::ENTER => ("enter REGION COLUMN [RETURN-COLUMN]", 2, 3),
        verb::CLERK => ("clerk SLOT", 1, 1),
        verb::FLIP => ("flip TRACK-SPACE", 1, 1),
        verb::BOOK => ("book SPACE", 1, 1),
        verb::DIAMOND => ("diamond SLOT", 1, 1),
        verb::BONUS => ("bonus SPACE [DISPLAY-SPACE or CARD]", 1, 2),
        verb::END => ("end PILE", 1, 1),
        verb::READY => ("ready", 0, 0),
        verb::DONE => ("done", 0, 0),
        verb::INK => ("ink", 0, 0),
        verb::POUND => ("pound", 0, 0),
        verb::CANCEL => ("cancel", 0, 0),
        _ => return None,
    })
}

/// Words a move has at most (`enter REGION COLUMN RETURN`); more are read only to be counted.
const MOVE_WORDS: usize = 4;

pub fn parse_move(text: &str) -> Result<Move, NotationError> {
    let bad = |why: &str| NotationError::new(text, why);
    if text.is_empty() {
        return Err(bad(
            "an empty entry: a move starts with its verb (`plan`, `goods`, ...)",
        ));
    }
    let mut buf = [""; MOVE_WORDS];
    let w: &[&str] = match split_words(text, &mut buf) {
        Some(n) => &buf[..n],
        None => &buf,
    };
    // Words past the fourth are counted apart (no move has them): only to say how many.
    let count = if w.len() < MOVE_WORDS {
        w.len()
    } else {
        text.split(' ').count()
    };
    if w.iter().any(|x| x.is_empty()) || (count > w.len() && text.split(' ').any(str::is_empty)) {
        return Err(bad(
            "words separated by single spaces, with none before the first or after the last",
        ));
    }
    let key = word_key(w[0]);
    let Some((form, least, most)) = usage(key) else {
        return Err(bad(
            "unknown move: keep, plan, ready, goods, buy, step, done, expand, enter, clerk, \
             flip, ink, book, pound, diamond, bonus, end, cancel",
        ));
    };
    let after = count - 1;
    if !(least..=most).contains(&after) {
        let takes = match (least, most) {
            (0, 0) => "no word".to_string(),
            (1, 1) => "1 word".to_string(),
            (a, b) if a == b => format!("{a} words"),
            (a, b) => format!("{a} or {b} words"),
        };
        let hint = if after > most {
            ": one move an entry, and a list's items joined by commas without spaces"
        } else {
            ""
        };
        return Err(bad(&format!(
            "`{form}` takes {takes} after `{}`, not {after}{hint}",
            w[0]
        )));
    }
    // Every word read below is there: the count was checked against the form.
    let arg = |i: usize| w.get(i).copied().unwrap_or("");
    let slot = |s: &str| index1(s, SLOTS).ok_or_else(|| bad("slots are 1..5"));
    let company = |s: &str| Company::from_code(s).ok_or_else(|| bad("companies: mom cpt stl cai"));
    let pos = |s: &str| DisplayPos::parse(s).ok_or_else(|| bad("display spaces: L1..R4"));
    let card = |s: &str| parse_card(s).ok_or_else(|| bad("unknown card"));
    let m = match key {
        verb::KEEP => Move::Keep(StartTile(
            parse_tile(arg(1)).ok_or_else(|| bad("start tiles: T1..T10"))?,
        )),
        verb::PLAN => Move::Plan {
            card: card(arg(1))?,
            slot: slot(arg(2))?,
        },
        verb::READY => Move::Ready,
        verb::GOODS => {
            let good = Unit::from_code(arg(1))
                .filter(|u| u.is_good())
                .ok_or_else(|| bad("goods: coffee banana cotton"))?;
            let mut mask = 0u8;
            for item in pieces(arg(2), b',') {
                let bit = match item {
                    "t" => crate::goods::TILE_BIT,
                    "" => return Err(bad("an empty item: items are joined by single commas")),
                    _ => {
                        1 << index1(item, SLOTS).ok_or_else(|| bad("items: slots 1..5 and `t`"))?
                    }
                };
                if mask & bit != 0 {
                    return Err(bad("an item named twice"));
                }
                mask |= bit;
            }
            Move::Goods { good, mask }
        }
        verb::BUY => Move::Buy(pos(arg(1))?),
        verb::STEP => Move::Step(company(arg(1))?),
        verb::DONE => Move::Done,
        verb::EXPAND => Move::Expand(company(arg(1))?),
        verb::ENTER => {
            let region =
                index1(arg(1), crate::ids::REGIONS).ok_or_else(|| bad("regions are 1..24"))?;
            let col =
                |s: &str| index1(s, crate::ids::COLUMNS).ok_or_else(|| bad("columns are 1..3"));
            Move::Enter {
                region: Region(region),
                column: col(arg(2))?,
                ret: w.get(3).map(|s| col(s)).transpose()?,
            }
        }
        verb::CLERK => Move::Clerk(slot(arg(1))?),
        verb::FLIP => Move::Flip(
            index1(arg(1), BOOK_SPACES).ok_or_else(|| bad("bookkeeping track spaces are 1..10"))?
                + 1,
        ),
        verb::INK => Move::Ink,
        verb::BOOK => {
            Move::Book(BookSpace::parse(arg(1)).ok_or_else(|| bad("book spaces: 2a..7b"))?)
        }
        verb::POUND => Move::Pound,
        verb::DIAMOND => Move::Diamond(slot(arg(1))?),
        verb::BONUS => {
            let space = names().bonus.get(arg(1)).ok_or_else(|| {
                bad("bonus spaces: first buy sell coffee banana cotton expansion")
            })?;
            // The argument is read as what the space names, so that a wrong one is refused
            // for what it is.
            let takes = names().bonus_takes.get(usize::from(space)).copied();
            let a = match (takes, w.get(2)) {
                (_, None) => BonusArg::None,
                (Some(Takes::Display), Some(s)) => BonusArg::Display(pos(s)?),
                (Some(Takes::Card), Some(s)) => BonusArg::Card(card(s)?),
                (_, Some(_)) => return Err(bad("that bonus space takes no argument")),
            };
            let m = Move::Bonus { space, arg: a };
            move_shape(&m).map_err(bad)?;
            m
        }
        verb::END => Move::End(index1(arg(1), SLOTS).ok_or_else(|| bad("rest piles are 1..5"))?),
        verb::CANCEL => Move::Cancel,
        _ => return Err(bad("unknown move")),
    };
    Ok(m)
}

fn list(items: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = items.collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(",")
    }
}

pub fn format_chance(ch: &Chance) -> String {
    match ch {
        Chance::Setup {
            display,
            books,
            sides,
            first,
        } => {
            let mut s = format!(
                "setup display={} books={}",
                list(display.iter().map(|&c| card_code(CardRef(c)))),
                list(books.iter().map(|&b| book_code(b)))
            );
            if let Some(sd) = sides {
                let _ = write!(s, " sides={}", list(sd.iter().map(|&x| side_code(x))));
            }
            if let Some(f) = first {
                let _ = write!(s, " first={f}");
            }
            s
        }
        Chance::Book { space, book } => format!("book {} {}", space.code(), book_code(*book)),
        Chance::StartTiles { seat, tiles } => format!(
            "tiles {seat} {},{}",
            tile_code(tiles[0]),
            tile_code(tiles[1])
        ),
        Chance::Starts(t) => format!("starts {}", list(t.iter().map(|&x| tile_code(x)))),
        Chance::Reveal(plans) => {
            let mut s = "reveal".to_string();
            for (seat, plan) in plans.iter().enumerate() {
                let items = plan
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| c.map(|c| format!("{}@{}", card_code(c), i + 1)));
                let _ = write!(s, " {seat}:{}", list(items));
            }
            s
        }
        Chance::Draw { cards, books } => format!(
            "draw cards={} books={}",
            list(cards.iter().map(|&c| card_code(CardRef(c)))),
            list(books.iter().map(|&b| book_code(b)))
        ),
    }
}

pub(crate) fn parse_list<T, const N: usize>(
    s: &str,
    f: impl Fn(&str) -> Option<T>,
) -> Option<ArrayVec<T, N>> {
    rules_core::notation::list(s, b',', f)
}

/// Whether the items of a list are all different (`key` of each below 128).
fn distinct<T>(items: &[T], key: impl Fn(&T) -> u8) -> bool {
    let mut seen = 0u128;
    items.iter().all(|x| {
        let bit = 1u128.checked_shl(u32::from(key(x))).unwrap_or(0);
        let fresh = seen & bit == 0;
        seen |= bit;
        fresh
    })
}

/// Why an outcome of the right words is still no outcome at all, whatever the position: a
/// count the notation fixes (a setup's 12 cards and 12 books, a seat's 2 start tiles) or
/// bounds by the table (2 to 4 seats), or an item named twice in one list. The full parser
/// and the fast reading (`reading`) both refuse by it; what depends on the position (the
/// cards the deck holds, how many spaces a draw fills, the seats of this game) is the rules'
/// to refuse, under their codes.
pub(crate) fn chance_shape(c: &Chance) -> Result<(), &'static str> {
    let seats = 2..=crate::ids::MAX_SEATS;
    match c {
        Chance::Setup {
            display,
            books,
            sides,
            first,
        } => {
            if display.len() != crate::ids::DISPLAY {
                return Err("a setup display is 12 cards");
            }
            if books.len() != crate::ids::DISPLAY {
                return Err("a setup names 12 books, one for each book display space");
            }
            if !distinct(display, |&x| x) {
                return Err("a display card named twice");
            }
            if !distinct(books, |&x| x) {
                return Err("a book named twice");
            }
            if let Some(sd) = sides {
                if !distinct(sd, |&x| x / 2) {
                    return Err("a track card named twice: one side of each of the 4 cards");
                }
            }
            if first.is_some_and(|f| usize::from(f) >= crate::ids::MAX_SEATS) {
                return Err("first is a seat 0..3");
            }
            Ok(())
        }
        Chance::StartTiles { seat, tiles } => {
            if usize::from(*seat) >= crate::ids::MAX_SEATS {
                Err("seats are 0..3")
            } else if tiles[0] == tiles[1] {
                Err("a seat is dealt two different start tiles")
            } else {
                Ok(())
            }
        }
        Chance::Starts(t) => {
            if !seats.contains(&t.len()) {
                Err("one start tile for each seat, 2 to 4")
            } else if !distinct(t, |&x| x) {
                Err("a start tile named twice")
            } else {
                Ok(())
            }
        }
        Chance::Reveal(plans) => {
            if !seats.contains(&plans.len()) {
                return Err("a reveal shows one plan for each seat, 2 to 4");
            }
            let twice = plans.iter().any(|plan| {
                let cards: ArrayVec<u8, SLOTS> = plan.iter().flatten().map(|c| c.0).collect();
                !distinct(&cards, |&x| x)
            });
            if twice {
                return Err("a card named twice in one plan");
            }
            Ok(())
        }
        Chance::Draw { cards, books } => {
            if !distinct(cards, |&x| x) {
                Err("a card named twice")
            } else if !distinct(books, |&x| x) {
                Err("a book named twice")
            } else {
                Ok(())
            }
        }
        Chance::Book { .. } => Ok(()),
    }
}

/// The `key=value` fields of an outcome, in any order (the notation writes them in one:
/// `keys`' order), each named at most once; `None` for a field not given.
fn fields<'a, const K: usize>(
    text: &str,
    words: &[&'a str],
    keys: [&str; K],
    form: &str,
) -> Result<[Option<&'a str>; K], NotationError> {
    let bad = |why: String| NotationError::new(text, why);
    let mut out = [None; K];
    for word in words {
        let (key, value) =
            cut(word, b'=').ok_or_else(|| bad(format!("`{word}` is no field: {form}")))?;
        let i = keys
            .iter()
            .position(|k| *k == key)
            .ok_or_else(|| bad(format!("unknown field `{key}`: {form}")))?;
        if out[i].replace(value).is_some() {
            return Err(bad(format!("`{key}=` named twice: {form}")));
        }
    }
    Ok(out)
}

pub fn parse_chance(text: &str) -> Result<Chance, NotationError> {
    let bad = |why: &str| NotationError::new(text, why);
    // No outcome has more than 5 words; 8 leaves room to name the kind in the error.
    let w = words::<8>(text).ok_or_else(|| bad("more words than any chance outcome has"))?;
    if w.iter().any(|x| x.is_empty()) {
        return Err(bad(
            "words separated by single spaces, with none before the first or after the last",
        ));
    }
    let cards = |x: &str, what: &str| -> Result<ArrayVec<u8, 12>, NotationError> {
        // A known card's item is `Some`, a deck card's `Some(Some(card))`.
        let v: Option<ArrayVec<Option<u8>, 12>> = parse_list(x, |p| {
            parse_card(p).map(|r| (r.0 < DECK_CARDS).then_some(r.0))
        });
        match v {
            Some(v) => v
                .into_iter()
                .collect::<Option<_>>()
                .ok_or_else(|| bad("deck cards only (A1..E4): a seat's own cards are never dealt")),
            None if pieces(x, b',').count() > 12 => Err(bad(&format!("{what}: at most 12 cards"))),
            None => Err(bad(&format!("{what}: unknown card"))),
        }
    };
    let books = |x: &str, what: &str| -> Result<ArrayVec<u8, 12>, NotationError> {
        parse_list(x, parse_book).ok_or_else(|| {
            if pieces(x, b',').count() > 12 {
                bad(&format!("{what}: at most 12 books"))
            } else {
                bad(&format!("{what}: unknown book"))
            }
        })
    };
    let tiles = |x: &str, too_many: &str| -> Result<ArrayVec<u8, 4>, NotationError> {
        parse_list(x, parse_tile).ok_or_else(|| {
            if pieces(x, b',').count() > 4 {
                bad(too_many)
            } else {
                bad("start tiles: T1..T10")
            }
        })
    };
    let seat = |x: &str, why: &str| -> Result<u8, NotationError> {
        match *x.as_bytes() {
            [d @ b'0'..=b'9'] if usize::from(d - b'0') < crate::ids::MAX_SEATS => Ok(d - b'0'),
            _ => Err(bad(why)),
        }
    };
    let c = match w.first().copied().unwrap_or("") {
        "setup" => {
            const FORM: &str = "setup display=.. books=.. [sides=..] [first=..]";
            let [display, book_list, sides, first] =
                fields(text, &w[1..], ["display", "books", "sides", "first"], FORM)?;
            let display = cards(display.ok_or_else(|| bad(FORM))?, "display")?;
            let books = books(book_list.ok_or_else(|| bad(FORM))?, "books")?;
            let sides = match sides {
                None => None,
                Some(x) => {
                    let v: ArrayVec<u8, 4> = parse_list(x, parse_side)
                        .filter(|v: &ArrayVec<u8, 4>| v.is_full())
                        .ok_or_else(|| {
                            if pieces(x, b',').all(|p| parse_side(p).is_some()) {
                                bad("one track side for each company: 4")
                            } else {
                                bad("track sides: A1..D2")
                            }
                        })?;
                    v.into_inner().ok()
                }
            };
            let first = first.map(|x| seat(x, "first is a seat 0..3")).transpose()?;
            Chance::Setup {
                display,
                books,
                sides,
                first,
            }
        }
        "book" => {
            if w.len() != 3 {
                return Err(bad("book SPACE BOOK"));
            }
            Chance::Book {
                space: BookSpace::parse(w[1]).ok_or_else(|| bad("book spaces: 2a..7b"))?,
                book: parse_book(w[2]).ok_or_else(|| bad("unknown book"))?,
            }
        }
        "tiles" => {
            if w.len() != 3 {
                return Err(bad("tiles SEAT TILE,TILE"));
            }
            let seat = seat(w[1], "seats are 0..3")?;
            let tiles = match *tiles(w[2], "a seat is dealt 2 start tiles")? {
                [a, b] => [a, b],
                _ => return Err(bad("a seat is dealt 2 start tiles")),
            };
            Chance::StartTiles { seat, tiles }
        }
        "starts" => {
            if w.len() != 2 {
                return Err(bad("starts TILE,TILE,.."));
            }
            Chance::Starts(tiles(w[1], "one start tile for each seat, 2 to 4")?)
        }
        "reveal" => {
            if !(3..=5).contains(&w.len()) {
                return Err(bad(
                    "reveal SEAT:CARD@SLOT,.. for each seat (2 to 4), `-` for no card",
                ));
            }
            // The seats in any order, each once: stored from seat 0.
            let mut by_seat: [Option<[Option<CardRef>; SLOTS]>; crate::ids::MAX_SEATS] =
                [None; crate::ids::MAX_SEATS];
            for part in &w[1..] {
                let (who, items) = cut(part, b':').ok_or_else(|| bad("SEAT:CARD@SLOT,.."))?;
                let who = seat(who, "seats are 0..3")?;
                let mut plan = [None; SLOTS];
                let v: ArrayVec<(CardRef, u8), SLOTS> = parse_list(items, |it| {
                    let (c, s) = cut(it, b'@')?;
                    Some((parse_card(c)?, index1(s, SLOTS)?))
                })
                .ok_or_else(|| {
                    if pieces(items, b',').count() > SLOTS {
                        bad("a plan has at most 5 cards")
                    } else {
                        bad("a plan is CARD@SLOT,.. (slots 1..5), or `-`")
                    }
                })?;
                for (c, s) in v {
                    if plan[usize::from(s)].replace(c).is_some() {
                        return Err(bad("a slot named twice"));
                    }
                }
                if by_seat[usize::from(who)].replace(plan).is_some() {
                    return Err(bad("a seat named twice"));
                }
            }
            let n = w.len() - 1;
            if by_seat[..n].iter().any(Option::is_none) {
                return Err(bad("the seats are 0 to the last one, each once"));
            }
            Chance::Reveal(by_seat[..n].iter().flatten().copied().collect())
        }
        "draw" => {
            const FORM: &str = "draw cards=.. books=..";
            let [drawn, book_list] = fields(text, &w[1..], ["cards", "books"], FORM)?;
            Chance::Draw {
                cards: cards(drawn.ok_or_else(|| bad(FORM))?, "cards")?,
                books: books(book_list.ok_or_else(|| bad(FORM))?, "books")?,
            }
        }
        _ => {
            return Err(bad(
                "unknown chance outcome: setup, tiles, starts, reveal, draw, book",
            ))
        }
    };
    chance_shape(&c).map_err(bad)?;
    Ok(c)
}
