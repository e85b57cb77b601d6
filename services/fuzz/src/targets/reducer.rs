//! `reducer-<game>`: legal moves, mutated, walked through a game.
//!
//! The input is read with `arbitrary` as a script: a start position (a ply of a seeded random
//! game) and up to 16 steps. Each step takes the legal move (or the dealer's outcome) it
//! picks, edits its text (bit flips, number changes, token swaps and drops, truncation,
//! splicing in a piece of another legal move, whitespace, case), tries the edited text as the
//! chosen actor's entry with every invariant of `check` asserted, and then moves on: usually
//! by playing the unedited move (which must be accepted: listed ⇒ accepted), sometimes by
//! keeping the state the edited entry led to, so the walk reaches positions no random game
//! played.

use super::check::{attempt, At};
use crate::games::{pool, slug, words, Position};
use crate::rng::Rng;
use crate::target::{Feedback, Target, Violation};
use arbitrary::{Arbitrary, Unstructured};
use rules_core::{Actor, GameKind, GameRules, GameState, Ply, Registry, Seat, ToAct};

/// Most steps of one script.
const MAX_STEPS: usize = 16;

#[derive(Debug, Arbitrary)]
enum Who {
    /// The seat to act (or one of the seats deciding), or the dealer at a chance node.
    ToAct,
    ToActAgain,
    ToActOnceMore,
    Dealer,
    Seat(u8),
}

#[derive(Debug, Arbitrary)]
enum Number {
    Small(u8),
    Delta(i8),
    Big(u64),
    Negative(u16),
    Zeros(u8),
}

#[derive(Debug, Arbitrary)]
enum Edit {
    FlipBit { at: u16, bit: u8 },
    SetByte { at: u16, byte: u8 },
    ChangeNumber { which: u8, to: Number },
    SwapTokens { a: u8, b: u8 },
    DropToken { which: u8 },
    DuplicateToken { which: u8 },
    Truncate { at: u16 },
    SpliceOther { pick: u16, token: u8, at: u8 },
    Whitespace { at: u16, kind: u8 },
    FlipCase { at: u16 },
}

#[derive(Debug, Arbitrary)]
struct Step {
    who: Who,
    /// Which legal move (modulo the list).
    pick: u16,
    edits: Vec<Edit>,
    /// 0: keep the state the edited entry led to (if accepted); else play the listed move.
    advance: u8,
}

pub struct Reducer {
    name: String,
    registry: Registry,
    kind: GameKind,
    positions: Vec<Position>,
}

impl Reducer {
    pub fn new(kind: GameKind, seed: u64) -> Reducer {
        let registry = crate::games::registry();
        let positions = registry
            .get(kind)
            .map(|r| pool(r, 2, seed ^ 0xabcd))
            .unwrap_or_default();
        Reducer {
            name: format!("reducer-{}", slug(kind)),
            registry,
            kind,
            positions,
        }
    }
}

fn tokens(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let word = c.is_alphanumeric() || c == '_' || c == '-';
        match (word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
        if !word && !c.is_whitespace() {
            out.push((i, i + c.len_utf8()));
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

fn number_text(n: &Number, old: i128) -> String {
    match n {
        Number::Small(v) => v.to_string(),
        Number::Delta(d) => (old + i128::from(*d)).to_string(),
        Number::Big(v) => v.to_string(),
        Number::Negative(v) => format!("-{v}"),
        Number::Zeros(k) => format!("{}{old}", "0".repeat(usize::from(*k % 4) + 1)),
    }
}

/// Applies `e` to the move text `t` (bytes may stop being UTF-8: read lossily after).
fn edit(t: &mut Vec<u8>, e: &Edit, others: &[String]) {
    let len = t.len();
    let text = String::from_utf8_lossy(t).into_owned();
    let toks = tokens(&text);
    match e {
        Edit::FlipBit { at, bit } if len > 0 => t[usize::from(*at) % len] ^= 1 << (bit % 8),
        Edit::SetByte { at, byte } if len > 0 => t[usize::from(*at) % len] = *byte,
        Edit::ChangeNumber { which, to } => {
            let nums: Vec<(usize, usize)> = toks
                .iter()
                .copied()
                .filter(|&(a, b)| text[a..b].bytes().any(|c| c.is_ascii_digit()))
                .collect();
            if let Some(&(a, b)) = nums.get(usize::from(*which) % nums.len().max(1)) {
                let digits: String = text[a..b].chars().filter(char::is_ascii_digit).collect();
                let old = digits.parse::<i128>().unwrap_or(0);
                let prefix: String = text[a..b]
                    .chars()
                    .take_while(|c| !c.is_ascii_digit())
                    .collect();
                *t = format!(
                    "{}{prefix}{}{}",
                    &text[..a],
                    number_text(to, old),
                    &text[b..]
                )
                .into_bytes();
            }
        }
        Edit::SwapTokens { a, b } if toks.len() >= 2 => {
            let x = toks[usize::from(*a) % toks.len()];
            let y = toks[usize::from(*b) % toks.len()];
            let (p, q) = if x.0 <= y.0 { (x, y) } else { (y, x) };
            if p.1 <= q.0 {
                *t = format!(
                    "{}{}{}{}{}",
                    &text[..p.0],
                    &text[q.0..q.1],
                    &text[p.1..q.0],
                    &text[p.0..p.1],
                    &text[q.1..]
                )
                .into_bytes();
            }
        }
        Edit::DropToken { which } if !toks.is_empty() => {
            let (a, b) = toks[usize::from(*which) % toks.len()];
            *t = format!("{}{}", &text[..a], &text[b..]).into_bytes();
        }
        Edit::DuplicateToken { which } if !toks.is_empty() => {
            let (a, b) = toks[usize::from(*which) % toks.len()];
            *t = format!("{}{}{}", &text[..b], &text[a..b], &text[b..]).into_bytes();
        }
        Edit::Truncate { at } if len > 0 => t.truncate(usize::from(*at) % len),
        Edit::SpliceOther { pick, token, at } if !others.is_empty() => {
            let other = &others[usize::from(*pick) % others.len()];
            let otoks = tokens(other);
            let piece = if otoks.is_empty() || *token == 0 {
                other.as_str()
            } else {
                let (a, b) = otoks[usize::from(*token) % otoks.len()];
                &other[a..b]
            };
            let pos = if toks.is_empty() {
                text.len()
            } else {
                let (a, b) = toks[usize::from(*at) % toks.len()];
                if at % 2 == 0 {
                    a
                } else {
                    b
                }
            };
            *t = format!("{}{piece}{}", &text[..pos], &text[pos..]).into_bytes();
        }
        Edit::Whitespace { at, kind } => {
            let ws = [" ", "  ", "\t", "\n", "\r\n", "\u{a0}", "\0", "\u{3000}"];
            let pos = if len == 0 {
                0
            } else {
                usize::from(*at) % (len + 1)
            };
            let w = ws[usize::from(*kind) % ws.len()].as_bytes();
            t.splice(pos..pos, w.iter().copied());
        }
        Edit::FlipCase { at } if len > 0 => {
            let i = usize::from(*at) % len;
            if t[i].is_ascii_alphabetic() {
                t[i] ^= 0x20;
            }
        }
        _ => {}
    }
}

/// The actor a step names at state `s`.
fn actor_of(who: &Who, s: &dyn GameState, pick: u16) -> Actor {
    let acting = s.seats_to_act();
    match who {
        Who::Dealer => Actor::Dealer,
        Who::Seat(n) => Actor::Seat(Seat(n % (s.player_count() + 2))),
        _ => match s.to_act() {
            ToAct::Seat(seat) if acting.is_empty() => Actor::Seat(seat),
            ToAct::Seat(_) => Actor::Seat(acting[usize::from(pick) % acting.len()]),
            ToAct::Chance | ToAct::Over => Actor::Dealer,
        },
    }
}

impl Reducer {
    fn walk(&self, u: &mut Unstructured<'_>, fb: &mut Feedback) -> Result<(), Violation> {
        let rules: &dyn GameRules = self
            .registry
            .get(self.kind)
            .expect("the registry has every kind");
        let start = usize::from(u16::arbitrary(u).unwrap_or(0)) % self.positions.len();
        let p = &self.positions[start];
        let (seed, mut ply) = (p.seed, p.ply);
        let mut s = p.state.clone_box();
        for _ in 0..MAX_STEPS {
            let Ok(step) = Step::arbitrary(u) else {
                break;
            };
            // The entry that may be made here, unedited.
            let (mover, base, others) = match s.to_act() {
                ToAct::Over => break,
                ToAct::Chance => match s.deal(seed, Ply(ply)) {
                    Some(c) => (Actor::Dealer, c.clone(), vec![c]),
                    None => {
                        return Err(Violation::new(
                            "chance-not-dealable",
                            format!("{} at ply {ply}: nothing to deal", rules.kind()),
                        ))
                    }
                },
                ToAct::Seat(_) => {
                    let Actor::Seat(seat) = actor_of(&Who::ToAct, s.as_ref(), step.pick) else {
                        break;
                    };
                    let moves = s.legal_moves_of(seat);
                    let Some(m) = moves.get(usize::from(step.pick) % moves.len().max(1)) else {
                        return Err(Violation::new(
                            "no-legal-move",
                            format!(
                                "{} at ply {ply}: seat {seat} may act but has no move",
                                rules.kind()
                            ),
                        ));
                    };
                    (Actor::Seat(seat), m.clone(), moves)
                }
            };
            let mut text = base.clone().into_bytes();
            for e in step.edits.iter().take(6) {
                edit(&mut text, e, &others);
            }
            let text = String::from_utf8_lossy(&text).into_owned();
            let actor = match step.who {
                Who::ToAct | Who::ToActAgain | Who::ToActOnceMore => mover,
                _ => actor_of(&step.who, s.as_ref(), step.pick),
            };
            // The unedited entry by its own actor is what the random games already check
            // (and the step below plays it): only an edited or misattributed one is tried.
            let tried = if text == base && actor == mover {
                None
            } else {
                let enc = s.encode();
                let at = At {
                    rules,
                    state: s.as_ref(),
                    encoded: &enc,
                    seed,
                    ply,
                };
                attempt(&at, actor, &text, fb)?
            };
            match tried {
                Some(next) if step.advance == 0 => s = next,
                _ => {
                    if let Err(e) = s.apply(mover, &base) {
                        return Err(Violation::new(
                            "listed-entry-refused",
                            format!(
                                "{} at ply {ply}: {base:?} by {mover} is listed (or dealt) but refused: {e}",
                                rules.kind()
                            ),
                        ));
                    }
                }
            }
            ply += 1;
        }
        Ok(())
    }
}

impl Target for Reducer {
    fn name(&self) -> &str {
        &self.name
    }

    fn seeds(&self) -> Vec<Vec<u8>> {
        let mut rng = Rng::new(0x5eed);
        (0..64)
            .map(|i| {
                (0..16 + i * 8)
                    .map(|_| rng.next_u64() as u8)
                    .collect::<Vec<u8>>()
            })
            .collect()
    }

    fn dictionary(&self) -> Vec<Vec<u8>> {
        words(
            self.positions
                .iter()
                .filter_map(|p| p.next.as_ref().map(|(_, t)| t.as_str())),
            1000,
        )
    }

    fn max_len(&self) -> usize {
        2048
    }

    fn run(&mut self, input: &[u8], fb: &mut Feedback) -> Result<(), Violation> {
        if self.positions.is_empty() {
            return Ok(());
        }
        let mut u = Unstructured::new(input);
        self.walk(&mut u, fb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_keep_text_and_change_it() {
        let others = vec!["pick e1".to_string(), "drop f1 R".to_string()];
        let mut t = b"buy 4 6".to_vec();
        edit(
            &mut t,
            &Edit::ChangeNumber {
                which: 1,
                to: Number::Delta(-7),
            },
            &others,
        );
        assert_eq!(t, b"buy 4 -1");
        let mut t = b"drop f1 R".to_vec();
        edit(&mut t, &Edit::SwapTokens { a: 0, b: 2 }, &others);
        assert_eq!(t, b"R f1 drop");
        let mut t = b"bid 3".to_vec();
        edit(
            &mut t,
            &Edit::SpliceOther {
                pick: 1,
                token: 0,
                at: 1,
            },
            &others,
        );
        assert_eq!(t, b"bid 3drop f1 R");
        assert_eq!(tokens("a=b c"), vec![(0, 1), (1, 2), (2, 3), (4, 5)]);
    }
}
