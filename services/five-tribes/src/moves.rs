//! Moves (a seat's decisions) and chance outcomes (the table's), as closed enums.
//!
//! A turn is a sequence of small decisions — pick up, each drop, the tribe's choice, the
//! tile's choice, djinns, sales, end — so that move lists stay short and every prefix of a
//! turn is a position a viewer can show.

use crate::ids::{Colour, Djinn, Res, Tile};
use crate::state::{DJINN_ROW_CAP, MAX_PLAYERS, ROW_CAP};
use arrayvec::ArrayVec;

// Lists whose length the game or the position decides (the turn order markers, every draw)
// hold at least one item more than any game or position asks for: a list written too long is
// read (to its capacity) and refused by the rules that decide its length (`chance.deal`,
// `chance.draw`), as a list too short is, rather than by the notation. A refill's lists
// (`ROW_CAP` 16 > 9 cards, `DJINN_ROW_CAP` 8 > 3 djinns) and Kandicha's cards (4 > 2) already
// have room.

/// Turn order markers a deal may name: 4 at most (2 players: each seat twice), and one more.
pub const ORDER_CAP: usize = MAX_PLAYERS + 1;
/// Djinns a draw may name: Sibittis draws 3, and one more.
pub const DRAW_DJINNS_CAP: usize = 4;
/// Meeples a draw may name: Anun-Nak draws 3, and one more.
pub const DRAW_MEEPLES_CAP: usize = 4;

/// How a djinn's (or a modifier's) cost is paid. Elders go back to the bag, Fakirs to the
/// resource discard pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pay {
    /// One Elder (`W`).
    Elder,
    /// One Fakir (`F`).
    Fakir,
    /// Two Elders (`WW`).
    TwoElders,
    /// One Elder and one Fakir (`WF`).
    ElderFakir,
}

impl Pay {
    /// (elders, fakirs) this payment takes.
    pub const fn cost(self) -> (u8, u8) {
        match self {
            Pay::Elder => (1, 0),
            Pay::Fakir => (0, 1),
            Pay::TwoElders => (2, 0),
            Pay::ElderFakir => (1, 1),
        }
    }
    pub const fn code(self) -> &'static str {
        match self {
            Pay::Elder => "W",
            Pay::Fakir => "F",
            Pay::TwoElders => "WW",
            Pay::ElderFakir => "WF",
        }
    }
    /// The payment written exactly as [`Pay::code`] writes it (the fast reading).
    pub fn from_code(s: &str) -> Option<Pay> {
        [Pay::Elder, Pay::Fakir, Pay::TwoElders, Pay::ElderFakir]
            .into_iter()
            .find(|p| p.code() == s)
    }
    /// The payment written in any order: an Elder and a Fakir are one payment whichever is
    /// named first (`WF` or `FW`; the rules give them no order), written `WF`.
    pub fn parse(s: &str) -> Option<Pay> {
        match s {
            "FW" => Some(Pay::ElderFakir),
            _ => Pay::from_code(s),
        }
    }
}

/// Two items the rules give no order, in the notation's canonical order (ascending): Iblis's
/// two victims in tribe order, a Large Market's two cards in row order.
pub fn in_order<T: Ord>(a: T, b: T) -> (T, T) {
    if b < a {
        (b, a)
    } else {
        (a, b)
    }
}

/// Hagis or Lamia: put the palace / palm tree on a neighbouring tile instead, paying `pay`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Redirect {
    pub at: Tile,
    pub pay: Pay,
}

/// What the assassins kill. `second` is the second victim that Iblis allows; the two are in
/// tribe order (`first <= second`, by `Colour`), the canonical order of the notation: the
/// rules give them no order, and a move out of it is refused (`notation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// Meeples on a tile within range.
    Tile {
        tile: Tile,
        first: Colour,
        second: Option<Colour>,
    },
    /// Viziers (yellow) or Elders (white) in front of an opponent.
    Seat {
        seat: u8,
        first: Colour,
        second: Option<Colour>,
    },
}

impl Target {
    /// The victims named: the first, and the second Iblis allows.
    pub const fn victims(self) -> (Colour, Option<Colour>) {
        match self {
            Target::Tile { first, second, .. } | Target::Seat { first, second, .. } => {
                (first, second)
            }
        }
    }
}

/// A djinn's stand-alone power.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DjinnUse {
    /// Three meeples from the bag onto a bare tile.
    AnunNak { tile: Tile, pay: Pay },
    /// A palace on a village (Hagis may redirect it).
    Bouraq {
        village: Tile,
        pay: Pay,
        hagis: Option<Redirect>,
    },
    /// A palm tree on an oasis (Lamia may redirect it).
    Enki {
        oasis: Tile,
        pay: Pay,
        lamia: Option<Redirect>,
    },
    /// A camel on a bare tile.
    Leta { tile: Tile, pay: Pay },
    /// Draw three djinns, keep one.
    Sibittis { pay: Pay },
    /// Pay a Fakir, take the top resource card.
    Sloar,
    /// A camel on a tile holding only meeples.
    Utug { tile: Tile, pay: Pay },
}

impl DjinnUse {
    pub const fn djinn(self) -> Djinn {
        match self {
            DjinnUse::AnunNak { .. } => Djinn::AnunNak,
            DjinnUse::Bouraq { .. } => Djinn::Bouraq,
            DjinnUse::Enki { .. } => Djinn::Enki,
            DjinnUse::Leta { .. } => Djinn::Leta,
            DjinnUse::Sibittis { .. } => Djinn::Sibittis,
            DjinnUse::Sloar => Djinn::Sloar,
            DjinnUse::Utug { .. } => Djinn::Utug,
        }
    }
    pub const fn pay(self) -> Pay {
        match self {
            DjinnUse::AnunNak { pay, .. }
            | DjinnUse::Bouraq { pay, .. }
            | DjinnUse::Enki { pay, .. }
            | DjinnUse::Leta { pay, .. }
            | DjinnUse::Sibittis { pay }
            | DjinnUse::Utug { pay, .. } => pay,
            DjinnUse::Sloar => Pay::Fakir,
        }
    }
}

/// A set of distinct resource cards (bit = `Res` index), in the cards' order whatever order
/// they were named in. Only merchandise is sold: a set with the Fakir (bit 9) is refused by
/// the rules (`sell.fakirs`, §2.6 "mas não Faquires").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Goods(pub u16);

impl Goods {
    pub fn iter(self) -> impl Iterator<Item = Res> {
        (0..Res::COUNT as u8)
            .filter(move |i| self.0 & (1 << i) != 0)
            .map(Res)
    }
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// A seat's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Put the marker on the bid track spot `spot` (0–2 are the free spots: any of them means
    /// "bid 0"; the push rule places the marker). Kumarbi: discard `kumarbi` Fakirs and pay
    /// the cost that many spots lower.
    Bid {
        spot: u8,
        kumarbi: u8,
    },
    /// Take all meeples of a tile in hand.
    Pick(Tile),
    /// Drop one meeple of `colour` on the neighbouring tile `to`.
    Drop {
        to: Tile,
        colour: Colour,
    },
    /// Builders' payout, discarding `fakirs`; Echidna doubles it.
    Build {
        fakirs: u8,
        echidna: Option<Pay>,
    },
    /// Assassins kill; Iblis (paid) allows a second victim.
    Kill {
        target: Target,
        iblis: Option<Pay>,
    },
    /// Assassins kill nobody.
    NoKill,
    /// Oasis: place the palm tree (here, or redirected by Lamia).
    Palm(Option<Redirect>),
    /// Village: place the palace (here, or redirected by Hagis).
    Palace(Option<Redirect>),
    /// Market: take the cards at these row positions (0-based, `first < second`: the rules
    /// give the two cards no order, so the notation writes them in row order and a move out
    /// of it is refused, `notation`).
    Buy {
        first: u8,
        second: Option<u8>,
    },
    /// Sacred Place: take a djinn from the row.
    TakeDjinn {
        djinn: Djinn,
        pay: Pay,
    },
    /// Decline an optional tile action.
    Skip,
    Use(DjinnUse),
    /// Sibittis: the djinn kept.
    Keep(Djinn),
    /// Sell one set of distinct merchandise.
    Sell(Goods),
    /// End the turn.
    End,
}

/// The initial layout, all random: tiles, meeples, bid order, resource and djinn rows.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Deal {
    /// Tile kind at each position.
    pub layout: [u8; crate::board::TILES],
    /// Three meeples per position, in position order; a tile's three in tribe order (the
    /// notation's canonical order: they are laid together, in no order).
    pub meeples: [[Colour; 3]; crate::board::TILES],
    /// Markers on the bid order track, front first (2 players: each seat twice).
    pub bid_order: ArrayVec<u8, ORDER_CAP>,
    pub cards: ArrayVec<Res, ROW_CAP>,
    pub djinns: ArrayVec<Djinn, DJINN_ROW_CAP>,
}

/// A chance outcome.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Chance {
    Deal(Box<Deal>),
    /// Clean-up: the cards and djinns drawn to refill the rows, in order.
    Refill {
        cards: ArrayVec<Res, ROW_CAP>,
        djinns: ArrayVec<Djinn, DJINN_ROW_CAP>,
    },
    /// Cards from the top of the resource pile (Sloar, Kandicha), in the pile's order.
    Cards(ArrayVec<Res, 4>),
    /// Djinns from the top of the pile (Sibittis), in the pile's order.
    Djinns(ArrayVec<Djinn, DRAW_DJINNS_CAP>),
    /// Meeples drawn from the bag (Anun-Nak), in tribe order (a bag has no order).
    Meeples(ArrayVec<Colour, DRAW_MEEPLES_CAP>),
}
