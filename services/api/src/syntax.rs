//! GraphQL syntax errors in words: `Syntax error at line 1, column 11: expected a field,
//! found "}"`, one line, instead of the parser's picture of the line with an arrow and a caret
//! under it and its grammar's rule names (`expected selection_set, selection, directive, or
//! arguments`).
//!
//! async-graphql's parser (pest) says what it expected as a list of rule names in the last line
//! of its message; each is put in words here, and what stands at the place is read from the
//! query itself. The error's code (`BAD_QUERY`) and its `locations` are left as they were.

use async_graphql::parser::Error as ParseError;

/// The sentence for a syntax error in `query`, or `None` for a parse error that is not one
/// (two operations of one name, a missing operation: their messages are sentences already).
pub fn sentence(query: &str, error: &ParseError) -> Option<String> {
    let ParseError::Syntax { message, start, .. } = error else {
        return None;
    };
    let (line, column) = (start.line, start.column);
    let detail = match message
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("= "))
    {
        // pest's picture: its last line says what was expected or unexpected.
        Some(said) if message.contains('\n') => {
            format!("{}, found {}", in_words(said), found(query, line, column))
        }
        // The parser's own messages (`invalid number: …`) are one line already.
        _ => message.lines().next().unwrap_or("not GraphQL").to_string(),
    };
    Some(format!(
        "Syntax error at line {line}, column {column}: {detail}"
    ))
}

/// pest's `expected a, b, or c` / `unexpected a; expected b` with each rule in words.
fn in_words(said: &str) -> String {
    let (unexpected, expected) = match said.strip_prefix("unexpected ") {
        Some(rest) => match rest.split_once("; expected ") {
            Some((u, e)) => (Some(u), Some(e)),
            None => (Some(rest), None),
        },
        None => (None, said.strip_prefix("expected ")),
    };
    let mut parts = Vec::new();
    if let Some(e) = expected {
        parts.push(format!("expected {}", list(e)));
    }
    if let Some(u) = unexpected {
        parts.push(format!("not {}", list(u)));
    }
    if parts.is_empty() {
        return said.to_string();
    }
    parts.join(" and ")
}

/// `a, b, or c` (rule names) as `x, y or z` (words), each said once.
fn list(rules: &str) -> String {
    let mut words: Vec<&str> = Vec::new();
    for rule in rules
        .split(", or ")
        .flat_map(|p| p.split(" or "))
        .flat_map(|p| p.split(", "))
    {
        let w = rule_in_words(rule.trim());
        if !w.is_empty() && !words.contains(&w) {
            words.push(w);
        }
    }
    // The end of the document is named last; a list whose items hold an "or" of their own
    // takes a comma before its last "or".
    words.sort_by_key(|w| *w == END);
    let comma = if words.iter().any(|w| w.contains(" or ")) {
        ","
    } else {
        ""
    };
    match words.split_last() {
        None => "something else".into(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{}{comma} or {last}", rest.join(", ")),
    }
}

const END: &str = "the end of the document";

/// A rule of async-graphql's grammar (`graphql.pest`), as a reader would name what it stands for.
fn rule_in_words(rule: &str) -> &str {
    match rule {
        "EOI" => END,
        "executable_definition" => "an operation or a fragment",
        "operation_definition" | "named_operation_definition" => "an operation",
        "fragment_definition" => "a fragment",
        "operation_type" => "`query`, `mutation` or `subscription`",
        "selection_set" => "a selection set `{ … }`",
        "selection" | "field" => "a field",
        "alias" => "an alias",
        "name" => "a name",
        "arguments" | "const_arguments" => "arguments `( … )`",
        "argument" | "const_argument" => "an argument `name: value`",
        "directives" | "directive" | "const_directives" | "const_directive" => {
            "a directive `@name`"
        }
        "variable_definitions" => "variable definitions `( … )`",
        "variable_definition" => "a variable definition `$name: Type`",
        "variable" => "a variable `$name`",
        "default_value" => "a default value `= …`",
        "type_" => "a type",
        "type_condition" => "a type condition `on Type`",
        "fragment_spread" => "a fragment spread `...Name`",
        "inline_fragment" => "an inline fragment `... on Type { … }`",
        "value" => "a value",
        "const_value" => "a constant value (no variable)",
        "object_field" | "const_object_field" => "an object field `name: value`",
        "object" | "const_object" => "an object `{ … }`",
        "list" | "const_list" => "a list `[ … ]`",
        "string" | "string_content" | "block_string_content" => "a string",
        "number" | "int" | "float" | "fractional" | "exponent" => "a number",
        "boolean" => "`true` or `false`",
        "null" => "`null`",
        "enum_value" => "an enum value",
        other => other,
    }
}

/// What stands in `text` at `line`, `column` (from 1, in characters), quoted: a name, number or
/// string whole, else one character; "the end of the document" past the last one.
pub fn found(text: &str, line: usize, column: usize) -> String {
    let rest: &str = text
        .split('\n')
        .nth(line.saturating_sub(1))
        .and_then(|l| {
            l.char_indices()
                .nth(column.saturating_sub(1))
                .map(|(i, _)| &l[i..])
        })
        .unwrap_or("");
    let rest = rest.trim_end_matches('\r');
    let Some(first) = rest.chars().next() else {
        let later = text.split('\n').skip(line).any(|l| !l.trim().is_empty());
        return if later {
            "the end of the line".into()
        } else {
            "the end of the document".into()
        };
    };
    let token: String = if first.is_ascii_alphanumeric() || first == '_' || first == '-' {
        let end = rest
            .char_indices()
            .skip(1)
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '.'))
            .map_or(rest.len(), |(i, _)| i);
        rest[..end].to_string()
    } else if first == '"' || first == '\'' {
        let end = rest
            .char_indices()
            .skip(1)
            .find(|(_, c)| *c == first)
            .map_or(rest.len(), |(i, c)| i + c.len_utf8());
        rest[..end].to_string()
    } else if rest.starts_with("...") {
        "...".into()
    } else {
        first.to_string()
    };
    quote(&token)
}

/// `token` in double quotes, as every syntax error quotes what it read.
pub use analysis::positions::syntax::quote;

#[cfg(test)]
mod tests {
    use super::*;

    fn said(q: &str) -> String {
        let e = async_graphql::parser::parse_query(q).expect_err("does not parse");
        sentence(q, &e).expect("a syntax error")
    }

    #[test]
    fn syntax_errors_are_sentences_with_their_place() {
        assert_eq!(
            said("{ rules { } }"),
            "Syntax error at line 1, column 11: expected a field, found \"}\""
        );
        assert_eq!(
            said("query { a(x: ) }"),
            "Syntax error at line 1, column 14: expected a value, found \")\""
        );
        assert_eq!(
            said("{ a }}"),
            "Syntax error at line 1, column 6: expected an operation or a fragment, or the end \
             of the document, found \"}\""
        );
        assert_eq!(
            said("{\n  rules {\n    kind\n"),
            "Syntax error at line 4, column 1: expected a selection set `{ … }`, a field, a \
             directive `@name` or arguments `( … )`, found the end of the document"
        );
        assert_eq!(
            said("fragment F { a }"),
            "Syntax error at line 1, column 12: expected a type condition `on Type`, found \"{\""
        );
        assert_eq!(
            said("query Q($a: Int = $x) { a }"),
            "Syntax error at line 1, column 19: expected a constant value (no variable), found \"$\""
        );
        for q in [
            "{ a(x: \"no end) }",
            "",
            "mutation",
            "{ a @ }",
            "{ a(x: {y 1}) }",
        ] {
            let s = said(q);
            assert!(s.starts_with("Syntax error at line 1, column "), "{s}");
            assert!(
                !s.contains('\n') && !s.contains("-->") && !s.contains('^'),
                "{s}"
            );
            assert!(!s.contains('_'), "no rule names: {s}");
        }
    }

    #[test]
    fn other_parse_errors_are_left_as_they_are() {
        let q = "query A { a } query A { b }";
        let e = async_graphql::parser::parse_query(q).unwrap_err();
        assert_eq!(sentence(q, &e), None);
    }

    #[test]
    fn what_was_found_is_one_token_quoted() {
        assert_eq!(found("{ abc(x: 1) }", 1, 3), "\"abc\"");
        assert_eq!(found("{ a(x: -12) }", 1, 8), "\"-12\"");
        assert_eq!(found("{ a(x: \"s t\") }", 1, 8), "\"\\\"s t\\\"\"");
        assert_eq!(found("{ ...F }", 1, 3), "\"...\"");
        assert_eq!(found("{ a }\n", 2, 1), "the end of the document");
        assert_eq!(found("{ a\n\n b", 1, 4), "the end of the line");
        assert_eq!(found("é{", 1, 2), "\"{\"");
        assert_eq!(
            found(&"x".repeat(100), 1, 1),
            format!("\"{}…\"", "x".repeat(40))
        );
    }
}
