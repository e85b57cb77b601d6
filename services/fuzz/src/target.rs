//! What a fuzz target is: a function of bytes that must not panic and whose invariants must
//! hold, with its seed inputs, its dictionary, and optionally its own structure-aware
//! mutation.
//!
//! A target reports *features* of what an input did (an error code at a phase, the shape of
//! a response) through [`Feedback`]: inputs that show a new feature join the corpus, which is
//! the guidance the fuzzer has in a build without coverage instrumentation.

use crate::rng::Rng;

/// An invariant that did not hold: a defect, like a panic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invariant `{name}` failed: {detail}")]
pub struct Violation {
    /// A short stable name: crashes are grouped by it.
    pub name: &'static str,
    pub detail: String,
}

impl Violation {
    pub fn new(name: &'static str, detail: impl Into<String>) -> Violation {
        Violation {
            name,
            detail: detail.into(),
        }
    }
}

/// What an input did, as a set of 64-bit features.
#[derive(Debug, Default)]
pub struct Feedback {
    features: Vec<u64>,
}

impl Feedback {
    /// Notes a feature given as parts (hashed together).
    pub fn note(&mut self, parts: &[&[u8]]) {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for p in parts {
            for b in p.iter().chain(std::iter::once(&0xffu8)) {
                h ^= u64::from(*b);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        self.features.push(h);
    }

    pub fn clear(&mut self) {
        self.features.clear();
    }

    pub fn features(&self) -> &[u64] {
        &self.features
    }
}

/// A fuzz target.
pub trait Target {
    fn name(&self) -> &str;
    /// Inputs to start from.
    fn seeds(&self) -> Vec<Vec<u8>>;
    /// Tokens of the input language, for mutations.
    fn dictionary(&self) -> Vec<Vec<u8>> {
        Vec::new()
    }
    /// Longest input the driver makes.
    fn max_len(&self) -> usize {
        4096
    }
    /// Runs one input. A panic or an `Err` is a defect.
    fn run(&mut self, input: &[u8], fb: &mut Feedback) -> Result<(), Violation>;
    /// A structure-aware mutation of `input`, when the target has one and wants to use it
    /// this time; `None` leaves the driver's byte and text mutations to it.
    fn mutate(&self, _input: &[u8], _rng: &mut Rng) -> Option<Vec<u8>> {
        None
    }
    /// A defect already known and being fixed elsewhere that would end every run (an abort
    /// cannot be caught): inputs matching it are skipped and counted, not run. Returns the
    /// defect's short name.
    fn known_defect(&self, _input: &[u8]) -> Option<&'static str> {
        None
    }
}
