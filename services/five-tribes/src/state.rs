//! The position: board, supplies, players, rows, decks, tracks, and where the turn stands.
//!
//! Hidden things are absent rather than hidden: deck *order* is never stored (a draw is a
//! chance entry that names the card), so the state is the same for every seat and only
//! `view` decides what each may see. A state is a few fixed-size arrays — see `size_of` in
//! the benchmarks note — so cloning it for search or snapshots is a memcpy.

use crate::ids::{Colour, Djinn, DjinnSet, Res, Tile};
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

pub const BID_SPOTS: usize = 9;
pub const MAX_PLAYERS: usize = 4;
/// No seat (an unowned tile, an empty track spot).
pub const NOBODY: u8 = 0xFF;
/// Capacity of the resource row (the data says 9).
pub const ROW_CAP: usize = 16;
/// Capacity of the djinn row (the data says 3).
pub const DJINN_ROW_CAP: usize = 8;

/// Meeple counts by colour.
pub type Hand = [u8; 5];

pub use crate::sultanate::Board;

/// One player's holdings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Player {
    pub gold: u32,
    pub viziers: u8,
    pub elders: u8,
    /// Camels not yet placed.
    pub camels: u8,
    /// Resource cards by type (`Res` index); index 9 is Fakirs.
    pub cards: [u8; Res::COUNT],
    pub djinns: DjinnSet,
}

impl Player {
    pub fn fakirs(&self) -> u8 {
        self.cards[Res::FAKIR.0 as usize]
    }
}

/// Why the game will end when the round does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    /// A player placed their last camel.
    LastCamel,
    /// A player to act had no legal meeple move.
    NoMeepleMove,
}

/// Where the current turn stands.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stage {
    /// Before the meeple move: pick up, use djinns, sell; `end` only when no pick is legal.
    Start,
    /// Dropping meeples: standing on `at`, arrived from `from`.
    Moving {
        at: Tile,
        from: Option<Tile>,
        hand: Hand,
    },
    /// The builders' payout: choose fakirs (and Echidna).
    Builders { tile: Tile, count: u8 },
    /// The assassins' kill (optional): choose a target, or none.
    Assassins { tile: Tile, count: u8 },
    /// The action of the tile where the move ended.
    TileAction { tile: Tile },
    /// After the actions: use djinns, sell, end the turn.
    Free,
    /// Sibittis drew these djinns; keep one, then go back to `resume`.
    Sibittis {
        drawn: ArrayVec<Djinn, 3>,
        resume: Resume,
    },
}

/// Where a turn goes back to after an interruption (a djinn's draw).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Resume {
    Start,
    Free,
}

impl Resume {
    pub fn stage(self) -> Stage {
        match self {
            Resume::Start => Stage::Start,
            Resume::Free => Stage::Free,
        }
    }
}

/// The phase of the round.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Waiting on the initial deal.
    Deal,
    /// The marker at the front of the bid queue bids.
    Bid,
    /// `seat` plays the turn of its marker.
    Turn {
        seat: u8,
        stage: Stage,
    },
    /// Waiting on the clean-up draws that refill the rows.
    Refill,
    Over,
}

/// A chance outcome the turn waits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Draw {
    /// Top cards of the resource pile (Sloar, Kandicha).
    Cards(u8),
    /// Top djinns of the pile (Sibittis).
    Djinns(u8),
    /// Meeples from the bag onto a tile (Anun-Nak).
    Meeples(u8, Tile),
}

/// The rules version a game plays under (`Game::rules_versions`): a stored game keeps the
/// behaviour it was recorded with, and the reducer branches on this where behaviour changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Rules {
    /// `five-tribes/1`: merchandise could also be sold before picking up (a withdrawn project
    /// ruling, F1 before issue 13).
    V1,
    /// `five-tribes/2`: a sale is the turn's last step, after the meeple move and its actions
    /// (§2.6 "Antes de terminar seu turno"); before picking up only when no move is possible.
    V2,
}

impl Rules {
    /// The version new games are created under.
    pub const CURRENT: Rules = Rules::V2;
    /// Every version this build replays, the current one first.
    pub const ALL: [Rules; 2] = [Rules::V2, Rules::V1];

    /// The version's name, as stored with a game (`Game::RULES_VERSION` for the current one).
    pub const fn name(self) -> &'static str {
        match self {
            Rules::V1 => "five-tribes/1",
            Rules::V2 => "five-tribes/2",
        }
    }

    pub fn from_name(name: &str) -> Option<Rules> {
        Rules::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// The whole position.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    pub players: u8,
    /// Round number, from 1.
    pub round: u16,
    pub phase: Phase,
    pub board: Board,
    pub bag: Hand,
    pub palms_left: u8,
    pub palaces_left: u8,
    pub seats: ArrayVec<Player, MAX_PLAYERS>,
    /// Face-up resource cards, front first. Gaps close at once, so "the first N" are the
    /// first N cards present.
    pub row: ArrayVec<Res, ROW_CAP>,
    pub deck: [u8; Res::COUNT],
    pub discard: [u8; Res::COUNT],
    pub djinn_row: ArrayVec<Djinn, DJINN_ROW_CAP>,
    pub djinn_deck: DjinnSet,
    pub djinn_discard: DjinnSet,
    /// The bid order track: markers (by seat) in order. During bidding the front bids next;
    /// during turns each marker joins the back as its turn starts.
    pub bid_order: ArrayVec<u8, MAX_PLAYERS>,
    /// The turn order track: the seat of the marker on each spot, or `NOBODY`.
    pub turn_track: [u8; BID_SPOTS],
    pub ending: Option<Ending>,
    /// Djinns whose paid power was used this turn (this bid, for Kumarbi).
    pub djinns_used: DjinnSet,
    /// A chance outcome the turn waits on.
    pub pending: Option<Draw>,
    /// The rules version the game plays under.
    pub rules: Rules,
}

impl State {
    pub fn player(&self, seat: u8) -> &Player {
        &self.seats[usize::from(seat)]
    }
    pub fn player_mut(&mut self, seat: u8) -> &mut Player {
        &mut self.seats[usize::from(seat)]
    }
    /// The seat owning a djinn, if anyone does.
    pub fn owner_of(&self, d: Djinn) -> Option<u8> {
        self.seats
            .iter()
            .position(|p| p.djinns.has(d))
            .map(|i| i as u8)
    }
    /// The seat to act in a turn, with its stage.
    pub fn turn(&self) -> Option<(u8, &Stage)> {
        match &self.phase {
            Phase::Turn { seat, stage } if self.pending.is_none() => Some((*seat, stage)),
            _ => None,
        }
    }
    pub fn deck_size(&self) -> u32 {
        self.deck.iter().map(|&n| u32::from(n)).sum()
    }
    pub fn discard_size(&self) -> u32 {
        self.discard.iter().map(|&n| u32::from(n)).sum()
    }
    pub fn bag_size(&self) -> u8 {
        self.bag.iter().sum()
    }
    /// Is there a tile from which a meeple move can be completed?
    /// Kept beside the board until its meeples change (`Board::moves_left`).
    pub fn any_legal_pick(&self) -> bool {
        self.board.moves_left(|| {
            let has = self.board.has_colour();
            let occupied = has.iter().fold(0, |a, h| a | h);
            Tile::all().any(|t| occupied & t.bit() != 0 && self.finishable_with(t, has))
        })
    }
    pub fn pick_is_finishable(&self, t: Tile) -> bool {
        self.finishable_with(t, self.board.has_colour())
    }
    /// A pick of `t` can be finished, given the colours on the board now (`has`): the tile
    /// picked up is empty while its meeples are walked away.
    fn finishable_with(&self, t: Tile, mut has: [u32; 5]) -> bool {
        let hand = self.board.hand(t);
        for h in has.iter_mut() {
            *h &= !t.bit();
        }
        crate::board::can_finish(t, None, hand, has)
    }
    /// The colours of a hand as a sequence, for iteration.
    pub fn colours_in(hand: Hand) -> impl Iterator<Item = Colour> {
        Colour::ALL
            .into_iter()
            .filter(move |c| hand[*c as usize] > 0)
    }
}
