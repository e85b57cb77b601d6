//! `ludolog verify`: every stored game replayed through today's engines, as Snellman's Terra
//! Mystica site replays its whole corpus through each new engine and diffs the results.
//!
//! Two questions per game. **Does it still replay as recorded?** Every revision of its log is
//! replayed under the rules version and component data it was recorded with; each entry must
//! apply, the log must be as long as its header says, the end must agree with its status,
//! the stored snapshots must equal the replayed states, and the summary written when it
//! finished (where one is kept) must name the same scores and winners. A game that fails any
//! of these is a *problem*: the engine's behaviour under an old rules version changed, or the
//! record is damaged; the command exits non-zero. **Would it end the same under the current
//! rules?** Games recorded under an older rules version are replayed again under the current
//! one; one that ends differently is a *divergence*, reported with the first entry where it
//! departs (the first entry refused, or the first position that differs). Divergences are
//! what a rules change means for old games: reported, not failures.
//!
//! The embedded store may be held by a running `ludolog serve`: then the running server makes
//! a consistent copy (as `ludolog backup`), and the copy is verified and removed.

use crate::storecmd;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use rules_core::{GameKind, GameState, ToAct, Viewer};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use store::{Entry, GameId, GameLog, Header};

/// Where the store is.
pub enum Source {
    /// The embedded store in this folder.
    Folder(PathBuf),
    /// A NATS JetStream store: the URLs and the stream's name.
    Nats { urls: String, stream: String },
}

/// What `verify` found, per kind and per game.
#[derive(Debug, Default, Serialize)]
pub struct Report {
    pub kinds: Vec<KindReport>,
    /// Games that no longer replay as recorded.
    pub problems: Vec<Problem>,
    /// Games that would end differently under the current rules.
    pub divergences: Vec<Divergence>,
    /// Whether finished games' summaries were there to check outcomes against.
    pub summaries_checked: bool,
    /// Whether a copy made by a running server was verified.
    pub copy_of_running_store: bool,
}

#[derive(Debug, Default, Serialize)]
pub struct KindReport {
    pub kind: String,
    pub games: u64,
    /// Revisions replayed (a game never corrected has one).
    pub revisions: u64,
    /// Games replaying as recorded.
    pub as_recorded: u64,
    /// Games per recorded rules version.
    pub rules_versions: BTreeMap<String, u64>,
    /// The current rules version.
    pub current_rules: String,
    /// Games recorded under an older version, replayed again under the current one.
    pub replayed_under_current: u64,
    /// Of those, how many end differently.
    pub end_differently: u64,
}

/// A game that does not replay as recorded.
#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    pub game: String,
    pub kind: String,
    /// The revision that fails (`None`: the game as stored, before any replay).
    pub revision: Option<u32>,
    /// The ply (as `moves` numbers them) where it fails, if at one.
    pub ply: Option<u32>,
    pub what: String,
}

/// A game that would end differently under the current rules.
#[derive(Debug, Clone, Serialize)]
pub struct Divergence {
    pub game: String,
    pub kind: String,
    pub recorded_rules: String,
    /// The first ply (as `moves` numbers them) that goes otherwise: the entry refused, or the
    /// first position that differs (0: the setup itself).
    pub ply: u32,
    /// That entry, `actor: notation` (empty for the setup).
    pub entry: String,
    pub why: String,
    /// The code of the rule that refused the entry, or `setup` or `end` (it plays through but
    /// ends otherwise).
    pub rule: String,
}

impl Report {
    fn kind(&mut self, kind: GameKind, current: &str) -> &mut KindReport {
        let name = kind.to_string();
        match self.kinds.iter().position(|k| k.kind == name) {
            Some(i) => &mut self.kinds[i],
            None => {
                self.kinds.push(KindReport {
                    kind: name,
                    current_rules: current.to_string(),
                    ..KindReport::default()
                });
                self.kinds.last_mut().expect("just pushed")
            }
        }
    }

    /// The report as text, a line per kind, then each problem and divergence.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for k in &self.kinds {
            let versions: Vec<String> = k
                .rules_versions
                .iter()
                .map(|(v, n)| format!("{v} ×{n}"))
                .collect();
            out += &format!(
                "{}: {} games ({} revisions; recorded under {}): {} replay as recorded, {} do \
                 not; under {}: {} replayed again, {} end differently\n",
                k.kind,
                k.games,
                k.revisions,
                versions.join(", "),
                k.as_recorded,
                k.games - k.as_recorded,
                k.current_rules,
                k.replayed_under_current,
                k.end_differently,
            );
        }
        if !self.summaries_checked {
            out += "outcomes not checked: no finished game's summary is kept here\n";
        }
        for p in &self.problems {
            let at = match (p.revision, p.ply) {
                (Some(r), Some(ply)) => format!(" (revision {r}, ply {ply})"),
                (Some(r), None) => format!(" (revision {r})"),
                (None, Some(ply)) => format!(" (ply {ply})"),
                (None, None) => String::new(),
            };
            out += &format!("PROBLEM {} {}{at}: {}\n", p.kind, p.game, p.what);
        }
        // Divergences by kind and reason, with the first few games of each.
        let mut groups: BTreeMap<(&str, &str), Vec<&Divergence>> = BTreeMap::new();
        for d in &self.divergences {
            groups.entry((&d.kind, &d.rule)).or_default().push(d);
        }
        for ((kind, why), ds) in &groups {
            out += &format!("{kind}: {} end differently by [{why}]\n", ds.len());
            for d in ds.iter().take(EXAMPLES) {
                let entry = if d.entry.is_empty() {
                    "the setup".to_string()
                } else {
                    format!("`{}`", d.entry)
                };
                out += &format!(
                    "  {} (recorded under {}): from ply {}, {}: {}\n",
                    d.game, d.recorded_rules, d.ply, entry, d.why
                );
            }
            if ds.len() > EXAMPLES {
                out += &format!(
                    "  … and {} more (`--json` lists every one)\n",
                    ds.len() - EXAMPLES
                );
            }
        }
        out
    }
}

/// Divergences of one kind and reason shown in the text report (`--json` has every one).
const EXAMPLES: usize = 3;

/// Verifies every game of `source` (of `kind`, if given).
pub fn verify(source: &Source, kind: Option<GameKind>) -> Result<Report> {
    match source {
        Source::Nats { urls, stream } => {
            let scratch =
                std::env::temp_dir().join(format!("ludolog-verify-{}", std::process::id()));
            let config = store_nats::NatsConfig::from_urls(urls).with_stream(stream);
            let log = store_nats::NatsLog::open(config, crate::games::registry(), &scratch)
                .with_context(|| format!("opening the store on {urls}"));
            let report = log.and_then(|log| run(&log, kind, false));
            let _ = std::fs::remove_dir_all(&scratch);
            report
        }
        Source::Folder(dir) => {
            storecmd::existing(dir)?;
            match storecmd::open(dir) {
                Ok(store) => run(&store, kind, false),
                Err(e) if e.to_string().contains("in use by another process") => {
                    let copy = copy_dir(dir);
                    let _ = std::fs::remove_dir_all(&copy);
                    eprintln!(
                        "the store is held by a running server: verifying a copy it makes ({})",
                        copy.display()
                    );
                    let report = crate::backup::backup(dir, &copy).and_then(|_| {
                        let store = storecmd::open(&copy)?;
                        run(&store, kind, true)
                    });
                    let _ = std::fs::remove_dir_all(&copy);
                    report
                }
                Err(e) => Err(e),
            }
        }
    }
}

/// Where the copy of a running store goes: beside it, on the same disk.
fn copy_dir(dir: &Path) -> PathBuf {
    let name = format!(".verify-{}", std::process::id());
    match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join(name),
        _ => PathBuf::from(name),
    }
}

fn run(log: &dyn GameLog, kind: Option<GameKind>, copy: bool) -> Result<Report> {
    let summaries = summaries(log);
    let mut report = Report {
        summaries_checked: !summaries.is_empty(),
        copy_of_running_store: copy,
        ..Report::default()
    };
    let bar = ProgressBar::new(log.game_count() as u64);
    bar.set_style(
        ProgressStyle::with_template("verify {bar:40} {pos}/{len} games, {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    for id in log.game_ids() {
        bar.inc(1);
        let id = match id {
            Ok(id) => id,
            Err(e) => {
                report.problems.push(Problem {
                    game: String::new(),
                    kind: String::new(),
                    revision: None,
                    ply: None,
                    what: format!("the list of games cannot be read: {e}"),
                });
                continue;
            }
        };
        let header = match log.header(id) {
            Ok(h) => h,
            Err(e) => {
                report.problems.push(Problem {
                    game: id.to_string(),
                    kind: String::new(),
                    revision: None,
                    ply: None,
                    what: e.to_string(),
                });
                continue;
            }
        };
        if kind.is_some_and(|k| k != header.kind) {
            continue;
        }
        verify_game(log, &header, summaries.get(&id), &mut report);
    }
    bar.finish_and_clear();
    Ok(report)
}

/// The finished games' summaries the store keeps (none on a copy or a NATS store).
fn summaries(log: &dyn GameLog) -> HashMap<GameId, analysis::GameSummary> {
    let Ok(items) = log.projection_iter(analysis::index::PROJECTION) else {
        return HashMap::new();
    };
    items
        .filter_map(|kv| kv.ok())
        .filter_map(|(_, v)| analysis::GameSummary::decode(&v).ok())
        .map(|s| (s.id, s))
        .collect()
}

/// A replay's end: whose turn, and the outcome (totals by seat, winners).
#[derive(Debug, PartialEq)]
struct End {
    to_act: ToAct,
    totals: Vec<i32>,
    winners: Vec<u8>,
}

fn end_of(state: &dyn GameState) -> End {
    let outcome = state.outcome();
    let mut totals: Vec<(u8, i32)> = outcome
        .iter()
        .flat_map(|o| o.scores.iter().map(|s| (s.seat.0, s.total)))
        .collect();
    totals.sort_unstable();
    End {
        to_act: state.to_act(),
        totals: totals.into_iter().map(|(_, t)| t).collect(),
        winners: outcome
            .map(|o| o.winners.iter().map(|s| s.0).collect())
            .unwrap_or_default(),
    }
}

/// Where and why a replay stopped or went otherwise: the ply (as `moves` numbers them), what
/// happened, and the rule's code (`chance.draw`), or `setup` / `state` / `end`.
struct Refusal {
    ply: u32,
    why: String,
    rule: String,
}

impl Refusal {
    fn new(ply: u32, rule: &str, why: impl Into<String>) -> Refusal {
        Refusal {
            ply,
            why: why.into(),
            rule: rule.to_string(),
        }
    }
}

/// `entries` replayed from the start under `rules_version`, calling `each(ply, state)` after
/// every entry.
fn replay(
    log: &dyn GameLog,
    header: &Header,
    rules_version: &str,
    entries: &[Entry],
    mut each: impl FnMut(u32, &dyn GameState) -> Result<(), String>,
) -> Result<Box<dyn GameState>, Refusal> {
    let rules = log
        .registry()
        .get(header.kind)
        .ok_or_else(|| Refusal::new(0, "setup", format!("no rules for {}", header.kind)))?;
    let mut state = rules
        .new_game_recorded(&header.options_json(), rules_version, &header.data_hash)
        .map_err(|e| Refusal::new(0, "setup", format!("the setup: {e}")))?;
    for (i, e) in entries.iter().enumerate() {
        let ply = i as u32 + 1;
        state
            .apply(e.actor, &e.notation)
            .map_err(|err| Refusal::new(ply, err.code(), format!("refused: {err}")))?;
        each(ply, state.as_ref()).map_err(|why| Refusal::new(ply, "state", why))?;
    }
    Ok(state)
}

fn verify_game(
    log: &dyn GameLog,
    header: &Header,
    summary: Option<&analysis::GameSummary>,
    report: &mut Report,
) {
    let Some(rules) = log.registry().get(header.kind) else {
        return;
    };
    let current = rules.rules_version();
    let problem = |revision: Option<u32>, ply: Option<u32>, what: String| Problem {
        game: header.id.to_string(),
        kind: header.kind.to_string(),
        revision,
        ply,
        what,
    };
    let problems_before = report.problems.len();
    {
        let k = report.kind(header.kind, current);
        k.games += 1;
        *k.rules_versions
            .entry(header.rules_version.clone())
            .or_default() += 1;
    }
    let read = log
        .entries(header.id, 0, header.plies)
        .and_then(|e| Ok((e, log.journal(header.id)?)));
    let (entries, notes) = match read {
        Ok(x) => x,
        Err(e) => {
            report.problems.push(problem(None, None, e.to_string()));
            return;
        }
    };
    if entries.len() as u32 != header.plies {
        report.problems.push(problem(
            None,
            None,
            format!("{} entries for {} plies", entries.len(), header.plies),
        ));
        return;
    }
    let latest = store::revision::latest(&notes);
    if latest != header.revision {
        report.problems.push(problem(
            None,
            None,
            format!(
                "the header says revision {}, the journal {latest}",
                header.revision
            ),
        ));
    }
    // Earlier revisions: each must still replay.
    for r in 0..latest {
        report.kind(header.kind, current).revisions += 1;
        let Some(log_r) = store::revision::log_at(&entries, &notes, r) else {
            continue;
        };
        if let Err(r_) = replay(log, header, &header.rules_version, &log_r, |_, _| Ok(())) {
            report.problems.push(problem(Some(r), Some(r_.ply), r_.why));
        }
    }
    // The latest: replayed, its snapshots compared on the way.
    report.kind(header.kind, current).revisions += 1;
    let every = store::Config::default().snapshot_every.max(1);
    let recorded = replay(
        log,
        header,
        &header.rules_version,
        &entries,
        |ply, state| {
            if ply % every != 0 {
                return Ok(());
            }
            let stored = log
                .state_at(header.id, ply)
                .map_err(|e| format!("the stored state cannot be read: {e}"))?;
            if stored.encode() != state.encode() {
                return Err("the stored state differs from the replayed one".into());
            }
            Ok(())
        },
    );
    let recorded = match recorded {
        Ok(state) => state,
        Err(r) => {
            report
                .problems
                .push(problem(Some(latest), Some(r.ply), r.why));
            return;
        }
    };
    let over = recorded.to_act() == ToAct::Over;
    if over != (header.status == store::Status::Finished) {
        report.problems.push(problem(
            Some(latest),
            None,
            format!(
                "the header says {}, the replay leaves the game {}",
                header.status.as_str(),
                if over { "finished" } else { "active" }
            ),
        ));
    }
    if let Some(s) = summary {
        let kept: Vec<(i32, bool)> = s.seats.iter().map(|x| (x.total, x.won)).collect();
        let replayed: Vec<(i32, bool)> = recorded
            .outcome()
            .map(|o| {
                o.scores
                    .iter()
                    .map(|x| (x.total, o.winners.contains(&x.seat)))
                    .collect()
            })
            .unwrap_or_default();
        if kept != replayed {
            report.problems.push(problem(
                Some(latest),
                None,
                format!(
                    "the outcome kept when it finished ((total, won) by seat: {kept:?}) is not \
                     the replay's ({replayed:?})"
                ),
            ));
        }
    }
    if report.problems.len() == problems_before {
        report.kind(header.kind, current).as_recorded += 1;
    }
    // Under the current rules.
    if header.rules_version == current {
        return;
    }
    report.kind(header.kind, current).replayed_under_current += 1;
    let diverged = match replay(log, header, current, &entries, |_, _| Ok(())) {
        Err(r) => Some(r),
        Ok(now) if end_of(now.as_ref()) == end_of(recorded.as_ref()) => None,
        Ok(now) => Some(first_difference(
            log,
            header,
            current,
            &entries,
            now.as_ref(),
            recorded.as_ref(),
        )),
    };
    if let Some(Refusal { ply, why, rule }) = diverged {
        report.kind(header.kind, current).end_differently += 1;
        report.divergences.push(Divergence {
            game: header.id.to_string(),
            kind: header.kind.to_string(),
            recorded_rules: header.rules_version.clone(),
            ply,
            entry: ply
                .checked_sub(1)
                .and_then(|i| entries.get(i as usize))
                .map(|e| format!("{}: {}", e.actor, e.notation))
                .unwrap_or_default(),
            why,
            rule,
        });
    }
}

/// The first position (as `moves` numbers plies) at which the game under the current rules
/// and as recorded look different to an omniscient viewer, and how the ends differ.
fn first_difference(
    log: &dyn GameLog,
    header: &Header,
    current: &str,
    entries: &[Entry],
    now: &dyn GameState,
    recorded: &dyn GameState,
) -> Refusal {
    let why = format!("ends {:?} instead of {:?}", end_of(now), end_of(recorded));
    let views = |version: &str| -> Vec<serde_json::Value> {
        let mut out = Vec::new();
        let start = log.registry().get(header.kind).and_then(|r| {
            r.new_game_recorded(&header.options_json(), version, &header.data_hash)
                .ok()
        });
        if let Some(s) = start {
            out.push(s.view(Viewer::Omniscient));
        }
        let _ = replay(log, header, version, entries, |_, s| {
            out.push(s.view(Viewer::Omniscient));
            Ok(())
        });
        out
    };
    let (a, b) = (views(&header.rules_version), views(current));
    let ply = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    Refusal::new(ply as u32, "end", why)
}
