//! Bidding for turn order: the turn order track, its costs, the push rule of the free spots,
//! Kumarbi's discount, and the broke bidder (Ruling 8).

use crate::data::components;
use crate::error::Rule;
use crate::ids::Djinn;
use crate::state::{State, BID_SPOTS, NOBODY};

/// What a bid costs: the spot's price `kumarbi` spots lower.
pub fn bid_price(spot: u8, kumarbi: u8) -> u32 {
    let costs = &components().bid_costs;
    costs[usize::from(spot.saturating_sub(kumarbi))]
}

impl State {
    fn zero_spots(&self) -> usize {
        components().zero_spots
    }

    pub(crate) fn zeros_taken(&self) -> usize {
        self.turn_track[..self.zero_spots()]
            .iter()
            .filter(|&&s| s != NOBODY)
            .count()
    }

    /// The cheapest free paid spot, if the bidder can afford no spot at all (Ruling 8).
    pub(crate) fn forced_spot(&self, seat: u8) -> Option<u8> {
        if self.zeros_taken() < self.zero_spots() {
            return None;
        }
        let p = self.player(seat);
        let kumarbi = self.kumarbi_max(seat);
        let affordable = (self.zero_spots()..BID_SPOTS).any(|spot| {
            self.turn_track[spot] == NOBODY
                && bid_price(spot as u8, kumarbi.min(spot as u8 - 2)) <= p.gold
        });
        if affordable {
            return None;
        }
        (self.zero_spots()..BID_SPOTS)
            .find(|&s| self.turn_track[s] == NOBODY)
            .map(|s| s as u8)
    }

    /// The most Fakirs Kumarbi could take from this bidder now.
    pub(crate) fn kumarbi_max(&self, seat: u8) -> u8 {
        let p = self.player(seat);
        if p.djinns.has(Djinn::Kumarbi) {
            p.fakirs()
        } else {
            0
        }
    }

    pub(crate) fn check_bid(&self, seat: u8, spot: u8, kumarbi: u8) -> Result<(), Rule> {
        let spot_i = usize::from(spot);
        if spot_i >= BID_SPOTS {
            return Err(Rule::NoSuchSpot);
        }
        if let Some(forced) = self.forced_spot(seat) {
            return if spot == forced && kumarbi == 0 {
                Ok(())
            } else {
                Err(Rule::MustTakeCheapest)
            };
        }
        if spot_i < self.zero_spots() {
            if kumarbi != 0 {
                return Err(Rule::Kumarbi);
            }
            if spot != 0 {
                // The free spots are one choice ("bid 0"); the push rule places the marker.
                return Err(Rule::NoSuchSpot);
            }
            return if self.zeros_taken() < self.zero_spots() {
                Ok(())
            } else {
                Err(Rule::ZeroSpotsFull)
            };
        }
        if self.turn_track[spot_i] != NOBODY {
            return Err(Rule::SpotTaken);
        }
        if kumarbi > 0 {
            let p = self.player(seat);
            if !p.djinns.has(Djinn::Kumarbi) {
                return Err(Rule::DjinnNotOwned);
            }
            if p.fakirs() < kumarbi {
                return Err(Rule::NotEnoughFakirs);
            }
            // Lowering past the last free spot saves nothing more.
            if spot < kumarbi + 2 {
                return Err(Rule::Kumarbi);
            }
        }
        if bid_price(spot, kumarbi) > self.player(seat).gold {
            return Err(Rule::BidUnaffordable);
        }
        Ok(())
    }

    pub(crate) fn apply_bid(&mut self, seat: u8, spot: u8, kumarbi: u8) {
        let price = bid_price(spot, kumarbi);
        let p = self.player_mut(seat);
        // Checked affordable, except for the broke bidder, who pays all they have (Ruling 8).
        p.gold = p.gold.saturating_sub(price);
        p.cards[9] -= kumarbi.min(p.cards[9]);
        self.discard[9] += kumarbi;
        let spot = usize::from(spot);
        if spot < self.zero_spots() {
            // Push rule: earlier free-spot markers move down; the newest plays first of them.
            for i in 0..self.zero_spots() - 1 {
                self.turn_track[i] = self.turn_track[i + 1];
            }
            self.turn_track[self.zero_spots() - 1] = seat;
        } else {
            self.turn_track[spot] = seat;
        }
        if !self.bid_order.is_empty() {
            self.bid_order.remove(0);
        }
        if self.bid_order.is_empty() {
            self.next_turn();
        }
    }
}
