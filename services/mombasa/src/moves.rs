//! The decisions of a seat ([`Move`]) and the outcomes the table supplies ([`Chance`]).
//!
//! A turn is a chain of small decisions (choose the cards, then buy, step, enter a region...)
//! so that every position has a short list of legal moves; a plan is placed card by card for
//! the same reason (a whole plan at once would be up to P(hand, 5) moves).

use crate::ids::{BookSpace, CardRef, Company, DisplayPos, Region, StartTile, Unit, SLOTS};
use arrayvec::ArrayVec;

/// A seat's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Keep one of the two start tiles dealt (secret until all have chosen).
    Keep(StartTile),
    /// Place a card from hand face down into an action slot (secret until the reveal).
    Plan {
        card: CardRef,
        slot: u8,
    },
    /// Done planning.
    Ready,
    /// Use face-up cards of one good: bits 0..4 are slots, bit 5 the bonus tile.
    Goods {
        good: Unit,
        mask: u8,
    },
    /// Buy a display card with goods units.
    Buy(DisplayPos),
    /// One step on a company track (goods units or a majority reward).
    Step(Company),
    /// End the current part of the action (spend no more, stop the ink marker).
    Done,
    /// Use all expansion cards for one company.
    Expand(Company),
    /// Enter a region, taking the post from column `column` of the base; `ret` is the column
    /// of the displaced company's base its post returns to (Ruling M5).
    Enter {
        region: Region,
        column: u8,
        ret: Option<u8>,
    },
    /// Use the bookkeeper in a slot.
    Clerk(u8),
    /// Pay 2 pounds to turn a book of the track face down (before moving).
    Flip(u8),
    /// Move the ink marker onto the next book.
    Ink,
    /// Spend bookkeeping points: a book from the display, or a pound.
    Book(BookSpace),
    Pound,
    /// Use the diamond trader in a slot.
    Diamond(u8),
    /// Place a bonus marker on a space (by index), with the space's argument: a display
    /// space to buy, or a card in hand to sell.
    Bonus {
        space: u8,
        arg: BonusArg,
    },
    /// End the action phase, taking rest pile `pile` into hand.
    End(u8),
    /// Rules 2: take back the unfinished action, back to the position it began from.
    Cancel,
}

/// What a bonus space needs named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BonusArg {
    None,
    Display(DisplayPos),
    Card(CardRef),
}

/// A chance outcome: a deal, a draw, or a reveal of what seats chose in secret.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Chance {
    /// The 12 display cards in the order drawn (right column top to bottom, middle, left),
    /// the 12 books of the book display by space, with track cards the side of each company
    /// (indexes into the data's sides), and under rules 2 the first player.
    Setup {
        display: ArrayVec<u8, 12>,
        books: ArrayVec<u8, 12>,
        sides: Option<[u8; 4]>,
        /// Rules 2 without the `first_player` option: the first player drawn (step 13).
        first: Option<u8>,
    },
    /// Two start tiles for a seat (seen by that seat only).
    StartTiles { seat: u8, tiles: [u8; 2] },
    /// The start tile every seat kept.
    Starts(ArrayVec<u8, 4>),
    /// Every seat's plan: the card (as its holder names it) in each slot.
    Reveal(ArrayVec<[Option<CardRef>; SLOTS], 4>),
    /// The preparation phase's draws: cards for the empty display spaces in fill order, books
    /// for the empty book spaces in space order (spaces whose letter ran out are skipped).
    Draw {
        cards: ArrayVec<u8, 12>,
        books: ArrayVec<u8, 12>,
    },
    /// Rules 2: the book that replaces one just taken from display space `space`, from the
    /// supply of the same letter.
    Book { space: BookSpace, book: u8 },
}
