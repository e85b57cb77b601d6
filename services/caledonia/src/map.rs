//! The assembled map of one game: the four module sides on the grid, as bit masks per
//! terrain, neighbour masks per hex without crossing a river (every edge's is the grid's own,
//! [`ADJ`]), and the reach and settlement searches. Maps are built once per (sides,
//! player-count mode) and shared.

use crate::data::components;
use crate::grid::{neighbour, ADJ};
use crate::ids::{bits, Hex, COLS, HEXES};
use std::sync::OnceLock;

/// Which map the player count uses: the solo and 2-player games play the small map (mist
/// shaded hexes out), solo also blocks the £1 hexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Solo,
    Small,
    Large,
}

impl Mode {
    pub fn of(players: u8) -> Mode {
        match players {
            1 => Mode::Solo,
            2 => Mode::Small,
            _ => Mode::Large,
        }
    }
    fn index(self) -> usize {
        self as usize
    }
    pub fn small(self) -> bool {
        self != Mode::Large
    }
}

/// One assembled map.
#[derive(Debug, Clone)]
pub struct Map {
    /// Hexes a production unit or a worker may stand on (active land, not a port space).
    pub land: u128,
    pub grass: u128,
    pub forest: u128,
    pub mountain: u128,
    pub loch: u128,
    /// The four active port spaces, module A–D (one corner each).
    pub ports: [Hex; 4],
    pub port_mask: u128,
    pub border: u128,
    pub delta: u128,
    /// Solo: land hexes blocked by neutral workers.
    pub blocked: u128,
    pub cost: [u8; HEXES],
    /// Hexes sharing an edge without a river on it (every hex sharing one: [`ADJ`]).
    pub adj_dry: [u128; HEXES],
    /// Hexes sharing an edge with a loch (`shore`), and one without a river on it
    /// (`shore_dry`): where a crossing of the lochs can start.
    pub shore: u128,
    pub shore_dry: u128,
    /// What [`Map::across_lochs`] reaches from each shore hex alone, by loch steps (1 to
    /// [`LOCH_TABLE`]), without (`[0]`) and with (`[1]`) the dry rule. A crossing from a set
    /// of hexes reaches the union of what each reaches (a breadth-first search from a set is
    /// the union of the searches from each), so a crossing is a few table reads, not a flood;
    /// it runs for every port at the end of every main action.
    loch_reach: Box<[[[u128; HEXES]; LOCH_TABLE]; 2]>,
    /// The same relation read backwards: for each hex, the shore hexes whose crossing reaches
    /// it. Whether a set reaches one hex is then one `&`, not a union over the set: an
    /// Expand is checked this way, and every port at the end of every main action.
    loch_reached: Box<[[[u128; HEXES]; LOCH_TABLE]; 2]>,
    /// For each of the four port spaces, the hexes from which a unit reaches it
    /// ([`Map::port_in_reach`]) by crossing 0 to [`LOCH_TABLE`] lochs (`[dry][lochs][port]`):
    /// the space, its neighbours, and the shore hexes whose crossing reaches it. At the end of
    /// every main action all four ports are asked at once: four `&`s.
    port_reach: [[[u128; 4]; LOCH_TABLE + 1]; 2],
    /// `port_reach` read by hex (`[dry][lochs][hex]`, bits 0–3): the port spaces a unit on
    /// the hex reaches. A unit placed adds these to what its player reached before.
    hex_ports: Box<[[[u8; HEXES]; LOCH_TABLE + 1]; 2]>,
}

/// Loch steps tabled per map (shipping 2 to 5); longer crossings are searched.
const LOCH_TABLE: usize = 4;

impl Map {
    /// A hand-made map, for tests and tools (a game always plays the assembled sides): the
    /// given land hexes (all grassland) and lochs, with a river on each listed edge.
    pub fn from_layout(land: u128, loch: u128, rivers: &[(Hex, Hex)]) -> Map {
        let mut m = Map {
            land,
            grass: land,
            forest: 0,
            mountain: 0,
            loch,
            ports: [Hex(0); 4],
            port_mask: 0,
            border: 0,
            delta: 0,
            blocked: 0,
            cost: [0; HEXES],
            adj_dry: [0; HEXES],
            shore: 0,
            shore_dry: 0,
            loch_reach: Box::new([[[0; HEXES]; LOCH_TABLE]; 2]),
            loch_reached: Box::new([[[0; HEXES]; LOCH_TABLE]; 2]),
            port_reach: [[[0; 4]; LOCH_TABLE + 1]; 2],
            hex_ports: Box::new([[[0; HEXES]; LOCH_TABLE + 1]; 2]),
        };
        for i in 0..HEXES {
            let h = Hex(i as u8);
            for d in 0..6 {
                if let Some(n) = neighbour(h, d) {
                    if !rivers
                        .iter()
                        .any(|&(a, b)| (a, b) == (h, n) || (a, b) == (n, h))
                    {
                        m.adj_dry[i] |= n.bit();
                    }
                }
            }
        }
        m.with_shores()
    }

    /// Fills in [`Map::shore`] and [`Map::shore_dry`] from the lochs and the adjacency.
    fn with_shores(mut self) -> Map {
        for (i, (adj, dry)) in ADJ.iter().zip(self.adj_dry).enumerate() {
            let h = Hex(i as u8).bit();
            if adj & self.loch != 0 {
                self.shore |= h;
            }
            if dry & self.loch != 0 {
                self.shore_dry |= h;
            }
        }
        for dry in [false, true] {
            let shore = if dry { self.shore_dry } else { self.shore };
            for steps in 1..=LOCH_TABLE {
                for h in bits(shore) {
                    let reach = self.flood(h.bit(), steps as u8, dry);
                    self.loch_reach[usize::from(dry)][steps - 1][usize::from(h.0)] = reach;
                    for to in bits(reach) {
                        self.loch_reached[usize::from(dry)][steps - 1][usize::from(to.0)] |=
                            h.bit();
                    }
                }
            }
        }
        for (k, hex) in self.ports.into_iter().enumerate() {
            let i = usize::from(hex.0).min(HEXES - 1);
            for dry in [false, true] {
                let shore = if dry { self.shore_dry } else { self.shore };
                let table = &mut self.port_reach[usize::from(dry)];
                table[0][k] = hex.bit() | ADJ[i];
                for lochs in 1..=LOCH_TABLE {
                    table[lochs][k] =
                        table[0][k] | shore & self.loch_reached[usize::from(dry)][lochs - 1][i];
                }
                for (lochs, reach) in table.iter().enumerate() {
                    for h in bits(reach[k]) {
                        self.hex_ports[usize::from(dry)][lochs][usize::from(h.0)] |= 1 << k;
                    }
                }
            }
        }
        self
    }

    fn build(sides: [u8; 4], mode: Mode) -> Map {
        let comp = components();
        let mut m = Map {
            land: 0,
            grass: 0,
            forest: 0,
            mountain: 0,
            loch: 0,
            ports: [Hex(0); 4],
            port_mask: 0,
            border: 0,
            delta: 0,
            blocked: 0,
            cost: [0; HEXES],
            adj_dry: [0; HEXES],
            shore: 0,
            shore_dry: 0,
            loch_reach: Box::new([[[0; HEXES]; LOCH_TABLE]; 2]),
            loch_reached: Box::new([[[0; HEXES]; LOCH_TABLE]; 2]),
            port_reach: [[[0; 4]; LOCH_TABLE + 1]; 2],
            hex_ports: Box::new([[[0; HEXES]; LOCH_TABLE + 1]; 2]),
        };
        let mut rivers = [0u8; HEXES];
        let mut mist = 0u128;
        for (module, side) in sides.iter().enumerate() {
            let s = usize::from(side.saturating_sub(1).min(1));
            for h in &comp.sides[module][s] {
                let i = usize::from(h.hex.0);
                let b = h.hex.bit();
                m.cost[i] = h.land_cost;
                rivers[i] = h.rivers;
                match h.port_small {
                    Some(small) if small == mode.small() => {
                        m.ports[module] = h.hex;
                        m.port_mask |= b;
                        continue;
                    }
                    Some(_) if !(h.grass || h.forest || h.mountain) => continue,
                    _ => {}
                }
                // The mist covers lochs as well as land: with 1-2 players a loch in the
                // mist is off the map (no fishermen, no crossing).
                if mode.small() && h.mist {
                    mist |= b;
                    continue;
                }
                if h.loch {
                    m.loch |= b;
                    continue;
                }
                if !(h.grass || h.forest || h.mountain) {
                    continue;
                }
                if mode == Mode::Solo && h.land_cost == comp.solo_block_cost {
                    m.blocked |= b;
                    continue;
                }
                m.land |= b;
                if h.grass {
                    m.grass |= b;
                }
                if h.forest {
                    m.forest |= b;
                }
                if h.mountain {
                    m.mountain |= b;
                }
                if h.delta {
                    m.delta |= b;
                }
            }
        }
        for i in 0..HEXES {
            let h = Hex(i as u8);
            for d in 0..6 {
                if let Some(n) = neighbour(h, d) {
                    // A river on either side of the edge separates (data lists both sides).
                    let river = rivers[i] & (1 << d) != 0
                        || rivers[usize::from(n.0)] & (1 << ((d + 3) % 6)) != 0;
                    if !river {
                        m.adj_dry[i] |= n.bit();
                    }
                }
            }
        }
        // Border spaces: the grid's edge (3-4 players) or next to the mist (1-2 players).
        for (i, adj) in ADJ.iter().enumerate() {
            let h = Hex(i as u8);
            let edge = h.col() == 0
                || h.col() == COLS - 1
                || h.row() == 0
                || h.row() == crate::ids::ROWS - 1;
            let on_border = if mode.small() { adj & mist != 0 } else { edge };
            if on_border {
                m.border |= h.bit();
            }
        }
        m.border &= m.land | m.loch | m.blocked;
        m.with_shores()
    }

    /// Hexes an Expand (or a port use) can reach from units `own` with shipping level
    /// `shipping` (0 none, 1 river crossing, n ≥ 2 crosses up to n−1 lochs). One crossing kind
    /// per action: river hops and loch paths are computed separately, and with `dry` (rules
    /// 3, Ruling L10) the loch path itself crosses no river either.
    pub fn reach(&self, own: u128, shipping: u8, dry: bool) -> u128 {
        let mut r = 0u128;
        for h in bits(own) {
            let i = usize::from(h.0);
            r |= if shipping >= 1 {
                ADJ[i]
            } else {
                self.adj_dry[i]
            };
        }
        if shipping >= 2 {
            r |= self.across_lochs(own, shipping - 1, dry);
        }
        r
    }

    /// Whether `h` is in [`Map::reach`] of the same units, without working out the rest of
    /// it: adjacency is symmetric, so a unit next to `h` is a neighbour of `h`.
    pub fn reaches(&self, own: u128, shipping: u8, dry: bool, h: Hex) -> bool {
        let i = usize::from(h.0).min(HEXES - 1);
        let near = if shipping >= 1 {
            ADJ[i]
        } else {
            self.adj_dry[i]
        };
        own & near != 0 || (shipping >= 2 && self.crosses_to(own, shipping - 1, dry, h))
    }

    /// Whether units `own` with shipping level `shipping` can use the port on `hex`: a unit on
    /// the space (a fisherman) or sharing any edge with it (rivers included: Ruling C6), or the
    /// space within shipping reach across lochs (`dry`: rules 3).
    pub fn port_in_reach(&self, own: u128, shipping: u8, dry: bool, hex: Hex) -> bool {
        let i = usize::from(hex.0).min(HEXES - 1);
        own & (hex.bit() | ADJ[i]) != 0
            || (shipping >= 2 && self.crosses_to(own, shipping - 1, dry, hex))
    }

    /// [`Map::port_in_reach`] of each of the four port spaces ([`Map::ports`]) at once, as
    /// bits 0–3.
    #[inline]
    pub fn ports_in_reach(&self, own: u128, shipping: u8, dry: bool) -> u8 {
        let lochs = usize::from(shipping.saturating_sub(1));
        match self.port_reach[usize::from(dry)].get(lochs) {
            Some(t) => {
                let hit = |k: usize| u8::from(own & t[k] != 0) << k;
                hit(0) | hit(1) | hit(2) | hit(3)
            }
            None => self.ports_across_far(own, lochs as u8, dry),
        }
    }

    /// The port spaces (bits 0–3) a unit on `h` reaches, as [`Map::ports_in_reach`] of that
    /// hex alone; `None` beyond the tables. What a set of units reaches is the union of what
    /// each does, so a unit placed adds this to its player's.
    #[inline]
    pub fn ports_of_hex(&self, h: Hex, shipping: u8, dry: bool) -> Option<u8> {
        let lochs = usize::from(shipping.saturating_sub(1));
        let t = self.hex_ports[usize::from(dry)].get(lochs)?;
        t.get(usize::from(h.0)).copied()
    }

    /// [`Map::ports_in_reach`] beyond the tables: searched, as `crosses_to` does. Out of line,
    /// so the tabled case stays a few instructions.
    #[cold]
    #[inline(never)]
    fn ports_across_far(&self, own: u128, lochs: u8, dry: bool) -> u8 {
        let far = self.flood(own, lochs, dry);
        let near = &self.port_reach[usize::from(dry)][0];
        (0..4).fold(0, |mask, k| {
            let hit = own & near[k] != 0 || far & self.ports[k].bit() != 0;
            mask | (u8::from(hit) << k)
        })
    }

    /// Whether `h` is in [`Map::across_lochs`] of the same arguments.
    fn crosses_to(&self, from: u128, lochs: u8, dry: bool, h: Hex) -> bool {
        let steps = usize::from(lochs);
        if steps == 0 {
            return false;
        }
        if steps > LOCH_TABLE {
            return self.flood(from, lochs, dry) & h.bit() != 0;
        }
        let shore = if dry { self.shore_dry } else { self.shore };
        let i = usize::from(h.0).min(HEXES - 1);
        from & shore & self.loch_reached[usize::from(dry)][steps - 1][i] != 0
    }

    /// Land and lochs next to a loch at most `lochs` loch steps from `from`. With `dry`, every
    /// step of the search — onto the first loch, between lochs, onto the far shore — is along
    /// an edge without a river: an expansion crosses lochs or a river, never both (Ruling
    /// L10). Rules 2 searched every edge (`dry` false), as settlements still do (Ruling C6:
    /// rivers do not separate them).
    pub fn across_lochs(&self, from: u128, lochs: u8, dry: bool) -> u128 {
        let steps = usize::from(lochs);
        if steps == 0 {
            return 0;
        }
        if steps > LOCH_TABLE {
            return self.flood(from, lochs, dry);
        }
        let shore = if dry { self.shore_dry } else { self.shore };
        let table = &self.loch_reach[usize::from(dry)][steps - 1];
        bits(from & shore).fold(0, |r, h| r | table[usize::from(h.0)])
    }

    /// [`Map::across_lochs`] by a breadth-first search over the lochs (what the table holds).
    fn flood(&self, from: u128, lochs: u8, dry: bool) -> u128 {
        let (adj, shore) = if dry {
            (&self.adj_dry, self.shore_dry)
        } else {
            (&ADJ, self.shore)
        };
        let mut visited = 0u128;
        // Only hexes on a shore can step onto a loch: this runs for every port at the end of
        // every main action, and most of a player's units stand inland.
        let mut frontier = from & shore;
        for _ in 0..lochs {
            let mut next = 0u128;
            for h in bits(frontier) {
                next |= adj[usize::from(h.0)];
            }
            next &= self.loch & !visited;
            if next == 0 {
                break;
            }
            visited |= next;
            frontier = next;
        }
        let mut r = 0u128;
        for h in bits(visited) {
            r |= adj[usize::from(h.0)];
        }
        r
    }

    /// Settlements of `own` (groups of units sharing edges; rivers do not separate, Ruling
    /// C6) in the largest group of settlements linked through shipping across lochs.
    pub fn settlements(&self, own: u128, shipping: u8) -> u32 {
        let mut comps: Vec<u128> = Vec::new();
        let mut left = own;
        while left != 0 {
            let seed = left & left.wrapping_neg();
            let mut comp = seed;
            let mut frontier = seed;
            while frontier != 0 {
                let mut next = 0u128;
                for h in bits(frontier) {
                    next |= ADJ[usize::from(h.0)];
                }
                next &= left & !comp;
                comp |= next;
                frontier = next;
            }
            left &= !comp;
            comps.push(comp);
        }
        if comps.is_empty() {
            return 0;
        }
        let lochs = shipping.saturating_sub(1);
        let mut group: Vec<usize> = (0..comps.len()).collect();
        fn root(g: &mut [usize], mut i: usize) -> usize {
            while g[i] != i {
                g[i] = g[g[i]];
                i = g[i];
            }
            i
        }
        if lochs > 0 {
            for i in 0..comps.len() {
                let reach = self.across_lochs(comps[i], lochs, false);
                for (j, comp) in comps.iter().enumerate() {
                    if i != j && reach & comp != 0 {
                        let (a, b) = (root(&mut group, i), root(&mut group, j));
                        group[a] = b;
                    }
                }
            }
        }
        let mut counts = vec![0u32; comps.len()];
        for i in 0..comps.len() {
            let r = root(&mut group, i);
            counts[r] += 1;
        }
        counts.into_iter().max().unwrap_or(0)
    }
}

static MAPS: OnceLock<Vec<Map>> = OnceLock::new();

/// The map of sides `sides` (each 1 or 2, modules A–D) for `mode`.
pub fn map(sides: [u8; 4], mode: Mode) -> &'static Map {
    let maps = MAPS.get_or_init(|| {
        let mut v = Vec::with_capacity(48);
        for code in 0..16u8 {
            let s = [0, 1, 2, 3].map(|i| 1 + ((code >> i) & 1));
            for mode in [Mode::Solo, Mode::Small, Mode::Large] {
                v.push(Map::build(s, mode));
            }
        }
        v
    });
    let code = sides
        .iter()
        .enumerate()
        .fold(0usize, |c, (i, &s)| c | (usize::from(s == 2) << i));
    // Always below 48.
    &maps[(code * 3 + mode.index()).min(maps.len() - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tabled_crossing_and_reach_one_hex_at_a_time_are_the_search_from_every_unit() {
        // Every map, both rules, every tabled length and one past, from sets of shore and
        // inland hexes drawn by a fixed xorshift.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for code in 0..16u8 {
            let sides = [0, 1, 2, 3].map(|i| 1 + ((code >> i) & 1));
            for mode in [Mode::Solo, Mode::Small, Mode::Large] {
                let m = map(sides, mode);
                assert_ne!(m.shore, 0);
                for _ in 0..40 {
                    let from = (u128::from(next()) << 64 | u128::from(next()))
                        & (u128::from(next()) << 64 | u128::from(next()))
                        & (m.land | m.loch | m.port_mask);
                    for lochs in 0..=LOCH_TABLE as u8 + 1 {
                        for dry in [false, true] {
                            let crossing = m.flood(from, lochs, dry);
                            assert_eq!(
                                m.across_lochs(from, lochs, dry),
                                crossing,
                                "{sides:?} {mode:?} {lochs} {dry}"
                            );
                            // One hex at a time, read backwards; and the whole reach.
                            let reach = m.reach(from, lochs + 1, dry);
                            for h in (0..HEXES as u8).map(Hex) {
                                let has = |set: u128| set & h.bit() != 0;
                                assert_eq!(m.crosses_to(from, lochs, dry, h), has(crossing));
                                assert_eq!(m.reaches(from, lochs + 1, dry, h), has(reach));
                            }
                            let inland = m.reach(from, 0, dry);
                            for h in (0..HEXES as u8).map(Hex) {
                                assert_eq!(m.reaches(from, 0, dry, h), inland & h.bit() != 0);
                            }
                            // The four ports at once, one port at a time.
                            for shipping in [0, lochs + 1] {
                                let one_by_one = (0..4).fold(0u8, |mask, k| {
                                    let hit = m.port_in_reach(from, shipping, dry, m.ports[k]);
                                    mask | (u8::from(hit) << k)
                                });
                                assert_eq!(m.ports_in_reach(from, shipping, dry), one_by_one);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_dry_edge_is_an_edge() {
        for mode in [Mode::Solo, Mode::Small, Mode::Large] {
            let m = map([2, 1, 2, 1], mode);
            for (&dry, &adj) in m.adj_dry.iter().zip(&ADJ) {
                assert_eq!(dry & !adj, 0, "a dry edge that is not an edge");
            }
        }
    }

    #[test]
    fn adjacency_is_symmetric_and_rivers_agree() {
        for mode in [Mode::Solo, Mode::Small, Mode::Large] {
            let m = map([1, 2, 1, 2], mode);
            for (i, &dry) in m.adj_dry.iter().enumerate() {
                for j in bits(dry) {
                    assert!(m.adj_dry[usize::from(j.0)] & Hex(i as u8).bit() != 0);
                }
            }
            assert_eq!(
                m.ports
                    .iter()
                    .map(|h| h.bit())
                    .fold(0, |a, b| a | b)
                    .count_ones(),
                4
            );
            assert!(m.land & m.loch == 0 && m.land & m.port_mask == 0);
        }
    }

    #[test]
    fn small_map_is_smaller() {
        let big = map([1, 1, 1, 1], Mode::Large).land.count_ones();
        let small = map([1, 1, 1, 1], Mode::Small).land.count_ones();
        let solo = map([1, 1, 1, 1], Mode::Solo).land.count_ones();
        assert!(big > small && small > solo, "{big} {small} {solo}");
    }
}
