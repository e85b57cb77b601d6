//! [`Game::determinize`] checked at one position, for property tests: what every game's
//! determinization must keep, written once. For a position and a viewer, at each of several
//! seeds, the sampled state
//! - shows `viewer` exactly what the real one does (`view`, serialised), with the same seat(s)
//!   to act and, for a seat `viewer` is, the same legal moves;
//! - is the real state itself when `viewer` sees everything (its view is the omniscient one);
//! - when it differs from the real one, plays on to an end under random moves and the
//!   dealer, every listed move accepted;
//! - depends on nothing `viewer` does not know: sampled again from the sample, with the same
//!   stream, it is the same state as sampled from the real one. Any two states one viewer
//!   cannot tell apart determinize alike, which is what makes [`crate::GameState::public_hash`]
//!   (the spectator's sample, hashed) a key of what is public that leaks nothing hidden.
//!
//! It answers whether the seeds gave different states (hidden parts resampled), so a game's
//! own test can require variation where it knows a secret is pending; conservation of the
//! components is the game's own test too (only it knows them).
use crate::dealer::Dealer;
use crate::game::{Game, MoveBuf};
use crate::ids::Viewer;

/// Checks `G::determinize(s, viewer, ·)` at `seeds`; `Ok(true)` when two seeds sampled
/// different states. `max_plies` bounds each playout to the end.
pub fn check_at<G: Game>(
    s: &G::State,
    viewer: Viewer,
    seeds: std::ops::Range<u64>,
    max_plies: u32,
) -> Result<bool, String>
where
    G::State: PartialEq,
{
    let json = |v: &G::View| serde_json::to_string(v).map_err(|e| format!("view: {e}"));
    let real = json(&G::view(s, viewer))?;
    let sees_all = real == json(&G::view(s, Viewer::Omniscient))?;
    let mut first: Option<G::State> = None;
    let mut varied = false;
    let (mut mine, mut theirs) = (G::MoveList::default(), G::MoveList::default());
    for seed in seeds {
        let mut rng = Dealer::new(seed, 1 << 61);
        let t = G::determinize(s, viewer, &mut rng);
        if json(&G::view(&t, viewer))? != real {
            return Err(format!(
                "seed {seed}: the sampled state shows {viewer:?} something else"
            ));
        }
        if sees_all && &t != s {
            return Err(format!(
                "seed {seed}: {viewer:?} sees everything, yet the state changed"
            ));
        }
        if G::to_act(&t) != G::to_act(s) || G::seats_to_act(&t) != G::seats_to_act(s) {
            return Err(format!("seed {seed}: another seat to act"));
        }
        if let Viewer::Seat(me) = viewer {
            G::legal_moves_of(s, me, &mut mine);
            G::legal_moves_of(&t, me, &mut theirs);
            if mine.as_slice() != theirs.as_slice() {
                return Err(format!("seed {seed}: {viewer:?}'s own moves differ"));
            }
        }
        let again = G::determinize(&t, viewer, &mut Dealer::new(seed ^ 0x5eed, 1 << 59));
        if again != G::determinize(s, viewer, &mut Dealer::new(seed ^ 0x5eed, 1 << 59)) {
            return Err(format!(
                "seed {seed}: sampled from the sample, {viewer:?}'s determinization differs: \
                 it reads something {viewer:?} does not know"
            ));
        }
        // The real state plays on (its game's own log shows it); a changed one must too.
        if &t != s {
            crate::playout::play_on::<G>(t.clone(), &mut Dealer::new(seed, 1 << 60), max_plies)
                .map_err(|e| format!("seed {seed}: {e}"))?;
        }
        match &first {
            None => first = Some(t),
            Some(f) => varied |= f != &t,
        }
    }
    Ok(varied)
}
