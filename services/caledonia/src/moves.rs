//! The decisions a seat makes ([`Move`]) and the outcomes the table supplies ([`Chance`]).
//! Closed enums: every kind of entry a Clans of Caledonia log can hold.

use crate::ids::{Clan, ContractId, Good, Hex, PortId, Tech, TileId, Unit};
use arrayvec::ArrayVec;
use rules_core::CopyList;
use serde::{Deserialize, Serialize};

/// A bonus upgrade's choice (contracts, port 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Upgrade {
    /// Technology for the bonus price (£5).
    Tech(Tech),
    Ship,
    Hire,
    /// Ruling C3's optional fourth choice: one merchant back from the market.
    Retrieve {
        good: Good,
        sell: bool,
    },
}

/// What a port use chooses, for the ports that ask for a choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PortArgs {
    None,
    /// Port 2 (basic, three gained) and port 3 (processed, two gained); `get` sorted, unused
    /// places `None`.
    Goods {
        give: Good,
        get: [Option<Good>; 3],
    },
    /// Port 6: one good's price up or down.
    Price {
        good: Good,
        up: bool,
    },
}

/// One decision of a seat.
/// `Copy`, its lists in [`CopyList`]s: a move read from an entry is passed on and dropped in
/// every entry of a replay, and an `ArrayVec` in it gave it drop glue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Move {
    /// Setup: choose a clan (with its paired start tile).
    Clan(Clan),
    /// Setup: place an initial worker.
    Place(Unit, Hex),
    /// Trade one good: buy or sell `n`, one merchant each.
    Trade {
        good: Good,
        sell: bool,
        n: u8,
    },
    /// Take contracts from the export board (two only for Buchanan); sorted.
    Obtain(CopyList<ContractId, 2>),
    /// Expand (main action, or a free expansion from a contract in the bonus step).
    Expand(Unit, Hex),
    Ship,
    Tech(Tech),
    Hire,
    /// Fulfil held contracts (two only for Buchanan), slaughtering the listed animals; both
    /// lists sorted.
    Fulfil {
        contracts: CopyList<ContractId, 2>,
        slaughter: CopyList<Hex, 8>,
    },
    Pass,
    /// Use a port (free, before the main action). `ks`: through the Kickstarter port.
    Port {
        port: PortId,
        ks: bool,
        args: PortArgs,
    },
    /// MacDonald: row a fisherman to a neighbouring loch (free, once per turn).
    Row(Hex, Hex),
    /// MacKenzie: take a barrel out of the cellar spot (free).
    Cellar(u8),
    /// Neighbour bonus: buy `n` of a neighbour's good at a discount.
    Neighbour(Good, u8),
    /// Keep drawn contracts (building bonus); sorted, may be empty.
    Keep(CopyList<ContractId, 2>),
    Upgrade(Upgrade),
    /// Port 7: replace the unit on a hex by a board unit of another kind.
    Swap(Hex, Unit),
    /// MacEwen: brew beer from grain after a contract with hops.
    Brew(u8),
    /// End the optional step (neighbour purchases, exchanges, bonuses) or, in setup, place
    /// nothing when no placement is possible.
    Done,
    /// Production: how much to process; MacKenzie may lay one whisky in the cellar.
    Make {
        cheese: u8,
        bread: u8,
        whisky: u8,
        cellar: bool,
    },
    /// Cunningham: sell milk to the supply after production.
    Milk(u8),
    /// Rules 3: take back a fulfilment waiting on its free expansion (nothing was paid).
    Cancel,
}

impl Move {
    /// One of the eight actions of the action phase (one per turn).
    pub fn is_main(&self) -> bool {
        matches!(
            self,
            Move::Trade { .. }
                | Move::Obtain(_)
                | Move::Expand(..)
                | Move::Ship
                | Move::Tech(_)
                | Move::Hire
                | Move::Fulfil { .. }
                | Move::Pass
        )
    }
}

/// The initial deal: everything random at setup.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Deal {
    /// Side (1 or 2) of modules A–D.
    pub sides: [u8; 4],
    /// Port tiles at the corners of modules A–D.
    pub ports: [PortId; 4],
    /// Scoring tiles of rounds 1–5.
    pub tiles: [TileId; 5],
    /// The first player (round 1 goes clockwise from them).
    pub first: u8,
    /// Clans offered, each with its paired start tile (players + 1).
    pub offer: ArrayVec<(Clan, u8), 5>,
    /// Contracts dealt to the export board's boxes, in box order.
    pub boxes: ArrayVec<ContractId, 6>,
}

/// A chance outcome.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Chance {
    Deal(Box<Deal>),
    /// Preparation: contracts refilling empty boxes (in box order) and the market drift.
    /// `die`: rules 3 solo without the drift, the price-die roll that picks the box emptied
    /// (with the drift, the last drift roll does).
    Prep {
        refill: ArrayVec<ContractId, 6>,
        drift: ArrayVec<(Good, i8), 6>,
        die: Option<i8>,
    },
    /// A building-bonus draw (seen by its drawer only).
    Draw(ArrayVec<ContractId, 6>),
}
