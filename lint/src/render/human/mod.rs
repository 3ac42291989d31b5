//! rustc-style output via annotate-snippets, the common shape written directly, plain or
//! coloured ([`direct`]).

use crate::engine::Report;
use crate::model::{Applicability, Finding, Severity};
use crate::rules;
use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

mod direct;
#[cfg(test)]
mod tests;

fn level(s: Severity) -> Level<'static> {
    match s {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
    }
}

/// The mark of a finding with a fix, after its rule ID (ruff's `[*]`): `[*]` for a fix `--fix`
/// applies, `[~]` for a suggestion only `--unsafe-fixes` applies; none without a fix.
pub const SAFE_MARK: &str = "[*]";
/// See [`SAFE_MARK`].
pub const SUGGESTION_MARK: &str = "[~]";

/// What a finding's diagnostic shows, worked out once for either writer: annotate-snippets
/// ([`annotated`]) or, for the one shape `lint` nearly always renders, [`direct`].
struct Layout {
    severity: Severity,
    rule: &'static str,
    /// The title after `severity[rule]: `.
    title: String,
    /// The path as the terminal gets it.
    path: String,
    line: usize,
    /// The finding's column (in characters, from 1) on its line: where the diagnostic says it
    /// is, also when the line shown is a window of a long line.
    column: usize,
    /// The source line as shown ([`visible_line`]), `…` first when clipped.
    text: String,
    /// The annotated byte range of `text`.
    span: std::ops::Range<usize>,
    /// The annotation's label (`mention `agent/turn-end``), or empty.
    label: String,
    note: Option<String>,
    help: String,
    /// The fix's help line: its name (`fix`, `suggested fix`) and message.
    fix: Option<(&'static str, String)>,
}

fn layout(f: &Finding) -> Layout {
    // A long line's snippet is a window of it (`line_text_column` onwards), marked with `…`.
    let clipped = f.line_text_column > 1;
    let text = if clipped {
        format!("…{}", f.line_text)
    } else {
        f.line_text.clone()
    };
    let text = visible_line(text);
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
    // Messages and notes may quote the source (a parser's error, a name): escaped as the path.
    let text_of = |s: &str| super::terminal_text(s).into_owned();
    let title = match f.fix.as_ref().map(|x| x.applicability) {
        Some(Applicability::MachineApplicable) => {
            format!("{SAFE_MARK} {} [{}]", text_of(&f.message), f.rule_name)
        }
        Some(Applicability::Suggestion) => {
            format!(
                "{SUGGESTION_MARK} {} [{}]",
                text_of(&f.message),
                f.rule_name
            )
        }
        None => format!("{} [{}]", text_of(&f.message), f.rule_name),
    };
    let fix = f.fix.as_ref().map(|fix| {
        let name = match fix.applicability {
            Applicability::MachineApplicable => "fix",
            Applicability::Suggestion => "suggested fix",
        };
        (name, text_of(&fix.message))
    });
    Layout {
        severity: f.severity,
        rule: f.rule,
        title,
        path: super::terminal_path(&f.path).into_owned(),
        line: f.line,
        column: f.column,
        text,
        span: start..end,
        label,
        note: f.note.as_deref().map(text_of),
        help: text_of(&f.help),
        fix,
    }
}

/// The finding as annotate-snippets lays it out: every shape, plain or coloured.
fn annotated(renderer: &Renderer, l: &Layout) -> String {
    let mut group = level(l.severity)
        .primary_title(l.title.as_str())
        .id(l.rule)
        .element(
            Snippet::source(l.text.as_str())
                .line_start(l.line)
                .path(l.path.as_str())
                .annotation(
                    AnnotationKind::Primary
                        .span(l.span.clone())
                        .label(l.label.as_str()),
                ),
        );
    if let Some(note) = &l.note {
        group = group.element(Level::NOTE.message(note.as_str()));
    }
    group = group.element(Level::HELP.message(l.help.as_str()));
    if let Some((name, message)) = &l.fix {
        group = group.element(Level::HELP.with_name(*name).message(message.as_str()));
    }
    let out = renderer.render(&[group]);
    let mut out = at_column(out, l.column);
    out.push_str("\n\n");
    out
}

/// annotate-snippets' diagnostic with the finding's column in its `-->` line. It counts the
/// column within the snippet, which is a window of a line longer than a few hundred bytes
/// (`…` first): the column there is not the line's. The title and path are escaped to one
/// line each, so the `-->` line is the second, and the column ends it.
fn at_column(rendered: String, column: usize) -> String {
    let Some(start) = rendered.find('\n').map(|i| i + 1) else {
        return rendered;
    };
    let end = rendered[start..]
        .find('\n')
        .map_or(rendered.len(), |i| start + i);
    let Some(colon) = rendered[start..end].rfind(':').map(|i| start + i + 1) else {
        return rendered;
    };
    if rendered[colon..end] == *column.to_string() {
        return rendered;
    }
    format!("{}{column}{}", &rendered[..colon], &rendered[end..])
}

/// One finding of the human report: written [`direct`]ly when it is of the shape that writer
/// knows (annotate-snippets takes about 8 µs a finding, issue 32 item 1), else by
/// annotate-snippets.
fn finding(renderer: &Renderer, paint: &direct::Palette, f: &Finding) -> String {
    let l = layout(f);
    direct::finding(&l, paint).unwrap_or_else(|| annotated(renderer, &l))
}

/// A source line for the snippet: each character of the terminal-escape class that
/// annotate-snippets does not replace itself (it shows C0 controls as control pictures) becomes
/// one visible character, so columns still line up and no C1 control, DEL, line separator or
/// bidirectional control reaches the terminal raw.
fn visible_line(text: String) -> String {
    // No ASCII character is of the class (annotate-snippets shows the C0 controls itself).
    if text.is_ascii() {
        return text;
    }
    let raw = |c: char| {
        !c.is_ascii_control()
            && matches!(
                mirrorless_conformance::check::escape_control(c.encode_utf8(&mut [0; 4])),
                std::borrow::Cow::Owned(_)
            )
    };
    if !text.chars().any(raw) {
        return text;
    }
    text.chars()
        .map(|c| match c {
            '\u{7f}' => '\u{2421}',
            c if raw(c) => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// Renders all findings, errors and a summary line.
pub fn render(report: &Report, color: bool) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let paint = direct::Palette::new(color);
    // Nearly every finding is written directly (well under a microsecond each): on this thread,
    // which is cheaper than waking the pool's (0.4–0.6 ms on upstream's 3f85f522ea subset and
    // its `agent-loop`, docs/benchmarks/lint.md).
    let mut out = String::new();
    for f in &report.findings {
        out.push_str(&finding(&renderer, &paint, f));
    }
    for e in &report.errors {
        let e = e.to_string();
        out.push_str(&format!("error: {}\n", super::terminal_path(&e)));
    }
    for s in &report.stale {
        out.push_str(&format!(
            "note: stale baseline entry: {} {} at {}:{} no longer occurs; regenerate the baseline with --write-baseline\n",
            s.rule,
            s.event.as_deref().unwrap_or(""),
            super::terminal_path(&s.path),
            s.line
        ));
    }
    if let Some(line) = fixable_line(report) {
        out.push_str(&line);
        out.push('\n');
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

/// How many findings each flag would fix, when any has a fix: "[*] 3 fixable with `--fix`,
/// [~] 2 more with `--fix --unsafe-fixes`". A suggestion held back only because a use of its
/// event remains may become machine-applicable in a later round of `--fix`: the counts are of
/// the fixes as reported now.
fn fixable_line(report: &Report) -> Option<String> {
    let count = |a| {
        (report.findings.iter())
            .filter(|f| f.fix.as_ref().is_some_and(|x| x.applicability == a))
            .count()
    };
    let safe = count(Applicability::MachineApplicable);
    let suggested = count(Applicability::Suggestion);
    let mut parts = Vec::new();
    if safe > 0 {
        parts.push(format!("{SAFE_MARK} {safe} fixable with `--fix`"));
    }
    if suggested > 0 {
        let more = if safe > 0 { " more" } else { "" };
        parts.push(format!(
            "{SUGGESTION_MARK} {suggested}{more} with `--fix --unsafe-fixes`"
        ));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
