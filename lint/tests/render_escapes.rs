//! Every output format keeps terminal escapes out (issue 19, item 5): hostile text in a file
//! name, a source line, a parser's note or an error reaches no report raw (no ESC, OSC, C1
//! control, bidirectional control or forged line), and what was escaped decodes back to the
//! text. `fuzz/fuzz_targets/render_escapes.rs` checks the same on arbitrary text.

use mirrorless_conformance::check::escape_control;
use mirrorless_lint::Report;
use mirrorless_lint::model::{FileError, Finding, Severity};
use mirrorless_lint::render::{Format, render, terminal_text};
use std::borrow::Cow;

const HOSTILE: &[&str] = &[
    "\u{1b}[31mred\u{1b}[0m",
    "\u{1b}]0;title\u{7}",
    "\u{1b}]8;;https://example.com\u{1b}\\link\u{1b}]8;;\u{1b}\\",
    "\u{9b}2J",
    "a\rb",
    "line\n::error file=forged::forged",
    "a\u{2028}b\u{2029}",
    "\u{202e}txt.exe",
    "\u{7f}\u{0}\u{8}",
    "50% done, a:b",
    "plain `name` \\u{1b}",
];

fn report(text: &str) -> Report {
    let finding = Finding {
        rule: "ML009",
        rule_name: "unparsed",
        severity: Severity::Note,
        event: None,
        path: format!("src/{text}.ts"),
        line: 1,
        column: 1,
        end_line: 1,
        end_column: 2,
        message: "file does not parse".to_owned(),
        help: "fix the syntax error".to_owned(),
        note: Some(format!("Unexpected token `{text}`")),
        fingerprint: "0".to_owned(),
        line_text: format!("x = '{text}'"),
        line_text_column: 1,
        line_text_byte_column: 1,
        fix: None,
        human: false,
    };
    Report {
        findings: vec![finding],
        errors: vec![FileError {
            path: format!("{text}.rs"),
            line: None,
            message: format!("cannot read {text}"),
        }],
        ..Report::default()
    }
}

/// The characters of the class in `out`, other than the line breaks between its lines.
fn raw(out: &str) -> Vec<char> {
    out.chars()
        .filter(|&c| c != '\n')
        .filter(|c| matches!(escape_control(c.encode_utf8(&mut [0; 4])), Cow::Owned(_)))
        .collect()
}

/// Undoes [`char::escape_debug`], the spelling [`terminal_text`] writes.
fn unescape_debug(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '0' => out.push('\0'),
            'u' => {
                let rest: String = chars.by_ref().skip(1).take_while(|&c| c != '}').collect();
                out.push(char::from_u32(u32::from_str_radix(&rest, 16).ok()?)?);
            }
            c => out.push(c),
        }
    }
    Some(out)
}

#[test]
fn no_format_prints_a_control_character_raw() {
    let formats = [
        Format::Human,
        Format::Json,
        Format::Sarif,
        Format::Github,
        Format::Rdjson,
        Format::Rdjsonl,
    ];
    for text in HOSTILE {
        let report = report(text);
        for format in formats {
            let out = render(&report, format, false);
            assert!(raw(&out).is_empty(), "{format:?} of {text:?}: {out}");
            if format == Format::Github {
                // One workflow command per finding and error: no forged line.
                assert_eq!(out.lines().count(), 2, "{text:?}: {out}");
                assert!(out.lines().all(|l| l.starts_with("::")), "{text:?}: {out}");
            }
        }
        let json: serde_json::Value =
            serde_json::from_str(&render(&report, Format::Json, false)).expect("JSON");
        assert_eq!(
            json["findings"][0]["path"],
            format!("src/{text}.ts"),
            "{text:?}"
        );
    }
}

#[test]
fn terminal_text_round_trips() {
    for text in HOSTILE {
        let out = terminal_text(text);
        assert!(
            raw(&out).is_empty() && !out.contains('\n'),
            "{text:?}: {out}"
        );
        if out != *text {
            assert_eq!(unescape_debug(&out).as_deref(), Some(*text), "{out}");
        }
    }
}
