//! One player's results and rating history against hand-computed values on crafted games: the
//! history is the walk `ratings` makes (its last point is the player's rating there), bounded
//! to the points asked for; results split solo games from games against others.

use analysis::players::results;
use analysis::ratings::{history, ratings};
use analysis::summary::{GameSummary, SeatSummary};
use chrono::{DateTime, Duration};
use rules_core::GameKind;
use store::GameId;

fn seat(player: &str, total: i32, won: bool) -> SeatSummary {
    SeatSummary {
        player: player.into(),
        total,
        breakdown: vec![("all".into(), total)],
        won,
        tags: Vec::new(),
    }
}

fn game(n: u64, kind: GameKind, seats: Vec<SeatSummary>) -> GameSummary {
    let t0 = DateTime::from_timestamp(1_790_000_000 + n as i64 * 3600, 0).unwrap();
    GameSummary {
        id: GameId(n),
        kind,
        seats,
        plies: 100,
        rounds: 5,
        created_at: t0,
        updated_at: t0 + Duration::minutes(30),
    }
}

/// Five Tribes: ann beats bob; ann and bob tie; bob, cid, ann in that order (3 seats).
/// Caledonia: ann alone (a solo game, won), then ann loses to cid.
fn crafted() -> Vec<GameSummary> {
    use GameKind::{ClansOfCaledonia as Cal, FiveTribes as Ft};
    vec![
        game(1, Ft, vec![seat("ann", 100, true), seat("bob", 80, false)]),
        game(2, Cal, vec![seat("ann", 150, true)]),
        game(3, Ft, vec![seat("ann", 90, true), seat("bob", 90, true)]),
        game(
            4,
            Cal,
            vec![seat("cid", 120, true), seat("ann", 110, false)],
        ),
        game(
            5,
            Ft,
            vec![
                seat("bob", 120, true),
                seat("cid", 60, false),
                seat("ann", 50, false),
            ],
        ),
    ]
}

fn of(games: &[GameSummary], kind: GameKind) -> Vec<&GameSummary> {
    games.iter().filter(|g| g.kind == kind).collect()
}

#[test]
fn the_history_is_the_walk_ratings_make() {
    let games = crafted();
    let ft = of(&games, GameKind::FiveTribes);
    let (points, now) = history(ft.iter().copied(), "ann", 100);
    assert_eq!(
        points.iter().map(|p| p.game).collect::<Vec<_>>(),
        [GameId(1), GameId(3), GameId(5)]
    );
    assert_eq!(
        points.iter().map(|p| p.games).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(points[0].ended_at, games[0].updated_at);
    // A win raises the rating, the last place lowers it; uncertainty only shrinks.
    assert!(points[0].rating > 25.0 && points[2].rating < points[1].rating);
    assert!(points
        .windows(2)
        .all(|w| w[1].uncertainty < w[0].uncertainty));
    for p in &points {
        assert_eq!(p.ordinal, p.rating - 3.0 * p.uncertainty);
    }
    // The last point is the rating `ratings` gives ann.
    let now = now.unwrap();
    let table = ratings(ft.iter().copied());
    let listed = table.iter().find(|r| r.player == "ann").unwrap();
    assert_eq!(&now, listed);
    let last = points.last().unwrap();
    assert_eq!(
        (last.rating, last.uncertainty, last.ordinal, last.games),
        (now.rating, now.uncertainty, now.ordinal, now.games)
    );
    // Bounded: the last two points, the same values.
    let (two, _) = history(ft.iter().copied(), "ann", 2);
    assert_eq!(two, points[1..]);
    let (none, still) = history(ft.iter().copied(), "ann", 0);
    assert!(none.is_empty());
    assert_eq!(still.as_ref(), Some(&now));
    // A solo game is not rated: Caledonia has one point for ann; nobody has none.
    let (cal, _) = history(of(&games, GameKind::ClansOfCaledonia), "ann", 100);
    assert_eq!(cal.len(), 1);
    assert_eq!(cal[0].game, GameId(4));
    let (nobody, rating) = history(ft.iter().copied(), "dan", 100);
    assert!(nobody.is_empty() && rating.is_none());
}

#[test]
fn results_split_kinds_and_player_counts() {
    let games = crafted();
    let r = results(&games, "ann", |kind| history(of(&games, kind), "ann", 0).1);
    assert_eq!(
        r.iter().map(|k| k.kind).collect::<Vec<_>>(),
        [GameKind::FiveTribes, GameKind::ClansOfCaledonia]
    );
    let ft = &r[0];
    // Three games: won, shared, third of three.
    assert_eq!(
        (ft.figures.games, ft.figures.wins, ft.figures.shared_wins),
        (3, 2, 1)
    );
    assert_eq!(ft.figures.win_rate, Some(0.6667));
    assert_eq!(ft.figures.mean_score, Some(80.0));
    // Places 1, 1 (a tie shares the better place), 3.
    assert_eq!(ft.figures.mean_rank, Some(1.67));
    assert_eq!(ft.solo_games, 0);
    assert_eq!(ft.rating.as_ref().unwrap().games, 3);
    assert_eq!(
        ft.by_player_count
            .iter()
            .map(|(n, f)| (*n, f.games, f.wins))
            .collect::<Vec<_>>(),
        [(2, 2, 2), (3, 1, 0)]
    );
    // Caledonia: the solo game is apart; the one game against cid was lost.
    let cal = &r[1];
    assert_eq!(cal.solo_games, 1);
    assert_eq!((cal.figures.games, cal.figures.wins), (1, 0));
    assert_eq!(
        (cal.figures.win_rate, cal.figures.mean_rank),
        (Some(0.0), Some(2.0))
    );
    assert_eq!(cal.by_player_count[0].0, 1);
    assert_eq!(cal.by_player_count[0].1.wins, 1);
    assert_eq!(cal.rating.as_ref().unwrap().games, 1);
    // Only solo games: no figures against others, no rating.
    let solo = [game(
        9,
        GameKind::ClansOfCaledonia,
        vec![seat("eve", 90, true)],
    )];
    let r = results(&solo, "eve", |kind| history(of(&solo, kind), "eve", 0).1);
    assert_eq!(r.len(), 1);
    assert_eq!((r[0].figures.games, r[0].figures.win_rate), (0, None));
    assert!(r[0].rating.is_none());
    assert!(results(&games, "nobody", |_| None).is_empty());
}
