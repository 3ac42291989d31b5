//! Terminal escapes in reports (issue 19, item 5): arbitrary text as a file name, a source
//! line, a parser's note and an error's message, rendered in every format. No output holds a
//! character of the escape class raw (ESC, OSC's BEL, C0/C1 controls, DEL, line separators,
//! bidirectional controls; only the line breaks between its own lines), the GitHub format
//! writes one workflow command per finding and error, the JSON formats give the text back
//! exactly, and what `terminal_text` escaped decodes back to the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mirrorless_conformance::check::escape_control;
use mirrorless_lint::Report;
use mirrorless_lint::model::{FileError, Finding, Severity};
use mirrorless_lint::render::{Format, render, terminal_text};
use std::borrow::Cow;

/// The characters of the class in `out`, other than the line breaks between its lines.
fn raw(out: &str) -> Vec<char> {
    out.chars()
        .filter(|&c| c != '\n')
        .filter(|c| matches!(escape_control(c.encode_utf8(&mut [0; 4])), Cow::Owned(_)))
        .collect()
}

/// Undoes `char::escape_debug`, the spelling `terminal_text` writes.
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
                let hex: String = chars.by_ref().skip(1).take_while(|&c| c != '}').collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            c => out.push(c),
        }
    }
    Some(out)
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    let path = format!("src/{text}.ts");
    let report = Report {
        findings: vec![Finding {
            rule: "ML009",
            rule_name: "unparsed",
            severity: Severity::Note,
            event: None,
            path: path.clone(),
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 2,
            message: "file does not parse".to_owned(),
            help: "fix the syntax error".to_owned(),
            note: Some(format!("Unexpected token `{text}`")),
            fingerprint: "0".to_owned(),
            line_text: text.replace(['\n', '\r'], " "),
            line_text_column: 1,
            line_text_byte_column: 1,
            fix: None,
            human: false,
        }],
        errors: vec![FileError {
            path: format!("{text}.rs"),
            line: None,
            message: format!("cannot read {text}"),
        }],
        ..Report::default()
    };
    for format in [
        Format::Human,
        Format::Json,
        Format::Sarif,
        Format::Github,
        Format::Rdjson,
        Format::Rdjsonl,
    ] {
        let out = render(&report, format, false);
        assert!(raw(&out).is_empty(), "{format:?}: {out:?}");
        if format == Format::Github {
            assert_eq!(out.lines().count(), 2, "{out:?}");
            assert!(out.lines().all(|l| l.starts_with("::")), "{out:?}");
        }
    }
    let json: serde_json::Value =
        serde_json::from_str(&render(&report, Format::Json, false)).expect("JSON");
    assert_eq!(json["findings"][0]["path"].as_str(), Some(path.as_str()));
    assert_eq!(json["errors"][0]["message"].as_str(), Some(format!("cannot read {text}").as_str()));

    let shown = terminal_text(text);
    assert!(raw(&shown).is_empty() && !shown.contains('\n'), "{shown:?}");
    if shown != text {
        assert_eq!(unescape_debug(&shown).as_deref(), Some(text), "{shown:?}");
    }
});
