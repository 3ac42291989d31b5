//! Output formats. Renderers read only the language-neutral [`Report`].

mod github;
mod human;
mod json;
pub mod markdown;
mod rdjson;
mod sarif;

use crate::engine::Report;
use crate::model::Severity;
use mirrorless_conformance::check::escape_control;
use std::borrow::Cow;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// rustc-style diagnostics with source snippets.
    Human,
    /// One JSON document (see `docs/lint/json.md`).
    Json,
    /// SARIF 2.1.0 for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…`).
    Github,
    /// Reviewdog Diagnostic Format, one document, fixes as suggestions.
    Rdjson,
    /// Reviewdog Diagnostic Format, one diagnostic per line.
    Rdjsonl,
    /// A Markdown job summary (tables per rule and per file, then the findings), at most 1 MiB.
    Markdown,
}

/// Renders `report` in `format`. `color` only affects the human format.
pub fn render(report: &Report, format: Format, color: bool) -> String {
    match format {
        Format::Human => human::render(report, color),
        Format::Json => json_controls_escaped(json::render(report)),
        Format::Sarif => json_controls_escaped(sarif::render(report)),
        Format::Github => github::render(report),
        Format::Rdjson => json_controls_escaped(rdjson::render(report)),
        Format::Rdjsonl => json_controls_escaped(rdjson::render_lines(report)),
        Format::Markdown => step_summary(report, None),
    }
}

/// Whether a character of `text` at or beyond U+007F is one `escaped` picks: the text is read
/// 64 bytes at a time, and a stretch below U+007F (most of a report) decodes no character.
fn any_char(text: &str, escaped: impl Fn(char) -> bool) -> bool {
    let bytes = text.as_bytes();
    // Always a character boundary: the start, past whole characters, or after a byte below
    // U+007F.
    let mut i = 0;
    while i < bytes.len() {
        let end = (i + 64).min(bytes.len());
        if !bytes[i..end].iter().fold(false, |a, &b| a | (b >= 0x7f)) {
            i = end;
            continue;
        }
        for c in text[i..].chars() {
            if i >= end {
                break;
            }
            if escaped(c) {
                return true;
            }
            i += c.len_utf8();
        }
    }
    false
}

/// JSON text with every non-ASCII character of the terminal-escape class ([`escape_control`]:
/// DEL, the C1 controls such as U+009B (a one-character CSI), line separators, bidirectional
/// controls) written as a `\u` escape. serde_json escapes only U+0000–U+001F, and a report
/// piped to a terminal must not carry such a character raw from a file name or a message.
/// Outside strings JSON is ASCII, so every such character is inside a string, and the escaped
/// text decodes to the same values. Every JSON report of the CLI goes through it (`check`'s
/// too).
pub fn json_controls_escaped(json: String) -> String {
    let escaped = |c: char| {
        c == '\u{7f}'
            || (!c.is_ascii()
                && matches!(escape_control(c.encode_utf8(&mut [0; 4])), Cow::Owned(_)))
    };
    if !any_char(&json, escaped) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if escaped(c) {
            // Every character of the class is in the Basic Multilingual Plane: one \u escape.
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// The exact bytes of a path that [`display_path`](crate::engine::display_path) had to escape
/// (a name that is not UTF-8), or `None` for an ordinary name (which has no backslash).
pub fn path_bytes(path: &str) -> Option<Vec<u8>> {
    if !path.contains('\\') {
        return None;
    }
    let mut out = Vec::with_capacity(path.len());
    let mut rest = path.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        rest = tail;
        if b != b'\\' {
            out.push(b);
        } else if let Some(t) = rest.strip_prefix(b"\\") {
            out.push(b'\\');
            rest = t;
        } else if let [b'x', hi, lo, t @ ..] = rest
            && let Ok(byte) = u8::from_str_radix(std::str::from_utf8(&[*hi, *lo]).ok()?, 16)
        {
            out.push(byte);
            rest = t;
        } else {
            return None;
        }
    }
    Some(out)
}

/// A path for a terminal: control characters (a newline in a file name, an escape sequence)
/// written as escapes, so a name cannot forge a line of the report. See [`terminal_text`].
pub fn terminal_path(path: &str) -> Cow<'_, str> {
    terminal_text(path)
}

/// Text for a terminal or a CI log, the one escaping every text format uses (human, github):
/// when `text` holds a character that could move the cursor, recolour the terminal, forge a
/// line or reorder what is read (the class [`escape_control`] defines: C0 and C1 controls,
/// DEL, line separators, bidirectional controls), the whole text is written with Rust's debug
/// escapes (`\n`, `\u{1b}`, a backslash doubled), so the spelling stays unambiguous.
pub fn terminal_text(text: &str) -> Cow<'_, str> {
    if matches!(escape_control(text), Cow::Borrowed(_)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().flat_map(char::escape_debug).collect())
}

/// Counts of findings by severity.
pub fn counts(report: &Report) -> (usize, usize, usize) {
    let n = |s| report.findings.iter().filter(|f| f.severity == s).count();
    (n(Severity::Error), n(Severity::Warning), n(Severity::Note))
}

/// The GitHub step summary (written when `GITHUB_STEP_SUMMARY` is set and the format is
/// `github`): the Markdown report ([`markdown::render`]) within GitHub's 1 MiB.
pub fn step_summary(report: &Report, docs: Option<&str>) -> String {
    step_summary_within(
        report,
        docs,
        mirrorless_conformance::report::md_text::STEP_SUMMARY_LIMIT,
    )
}

/// [`step_summary`] within `limit` bytes (the room a step's summary file has left).
pub fn step_summary_within(report: &Report, docs: Option<&str>, limit: usize) -> String {
    markdown::render(report, docs, limit)
}

#[cfg(test)]
mod tests {
    use super::{any_char, escape_control, json_controls_escaped, terminal_text};
    use std::borrow::Cow;

    /// Issue 32 item 1 (rendering without decoding every character): the 64-byte stretches
    /// find what a scan of every character finds, wherever the character falls (either side
    /// of a stretch's end, split across it, first, last) among ASCII and other characters.
    #[test]
    fn the_stretch_scan_finds_what_the_character_scan_finds() {
        let pieces = [
            "a",
            "\u{7f}",
            "é",
            "\u{9b}",
            "—",
            "\u{2028}",
            "😀",
            "xyzxyzxyz",
            "\n",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let picks = |c: char| c == '\u{7f}' || c == '\u{9b}' || c == '\u{2028}';
        let mut found = 0;
        for _ in 0..4000 {
            let mut text = "q".repeat(next(130));
            for _ in 0..next(4) {
                text.push_str(pieces[next(pieces.len())]);
                text.push_str(&"w".repeat(next(70)));
            }
            let expected = text.chars().any(picks);
            found += usize::from(expected);
            assert_eq!(any_char(&text, picks), expected, "{text:?}");
        }
        assert!(found > 500, "{found}");
    }

    /// Every character there is, between two ordinary ones: what a terminal or CI log gets
    /// holds none of the characters the escape class names.
    #[test]
    fn terminal_text_leaves_no_character_of_the_class() {
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let s = format!("a{c}b");
            let out = terminal_text(&s);
            assert!(
                matches!(escape_control(&out), Cow::Borrowed(_)),
                "U+{:04X} reaches the terminal raw: {out:?}",
                u32::from(c)
            );
            if matches!(escape_control(&s), Cow::Borrowed(_)) {
                assert_eq!(out, s, "U+{:04X} was escaped needlessly", u32::from(c));
            }
        }
    }

    /// JSON output keeps every value exact and carries no character of the class raw.
    #[test]
    fn json_escapes_the_class_and_keeps_the_value() {
        let chars = (0..0x3000)
            .chain(0xfe00..0x10000)
            .filter_map(char::from_u32);
        for c in chars {
            let s = format!("a{c}b");
            let json = json_controls_escaped(serde_json::json!({ "path": s }).to_string());
            let raw: Vec<char> = json
                .chars()
                .filter(|&c| matches!(escape_control(c.encode_utf8(&mut [0; 4])), Cow::Owned(_)))
                .collect();
            assert!(
                raw.is_empty(),
                "U+{:04X}: raw {raw:?} in {json}",
                u32::from(c)
            );
            let back: serde_json::Value = serde_json::from_str(&json).expect("still JSON");
            assert_eq!(back["path"], s, "U+{:04X}", u32::from(c));
        }
    }
}
