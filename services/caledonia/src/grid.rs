//! The hex grid's geometry, the same under every map: the six edge directions, the hex across
//! an edge, and every hex's neighbours as one table ([`ADJ`]) that all maps share (which of
//! those hexes are in play, and which edges a river crosses, is each map's own business).

use crate::ids::{Hex, HEXES};

/// Edge directions, in data order.
pub const DIRS: [&str; 6] = ["e", "ne", "nw", "w", "sw", "se"];
const OFF_EVEN: [(i32, i32); 6] = [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)];
const OFF_ODD: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)];

/// Every hex's edge neighbours, by hex index: one table for every map, not a copy in each of
/// the 48.
pub static ADJ: [u128; HEXES] = grid_adjacency();

/// [`ADJ`], worked out at compile time.
const fn grid_adjacency() -> [u128; HEXES] {
    let mut table = [0u128; HEXES];
    let mut i = 0;
    while i < HEXES {
        let mut d = 0;
        while d < 6 {
            if let Some(n) = neighbour(Hex(i as u8), d) {
                table[i] |= n.bit();
            }
            d += 1;
        }
        i += 1;
    }
    table
}

/// The hex across edge `d` ([`DIRS`]) of `h`, if on the grid.
pub const fn neighbour(h: Hex, d: usize) -> Option<Hex> {
    let (c, r) = (h.col() as i32, h.row() as i32);
    let (dc, dr) = if r % 2 == 1 {
        OFF_ODD[d % 6]
    } else {
        OFF_EVEN[d % 6]
    };
    Hex::at(c + dc, r + dr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::bits;

    #[test]
    fn adjacency_is_the_grid_worked_out_by_hand_and_symmetric() {
        let set = |names: &[&str]| {
            names
                .iter()
                .map(|n| Hex::parse(n).expect("a hex").bit())
                .fold(0, |a, b| a | b)
        };
        let at = |name: &str| ADJ[usize::from(Hex::parse(name).expect("a hex").0)];
        // A corner has two neighbours; a hex of an odd row (the second) leans right.
        assert_eq!(at("a1"), set(&["b1", "a2"]));
        assert_eq!(at("b2"), set(&["c2", "c1", "b1", "a2", "b3", "c3"]));
        assert_eq!(at("b3"), set(&["c3", "b2", "a2", "a3", "a4", "b4"]));
        for (i, &adj) in ADJ.iter().enumerate() {
            let h = Hex(i as u8);
            assert!((2..=6).contains(&adj.count_ones()), "hex {h}");
            for j in bits(adj) {
                assert!(ADJ[usize::from(j.0)] & h.bit() != 0, "{h} and {j}");
            }
        }
    }
}
