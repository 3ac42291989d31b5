//! Output formats. Renderers read only the language-neutral [`Report`].

mod github;
mod human;
mod json;
mod rdjson;
mod sarif;

use crate::engine::Report;
use crate::model::Severity;

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
}

/// Renders `report` in `format`. `color` only affects the human format.
pub fn render(report: &Report, format: Format, color: bool) -> String {
    match format {
        Format::Human => human::render(report, color),
        Format::Json => json::render(report),
        Format::Sarif => sarif::render(report),
        Format::Github => github::render(report),
        Format::Rdjson => rdjson::render(report),
        Format::Rdjsonl => rdjson::render_lines(report),
    }
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
/// written as escapes, so a name cannot forge a line of the report.
pub fn terminal_path(path: &str) -> std::borrow::Cow<'_, str> {
    if !path.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(path);
    }
    std::borrow::Cow::Owned(path.chars().flat_map(char::escape_debug).collect())
}

/// Counts of findings by severity.
pub fn counts(report: &Report) -> (usize, usize, usize) {
    let n = |s| report.findings.iter().filter(|f| f.severity == s).count();
    (n(Severity::Error), n(Severity::Warning), n(Severity::Note))
}

/// The GitHub step-summary Markdown table of all findings (written when
/// `GITHUB_STEP_SUMMARY` is set and the format is `github`).
pub fn step_summary(report: &Report) -> String {
    github::summary(report)
}
