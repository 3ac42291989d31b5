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
