//! What a viewer may see. Hidden: each hand (its size is public), cards planned before the
//! reveal, start tiles dealt and kept before their reveal, the order of the deck and of the
//! book supply (only their counts exist). Public: rest piles, the action areas after the
//! reveal, the display, the books, the map, the tracks and pounds. After the game everything
//! is shown.

use crate::ids::{bits, CardId, Company, DisplayPos, NONE};
use crate::notation::{book_code, card_code, tile_code};
use crate::state::{Phase, State};
use rules_core::{Seat, Viewer};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub round: u8,
    pub phase: &'static str,
    pub first: u8,
    pub turn: Option<u8>,
    pub stage: String,
    /// The card display by space (`L1`..`R4`).
    pub display: Vec<(String, Option<String>)>,
    /// Cards left in the deck per letter A..E, and on the discard pile.
    pub deck: [u32; 5],
    pub discard: u32,
    pub book_display: Vec<BookSpaceView>,
    /// Books left in the supply per letter A..C.
    pub book_supply: [u32; 3],
    /// Coins on round-track spaces 2..7.
    pub round_coins: [u8; 6],
    pub companies: Vec<CompanyView>,
    /// The seat on each bonus space (by space id).
    pub bonus: Vec<(String, Option<u8>)>,
    pub seats: Vec<SeatView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BookSpaceView {
    pub space: String,
    pub book: Option<String>,
    pub coins: u8,
}

#[derive(Debug, Clone, Serialize)]
pub struct CompanyView {
    pub id: &'static str,
    pub track: String,
    pub share_value: u8,
    /// Posts on each base column, front (nearest the map) first.
    pub base: Vec<Vec<bool>>,
    /// Regions held (1-based).
    pub regions: Vec<u8>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SeatView {
    pub pounds: u16,
    /// The cards in hand, for their owner (and everyone after the game).
    pub hand: Option<Vec<String>>,
    pub hand_size: u32,
    pub piles: Vec<Vec<String>>,
    /// Each open slot: empty, `hidden` (planned, not yet revealed), or the card and whether
    /// it is still face up.
    pub slots: Vec<SlotView>,
    pub tiles: Vec<String>,
    pub diamond: u8,
    pub ink: u8,
    pub books: Vec<(String, bool)>,
    pub track: [u8; 4],
    pub shares: [u32; 4],
    pub markers_left: u8,
    pub ready: bool,
    pub ended: bool,
    pub dealt: Option<Vec<String>>,
    pub start: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SlotView {
    Empty,
    Hidden,
    Card { card: String, face_up: bool },
}

fn cards(mask: u128) -> Vec<String> {
    bits(mask)
        .map(|id| card_code(CardId(id).as_ref()))
        .collect()
}

impl State {
    pub fn view(&self, viewer: Viewer) -> View {
        let c = self.data();
        let over = self.phase == Phase::Over;
        let secret_plans = matches!(self.phase, Phase::Planning | Phase::Reveal);
        let secret_starts = matches!(
            self.phase,
            Phase::Setup | Phase::StartDeal | Phase::StartKeep | Phase::StartReveal
        );
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let own = over || viewer == Viewer::Seat(Seat(i as u8));
                let slots = p
                    .slots
                    .iter()
                    .take(p.open_slots(self.data()))
                    .enumerate()
                    .map(|(k, &s)| match s {
                        NONE => SlotView::Empty,
                        _ if secret_plans && !own => SlotView::Hidden,
                        _ => SlotView::Card {
                            card: card_code(CardId(s).as_ref()),
                            face_up: p.face_up & (1 << k) != 0,
                        },
                    })
                    .collect();
                SeatView {
                    pounds: p.pounds,
                    hand: own.then(|| cards(p.hand)),
                    hand_size: p.hand.count_ones(),
                    piles: p
                        .piles
                        .iter()
                        .take(p.open_slots(self.data()))
                        .map(|&m| cards(m))
                        .collect(),
                    slots,
                    tiles: c
                        .bonus_tiles
                        .iter()
                        .enumerate()
                        .filter(|(t, _)| p.tiles & (1 << t) != 0)
                        .map(|(_, t)| t.code.clone())
                        .collect(),
                    diamond: p.diamond,
                    ink: p.ink,
                    books: p
                        .books
                        .iter()
                        .enumerate()
                        .map(|(k, &b)| (book_code(b), p.flipped & (1 << k) != 0))
                        .collect(),
                    track: p.track,
                    shares: Company::ALL.map(|co| self.shares(i as u8, co)),
                    markers_left: p.markers_left(),
                    ready: p.ready,
                    ended: p.ended,
                    dealt: (own && p.dealt[0] != NONE)
                        .then(|| p.dealt.iter().map(|&t| tile_code(t)).collect()),
                    start: (p.start != NONE && (own || !secret_starts)).then(|| tile_code(p.start)),
                }
            })
            .collect();
        View {
            round: self.round,
            phase: crate::phase_name(self.phase),
            first: self.first,
            turn: (self.phase == Phase::Actions).then_some(self.turn),
            stage: format!("{:?}", self.stage),
            display: (0..12u8)
                .map(|i| {
                    let id = self.display[usize::from(i)];
                    (
                        DisplayPos(i).code(),
                        (id != NONE).then(|| card_code(CardId(id).as_ref())),
                    )
                })
                .collect(),
            deck: c.letter_mask.map(|m| (m & self.deck).count_ones()),
            discard: self.discard.count_ones(),
            book_display: (0..12u8)
                .map(|i| {
                    let b = self.book_display[usize::from(i)];
                    BookSpaceView {
                        space: crate::ids::BookSpace(i).code(),
                        book: (b != NONE).then(|| book_code(b)),
                        coins: self.book_coins[usize::from(i)],
                    }
                })
                .collect(),
            book_supply: c
                .book_letter_mask
                .map(|m| (m & self.book_supply).count_ones()),
            round_coins: self.round_coins,
            companies: Company::ALL
                .iter()
                .map(|&co| CompanyView {
                    id: co.slug(),
                    track: c
                        .sides
                        .get(usize::from(self.sides[co.index()]))
                        .map_or_else(String::new, |s| s.name.clone()),
                    share_value: self.share_value(co),
                    base: self.bases[co.index()]
                        .iter()
                        .map(|&col| (0..5).map(|i| col & (1 << i) != 0).collect())
                        .collect(),
                    regions: self.regions_of(co).map(|r| r as u8 + 1).collect(),
                })
                .collect(),
            bonus: c
                .bonus
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    let s = self.bonus[i];
                    (b.code.clone(), (s != NONE).then_some(s))
                })
                .collect(),
            seats,
        }
    }
}
