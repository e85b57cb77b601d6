//! Typed errors: every refused move or outcome names the rule it broke (a stable code).

use crate::moves::Move;
use rules_core::{RuleViolation, TurnError};
use thiserror::Error;

rules_core::rule_set! {
    WrongStep = "turn.step": "that kind of move is not allowed at this point of the turn",
    MainDone = "turn.main-action-taken": "one main action per turn",
    ClanUnavailable = "setup.clan": "that clan is not offered or already taken",
    NoSuchHex = "map.no-such-hex": "that hex is not on the active map",
    Occupied = "map.occupied": "a hex holds one unit",
    WrongTerrain = "map.terrain": "sheep, cows, fields and factories on grassland; woodcutters in forests; miners on mountains; fishermen on lochs",
    OutOfRange = "expand.range": "the hex must neighbour one of your units or be within shipping range",
    NotBorder = "setup.fergusson-border": "Fergusson's initial workers go on border spaces",
    FishermenAdjacent = "macdonald.fishermen-adjacent": "two of your fishermen may never be adjacent",
    NotMacDonald = "clan.macdonald-only": "only MacDonald has fishermen and rows",
    UnitNotWorker = "setup.worker": "initial units are workers",
    SupplyEmpty = "board.supply-empty": "none of that unit left on your board",
    Money = "cost.money": "not enough money",
    Goods = "cost.goods": "not enough goods",
    NoMerchants = "trade.merchants": "one available merchant per unit traded",
    BothSides = "trade.both-sides": "your merchants may not be on both the buy and the sell side of a good",
    ZeroQuantity = "trade.quantity": "trade at least one unit",
    ContractNotOffered = "contract.not-offered": "that contract is not on the export board",
    CrateFull = "contract.one-open": "one open contract at a time (two for Buchanan)",
    ContractNotHeld = "contract.not-held": "you do not hold that contract",
    ContractOrder = "contract.list": "a list names each contract once, lowest first; a fulfilment names at most one contract (two for Buchanan)",
    Slaughter = "contract.slaughter": "slaughter exactly the cows and sheep the contracts' meat asks for, from your own units",
    ShippingMax = "ship.max": "shipping is at its last level",
    TechDone = "tech.done": "that technology tile is already flipped",
    TrackEmpty = "merchant.track-empty": "no merchant left to hire",
    PortNotInPlay = "port.not-in-play": "that port is not on the map",
    PortUsed = "port.used": "each player uses each port once per game",
    PortOutOfRange = "port.range": "the port must neighbour one of your units or be within shipping range",
    PortArgs = "port.choice": "that is not a choice this port offers",
    PortNoMeatContract = "port.meat": "port 1 needs a held contract asking for meat that can be fulfilled with one animal fewer",
    PortMeatTiming = "port.meat-timing": "port 1 is used once per turn, before the fulfilment it discounts",
    PortMeatUnused = "port.meat-unused": "after port 1, the turn's main action fulfils a contract asking for meat: no other main action, no fulfilment without meat and no pass",
    PortMeatFulfilmentLost = "port.meat-fulfilment-lost": "after port 1, nothing before the meat fulfilment it discounts may make that fulfilment impossible (the contract, animals or goods it needs)",
    PortPriceTiming = "port.price-timing": "port 6 moves a price before the main action, which then trades that good: not after it, and not for a second good",
    PortPriceUnused = "port.price-unused": "after port 6, the turn's main action trades the good whose price it moved: no other main action and no pass",
    PortPriceTradeLost = "port.price-trade-lost": "after port 6, nothing before the trade of its good may make that trade impossible (the merchant, money or goods it needs)",
    PortPriceNoTrade = "port.price-no-trade": "port 6 needs a trade of that good to follow it: no merchant, money or goods for one",
    RowUsed = "macdonald.row-once": "row once per turn, before the main action",
    NoFisherman = "macdonald.no-fisherman": "no fisherman of yours there",
    NotMacKenzie = "clan.mackenzie-only": "only MacKenzie has a cellar",
    CellarEmpty = "mackenzie.cellar-empty": "no barrel in that cellar spot",
    NotNeighbour = "neighbour.good": "no rival unit producing that good neighbours the new unit",
    NeighbourCap = "neighbour.cap": "at most 3 of a good per turn (4 with 2 players) from the neighbour bonus",
    KeepNotDrawn = "building.keep": "keep contracts you drew, at most as many as allowed",
    NoExchange = "port7.swap": "swap a non-field unit for a different non-field board unit fitting the terrain",
    NoUpgrade = "bonus.none": "no such bonus pending",
    UpgradeUnavailable = "bonus.upgrade": "that upgrade is not available",
    Brew = "macewen.brew": "brew at most one beer per hop (3 per contract), one grain each",
    Production = "production.capacity": "each factory processes one input it has",
    NotCunningham = "clan.cunningham-only": "only Cunningham sells milk to the supply",
    NothingToPlace = "setup.done": "a worker can be placed",
    BadDeal = "chance.deal": "the deal does not match the components",
    BadDraw = "chance.draw": "the contracts drawn are not what the pile can give",
    BadDrift = "chance.drift": "the drift needs distinct goods and price-die faces",
    WrongChance = "chance.kind": "the outcome is not the kind of chance the game waits on",
}

/// A refused move or outcome. The state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CalError {
    #[error(transparent)]
    Turn(#[from] TurnError),
    #[error("illegal move `{}`: {} [{}]", crate::notation::format_move(.mv), .rule.text(), .rule.code())]
    Illegal { rule: Rule, mv: Box<Move> },
    #[error("bad chance outcome: {} [{}]", .rule.text(), .rule.code())]
    BadChance { rule: Rule },
    /// A deal typed in at the table that does not match the components, saying which part
    /// (rule `chance.deal`).
    #[error("bad chance outcome: {what} [{}]", Rule::BadDeal.code())]
    BadDeal { what: &'static str },
}

impl CalError {
    /// The broken rule, when a game rule (not turn order) was broken.
    pub fn game_rule(&self) -> Option<Rule> {
        match self {
            CalError::Illegal { rule, .. } | CalError::BadChance { rule } => Some(*rule),
            CalError::BadDeal { .. } => Some(Rule::BadDeal),
            CalError::Turn(_) => None,
        }
    }
}

impl RuleViolation for CalError {
    fn rule(&self) -> &'static str {
        match self {
            CalError::Turn(t) => t.rule(),
            CalError::Illegal { rule, .. } | CalError::BadChance { rule } => rule.code(),
            CalError::BadDeal { .. } => Rule::BadDeal.code(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_codes_are_unique_and_stable_text() {
        let mut seen = std::collections::HashSet::new();
        for r in Rule::ALL {
            assert!(seen.insert(r.code()), "duplicate code {}", r.code());
            assert!(r.code().contains('.') || r.code() == "notation");
            assert!(!r.text().is_empty());
        }
    }
}
