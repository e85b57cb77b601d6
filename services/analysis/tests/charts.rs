//! Charts: well-formed SVG that states n and the filter, round ticks, one panel per player
//! count and tag group, the same bytes for the same statistics, and a message for no games.

use analysis::charts::{chart, ChartError, CHARTS};
use analysis::summary::{GameSummary, SeatSummary};
use analysis::{stats, Statistics, StatsFilter};
use chrono::{DateTime, Duration};
use rules_core::GameKind;
use store::GameId;

fn seat(total: i32, won: bool, tags: &[&str]) -> SeatSummary {
    SeatSummary {
        player: format!("p{total}"),
        total,
        breakdown: vec![
            ("money".into(), total / 3),
            ("glory".into(), total - total / 3),
        ],
        won,
        tags: tags.iter().map(|t| t.to_string()).collect(),
    }
}

fn game(n: u64, seats: Vec<SeatSummary>) -> GameSummary {
    let t0 = DateTime::from_timestamp(1_790_000_000 + n as i64 * 3600, 0).unwrap();
    GameSummary {
        id: GameId(n),
        kind: GameKind::ClansOfCaledonia,
        seats,
        plies: 100 + n as u32,
        rounds: 5,
        created_at: t0,
        updated_at: t0 + Duration::minutes(30),
    }
}

/// Two solo games and three 2-player ones, with clans and ports as Caledonia tags them.
fn games() -> Vec<GameSummary> {
    vec![
        game(1, vec![seat(140, true, &["clan:buchanan", "port:2"])]),
        game(2, vec![seat(95, true, &["clan:macdonald"])]),
        game(
            3,
            vec![
                seat(120, true, &["clan:buchanan", "port:2"]),
                seat(100, false, &["clan:macdonald", "port:10"]),
            ],
        ),
        game(
            4,
            vec![
                seat(90, false, &["clan:buchanan"]),
                seat(110, true, &["clan:<&>", "port:2"]),
            ],
        ),
        game(
            5,
            vec![
                seat(105, true, &["clan:buchanan"]),
                seat(105, true, &["clan:macdonald"]),
            ],
        ),
    ]
}

fn stats_of(filter: &StatsFilter) -> Statistics {
    let games = games();
    stats::compute(games.iter().filter(|g| filter.accepts(g)))
}

/// Parses `svg` as XML (it must be well-formed, with an `<svg>` root) and returns the text of
/// every `<text>` element, in document order.
fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect()
}

fn draw(name: &str, filter: &StatsFilter, group: Option<&str>) -> String {
    chart(name, "clans-of-caledonia", &stats_of(filter), filter, group).unwrap()
}

#[test]
fn every_chart_is_valid_svg_stating_n_and_the_filter() {
    let all = StatsFilter::default();
    let since = StatsFilter {
        player_count: Some(2),
        tag: Some("clan:buchanan".into()),
        since: DateTime::from_timestamp(1_790_000_000, 0),
        ..Default::default()
    };
    for name in CHARTS {
        let t = texts(&draw(name, &all, None));
        assert!(
            t.iter().any(|x| x == "n = 5 games · all games"),
            "{name}: {t:?}"
        );
        let t = texts(&draw(name, &since, None));
        let subtitle = "n = 3 games · 2 players · tag clan:buchanan · since 2026-09-21T14:13:20Z";
        assert!(t.iter().any(|x| x == subtitle), "{name}: {t:?}");
        assert!(t[0].starts_with("clans-of-caledonia: "), "{name}: {t:?}");
    }
}

#[test]
fn win_rates_are_drawn_per_player_count_on_round_ticks() {
    let t = texts(&draw("win-rate-by-seat", &StatsFilter::default(), None));
    // Solo games have their own panel, never pooled with the 2-player ones.
    assert!(t.contains(&"solo · 2 games".to_string()), "{t:?}");
    assert!(t.contains(&"2 players · 3 games".to_string()), "{t:?}");
    // Each seat of the 2-player games: a win and half a tie in 3, 50%.
    assert_eq!(
        t.iter().filter(|x| *x == "50.0% (n = 3)").count(),
        2,
        "{t:?}"
    );
    assert!(t.contains(&"100.0% (n = 2)".to_string()), "{t:?}");
    // Axis labels are the round percentages 0%, 10%, … 100%, in each panel.
    let ticks: Vec<&String> = t
        .iter()
        .filter(|x| x.ends_with('%') && !x.contains(' '))
        .collect();
    let expected: Vec<String> = (0..=10).map(|k| format!("{}%", k * 10)).collect();
    assert_eq!(ticks.len(), 2 * expected.len(), "{t:?}");
    for (got, want) in ticks.iter().zip(expected.iter().cycle()) {
        assert_eq!(*got, want);
    }
}

#[test]
fn tag_groups_get_panels_of_their_own() {
    let t = texts(&draw("win-rate-by-tag", &StatsFilter::default(), None));
    let captions: Vec<&String> = t.iter().filter(|x| x.contains(" games")).collect();
    assert_eq!(
        captions,
        [
            "n = 5 games · all games",
            "clan · solo · 2 games",
            "clan · 2 players · 3 games",
            "port · solo · 2 games",
            "port · 2 players · 3 games",
        ]
    );
    // Labels are the values after the group, escaped where needed (the XML parsed).
    assert!(t.contains(&"<&>".to_string()) && t.contains(&"10".to_string()));
    // One group on request: no port in sight.
    let t = texts(&draw(
        "win-rate-by-tag",
        &StatsFilter::default(),
        Some("clan"),
    ));
    assert!(t[0].ends_with("win rate by tag, group clan"), "{t:?}");
    assert!(!t.iter().any(|x| x.starts_with("port")), "{t:?}");
    // A group no game has says so and names those there are.
    let t = texts(&draw(
        "win-rate-by-tag",
        &StatsFilter::default(),
        Some("djinn"),
    ));
    assert!(
        t.contains(&"no tag of group djinn in these games (groups: clan, port)".to_string()),
        "{t:?}"
    );
}

#[test]
fn score_axes_have_round_ticks() {
    let t = texts(&draw("score-by-category", &StatsFilter::default(), None));
    assert!(
        t.contains(&"points per category · 8 seats".to_string()),
        "{t:?}"
    );
    assert!(
        t.contains(&"total points by player count".to_string()),
        "{t:?}"
    );
    let numbers: Vec<i64> = t.iter().filter_map(|x| x.parse().ok()).collect();
    // Categories span 30–93 and totals 90–140: ticks of 10 from 0 in the first panel, of 20
    // in the second.
    assert!(!numbers.is_empty(), "{t:?}");
    assert!(numbers.iter().all(|n| n % 10 == 0), "{numbers:?}");
    assert!(t
        .iter()
        .all(|x| x.parse::<f64>().is_err() || x.parse::<i64>().is_ok()));
}

#[test]
fn charts_are_deterministic() {
    let filter = StatsFilter::default();
    for name in CHARTS {
        let a = draw(name, &filter, None);
        let b = draw(name, &filter, None);
        assert_eq!(a, b, "{name}");
    }
}

#[test]
fn no_games_gives_a_chart_saying_so() {
    let filter = StatsFilter {
        player_count: Some(4),
        ..Default::default()
    };
    let empty = stats_of(&filter);
    assert_eq!(empty.games, 0);
    for name in CHARTS {
        let svg = chart(name, "clans-of-caledonia", &empty, &filter, Some("clan")).unwrap();
        let t = texts(&svg);
        assert!(t.contains(&"no games match".to_string()), "{name}: {t:?}");
        assert!(
            t.contains(&"n = 0 games · 4 players".to_string()),
            "{name}: {t:?}"
        );
    }
}

#[test]
fn unknown_charts_are_refused() {
    let s = stats_of(&StatsFilter::default());
    let e = chart("pie", "k", &s, &StatsFilter::default(), None).unwrap_err();
    assert!(matches!(e, ChartError::Unknown(ref n) if n == "pie"));
    assert!(e.to_string().contains("win-rate-by-seat"));
}

/// The accuracy chart: a range per player, a rate panel per player count, the same bytes for
/// the same rows, and a message instead of panels when no game is reviewed.
#[test]
fn the_accuracy_chart_draws_players_and_bands() {
    use analysis::charts::{accuracy_chart, band, AccuracySeat};
    let seat = |players, player: &str, accuracy, won| AccuracySeat {
        players,
        player: player.into(),
        accuracy,
        won,
    };
    let rows = vec![
        seat(2, "ann", 91.0, 1.0),
        seat(2, "bob", 62.0, 0.0),
        seat(2, "ann", 88.0, 0.0),
        seat(2, "bob", 95.0, 1.0),
        seat(3, "cy", 70.0, 1.0),
    ];
    let filter = StatsFilter::default();
    let svg = accuracy_chart("five-tribes", &filter, &rows, 10, 3).unwrap();
    let t = texts(&svg);
    assert_eq!(t[0], "five-tribes: accuracy");
    assert!(
        t.contains(&"n = 3 games reviewed · all games".to_string()),
        "{t:?}"
    );
    for label in ["ann", "bob", "cy", "60–70", "80–90", "90–100", "70–80"] {
        assert!(t.iter().any(|x| x == label), "{label}: {t:?}");
    }
    assert!(t.iter().any(|x| x.contains("2 players")) && t.iter().any(|x| x.contains("3 players")));
    assert_eq!(
        svg,
        accuracy_chart("five-tribes", &filter, &rows, 10, 3).unwrap()
    );
    let none = texts(&accuracy_chart("five-tribes", &filter, &[], 10, 0).unwrap());
    assert!(
        none.contains(&"no reviewed games match".to_string()),
        "{none:?}"
    );
    // Bands: 100 falls in the last one.
    assert_eq!(
        (
            band(0.0, 10),
            band(59.9, 10),
            band(100.0, 10),
            band(100.0, 30)
        ),
        (0, 50, 90, 90)
    );
}
