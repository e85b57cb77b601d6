//! Typed errors: every refused move or outcome names the rule it broke.

use crate::moves::Move;
use rules_core::{RuleViolation, TurnError};
use thiserror::Error;

rules_core::rule_set! {
    WrongStep = "turn.step": "that kind of move is not allowed at this point of the game or turn",
    NotDealt = "start.not-dealt": "keep one of the two start tiles you were dealt",
    NotInHand = "plan.not-in-hand": "that card is not in your hand",
    SlotClosed = "plan.slot-closed": "that action slot is not open: plan at most as many cards as open slots",
    SlotTaken = "plan.slot-taken": "that action slot already holds a card",
    MixedGoods = "goods.one-kind": "goods cards of one kind only, and at least one",
    NotFaceUp = "action.card-not-available": "no face-up card of that kind there",
    BuyPrice = "buy.price": "the card costs its red value plus the display space's: more than the units left",
    BuyEmpty = "buy.empty-space": "there is no card on that display space",
    BuyOnce = "buy.once": "at most one card may be bought with one goods action",
    NoUnits = "track.no-units": "no units or steps left",
    NoExpansion = "expand.no-cards": "no face-up expansion card in the action area",
    OwnRegion = "expand.own-region": "the company already holds that region",
    Unreachable = "expand.not-adjacent": "a region must border the company's base or one of its regions",
    NoPoints = "expand.points": "not enough expansion points (1 per single border, 2 per double, +1 where another company stands)",
    ColumnEmpty = "expand.column-empty": "no trading post left in that column of the base",
    ReturnColumn = "expand.return-column": "name a column of the displaced company's base with an empty space to return to (or none when it has none)",
    NoBookkeeper = "clerk.no-card": "no face-up bookkeeper in that slot",
    FlipOnce = "clerk.flip": "one book may be turned, for 2 pounds, before the ink marker moves",
    FlipPounds = "clerk.flip-pounds": "turning a book costs 2 pounds",
    NoNextBook = "clerk.no-book": "there is no book on the next space of the bookkeeping track",
    BookRequirement = "clerk.requirement": "the face-up cards in the action area do not meet the book's requirement",
    NoDisplayBook = "points.no-book": "there is no book on that display space",
    PointCost = "points.cost": "not enough bookkeeping points (book A/B 1, book C 2, 1 pound 1)",
    TrackFull = "points.track-full": "no free space left on the bookkeeping track",
    NoDiamondTrader = "diamond.no-card": "no face-up diamond trader in that slot",
    NoMarker = "bonus.no-marker": "no bonus marker left",
    SpaceTaken = "bonus.space-taken": "that bonus space is blocked for the rest of the round",
    NoSuchSpace = "bonus.no-space": "there is no such bonus space, or it needs another argument",
    FirstPlayer = "bonus.first-player": "the first-player space is for a player who is not the first player",
    Majority = "bonus.majority": "the majority space needs the most units of its kind in the action area (ties share, 0 never)",
    BonusPounds = "bonus.pounds": "not enough pounds for the fee and the card's purchase price",
    EndPile = "end.pile": "take exactly one rest pile of an open slot, a non-empty one when there is one",
    CancelCommitted = "action.cancel-committed": "the action has drawn a book from the supply: it can no longer be taken back",
    CancelUsed = "action.cancel-used": "an action was already cancelled this turn: the one begun after it cannot be taken back",
    DealDisplay = "chance.deal": "the display is not 12 cards the deck still holds, in the deck's letter order",
    DealFirst = "chance.deal": "the first player is drawn only when the options say so, and is one of the seats",
    DealBooks = "chance.deal": "the bookkeeping tiles dealt are not the ones the box holds for this setup",
    DealSides = "chance.deal": "the track card sides are not one side of each card, each card once",
    DealStartTiles = "chance.deal": "the start tiles are not two different tiles still left, dealt to the next seat in turn",
    BadDraw = "chance.draw": "the draw does not match what the deck and the book supply hold",
    BadReveal = "chance.reveal": "a reveal shows exactly what the seats chose",
    WrongChance = "chance.kind": "the outcome is not the kind of chance the game waits on",
}

/// A refused move or outcome. The state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MbError {
    #[error(transparent)]
    Turn(#[from] TurnError),
    #[error("illegal move `{}`: {} [{}]", crate::notation::format_move(.mv), .rule.text(), .rule.code())]
    Illegal { rule: Rule, mv: Move },
    /// A plan into a slot that is not open, with the limit it broke.
    #[error("illegal move `{}`: only {open} action slots are open (slots 1–{open}): plan at most {open} cards [{}]", crate::notation::format_move(.mv), Rule::SlotClosed.code())]
    SlotLimit { open: u8, mv: Move },
    #[error("bad chance outcome: {} [{}]", .rule.text(), .rule.code())]
    BadChance { rule: Rule },
}

impl RuleViolation for MbError {
    fn rule(&self) -> &'static str {
        match self {
            MbError::Turn(t) => t.rule(),
            MbError::Illegal { rule, .. } | MbError::BadChance { rule } => rule.code(),
            MbError::SlotLimit { .. } => Rule::SlotClosed.code(),
        }
    }
}
