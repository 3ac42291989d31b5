//! The matrix in Markdown (GitHub tables), within a byte limit.

use super::{Column, anchor, cell, counterexamples, pretty, replay_text, rows, verdict};
use crate::report::md_text::{Doc, details, escape, fence, id_link, trusted};
use crate::report::{at_log, title};
use std::fmt::Write as _;

/// Renders the matrix as Markdown of at most `limit` bytes; `errors` are the files that could
/// not be read (each message names its file). Requirement IDs link to `{docs}spec/ID.md`.
pub fn render_markdown(
    columns: &[Column],
    errors: &[String],
    docs: Option<&str>,
    limit: usize,
) -> String {
    let mut doc = Doc::new();
    let mut head = format!(
        "## mirrorless conformance matrix\n\n{} implementation{} × requirements — {}\n\n",
        columns.len(),
        if columns.len() == 1 { "" } else { "s" },
        crate::version_banner()
    );
    for e in errors {
        let _ = writeln!(head, "- ⚠️ not rendered: {}", escape(e));
    }
    if !errors.is_empty() {
        head.push('\n');
    }
    for (i, c) in columns.iter().enumerate() {
        let mark = match verdict(c) {
            "conformant" => "✅",
            "INCOMPLETE" => "⚠️",
            _ => "❌",
        };
        let _ = writeln!(
            head,
            "{}. **{}** — {mark} {} ({}; {})",
            i + 1,
            escape(&c.label()),
            verdict(c),
            escape(&c.subtitle()),
            escape(&c.file)
        );
        for problem in c.problem_headlines() {
            let _ = writeln!(head, "   - problem: {}", escape(&problem));
        }
    }
    head.push('\n');
    doc.push("", head);
    for (profile, ids) in rows(columns) {
        let mut t = format!("### {}\n\n| requirement |", escape(&profile));
        for c in columns {
            let _ = write!(t, " {} |", escape(&c.label()));
        }
        t.push_str("\n|---|");
        t.push_str(&"---|".repeat(columns.len()));
        t.push('\n');
        doc.push("", t);
        for id in ids {
            let mut row = format!("| {} {} |", id_link(&id, docs, "spec"), trusted(title(&id)));
            for (i, c) in columns.iter().enumerate() {
                let x = cell(i, c, &profile, &id);
                let mark = match x.class {
                    "pass" => "✅ ",
                    "fail" => "❌ ",
                    "warn" => "⚠️ ",
                    "skip" => "➖ ",
                    _ => "",
                };
                match x.link {
                    Some(a) => {
                        let _ = write!(row, " [{mark}{}](#{a}) |", escape(&x.text));
                    }
                    None => {
                        let _ = write!(row, " {mark}{} |", escape(&x.text));
                    }
                }
            }
            row.push('\n');
            doc.push("requirement rows", row);
        }
        doc.push("", "\n");
    }
    let any = columns.iter().any(|c| counterexamples(c).next().is_some());
    if any {
        doc.push("", "### Counterexamples\n\n");
    }
    for (i, c) in columns.iter().enumerate() {
        for (profile, f, warning) in counterexamples(c) {
            let mut s = format!(
                "<a id=\"{}\"></a>\n\n#### {} {} — {} [{}] — {}\n\n",
                anchor(i, profile, &f.requirement),
                if warning { "⚠️ WARN" } else { "❌ FAIL" },
                escape(&f.requirement),
                trusted(title(&f.requirement)),
                escape(profile),
                escape(&c.label())
            );
            let at = at_log(f.finding.position);
            let _ = writeln!(
                s,
                "{}{at}: {}\n",
                id_link(&f.requirement, docs, "spec"),
                escape(&f.finding.message)
            );
            s.push_str(&details(
                &format!("minimal script (case {})", f.case_id),
                &fence("json", &pretty(&f.case)),
            ));
            s.push_str("Replay:\n\n");
            s.push_str(&fence("sh", &replay_text(f)));
            s.push('\n');
            doc.push("counterexamples", s);
        }
    }
    doc.render(
        limit,
        "`mirrorless report … --format html` renders every counterexample",
    )
}
