//! CEL syntax errors in words: `expected a value, found the end of the expression` instead of
//! the parser's ANTLR report (`Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(',
//! '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES,
//! IDENTIFIER}`). What stands at the error's place is read from the expression itself; the line
//! and column are the error's (`FilterError::Syntax` puts them in front).

/// The words for the `cel` parser's message `msg` about `source` at `line`, `column` (from 1).
pub fn in_words(source: &str, line: u32, column: u32, msg: &str) -> String {
    let msg = msg.strip_prefix("Syntax error: ").unwrap_or(msg);
    let here = || found(source, line as usize, column as usize);
    if let Some(rest) = msg
        .strip_prefix("mismatched input ")
        .or_else(|| msg.strip_prefix("extraneous input "))
    {
        if let Some((_, expected)) = rest.split_once(" expecting ") {
            return format!("expected {}, found {}", expecting(expected), here());
        }
    }
    if let Some(rest) = msg.strip_prefix("missing ") {
        if let Some((missing, _)) = rest.split_once(" at ") {
            return format!("expected {}, found {}", token(missing), here());
        }
    }
    if msg.starts_with("no viable alternative at input ") {
        let what = here();
        return if what == END {
            "the expression ends too soon".into()
        } else {
            format!("unexpected {what}")
        };
    }
    if let Some(text) = msg.strip_prefix("token recognition error at: ") {
        let text = text.strip_prefix('\'').unwrap_or(text);
        let text = text.strip_suffix('\'').unwrap_or(text);
        return if text.starts_with(['"', '\'']) || text.is_empty() {
            format!("a string is not closed: {}", quote(text))
        } else {
            format!("{} is not part of CEL", quote(text))
        };
    }
    if let Some(word) = msg.strip_prefix("reserved identifier: ") {
        return format!("{} is a reserved word, not a name", quote(word));
    }
    // The parser's other messages are short sentences already; no line of them is dropped.
    msg.replace('\n', " ")
}

const END: &str = "the end of the expression";

/// ANTLR's `expecting` part (`{'(', IDENTIFIER, …}` or one token) in words.
fn expecting(set: &str) -> String {
    let items: Vec<&str> = set
        .trim()
        .trim_start_matches('{')
        .trim_end_matches('}')
        .split(", ")
        .map(str::trim)
        .collect();
    // Every operand can start here: what is missing is a value, however it is written.
    if items.contains(&"IDENTIFIER") && items.iter().any(|t| t.starts_with("NUM_")) {
        return "a value (a name, a number, a string, a list or a bracket)".into();
    }
    let mut words: Vec<String> = Vec::new();
    for t in items {
        let w = token(t);
        if !words.contains(&w) {
            words.push(w);
        }
    }
    match words.split_last() {
        None => "something else".into(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// One ANTLR token name or literal in words.
fn token(t: &str) -> String {
    match t {
        "<EOF>" | "'<EOF>'" => END.into(),
        "IDENTIFIER" => "a name".into(),
        "NUM_INT" | "NUM_UINT" | "NUM_FLOAT" => "a number".into(),
        "STRING" => "a string".into(),
        "BYTES" => "a bytes literal".into(),
        lit if lit.len() >= 2 && lit.starts_with('\'') && lit.ends_with('\'') => {
            format!("`{}`", &lit[1..lit.len() - 1])
        }
        other => other.to_lowercase().replace('_', " "),
    }
}

/// What stands in `source` at `line`, `column` (from 1, in characters), quoted: a name, number or
/// string whole, an operator of two characters, else one character; "the end of the
/// expression" past the last one.
fn found(source: &str, line: usize, column: usize) -> String {
    let rest = source
        .split('\n')
        .nth(line.saturating_sub(1))
        .and_then(|l| {
            l.char_indices()
                .nth(column.saturating_sub(1))
                .map(|(i, _)| &l[i..])
        })
        .unwrap_or("")
        .trim_end_matches('\r');
    let Some(first) = rest.chars().next() else {
        return END.into();
    };
    let end = if first.is_ascii_alphanumeric() || first == '_' {
        rest.char_indices()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
            .map_or(rest.len(), |(i, _)| i)
    } else if first == '"' || first == '\'' {
        rest.char_indices()
            .skip(1)
            .find(|(_, c)| *c == first)
            .map_or(rest.len(), |(i, c)| i + c.len_utf8())
    } else if ["==", "!=", "<=", ">=", "&&", "||"]
        .iter()
        .any(|op| rest.starts_with(op))
    {
        2
    } else {
        first.len_utf8()
    };
    quote(&rest[..end])
}

/// `text` in double quotes, escaped as JSON escapes it (no control character or line break
/// in a message), cut at 40 characters: what a syntax error quotes of the text it read (the
/// API's GraphQL syntax errors quote the same way).
pub fn quote(text: &str) -> String {
    let cut: String = text.chars().take(40).collect();
    let ell = if cut.len() < text.len() { "…" } else { "" };
    let q = serde_json::to_string(&cut).unwrap_or_else(|_| "\"?\"".into());
    format!("{}{ell}\"", &q[..q.len() - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first error the `cel` parser gives for `source`, in words, with its place.
    fn said(source: &str) -> (u32, u32, String) {
        let e = cel::Program::compile(source).expect_err("does not compile");
        let p = &e.errors[0];
        let (line, column) = (p.pos.0 as u32, p.pos.1 as u32);
        (line, column, in_words(source, line, column, &p.msg))
    }

    #[test]
    fn antlr_reports_become_sentences() {
        let value = "a value (a name, a number, a string, a list or a bracket)";
        assert_eq!(
            said("round =="),
            (
                1,
                9,
                format!("expected {value}, found the end of the expression")
            )
        );
        assert_eq!(
            said("round == }"),
            (1, 10, format!("expected {value}, found \"}}\""))
        );
        assert_eq!(
            said("round == 3)"),
            (
                1,
                11,
                "expected the end of the expression, found \")\"".into()
            )
        );
        assert_eq!(
            said("round == 3 round"),
            (
                1,
                12,
                "expected the end of the expression, found \"round\"".into()
            )
        );
        assert_eq!(
            said("(round == 3"),
            (
                1,
                12,
                "expected `)`, found the end of the expression".into()
            )
        );
        assert_eq!(said("round # 3"), (1, 7, "\"#\" is not part of CEL".into()));
        assert_eq!(
            said("'abc"),
            (1, 1, "a string is not closed: \"'abc\"".into())
        );
        assert_eq!(said("a.b."), (1, 5, "the expression ends too soon".into()));
        assert_eq!(
            said("for == 1"),
            (1, 1, "\"for\" is a reserved word, not a name".into())
        );
        assert_eq!(
            said("round ==\n 3 )"),
            (
                2,
                4,
                "expected the end of the expression, found \")\"".into()
            )
        );
    }

    #[test]
    fn no_token_list_or_picture_is_left() {
        for source in [
            "seats.exists(s, s.x >",
            "1 +\n+",
            "",
            "[1, 2",
            "{1: }",
            "x ? 1",
            "a[",
            "size(",
        ] {
            let (_, _, s) = said(source);
            for art in [
                "IDENTIFIER",
                "NUM_",
                "<EOF>",
                "mismatched",
                "expecting",
                "^",
                "\n",
            ] {
                assert!(!s.contains(art), "{source:?}: {s}");
            }
        }
    }
}
