//! Company tracks, shares and share values, and the trading posts of each base.
//!
//! A base is 3 columns of 5 spaces (data: `map.json` `base_layout`); posts leave a column
//! from the front (the space nearest the map) and displaced posts come back to the rearmost
//! empty space of the column chosen (Ruling M5). A company's share value is the coins on its
//! uncovered base spaces.

use crate::data::Reward;
use crate::ids::{Company, COLUMNS};
use crate::state::{Rules, State};

impl State {
    /// The coins showing on `company`'s base: its share value.
    pub fn share_value(&self, company: Company) -> u8 {
        let c = self.data();
        let mut v = 0;
        for col in self.bases[company.index()] {
            for (i, coins) in c.base_coins.iter().enumerate() {
                if col & (1 << i) == 0 {
                    v += coins;
                }
            }
        }
        v
    }

    /// Posts still on `company`'s base.
    pub fn posts_in_base(&self, company: Company) -> u32 {
        self.bases[company.index()]
            .iter()
            .map(|c| c.count_ones())
            .sum()
    }

    /// Regions `company` holds.
    pub fn regions_of(&self, company: Company) -> impl Iterator<Item = usize> + '_ {
        let k = company as u8;
        self.map
            .iter()
            .enumerate()
            .filter(move |(_, &o)| o == k)
            .map(|(i, _)| i)
    }

    /// Takes the front post of `column` (checked to hold one).
    pub(crate) fn take_post(&mut self, company: Company, column: usize) {
        if let Some(col) = self.bases[company.index()].get_mut(column) {
            if *col != 0 {
                *col &= *col - 1;
            }
        }
    }

    /// The space a displaced post would return to in `column`: its rearmost empty space
    /// (Ruling M5), the rear space of an emptied column included. Rules 1 (project ruling MB5
    /// before issue 13) never re-covered a space the data marks so (the rear one).
    pub fn return_space(&self, company: Company, column: usize) -> Option<usize> {
        let c = self.data();
        let col = *self.bases[company.index()].get(column)?;
        let v1 = self.rules == Rules::V1;
        (0..5)
            .rev()
            .find(|&i| col & (1 << i) == 0 && (!v1 || c.base_recoverable[i]))
    }

    /// Whether some column of `company`'s base can take a displaced post back.
    pub fn can_return(&self, company: Company) -> bool {
        (0..COLUMNS).any(|k| self.return_space(company, k).is_some())
    }

    /// Puts a displaced post back into `column` (or in the box when no column can take it).
    pub(crate) fn return_post(&mut self, company: Company, column: Option<u8>) {
        match column.and_then(|k| {
            self.return_space(company, usize::from(k))
                .map(|s| (usize::from(k), s))
        }) {
            Some((k, s)) => self.bases[company.index()][k] |= 1 << s,
            None => self.boxed_posts[company.index()] += 1,
        }
    }

    /// Shares `seat` holds in `company` from its track: the last share icon reached (the
    /// marker's own space counts, Ruling M11).
    pub fn track_shares(&self, seat: u8, company: Company) -> u8 {
        let c = self.data();
        let Some(p) = self.player(seat) else { return 0 };
        let Some(side) = c.sides.get(usize::from(self.sides[company.index()])) else {
            return 0;
        };
        let pos = usize::from(p.track[company.index()]);
        side.shares
            .iter()
            .take(pos + 1)
            .rev()
            .find(|&&s| s > 0)
            .copied()
            .unwrap_or(0)
    }

    /// Shares from the icons on every card `seat` owns.
    pub fn card_shares(&self, seat: u8, company: Company) -> u32 {
        let Some(p) = self.player(seat) else { return 0 };
        crate::ids::bits(p.all_cards())
            .filter_map(|id| self.card_def(crate::ids::CardId(id)))
            .map(|card| u32::from(card.shares[company.index()]))
            .sum()
    }

    /// All shares `seat` holds in `company`.
    pub fn shares(&self, seat: u8, company: Company) -> u32 {
        u32::from(self.track_shares(seat, company)) + self.card_shares(seat, company)
    }

    /// Moves `seat`'s marker `steps` spaces on `company`'s track, paying each space entered;
    /// steps past the end are lost (Ruling M7).
    pub(crate) fn advance_track(&mut self, seat: u8, company: Company, steps: u8) {
        let c = self.data();
        let Some(side) = c.sides.get(usize::from(self.sides[company.index()])) else {
            return;
        };
        for _ in 0..steps {
            let Some(p) = self.seats.get_mut(usize::from(seat)) else {
                return;
            };
            let pos = &mut p.track[company.index()];
            if *pos + 1 >= side.length {
                return;
            }
            *pos += 1;
            let r = side
                .rewards
                .get(usize::from(*pos))
                .copied()
                .unwrap_or_default();
            self.pay(seat, r, None);
        }
    }

    /// What the rules pay of a reward printed in the data: rules 3 pay no bonus marker (ruling
    /// M15: a seat has only the markers of setup step 11, the rest stay in the box; the data's
    /// company-track markers were MB10's, withdrawn).
    pub fn paid(&self, r: Reward) -> Reward {
        if self.rules >= Rules::V3 {
            Reward {
                bonus_marker: 0,
                ..r
            }
        } else {
            r
        }
    }

    /// Pays a reward's pounds, diamonds, bonus markers (rules 1 and 2) and (with `company`)
    /// track steps. Bookkeeping points are the caller's: they need decisions.
    pub(crate) fn pay(&mut self, seat: u8, r: Reward, company: Option<Company>) {
        let c = self.data();
        let r = self.paid(r);
        if let Some(p) = self.seats.get_mut(usize::from(seat)) {
            p.pounds += u16::from(r.pounds);
            p.markers = p.markers.saturating_add(r.bonus_marker).min(c.markers_max);
        }
        self.advance_diamond(seat, r.diamonds);
        if let Some(co) = company {
            self.advance_track(seat, co, r.track);
        }
    }
}
