//! The game text (`store::portable::text`, `schema/notation/game-text.md`): what a person
//! types from a score sheet is read, replayed and refused at the line of its mistake; a record
//! written as text reads back as the same game. (Every sample game of every kind round-trips
//! through `ludolog export --text` / `import --text` in the binary's tests.)

use store::portable::text::{parse, parse_all, write};
use store::portable::GameRecord;
use store::Status;

fn registry() -> rules_core::Registry {
    store_conformance::registry()
}

/// The first sample Five Tribes game: a record the store wrote.
fn sample() -> GameRecord {
    let line = include_str!("../../../tests/data/random-samples/five-tribes.ndjson")
        .lines()
        .next()
        .unwrap();
    serde_json::from_str(line).unwrap()
}

/// A typed text: the sample's header and its first `n` entries, with the seats by name.
fn typed(n: usize) -> String {
    let text = write(&sample());
    let mut lines: Vec<&str> = text.lines().collect();
    let body = lines.iter().position(|l| l.is_empty()).unwrap() + 1;
    lines.truncate(body + n);
    lines.join("\n") + "\n"
}

#[test]
fn a_record_written_as_text_reads_back_as_the_same_game() {
    let rec = sample();
    let text = write(&rec);
    assert!(text.starts_with("Id: 036vpvam00000\nGame: five-tribes\nPlayers: bot-0, bot-1\n"));
    assert!(text.contains("\n\ndealer: "), "{}", &text[..400]);
    assert!(text.contains("\nbot-0: "), "entries name their players");
    let back = parse(&registry(), &text, 1).unwrap();
    assert!(back.comments.is_empty());
    let r = &back.record;
    assert_eq!(
        (&r.id, &r.kind, &r.players, &r.options, r.seed, r.status),
        (
            &rec.id,
            &rec.kind,
            &rec.players,
            &rec.options,
            rec.seed,
            rec.status
        )
    );
    assert_eq!(
        (&r.rules_version, &r.data_hash),
        (&rec.rules_version, &rec.data_hash)
    );
    let moves = |r: &GameRecord| -> Vec<(String, String)> {
        r.entries
            .iter()
            .map(|e| (e.actor.clone(), e.notation.clone()))
            .collect()
    };
    assert_eq!(moves(r), moves(&rec));
    // A text keeps no time per entry: each is at the game's date.
    assert!(r.entries.iter().all(|e| e.at == rec.created_at));
    assert_eq!(write(r), text, "text → record → text is the identity");
}

#[test]
fn a_typed_game_in_play_with_comments_and_seat_numbers_reads() {
    let mut text = typed(3).replace("Id: 036vpvam00000\n", "");
    // Seat numbers as well as names; comments on the game and on a ply.
    text = text.replacen("bot-0: ", "0: ", 1);
    text = text.replacen(
        "Game: five-tribes",
        "# the club's Tuesday game\nGame: five-tribes",
        1,
    );
    text.push_str("# and then the power went out\n");
    let g = parse(&registry(), &text, 1).unwrap();
    assert_eq!(g.record.status, Status::Active);
    assert_eq!(g.record.entries.len(), 3);
    assert_eq!(
        g.comments,
        vec![
            (None, "the club's Tuesday game".to_string()),
            (Some(2), "and then the power went out".to_string())
        ]
    );
    // No `Id:`: the same text always gets the same id.
    assert_eq!(parse(&registry(), &text, 1).unwrap().record.id, g.record.id);
    let other = parse(&registry(), &text.replace("2026-01-01", "2026-01-02"), 1).unwrap();
    assert_ne!(other.record.id, g.record.id);
}

/// Each mistake is refused at its line, saying what is wrong.
#[test]
fn mistakes_are_refused_at_their_line() {
    let good = typed(4);
    let body = good.lines().position(|l| l.is_empty()).unwrap() + 1; // lines before the entries
    let entry_line = |i: usize| (body + i + 1) as u64;
    let mut entries: Vec<String> = good.lines().skip(body).map(str::to_string).collect();
    let head: String = good.lines().take(body).map(|l| format!("{l}\n")).collect();
    let with = |entries: &[String]| format!("{head}{}\n", entries.join("\n"));
    let cases: Vec<(String, u64, &str)> = vec![
        (
            good.replace("Game: five-tribes", "Game: chess"),
            2,
            "game kind",
        ),
        (
            good.replace("Players: bot-0, bot-1", "Players: a, b, c, d, e, f, g"),
            3,
            "players",
        ),
        (
            good.replace("Date: 2026-01-01T00:00:00Z", "Date: soon"),
            4,
            "Date",
        ),
        (good.replace("Seed: ", "Sede: "), 6, "unknown header `Sede`"),
        (
            {
                entries[1] = entries[1].replacen("bot-", "nobody-", 1);
                with(&entries)
            },
            entry_line(1),
            "neither a player",
        ),
        (
            {
                entries[1] = "bot-0: fly to the moon".into();
                with(&entries)
            },
            entry_line(1),
            "",
        ),
        (
            {
                entries[1] = "no colon here".into();
                with(&entries)
            },
            entry_line(1),
            "not an entry",
        ),
        (
            {
                entries[1] = "7: pass".into();
                with(&entries)
            },
            entry_line(1),
            "no seat 7",
        ),
    ];
    for (text, line, says) in cases {
        let e = parse(&registry(), &text, 1).unwrap_err();
        assert_eq!(e.line, line, "{e} in\n{}", &text[..text.len().min(600)]);
        assert!(e.reason.contains(says), "{e}");
    }
    // A move for the wrong seat: the rules say whose turn it is.
    let g = parse(&registry(), &good, 1).unwrap();
    let to_move = &g.record.entries[1];
    let wrong = if to_move.actor == "0" {
        "bot-1"
    } else {
        "bot-0"
    };
    let mut entries: Vec<String> = good.lines().skip(body).map(str::to_string).collect();
    entries[1] = format!("{wrong}: {}", to_move.notation);
    let e = parse(&registry(), &with(&entries), 1).unwrap_err();
    // entries[1] is ply 2, as `moves` numbers it.
    assert_eq!((e.line, e.ply), (entry_line(1), Some(2)), "{e}");
}

#[test]
fn several_games_in_one_text_are_read_each_on_its_own() {
    let a = typed(2);
    let b = typed(3).replace("Id: 036vpvam00000\n", "Id: 036vpvam00001\n");
    let bad = "Game: five-tribes\n";
    let all = parse_all(&registry(), &format!("{a}---\n{bad}---\n{b}"));
    assert_eq!(all.len(), 3);
    assert_eq!(all[0].as_ref().unwrap().record.entries.len(), 2);
    let e = all[1].as_ref().unwrap_err();
    assert!(e.reason.contains("Players"), "{e}");
    let lines_before_b = a.lines().count() as u64 + 1 + 1 + 1;
    assert_eq!(all[2].as_ref().unwrap().record.entries.len(), 3);
    // Lines count from the start of the whole text.
    let broken = format!("{a}---\n{}", b.replacen("bot-1: ", "bot-9: ", 1));
    let e = parse_all(&registry(), &broken).pop().unwrap().unwrap_err();
    assert!(e.line > lines_before_b, "{e}");
}

/// A name that the text cannot carry (a comma, `dealer`, a number) is written as a JSON list,
/// and the entries by seat number.
#[test]
fn names_the_text_cannot_carry_are_written_safely() {
    let mut rec = sample();
    rec.players = vec!["Smith, J.".into(), "dealer".into()];
    let text = write(&rec);
    assert!(
        text.contains("Players: [\"Smith, J.\",\"dealer\"]"),
        "{}",
        &text[..300]
    );
    assert!(text.contains("\n0: ") && !text.contains("\ndealer: dealer"));
    let back = parse(&registry(), &text, 1).unwrap();
    assert_eq!(back.record.players, rec.players);
    assert_eq!(write(&back.record), text);
}
