//! Fuzzing Ludolog on stable Rust, without libFuzzer or a nightly toolchain.
//!
//! Targets are plain functions of bytes ([`target::Target`]) over the real code paths: each
//! game's notation parser and reducer through the type-erased registry, the store's record
//! importer, the CEL position filters, and whole GraphQL requests against the in-process
//! schema. The [`driver`] runs a target with seeded, deterministic mutation fuzzing and a
//! growing corpus, catching panics per input; the `fuzz` binary adds coverage guidance when
//! it is built with SanitizerCoverage (`ops/fuzz.sh` does), and `tests/seeded.rs` runs a short
//! seeded pass of every target in CI.
//!
//! # Layout
//! - [`target`]: the `Target` trait, features, invariant violations.
//! - [`targets`]: the targets, by name.
//! - [`games`]: the registry and positions of seeded random games.
//! - [`driver`]: the fuzzing loop; [`mutate`]: the mutations; [`rng`]: the seeded generator.
//! - [`panics`]: the panic hook; [`abort`]: saving the input that kills the process.
//! - [`report`]: crashes, reproducer files, the summary line.

pub mod abort;
pub mod driver;
pub mod games;
pub mod mutate;
pub mod panics;
pub mod report;
pub mod rng;
pub mod target;
pub mod targets;
