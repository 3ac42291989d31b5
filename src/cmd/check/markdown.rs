//! `mirrorless check --format markdown`: the job summary of a check. The verdict first, then a
//! table of the files (status, errors, warnings, the requirements they break), then each
//! violating file's findings, collapsed; within GitHub's 1 MiB, cut with a note.

use super::{Report, Severity};
use mirrorless_conformance::report::MarkdownOptions;
use mirrorless_conformance::report::md_text::{Doc, details, escape, id_link};
use std::fmt::Write as _;

/// How many findings of one file the summary lists.
const FINDINGS_PER_FILE: usize = 50;

/// Renders the report as Markdown.
pub(super) fn render(report: &Report, options: &MarkdownOptions) -> String {
    let docs = options.docs_url.as_deref();
    let s = &report.summary;
    let (mark, verdict) = if s.unreadable > 0 {
        ("⚠️", "ERROR (a file could not be read)")
    } else if s.violating > 0 {
        ("❌", "violates the spec")
    } else {
        ("✅", "conforms")
    };
    let mut doc = Doc::new();
    doc.push(
        "",
        format!(
            "## mirrorless check: {mark} {verdict}\n\n**{} file{}: {} conform, {} violate, {} unreadable; {} error{}, {} warning{}** — {}\n\n",
            s.files,
            plural(s.files),
            s.conforming,
            s.violating,
            s.unreadable,
            s.errors,
            plural(s.errors),
            s.warnings,
            plural(s.warnings),
            mirrorless_conformance::version_banner()
        ),
    );
    doc.push(
        "",
        "| file | status | errors | warnings | requirements | profile |\n|---|---|---|---|---|---|\n",
    );
    for f in &report.files {
        let status = match f.status {
            "violating" => "❌ violates",
            "unreadable" => "⚠️ unreadable",
            _ => "✅ conforms",
        };
        let rules: Vec<String> = f
            .requirements
            .iter()
            .map(|(id, n)| format!("{} ×{n}", id_link(id, docs, "spec")))
            .collect();
        doc.push(
            "file rows",
            format!(
                "| {} | {status} | {} | {} | {} | {} |\n",
                escape(&f.path),
                f.errors,
                f.warnings,
                rules.join(", "),
                f.profile
            ),
        );
    }
    doc.push("", "\n");
    for f in &report.files {
        if let Some(e) = &f.error {
            doc.push(
                "file details",
                format!("- ⚠️ {}: {}\n\n", escape(&f.path), escape(e)),
            );
            continue;
        }
        if f.findings.is_empty() {
            continue;
        }
        let mut body = String::new();
        for x in f.findings.iter().take(FINDINGS_PER_FILE) {
            let word = match x.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let at = match (x.line, x.seq) {
                (Some(l), Some(q)) => format!("line {l} (seq {q})"),
                (Some(l), None) => format!("line {l}"),
                (None, _) => "the file".to_owned(),
            };
            let _ = writeln!(
                body,
                "- {word} {} at {at}: {}",
                id_link(x.requirement, docs, "spec"),
                escape(&x.message)
            );
            if let (Some(e), Some(o)) = (&x.expected, &x.observed) {
                let _ = writeln!(
                    body,
                    "  - expected: {}\n  - observed: {}",
                    escape(e),
                    escape(o)
                );
            }
        }
        let hidden =
            f.findings.len().saturating_sub(FINDINGS_PER_FILE) as u64 + f.findings_not_shown;
        if hidden > 0 {
            let _ = writeln!(
                body,
                "- … and {hidden} more (`mirrorless check --format json` lists them all)"
            );
        }
        doc.push(
            "file details",
            details(
                &format!(
                    "{}: {} error{}, {} warning{}",
                    f.path,
                    f.errors,
                    plural(f.errors),
                    f.warnings,
                    plural(f.warnings)
                ),
                &body,
            ),
        );
    }
    doc.render(
        options.limit,
        "`mirrorless check --format json` with the same files prints every finding",
    )
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}
