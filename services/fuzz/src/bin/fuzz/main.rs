//! `fuzz`: runs one fuzz target (`fuzz --list` names them).
//!
//! `fuzz <target> --inputs N --seed S [--corpus DIR] [--time SECS]` fuzzes, prints a status
//! line now and then and a `SUMMARY` line at the end, writes each distinct crash (minimized)
//! to `ops/fuzz-crashes/<target>/` and exits 1 if there was any. `--reproduce FILE…` runs
//! saved inputs once each. Coverage-guided when built with SanitizerCoverage (`ops/fuzz.sh`);
//! otherwise guided by the targets' features only.

mod sancov;

use anyhow::{bail, Context, Result};
use clap::Parser;
use fuzz::driver::{self, Coverage, Options};
use fuzz::report::Report;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(
    about = "Seeded mutation fuzzing of Ludolog's parsers, reducers, importer, filters and GraphQL"
)]
struct Args {
    /// The target (see --list).
    target: Option<String>,
    /// List the targets and exit.
    #[arg(long)]
    list: bool,
    /// Inputs to run (seeds included).
    #[arg(long, default_value_t = 10_000)]
    inputs: u64,
    /// Seed of the run: the same seed gives the same inputs.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Corpus folder: read as extra seeds, and new corpus entries are written to it.
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// Stop after this many seconds even if inputs remain.
    #[arg(long)]
    time: Option<u64>,
    /// Where crashes go (a folder per target inside). Default: ops/fuzz-crashes.
    #[arg(long)]
    crashes: Option<PathBuf>,
    /// An input running longer than this many seconds is saved and ends the run (status 70).
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Stack of the fuzzing thread, in KiB (2048: the server's runtime threads).
    #[arg(long, default_value_t = 2048)]
    stack_kib: usize,
    /// Address-space limit of the process in MiB (0: none), so a memory blow-up aborts the run
    /// (and saves its input) instead of starving the machine.
    #[arg(long, default_value_t = 6144)]
    memory_mib: u64,
    /// Run inputs matching a target's known defects instead of skipping them.
    #[arg(long)]
    include_known: bool,
    /// Seconds between status lines.
    #[arg(long, default_value_t = 10)]
    status_every: u64,
    /// Run these saved inputs once each and report.
    #[arg(long, num_args = 1..)]
    reproduce: Vec<PathBuf>,
}

fn limit_memory(mib: u64) {
    if mib == 0 {
        return;
    }
    let bytes = mib.saturating_mul(1 << 20);
    let lim = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: setrlimit with a valid struct.
    unsafe {
        libc::setrlimit(libc::RLIMIT_AS, &lim);
    }
}

fn main() -> Result<()> {
    let args = Args::parse();
    if args.list {
        for n in fuzz::targets::NAMES {
            println!("{n}");
        }
        return Ok(());
    }
    let Some(name) = args.target.clone() else {
        bail!("name a target (fuzz --list shows them)");
    };
    if !fuzz::targets::NAMES.contains(&name.as_str()) {
        bail!("no target `{name}`: fuzz --list shows them");
    }
    let crash_dir = args
        .crashes
        .clone()
        .unwrap_or_else(|| fuzz::games::root().join("ops/fuzz-crashes"))
        .join(&name);
    limit_memory(args.memory_mib);
    fuzz::abort::install(&crash_dir, Duration::from_secs(args.timeout))
        .with_context(|| format!("preparing {}", crash_dir.display()))?;
    let reproduce: Vec<(PathBuf, Vec<u8>)> = args
        .reproduce
        .iter()
        .map(|p| std::fs::read(p).map(|b| (p.clone(), b)))
        .collect::<std::io::Result<_>>()
        .context("reading the inputs to reproduce")?;
    let opts = Options {
        inputs: args.inputs,
        seed: args.seed,
        time: args.time.map(Duration::from_secs),
        corpus_dir: args.corpus.clone(),
        crash_dir: Some(crash_dir),
        status_every: Some(Duration::from_secs(args.status_every.max(1))),
        include_known: args.include_known,
        ..Options::default()
    };
    let seed = args.seed;
    // The target runs on a thread of a known stack size: stack overflows then happen where
    // they would in the server.
    let worker = std::thread::Builder::new()
        .name(format!("fuzz-{name}"))
        .stack_size(args.stack_kib * 1024)
        .spawn(move || -> Result<Option<Report>> {
            let t0 = Instant::now();
            let mut target = fuzz::targets::build(&name, seed)?;
            let setup = t0.elapsed().as_secs_f64();
            if !reproduce.is_empty() {
                let inputs: Vec<Vec<u8>> = reproduce.iter().map(|(_, b)| b.clone()).collect();
                let results = driver::reproduce(target.as_mut(), &inputs);
                let mut bad = 0;
                for ((path, input), r) in reproduce.iter().zip(results) {
                    match r {
                        Some((key, message)) => {
                            bad += 1;
                            println!(
                                "{}: CRASH {key}\n  message: {message}\n  input: {}",
                                path.display(),
                                fuzz::report::escape(input, 2000)
                            );
                        }
                        None => println!("{}: ok", path.display()),
                    }
                }
                if bad > 0 {
                    println!("{bad} of {} inputs crash", inputs.len());
                    std::process::exit(1);
                }
                return Ok(None);
            }
            let cov = sancov::Sancov;
            println!(
                "fuzz {name}: seed {seed}, setup {setup:.1} s, coverage {}",
                if cov.total() > 0 {
                    format!("guided ({} guards)", cov.total())
                } else {
                    "not instrumented: guided by target features".to_string()
                }
            );
            Ok(Some(driver::run(target.as_mut(), &opts, &cov, setup)))
        })
        .context("starting the fuzzing thread")?;
    let report = match worker.join() {
        Ok(r) => r?,
        Err(_) => bail!("the fuzzing thread panicked outside any input"),
    };
    let Some(report) = report else {
        return Ok(());
    };
    print!("{}", report.describe_crashes());
    println!("{}", report.summary_line());
    if !report.crashes.is_empty() {
        std::process::exit(1);
    }
    Ok(())
}
