//! Test support shared by every game's rules scenarios: read the `*.toml` files of a
//! directory (each a list of `[[scenario]]` tables), check what every scenario must have — a
//! unique name, the rules text or ruling it comes from, something it asserts — and run each
//! through the game's own runner, collecting failures instead of stopping at the first.
//!
//! Why a crate of its own: the loop, the checks and the report were written three times, one
//! per game, and had begun to drift (one game stopped at the first failure, another did not
//! check for scenarios asserting nothing). What a scenario *is* — its `given`, its steps, its
//! expectations — stays with each game: only the game knows how to build its position.
//!
//! # Layout
//! - [`Scenario`]: what the harness needs to know of a game's scenario type.
//! - [`run_dir`]: the loop and its checks; [`Report`]: what ran and what failed.
//! - [`samples`]: recorded games (the random samples kept as test data) replayed under the versions they
//!   were recorded with, and their outcomes as one fingerprint.

pub mod samples;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A game's scenario, as far as the harness is concerned.
pub trait Scenario: DeserializeOwned {
    fn name(&self) -> &str;
    /// Where in the rules text (or which ruling) the scenario comes from.
    fn source(&self) -> &str;
    /// Whether it checks anything (expectations, or an expected error).
    fn asserts_something(&self) -> bool;
}

#[derive(Deserialize)]
struct File<S> {
    scenario: Vec<S>,
}

/// What a run of a directory did.
#[derive(Debug, Default)]
pub struct Report {
    /// Scenarios run.
    pub count: usize,
    /// One line per failure: file, scenario, reason.
    pub failed: Vec<String>,
    /// Every scenario's `source`, one per line (to check that each ruling is tested).
    pub sources: String,
}

impl Report {
    /// Panics with every failure, or when nothing ran.
    pub fn assert_passed(&self) {
        assert!(
            self.failed.is_empty(),
            "{} of {} scenarios failed:\n{}",
            self.failed.len(),
            self.count,
            self.failed.join("\n")
        );
        assert!(self.count > 0, "no scenarios found");
        eprintln!("{} scenarios passed", self.count);
    }

    /// Records a failure for every id in `ids` that no scenario's source names (a whole
    /// word: `M1` is not named by `M12`).
    pub fn require_sources(&mut self, ids: impl IntoIterator<Item = String>) {
        for id in ids {
            let named = self
                .sources
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w == id);
            if !named {
                self.failed.push(format!("no scenario names {id}"));
            }
        }
    }
}

/// Runs every scenario of every `*.toml` file in `dir`, in file-name order, with `run(file
/// name, scenario)`. A file that does not parse panics (a broken test file is not a failing
/// rule); a scenario without a source, with a name used before, or asserting nothing fails.
pub fn run_dir<S: Scenario>(
    dir: &Path,
    mut run: impl FnMut(&str, &S) -> Result<(), String>,
) -> Report {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut report = Report::default();
    let mut names = BTreeMap::new();
    for path in &files {
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file: File<S> =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let fname = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        for sc in &file.scenario {
            report.count += 1;
            report.sources.push_str(sc.source());
            report.sources.push('\n');
            if sc.source().trim().is_empty() {
                report
                    .failed
                    .push(format!("{fname}: `{}` names no source", sc.name()));
            }
            if let Some(prev) = names.insert(sc.name().to_string(), fname.clone()) {
                report.failed.push(format!(
                    "duplicate scenario name `{}` ({prev}, {fname})",
                    sc.name()
                ));
            }
            if !sc.asserts_something() {
                report
                    .failed
                    .push(format!("{fname}: `{}` asserts nothing", sc.name()));
            }
            if let Err(e) = run(&fname, sc) {
                report
                    .failed
                    .push(format!("{fname}: {}\n    {e}", sc.name()));
            }
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Sc {
        name: String,
        source: String,
        #[serde(default)]
        expect: Vec<String>,
    }

    impl Scenario for Sc {
        fn name(&self) -> &str {
            &self.name
        }
        fn source(&self) -> &str {
            &self.source
        }
        fn asserts_something(&self) -> bool {
            !self.expect.is_empty()
        }
    }

    #[test]
    fn every_check_reports_and_the_run_goes_on() {
        let dir = std::env::temp_dir().join(format!("scenario-harness-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("a.toml"),
            r#"
[[scenario]]
name = "passes"
source = "Ruling M1"
expect = ["x"]
[[scenario]]
name = "fails"
source = "Ruling M12"
expect = ["x"]
"#,
        )
        .unwrap();
        std::fs::write(
            dir.join("b.toml"),
            r#"
[[scenario]]
name = "passes"
source = ""
"#,
        )
        .unwrap();
        std::fs::write(dir.join("notes.txt"), "not a scenario file").unwrap();
        let mut report = run_dir::<Sc>(&dir, |_, sc| {
            if sc.name == "fails" {
                Err("wrong".into())
            } else {
                Ok(())
            }
        });
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(report.count, 3);
        let all = report.failed.join("\n");
        assert!(all.contains("a.toml: fails\n    wrong"), "{all}");
        assert!(
            all.contains("duplicate scenario name `passes` (a.toml, b.toml)"),
            "{all}"
        );
        assert!(all.contains("b.toml: `passes` asserts nothing"), "{all}");
        assert!(all.contains("b.toml: `passes` names no source"), "{all}");
        assert_eq!(report.failed.len(), 4);
        // M1 is named; M2 is not, and M12 does not count as M1.
        report.require_sources(["M1".to_string(), "M2".to_string()]);
        assert_eq!(report.failed.last().unwrap(), "no scenario names M2");
        assert_eq!(report.failed.len(), 5);
    }
}
