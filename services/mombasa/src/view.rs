//! What a viewer may see, in the shape `schema/views/README.md` asks for (its JSON Schema is
//! [`rules_core::Presentation::view_schema`]).
//!
//! Hidden from a seat: the other seats' hands (their sizes are public), the cards they
//! planned before the reveal (a slot shows a card back: `cards` 1 and no `card`), their start
//! tiles before theirs are revealed, and the shares printed on their cards (which would tell
//! what a hand holds); the order of the deck and of the book supply exists nowhere (only their
//! counts). Public: rest piles, the action areas after the reveal, the displays, the map, the
//! bases, the tracks and pounds. The omniscient viewer and everyone after the game see
//! everything.
//!
//! Places are named by the ids of the layout ([`crate::presentation`]): display spaces `L1`,
//! book spaces `2a`, regions `1`..`24`, base spaces `c1s1`, bonus spaces `first`, track sides
//! `A1`, so a viewer draws the layout once and puts the view's pieces on it.

mod faces;

pub use faces::{
    Book, BookLetter, Card, CardKind, CardLetter, CompanyId, Good, PerCompany, PerGood, Reward,
    StartTile,
};

use crate::ids::{BookSpace as BookSpaceId, CardId, Company, DisplayPos, COLUMNS, NONE, SLOTS};
use crate::state::{Phase as StatePhase, Stage as StateStage, State};
use faces::{book, card, cards, start_tile};
use rules_core::{Seat as SeatId, Viewer};
use schemars::JsonSchema;
use serde::Serialize;

/// A Mombasa position as one viewer may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct View {
    /// The round, 1 to 7 (0 during setup).
    pub round: u8,
    /// Where the round stands.
    pub phase: Phase,
    /// The first player of this round.
    pub first_player: u8,
    /// The seat that took the first-player space this round: it starts the next one.
    pub next_first_player: Option<u8>,
    /// The seat whose turn it is in the action phase.
    pub turn: Option<u8>,
    /// Where the turn of the seat to act stands.
    pub stage: Stage,
    /// The card display, space by space (`L1`..`R4`, the layout's `displaySpaces`).
    pub display: Vec<DisplaySpace>,
    /// Action cards left in the deck, by letter (the order is not known to anyone).
    pub deck: DeckCounts,
    /// Action cards on the discard pile.
    pub discard: u8,
    /// Start cards sold (out of the game).
    pub boxed_cards: u8,
    /// The book display, space by space (`2a`..`7b`, the layout's `bookSpaces`).
    pub book_display: Vec<BookSpace>,
    /// Books left in the supply, by letter.
    pub book_supply: BookCounts,
    /// The coins still on round-track spaces 2 to 7.
    pub round_track: Vec<RoundSpace>,
    /// The four companies: track side, share value, base.
    pub companies: Vec<CompanyView>,
    /// The 24 regions and the company whose trading post stands on each.
    pub map: Vec<Region>,
    /// The bonus spaces and the marker on each this round.
    pub bonus_spaces: Vec<BonusSpace>,
    /// The four bonus tiles and where they are.
    pub bonus_tiles: Vec<BonusTile>,
    /// Every seat's board, hand and action area, seat 0 first.
    pub seats: Vec<Seat>,
}

/// Where the game stands: `setup`, `start-deal`, `start-keep` (seats choose a start tile in
/// secret), `start-reveal`, `planning` (seats place cards face down), `reveal`, `actions`,
/// `prep` (the displays are refilled) or `over`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Setup,
    StartDeal,
    StartKeep,
    StartReveal,
    Planning,
    Reveal,
    Actions,
    Prep,
    Over,
}

impl From<StatePhase> for Phase {
    fn from(p: StatePhase) -> Self {
        match p {
            StatePhase::Setup => Phase::Setup,
            StatePhase::StartDeal => Phase::StartDeal,
            StatePhase::StartKeep => Phase::StartKeep,
            StatePhase::StartReveal => Phase::StartReveal,
            StatePhase::Planning => Phase::Planning,
            StatePhase::Reveal => Phase::Reveal,
            StatePhase::Actions => Phase::Actions,
            StatePhase::Prep => Phase::Prep,
            StatePhase::Over => Phase::Over,
        }
    }
}

/// What a turn of the action phase is doing: `top` (between actions), `goods` (spending
/// goods units), `expand` (spending expansion points), `clerk` (moving the ink marker),
/// `points` (spending bookkeeping points) or `steps` (company-track steps of a majority).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StageKind {
    Top,
    Goods,
    Expand,
    Clerk,
    Points,
    Steps,
}

/// Where the turn of the seat to act stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Stage {
    /// The part of an action under way.
    pub kind: StageKind,
    /// Goods units, expansion points, bookkeeping points or steps left to spend (for the
    /// bookkeeper: the points its card gives once the ink marker stops).
    pub left: u8,
    /// Goods: whether the one card purchase was made.
    pub bought: bool,
    /// Expansion: the company expanding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "CompanyId")]
    pub company: Option<CompanyId>,
    /// Expansion: the regions entered so far.
    pub entered: Vec<u8>,
    /// Bookkeeper: whether a book was turned face down.
    pub flipped: bool,
    /// Bookkeeper: the books the ink marker moved onto.
    pub moved: u8,
    /// The book display space waiting for the book that replaces the one just taken.
    pub book_refill: Option<String>,
    /// Whether the action under way may still be taken back (`cancel`).
    pub cancellable: bool,
}

/// A card display space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DisplaySpace {
    /// The space (`L1`..`R4`).
    pub id: String,
    /// The card on it (absent: empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Card")]
    pub card: Option<Card>,
    /// What buying that card costs: its red value and the space's.
    pub price: Option<u8>,
}

/// Action cards by deck letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DeckCounts {
    /// Letter A cards.
    pub a: u8,
    /// Letter B cards.
    pub b: u8,
    /// Letter C cards.
    pub c: u8,
    /// Letter D cards.
    pub d: u8,
    /// Letter E cards.
    pub e: u8,
}

/// Books by letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct BookCounts {
    /// Letter A books.
    pub a: u8,
    /// Letter B books.
    pub b: u8,
    /// Letter C books.
    pub c: u8,
}

/// A book display space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BookSpace {
    /// The space (`2a`..`7b`).
    pub id: String,
    /// The book on it (absent: empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Book")]
    pub book: Option<Book>,
    /// Pounds lying on it, taken with the book.
    pub coins: u8,
}

/// A round-track space still holding coins for the book display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RoundSpace {
    /// The round, 2 to 7.
    pub round: u8,
    /// Coins on it.
    pub coins: u8,
}

/// A company: its track, share value and base.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "Company")]
pub struct CompanyView {
    /// The company.
    pub id: CompanyId,
    /// The track side it plays with (the layout's `trackSides`).
    pub side: String,
    /// Its share value: the coins showing on its base's empty spaces.
    pub share_value: u8,
    /// Trading posts still on its base.
    pub posts_in_base: u8,
    /// Its posts out of play (displaced with no space to go back to).
    pub posts_boxed: u8,
    /// Every space of its base (the layout's base `spaces`) and whether a post covers it.
    pub base: Vec<BaseSpace>,
    /// The regions it holds.
    pub regions: Vec<u8>,
}

/// A space of a company base.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct BaseSpace {
    /// The space (`c1s1`: column 1, space 1 = the front, nearest the map).
    pub id: String,
    /// Whether a trading post covers it.
    pub post: bool,
}

/// A region of the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Region {
    /// The region (1..24, the layout's `map.regions`).
    pub id: u8,
    /// The company whose trading post stands on it (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "CompanyId")]
    pub company: Option<CompanyId>,
}

/// A bonus space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct BonusSpace {
    /// The space (`first`, `buy`, `sell`, `coffee`, ..., the layout's `bonusSpaces`).
    pub id: String,
    /// The seat whose bonus marker is on it this round.
    pub seat: Option<u8>,
}

/// A bonus tile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BonusTile {
    /// The tile (the layout's `bonusTiles`).
    pub id: String,
    /// What it counts as.
    pub kind: Good,
    /// Its units.
    pub value: u8,
    /// The seat in whose action area it lies this round.
    pub holder: Option<u8>,
    /// Whether the holder may still use it this round.
    pub unused: bool,
    /// The seat that won it this round, for the next.
    pub won_by: Option<u8>,
}

/// One seat's board, hand and action area.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Seat {
    /// The seat (0 first).
    pub seat: u8,
    /// Pounds.
    pub pounds: u16,
    /// Cards in hand.
    pub hand_size: u8,
    /// The cards in hand (null for a viewer who may not see them).
    pub hand: Option<Vec<Card>>,
    /// The rest piles above the open action slots (public).
    pub rest_piles: Vec<RestPile>,
    /// Action slots open (3 to 5).
    pub open_slots: u8,
    /// The five action slots, left to right.
    pub slots: Vec<Slot>,
    /// The bonus tiles in its action area this round.
    pub tiles: Vec<String>,
    /// The diamond marker's space (0 = start; the layout's `diamondTrack`).
    pub diamond_space: u8,
    /// The ink marker's space on the bookkeeping track (0 = start).
    pub bookkeeping_space: u8,
    /// The books on its bookkeeping track, space 1 first.
    pub books: Vec<TrackBook>,
    /// Its marker on each company track, with the shares it holds.
    pub company_tracks: Vec<TrackMarker>,
    /// Bonus markers owned.
    pub bonus_markers: u8,
    /// Bonus markers it may still place this round.
    pub markers_left: u8,
    /// Done planning this round.
    pub ready: bool,
    /// Done with this round's action phase.
    pub ended: bool,
    /// The two start tiles dealt (null for a viewer who may not see them, and before the
    /// deal).
    pub dealt_tiles: Option<Vec<StartTile>>,
    /// The start tile kept (absent before the choice, and for a viewer who may not see it
    /// before the reveal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "StartTile")]
    pub start_tile: Option<StartTile>,
}

/// A rest pile (above the action slot of the same number).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RestPile {
    /// The pile, 1 to 5.
    pub pile: u8,
    /// Its cards.
    pub cards: Vec<Card>,
}

/// An action slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Slot {
    /// The slot, 1 to 5.
    pub slot: u8,
    /// Whether it is open (3 at first; the diamond and bookkeeping tracks open the others).
    pub open: bool,
    /// Cards in it (0 or 1): a planned card is counted before the reveal, drawn as a back.
    pub cards: u8,
    /// The card, once the viewer may see it (absent: empty, or planned and not revealed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Card")]
    pub card: Option<Card>,
    /// Whether the card is face up: revealed and not yet used this round.
    pub face_up: bool,
}

/// A book on a seat's bookkeeping track.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrackBook {
    /// The track space it lies on (1 first).
    pub space: u8,
    /// The book.
    pub book: Book,
    /// Face up (false: turned face down, it asks and pays nothing).
    pub face_up: bool,
}

/// A seat's marker on a company track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrackMarker {
    /// The company.
    pub company: CompanyId,
    /// The marker's space (0 = start; the spaces of the company's side in the layout).
    pub space: u8,
    /// Shares from the track: the last share icon reached.
    pub track_shares: u8,
    /// Shares printed on every card the seat owns (null for a viewer who may not see its
    /// hand).
    pub card_shares: Option<u8>,
}

impl State {
    pub fn view(&self, viewer: Viewer) -> View {
        let c = self.data();
        View {
            round: self.round,
            phase: self.phase.into(),
            first_player: self.first,
            next_first_player: some(self.next_first),
            turn: (self.phase == StatePhase::Actions).then_some(self.turn),
            stage: self.stage_view(),
            display: (0..12u8)
                .map(|i| {
                    let id = self.display[usize::from(i)];
                    DisplaySpace {
                        id: DisplayPos(i).code(),
                        card: (id != NONE).then(|| card(self, CardId(id))),
                        price: crate::goods::price(self, DisplayPos(i)),
                    }
                })
                .collect(),
            deck: {
                let n = c.letter_mask.map(|m| count(u128::from(m & self.deck)));
                DeckCounts {
                    a: n[0],
                    b: n[1],
                    c: n[2],
                    d: n[3],
                    e: n[4],
                }
            },
            discard: count(u128::from(self.discard)),
            boxed_cards: count(self.boxed),
            book_display: (0..12u8)
                .map(|i| {
                    let b = self.book_display[usize::from(i)];
                    BookSpace {
                        id: BookSpaceId(i).code(),
                        book: (b != NONE).then(|| book(self, b)),
                        coins: self.book_coins[usize::from(i)],
                    }
                })
                .collect(),
            book_supply: {
                let n = c.book_letter_mask.map(|m| count(m & self.book_supply));
                BookCounts {
                    a: n[0],
                    b: n[1],
                    c: n[2],
                }
            },
            round_track: (2u8..)
                .zip(self.round_coins)
                .map(|(round, coins)| RoundSpace { round, coins })
                .collect(),
            companies: Company::ALL
                .iter()
                .map(|&co| self.company_view(co))
                .collect(),
            map: (1u8..)
                .zip(self.map)
                .map(|(id, holder)| Region {
                    id,
                    company: Company::ALL.get(usize::from(holder)).map(|&co| co.into()),
                })
                .collect(),
            bonus_spaces: c
                .bonus
                .iter()
                .zip(self.bonus)
                .map(|(b, s)| BonusSpace {
                    id: b.code.clone(),
                    seat: some(s),
                })
                .collect(),
            bonus_tiles: c
                .bonus_tiles
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let holder = some(self.tile_at.get(i).copied().unwrap_or(NONE));
                    BonusTile {
                        id: t.code.clone(),
                        kind: t.unit.into(),
                        value: t.value,
                        holder,
                        unused: holder
                            .and_then(|h| self.player(h))
                            .is_some_and(|p| p.tiles_up & (1 << i) != 0),
                        won_by: some(self.tile_won.get(i).copied().unwrap_or(NONE)),
                    }
                })
                .collect(),
            seats: (0..self.players)
                .filter_map(|i| self.seat_view(i, viewer))
                .collect(),
        }
    }

    fn stage_view(&self) -> Stage {
        let mut st = Stage {
            kind: StageKind::Top,
            left: 0,
            bought: false,
            company: None,
            entered: Vec::new(),
            flipped: false,
            moved: 0,
            book_refill: (self.book_refill != NONE).then(|| BookSpaceId(self.book_refill).code()),
            cancellable: self.undo.kept().is_some(),
        };
        match self.stage {
            StateStage::Top => {}
            StateStage::Goods { units, bought } => {
                st.kind = StageKind::Goods;
                st.left = units;
                st.bought = bought;
            }
            StateStage::Expand {
                company,
                points,
                entered,
            } => {
                st.kind = StageKind::Expand;
                st.left = points;
                st.company = Some(company.into());
                st.entered = (1u8..=24)
                    .filter(|r| entered & (1 << (r - 1)) != 0)
                    .collect();
            }
            StateStage::Clerk {
                points,
                flipped,
                moved,
            } => {
                st.kind = StageKind::Clerk;
                st.left = points;
                st.flipped = flipped;
                st.moved = moved;
            }
            StateStage::Points { left } => {
                st.kind = StageKind::Points;
                st.left = left;
            }
            StateStage::Steps { left } => {
                st.kind = StageKind::Steps;
                st.left = left;
            }
        }
        st
    }

    fn company_view(&self, co: Company) -> CompanyView {
        let c = self.data();
        let columns = self.bases[co.index()];
        CompanyView {
            id: co.into(),
            side: c
                .sides
                .get(usize::from(self.sides[co.index()]))
                .map_or_else(String::new, |s| s.name.clone()),
            share_value: self.share_value(co),
            posts_in_base: self.posts_in_base(co).min(255) as u8,
            posts_boxed: self.boxed_posts[co.index()],
            base: (0..COLUMNS)
                .flat_map(|k| {
                    (0..5).map(move |i| BaseSpace {
                        id: base_space_id(k, i),
                        post: columns[k] & (1 << i) != 0,
                    })
                })
                .collect(),
            regions: self.regions_of(co).map(|r| r as u8 + 1).collect(),
        }
    }

    /// Seat `i` as `viewer` sees it.
    fn seat_view(&self, i: u8, viewer: Viewer) -> Option<Seat> {
        let p = self.player(i)?;
        let c = self.data();
        let over = self.phase == StatePhase::Over;
        let own = over || viewer.sees(SeatId(i));
        let secret_plans = matches!(self.phase, StatePhase::Planning | StatePhase::Reveal);
        let secret_starts = matches!(
            self.phase,
            StatePhase::Setup
                | StatePhase::StartDeal
                | StatePhase::StartKeep
                | StatePhase::StartReveal
        );
        let open = p.open_slots(c);
        Some(Seat {
            seat: i,
            pounds: p.pounds,
            hand_size: count(p.hand),
            hand: own.then(|| cards(self, p.hand)),
            rest_piles: (1u8..)
                .zip(p.piles.iter().take(open))
                .map(|(pile, &m)| RestPile {
                    pile,
                    cards: cards(self, m),
                })
                .collect(),
            open_slots: open as u8,
            slots: (0..SLOTS)
                .map(|k| {
                    let id = p.slots[k];
                    let shown = id != NONE && (own || !secret_plans);
                    Slot {
                        slot: k as u8 + 1,
                        open: k < open,
                        cards: u8::from(id != NONE),
                        card: shown.then(|| card(self, CardId(id))),
                        face_up: p.face_up & (1 << k) != 0,
                    }
                })
                .collect(),
            tiles: c
                .bonus_tiles
                .iter()
                .enumerate()
                .filter(|(t, _)| p.tiles & (1 << t) != 0)
                .map(|(_, t)| t.code.clone())
                .collect(),
            diamond_space: p.diamond,
            bookkeeping_space: p.ink,
            books: (1u8..)
                .zip(&p.books)
                .map(|(space, &b)| TrackBook {
                    space,
                    book: book(self, b),
                    face_up: p.flipped & (1 << (space - 1)) == 0,
                })
                .collect(),
            company_tracks: Company::ALL
                .iter()
                .map(|&co| TrackMarker {
                    company: co.into(),
                    space: p.track[co.index()],
                    track_shares: self.track_shares(i, co),
                    card_shares: own.then(|| self.card_shares(i, co).min(255) as u8),
                })
                .collect(),
            bonus_markers: p.markers,
            markers_left: p.markers_left(),
            ready: p.ready,
            ended: p.ended,
            dealt_tiles: (own && p.dealt[0] != NONE)
                .then(|| p.dealt.iter().map(|&t| start_tile(self, t)).collect()),
            start_tile: (p.start != NONE && (own || !secret_starts))
                .then(|| start_tile(self, p.start)),
        })
    }
}

/// The id of space `i` (0 = front) of column `k` (0 = first) of a base, as the layout names
/// it.
pub fn base_space_id(k: usize, i: usize) -> String {
    format!("c{}s{}", k + 1, i + 1)
}

/// `NONE` as `None`.
fn some(x: u8) -> Option<u8> {
    (x != NONE).then_some(x)
}

/// The cards (or books) of a mask; never more than 128.
fn count(mask: u128) -> u8 {
    mask.count_ones() as u8
}
