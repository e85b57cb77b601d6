//! Chance: the initial deal, the clean-up refill, and the draws djinns cause — how the dealer
//! samples them, and how an outcome (dealt or typed in from a real table) is checked against
//! what the table could produce before it is applied.

use crate::board::TILES;
use crate::data::components;
use crate::error::Rule;
use crate::ids::{Colour, Djinn, DjinnSet, Res, Tile};
use crate::moves::{Chance, Deal, ORDER_CAP};
use crate::state::{Board, Draw, Phase, Player, Stage, State, MAX_PLAYERS};
use arrayvec::ArrayVec;
use rules_core::dealer::{shuffle, ChanceRng};

/// What the table must supply now, if anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    Deal,
    Refill { cards: u8, djinns: u8 },
    Draw(Draw),
}

impl std::fmt::Display for Need {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Need::Deal => f.write_str("the deal"),
            Need::Refill { cards, djinns } => {
                write!(f, "the clean-up: {cards} card(s), {djinns} djinn(s)")
            }
            Need::Draw(Draw::Cards(n)) => write!(f, "{n} resource card(s)"),
            Need::Draw(Draw::Djinns(n)) => write!(f, "{n} djinn(s)"),
            Need::Draw(Draw::Meeples(n, t)) => write!(f, "{n} meeple(s) from the bag for {t}"),
        }
    }
}

fn full_deck() -> [u8; Res::COUNT] {
    let mut d = [0u8; Res::COUNT];
    for (i, &n) in components().card_counts.iter().enumerate().take(Res::COUNT) {
        d[i] = n;
    }
    d
}

/// One card, uniformly from the pile (reshuffling the discards in when it is empty).
fn sample_card(
    deck: &mut [u8; Res::COUNT],
    discard: &mut [u8; Res::COUNT],
    rng: &mut dyn ChanceRng,
) -> Option<Res> {
    if deck.iter().all(|&n| n == 0) {
        *deck = *discard;
        *discard = [0; Res::COUNT];
    }
    let total: u32 = deck.iter().map(|&n| u32::from(n)).sum();
    if total == 0 {
        return None;
    }
    let mut k = rng.below(total);
    for (i, n) in deck.iter_mut().enumerate() {
        if k < u32::from(*n) {
            *n -= 1;
            return Some(Res(i as u8));
        }
        k -= u32::from(*n);
    }
    None
}

fn sample_djinn(
    deck: &mut DjinnSet,
    discard: &mut DjinnSet,
    rng: &mut dyn ChanceRng,
) -> Option<Djinn> {
    if deck.is_empty() {
        *deck = *discard;
        *discard = DjinnSet::default();
    }
    let k = rng.below(deck.len()) as usize;
    let d = deck.iter().nth(k)?;
    deck.remove(d);
    Some(d)
}

fn draw_djinns(deck: &mut DjinnSet, discard: &mut DjinnSet, djinns: &[Djinn]) -> Option<()> {
    for &d in djinns {
        if deck.is_empty() {
            *deck = *discard;
            *discard = DjinnSet::default();
        }
        if !deck.has(d) {
            return None;
        }
        deck.remove(d);
    }
    Some(())
}

impl State {
    /// The chance outcome the game waits on.
    pub fn need(&self) -> Option<Need> {
        match &self.phase {
            Phase::Deal => Some(Need::Deal),
            Phase::Refill => {
                let (cards, djinns) = self.refill_counts();
                Some(Need::Refill { cards, djinns })
            }
            _ => self.pending.map(Need::Draw),
        }
    }

    /// Cards and djinns the clean-up draws: up to the row sizes, as far as piles allow (Ruling 7).
    pub(crate) fn refill_counts(&self) -> (u8, u8) {
        let c = components();
        let cards = (c.row_size.saturating_sub(self.row.len()) as u32)
            .min(self.deck_size() + self.discard_size());
        let djinns = (c.djinn_row.saturating_sub(self.djinn_row.len()) as u32)
            .min(self.djinn_deck.len() + self.djinn_discard.len());
        (cards as u8, djinns as u8)
    }

    pub(crate) fn sample(&self, rng: &mut dyn ChanceRng) -> Option<Chance> {
        let c = components();
        let mut deck = self.deck;
        let mut discard = self.discard;
        let mut djinn_deck = self.djinn_deck;
        let mut djinn_discard = self.djinn_discard;
        match self.need()? {
            Need::Deal => {
                let mut layout: [u8; TILES] = [0; TILES];
                let mut kinds = c.tiles.clone();
                shuffle(&mut kinds, rng);
                layout.copy_from_slice(&kinds[..TILES]);
                let mut bag: Vec<Colour> = Vec::with_capacity(90);
                for (i, &n) in c.meeple_counts.iter().enumerate() {
                    bag.extend(std::iter::repeat_n(Colour::ALL[i], usize::from(n)));
                }
                shuffle(&mut bag, rng);
                let mut meeples = [[Colour::Yellow; 3]; TILES];
                for (t, chunk) in bag.chunks_exact(3).enumerate().take(TILES) {
                    // A tile's three in tribe order, the notation's canonical order: the same
                    // position as the order drawn (a tile holds counts), one text for it.
                    meeples[t] = [chunk[0], chunk[1], chunk[2]];
                    meeples[t].sort_unstable();
                }
                let mut bid_order: ArrayVec<u8, ORDER_CAP> = ArrayVec::new();
                for seat in 0..self.players {
                    for _ in 0..c.markers[usize::from(self.players)] {
                        bid_order.push(seat);
                    }
                }
                shuffle(&mut bid_order, rng);
                let mut deck = full_deck();
                let mut none = [0; Res::COUNT];
                let cards = (0..c.row_size)
                    .filter_map(|_| sample_card(&mut deck, &mut none, rng))
                    .collect();
                let mut all = DjinnSet::ALL;
                let mut none = DjinnSet::default();
                let djinns = (0..c.djinn_row)
                    .filter_map(|_| sample_djinn(&mut all, &mut none, rng))
                    .collect();
                Some(Chance::Deal(Box::new(Deal {
                    layout,
                    meeples,
                    bid_order,
                    cards,
                    djinns,
                })))
            }
            Need::Refill { cards, djinns } => Some(Chance::Refill {
                cards: (0..cards)
                    .filter_map(|_| sample_card(&mut deck, &mut discard, rng))
                    .collect(),
                djinns: (0..djinns)
                    .filter_map(|_| sample_djinn(&mut djinn_deck, &mut djinn_discard, rng))
                    .collect(),
            }),
            Need::Draw(Draw::Cards(n)) => Some(Chance::Cards(
                (0..n)
                    .filter_map(|_| sample_card(&mut deck, &mut discard, rng))
                    .collect(),
            )),
            Need::Draw(Draw::Djinns(n)) => Some(Chance::Djinns(
                (0..n)
                    .filter_map(|_| sample_djinn(&mut djinn_deck, &mut djinn_discard, rng))
                    .collect(),
            )),
            Need::Draw(Draw::Meeples(n, _)) => {
                let mut bag = self.bag;
                let mut out = ArrayVec::new();
                for _ in 0..n {
                    let total: u32 = bag.iter().map(|&x| u32::from(x)).sum();
                    let mut k = rng.below(total);
                    for (i, b) in bag.iter_mut().enumerate() {
                        if k < u32::from(*b) {
                            *b -= 1;
                            out.push(Colour::ALL[i]);
                            break;
                        }
                        k -= u32::from(*b);
                    }
                }
                // In tribe order, the notation's canonical order (a bag has none).
                out.sort_unstable();
                Some(Chance::Meeples(out))
            }
        }
    }

    pub(crate) fn check_chance(&self, ch: &Chance) -> Result<(), Rule> {
        let need = self.need().ok_or(Rule::WrongChance)?;
        match (need, ch) {
            (Need::Deal, Chance::Deal(d)) => check_deal(self.players, d),
            (
                Need::Refill { cards, djinns },
                Chance::Refill {
                    cards: cs,
                    djinns: ds,
                },
            ) => {
                if cs.len() != usize::from(cards) || ds.len() != usize::from(djinns) {
                    return Err(Rule::BadDraw);
                }
                let (mut deck, mut discard) = (self.deck, self.discard);
                State::draw_cards(&mut deck, &mut discard, cs).ok_or(Rule::BadDraw)?;
                let (mut dd, mut dx) = (self.djinn_deck, self.djinn_discard);
                draw_djinns(&mut dd, &mut dx, ds).ok_or(Rule::BadDraw)
            }
            (Need::Draw(Draw::Cards(n)), Chance::Cards(cs)) => {
                if cs.len() != usize::from(n) {
                    return Err(Rule::BadDraw);
                }
                let (mut deck, mut discard) = (self.deck, self.discard);
                State::draw_cards(&mut deck, &mut discard, cs).ok_or(Rule::BadDraw)
            }
            (Need::Draw(Draw::Djinns(n)), Chance::Djinns(ds)) => {
                if ds.len() != usize::from(n) {
                    return Err(Rule::BadDraw);
                }
                let (mut dd, mut dx) = (self.djinn_deck, self.djinn_discard);
                draw_djinns(&mut dd, &mut dx, ds).ok_or(Rule::BadDraw)
            }
            (Need::Draw(Draw::Meeples(n, _)), Chance::Meeples(ms)) => {
                if ms.len() != usize::from(n) {
                    return Err(Rule::BadDraw);
                }
                let mut bag = self.bag;
                for m in ms {
                    let slot = &mut bag[*m as usize];
                    *slot = slot.checked_sub(1).ok_or(Rule::BadDraw)?;
                }
                Ok(())
            }
            _ => Err(Rule::WrongChance),
        }
    }

    /// Applies a checked outcome.
    pub(crate) fn apply_chance(&mut self, ch: &Chance) {
        match ch {
            Chance::Deal(d) => self.apply_deal(d),
            Chance::Refill { cards, djinns } => {
                let _ = State::draw_cards(&mut self.deck, &mut self.discard, cards);
                let _ = draw_djinns(&mut self.djinn_deck, &mut self.djinn_discard, djinns);
                self.row.extend(cards.iter().copied());
                self.djinn_row.extend(djinns.iter().copied());
                self.start_round();
            }
            Chance::Cards(cs) => {
                let _ = State::draw_cards(&mut self.deck, &mut self.discard, cs);
                if let Phase::Turn { seat, .. } = self.phase {
                    for c in cs {
                        self.player_mut(seat).cards[usize::from(c.0)] += 1;
                    }
                }
                self.pending = None;
            }
            Chance::Djinns(ds) => {
                let _ = draw_djinns(&mut self.djinn_deck, &mut self.djinn_discard, ds);
                if let Phase::Turn {
                    stage: Stage::Sibittis { drawn, .. },
                    ..
                } = &mut self.phase
                {
                    drawn.clear();
                    drawn.extend(ds.iter().copied());
                }
                self.pending = None;
            }
            Chance::Meeples(ms) => {
                if let Some(Draw::Meeples(_, tile)) = self.pending {
                    for m in ms {
                        self.bag[*m as usize] -= 1;
                        self.board.add(tile, *m, 1);
                    }
                }
                self.pending = None;
            }
        }
    }

    fn apply_deal(&mut self, d: &Deal) {
        let c = components();
        let mut board = Board::new(d.layout);
        for (t, three) in Tile::all().zip(&d.meeples) {
            for m in three {
                board.add(t, *m, 1);
            }
        }
        self.board = board;
        self.bag = [0; 5];
        let n = usize::from(self.players);
        self.seats = (0..n)
            .map(|_| Player {
                gold: c.start_gold,
                camels: c.camels[n],
                ..Player::default()
            })
            .collect();
        // Checked: as many markers as the player count makes, at most `MAX_PLAYERS`.
        self.bid_order = d.bid_order.iter().copied().take(MAX_PLAYERS).collect();
        self.deck = full_deck();
        let mut none = [0; Res::COUNT];
        let _ = State::draw_cards(&mut self.deck, &mut none, &d.cards);
        self.row = d.cards.clone();
        self.djinn_deck = DjinnSet::ALL;
        for dj in &d.djinns {
            self.djinn_deck.remove(*dj);
        }
        self.djinn_row = d.djinns.clone();
        self.start_round();
    }
}

fn check_deal(players: u8, d: &Deal) -> Result<(), Rule> {
    let c = components();
    let mut kinds = vec![0u8; c.kinds.len()];
    for &k in &d.layout {
        *kinds.get_mut(usize::from(k)).ok_or(Rule::DealTiles)? += 1;
    }
    if kinds.iter().zip(&c.kinds).any(|(&n, k)| n != k.count) {
        return Err(Rule::DealTiles);
    }
    let mut colours = [0u8; 5];
    for m in d.meeples.iter().flatten() {
        colours[*m as usize] += 1;
    }
    if colours != c.meeple_counts {
        return Err(Rule::DealMeeples);
    }
    let markers = c.markers[usize::from(players)];
    if d.bid_order.len() != usize::from(players * markers)
        || (0..players)
            .any(|s| d.bid_order.iter().filter(|&&x| x == s).count() != usize::from(markers))
    {
        return Err(Rule::DealOrder);
    }
    if d.cards.len() != c.row_size {
        return Err(Rule::DealCards);
    }
    if d.djinns.len() != c.djinn_row {
        return Err(Rule::DealDjinns);
    }
    let mut deck = full_deck();
    let mut none = [0; Res::COUNT];
    State::draw_cards(&mut deck, &mut none, &d.cards).ok_or(Rule::DealCards)?;
    let mut all = DjinnSet::ALL;
    let mut nodj = DjinnSet::default();
    draw_djinns(&mut all, &mut nodj, &d.djinns).ok_or(Rule::DealDjinns)?;
    Ok(())
}
