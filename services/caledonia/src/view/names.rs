//! The names views and layouts speak: lowercase slugs, one mirror of each rules id a view
//! shows, and the small records both use (counts per good, contracts).
//!
//! Mirrors rather than the rules' own ids because the rules' serde form is their snapshot
//! format (`Good::Wool` serialises as `"Wool"`), while a view's JSON is a published contract
//! (`schema/views/README.md`: enum values are lowercase slugs): the two must be free to differ.
//! Enum variants carry no doc comments on purpose: with them `schemars` writes a `oneOf` of
//! constants instead of the plain string `enum` the GraphQL mapping reads, so each enum's
//! values are explained in its own doc comment.

use crate::data::{Condition, Contract as ContractData, PortKind};
use crate::ids;
use schemars::JsonSchema;
use serde::Serialize;

/// A market good: `wool`, `milk`, `grain` (basic goods), `cheese`, `bread`, `whisky`
/// (processed goods).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Good {
    Wool,
    Milk,
    Grain,
    Cheese,
    Bread,
    Whisky,
}

impl From<ids::Good> for Good {
    fn from(g: ids::Good) -> Good {
        match g {
            ids::Good::Wool => Good::Wool,
            ids::Good::Milk => Good::Milk,
            ids::Good::Grain => Good::Grain,
            ids::Good::Cheese => Good::Cheese,
            ids::Good::Bread => Good::Bread,
            ids::Good::Whisky => Good::Whisky,
        }
    }
}

/// A unit on the map: the animals and fields `sheep`, `cow`, `field`; the buildings `dairy`,
/// `bakery`, `distillery`; the workers `woodcutter` (on forest), `miner` (on mountain) and
/// `fisherman` (MacDonald's worker on a loch or port space).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    Sheep,
    Cow,
    Field,
    Dairy,
    Bakery,
    Distillery,
    Woodcutter,
    Miner,
    Fisherman,
}

impl From<ids::Unit> for Unit {
    fn from(u: ids::Unit) -> Unit {
        match u {
            ids::Unit::Sheep => Unit::Sheep,
            ids::Unit::Cow => Unit::Cow,
            ids::Unit::Field => Unit::Field,
            ids::Unit::Dairy => Unit::Dairy,
            ids::Unit::Bakery => Unit::Bakery,
            ids::Unit::Distillery => Unit::Distillery,
            ids::Unit::Woodcutter => Unit::Woodcutter,
            ids::Unit::Miner => Unit::Miner,
            ids::Unit::Fisherman => Unit::Fisherman,
        }
    }
}

/// A clan: `buchanan`, `campbell`, `cunningham`, `fergusson`, `macdonald`, `mackenzie`,
/// `robertson`, `stewart`, and `macewen` (the Kickstarter clan). A viewer colours a seat's
/// pieces by its clan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Clan {
    Buchanan,
    Campbell,
    Cunningham,
    Fergusson,
    MacDonald,
    MacKenzie,
    Robertson,
    Stewart,
    MacEwen,
}

impl From<ids::Clan> for Clan {
    fn from(c: ids::Clan) -> Clan {
        match c {
            ids::Clan::Buchanan => Clan::Buchanan,
            ids::Clan::Campbell => Clan::Campbell,
            ids::Clan::Cunningham => Clan::Cunningham,
            ids::Clan::Fergusson => Clan::Fergusson,
            ids::Clan::MacDonald => Clan::MacDonald,
            ids::Clan::MacKenzie => Clan::MacKenzie,
            ids::Clan::Robertson => Clan::Robertson,
            ids::Clan::Stewart => Clan::Stewart,
            ids::Clan::MacEwen => Clan::MacEwen,
        }
    }
}

/// A map module (quadrant of the board): `a` top left, `b` top right, `c` bottom right, `d`
/// bottom left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Module {
    A,
    B,
    C,
    D,
}

impl Module {
    pub const ALL: [Module; 4] = [Module::A, Module::B, Module::C, Module::D];
}

/// What a port tile does: `meat` (1: this turn's meat contract needs one animal fewer),
/// `basic-exchange` (2), `processed-exchange` (3), `upgrade-glory` (4: a bonus upgrade and
/// glory), `money` (5), `price` (6: a price moves), `exchange` (7: map units for board units),
/// `money-draw` (8: money and the building bonus), `kickstarter` (9: pay to use another port).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PortEffect {
    Meat,
    BasicExchange,
    ProcessedExchange,
    UpgradeGlory,
    Money,
    Price,
    Exchange,
    MoneyDraw,
    Kickstarter,
}

impl From<PortKind> for PortEffect {
    fn from(k: PortKind) -> PortEffect {
        match k {
            PortKind::Meat => PortEffect::Meat,
            PortKind::Basic => PortEffect::BasicExchange,
            PortKind::Processed => PortEffect::ProcessedExchange,
            PortKind::Upgrade => PortEffect::UpgradeGlory,
            PortKind::Money => PortEffect::Money,
            PortKind::Price => PortEffect::Price,
            PortKind::Exchange => PortEffect::Exchange,
            PortKind::Draw => PortEffect::MoneyDraw,
            PortKind::Kickstarter => PortEffect::Kickstarter,
        }
    }
}

/// What a round scoring tile counts: `basic-goods`, `processed-goods`, `production-units`,
/// `workers`, `border-units`, `imports`, `meat` (animals slaughtered), `upgrades`,
/// `expensive-land`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ScoringCondition {
    BasicGoods,
    ProcessedGoods,
    ProductionUnits,
    Workers,
    BorderUnits,
    Imports,
    Meat,
    Upgrades,
    ExpensiveLand,
}

impl From<Condition> for ScoringCondition {
    fn from(c: Condition) -> ScoringCondition {
        match c {
            Condition::Basic => ScoringCondition::BasicGoods,
            Condition::Processed => ScoringCondition::ProcessedGoods,
            Condition::Production => ScoringCondition::ProductionUnits,
            Condition::Workers => ScoringCondition::Workers,
            Condition::Border => ScoringCondition::BorderUnits,
            Condition::Imports => ScoringCondition::Imports,
            Condition::Meat => ScoringCondition::Meat,
            Condition::Upgrades => ScoringCondition::Upgrades,
            Condition::Expensive => ScoringCondition::ExpensiveLand,
        }
    }
}

/// A count of each market good.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct GoodCounts {
    /// Wool.
    pub wool: u16,
    /// Milk.
    pub milk: u16,
    /// Grain.
    pub grain: u16,
    /// Cheese.
    pub cheese: u16,
    /// Bread.
    pub bread: u16,
    /// Whisky.
    pub whisky: u16,
}

impl GoodCounts {
    /// From counts by the rules' good index.
    pub fn of(v: [u16; 6]) -> GoodCounts {
        let [wool, milk, grain, cheese, bread, whisky] = v;
        GoodCounts {
            wool,
            milk,
            grain,
            cheese,
            bread,
            whisky,
        }
    }
}

/// A count of each imported good (cotton, tobacco, sugar cane).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportCounts {
    /// Cotton.
    pub cotton: u16,
    /// Tobacco.
    pub tobacco: u16,
    /// Sugar cane.
    pub sugar_cane: u16,
}

impl ImportCounts {
    pub fn of(v: [u16; 3]) -> ImportCounts {
        let [cotton, tobacco, sugar_cane] = v;
        ImportCounts {
            cotton,
            tobacco,
            sugar_cane,
        }
    }
}

/// What a contract asks for: a good (`wool`, `milk`, `grain`, `cheese`, `bread`, `whisky`)
/// or meat, `beef` (cows slaughtered) or `mutton` (sheep slaughtered).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Need {
    Wool,
    Milk,
    Grain,
    Cheese,
    Bread,
    Whisky,
    Beef,
    Mutton,
}

/// What a contract pays: `money` (£), `hops`, the imports `cotton`, `tobacco`, `sugar-cane`,
/// `free-expansion` (an expansion without land cost) and `bonus-upgrade`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Reward {
    Money,
    Hops,
    Cotton,
    Tobacco,
    SugarCane,
    FreeExpansion,
    BonusUpgrade,
}

/// One thing a contract asks for, and how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Ask {
    /// What it asks for.
    pub item: Need,
    /// How many.
    pub count: u16,
}

/// One thing a contract pays, and how much.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Pay {
    /// What it pays.
    pub item: Reward,
    /// How much (£ for money).
    pub count: i32,
}

/// An export contract and its terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Contract {
    /// The contract's id, 1–50 (the notation's number).
    pub id: u8,
    /// What fulfilling it takes (only what it asks for, in a fixed order).
    pub asks: Vec<Ask>,
    /// What fulfilling it gives.
    pub pays: Vec<Pay>,
}

const NEEDS: [Need; 6] = [
    Need::Wool,
    Need::Milk,
    Need::Grain,
    Need::Cheese,
    Need::Bread,
    Need::Whisky,
];
const IMPORTS: [Reward; 3] = [Reward::Cotton, Reward::Tobacco, Reward::SugarCane];

/// The terms of a contract's data as lists of what it asks and pays (zeros left out).
pub fn terms(k: &ContractData) -> (Vec<Ask>, Vec<Pay>) {
    let mut asks: Vec<Ask> = NEEDS
        .iter()
        .zip(k.goods)
        .map(|(&item, n)| Ask {
            item,
            count: u16::from(n),
        })
        .collect();
    asks.push(Ask {
        item: Need::Beef,
        count: u16::from(k.beef),
    });
    asks.push(Ask {
        item: Need::Mutton,
        count: u16::from(k.mutton),
    });
    asks.retain(|a| a.count > 0);
    let mut pays = vec![
        Pay {
            item: Reward::Money,
            count: k.money,
        },
        Pay {
            item: Reward::Hops,
            count: i32::from(k.hops),
        },
    ];
    pays.extend(IMPORTS.iter().zip(k.imports).map(|(&item, n)| Pay {
        item,
        count: i32::from(n),
    }));
    pays.push(Pay {
        item: Reward::FreeExpansion,
        count: i32::from(k.free_expand),
    });
    pays.push(Pay {
        item: Reward::BonusUpgrade,
        count: i32::from(k.upgrades),
    });
    pays.retain(|p| p.count != 0);
    (asks, pays)
}

/// A contract by id with its terms; an id the data lacks (never in a legal position) shows
/// with no terms rather than failing the view.
pub fn contract(id: ids::ContractId) -> Contract {
    let data = usize::from(id.0)
        .checked_sub(1)
        .and_then(|i| crate::data::components().contracts.get(i));
    let (asks, pays) = data.map(terms).unwrap_or_default();
    Contract {
        id: id.0,
        asks,
        pays,
    }
}
