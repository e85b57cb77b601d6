//! Djinns: paying for powers, once per turn, the seven stand-alone powers, Sibittis's choice,
//! and the passive incomes (Ba'al, Monkir; Marid and Nekir live where their events happen).
//! End-game djinns (Al-Amin, Haurvatat, Jafaar, Shamhat) live in `scoring`; modifiers in the
//! action they modify (Echidna: builders, Iblis: assassins, Hagis/Lamia: palaces and palm
//! trees, Kumarbi: bidding, Boaz/Kandicha: assassins).

use crate::board::block3x3;
use crate::data::DjinnCost;
use crate::error::Rule;
use crate::ids::{Djinn, Tile, TileType};
use crate::moves::{DjinnUse, Pay, Redirect};
use crate::state::{Draw, Phase, Resume, Stage, State};

/// Elders, Fakirs and gold a move takes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cost {
    pub elders: u8,
    pub fakirs: u8,
    pub gold: u32,
}

impl Cost {
    pub fn plus(self, pay: Pay) -> Cost {
        let (e, f) = pay.cost();
        Cost {
            elders: self.elders + e,
            fakirs: self.fakirs + f,
            gold: self.gold,
        }
    }
}

impl State {
    pub(crate) fn check_cost(&self, seat: u8, c: Cost) -> Result<(), Rule> {
        let p = self.player(seat);
        if p.elders < c.elders {
            return Err(Rule::NotEnoughElders);
        }
        if p.fakirs() < c.fakirs {
            return Err(Rule::NotEnoughFakirs);
        }
        if p.gold < c.gold {
            return Err(Rule::NotEnoughGold);
        }
        Ok(())
    }

    /// Pays a checked cost: Elders to the bag, Fakirs to the discard pile, gold to the bank
    /// (Ruling 10).
    pub(crate) fn pay(&mut self, seat: u8, c: Cost) {
        let p = self.player_mut(seat);
        p.elders -= c.elders.min(p.elders);
        p.cards[9] -= c.fakirs.min(p.cards[9]);
        p.gold -= c.gold.min(p.gold);
        self.bag[1] += c.elders;
        self.discard[9] += c.fakirs;
    }

    /// Is `pay` a way to pay `d`'s cost?
    fn pay_fits(d: Djinn, pay: Pay) -> bool {
        matches!(
            (d.cost(), pay),
            (DjinnCost::ElderOrFakir, Pay::Elder | Pay::Fakir)
                | (
                    DjinnCost::TwoElderOrElderFakir,
                    Pay::TwoElders | Pay::ElderFakir
                )
                | (DjinnCost::Fakir, Pay::Fakir)
        )
    }

    /// `seat` owns `d` and has not used its paid power this turn (Ruling 9).
    pub(crate) fn check_djinn_ready(&self, seat: u8, d: Djinn, pay: Pay) -> Result<(), Rule> {
        if !self.player(seat).djinns.has(d) {
            return Err(Rule::DjinnNotOwned);
        }
        if self.djinns_used.has(d) {
            return Err(Rule::DjinnUsed);
        }
        if !Self::pay_fits(d, pay) {
            return Err(Rule::BadPayment);
        }
        Ok(())
    }

    /// Could `seat` use `d` now with some payment?
    pub(crate) fn djinn_ready(&self, seat: u8, d: Djinn) -> bool {
        [Pay::Elder, Pay::Fakir, Pay::TwoElders, Pay::ElderFakir]
            .into_iter()
            .any(|pay| {
                self.check_djinn_ready(seat, d, pay).is_ok()
                    && self.check_cost(seat, Cost::default().plus(pay)).is_ok()
            })
    }

    /// A redirect by Hagis (palaces) or Lamia (palm trees) from `origin`.
    pub(crate) fn check_redirect(
        &self,
        seat: u8,
        d: Djinn,
        origin: Tile,
        r: Redirect,
    ) -> Result<Cost, Rule> {
        self.check_djinn_ready(seat, d, r.pay)?;
        if r.at.0 >= crate::board::TILES as u8
            || r.at == origin
            || block3x3(origin) & r.at.bit() == 0
        {
            return Err(Rule::NotNeighbouring);
        }
        Ok(Cost::default().plus(r.pay))
    }

    /// Where a palace or palm tree placed at `origin` lands: there, or where Hagis / Lamia (`d`)
    /// redirects it, paying for the djinn and marking it used.
    pub(crate) fn redirected(
        &mut self,
        seat: u8,
        d: Djinn,
        origin: Tile,
        r: Option<Redirect>,
    ) -> Tile {
        match r {
            Some(r) => {
                self.djinns_used.insert(d);
                self.pay(seat, Cost::default().plus(r.pay));
                r.at
            }
            None => origin,
        }
    }

    /// Places a palace from the supply (Monkir pays). Ruling 6: none left, nothing happens.
    pub(crate) fn place_palace(&mut self, seat: u8, at: Tile) {
        if self.palaces_left == 0 {
            return;
        }
        self.palaces_left -= 1;
        self.board.palaces[usize::from(at.0)] += 1;
        if let Some(owner) = self.owner_of(Djinn::Monkir) {
            self.player_mut(owner).gold += if owner == seat { 1 } else { 2 };
        }
    }

    pub(crate) fn place_palm(&mut self, at: Tile) {
        if self.palms_left == 0 {
            return;
        }
        self.palms_left -= 1;
        self.board.palms[usize::from(at.0)] += 1;
    }

    /// `seat` gains a djinn (Ba'al pays its owner, unless it is Ba'al itself being gained).
    pub(crate) fn gain_djinn(&mut self, seat: u8, d: Djinn) {
        self.player_mut(seat).djinns.insert(d);
        if d == Djinn::Baal {
            return;
        }
        if let Some(owner) = self.owner_of(Djinn::Baal) {
            self.player_mut(owner).gold += if owner == seat { 1 } else { 2 };
        }
    }

    pub(crate) fn check_use(&self, seat: u8, u: DjinnUse) -> Result<(), Rule> {
        let d = u.djinn();
        self.check_djinn_ready(seat, d, u.pay())?;
        let mut cost = Cost::default().plus(u.pay());
        let in_board = |t: Tile| t.0 < crate::board::TILES as u8;
        match u {
            DjinnUse::AnunNak { tile, .. } => {
                if !in_board(tile) || !self.board.is_bare(tile) {
                    return Err(Rule::NotBare);
                }
                if self.bag_size() == 0 {
                    return Err(Rule::BagEmpty);
                }
            }
            DjinnUse::Bouraq { village, hagis, .. } => {
                if !in_board(village) || self.board.kind_of(village).tile_type != TileType::Village
                {
                    return Err(Rule::WrongTileType);
                }
                if self.palaces_left == 0 {
                    return Err(Rule::SupplyEmpty);
                }
                if let Some(r) = hagis {
                    let c = self.check_redirect(seat, Djinn::Hagis, village, r)?;
                    cost = Cost {
                        elders: cost.elders + c.elders,
                        fakirs: cost.fakirs + c.fakirs,
                        gold: 0,
                    };
                }
            }
            DjinnUse::Enki { oasis, lamia, .. } => {
                if !in_board(oasis) || self.board.kind_of(oasis).tile_type != TileType::Oasis {
                    return Err(Rule::WrongTileType);
                }
                if self.palms_left == 0 {
                    return Err(Rule::SupplyEmpty);
                }
                if let Some(r) = lamia {
                    let c = self.check_redirect(seat, Djinn::Lamia, oasis, r)?;
                    cost = Cost {
                        elders: cost.elders + c.elders,
                        fakirs: cost.fakirs + c.fakirs,
                        gold: 0,
                    };
                }
            }
            DjinnUse::Leta { tile, .. } => {
                if !in_board(tile) || !self.board.is_bare(tile) {
                    return Err(Rule::NotBare);
                }
                if self.player(seat).camels == 0 {
                    return Err(Rule::NoCamels);
                }
            }
            DjinnUse::Utug { tile, .. } => {
                let i = usize::from(tile.0);
                if !in_board(tile)
                    || self.board.is_empty(tile)
                    || self.board.owner[i] != crate::state::NOBODY
                    || self.board.palms[i] > 0
                    || self.board.palaces[i] > 0
                {
                    return Err(Rule::NotOnlyMeeples);
                }
                if self.player(seat).camels == 0 {
                    return Err(Rule::NoCamels);
                }
            }
            DjinnUse::Sibittis { .. } => {
                if self.djinn_deck.is_empty() && self.djinn_discard.is_empty() {
                    return Err(Rule::PileEmpty);
                }
            }
            DjinnUse::Sloar => {
                if self.deck_size() + self.discard_size() == 0 {
                    return Err(Rule::PileEmpty);
                }
            }
        }
        self.check_cost(seat, cost)
    }

    pub(crate) fn apply_use(&mut self, seat: u8, u: DjinnUse, resume: Resume) {
        self.djinns_used.insert(u.djinn());
        self.pay(seat, Cost::default().plus(u.pay()));
        match u {
            DjinnUse::AnunNak { tile, .. } => {
                let n = self.bag_size().min(3);
                self.pending = Some(Draw::Meeples(n, tile));
            }
            DjinnUse::Bouraq { village, hagis, .. } => {
                let at = self.redirected(seat, Djinn::Hagis, village, hagis);
                self.place_palace(seat, at);
            }
            DjinnUse::Enki { oasis, lamia, .. } => {
                let at = self.redirected(seat, Djinn::Lamia, oasis, lamia);
                self.place_palm(at);
            }
            DjinnUse::Leta { tile, .. } | DjinnUse::Utug { tile, .. } => {
                self.place_camel(seat, tile)
            }
            DjinnUse::Sibittis { .. } => {
                let n = (self.djinn_deck.len() + self.djinn_discard.len()).min(3) as u8;
                self.pending = Some(Draw::Djinns(n));
                self.phase = Phase::Turn {
                    seat,
                    stage: Stage::Sibittis {
                        drawn: Default::default(),
                        resume,
                    },
                };
            }
            DjinnUse::Sloar => self.pending = Some(Draw::Cards(1)),
        }
    }

    pub(crate) fn check_keep(drawn: &[Djinn], d: Djinn) -> Result<(), Rule> {
        if drawn.contains(&d) {
            Ok(())
        } else {
            Err(Rule::NotDrawn)
        }
    }

    pub(crate) fn apply_keep(&mut self, seat: u8, drawn: &[Djinn], d: Djinn, resume: Resume) {
        for &other in drawn {
            if other != d {
                self.djinn_discard.insert(other);
            }
        }
        self.gain_djinn(seat, d);
        self.phase = Phase::Turn {
            seat,
            stage: resume.stage(),
        };
    }
}
