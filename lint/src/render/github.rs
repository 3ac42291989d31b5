//! GitHub Actions workflow commands. GitHub shows at most 10 annotations per level and
//! step, so only the first 10 of each are emitted, followed by a notice with the overflow
//! count; the full table goes to the step summary.

use crate::engine::Report;
use crate::model::Severity;

/// Annotations per level that GitHub displays.
pub const ANNOTATION_LIMIT: usize = 10;

/// A workflow command's value: each line's control characters escaped as the human format
/// escapes them (the runner prints the value into the log, where an ESC or OSC sequence from a
/// file name would drive the viewer's terminal), then the runner's own `%` encoding, which
/// keeps a line break a line break.
fn escape_data(s: &str) -> String {
    s.split('\n')
        .map(|line| super::terminal_text(line).replace('%', "%25"))
        .collect::<Vec<_>>()
        .join("%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Renders the annotations.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let mut shown = [0usize; 3];
    let mut hidden = 0;
    for f in &report.findings {
        let (cmd, slot) = match f.severity {
            Severity::Error => ("error", 0),
            Severity::Warning => ("warning", 1),
            Severity::Note => ("notice", 2),
        };
        if shown[slot] >= ANNOTATION_LIMIT {
            hidden += 1;
            continue;
        }
        shown[slot] += 1;
        let title = format!("{} {}", f.rule, f.rule_name);
        out.push_str(&format!(
            "::{cmd} file={},line={},endLine={},col={},endColumn={},title={}::{}\n",
            escape_property(&f.path),
            f.line,
            f.end_line,
            f.column,
            f.end_column,
            escape_property(&title),
            escape_data(&format!("{}. {}", f.message, f.help)),
        ));
    }
    for e in &report.errors {
        out.push_str(&format!(
            "::error file={}::{}\n",
            escape_property(&e.path),
            escape_data(&e.message)
        ));
    }
    if hidden > 0 {
        out.push_str(&format!(
            "::notice title=mirrorless lint::{hidden} more finding(s) not annotated (GitHub shows {ANNOTATION_LIMIT} per level); see the step summary or run with --format human\n"
        ));
    }
    out
}
