//! Chance at the table: the setup deal (card display from the letter-ordered deck, the book
//! display, track sides with the track cards), start tiles, and the preparation phase's
//! refills. Deck and supply orders are never stored: each outcome names the cards drawn, and
//! the check proves they could come off the deck (A on top ... E at the bottom).

use crate::data::{Components, START_TILES};
use crate::error::Rule;
use crate::ids::{BookSpace, DisplayPos, NONE, OWN_CARDS};
use crate::moves::Chance;
use crate::state::{Phase, Rules, State};
use arrayvec::ArrayVec;
use rules_core::ChanceRng;

/// Deck cards of the top letter still in `deck`.
fn top_letter(c: &Components, deck: u64) -> u64 {
    c.letter_mask
        .iter()
        .map(|m| m & deck)
        .find(|&m| m != 0)
        .unwrap_or(0)
}

/// Removes `cards` from `deck` in order, each from the top letter; `None` if one cannot be.
fn draw_cards(c: &Components, mut deck: u64, cards: &[u8]) -> Option<u64> {
    for &card in cards {
        let bit = 1u64.checked_shl(u32::from(card))?;
        if top_letter(c, deck) & bit == 0 {
            return None;
        }
        deck &= !bit;
    }
    Some(deck)
}

fn nth_bit(mask: u128, n: u32) -> u8 {
    crate::ids::bits(mask).nth(n as usize).unwrap_or(0)
}

fn sample_cards(
    c: &Components,
    mut deck: u64,
    n: usize,
    rng: &mut dyn ChanceRng,
) -> ArrayVec<u8, 12> {
    let mut out = ArrayVec::new();
    for _ in 0..n.min(12) {
        let top = top_letter(c, deck);
        if top == 0 {
            break;
        }
        let c = nth_bit(u128::from(top), rng.below(top.count_ones()));
        deck &= !(1 << c);
        out.push(c);
    }
    out
}

/// Books for the empty book spaces, in space order, from `supply`.
fn sample_books(s: &State, rng: &mut dyn ChanceRng) -> ArrayVec<u8, 12> {
    let c = s.data();
    let mut supply = s.book_supply;
    let mut out = ArrayVec::new();
    for (i, &b) in s.book_display.iter().enumerate() {
        if b != NONE {
            continue;
        }
        let letter = c.book_letter_mask[usize::from(c.book_space_letter[i])] & supply;
        if letter != 0 {
            let k = nth_bit(letter, rng.below(letter.count_ones()));
            supply &= !(1 << k);
            out.push(k);
        }
    }
    out
}

/// Checks `books` fill the empty book spaces in order; returns the supply left.
fn check_books(s: &State, books: &[u8]) -> Option<u128> {
    let c = s.data();
    let mut supply = s.book_supply;
    let mut it = books.iter();
    for (i, &b) in s.book_display.iter().enumerate() {
        if b != NONE {
            continue;
        }
        let letter = c.book_letter_mask[usize::from(c.book_space_letter[i])] & supply;
        if letter != 0 {
            let k = *it.next()?;
            let bit = 1u128.checked_shl(u32::from(k))?;
            if letter & bit == 0 {
                return None;
            }
            supply &= !bit;
        }
    }
    it.next().is_none().then_some(supply)
}

fn place_books(s: &mut State, books: &[u8]) {
    let c = s.data();
    let mut it = books.iter();
    for i in 0..s.book_display.len() {
        if s.book_display[i] != NONE {
            continue;
        }
        let letter = c.book_letter_mask[usize::from(c.book_space_letter[i])] & s.book_supply;
        if letter != 0 {
            if let Some(&k) = it.next() {
                s.book_display[i] = k;
                s.book_supply &= !(1 << k);
            }
        }
    }
}

/// Empty display spaces in fill order.
fn empty_spaces(s: &State) -> impl Iterator<Item = usize> + '_ {
    DisplayPos::FILL_ORDER
        .iter()
        .map(|&p| usize::from(p))
        .filter(|&p| s.display[p] == NONE)
}

impl State {
    /// Whether the setup deal draws the first player: rules 2 without the `first_player`
    /// option (a table game names its own).
    pub(crate) fn first_is_drawn(&self) -> bool {
        self.rules >= Rules::V2 && self.options.first_player.is_none()
    }

    /// The books of the supply that can replace the one taken from book display space
    /// `space`: those of the space's letter ("the same pile").
    pub(crate) fn refill_supply(&self, space: u8) -> u128 {
        let c = self.data();
        c.book_space_letter
            .get(usize::from(space))
            .and_then(|&l| c.book_letter_mask.get(usize::from(l)))
            .map_or(0, |m| m & self.book_supply)
    }

    /// Samples the outcome the state waits on.
    pub(crate) fn sample(&self, rng: &mut dyn ChanceRng) -> Option<Chance> {
        match self.phase {
            Phase::Setup => {
                let display = sample_cards(self.data(), self.deck, 12, rng);
                let books = sample_books(self, rng);
                let sides = self.options.track_cards.then(|| {
                    let mut pieces = [0u8, 1, 2, 3];
                    rules_core::dealer::shuffle(&mut pieces, rng);
                    let mut out = [0u8; 4];
                    for (o, p) in out.iter_mut().zip(pieces) {
                        *o = p * 2 + rng.below(2) as u8;
                    }
                    out
                });
                let first = self
                    .first_is_drawn()
                    .then(|| rng.below(u32::from(self.players)) as u8);
                Some(Chance::Setup {
                    display,
                    books,
                    sides,
                    first,
                })
            }
            Phase::StartDeal => {
                let seat = self.seats.iter().position(|p| p.dealt[0] == NONE)? as u8;
                let dealt: Vec<u8> = self.seats.iter().flat_map(|p| p.dealt).collect();
                let mut free: ArrayVec<u8, START_TILES> = (0..START_TILES as u8)
                    .filter(|t| !dealt.contains(t))
                    .collect();
                rules_core::dealer::shuffle(&mut free, rng);
                Some(Chance::StartTiles {
                    seat,
                    tiles: [*free.first()?, *free.get(1)?],
                })
            }
            Phase::StartReveal | Phase::Reveal => self.reveal_due(),
            Phase::Actions if self.book_refill != NONE => {
                let supply = self.refill_supply(self.book_refill);
                (supply != 0).then(|| Chance::Book {
                    space: BookSpace(self.book_refill),
                    book: nth_bit(supply, rng.below(supply.count_ones())),
                })
            }
            Phase::Prep => Some(Chance::Draw {
                cards: sample_cards(self.data(), self.deck, empty_spaces(self).count(), rng),
                books: sample_books(self, rng),
            }),
            _ => None,
        }
    }

    /// The single legality predicate for chance outcomes.
    pub(crate) fn check_chance(&self, ch: &Chance) -> Result<(), Rule> {
        match (self.phase, ch) {
            (
                Phase::Setup,
                Chance::Setup {
                    display,
                    books,
                    sides,
                    first,
                },
            ) => {
                if display.len() != 12 || draw_cards(self.data(), self.deck, display).is_none() {
                    return Err(Rule::DealDisplay);
                }
                match first {
                    None if !self.first_is_drawn() => {}
                    Some(f) if self.first_is_drawn() && *f < self.players => {}
                    _ => return Err(Rule::DealFirst),
                }
                if check_books(self, books).is_none() {
                    return Err(Rule::DealBooks);
                }
                match (self.options.track_cards, sides) {
                    (false, None) => Ok(()),
                    (true, Some(sd)) => {
                        let mut seen = 0u8;
                        for &x in sd {
                            if x >= 8 || seen & (1 << (x / 2)) != 0 {
                                return Err(Rule::DealSides);
                            }
                            seen |= 1 << (x / 2);
                        }
                        Ok(())
                    }
                    _ => Err(Rule::DealSides),
                }
            }
            (Phase::StartDeal, Chance::StartTiles { seat, tiles }) => {
                let next = self.seats.iter().position(|p| p.dealt[0] == NONE);
                let taken = self
                    .seats
                    .iter()
                    .any(|p| p.dealt.iter().any(|d| tiles.contains(d)));
                if next != Some(usize::from(*seat))
                    || taken
                    || tiles[0] == tiles[1]
                    || tiles.iter().any(|&t| usize::from(t) >= START_TILES)
                {
                    return Err(Rule::DealStartTiles);
                }
                Ok(())
            }
            (Phase::StartReveal, Chance::Starts(_)) | (Phase::Reveal, Chance::Reveal(_)) => {
                if self.reveal_due().as_ref() == Some(ch) {
                    Ok(())
                } else {
                    Err(Rule::BadReveal)
                }
            }
            (Phase::Actions, Chance::Book { space, book }) if self.book_refill != NONE => {
                let bit = 1u128.checked_shl(u32::from(*book)).unwrap_or(0);
                if space.0 == self.book_refill && self.refill_supply(space.0) & bit != 0 {
                    Ok(())
                } else {
                    Err(Rule::BadDraw)
                }
            }
            (Phase::Prep, Chance::Draw { cards, books }) => {
                let need = empty_spaces(self)
                    .count()
                    .min(self.deck.count_ones() as usize);
                if cards.len() != need || draw_cards(self.data(), self.deck, cards).is_none() {
                    return Err(Rule::BadDraw);
                }
                check_books(self, books).map(|_| ()).ok_or(Rule::BadDraw)
            }
            _ => Err(Rule::WrongChance),
        }
    }

    /// Applies a checked outcome.
    pub(crate) fn apply_chance(&mut self, ch: &Chance) {
        match ch {
            Chance::Setup {
                display,
                books,
                sides,
                first,
            } => {
                // Step 13 (rules 2): the first player, from the option or the deal; rules 1
                // always started with seat 0.
                let f = self.options.first_player.or(*first).unwrap_or(0);
                self.first = f;
                self.setup_first = f;
                for (&pos, &card) in DisplayPos::FILL_ORDER.iter().zip(display) {
                    self.display[usize::from(pos)] = card;
                    self.deck &= !(1 << card);
                }
                place_books(self, books);
                if let Some(sd) = sides {
                    self.sides = *sd;
                }
                for seat in 0..self.players {
                    let own = ((1u128 << OWN_CARDS) - 1) << (44 + u32::from(seat) * 10);
                    self.seats[usize::from(seat)].hand = own;
                }
                if self.options.first_game {
                    let c = self.data();
                    for seat in 0..self.players {
                        // Step 17 hands the tiles out clockwise from the first player.
                        let place = self.setup_place(seat);
                        let t = c
                            .start_tiles
                            .iter()
                            .position(|t| t.first_game_seat == Some(place))
                            .unwrap_or(0);
                        self.seats[usize::from(seat)].start = t as u8;
                        self.apply_start_tile(seat);
                    }
                    self.start_round(1);
                } else {
                    self.phase = Phase::StartDeal;
                }
            }
            Chance::StartTiles { seat, tiles } => {
                if let Some(p) = self.seats.get_mut(usize::from(*seat)) {
                    p.dealt = *tiles;
                }
                if self.seats.iter().all(|p| p.dealt[0] != NONE) {
                    self.phase = Phase::StartKeep;
                }
            }
            Chance::Starts(_) | Chance::Reveal(_) => self.apply_reveal(),
            Chance::Book { space, book } => {
                let i = usize::from(space.0);
                if let Some(slot) = self.book_display.get_mut(i) {
                    *slot = *book;
                    self.book_supply &= !(1u128 << book);
                }
                self.book_refill = NONE;
            }
            Chance::Draw { cards, books } => {
                let spaces: ArrayVec<usize, 12> = empty_spaces(self).collect();
                for (&pos, &card) in spaces.iter().zip(cards) {
                    self.display[pos] = card;
                    self.deck &= !(1 << card);
                }
                place_books(self, books);
                self.end_prep();
            }
        }
    }
}
