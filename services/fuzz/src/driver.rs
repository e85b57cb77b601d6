//! The fuzzing loop: seeded, deterministic mutation fuzzing with a growing corpus.
//!
//! Seeds (the target's and a corpus folder's) run first; then each input is a mutation of a
//! corpus entry (the target's structure-aware mutation now and then, else the byte and text
//! mutations of `mutate`). An input joins the corpus when it reaches a coverage guard no input
//! reached before (in a build instrumented with SanitizerCoverage, see the `fuzz` binary) or
//! shows a feature the target never reported before. Each run is wrapped in `catch_unwind`
//! with the panic hook of `panics` recording panics on every thread; a panic or a failed
//! invariant is a crash, grouped by its place, minimized, written to the crash folder and
//! counted. Everything random comes from one [`Rng`] seeded by the run's seed.

use crate::mutate::{mutate, Sources};
use crate::report::{write_crash, Crash, Report};
use crate::rng::{hash, Rng};
use crate::target::{Feedback, Target};
use crate::{abort, panics};
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where coverage comes from: the instrumented binary's guard counters, or nothing.
pub trait Coverage {
    /// Guards reached so far (never decreases).
    fn hits(&self) -> u64;
    /// Guards in the program.
    fn total(&self) -> u64;
}

/// No instrumentation: guidance by the targets' features alone.
pub struct NoCoverage;

impl Coverage for NoCoverage {
    fn hits(&self) -> u64 {
        0
    }
    fn total(&self) -> u64 {
        0
    }
}

/// How to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Inputs to run, seeds included.
    pub inputs: u64,
    pub seed: u64,
    /// Stop after this long even if inputs remain.
    pub time: Option<Duration>,
    /// Read extra seeds from here and write new corpus entries here.
    pub corpus_dir: Option<PathBuf>,
    /// Write crashing inputs here (the target's own folder).
    pub crash_dir: Option<PathBuf>,
    /// Print a status line this often (`None`: never).
    pub status_every: Option<Duration>,
    /// Run inputs matching a known defect instead of skipping them.
    pub include_known: bool,
    /// Most corpus entries kept.
    pub max_corpus: usize,
    /// Most runs spent shrinking each new crash.
    pub minimize_runs: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            inputs: 10_000,
            seed: 0,
            time: None,
            corpus_dir: None,
            crash_dir: None,
            status_every: Some(Duration::from_secs(10)),
            include_known: false,
            max_corpus: 20_000,
            minimize_runs: 400,
        }
    }
}

/// What one run of one input did.
enum Outcome {
    Skipped,
    Ran { interesting: bool },
    Crashed { key: String, message: String },
}

struct Fuzzer<'a> {
    target: &'a mut dyn Target,
    cov: &'a dyn Coverage,
    opts: &'a Options,
    fb: Feedback,
    seen: HashSet<u64>,
    report: Report,
    crashes: BTreeMap<String, usize>,
}

impl Fuzzer<'_> {
    /// Runs `input` once and classifies what happened.
    fn exec(&mut self, input: &[u8]) -> Outcome {
        if !self.opts.include_known && self.target.known_defect(input).is_some() {
            self.report.skipped_known += 1;
            return Outcome::Skipped;
        }
        let before = self.cov.hits();
        self.fb.clear();
        let _stray = panics::take();
        abort::running(input);
        let result = catch_unwind(AssertUnwindSafe(|| self.target.run(input, &mut self.fb)));
        abort::finished();
        self.report.inputs += 1;
        let caught = panics::take();
        if let Some(p) = caught.first() {
            return Outcome::Crashed {
                key: format!("panic at {}", p.location),
                message: format!("{} (thread `{}`)", p.message, p.thread),
            };
        }
        match result {
            Err(_) => Outcome::Crashed {
                key: "panic at unknown".into(),
                message: "a panic the hook did not see".into(),
            },
            Ok(Err(v)) => Outcome::Crashed {
                key: format!("invariant {}", v.name),
                message: v.detail,
            },
            Ok(Ok(())) => {
                let mut interesting = self.cov.hits() > before;
                for f in self.fb.features() {
                    interesting |= self.seen.insert(*f);
                }
                Outcome::Ran { interesting }
            }
        }
    }

    /// Records a crash; the first of its kind is minimized and written out.
    fn crashed(&mut self, input: &[u8], key: String, message: String) {
        if let Some(&i) = self.crashes.get(&key) {
            self.report.crashes[i].count += 1;
            return;
        }
        let small = self.minimize(input, &key);
        let mut c = Crash {
            key: key.clone(),
            message,
            input: small,
            count: 1,
            file: None,
        };
        if let Some(dir) = &self.opts.crash_dir {
            c.file = write_crash(dir, self.target.name(), &c).ok();
        }
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "fuzz {}: new crash after {} inputs: {}\n  {}",
            self.target.name(),
            self.report.inputs,
            c.key,
            c.message
        );
        self.crashes.insert(key, self.report.crashes.len());
        self.report.crashes.push(c);
    }

    /// Shrinks `input` while it still crashes the same way: drops chunks, halving their size.
    fn minimize(&mut self, input: &[u8], key: &str) -> Vec<u8> {
        let mut best = input.to_vec();
        let mut budget = self.opts.minimize_runs;
        let mut chunk = (best.len() / 2).max(1);
        while chunk >= 1 && budget > 0 {
            let mut at = 0;
            let mut shrunk = false;
            while at < best.len() && budget > 0 {
                let end = (at + chunk).min(best.len());
                let mut cand = best[..at].to_vec();
                cand.extend_from_slice(&best[end..]);
                budget -= 1;
                let same = match self.exec(&cand) {
                    Outcome::Crashed { key: k, .. } => k == key,
                    _ => false,
                };
                if same {
                    best = cand;
                    shrunk = true;
                } else {
                    at += chunk;
                }
            }
            if !shrunk {
                if chunk == 1 {
                    break;
                }
                chunk /= 2;
            }
        }
        best
    }

    fn status(&self, started: Instant, corpus: usize) {
        let secs = started.elapsed().as_secs_f64();
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "#{} {} execs/s {:.0} corpus {} features {} cov {} crashes {} skipped {}",
            self.target.name(),
            self.report.inputs,
            self.report.inputs as f64 / secs.max(1e-9),
            corpus,
            self.seen.len(),
            coverage_text(self.cov),
            self.report.crashes.len(),
            self.report.skipped_known,
        );
        let _ = out.flush();
    }
}

fn coverage_text(cov: &dyn Coverage) -> String {
    if cov.total() == 0 {
        "n/a".into()
    } else {
        format!("{}/{}", cov.hits(), cov.total())
    }
}

fn read_corpus_dir(dir: &Path) -> Vec<Vec<u8>> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|p| std::fs::read(p).ok())
        .collect()
}

/// Fuzzes `target` as `opts` says. `setup_seconds` is how long building the target took.
pub fn run(
    target: &mut dyn Target,
    opts: &Options,
    cov: &dyn Coverage,
    setup_seconds: f64,
) -> Report {
    panics::install_hook();
    let name = target.name().to_string();
    let max_len = target.max_len();
    let dictionary = target.dictionary();
    let mut seeds = target.seeds();
    if let Some(dir) = &opts.corpus_dir {
        seeds.extend(read_corpus_dir(dir));
        let _ = std::fs::create_dir_all(dir);
    }
    let mut f = Fuzzer {
        target,
        cov,
        opts,
        fb: Feedback::default(),
        seen: HashSet::new(),
        report: Report {
            target: name,
            setup_seconds,
            ..Report::default()
        },
        crashes: BTreeMap::new(),
    };
    let started = Instant::now();
    let mut last_status = Instant::now();
    let mut rng = Rng::new(opts.seed);
    let mut corpus: Vec<Vec<u8>> = Vec::new();
    let out_of_time = |started: &Instant| opts.time.is_some_and(|t| started.elapsed() >= t);
    for mut s in seeds {
        if f.report.inputs + f.report.skipped_known >= opts.inputs || out_of_time(&started) {
            break;
        }
        s.truncate(max_len);
        match f.exec(&s) {
            Outcome::Crashed { key, message } => f.crashed(&s, key, message),
            Outcome::Skipped => {}
            Outcome::Ran { .. } => corpus.push(s),
        }
    }
    if corpus.is_empty() {
        corpus.push(Vec::new());
    }
    while f.report.inputs + f.report.skipped_known < opts.inputs && !out_of_time(&started) {
        let base = &corpus[rng.below(corpus.len())];
        let input = match f.target.mutate(base, &mut rng) {
            Some(m) if rng.one_in(2) => m,
            _ => mutate(
                base,
                &Sources {
                    dictionary: &dictionary,
                    corpus: &corpus,
                    max_len,
                },
                &mut rng,
            ),
        };
        match f.exec(&input) {
            Outcome::Crashed { key, message } => f.crashed(&input, key, message),
            Outcome::Skipped => {}
            Outcome::Ran { interesting } => {
                if interesting && corpus.len() < opts.max_corpus {
                    if let Some(dir) = &opts.corpus_dir {
                        let _ = std::fs::write(dir.join(format!("{:016x}", hash(&input))), &input);
                    }
                    corpus.push(input);
                }
            }
        }
        if let Some(every) = opts.status_every {
            if last_status.elapsed() >= every {
                f.status(started, corpus.len());
                last_status = Instant::now();
            }
        }
    }
    f.report.seconds = started.elapsed().as_secs_f64();
    f.report.corpus = corpus.len();
    f.report.features = f.seen.len();
    f.report.guards_hit = cov.hits();
    f.report.guards_total = cov.total();
    f.report
}

/// Runs each input once (a reproducer); returns the crash each caused, if any.
pub fn reproduce(target: &mut dyn Target, inputs: &[Vec<u8>]) -> Vec<Option<(String, String)>> {
    panics::install_hook();
    let opts = Options {
        include_known: true,
        ..Options::default()
    };
    let mut f = Fuzzer {
        target,
        cov: &NoCoverage,
        opts: &opts,
        fb: Feedback::default(),
        seen: HashSet::new(),
        report: Report::default(),
        crashes: BTreeMap::new(),
    };
    inputs
        .iter()
        .map(|i| match f.exec(i) {
            Outcome::Crashed { key, message } => Some((key, message)),
            _ => None,
        })
        .collect()
}
