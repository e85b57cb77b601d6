//! Views show each viewer only what the rules let it see (Ruling 13, F15): a spectator never
//! sees anyone's gold before the end, a seat sees its own, nobody sees deck order (it is not in
//! the state), and Sibittis's draw is seen by its drawer only.

use five_tribes::{FiveTribes, Options};
use rules_core::{playout, Game, Seat, ToAct, Viewer};

#[test]
fn gold_is_secret_until_the_end() {
    for seed in 0..12u64 {
        let players = 2 + (seed % 3) as u8;
        let p = playout::<FiveTribes>(&Options { players }, seed, 100_000, true).unwrap();
        let mut s = FiveTribes::new_game(&Options { players }).unwrap();
        for a in &p.log {
            FiveTribes::apply(&mut s, a).unwrap();
            let over = FiveTribes::to_act(&s) == ToAct::Over;
            let spectator = serde_json::to_value(FiveTribes::view(&s, Viewer::Spectator)).unwrap();
            for seat in spectator["seats"].as_array().unwrap() {
                assert_eq!(seat["gold"].is_null(), !over, "spectator gold: {seat}");
            }
            for viewer in 0..players {
                let v =
                    serde_json::to_value(FiveTribes::view(&s, Viewer::Seat(Seat(viewer)))).unwrap();
                for seat in v["seats"].as_array().unwrap() {
                    let own = seat["seat"] == viewer;
                    assert_eq!(
                        seat["gold"].is_null(),
                        !(own || over),
                        "seat {viewer} sees {seat}"
                    );
                }
            }
        }
    }
}

#[test]
fn sibittis_draw_is_seen_by_its_drawer_only() {
    let mut found = 0;
    for seed in 0..400u64 {
        let p = playout::<FiveTribes>(&Options { players: 3 }, seed, 100_000, true).unwrap();
        let mut s = FiveTribes::new_game(&Options { players: 3 }).unwrap();
        for a in &p.log {
            FiveTribes::apply(&mut s, a).unwrap();
            let spectator = serde_json::to_value(FiveTribes::view(&s, Viewer::Spectator)).unwrap();
            if spectator["turn"]["stage"] == "sibittis" && FiveTribes::to_act(&s) != ToAct::Chance {
                found += 1;
                let seat = spectator["turn"]["seat"].as_u64().unwrap() as u8;
                assert!(spectator["turn"]["sibittis"].is_null());
                assert!(spectator["turn"]["sibittisCount"].as_u64().unwrap() > 0);
                let own =
                    serde_json::to_value(FiveTribes::view(&s, Viewer::Seat(Seat(seat)))).unwrap();
                assert!(!own["turn"]["sibittis"].as_array().unwrap().is_empty());
                let other =
                    serde_json::to_value(FiveTribes::view(&s, Viewer::Seat(Seat((seat + 1) % 3))))
                        .unwrap();
                assert!(other["turn"]["sibittis"].is_null());
            }
        }
        if found >= 3 {
            break;
        }
    }
    assert!(found > 0, "no Sibittis draw in 400 random games");
}

#[test]
fn a_state_fits_in_a_few_kilobytes() {
    // Recorded in ops/BENCHMARKS.md:
    // `cargo test -p five-tribes --test views -- --nocapture a_state_fits`
    let size = std::mem::size_of::<five_tribes::State>();
    eprintln!("size_of::<State>() = {size} bytes");
    assert!(size <= 2048, "State is {size} bytes");
}
