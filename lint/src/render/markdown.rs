//! `mirrorless lint --format markdown`, and the step summary `--format github` writes: the
//! verdict, a table per rule and one per file with how much `--fix` can do, then every
//! finding; within GitHub's 1 MiB for a step summary, cut with a note. Escaping and the byte
//! limit are the conformance crate's (`report::md_text`), shared by every job summary.

use crate::engine::Report;
use crate::model::{Applicability, Finding, Severity};
use mirrorless_conformance::report::md_text::{Doc, escape, id_link};
use std::collections::BTreeMap;

/// Counts over a set of findings.
#[derive(Default)]
struct Tally {
    name: &'static str,
    errors: usize,
    warnings: usize,
    notes: usize,
    machine: usize,
    suggestion: usize,
}

impl Tally {
    fn add(&mut self, f: &Finding) {
        match f.severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Note => self.notes += 1,
        }
        match f.fix.as_ref().map(|x| x.applicability) {
            Some(Applicability::MachineApplicable) => self.machine += 1,
            Some(Applicability::Suggestion) => self.suggestion += 1,
            None => {}
        }
    }

    fn total(&self) -> usize {
        self.errors + self.warnings + self.notes
    }

    fn cells(&self) -> String {
        format!(
            "{} | {} | {} | {} | {} | {}",
            self.errors,
            self.warnings,
            self.notes,
            self.machine,
            self.suggestion,
            self.total() - self.machine - self.suggestion
        )
    }
}

fn fixability(f: &Finding) -> &'static str {
    match f.fix.as_ref().map(|x| x.applicability) {
        Some(Applicability::MachineApplicable) => "`--fix`",
        Some(Applicability::Suggestion) => "suggested (`--unsafe-fixes`)",
        None => "by hand",
    }
}

/// Renders the report as Markdown of at most `limit` bytes; rule IDs link to
/// `{docs}rules/ID.md` when `docs` (ending in `/`) is given.
pub fn render(report: &Report, docs: Option<&str>, limit: usize) -> String {
    let mut all = Tally::default();
    let mut rules: BTreeMap<&'static str, Tally> = BTreeMap::new();
    let mut files: BTreeMap<&str, Tally> = BTreeMap::new();
    for f in &report.findings {
        all.add(f);
        let r = rules.entry(f.rule).or_default();
        r.name = f.rule_name;
        r.add(f);
        files.entry(f.path.as_str()).or_default().add(f);
    }
    let (mark, verdict) = if !report.errors.is_empty() {
        ("⚠️", "ERROR (a file could not be read)")
    } else if all.errors > 0 {
        ("❌", "findings")
    } else if all.total() > 0 {
        ("✅", "no errors (warnings or notes only)")
    } else {
        ("✅", "clean")
    };
    let mut doc = Doc::new();
    let counts = if all.total() == 0 {
        format!(
            "**No findings** in {} file{} read",
            report.stats.files,
            plural(report.stats.files)
        )
    } else {
        format!(
            "**{} error{}, {} warning{}, {} note{}** in {} file{} ({} read); `--fix` fixes {}, {} more with `--unsafe-fixes`, {} by hand",
            all.errors,
            plural(all.errors),
            all.warnings,
            plural(all.warnings),
            all.notes,
            plural(all.notes),
            files.len(),
            plural(files.len()),
            report.stats.files,
            all.machine,
            all.suggestion,
            all.total() - all.machine - all.suggestion,
        )
    };
    doc.push(
        "",
        format!(
            "## mirrorless lint: {mark} {verdict}\n\n{counts} — {}\n\n",
            mirrorless_conformance::version_banner()
        ),
    );
    for e in &report.errors {
        doc.push(
            "unreadable files",
            format!("- ⚠️ {}: {}\n", escape(&e.path), escape(&e.message)),
        );
    }
    if !report.errors.is_empty() {
        doc.push("", "\n");
    }
    if all.total() == 0 {
        return doc.render(limit, "`mirrorless lint --format json`");
    }
    const COUNTS: &str = "errors | warnings | notes | `--fix` | suggested | by hand";
    doc.push(
        "",
        format!("### By rule\n\n| rule | {COUNTS} |\n|---|---|---|---|---|---|---|\n"),
    );
    for (id, t) in &rules {
        doc.push(
            "rule rows",
            format!(
                "| {} {} | {} |\n",
                id_link(id, docs, "rules"),
                escape(t.name),
                t.cells()
            ),
        );
    }
    doc.push(
        "",
        format!("\n### By file\n\n| file | {COUNTS} |\n|---|---|---|---|---|---|---|\n"),
    );
    for (path, t) in &files {
        doc.push(
            "file rows",
            format!("| {} | {} |\n", escape(path), t.cells()),
        );
    }
    doc.push(
        "",
        "\n### Findings\n\n| location | rule | severity | message | fix |\n|---|---|---|---|---|\n",
    );
    for f in &report.findings {
        doc.push(
            "finding rows",
            format!(
                "| {}:{}:{} | {} {} | {} | {} | {} |\n",
                escape(&f.path),
                f.line,
                f.column,
                id_link(f.rule, docs, "rules"),
                escape(f.rule_name),
                f.severity,
                escape(&f.message),
                fixability(f)
            ),
        );
    }
    doc.render(
        limit,
        "`mirrorless lint --format json` (or `--format human`) with the same paths lists every finding",
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::render;
    use crate::engine::Report;
    use crate::model::{Finding, Severity};
    use mirrorless_conformance::report::md_text::STEP_SUMMARY_LIMIT;

    fn finding(path: &str, message: &str) -> Finding {
        Finding {
            rule: "ML001",
            rule_name: "subscribe",
            severity: Severity::Error,
            event: Some("agent/stream-chunk".to_owned()),
            path: path.to_owned(),
            line: 3,
            column: 5,
            end_line: 3,
            end_column: 9,
            message: message.to_owned(),
            help: String::new(),
            note: None,
            fingerprint: String::new(),
            line_text: String::new(),
            line_text_column: 1,
            line_text_byte_column: 1,
            fix: None,
            human: false,
        }
    }

    /// The cells of a table row, split at the `|` a GFM table splits at (not `\|`).
    fn cells(row: &str) -> usize {
        let mut n = 0;
        let mut escaped = false;
        for c in row.chars() {
            match c {
                '\\' if !escaped => escaped = true,
                '|' if !escaped => n += 1,
                _ => escaped = false,
            }
        }
        n - 1
    }

    #[test]
    fn hostile_file_names_and_messages_stay_in_their_cells() {
        let report = Report {
            findings: vec![
                finding("a|b`c<img src=x onerror=alert(1)>.ts", "x | y"),
                finding("new\nline| forged | row |.ts", "`code` *bold* [l](u)"),
            ],
            ..Report::default()
        };
        let md = render(&report, Some("https://d.invalid/docs/"), STEP_SUMMARY_LIMIT);
        assert!(!md.contains("<img"), "{md}");
        assert!(!md.contains("\n| forged"), "{md}");
        let mut rows = 0;
        for table in md.split("\n\n").filter(|b| b.contains("\n|---")) {
            let mut lines = table.lines().skip_while(|l| !l.starts_with('|'));
            let width = cells(lines.next().expect("a header"));
            for row in lines {
                assert_eq!(cells(row), width, "{row}");
                rows += 1;
            }
        }
        // Rule table: header rule 1 row; file table: 2; findings: 2 (plus the delimiter rows).
        assert_eq!(rows, 3 + 5, "{md}");
        assert!(
            md.contains("[ML001](https://d.invalid/docs/rules/ML001.md) subscribe"),
            "{md}"
        );
    }

    #[test]
    fn a_huge_run_stays_within_the_limit_and_says_what_it_left_out() {
        let report = Report {
            findings: (0..40_000)
                .map(|i| finding(&format!("src/file{i}.ts"), &"m".repeat(40)))
                .collect(),
            ..Report::default()
        };
        let md = render(&report, None, STEP_SUMMARY_LIMIT);
        assert!(md.len() <= STEP_SUMMARY_LIMIT, "{}", md.len());
        assert!(md.starts_with("## mirrorless lint: ❌ findings\n"));
        assert!(md.contains("**40000 errors, 0 warnings, 0 notes** in 40000 files"));
        let files = md.matches("| src/file").count();
        assert!(files < 80_000, "{files}");
        // The file table is cut: no finding row fits, and the note counts what is missing.
        assert!(
            md.contains(&format!(
                "Left out: {} file rows, 40000 finding rows.",
                40_000 - files
            )),
            "{}",
            &md[md.len() - 400..]
        );
    }
}
