//! What is printed on Mombasa's components (card faces, books, start tiles, rewards) and the
//! small vocabularies (companies, goods, letters) that views and layouts share.
//!
//! Faces are read from the game's own data version ([`State::data`], [`State::card_def`]), so
//! an old game shows the cards it was played with. Each type here is one `$defs` entry of
//! both the view and the layout schema, so the GraphQL service maps it to one type.
//!
//! Optional enums and objects are skipped when absent rather than written `null`: schemars
//! would describe `Option<T>` of a `$ref` with `anyOf`, a shape the typed API does not take
//! (`schema/views/README.md`); a property missing from `required` is nullable there too.

use crate::data::{self, CardKind as DataKind};
use crate::ids::{CardId, Company, Unit};
use crate::notation::card_code;
use crate::state::State;
use schemars::JsonSchema;
use serde::Serialize;

/// A chartered company: `mombasa`, `capetown`, `saintlouis` or `cairo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CompanyId {
    Mombasa,
    Capetown,
    Saintlouis,
    Cairo,
}

impl From<Company> for CompanyId {
    fn from(c: Company) -> Self {
        match c {
            Company::Mombasa => CompanyId::Mombasa,
            Company::CapeTown => CompanyId::Capetown,
            Company::SaintLouis => CompanyId::Saintlouis,
            Company::Cairo => CompanyId::Cairo,
        }
    }
}

/// What a card, tile or requirement counts: `coffee`, `banana`, `cotton` (the goods) or
/// `expansion` (helmets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Good {
    Coffee,
    Banana,
    Cotton,
    Expansion,
}

impl From<Unit> for Good {
    fn from(u: Unit) -> Self {
        match u {
            Unit::Coffee => Good::Coffee,
            Unit::Banana => Good::Banana,
            Unit::Cotton => Good::Cotton,
            Unit::Expansion => Good::Expansion,
        }
    }
}

/// What a card does when used: `coffee`, `banana`, `cotton` (goods), `expansion`,
/// `bookkeeper` or `diamond` (a diamond trader).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CardKind {
    Coffee,
    Banana,
    Cotton,
    Expansion,
    Bookkeeper,
    Diamond,
}

/// A deck letter of the action cards, `a` (drawn first) to `e`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CardLetter {
    A,
    B,
    C,
    D,
    E,
}

/// A letter of the books, `a`, `b` or `c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BookLetter {
    A,
    B,
    C,
}

impl BookLetter {
    /// The letter of index `i` of the data (0 = A); C beyond.
    pub fn of(i: u8) -> Self {
        match i {
            0 => BookLetter::A,
            1 => BookLetter::B,
            _ => BookLetter::C,
        }
    }
}

/// A number for each company (share icons, shares held).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, JsonSchema)]
pub struct PerCompany {
    /// Mombasa's.
    pub mombasa: u8,
    /// Cape Town's.
    pub capetown: u8,
    /// Saint-Louis'.
    pub saintlouis: u8,
    /// Cairo's.
    pub cairo: u8,
}

impl PerCompany {
    pub fn from_array(a: [u8; 4]) -> Self {
        PerCompany {
            mombasa: a[0],
            capetown: a[1],
            saintlouis: a[2],
            cairo: a[3],
        }
    }
}

/// A number for each unit (a book's requirements).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, JsonSchema)]
pub struct PerGood {
    /// Coffee units.
    pub coffee: u8,
    /// Banana units.
    pub banana: u8,
    /// Cotton units.
    pub cotton: u8,
    /// Expansion points (helmets).
    pub expansion: u8,
}

/// What a region, track space or book pays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reward {
    /// Pounds.
    pub pounds: u8,
    /// Steps on the diamond track.
    pub diamonds: u8,
    /// Steps on the track of the company expanding (regions only).
    pub track_steps: u8,
    /// Bookkeeping points to spend at once.
    pub bookkeeping: u8,
    /// Bonus markers gained (company tracks only).
    pub bonus_markers: u8,
}

impl From<data::Reward> for Reward {
    fn from(r: data::Reward) -> Self {
        Reward {
            pounds: r.pounds,
            diamonds: r.diamonds,
            track_steps: r.track,
            bookkeeping: r.bookkeeping,
            bonus_markers: r.bonus_marker,
        }
    }
}

/// A card's face: what it is and everything printed on it, enough to draw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Card {
    /// The card's name in the notation: `A1`..`E4` for action cards, `S1`..`S9` and `X` (the
    /// expansion "1" card) for a seat's own cards.
    pub id: String,
    /// A seat's own card: the seat whose colour it has (absent for action cards).
    pub owner: Option<u8>,
    /// An action card's deck letter (absent for a seat's own cards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "CardLetter")]
    pub letter: Option<CardLetter>,
    /// What the card does.
    pub kind: CardKind,
    /// Goods units, expansion points, bookkeeping points or diamond steps.
    pub value: u8,
    /// The red value: the purchase price before the display space's, and what selling it
    /// pays (twice that).
    pub cost: u8,
    /// Share icons by company.
    pub shares: PerCompany,
    /// A diamond trader's pounds (0 for other cards).
    pub pounds: u8,
    /// A diamond trader that counts mines: the company whose regions' mine icons add steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "CompanyId")]
    pub mines_company: Option<CompanyId>,
    /// ... one more step per this many mine icons (0: no such bonus).
    pub per_mines: u8,
}

/// The face of physical card `id` in game `s`.
pub fn card(s: &State, id: CardId) -> Card {
    let def = s.card_def(id);
    let kind = match def.map(|d| d.kind) {
        Some(DataKind::Units(u)) => match u {
            Unit::Coffee => CardKind::Coffee,
            Unit::Banana => CardKind::Banana,
            Unit::Cotton => CardKind::Cotton,
            Unit::Expansion => CardKind::Expansion,
        },
        Some(DataKind::Bookkeeper) => CardKind::Bookkeeper,
        Some(DataKind::Diamond { .. }) | None => CardKind::Diamond,
    };
    let (pounds, mines, per_mines) = match def.map(|d| d.kind) {
        Some(DataKind::Diamond {
            pounds,
            mines,
            per_mines,
        }) => (pounds, mines.map(CompanyId::from), per_mines),
        _ => (0, None, 0),
    };
    Card {
        id: card_code(id.as_ref()),
        owner: id.owner(),
        letter: def.and_then(|d| d.letter).map(|l| match l {
            0 => CardLetter::A,
            1 => CardLetter::B,
            2 => CardLetter::C,
            3 => CardLetter::D,
            _ => CardLetter::E,
        }),
        kind,
        value: def.map_or(0, |d| d.value),
        cost: def.map_or(0, |d| d.cost),
        shares: PerCompany::from_array(def.map_or([0; 4], |d| d.shares)),
        pounds,
        mines_company: mines,
        per_mines,
    }
}

/// The faces of the cards of a mask over card ids, lowest id first.
pub fn cards(s: &State, mask: u128) -> Vec<Card> {
    crate::ids::bits(mask)
        .map(|id| card(s, CardId(id)))
        .collect()
}

/// A book tile's face.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Book {
    /// The book's name in the notation, `A1`..`C24`.
    pub id: String,
    /// Its letter.
    pub letter: BookLetter,
    /// Units the face-up cards of the action area must show for the ink marker to enter it.
    pub requires: PerGood,
    /// What it pays when the ink marker stops on it face up.
    pub reward: Reward,
}

/// The face of book `b` (an index into the game's books).
pub fn book(s: &State, b: u8) -> Book {
    let def = s.data().books.get(usize::from(b));
    let r = def.map_or([0; 4], |d| d.requires);
    Book {
        id: def.map_or_else(|| "?".into(), |d| d.code.clone()),
        letter: BookLetter::of(def.map_or(0, |d| d.letter)),
        requires: PerGood {
            coffee: r[0],
            banana: r[1],
            cotton: r[2],
            expansion: r[3],
        },
        reward: def.map(|d| d.reward.into()).unwrap_or_default(),
    }
}

/// A start tile's face.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StartTile {
    /// The tile's name in the notation, `T1`..`T10`.
    pub id: String,
    /// The start cards it puts into rest piles 1, 2 and 3 (card ids, in pile order).
    pub rest_cards: Vec<String>,
    /// The company whose track it advances (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "CompanyId")]
    pub track_company: Option<CompanyId>,
    /// Steps on that company's track.
    pub track_steps: u8,
    /// Steps on the diamond track.
    pub diamonds: u8,
}

/// The face of start tile `t` (an index into the game's start tiles).
pub fn start_tile(s: &State, t: u8) -> StartTile {
    let c = s.data();
    let def = c.start_tiles.get(usize::from(t));
    // Rest cards are start cards 0..9 of any seat: the names are the same for every seat.
    let own = |k: u8| card_code(crate::ids::CardRef(crate::ids::DECK_CARDS + k));
    StartTile {
        id: def.map_or_else(|| "?".into(), |d| d.code.clone()),
        rest_cards: def.map_or_else(Vec::new, |d| d.rest.iter().map(|&k| own(k)).collect()),
        track_company: def.and_then(|d| d.track).map(|(co, _)| co.into()),
        track_steps: def.and_then(|d| d.track).map_or(0, |(_, n)| n),
        diamonds: def.map_or(0, |d| d.diamonds),
    }
}
