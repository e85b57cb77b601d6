//! A bot never reads what its seat cannot see: at positions where another seat's secret is
//! pending (Mombasa's face-down plans; a draw only its drawer saw), the other seats' hidden
//! information is replaced by another assignment consistent with the bot's view
//! (`Game::determinize` from the bot's own viewer), and the bot's choice at the same seed
//! must not change — for MCTS, greedy and random alike.
use ai::{play_game, BotSpec};
use rules_core::{Dealer, Game, Seat, ToAct, Viewer};

fn options<G: Game>(players: u8) -> G::Options {
    serde_json::from_value(serde_json::json!({ "players": players })).unwrap()
}

/// Positions of seeded random games where `me` may move while something is hidden from it,
/// with another assignment of what is hidden.
fn hidden_positions<G: Game>(players: u8, games: u64) -> Vec<(G::State, G::State, Seat)>
where
    G::State: PartialEq,
{
    let mut out = Vec::new();
    let bots = vec![BotSpec::Random; usize::from(players)];
    for g in 0..games {
        let played = play_game::<G>(&options::<G>(players), &bots, 1000 + g, 100_000).unwrap();
        let mut s = G::new_game(&options::<G>(players)).unwrap();
        for a in &played.log {
            if !matches!(G::to_act(&s), ToAct::Over | ToAct::Chance) {
                for me in G::seats_to_act(&s) {
                    for seed in 0..4 {
                        let other =
                            G::determinize(&s, Viewer::Seat(me), &mut Dealer::new(seed, 77));
                        if other != s {
                            out.push((s.clone(), other, me));
                            break;
                        }
                    }
                }
            }
            G::apply(&mut s, a).unwrap();
        }
    }
    out
}

fn choices_ignore_hidden_information<G: Game>(players: u8, games: u64, at_least: usize)
where
    G::State: PartialEq,
{
    let found = hidden_positions::<G>(players, games);
    assert!(
        found.len() >= at_least,
        "{:?}: {} positions with a secret pending",
        G::KIND,
        found.len()
    );
    let bots: [BotSpec; 3] = [
        "mcts:40:greedy".parse().unwrap(),
        BotSpec::Greedy,
        BotSpec::Random,
    ];
    for (i, (real, other, me)) in found.iter().enumerate().step_by((found.len() / 40).max(1)) {
        for bot in bots {
            let seed = 31 + i as u64;
            assert_eq!(
                bot.choose::<G>(real, *me, seed),
                bot.choose::<G>(other, *me, seed),
                "{:?}: {bot} as seat {me} chose differently once others' secrets changed",
                G::KIND
            );
        }
    }
}

#[test]
fn mombasa_bots_ignore_other_seats_plans() {
    choices_ignore_hidden_information::<mombasa::Mombasa>(3, 4, 20);
}

#[test]
fn five_tribes_and_caledonia_bots_ignore_what_they_cannot_see() {
    // Their secrets (a Sibittis draw, a building-bonus draw) are pending only while their
    // drawer decides, so no other seat decides beside one: the positions are counted, not
    // required.
    choices_ignore_hidden_information::<five_tribes::FiveTribes>(3, 3, 0);
    choices_ignore_hidden_information::<caledonia::Caledonia>(3, 3, 0);
}
