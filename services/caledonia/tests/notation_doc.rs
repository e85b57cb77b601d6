//! The notation document's example (`schema/notation/caledonia.md`) is a real game start: every
//! line of it parses, is accepted in order, and formats back to the same text; and the setup
//! it walks through gives the numbers the rules text and the data say. It was played under
//! rules version `clans-of-caledonia/2` (port 6 after the main action), which the document says
//! and this test replays it under.

use caledonia::ids::{Clan, Good};
use caledonia::{Caledonia, Options};
use rules_core::{Game, Notation, Seat, ToAct};

const DOC: &str = include_str!("../../../schema/notation/caledonia.md");

#[test]
fn the_documented_example_replays() {
    let block = DOC
        .split("```")
        .nth(1)
        .unwrap_or_else(|| panic!("no example block in the notation document"));
    let mut s = Caledonia::new_game_versioned(
        &Options::new(3),
        "clans-of-caledonia/2",
        &Caledonia::data_hash(),
    )
    .unwrap()
    .unwrap();
    let mut lines = 0;
    for line in block.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line == "…" {
            break;
        }
        let (who, text) = line.split_once(' ').unwrap();
        if who == "dealer" {
            let c = Caledonia::parse_chance(text).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(Caledonia::format_chance(&c), text);
            Caledonia::resolve(&mut s, &c).unwrap_or_else(|e| panic!("{line}: {e}"));
        } else {
            let seat = Seat(who.parse().unwrap());
            let m = Caledonia::parse_move(text).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(Caledonia::format_move(&m), text);
            Caledonia::play(&mut s, seat, &m).unwrap_or_else(|e| panic!("{line}: {e}"));
        }
        lines += 1;
        if lines == 4 {
            // After the clans (reverse turn order from first = 1: seats 0, 2, 1): each seat
            // has its start tile's money and goods (tile 8: £57, 3 wool, 1 milk) and its clan's
            // start (Stewart: 5 merchants available, river crossing; Fergusson with 3
            // players: two-loch shipping).
            let p = &s.seats[0];
            assert_eq!((p.clan, p.start_tile, p.money), (Clan::Stewart, 8, 57));
            assert_eq!(p.goods[Good::Wool.index()], 3);
            assert_eq!(p.goods[Good::Milk.index()], 1);
            assert_eq!(
                (p.merchants_stock, p.merchants_track, p.shipping),
                (5, 2, 1)
            );
            assert_eq!((s.seats[1].clan, s.seats[1].shipping), (Clan::Fergusson, 3));
            assert_eq!(s.seats[2].clan, Clan::Buchanan);
            assert_eq!(s.order.as_slice(), &[1, 2, 0]);
            assert_eq!(s.boxes.len(), 5, "3 players: one box stays empty");
        }
    }
    assert!(lines > 15, "only {lines} lines replayed");
    assert_eq!(s.round, 1);
    assert!(matches!(Caledonia::to_act(&s), ToAct::Seat(_)));
}
