//! What a run found and how it went: crashes (with reproducer files), the summary line
//! `ops/fuzz.sh` reads, and the escaping used to print inputs.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A distinct defect: a panic at one place, or one failed invariant.
#[derive(Debug, Clone)]
pub struct Crash {
    /// What groups crashes: `panic at <file:line:col>` or `invariant <name>`.
    pub key: String,
    pub message: String,
    /// The (minimized) input that shows it.
    pub input: Vec<u8>,
    /// Inputs that hit it in this run.
    pub count: u64,
    /// Where the input was written, if it was.
    pub file: Option<PathBuf>,
}

/// A run's numbers.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub target: String,
    /// Inputs run (seeds included).
    pub inputs: u64,
    /// Inputs matching a known defect, skipped.
    pub skipped_known: u64,
    pub setup_seconds: f64,
    /// Seconds of fuzzing (after setup).
    pub seconds: f64,
    pub corpus: usize,
    pub features: usize,
    /// Coverage guards hit and in all (0 / 0 without instrumentation).
    pub guards_hit: u64,
    pub guards_total: u64,
    pub crashes: Vec<Crash>,
}

impl Report {
    pub fn execs_per_sec(&self) -> f64 {
        if self.seconds > 0.0 {
            self.inputs as f64 / self.seconds
        } else {
            0.0
        }
    }

    pub fn coverage(&self) -> String {
        if self.guards_total == 0 {
            "n/a".to_string()
        } else {
            format!(
                "{}/{} ({:.2}%)",
                self.guards_hit,
                self.guards_total,
                100.0 * self.guards_hit as f64 / self.guards_total as f64
            )
        }
    }

    /// The one line `ops/fuzz.sh` parses.
    pub fn summary_line(&self) -> String {
        format!(
            "SUMMARY target={} inputs={} seconds={:.1} execs_per_sec={:.0} corpus={} features={} guards_hit={} guards_total={} crashes={} skipped_known={} setup_seconds={:.1}",
            self.target,
            self.inputs,
            self.seconds,
            self.execs_per_sec(),
            self.corpus,
            self.features,
            self.guards_hit,
            self.guards_total,
            self.crashes.len(),
            self.skipped_known,
            self.setup_seconds,
        )
    }

    /// Every crash, readable, with how to reproduce it.
    pub fn describe_crashes(&self) -> String {
        let mut s = String::new();
        for c in &self.crashes {
            let _ = writeln!(
                s,
                "CRASH target={} {} ({} inputs)\n  message: {}\n  input: {}",
                self.target,
                c.key,
                c.count,
                c.message.replace('\n', "\n           "),
                escape(&c.input, 2000)
            );
            if let Some(f) = &c.file {
                let _ = writeln!(
                    s,
                    "  reproduce: cargo run -p fuzz --bin fuzz -- {} --reproduce {}",
                    self.target,
                    f.display()
                );
            }
        }
        s
    }
}

/// Printable ASCII as is, everything else (and `\`) as `\xHH`, cut at `max` bytes.
pub fn escape(bytes: &[u8], max: usize) -> String {
    let mut s = String::with_capacity(bytes.len().min(max) + 16);
    for &b in bytes.iter().take(max) {
        if (0x20..0x7f).contains(&b) && b != b'\\' {
            s.push(b as char);
        } else {
            let _ = write!(s, "\\x{b:02x}");
        }
    }
    if bytes.len() > max {
        let _ = write!(s, "… ({} bytes in all)", bytes.len());
    }
    s
}

/// Writes a crash's input (`.bin`) and its description (`.txt`) into `dir`.
pub fn write_crash(dir: &Path, target: &str, c: &Crash) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let stem = format!("crash-{:016x}", crate::rng::hash(c.key.as_bytes()));
    let bin = dir.join(format!("{stem}.bin"));
    std::fs::write(&bin, &c.input)?;
    let hex: String = c.input.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    });
    let text = format!(
        "target: {target}\n{key}\nmessage: {msg}\ninput (escaped): {esc}\ninput (hex): {hex}\nreproduce: cargo run -p fuzz --bin fuzz -- {target} --reproduce {bin}\n",
        key = c.key,
        msg = c.message,
        esc = escape(&c.input, usize::MAX),
        bin = bin.display(),
    );
    std::fs::write(dir.join(format!("{stem}.txt")), text)?;
    Ok(bin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape(b"bid 0\n\\", 100), "bid 0\\x0a\\x5c");
        assert!(escape(&[b'a'; 10], 4).starts_with("aaaa…"));
    }
}
