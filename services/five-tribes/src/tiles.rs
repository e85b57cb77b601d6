//! Tile actions, taken on the tile where the move ended whether or not it was controlled:
//! Village (palace, compulsory), Oasis (palm tree, compulsory), Small Market (3 gold: 1 of the
//! first 3 cards), Large Market (6 gold: 2 of the first 6), Sacred Place (2 Elders or
//! Elder + Fakir: a djinn).

use crate::djinns::Cost;
use crate::error::Rule;
use crate::ids::{Djinn, Tile, TileType};
use crate::moves::{Move, Pay};
use crate::state::{Phase, Stage, State};

impl State {
    fn market(&self, t: TileType) -> Option<crate::data::MarketRow> {
        let c = crate::data::components();
        match t {
            TileType::SmallMarket => Some(c.small_market),
            TileType::LargeMarket => Some(c.large_market),
            _ => None,
        }
    }

    /// Does the action of `tile` leave `seat` a choice? If not, `auto_tile_action` applies it.
    pub(crate) fn tile_action_has_choice(&self, seat: u8, tile: Tile) -> bool {
        let p = self.player(seat);
        let t = self.board.kind_of(tile).tile_type;
        match t {
            TileType::Oasis => self.palms_left > 0 && self.djinn_ready(seat, Djinn::Lamia),
            TileType::Village => self.palaces_left > 0 && self.djinn_ready(seat, Djinn::Hagis),
            TileType::SmallMarket | TileType::LargeMarket => {
                self.market(t).is_some_and(|m| p.gold >= m.cost) && !self.row.is_empty()
            }
            TileType::SacredPlace => {
                !self.djinn_row.is_empty() && (p.elders >= 2 || (p.elders >= 1 && p.fakirs() >= 1))
            }
        }
    }

    /// The tile action when there is nothing to choose: compulsory placements happen (Ruling 6:
    /// an empty supply places nothing), optional actions nobody can take are skipped.
    pub(crate) fn auto_tile_action(&mut self, seat: u8, tile: Tile) {
        match self.board.kind_of(tile).tile_type {
            TileType::Oasis => self.place_palm(tile),
            TileType::Village => self.place_palace(seat, tile),
            _ => {}
        }
        self.phase = Phase::Turn {
            seat,
            stage: Stage::Free,
        };
    }

    pub(crate) fn check_tile_move(&self, seat: u8, tile: Tile, m: &Move) -> Result<(), Rule> {
        let t = self.board.kind_of(tile).tile_type;
        match (*m, t) {
            (Move::Palm(r), TileType::Oasis) => match r {
                None => Ok(()),
                Some(r) => {
                    let c = self.check_redirect(seat, Djinn::Lamia, tile, r)?;
                    self.check_cost(seat, c)
                }
            },
            (Move::Palace(r), TileType::Village) => match r {
                None => Ok(()),
                Some(r) => {
                    let c = self.check_redirect(seat, Djinn::Hagis, tile, r)?;
                    self.check_cost(seat, c)
                }
            },
            (Move::Buy { first, second }, TileType::SmallMarket | TileType::LargeMarket) => {
                let Some(market) = self.market(t) else {
                    return Err(Rule::WrongTileAction);
                };
                // Two cards in row order, the notation's: only a move built in code has them
                // otherwise (or one card twice), and no rule of the market is what it breaks.
                if second.is_some_and(|s| s <= first) {
                    return Err(Rule::Notation);
                }
                let take = market.take.min(self.row.len());
                let count = 1 + usize::from(second.is_some());
                if count != take || take == 0 {
                    return Err(Rule::MarketCount);
                }
                let mut positions = [Some(first), second].into_iter().flatten().map(usize::from);
                if positions.clone().any(|i| i >= market.window) {
                    return Err(Rule::MarketWindow);
                }
                // Within the window, but past the end of a short row (Ruling F6).
                if positions.any(|i| i >= self.row.len()) {
                    return Err(Rule::MarketNoCard);
                }
                self.check_cost(
                    seat,
                    Cost {
                        gold: market.cost,
                        ..Cost::default()
                    },
                )
            }
            (Move::TakeDjinn { djinn, pay }, TileType::SacredPlace) => {
                if !self.djinn_row.contains(&djinn) {
                    return Err(Rule::DjinnNotShown);
                }
                if !matches!(pay, Pay::TwoElders | Pay::ElderFakir) {
                    return Err(Rule::BadPayment);
                }
                self.check_cost(seat, Cost::default().plus(pay))
            }
            (Move::Skip, TileType::SmallMarket | TileType::LargeMarket | TileType::SacredPlace) => {
                Ok(())
            }
            (Move::Skip, _) => Err(Rule::MandatoryAction),
            (Move::Palm(_) | Move::Palace(_) | Move::Buy { .. } | Move::TakeDjinn { .. }, _) => {
                Err(Rule::WrongTileAction)
            }
            _ => Err(Rule::WrongStep),
        }
    }

    pub(crate) fn apply_tile_move(&mut self, seat: u8, tile: Tile, m: &Move) {
        match *m {
            Move::Palm(r) => {
                let at = self.redirected(seat, Djinn::Lamia, tile, r);
                self.place_palm(at);
            }
            Move::Palace(r) => {
                let at = self.redirected(seat, Djinn::Hagis, tile, r);
                self.place_palace(seat, at);
            }
            Move::Buy { first, second } => {
                if let Some(market) = self.market(self.board.kind_of(tile).tile_type) {
                    self.pay(
                        seat,
                        Cost {
                            gold: market.cost,
                            ..Cost::default()
                        },
                    );
                }
                // Take the later card first so the earlier index stays valid.
                for i in [second, Some(first)].into_iter().flatten() {
                    let card = self.row.remove(usize::from(i));
                    self.player_mut(seat).cards[usize::from(card.0)] += 1;
                }
            }
            Move::TakeDjinn { djinn, pay } => {
                self.pay(seat, Cost::default().plus(pay));
                self.djinn_row.retain(|d| *d != djinn);
                self.gain_djinn(seat, djinn);
            }
            _ => {}
        }
        self.phase = Phase::Turn {
            seat,
            stage: Stage::Free,
        };
    }
}
