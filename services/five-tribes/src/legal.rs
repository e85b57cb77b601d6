//! Move generation: every candidate a position could allow, kept when `check` accepts it.
//! Legality is therefore one predicate (`State::check`) used by both `play` and
//! `legal_moves`, which is what makes "listed ⇔ accepted" hold by construction; the property
//! tests check it anyway.
//!
//! # Capacity
//! The largest lists come from the free step of a turn: 511 sales (every non-empty set of 9
//! goods), Anun-Nak/Leta/Utug ≤ 30 tiles × 2 payments each, Bouraq ≤ 5 villages × 2 payments
//! × (1 + 8 redirects × 2 payments), Enki ≤ 6 × 2 × 17, Sibittis 2, Sloar 1, end 1: at most
//! 511 + 180 + 170 + 204 + 4 = 1069. Assassins: ≤ 30 tiles × (5 + 15 × 2) + 3 seats × (2 +
//! 3 × 2) = 1074. Hence a stack list of 2048.

use crate::ids::{Colour, Djinn, Tile, TileType};
use crate::moves::{DjinnUse, Goods, Move, Pay, Redirect, Target};
use crate::state::{Phase, Stage, State, BID_SPOTS};
use arrayvec::ArrayVec;

pub const MAX_MOVES: usize = 2048;
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

const SINGLE: [Pay; 2] = [Pay::Elder, Pay::Fakir];
const DOUBLE: [Pay; 2] = [Pay::TwoElders, Pay::ElderFakir];

impl State {
    /// Every legal move of the seat to act.
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        let seat = match self.to_act() {
            rules_core::ToAct::Seat(s) => s.0,
            _ => return,
        };
        // Pushes `m` when `check` accepts it; says whether it did.
        let mut push = |s: &State, m: Move| {
            let ok = s.check(seat, &m).is_ok();
            if ok {
                out.push(m);
            }
            ok
        };
        match &self.phase {
            Phase::Bid => {
                for spot in 0..BID_SPOTS as u8 {
                    for kumarbi in 0..=self.kumarbi_max(seat).min(spot.saturating_sub(2)) {
                        push(self, Move::Bid { spot, kumarbi });
                    }
                }
            }
            Phase::Turn { stage, .. } => match stage {
                Stage::Start => {
                    let mut picks = false;
                    for t in Tile::all() {
                        picks |= push(self, Move::Pick(t));
                    }
                    // Under rules 2 a legal pick means no sale yet: skip the 511 candidate
                    // sets rather than search for a move once per set to refuse it.
                    let sales = self.rules < crate::state::Rules::V2 || !picks;
                    self.free_moves(seat, sales, &mut push);
                }
                Stage::Free => self.free_moves(seat, true, &mut push),
                Stage::Moving { at, hand, .. } => {
                    for to in Tile::all().filter(|t| crate::board::neighbours(*at) & t.bit() != 0) {
                        for colour in State::colours_in(*hand) {
                            push(self, Move::Drop { to, colour });
                        }
                    }
                }
                Stage::Builders { .. } => {
                    for fakirs in 0..=self.player(seat).fakirs() {
                        push(
                            self,
                            Move::Build {
                                fakirs,
                                echidna: None,
                            },
                        );
                        for pay in DOUBLE {
                            push(
                                self,
                                Move::Build {
                                    fakirs,
                                    echidna: Some(pay),
                                },
                            );
                        }
                    }
                }
                Stage::Assassins { .. } => {
                    push(self, Move::NoKill);
                    for tile in Tile::all() {
                        for (i, &first) in Colour::ALL.iter().enumerate() {
                            push(
                                self,
                                Move::Kill {
                                    target: Target::Tile {
                                        tile,
                                        first,
                                        second: None,
                                    },
                                    iblis: None,
                                },
                            );
                            for &second in &Colour::ALL[i..] {
                                for pay in SINGLE {
                                    push(
                                        self,
                                        Move::Kill {
                                            target: Target::Tile {
                                                tile,
                                                first,
                                                second: Some(second),
                                            },
                                            iblis: Some(pay),
                                        },
                                    );
                                }
                            }
                        }
                    }
                    for victim in 0..self.players {
                        for (first, seconds) in [
                            (Colour::Yellow, &[Colour::Yellow, Colour::White][..]),
                            (Colour::White, &[Colour::White][..]),
                        ] {
                            let target = Target::Seat {
                                seat: victim,
                                first,
                                second: None,
                            };
                            push(
                                self,
                                Move::Kill {
                                    target,
                                    iblis: None,
                                },
                            );
                            for &second in seconds {
                                for pay in SINGLE {
                                    let target = Target::Seat {
                                        seat: victim,
                                        first,
                                        second: Some(second),
                                    };
                                    push(
                                        self,
                                        Move::Kill {
                                            target,
                                            iblis: Some(pay),
                                        },
                                    );
                                }
                            }
                        }
                    }
                }
                Stage::TileAction { tile } => {
                    push(self, Move::Skip);
                    match self.board.kind_of(*tile).tile_type {
                        TileType::Oasis => {
                            for r in Self::placements(*tile, true) {
                                push(self, Move::Palm(r));
                            }
                        }
                        TileType::Village => {
                            for r in Self::placements(*tile, true) {
                                push(self, Move::Palace(r));
                            }
                        }
                        TileType::SmallMarket | TileType::LargeMarket => {
                            for first in 0..self.row.len().min(6) as u8 {
                                push(
                                    self,
                                    Move::Buy {
                                        first,
                                        second: None,
                                    },
                                );
                                for second in first + 1..self.row.len().min(6) as u8 {
                                    push(
                                        self,
                                        Move::Buy {
                                            first,
                                            second: Some(second),
                                        },
                                    );
                                }
                            }
                        }
                        TileType::SacredPlace => {
                            for &djinn in &self.djinn_row {
                                for pay in DOUBLE {
                                    push(self, Move::TakeDjinn { djinn, pay });
                                }
                            }
                        }
                    }
                }
                Stage::Sibittis { drawn, .. } => {
                    for &d in drawn {
                        push(self, Move::Keep(d));
                    }
                }
            },
            _ => {}
        }
    }

    /// Where a palace or palm tree placed at `origin` may go: there (`None`), or redirected by
    /// Hagis/Lamia when `redirect` (the djinn is ready).
    fn placements(origin: Tile, redirect: bool) -> impl Iterator<Item = Option<Redirect>> {
        let around = redirect.then(|| Self::redirects(origin));
        std::iter::once(None).chain(around.into_iter().flatten().map(Some))
    }

    /// Hagis/Lamia targets around `origin`, with either payment.
    fn redirects(origin: Tile) -> impl Iterator<Item = Redirect> {
        let around = crate::board::block3x3(origin) & !origin.bit();
        Tile::all()
            .filter(move |t| around & t.bit() != 0)
            .flat_map(|at| SINGLE.into_iter().map(move |pay| Redirect { at, pay }))
    }

    /// Djinn powers, sales (when `sales`) and ending the turn.
    fn free_moves(&self, seat: u8, sales: bool, push: &mut impl FnMut(&State, Move) -> bool) {
        let p = self.player(seat);
        let owns = |d: Djinn| p.djinns.has(d) && !self.djinns_used.has(d);
        if owns(Djinn::AnunNak) || owns(Djinn::Leta) || owns(Djinn::Utug) {
            for tile in Tile::all() {
                for pay in SINGLE {
                    if owns(Djinn::AnunNak) {
                        push(self, Move::Use(DjinnUse::AnunNak { tile, pay }));
                    }
                }
                for pay in DOUBLE {
                    if owns(Djinn::Leta) {
                        push(self, Move::Use(DjinnUse::Leta { tile, pay }));
                    }
                    if owns(Djinn::Utug) {
                        push(self, Move::Use(DjinnUse::Utug { tile, pay }));
                    }
                }
            }
        }
        if owns(Djinn::Bouraq) || owns(Djinn::Enki) {
            for tile in Tile::all() {
                let t = self.board.kind_of(tile).tile_type;
                for pay in SINGLE {
                    if t == TileType::Village && owns(Djinn::Bouraq) {
                        for hagis in Self::placements(tile, owns(Djinn::Hagis)) {
                            push(
                                self,
                                Move::Use(DjinnUse::Bouraq {
                                    village: tile,
                                    pay,
                                    hagis,
                                }),
                            );
                        }
                    }
                    if t == TileType::Oasis && owns(Djinn::Enki) {
                        for lamia in Self::placements(tile, owns(Djinn::Lamia)) {
                            push(
                                self,
                                Move::Use(DjinnUse::Enki {
                                    oasis: tile,
                                    pay,
                                    lamia,
                                }),
                            );
                        }
                    }
                }
            }
        }
        for pay in DOUBLE {
            push(self, Move::Use(DjinnUse::Sibittis { pay }));
        }
        push(self, Move::Use(DjinnUse::Sloar));
        let held: u16 = (0..9)
            .filter(|&i| p.cards[i] > 0)
            .fold(0, |m, i| m | (1 << i));
        // Every non-empty subset of the goods held.
        let mut sub = if sales { held } else { 0 };
        while sub != 0 {
            push(self, Move::Sell(Goods(sub)));
            sub = (sub - 1) & held;
        }
        push(self, Move::End);
    }
}
