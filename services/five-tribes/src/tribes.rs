//! The five tribe actions: Viziers and Elders are kept, Merchants take the first cards of the
//! row, Builders earn gold from the blue tiles around, Assassins kill (Iblis: twice; Boaz
//! protects; Kandicha profits; Nekir is paid).

use crate::board::{block3x3, distance};
use crate::error::Rule;
use crate::ids::{Colour, Djinn, Tile};
use crate::moves::{Pay, Target};
use crate::state::{Draw, Phase, Stage, State};

impl State {
    pub(crate) fn tribe_action(&mut self, seat: u8, tile: Tile, colour: Colour, n: u8) {
        let next = match colour {
            Colour::Yellow => {
                self.player_mut(seat).viziers += n;
                Stage::TileAction { tile }
            }
            Colour::White => {
                self.player_mut(seat).elders += n;
                Stage::TileAction { tile }
            }
            Colour::Green => {
                self.bag[Colour::Green as usize] += n;
                let take = usize::from(n).min(self.row.len());
                for _ in 0..take {
                    let card = self.row.remove(0);
                    self.seats[usize::from(seat)].cards[usize::from(card.0)] += 1;
                }
                Stage::TileAction { tile }
            }
            Colour::Blue => {
                self.bag[Colour::Blue as usize] += n;
                Stage::Builders { tile, count: n }
            }
            Colour::Red => {
                self.bag[Colour::Red as usize] += n;
                Stage::Assassins { tile, count: n }
            }
        };
        self.phase = Phase::Turn { seat, stage: next };
    }

    // ----- Builders ---------------------------------------------------------------------

    /// Gold for `count` builders plus `fakirs` at `tile`, doubled by Echidna.
    pub fn builder_gold(&self, tile: Tile, count: u8, fakirs: u8, echidna: bool) -> u32 {
        let blue = self.board.blue_count(block3x3(tile));
        let gold = blue * u32::from(count + fakirs);
        if echidna {
            gold * 2
        } else {
            gold
        }
    }

    pub(crate) fn check_build(
        &self,
        seat: u8,
        fakirs: u8,
        echidna: Option<Pay>,
    ) -> Result<(), Rule> {
        let mut cost = crate::djinns::Cost {
            elders: 0,
            fakirs,
            gold: 0,
        };
        if let Some(pay) = echidna {
            self.check_djinn_ready(seat, Djinn::Echidna, pay)?;
            cost = cost.plus(pay);
        }
        self.check_cost(seat, cost)
    }

    pub(crate) fn apply_build(
        &mut self,
        seat: u8,
        tile: Tile,
        count: u8,
        fakirs: u8,
        echidna: Option<Pay>,
    ) {
        let gold = self.builder_gold(tile, count, fakirs, echidna.is_some());
        let mut cost = crate::djinns::Cost {
            elders: 0,
            fakirs,
            gold: 0,
        };
        if let Some(pay) = echidna {
            self.djinns_used.insert(Djinn::Echidna);
            cost = cost.plus(pay);
        }
        self.pay(seat, cost);
        self.player_mut(seat).gold += gold;
        self.phase = Phase::Turn {
            seat,
            stage: Stage::TileAction { tile },
        };
    }

    /// Whether the builders' payout offers any choice (Fakirs to add, or Echidna).
    pub(crate) fn build_has_choice(&self, seat: u8) -> bool {
        self.player(seat).fakirs() > 0 || self.djinn_ready(seat, Djinn::Echidna)
    }

    // ----- Assassins --------------------------------------------------------------------

    /// Fakirs a kill at `target` needs for range, from `from` with `count` assassins.
    pub fn range_fakirs(from: Tile, count: u8, target: Tile) -> u8 {
        distance(from, target).saturating_sub(count)
    }

    pub(crate) fn check_kill(
        &self,
        seat: u8,
        from: Tile,
        count: u8,
        target: Target,
        iblis: Option<Pay>,
    ) -> Result<(), Rule> {
        let (first, second) = target.victims();
        // Victims in tribe order, the notation's (one text per kill): only a move built in
        // code has them otherwise, and it breaks no rule of the assassins or of Iblis.
        if second.is_some_and(|s| s < first) {
            return Err(Rule::Notation);
        }
        // A second victim only with Iblis.
        if second.is_some() != iblis.is_some() {
            return Err(Rule::Iblis);
        }
        let mut cost = crate::djinns::Cost::default();
        if let Some(pay) = iblis {
            self.check_djinn_ready(seat, Djinn::Iblis, pay)?;
            cost = cost.plus(pay);
        }
        match target {
            Target::Tile {
                tile,
                first,
                second,
            } => {
                if tile.0 >= crate::board::TILES as u8 {
                    return Err(Rule::NoSuchVictim);
                }
                let mut on = self.board.hand(tile);
                for c in [Some(first), second].into_iter().flatten() {
                    if on[c as usize] == 0 {
                        return Err(Rule::NoSuchVictim);
                    }
                    on[c as usize] -= 1;
                }
                cost.fakirs += Self::range_fakirs(from, count, tile);
                if cost.fakirs > self.player(seat).fakirs() {
                    return Err(Rule::OutOfRange);
                }
            }
            Target::Seat {
                seat: victim,
                first,
                second,
            } => {
                if victim == seat {
                    return Err(Rule::NotAnOpponent);
                }
                if victim >= self.players {
                    return Err(Rule::NoSuchVictim);
                }
                let v = self.player(victim);
                let (mut y, mut w) = (v.viziers, v.elders);
                for c in [Some(first), second].into_iter().flatten() {
                    let pool = match c {
                        Colour::Yellow => &mut y,
                        Colour::White => &mut w,
                        _ => return Err(Rule::ViziersEldersOnly),
                    };
                    if *pool == 0 {
                        return Err(Rule::NoSuchVictim);
                    }
                    *pool -= 1;
                }
                if v.djinns.has(Djinn::Boaz) {
                    return Err(Rule::Boaz);
                }
            }
        }
        self.check_cost(seat, cost)
    }

    pub(crate) fn apply_kill(
        &mut self,
        seat: u8,
        from: Tile,
        count: u8,
        target: Target,
        iblis: Option<Pay>,
    ) {
        let mut cost = crate::djinns::Cost::default();
        if let Some(pay) = iblis {
            self.djinns_used.insert(Djinn::Iblis);
            cost = cost.plus(pay);
        }
        let kandicha = self.player(seat).djinns.has(Djinn::Kandicha);
        let mut victims = 0u8;
        let mut merchants = 0u8;
        match target {
            Target::Tile {
                tile,
                first,
                second,
            } => {
                cost.fakirs += Self::range_fakirs(from, count, tile);
                for c in [Some(first), second].into_iter().flatten() {
                    self.board.remove(tile, c);
                    victims += 1;
                    match c {
                        Colour::Yellow if kandicha => self.player_mut(seat).viziers += 1,
                        Colour::White if kandicha => self.player_mut(seat).elders += 1,
                        Colour::Green if kandicha => {
                            merchants += 1;
                            self.bag[c as usize] += 1;
                        }
                        Colour::Blue if kandicha => {
                            // Ruling F3: the gold one builder would have earned on that tile.
                            let gold = self.board.blue_count(block3x3(tile));
                            self.player_mut(seat).gold += gold;
                            self.bag[c as usize] += 1;
                        }
                        _ => self.bag[c as usize] += 1,
                    }
                }
                self.pay(seat, cost);
                // Control by killing: the tile where the move ended was controlled first.
                self.control_if_emptied(seat, tile);
            }
            Target::Seat {
                seat: victim,
                first,
                second,
            } => {
                for c in [Some(first), second].into_iter().flatten() {
                    let v = self.player_mut(victim);
                    if c == Colour::Yellow {
                        v.viziers -= 1;
                    } else {
                        v.elders -= 1;
                    }
                    victims += 1;
                    if kandicha {
                        let k = self.player_mut(seat);
                        if c == Colour::Yellow {
                            k.viziers += 1;
                        } else {
                            k.elders += 1;
                        }
                    } else {
                        self.bag[c as usize] += 1;
                    }
                }
                self.pay(seat, cost);
            }
        }
        // Nekir: paid per meeple killed (Ruling 15, per djinns.json).
        if let Some(owner) = self.owner_of(Djinn::Nekir) {
            let each = if owner == seat { 1 } else { 2 };
            self.player_mut(owner).gold += each * u32::from(victims);
        }
        self.phase = Phase::Turn {
            seat,
            stage: Stage::TileAction { tile: from },
        };
        if merchants > 0 {
            let available = self.deck_size() + self.discard_size();
            let n = u32::from(merchants).min(available) as u8;
            if n > 0 {
                self.pending = Some(Draw::Cards(n));
            }
        }
    }

    /// Whether the assassins have anyone to kill at all.
    pub(crate) fn any_kill_target(&self, seat: u8, from: Tile, count: u8) -> bool {
        let fakirs = self.player(seat).fakirs();
        let on_board = Tile::all()
            .any(|t| !self.board.is_empty(t) && Self::range_fakirs(from, count, t) <= fakirs);
        let in_front = (0..self.players).any(|v| {
            let p = self.player(v);
            v != seat && !p.djinns.has(Djinn::Boaz) && (p.viziers > 0 || p.elders > 0)
        });
        on_board || in_front
    }
}
