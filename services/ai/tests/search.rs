//! The search over the three games, through the contract only: a search is a function of its
//! seed; a bot's every move is legal (the arena plays them through the reducer); and MCTS
//! beats random seats by a margin chance cannot give at this count.
use ai::{arena, play_game, search, BotSpec, Rollout, SearchConfig};
use rules_core::{Game, ToAct};

fn options<G: Game>(players: u8) -> G::Options {
    serde_json::from_value(serde_json::json!({ "players": players })).unwrap()
}

/// The positions of a random game where a seat chooses among several moves.
fn decisions<G: Game>(players: u8, seed: u64) -> Vec<G::State> {
    let spec = [BotSpec::Random; 4];
    let played = play_game::<G>(
        &options::<G>(players),
        &spec[..usize::from(players)],
        seed,
        100_000,
    )
    .unwrap();
    let mut s = G::new_game(&options::<G>(players)).unwrap();
    let mut out = Vec::new();
    let mut list = G::MoveList::default();
    for a in &played.log {
        if let ToAct::Seat(seat) = G::to_act(&s) {
            G::legal_moves_of(&s, seat, &mut list);
            if rules_core::MoveBuf::as_slice(&list).len() > 1 && out.len() < 6 {
                out.push(s.clone());
            }
        }
        G::apply(&mut s, a).unwrap();
    }
    out
}

fn same_seed_same_search<G: Game>() {
    for s in decisions::<G>(3, 11) {
        let ToAct::Seat(me) = G::to_act(&s) else {
            continue;
        };
        let cfg = SearchConfig::new(60, Rollout::Greedy);
        let (a, sa) = search::<G>(&s, me, &cfg, 5).unwrap();
        let (b, sb) = search::<G>(&s, me, &cfg, 5).unwrap();
        assert_eq!(a, b, "{:?}", G::KIND);
        assert_eq!(
            (sa.nodes, sa.visits, sa.rollout_plies),
            (sb.nodes, sb.visits, sb.rollout_plies)
        );
        assert_eq!(sa.iterations, 60);
        // The move is one of the seat's own.
        let mut list = G::MoveList::default();
        G::legal_moves_of(&s, me, &mut list);
        assert!(rules_core::MoveBuf::as_slice(&list).contains(&a));
    }
}

#[test]
fn a_search_is_a_function_of_its_seed() {
    same_seed_same_search::<five_tribes::FiveTribes>();
    same_seed_same_search::<caledonia::Caledonia>();
    same_seed_same_search::<mombasa::Mombasa>();
}

/// MCTS at a small budget against a random seat, two players, seats rotated: with `n` games
/// a bot no better than random wins `k` or more of them with probability below 0.5 %.
fn mcts_beats_random<G: Game>(games: u64, need: f64)
where
    G::Options: Sync,
{
    let bots = ["mcts:40:greedy".parse().unwrap(), BotSpec::Random];
    let r = arena::<G>(&options::<G>(2), 2, &bots, games, 7, 2).unwrap();
    let mcts = &r.bots[0];
    eprintln!("{:?}: {:?}", G::KIND, r.bots);
    assert_eq!(mcts.games, games);
    assert!(
        mcts.wins >= need,
        "{:?}: MCTS won {} of {games}: {:?}",
        G::KIND,
        mcts.wins,
        r.bots
    );
    assert!(mcts.mean_score > r.bots[1].mean_score, "{:?}", r.bots);
}

#[test]
fn mcts_beats_random_seats_in_five_tribes() {
    mcts_beats_random::<five_tribes::FiveTribes>(12, 11.0);
}

#[test]
fn mcts_beats_random_seats_in_caledonia() {
    mcts_beats_random::<caledonia::Caledonia>(12, 11.0);
}

#[test]
fn mcts_beats_random_seats_in_mombasa() {
    mcts_beats_random::<mombasa::Mombasa>(12, 11.0);
}
