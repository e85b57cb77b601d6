//! Tests of the embedded component data: it loads, validates, matches the reference's
//! high-confidence values, and counts every reconstructed item.

use super::*;

#[test]
fn embedded_data_loads_and_validates() {
    let c = Components::load().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.contracts.len(), 50);
    assert_eq!(
        c.contracts[5].hops, 3,
        "tile 6 shows 3 hops (reference correction)"
    );
    assert_eq!(c.unit_cost, [8, 9, 18, 12, 8, 10, 6, 10]);
    assert_eq!(c.start_tiles.len(), 9);
}

/// The values the reference gives with high confidence (shared reference data, checked
/// against it when this file was written), pinned so a data edit cannot drift silently.
#[test]
fn high_confidence_values_match_the_reference() {
    let c = Components::load().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.tracks[0].prices, [3, 3, 4, 4, 5, 5, 6, 6, 7, 8]);
    assert_eq!((c.tracks[0].start, c.tracks[0].bracket), (3, [3, 6]));
    let nb = &c.neighbour;
    assert_eq!(
        (nb.discount_basic, nb.discount_processed, nb.cap, nb.cap_2p),
        (2, 3, 3, 4)
    );
    assert_eq!(c.obtain_money, [5, 0, -5, -10, -15]);
    assert_eq!(c.pass_money[4], [16, 14, 12, 10]);
    assert_eq!(c.pass_money[1], [16]);
    assert_eq!((c.tech.cost, c.tech.bonus_cost, c.ship_cost), (10, 5, 4));
    assert_eq!(
        (c.merchants.track, c.merchants.stock, c.merchants.hire_cost),
        (5, 2, 4)
    );
    assert_eq!((c.income.woodcutter, c.income.miner), ([4, 6], [6, 8]));
    assert_eq!(c.income.macdonald_worker, 4);
    assert_eq!(c.final_.exports, [12, 6]);
    assert_eq!(c.final_.exports_2p, [8]);
    assert_eq!(c.final_.settlements, [18, 12, 6]);
    assert_eq!(c.final_.settlements_2p, [12]);
    assert_eq!(c.final_.import_values, [5, 4, 3]);
    assert_eq!(c.clan.campbell_discount, [3, 4, 4, 5]);
    assert_eq!(c.clan.robertson_discount, [2, 3]);
    assert_eq!((c.clan.cunningham_milk, c.clan.mackenzie_income), (8, 3));
    assert_eq!(
        (c.clan.fergusson_ship, c.clan.macdonald_ship),
        ([2, 3], [1, 0])
    );
    assert_eq!((c.clan.stewart_stock, c.clan.stewart_ship), (5, 1));
    let b = &c.building;
    assert_eq!(
        (b.draw, b.keep, b.buchanan_draw, b.buchanan_keep),
        (3, 1, 6, 2)
    );
}

#[test]
fn coverage_counts_both_kinds() {
    let c = coverage();
    assert!(c.verified >= 50 + 8 + 9 + 9, "{c:?}");
    // 240 map hexes, 9 start tiles, 5 market tracks, the cellar, MacEwen's beer money, …
    assert!(c.reconstructed >= 240 + 9 + 5 + 2, "{c:?}");
}

/// The per-hex map data is entirely reconstructed: every hex is its own reconstructed
/// item, so the verified share cannot count the map as 8 items and overstate itself.
#[test]
fn every_map_hex_is_marked_reconstructed() {
    let v: serde_json::Value =
        serde_json::from_str(text(&FILES, "map.json")).unwrap_or_else(|e| panic!("{e}"));
    let mut hexes = 0;
    for side in v["module_sides"].as_array().into_iter().flatten() {
        for h in side["hexes"].as_array().into_iter().flatten() {
            assert_eq!(h["reconstructed"], serde_json::json!(true), "{h}");
            hexes += 1;
        }
    }
    assert_eq!(hexes, 8 * 30);
    let map = DataCoverage::of_json(text(&FILES, "map.json"));
    assert!(map.reconstructed >= 240 && map.verified <= 4, "{map:?}");
    assert!(coverage().verified_share() < 0.5, "{:?}", coverage());
}

/// A price die with a face beyond ±9 (the faces are kept as bits of `d + 9`) is refused when
/// the data loads, the most negative `i8` included (whose absolute value does not fit one).
#[test]
fn price_die_faces_beyond_nine_are_refused() {
    for faces in [vec![-3, 10], vec![-128, 1], vec![0, 1]] {
        let mut market: serde_json::Value =
            serde_json::from_str(text(&FILES, "market.json")).expect("market.json");
        market["drift_dice"]["price_die"] = serde_json::json!(faces);
        let market = market.to_string();
        let mut files: [(&str, &str); 7] = FILES;
        for f in files.iter_mut().filter(|f| f.0 == "market.json") {
            f.1 = &market;
        }
        let err = Components::load_from(&files).err();
        assert_eq!(err.as_deref(), Some("market: bad drift dice"), "{faces:?}");
    }
}
