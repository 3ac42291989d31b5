//! rustc-style output via annotate-snippets.

use crate::engine::Report;
use crate::model::{Finding, Severity};
use crate::rules;
use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

fn level(s: Severity) -> Level<'static> {
    match s {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
    }
}

fn finding(renderer: &Renderer, f: &Finding) -> String {
    // A long line's snippet is a window of it (`line_text_column` onwards), marked with `…`.
    let clipped = f.line_text_column > 1;
    let text = if clipped {
        format!("…{}", f.line_text)
    } else {
        f.line_text.clone()
    };
    let text = text.as_str();
    let skip = f.line_text_column.saturating_sub(1);
    let lead = if clipped { "…".len() } else { 0 };
    // Columns are characters; annotate-snippets wants byte offsets within the snippet.
    let byte_at = |col: usize| {
        lead + text[lead..]
            .char_indices()
            .nth(col.saturating_sub(1 + skip))
            .map_or(text.len() - lead, |(i, _)| i)
    };
    let start = byte_at(f.column);
    let end = if f.end_line == f.line {
        byte_at(f.end_column).max(start)
    } else {
        text.len()
    };
    let label = match &f.event {
        Some(ev) => rules::rule(f.rule).map_or(String::new(), |r| format!("{} `{ev}`", r.name)),
        None => String::new(),
    };
    let title = format!("{} [{}]", f.message, f.rule_name);
    let mut group = level(f.severity).primary_title(title).id(f.rule).element(
        Snippet::source(text)
            .line_start(f.line)
            .path(f.path.as_str())
            .annotation(AnnotationKind::Primary.span(start..end).label(label)),
    );
    if let Some(note) = &f.note {
        group = group.element(Level::NOTE.message(note.as_str()));
    }
    group = group.element(Level::HELP.message(f.help.as_str()));
    let mut out = renderer.render(&[group]);
    out.push_str("\n\n");
    out
}

/// Renders all findings, errors and a summary line.
pub fn render(report: &Report, color: bool) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for f in &report.findings {
        out.push_str(&finding(&renderer, f));
    }
    for e in &report.errors {
        out.push_str(&format!("error: {e}\n"));
    }
    for s in &report.stale {
        out.push_str(&format!(
            "note: stale baseline entry: {} {} at {}:{} no longer occurs; regenerate the baseline with --write-baseline\n",
            s.rule,
            s.event.as_deref().unwrap_or(""),
            s.path,
            s.line
        ));
    }
    let (errors, warnings, notes) = super::counts(report);
    let st = &report.stats;
    let mut summary = format!(
        "{errors} error{}, {warnings} warning{}, {notes} note{} in {} file{} ({} past the prefilter)",
        plural(errors),
        plural(warnings),
        plural(notes),
        st.files,
        plural(st.files),
        st.candidates
    );
    if st.suppressed > 0 {
        summary.push_str(&format!(", {} suppressed inline", st.suppressed));
    }
    if st.baselined > 0 {
        summary.push_str(&format!(", {} accepted by the baseline", st.baselined));
    }
    if st.preexisting > 0 {
        summary.push_str(&format!(
            ", {} already there at --new-since",
            st.preexisting
        ));
    }
    if !report.errors.is_empty() {
        summary.push_str(&format!(
            ", {} file error{}",
            report.errors.len(),
            plural(report.errors.len())
        ));
    }
    summary.push_str(&format!(" — {}", mirrorless_conformance::version_banner()));
    out.push_str(&summary);
    out.push('\n');
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
