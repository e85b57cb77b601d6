//! Statistics against hand-computed values on crafted games, and projections: rebuilt equals
//! incremental.

use analysis::stats::round2;
use analysis::summary::{GameSummary, SeatSummary};
use analysis::{stats, Analysis, StatsFilter};
use chrono::{DateTime, Duration, Utc};
use rules_core::{Erased, GameKind, Registry};
use store::{Config, GameId, GameLog, Store};

fn seat(player: &str, total: i32, won: bool, tags: &[&str], gold: i32) -> SeatSummary {
    SeatSummary {
        player: player.into(),
        total,
        breakdown: vec![("gold".into(), gold), ("tiles".into(), total - gold)],
        won,
        tags: tags.iter().map(|t| t.to_string()).collect(),
    }
}

fn game(n: u64, seats: Vec<SeatSummary>, plies: u32, minutes: i64) -> GameSummary {
    let t0 = DateTime::from_timestamp(1_790_000_000 + n as i64 * 3600, 0).unwrap();
    GameSummary {
        id: GameId(n),
        kind: GameKind::FiveTribes,
        seats,
        plies,
        rounds: plies / 40,
        created_at: t0,
        updated_at: t0 + Duration::minutes(minutes),
    }
}

/// Three 2-player games:
/// 1. ann 100 (wins, tag clan:x) vs bob 80
/// 2. ann 90 vs bob 90 (tie: both win, bob has tag clan:x)
/// 3. bob 120 (wins) vs cid 60 (tag port:10)
fn crafted() -> Vec<GameSummary> {
    vec![
        game(
            1,
            vec![
                seat("ann", 100, true, &["clan:x"], 10),
                seat("bob", 80, false, &[], 20),
            ],
            200,
            30,
        ),
        game(
            2,
            vec![
                seat("ann", 90, true, &[], 30),
                seat("bob", 90, true, &["clan:x"], 0),
            ],
            240,
            60,
        ),
        game(
            3,
            vec![
                seat("bob", 120, true, &[], 40),
                seat("cid", 60, false, &["port:10"], 5),
            ],
            280,
            90,
        ),
    ]
}

#[test]
fn statistics_match_hand_computed_values() {
    let games = crafted();
    let s = stats::compute(&games);
    assert_eq!(s.games, 3);
    assert_eq!(s.by_player_count.len(), 1, "every game has two seats");
    let two = s.player_count(2).unwrap();
    assert_eq!((two.games, two.ties, two.tie_rate), (3, 1, 0.3333));
    // Seat 0 wins games 1, 3 and half of game 2: 2.5 of 3. Seat 1: half of game 2.
    let (s0, s1) = (&two.by_seat[0], &two.by_seat[1]);
    assert_eq!(
        (s0.seat, s0.win.trials, s0.win.wins, s0.win.successes),
        (0, 3, 3, 2.5)
    );
    assert_eq!(
        (s1.seat, s1.win.trials, s1.win.wins, s1.win.successes),
        (1, 3, 1, 0.5)
    );
    assert_eq!((s0.win.rate, s1.win.rate), (0.8333, 0.1667));
    // 310 / 3 and 230 / 3, to 2 decimals.
    assert_eq!((s0.mean_score, s1.mean_score), (103.33, 76.67));
    // Tags, grouped by the part before `:`.
    let groups: Vec<&str> = two.tag_groups.iter().map(|g| g.group.as_str()).collect();
    assert_eq!(groups, ["clan", "port"]);
    assert_eq!(s.tag_groups(), ["clan", "port"]);
    // clan:x: ann in game 1 (a win), bob in game 2 (half a win); mean score (100 + 90) / 2.
    let x = &two.tag_groups[0].tags[0];
    assert_eq!((x.tag.as_str(), x.value.as_str()), ("clan:x", "x"));
    assert_eq!(
        (x.count, x.win.wins, x.win.successes, x.mean_score),
        (2, 2, 1.5, 95.0)
    );
    let y = &two.tag_groups[1].tags[0];
    assert_eq!((y.tag.as_str(), y.value.as_str()), ("port:10", "10"));
    assert_eq!(
        (y.count, y.win.wins, y.win.successes, y.win.rate),
        (1, 0, 0.0, 0.0)
    );
    // Scores: 60 80 90 90 100 120 → median 90, mean 90, p10 70, p90 110.
    let d = s.scores.total.unwrap();
    assert_eq!(
        (d.count, d.min, d.max, d.median, d.mean, d.p10, d.p90),
        (6, 60, 120, 90.0, 90.0, 70.0, 110.0)
    );
    assert_eq!(
        two.scores, s.scores.total,
        "one player count: the same seats"
    );
    // Per category, in score-sheet order: gold 0 5 10 20 30 40.
    assert_eq!(s.scores.by_category[0].category, "gold");
    assert_eq!(s.scores.by_category[0].scores.median, 15.0);
    assert_eq!(s.scores.by_category[1].category, "tiles");
    // Lengths: plies 200 240 280; rounds 5 6 7; wall time 30, 60, 90 minutes.
    assert_eq!(s.lengths.plies.unwrap().median, 240.0);
    assert_eq!(s.lengths.rounds.unwrap().mean, 6.0);
    assert_eq!(s.lengths.wall_millis.unwrap().mean, 3_600_000.0);
    // Filters: a player's games, a tag's games.
    let count = |f: &StatsFilter| stats::compute(games.iter().filter(|g| f.accepts(g))).games;
    let only_cid = StatsFilter {
        player: Some("cid".into()),
        ..Default::default()
    };
    assert_eq!(count(&only_cid), 1);
    let tag_x = StatsFilter {
        tag: Some("clan:x".into()),
        ..Default::default()
    };
    assert_eq!(count(&tag_x), 2);
    let three = StatsFilter {
        player_count: Some(3),
        ..Default::default()
    };
    assert_eq!(count(&three), 0);
    let since = StatsFilter {
        since: Some(games[1].created_at),
        ..Default::default()
    };
    assert_eq!(count(&since), 2);
}

/// A solo game, a 3-player game with a 3-way tie, and the crafted 2-player games: each player
/// count is counted apart, and the solo win never reaches a multiplayer figure.
#[test]
fn win_rates_are_split_by_player_count() {
    let mut games = crafted();
    games.push(game(
        4,
        vec![seat("sol", 75, true, &["clan:x", "port:3"], 15)],
        90,
        20,
    ));
    games.push(game(
        5,
        vec![
            seat("ann", 50, true, &["clan:x"], 10),
            seat("bob", 50, true, &["clan:z"], 10),
            seat("cid", 50, true, &["clan:x", "port:3"], 10),
        ],
        300,
        40,
    ));
    let s = stats::compute(&games);
    assert_eq!(s.games, 5);
    let counts: Vec<(u32, u64)> = s
        .by_player_count
        .iter()
        .map(|p| (p.players, p.games))
        .collect();
    assert_eq!(counts, [(1, 1), (2, 3), (3, 1)]);
    // Solo: one seat, won, its tags apart.
    let solo = s.player_count(1).unwrap();
    assert_eq!(solo.by_seat.len(), 1);
    assert_eq!((solo.by_seat[0].win.rate, solo.ties), (1.0, 0));
    let solo_x = &solo.tag_groups[0].tags[0];
    assert_eq!(
        (solo_x.tag.as_str(), solo_x.count, solo_x.win.rate),
        ("clan:x", 1, 1.0)
    );
    // Two players: exactly what the 2-player games alone give.
    let only_two = stats::compute(&games[..3]);
    assert_eq!(s.player_count(2), only_two.player_count(2));
    // Three players: a 3-way tie is a third of a win each, counted whole in `wins`.
    let three = s.player_count(3).unwrap();
    assert_eq!((three.ties, three.tie_rate), (1, 1.0));
    for seat in &three.by_seat {
        assert_eq!(
            (seat.win.wins, seat.win.successes, seat.win.rate),
            (1, 0.3333, 0.3333)
        );
    }
    let clan = &three.tag_groups[0];
    let values: Vec<&str> = clan.tags.iter().map(|t| t.value.as_str()).collect();
    assert_eq!((clan.group.as_str(), values), ("clan", vec!["x", "z"]));
    assert_eq!(
        (clan.tags[0].count, clan.tags[0].win.successes),
        (2, 0.6667)
    );
    // Ports sort by number: 3 before 10 (at no single player count here, so across them).
    assert_eq!(s.tag_groups(), ["clan", "port"]);
    // Scores and lengths cover every counted game; each player count has its own totals.
    assert_eq!(s.scores.total.unwrap().count, 6 + 1 + 3);
    assert_eq!(solo.scores.unwrap().mean, 75.0);
    assert_eq!(three.scores.unwrap().count, 3);
    // Filtering on the player count gives that count only.
    let solo_only = StatsFilter {
        player_count: Some(1),
        ..Default::default()
    };
    let s1 = stats::compute(games.iter().filter(|g| solo_only.accepts(g)));
    assert_eq!(s1.by_player_count.len(), 1);
    assert_eq!(s1.player_count(1), Some(solo));
}

/// Walks a JSON value and fails on any number printed with more than 4 decimals or with an
/// exponent (`22.000000000000455`, `5.55e-17`).
fn assert_rounded(v: &serde_json::Value, path: &str) {
    match v {
        serde_json::Value::Number(n) => {
            let text = n.to_string();
            let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
            assert!(
                !text.contains(['e', 'E']) && decimals <= 4,
                "{path} = {text}"
            );
        }
        serde_json::Value::Array(xs) => {
            for (i, x) in xs.iter().enumerate() {
                assert_rounded(x, &format!("{path}[{i}]"));
            }
        }
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                assert_rounded(x, &format!("{path}.{k}"));
            }
        }
        _ => {}
    }
}

/// Games built to make float noise: thirds of wins, means of sevenths, quantiles between ranks.
#[test]
fn figures_reach_json_rounded() {
    let mut games = Vec::new();
    for n in 0..7u64 {
        let t = (n * 37 % 11) as i32;
        let tie = n % 3 == 0;
        games.push(game(
            n + 1,
            vec![
                seat("a", 10 + t, true, &["g:one"], t),
                seat("b", 10 + t, tie, &["g:two"], 1),
                seat("c", 3 + t, tie, &["g:one", "h:x"], 2),
            ],
            100 + 7 * n as u32,
            n as i64 * 7 + 1,
        ));
    }
    let s = stats::compute(&games);
    let json = serde_json::to_value(&s).unwrap();
    assert_rounded(&json, "statistics");
    // Rates and bounds carry 4 decimals, means 2: spot checks of what is kept.
    let three = s.player_count(3).unwrap();
    let a = three.by_seat[0].win;
    assert_eq!((a.trials, a.wins), (7, 7));
    assert_eq!(a.successes, 5.0, "{a:?}"); // 4 wins + 3 thirds
    assert_eq!(a.rate, 0.7143);
    let c = three.by_seat[2].win;
    assert_eq!((c.wins, c.successes, c.rate), (3, 1.0, 0.1429));
    assert_eq!(
        three.by_seat[1].mean_score,
        round2(three.by_seat[1].mean_score)
    );
    // Counts serialize as integers.
    assert!(
        json["games"].is_u64()
            && json["by_player_count"][0]["by_seat"][0]["win"]["trials"].is_u64()
    );
    assert!(json["scores"]["total"]["min"].is_i64());
}

#[test]
fn ratings_follow_results() {
    let games = crafted();
    let r = analysis::ratings::ratings(&games);
    let get = |p: &str| r.iter().find(|x| x.player == p).unwrap().clone();
    let (ann, bob, cid) = (get("ann"), get("bob"), get("cid"));
    assert_eq!((ann.games, bob.games, cid.games), (2, 3, 1));
    // ann won once and tied once; cid only lost: ann above cid, cid below the start (25).
    assert!(ann.rating > 25.0 && cid.rating < 25.0, "{r:?}");
    assert!(ann.rating > cid.rating);
    // Everyone who played is less uncertain than at the start.
    assert!(r.iter().all(|x| x.uncertainty < 25.0 / 3.0));
    // Best first by μ − 3σ.
    assert!(r.windows(2).all(|w| w[0].ordinal >= w[1].ordinal));
}

#[test]
fn projections_rebuilt_equal_projections_kept_incrementally() {
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::new().with(Erased::<five_tribes::FiveTribes>::new());
    let store = Store::open(dir.path(), registry, Config::default()).unwrap();
    let analysis = Analysis::attach(&store, [0; 16]).unwrap();
    let sample = include_str!("../../../tests/data/random-samples/five-tribes.ndjson");
    for (i, line) in sample.lines().take(60).enumerate() {
        store.import_line(i as u64 + 1, line).unwrap();
    }
    assert_eq!(
        analysis.len(),
        60,
        "each finished import updated the projection"
    );
    let incremental = analysis.summaries();
    let stats_before = analysis.statistics(GameKind::FiveTribes, &StatsFilter::default());
    assert_rounded(&serde_json::to_value(&*stats_before).unwrap(), "samples");
    assert_eq!(stats_before.games, 60);
    analysis.clear(&store).unwrap();
    assert!(analysis.is_empty());
    store.rebuild(&mut |_, _| {}).unwrap();
    assert_eq!(analysis.summaries(), incremental);
    assert_eq!(
        analysis.statistics(GameKind::FiveTribes, &StatsFilter::default()),
        stats_before
    );
    // And a fresh attach reads the same projection back from the store.
    drop(analysis);
    let again = Analysis::attach(&store, [0; 16]).unwrap();
    assert_eq!(again.summaries(), incremental);
    let _ = Utc::now();
}

/// `n` varied games from a seed: 1 to 4 seats, ties, tags, categories, lengths and wall times
/// over wide ranges (a small linear congruential generator: no dependency, same every run).
fn varied(n: u64, seed: u64) -> Vec<GameSummary> {
    let mut x = seed;
    let mut next = move |m: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % m
    };
    (0..n)
        .map(|i| {
            let players = 1 + next(4) as usize;
            let totals: Vec<i32> = (0..players).map(|_| next(40) as i32 * 5 - 20).collect();
            let best = *totals.iter().max().unwrap();
            let seats = totals
                .iter()
                .map(|&t| {
                    let mut tags: Vec<String> = Vec::new();
                    for _ in 0..next(3) {
                        tags.push(format!("clan:{}", next(12)));
                    }
                    tags.dedup();
                    if next(2) == 0 {
                        tags.push("plain".to_string());
                    }
                    let gold = next(30) as i32;
                    SeatSummary {
                        player: format!("p{}", next(9)),
                        total: t,
                        breakdown: vec![("gold".into(), gold), ("tiles".into(), t - gold)],
                        won: t == best,
                        tags,
                    }
                })
                .collect();
            game(i, seats, 50 + next(400) as u32, next(100_000) as i64)
        })
        .collect()
}

/// Aggregates of any split of the games, merged in any order, give exactly what a scan of
/// all of them gives — every figure, to the last bit (compared as JSON).
#[test]
fn merged_aggregates_equal_the_scan_of_the_same_games() {
    use analysis::stats::aggregate::Aggregate;
    for seed in 0..8u64 {
        let games = varied(300 + seed * 37, seed);
        let scan = serde_json::to_string(&stats::compute(&games)).unwrap();
        let whole = Aggregate::of(&games);
        assert_eq!(whole.games(), games.len() as u64);
        assert_eq!(serde_json::to_string(&whole.statistics()).unwrap(), scan);
        // Split into 1 + seed % 5 parts by id, merged last part first.
        let k = 1 + (seed % 5) as usize;
        let parts: Vec<Aggregate> = (0..k)
            .map(|p| Aggregate::of(games.iter().filter(|g| g.id.0 as usize % k == p)))
            .collect();
        let mut merged = Aggregate::default();
        for part in parts.iter().rev() {
            merged.merge(part);
        }
        assert_eq!(
            serde_json::to_string(&merged.statistics()).unwrap(),
            scan,
            "seed {seed}, {k} parts"
        );
        // A filter the parts were kept by (player count) is their merge too.
        let two = StatsFilter {
            player_count: Some(2),
            ..Default::default()
        };
        let scan_two = stats::compute(games.iter().filter(|g| two.accepts(g)));
        let by_count = Aggregate::of(games.iter().filter(|g| g.seats.len() == 2));
        assert_eq!(by_count.statistics(), scan_two);
    }
}
