//! Typed errors: every refused move or outcome names the rule it broke.

use crate::moves::Move;
use rules_core::{RuleViolation, TurnError};
use thiserror::Error;

rules_core::rule_set! {
    WrongStep = "turn.step": "that kind of move is not allowed at this step of the turn",
    MustMove = "turn.must-move": "a meeple move is possible, so the turn cannot end before it",
    NoSuchSpot = "bid.no-such-spot": "there is no such spot on the turn order track",
    SpotTaken = "bid.spot-taken": "that spot on the turn order track is taken",
    ZeroSpotsFull = "bid.zero-spots-full": "all three free spots are taken: bid at least 1",
    BidUnaffordable = "bid.unaffordable": "not enough gold for that spot",
    MustTakeCheapest = "bid.cheapest-when-broke": "no spot is affordable: take the cheapest free spot and pay all your gold",
    Kumarbi = "djinn.kumarbi": "Kumarbi lowers a paid bid by one spot per Fakir, to at most the last free spot",
    EmptyTile = "movement.empty-tile": "pick up from a tile that holds meeples",
    NoLegalFinish = "movement.no-legal-finish": "the move could not be finished with the last meeple on a tile of its colour",
    NotOrthogonal = "movement.orthogonal": "drop on an orthogonally adjacent tile",
    ImmediateReturn = "movement.no-immediate-return": "a move may not step straight back to the tile it just left",
    NotInHand = "movement.not-in-hand": "no meeple of that colour in hand",
    LastMeepleColour = "movement.last-meeple-colour": "the last meeple must land on a tile holding a meeple of its colour",
    NotEnoughFakirs = "cost.fakirs": "not enough Fakir cards",
    NotEnoughElders = "cost.elders": "not enough Elders",
    NotEnoughGold = "cost.gold": "not enough gold",
    DjinnNotOwned = "djinn.not-owned": "you do not own that djinn",
    DjinnUsed = "djinn.once-per-turn": "a djinn's paid power may be used once per turn",
    BadPayment = "djinn.payment": "that is not a way to pay this djinn",
    OutOfRange = "assassins.range": "out of the assassins' range (assassins + Fakirs)",
    NoSuchVictim = "assassins.no-victim": "there is no such meeple to kill",
    NotAnOpponent = "assassins.opponent": "assassins kill in front of an opponent, never yourself",
    ViziersEldersOnly = "assassins.viziers-elders": "in front of a player only Viziers and Elders can be killed",
    Boaz = "djinn.boaz": "Boaz protects its owner's Viziers and Elders",
    Iblis = "djinn.iblis": "a second victim needs Iblis, paid, on the same tile or the same player; Iblis is paid only for a second victim",
    MandatoryAction = "tile.mandatory": "this tile's action is compulsory",
    WrongTileAction = "tile.wrong-action": "that is not this tile's action",
    MarketWindow = "market.window": "take cards from the first 3 (Small Market) or 6 (Large Market) of the row",
    MarketNoCard = "market.no-card": "the row has no card at that position: it is shorter than the market's window",
    MarketCount = "market.card-count": "Small Market takes 1 card, Large Market 2 (1 if only one is left)",
    DjinnNotShown = "sacred.djinn-not-shown": "that djinn is not in the row",
    NotNeighbouring = "djinn.neighbouring": "Hagis and Lamia redirect to a tile around this one",
    SupplyEmpty = "supply.empty": "none left in the supply",
    NotBare = "djinn.target-not-bare": "the tile must hold no meeple, camel, palm tree or palace",
    NotOnlyMeeples = "djinn.utug-target": "the tile must hold meeples and no camel, palm tree or palace",
    WrongTileType = "djinn.tile-type": "that djinn works on a different kind of tile",
    NoCamels = "camels.none-left": "no camels left",
    BagEmpty = "djinn.bag-empty": "the bag is empty",
    PileEmpty = "djinn.pile-empty": "no card left to draw",
    NotDrawn = "djinn.sibittis-not-drawn": "keep one of the djinns Sibittis drew",
    NotHeld = "sell.not-held": "you do not hold those goods",
    EmptySet = "sell.empty": "a set holds at least one good",
    SellFakirs = "sell.fakirs": "Fakirs are not merchandise: they are never sold",
    SellAfterMove = "sell.after-move": "merchandise is sold at the end of the turn, after the meeple move and its actions (before picking up only when no move is possible)",
    Notation = "notation": "the move is not one the notation writes: a list the rules give no order (two market cards, Iblis's two victims) out of its canonical order, or a card named twice",
    DealTiles = "chance.deal": "the layout is not the box's 30 tiles: a tile kind is laid more or fewer times than the box holds it",
    DealMeeples = "chance.deal": "the meeples laid are not the bag's 90: a colour is laid more or fewer times than the bag holds it",
    DealOrder = "chance.deal": "the turn order markers are not each seat's markers, each once",
    DealCards = "chance.deal": "the resource cards dealt are not the row's count, or not cards the deck holds",
    DealDjinns = "chance.deal": "the djinns dealt are not the row's count, or not djinns the box holds (each once)",
    BadDraw = "chance.draw": "the outcome does not match what the table can draw",
    WrongChance = "chance.kind": "the outcome is not the kind of chance the game waits on",
}

/// A refused move or outcome. The state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FtError {
    #[error(transparent)]
    Turn(#[from] TurnError),
    #[error("illegal move `{}`: {} [{}]", crate::notation::format_move(.mv), .rule.text(), .rule.code())]
    Illegal { rule: Rule, mv: Move },
    #[error("bad chance outcome: {} [{}]", .rule.text(), .rule.code())]
    BadChance { rule: Rule },
}

impl RuleViolation for FtError {
    fn rule(&self) -> &'static str {
        match self {
            FtError::Turn(t) => t.rule(),
            FtError::Illegal { rule, .. } | FtError::BadChance { rule } => rule.code(),
        }
    }
}
