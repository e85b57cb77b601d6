//! Entries in words: typical moves and outcomes of the sample games read exactly as pinned
//! here, and every entry of random games under the current rules (whose steps the samples,
//! recorded under rules version 2, never reach: a fulfilment waiting on its free expansion,
//! its cancellation, the solo price die) is described without the default fallback.

use caledonia::{Caledonia, Chance, Options};
use rules_core::{
    playout, Action, Erased, Game, GameRules, GameState, Notation, Presentation, Viewer,
};
use scenario_harness::samples::records;

const SAMPLES: &str = include_str!("../../../tests/data/random-samples/caledonia.ndjson");

/// (sample, ply, the entry, as a spectator reads it).
const PINNED: &[(usize, usize, &str, &str)] = &[
    (0, 0, "deal sides=2112 ports=5,2,1,6 tiles=3,4,2,8,5 first=0 offer=fergusson/7,buchanan/2 boxes=20,21,48,26,5",
     "The dealer deals the table: module sides A2, B1, C1 and D2; ports 5, 2, 1 and 6 at the corners of modules A–D; scoring tiles 3, 4, 2, 8 and 5 for rounds 1–5; seat 0 goes first; clans offered: Fergusson (start tile 7) and Buchanan (start tile 2); contracts 20, 21, 48, 26 and 5 in the export boxes"),
    (0, 1, "clan buchanan", "Seat 0 chooses clan Buchanan (start tile 2)"),
    (0, 2, "place woodcutter b7", "Seat 0 places a woodcutter on b7"),
    (0, 4, "expand sheep e8", "Seat 0 expands with a sheep to e8 paying £10"),
    (0, 5, "buy cheese 1", "Seat 0 buys 1 cheese for £10"),
    (0, 7, "obtain 21", "Seat 0 takes contract 21 (1 whisky and 2 mutton for 1 hops, 3 sugar cane and a free expansion) from the export board receiving £5"),
    (0, 9, "pass", "Seat 0 passes, receiving £16"),
    (0, 10, "prep refill=35 drift=cheese-3,whisky+1,grain+3",
     "The dealer refills the contract boxes with contract 35; the market drifts: cheese -3, whisky +1 and grain +3"),
    (0, 12, "hire", "Seat 0 hires a merchant paying £4"),
    (0, 19, "sell wool 3", "Seat 0 sells 3 wool for £15"),
    (0, 22, "port 6 whisky+", "Seat 0 uses port 6 on b9: the whisky price moves 3 steps up"),
    (0, 24, "ship", "Seat 0 upgrades shipping to level 1 (across rivers) paying £4"),
    (1, 61, "done", "Seat 1 buys nothing more from its neighbours"),
    (2, 14, "tech miner", "Seat 2 upgrades its miners' technology paying £10"),
    (2, 88, "nb bread 1", "Seat 2 buys 1 bread from its neighbours at the discount paying £8"),
    (3, 25, "port 8", "Seat 1 uses port 8 on l10 receiving £5 and the building bonus"),
    (3, 26, "draw 18,5,31", "The dealer draws 3 contracts for seat 1"),
    (3, 27, "keep 18", "Seat 1 keeps contract 18 (1 bread and 3 beef for £10, 4 sugar cane and 2 bonus upgrades) receiving £5"),
    (3, 122, "fulfil 18 slaughter f1+g1+f2",
     "Seat 1 fulfils contract 18 (1 bread and 3 beef for £10, 4 sugar cane and 2 bonus upgrades), slaughtering the cow on f1, the cow on g1 and the cow on f2, receiving £10"),
    (3, 124, "upgrade ship", "Seat 1 takes a bonus upgrade: shipping to level 2 (across 1 loch)"),
    (5, 7, "port 2 grain>wool+wool+milk", "Seat 0 uses port 2 on k2, giving 1 grain for wool, wool and milk"),
    (6, 18, "swap b1 dairy", "Seat 0 exchanges the sheep on b1 for a dairy (port 7)"),
    (6, 64, "milk 1", "Seat 0 sells 1 milk to the supply receiving £8"),
    (10, 32, "row c4 d3", "Seat 1 rows a fisherman from c4 to d3"),
];

#[test]
fn typical_entries_read_as_pinned() {
    let rules = Erased::<Caledonia>::new();
    let all = records(SAMPLES);
    for &(sample, ply, entry, words) in PINNED {
        let r = &all[sample];
        let mut s = rules
            .new_game_recorded(&r.options, &r.rules_version, &r.data_hash)
            .unwrap();
        for (actor, text) in &r.entries[..ply] {
            s.apply(*actor, text).unwrap();
        }
        let (actor, text) = &r.entries[ply];
        assert_eq!(text, entry, "sample {sample} ply {ply}");
        assert_eq!(
            s.describe(*actor, text, Viewer::Spectator),
            words,
            "sample {sample} ply {ply}"
        );
    }
    // The omniscient viewer reads a building-bonus draw.
    let r = &all[3];
    let mut s: Box<dyn GameState> = rules
        .new_game_recorded(&r.options, &r.rules_version, &r.data_hash)
        .unwrap();
    for (actor, text) in &r.entries[..26] {
        s.apply(*actor, text).unwrap();
    }
    let (actor, text) = &r.entries[26];
    assert_eq!(
        s.describe(*actor, text, Viewer::Omniscient),
        "The dealer draws contracts 18, 5 and 31 for seat 1"
    );
}

#[test]
fn every_entry_of_random_games_under_the_current_rules_is_described() {
    let mut examples = std::collections::BTreeMap::new();
    for seed in 0..24u64 {
        let mut o = Options::new(1 + (seed % 4) as u8);
        o.kickstarter = seed % 3 == 0;
        o.market_drift = seed % 5 != 1;
        let p = playout::<Caledonia>(&o, seed, 20_000, true).unwrap();
        let mut s = Caledonia::new_game(&o).unwrap();
        for a in &p.log {
            let (words, notation) = match a {
                Action::Move(seat, m) => (
                    Caledonia::describe_move(&s, *seat, m),
                    Caledonia::format_move(m),
                ),
                Action::Chance(c) => {
                    let visible = Caledonia::chance_visible(&s, c, Viewer::Spectator);
                    assert_eq!(visible, !matches!(c, Chance::Draw(_)));
                    (
                        Caledonia::describe_chance(&s, c, visible),
                        Caledonia::format_chance(c),
                    )
                }
            };
            assert!(
                !words.contains(" plays ") && !words.starts_with("The dealer: "),
                "{notation}: {words}"
            );
            let key = notation.split(' ').next().unwrap_or("").to_string();
            examples
                .entry(key)
                .or_insert_with(|| format!("{notation} => {words}"));
            if words.contains("takes its free expansion") || words.contains("takes back") {
                examples
                    .entry(words.chars().take(40).collect())
                    .or_insert(words.clone());
            }
            Caledonia::apply(&mut s, a).unwrap();
        }
    }
    for e in examples.values() {
        eprintln!("{e}");
    }
}
