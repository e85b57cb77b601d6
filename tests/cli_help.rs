//! The command line explains itself: every option and argument of every command (`ludolog
//! <command> --help`, subcommands of subcommands included) has a description; and there is one
//! rule for tokens — stated in `serve --help`, and applied alike to the admin token, the
//! annotators' tokens and every token a request sends.

mod common;

use common::{gql, ludolog, Server};
use serde_json::json;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn help(path: &[&str]) -> String {
    let out = Command::new(ludolog())
        .args(path)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "ludolog {path:?} --help");
    String::from_utf8(out.stdout).unwrap()
}

/// The commands listed under `Commands:` (without `help`).
fn commands(help: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line == "Commands:" {
            inside = true;
            continue;
        }
        if inside {
            let Some(name) = line
                .strip_prefix("  ")
                .and_then(|l| l.split_whitespace().next())
            else {
                break;
            };
            if name != "help" {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// The options and arguments a help text lists without a description: their head lines
/// (`  -x, --name <VALUE>`, `  <FILE>`), each with what follows it up to the next one — on
/// the same line in short help, on the lines below in long help — and nothing there but
/// `[default: …]`, `[env: …]` or `[possible values: …]`.
fn undescribed(help: &str) -> Vec<String> {
    let is_head = |l: &str| {
        let t = l.trim_start();
        let indent = l.len() - t.len();
        (2..=6).contains(&indent)
            && (t.starts_with('-') || t.starts_with('<') || t.starts_with('['))
    };
    let in_list = |l: &str| l.starts_with(' ') || l.is_empty();
    let lines: Vec<&str> = help.lines().collect();
    let mut missing = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if !is_head(line) {
            i += 1;
            continue;
        }
        let t = line.trim_start();
        // The head is the option and its value names; two spaces part it from the help.
        let (head, same_line) = t.split_once("  ").unwrap_or((t, ""));
        let mut said = same_line.to_string();
        i += 1;
        while i < lines.len() && in_list(lines[i]) && !is_head(lines[i]) {
            said.push(' ');
            said.push_str(lines[i].trim());
            i += 1;
        }
        let mut words = said.clone();
        for tag in ["[default: ", "[env: ", "[possible values: ", "[aliases: "] {
            while let Some(at) = words.find(tag) {
                let end = words[at..].find(']').map_or(words.len(), |e| at + e + 1);
                words.replace_range(at..end, "");
            }
        }
        if words.trim().is_empty() {
            missing.push(head.trim().to_string());
        }
    }
    missing
}

#[test]
fn every_option_of_every_command_has_a_description() {
    let top = help(&[]);
    let mut paths: Vec<Vec<String>> = commands(&top).into_iter().map(|c| vec![c]).collect();
    assert!(paths.len() >= 15, "the commands: {paths:?}");
    let mut checked = 0;
    let mut missing = Vec::new();
    while let Some(path) = paths.pop() {
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        let text = help(&args);
        for sub in commands(&text) {
            let mut p = path.clone();
            p.push(sub);
            paths.push(p);
        }
        for m in undescribed(&text) {
            missing.push(format!("ludolog {}: {m}", path.join(" ")));
        }
        checked += 1;
    }
    assert!(
        checked >= 20,
        "every command and bench's subcommands: {checked}"
    );
    assert!(
        missing.is_empty(),
        "without a description:\n{}",
        missing.join("\n")
    );
    // The parser finds what it must: a help text with a bare option is caught.
    assert_eq!(
        undescribed("Options:\n      --players <PLAYERS>  [default: 4]\n      --json  Print JSON\n  -h, --help\n          Print help\n"),
        vec!["--players <PLAYERS>"]
    );
}

/// `ludolog serve` with `extra`, expected to refuse to start: what it printed.
fn refused(extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(ludolog())
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--no-samples",
            "--data-dir",
        ])
        .arg(dir.path().join("store"))
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("serve {extra:?} started");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(!status.success(), "serve {extra:?}: {err}");
    err
}

/// The rule as a refusal states it: the text between "a token is " and ";".
fn rule_in(refusal: &str) -> String {
    let from = refusal
        .find("a token is ")
        .expect("the refusal states the rule")
        + 11;
    let to = refusal[from..]
        .find(';')
        .map_or(refusal.len(), |e| from + e);
    refusal[from..to].to_string()
}

#[test]
fn one_token_rule_stated_in_help_and_held_everywhere() {
    // The admin token and an annotator's are refused under the same rule, which `--help` states
    // (one line of text, as clap prints a paragraph).
    let short = refused(&["--admin-token", "too-short"]);
    assert!(short.contains("--admin-token"), "{short}");
    assert!(
        !short.contains("too-short"),
        "a token is never repeated: {short}"
    );
    let rule = rule_in(&short);
    assert!(rule.starts_with("16 to 256 characters"), "{rule}");
    let long = refused(&["--admin-token", &"a".repeat(257)]);
    assert_eq!(rule_in(&long), rule);
    let odd = refused(&["--admin-token", "an admin token with spaces"]);
    assert_eq!(rule_in(&odd), rule);
    let annotator = refused(&["--annotators", "Ana=short-secret"]);
    assert_eq!(rule_in(&annotator), rule, "{annotator}");
    let serve_help = help(&["serve"]).replace('\n', " ");
    let serve_help = serve_help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        serve_help.contains(&rule),
        "`ludolog serve --help` states the rule {rule:?}"
    );

    // At the limits, accepted: 16 characters as the admin token, 256 as an annotator's.
    let admin = "sixteen-chars-ok";
    let analyst = "x".repeat(256);
    let server = Server::start(&[
        "--no-samples",
        "--admin-token",
        admin,
        "--annotators",
        &format!("Ana={analyst}"),
    ]);
    let import = "mutation($t: String) { importGame(text: $t) { id } }";
    let v = gql(&server, Some(admin), import, json!({ "t": "not a game" }));
    assert_eq!(
        common::code(&v),
        "BAD_RECORD",
        "the admin got past the check: {v}"
    );

    // A request's token: under the rule, refused with the same words; at the limits, read
    // (an unknown token of a valid form is a spectator).
    for bad in ["fifteen-chars-x", &"y".repeat(257)] {
        let v = gql(&server, Some(bad), "{ rules { kind } }", json!({}));
        assert_eq!(common::code(&v), "UNAUTHORIZED", "{v}");
        assert!(
            v["errors"][0]["message"].as_str().unwrap().contains(&rule),
            "{v}"
        );
    }
    for fine in ["sixteen-chars-xy", analyst.as_str()] {
        let v = gql(&server, Some(fine), "{ rules { kind } }", json!({}));
        assert!(v["errors"].is_null(), "{v}");
    }

    // The tokens the server makes follow it too.
    let v = gql(
        &server,
        None,
        "mutation { createGame(kind: MOMBASA, players: [\"a\", \"b\"]) { seatTokens recorderToken } }",
        json!({}),
    );
    let made = &common::data(&v)["createGame"];
    let mut tokens: Vec<String> = made["seatTokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    tokens.push(made["recorderToken"].as_str().unwrap().to_string());
    for t in tokens {
        assert!((16..=256).contains(&t.len()), "{t}");
        assert!(t.bytes().all(|b| b.is_ascii_alphanumeric()), "{t}");
        let v = gql(&server, Some(&t), "{ rules { kind } }", json!({}));
        assert!(v["errors"].is_null(), "{v}");
    }
}
