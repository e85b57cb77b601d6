//! The fast reading of Clans of Caledonia notation ([`rules_core::Notation::read_move`] and
//! `read_chance`): the commonest entries in exactly the form `notation` writes them, read by
//! their bytes or word by word with [`Scan`], to the value `notation::parse_*` give; `None`
//! for any other text, which the full parsers then read or explain. Rarer moves and outcomes
//! are read by the full parser from here, so that the fast reading reads every canonical
//! entry. Replay reads every entry of every game it rebuilds, and the full parser's general
//! word splitting cost a fifth of a replay. `tests/readings.rs` checks both agree, on
//! recorded games and mutations of them.

use crate::ids::{Clan, ContractId, Good, Hex, PortId, Tech, TileId, Unit};
use crate::moves::{Chance, Deal, Move, PortArgs, Upgrade};
use crate::notation::{self, head};
use arrayvec::ArrayVec;
use rules_core::notation::{list, number, short_key, Cursor, Scan};
use rules_core::CopyList;

/// A single digit.
fn digit(b: u8) -> Option<u8> {
    b.is_ascii_digit().then(|| b - b'0')
}

/// The contracts a move names, in canonical form: numbers that name contracts, lowest first
/// (a contract named twice is read, for the rules to refuse, as the full parser does); `-`
/// only where `empty` allows it. Anything else is left to the full parser.
fn contract_set(s: &str, empty: bool) -> Option<CopyList<ContractId, 2>> {
    let l: ArrayVec<ContractId, 2> = list(s, b'+', |x| number(x).and_then(ContractId::named))?;
    ((empty || !l.is_empty()) && l.is_sorted()).then(|| l.into())
}

/// An entry's first four bytes as one integer, to dispatch on with one `match`.
const fn head4(b: &[u8; 4]) -> u32 {
    u32::from_le_bytes(*b)
}

// Always inlined where an entry is applied (replay, the store): the compiler inlined it
// only while `replay_texts` was its one caller, and a second (the `REPLAY=read`
// measurement) cost the replay beside it 50 instructions an entry.
#[inline(always)]
pub fn read_move(text: &str) -> Option<Move> {
    // Entries of fixed shape by their bytes: the first four say which shape to try (one
    // integer `match`), a length and a few comparisons the rest.
    let b = text.as_bytes();
    let Some(head) = b.first_chunk::<4>() else {
        return read_words(text);
    };
    const PASS: u32 = head4(b"pass");
    const SHIP: u32 = head4(b"ship");
    const HIRE: u32 = head4(b"hire");
    const DONE: u32 = head4(b"done");
    const MAKE: u32 = head4(b"make");
    const SELL: u32 = head4(b"sell");
    const BUY: u32 = head4(b"buy ");
    const EXPA: u32 = head4(b"expa");
    const PLAC: u32 = head4(b"plac");
    const CLAN: u32 = head4(b"clan");
    const OBTA: u32 = head4(b"obta");
    const TECH: u32 = head4(b"tech");
    const ROW: u32 = head4(b"row ");
    const MILK: u32 = head4(b"milk");
    const PORT: u32 = head4(b"port");
    match head4(head) {
        PASS if b.len() == 4 => return Some(Move::Pass),
        SHIP if b.len() == 4 => return Some(Move::Ship),
        HIRE if b.len() == 4 => return Some(Move::Hire),
        DONE if b.len() == 4 => return Some(Move::Done),
        MAKE => {
            if let [_, _, _, _, b' ', c, b' ', b, b' ', w] = *b {
                return Some(Move::Make {
                    cheese: digit(c)?,
                    bread: digit(b)?,
                    whisky: digit(w)?,
                    cellar: false,
                });
            }
        }
        // `sell GOOD N` and `buy GOOD N` with a single-digit count.
        SELL => {
            if let [_, _, _, _, b' ', .., b' ', n] = *b {
                return trade(text, 5, true, n);
            }
        }
        BUY => {
            if let [_, _, _, _, .., b' ', n] = *b {
                return trade(text, 4, false, n);
            }
        }
        // `tech KIND`, `row HEX HEX`, `milk N`, `port N`: a word or two after the verb.
        TECH if b.get(4) == Some(&b' ') => {
            if let Some(k) = text.get(5..).and_then(Tech::parse) {
                return Some(Move::Tech(k));
            }
        }
        ROW => {
            // The space between the hexes, after a hex's two or three bytes.
            let at = (6..=7).find(|&i| b.get(i) == Some(&b' '));
            let hexes = at.and_then(|i| Some((text.get(4..i)?, text.get(i + 1..)?)));
            if let Some((Some(a), Some(h))) = hexes.map(|(a, h)| (Hex::parse(a), Hex::parse(h))) {
                return Some(Move::Row(a, h));
            }
        }
        MILK => {
            if let [_, _, _, _, b' ', n] = *b {
                return Some(Move::Milk(digit(n)?));
            }
        }
        PORT if b.get(4) == Some(&b' ') => {
            if let Some(port) = text.get(5..).and_then(number).and_then(PortId::named) {
                return Some(Move::Port {
                    port,
                    ks: false,
                    args: PortArgs::None,
                });
            }
        }
        // `expand UNIT HEX` and `place UNIT HEX`.
        EXPA if b.starts_with(b"expand ") => {
            if let Some((u, h)) = unit_hex(text, 7) {
                return Some(Move::Expand(u, h));
            }
        }
        PLAC if b.starts_with(b"place ") => {
            if let Some((u, h)) = unit_hex(text, 6) {
                return Some(Move::Place(u, h));
            }
        }
        // `clan NAME`, `obtain N+N`, `nb GOOD N`: a name or list without spaces is read
        // whole, or the text goes word by word.
        CLAN if b.get(4) == Some(&b' ') => {
            if let Some(c) = text.get(5..).and_then(Clan::parse) {
                return Some(Move::Clan(c));
            }
        }
        OBTA if b.starts_with(b"obtain ") => {
            if let Some(list) = text.get(7..).and_then(|l| contract_set(l, false)) {
                return Some(Move::Obtain(list));
            }
        }
        _ => {
            if let [b'n', b'b', b' ', .., b' ', n] = *b {
                let good = text.get(3..text.len() - 2).and_then(Good::parse);
                if let (Some(g), Some(n)) = (good, digit(n)) {
                    return Some(Move::Neighbour(g, n));
                }
            }
        }
    }
    read_words(text)
}

/// The unit and hex of `VERB UNIT HEX`, the unit from byte `from`: the hex is the last two or
/// three bytes.
#[inline(always)]
fn unit_hex(text: &str, from: usize) -> Option<(Unit, Hex)> {
    let b = text.as_bytes();
    // The hex's length, two or three bytes, by where its space is (picked, not jumped to).
    let n = b.len();
    let h = if n > 3 && b[n - 3] == b' ' { 2 } else { 3 };
    if n <= from + 1 + h || b[n - h - 1] != b' ' {
        return None;
    }
    let at = n - h;
    Some((
        Unit::parse_bytes(b.get(from..at - 1)?)?,
        Hex::parse_bytes(b.get(at..)?)?,
    ))
}

/// `sell`/`buy` of the good written from byte `from` to the space before the count `n`.
#[inline(always)]
fn trade(text: &str, from: usize, sell: bool, n: u8) -> Option<Move> {
    Some(Move::Trade {
        good: Good::parse_bytes(text.as_bytes().get(from..text.len() - 2)?)?,
        sell,
        n: digit(n)?,
    })
}

/// A port's choice in canonical form: `give>get+get+get` (the goods gained in the goods'
/// order; any other order is left to the full parser, which sorts it) or `good+` / `good-`.
fn port_args(a: &str) -> Option<PortArgs> {
    if let Some((give, gets)) = a.split_once('>') {
        let gained: ArrayVec<Good, 3> = list(gets, b'+', Good::parse)?;
        if !gained.is_sorted() {
            return None;
        }
        let mut get = [None; 3];
        for (slot, g) in get.iter_mut().zip(gained) {
            *slot = Some(g);
        }
        get[0]?;
        Some(PortArgs::Goods {
            give: Good::parse(give)?,
            get,
        })
    } else if let Some(g) = a.strip_suffix('+') {
        Some(PortArgs::Price {
            good: Good::parse(g)?,
            up: true,
        })
    } else {
        Some(PortArgs::Price {
            good: Good::parse(a.strip_suffix('-')?)?,
            up: false,
        })
    }
}

/// [`read_move`] past the entries of fixed shape: word by word. Apart, so that those entries
/// (read where replay calls) do not pay for the registers this larger body saves.
#[inline(never)]
fn read_words(text: &str) -> Option<Move> {
    let mut s = Scan::new(text);
    let verb = short_key(s.word()?);
    let m = match verb {
        head::EXPAND => Move::Expand(Unit::parse(s.word()?)?, Hex::parse(s.word()?)?),
        head::SELL | head::BUY => Move::Trade {
            good: Good::parse(s.word()?)?,
            sell: verb == head::SELL,
            n: number(s.word()?)?,
        },
        head::MAKE => Move::Make {
            cheese: number(s.word()?)?,
            bread: number(s.word()?)?,
            whisky: number(s.word()?)?,
            cellar: match s.word() {
                None => false,
                Some("cellar") => true,
                Some(_) => return None,
            },
        },
        head::PLACE => Move::Place(Unit::parse(s.word()?)?, Hex::parse(s.word()?)?),
        head::OBTAIN => Move::Obtain(contract_set(s.word()?, false)?),
        head::CLAN => Move::Clan(Clan::parse(s.word()?)?),
        head::NB => Move::Neighbour(Good::parse(s.word()?)?, number(s.word()?)?),
        head::ROW => Move::Row(Hex::parse(s.word()?)?, Hex::parse(s.word()?)?),
        head::TECH => Move::Tech(Tech::parse(s.word()?)?),
        head::MILK => Move::Milk(number(s.word()?)?),
        head::PORT => {
            let first = s.word()?;
            let (ks, id) = match first {
                "ks" => (true, s.word()?),
                _ => (false, first),
            };
            Move::Port {
                port: PortId::named(number(id)?)?,
                ks,
                args: match s.word() {
                    None => PortArgs::None,
                    Some(a) => port_args(a)?,
                },
            }
        }
        head::FULFIL => Move::Fulfil {
            contracts: contract_set(s.word()?, false)?,
            slaughter: match s.word() {
                None => CopyList::new(),
                Some("slaughter") => {
                    // Canonical: some hexes, lowest first (the full parser sorts them).
                    let hexes: ArrayVec<Hex, 8> = list(s.word()?, b'+', Hex::parse)?;
                    if hexes.is_empty() || !hexes.is_sorted() {
                        return None;
                    }
                    hexes.into()
                }
                Some(_) => return None,
            },
        },
        head::UPGRADE => Move::Upgrade(match s.word()? {
            "ship" => Upgrade::Ship,
            "hire" => Upgrade::Hire,
            "tech" => Upgrade::Tech(Tech::parse(s.word()?)?),
            _ => return notation::parse_move(text).ok(),
        }),
        head::SWAP => Move::Swap(Hex::parse(s.word()?)?, Unit::parse(s.word()?)?),
        head::KEEP => Move::Keep(contract_set(s.word()?, true)?),
        head::CELLAR => {
            let spot = number(s.word()?)?;
            if spot >= notation::cellar_spots() {
                return None;
            }
            Move::Cellar(spot)
        }
        head::CANCEL => Move::Cancel,
        // The rarest moves (a port's choice, MacEwen's beer, a retrieval), the long way.
        _ => return notation::parse_move(text).ok(),
    };
    s.done(m)
}

/// The fast reading of an outcome ([`rules_core::Notation::read_chance_into`]), into `slot`.
pub fn read_chance_into(text: &str, slot: &mut Option<Chance>) {
    let mut c = Cursor::new(text);
    if c.tag("prep refill=").is_none() {
        *slot = match text.get(..5) {
            Some("deal ") => read_deal(text),
            // Building-bonus draws, a few a game, the long way.
            _ => notation::parse_chance(text).ok(),
        };
        return;
    }
    // A preparation's lists go straight into the slot, one place from the first store to the
    // replay that reads them (read into lists of their own and then moved in, or the outcome
    // built here and moved out, they were read back in wide words over the narrow stores
    // just made to them: stalls the processor cannot forward, 80 ns a preparation read alone
    // against 45 without).
    *slot = Some(Chance::Prep {
        refill: ArrayVec::new(),
        drift: ArrayVec::new(),
        die: None,
    });
    if read_prep(&mut c, slot).is_none() {
        *slot = None;
    }
}

/// The rest of a preparation after `prep refill=`, into the outcome `slot` holds.
#[inline(always)]
fn read_prep(c: &mut Cursor<'_>, slot: &mut Option<Chance>) -> Option<()> {
    let Some(Chance::Prep { refill, drift, die }) = slot else {
        return None;
    };
    c.list_into(b',', refill, |c| c.number().and_then(ContractId::named))?;
    c.tag(" drift=")?;
    c.list_into(b',', drift, |c| {
        let g = Good::parse_bytes(c.until(|b| b == b'+' || b == b'-')?)?;
        Some((g, c.signed()?))
    })?;
    if !c.end() {
        c.tag(" die=")?;
        *die = Some(c.signed()?);
    }
    c.done(())
}

/// The deal, field by field as the full parser reads it. The fixed-length fields go straight
/// into arrays and the lists into the boxed deal itself: built in lists first and then copied
/// into it, each list was read back in wide words over the narrow stores just made to it
/// (the processor cannot forward those): a deal read alone took 251 ns, 98 now (the replay,
/// where a deal is one entry in a hundred, did not move).
fn read_deal(text: &str) -> Option<Chance> {
    let mut c = Cursor::new(text);
    c.tag("deal sides=")?;
    // `1221`: four digits without separators, each 1 or 2.
    let sides = match *c.until(|b| b == b' ')? {
        [a, b, c, d] if [a, b, c, d].iter().all(|&x| x == b'1' || x == b'2') => {
            [a, b, c, d].map(|x| x - b'0')
        }
        _ => return None,
    };
    c.tag(" ports=")?;
    // Numbers that name a port tile and a scoring tile (the full parser explains the rest).
    let ports = numbers::<4>(&mut c)?;
    if !ports.iter().all(|&p| PortId::named(p).is_some()) {
        return None;
    }
    let ports = ports.map(PortId);
    c.tag(" tiles=")?;
    let tiles = numbers::<5>(&mut c)?;
    if !tiles.iter().all(|&t| TileId::named(t).is_some()) {
        return None;
    }
    let tiles = tiles.map(TileId);
    c.tag(" first=")?;
    let first = c.number()?;
    c.tag(" offer=")?;
    let mut deal = Box::new(Deal {
        sides,
        ports,
        tiles,
        first,
        offer: ArrayVec::new(),
        boxes: ArrayVec::new(),
    });
    let starts = notation::start_tiles();
    c.list_into(b',', &mut deal.offer, |c| {
        let clan = Clan::parse_bytes(c.until(|b| b == b'/')?)?;
        c.tag("/")?;
        let tile = c.number()?;
        (1..=starts).contains(&tile).then_some((clan, tile))
    })?;
    c.tag(" boxes=")?;
    c.list_into(b',', &mut deal.boxes, |c| {
        c.number().and_then(ContractId::named)
    })?;
    c.done(Chance::Deal(deal))
}

/// Exactly `N` numbers separated by commas.
#[inline(always)]
fn numbers<const N: usize>(c: &mut Cursor<'_>) -> Option<[u8; N]> {
    let mut out = [0; N];
    for (i, slot) in out.iter_mut().enumerate() {
        if i > 0 && !c.eat(b',') {
            return None;
        }
        *slot = c.number()?;
    }
    Some(out)
}
