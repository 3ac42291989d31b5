//! Reviewdog Diagnostic Format (`rdjson`: one document; `rdjsonl`: one diagnostic per line).
//! Each fix becomes one line-based suggestion (the lines it touches, as they read after it),
//! which reviewdog's `github-pr-review` reporter posts as a GitHub suggested change; the
//! diagnostic then spans those lines, as reviewdog requires. Columns are 1-based UTF-8 byte
//! counts, as the format defines.

use crate::engine::Report;
use crate::model::{Finding, Severity};
use crate::rules;
use serde_json::{Value, json};

fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "ERROR",
        Severity::Warning => "WARNING",
        Severity::Note => "INFO",
    }
}

/// The 1-based byte column of the finding's line at its character column `column`: counted
/// in `line_text`, a window of a long line, from where the window starts.
fn byte_column(f: &Finding, column: usize) -> usize {
    byte_index(&f.line_text, column.saturating_sub(f.line_text_column)) + f.line_text_byte_column
}

/// The byte offset of `text`'s character `chars` (its length past the end).
fn byte_index(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i)
}

fn diagnostic(f: &Finding) -> Value {
    let start = byte_column(f, f.column);
    // The finding keeps the text of its start line only: an end on a later line keeps its
    // character column (exact for ASCII).
    let end = if f.end_line == f.line {
        byte_column(f, f.end_column)
    } else {
        f.end_column
    };
    let mut message = format!("{} {}", f.message, f.help);
    if let Some(n) = &f.note {
        message.push_str(&format!(" ({n})"));
    }
    let mut range = json!({
        "start": { "line": f.line, "column": start },
        "end": { "line": f.end_line, "column": end },
    });
    if let Some(l) = f.fix.as_ref().and_then(|x| x.lines.as_ref()) {
        // reviewdog posts a suggestion only when it spans exactly the comment's lines, so the
        // diagnostic covers the lines the fix replaces.
        if l.line != f.line {
            range["start"] = json!({ "line": l.line });
        }
        if l.end_line != f.end_line {
            range["end"] = json!({ "line": l.end_line });
        }
    }
    let mut d = json!({
        "message": message,
        "location": { "path": f.path, "range": range },
        "severity": severity(f.severity),
        "code": {
            "value": f.rule,
            "url": rules::rule(f.rule).map(rules::doc_url).unwrap_or_default(),
        },
    });
    if let Some(fix) = &f.fix {
        // One line-based suggestion per fix (GitHub applies a suggested change to whole
        // lines): the fix's lines, as they read after it. None for lines too long to repeat
        // (`LINES_MAX`): the message still names the fix.
        if let Some(l) = &fix.lines {
            d["suggestions"] = json!([{
                "range": {
                    "start": { "line": l.line },
                    "end": { "line": l.end_line },
                },
                "text": l.text,
            }]);
        }
        d["original_output"] = json!(format!(
            "{} ({}): {}",
            f.rule,
            match fix.applicability {
                crate::model::Applicability::MachineApplicable => "machine-applicable fix",
                crate::model::Applicability::Suggestion => "suggested fix",
            },
            fix.message
        ));
    }
    d
}

fn source() -> Value {
    json!({ "name": "mirrorless", "url": env!("CARGO_PKG_REPOSITORY") })
}

/// One `DiagnosticResult` document.
pub fn render(report: &Report) -> String {
    let diagnostics: Vec<Value> = report.findings.iter().map(diagnostic).collect();
    let doc = json!({ "source": source(), "diagnostics": diagnostics });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// One `Diagnostic` per line.
pub fn render_lines(report: &Report) -> String {
    let mut out = String::new();
    for f in &report.findings {
        let mut d = diagnostic(f);
        d["source"] = source();
        out.push_str(&d.to_string());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::byte_index;

    #[test]
    fn byte_columns_count_utf8_bytes() {
        assert_eq!(byte_index("abc", 1), 1);
        assert_eq!(byte_index("éa", 1), 2);
        assert_eq!(byte_index("é", 1), 2);
    }
}
