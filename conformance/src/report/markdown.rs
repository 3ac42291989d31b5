//! `mirrorless run --format markdown`: the job summary of a run (GitHub's
//! `$GITHUB_STEP_SUMMARY`). The verdict first, then per profile the requirement table (failed,
//! warned, passed, skipped, with counts), then each counterexample: its headline, the minimal
//! script (fenced JSON in a collapsed `<details>`) and the replay command. Within a byte limit
//! (GitHub's 1 MiB), cut with a note saying what was left out.

use super::md_text::{Doc, details, escape, fence, id_link, trusted};
use super::{at_log, attribution, case_origin, sentence, title};
use crate::registry::requirement;
use crate::suite::{
    Failure, ProfileReport, RequirementResult, RunReport, Status, UNSAVED_CASE_FILE,
};
use crate::vocab::Profile;
use std::fmt::Write as _;

/// How to render a Markdown report.
#[derive(Debug, Clone)]
pub struct MarkdownOptions {
    /// Where the docs are published (ending in `/`): requirement IDs link to `spec/ID.md`
    /// under it. `None`: plain IDs.
    pub docs_url: Option<String>,
    /// The most bytes the document may have.
    pub limit: usize,
}

impl Default for MarkdownOptions {
    fn default() -> Self {
        MarkdownOptions {
            docs_url: None,
            limit: super::md_text::STEP_SUMMARY_LIMIT,
        }
    }
}

/// The verdict word of a whole run, as the human report says it.
pub(crate) fn run_verdict(report: &RunReport) -> &'static str {
    if report.conformant() {
        "conformant"
    } else if !report.profiles.iter().any(ProfileReport::failed) {
        "INCOMPLETE"
    } else {
        "NOT CONFORMANT"
    }
}

fn profile_verdict(p: &ProfileReport) -> &'static str {
    if p.conformant() {
        "conformant"
    } else if p.incomplete() {
        "INCOMPLETE"
    } else {
        "NOT CONFORMANT"
    }
}

/// The status of a requirement in words (never only a colour or a symbol), and its order in
/// the table: failures first, then warnings, passes, skips.
pub(crate) fn status_text(s: Status) -> (&'static str, u8) {
    match s {
        Status::Fail => ("❌ FAIL", 0),
        Status::NotExercised => ("❌ FAIL (never exercised)", 0),
        Status::NotJudged => ("❌ FAIL (not judged)", 0),
        Status::Warn => ("⚠️ WARN", 1),
        Status::Pass => ("✅ pass", 2),
        Status::Untested => ("➖ skip (untested)", 3),
        Status::NotApplicable => ("➖ skip (not applicable)", 3),
    }
}

/// The replay command of a counterexample, as the human report prints it.
pub(crate) fn replay_command(f: &Failure) -> String {
    match &f.case_file {
        Some(_) => f.replay.clone(),
        None => format!(
            "# save the minimal script as {UNSAVED_CASE_FILE}, then:\n{}",
            f.replay
        ),
    }
}

/// The minimal script of a counterexample as pretty JSON.
pub(crate) fn pretty_case(f: &Failure) -> String {
    serde_json::to_string_pretty(&f.case).unwrap_or_else(|_| f.case.to_string())
}

/// Renders a run as a Markdown job summary.
pub fn render_markdown(report: &RunReport, options: &MarkdownOptions) -> String {
    let docs = options.docs_url.as_deref();
    let mut doc = Doc::new();
    let verdict = run_verdict(report);
    let mark = match verdict {
        "conformant" => "✅",
        "INCOMPLETE" => "⚠️",
        _ => "❌",
    };
    let mut head = format!("## mirrorless run: {mark} {verdict}\n\n");
    let _ = writeln!(
        head,
        "**{verdict}** — implementation {}, seed {}{} (reproduce with `--seed {}`) — {}\n",
        escape(&crate::check::shown(&report.implementation)),
        report.seed,
        if report.ci { ", CI mode" } else { "" },
        report.seed,
        crate::version_banner()
    );
    doc.push("", head);
    for problem in &super::problems::grouped(&report.problems) {
        let headline = problem.lines().next().unwrap_or_default();
        doc.push("problems", format!("- problem: {}\n", escape(headline)));
    }
    if !report.problems.is_empty() {
        doc.push("", "\n");
    }
    for p in &report.profiles {
        profile_table(&mut doc, p, docs);
    }
    let counterexamples: Vec<(Profile, &Failure)> = report
        .profiles
        .iter()
        .flat_map(|p| p.failures.iter().chain(&p.warnings).map(|f| (p.profile, f)))
        .collect();
    if !counterexamples.is_empty() {
        doc.push("", "### Counterexamples\n\n");
    }
    for (profile, f) in counterexamples {
        doc.push("failure details", failure_section(profile, f, docs));
    }
    let full = format!(
        "`mirrorless run --seed {} --format json` (or `--format human`) prints every counterexample",
        report.seed
    );
    doc.render(options.limit, &full)
}

fn profile_table(doc: &mut Doc, p: &ProfileReport, docs: Option<&str>) {
    let count =
        |f: &dyn Fn(&RequirementResult) -> bool| p.requirements.iter().filter(|r| f(r)).count();
    let failed = count(&|r| r.counts_as_failure());
    let warned = count(&|r| r.status == Status::Warn);
    let passed = count(&|r| r.status == Status::Pass);
    let skipped = count(&|r| {
        matches!(r.status, Status::Untested | Status::NotApplicable)
            || (r.status == Status::NotJudged && !r.counts_as_failure())
    });
    let mut head = format!(
        "### {}: {} — {} cases ({} generated, {} from the corpus), {} failed\n\n",
        p.profile,
        profile_verdict(p),
        p.generated + p.replayed,
        p.generated,
        p.replayed,
        p.failed_cases
    );
    if p.faulted_cases > 0 {
        let _ = writeln!(
            head,
            "{} cases without a verdict (harness faults; see the problems above).\n",
            p.faulted_cases
        );
    }
    if let Some(part) = p.partition {
        let _ = writeln!(
            head,
            "Shard {part}: {} of {} generated and {} of {} corpus cases; coverage and \"never exercised\" are of the whole run.\n",
            p.generated, p.whole_run_generated, p.replayed, p.whole_run_replayed
        );
    }
    let _ = writeln!(
        head,
        "**{failed} failed · {warned} warned · {passed} passed · {skipped} skipped**\n"
    );
    for l in p.coverage.iter().filter(|l| l.count < l.minimum) {
        let _ = writeln!(
            head,
            "- coverage too low: {} in {} cases, minimum {} (raise `--cases`)",
            escape(l.name),
            l.count,
            l.minimum
        );
    }
    if p.coverage.iter().any(|l| l.count < l.minimum) {
        head.push('\n');
    }
    head.push_str("| requirement | status | cases | title |\n|---|---|---|---|\n");
    doc.push("", head);
    let mut rows: Vec<&RequirementResult> = p.requirements.iter().collect();
    rows.sort_by_key(|r| status_text(r.status).1);
    for r in rows {
        let cases = match r.status {
            Status::Fail => format!("{} failed of {} exercised", r.failures, r.exercised),
            Status::Warn => format!("{} warned of {} exercised", r.warnings, r.exercised),
            Status::NotExercised => "0 exercised".to_owned(),
            Status::Pass | Status::NotJudged => format!("{} exercised", r.exercised),
            Status::Untested | Status::NotApplicable => String::new(),
        };
        let cases = match r.masked_note() {
            Some(note) => format!("{cases}; {}", escape(&note)),
            None => cases,
        };
        let anchor = if matches!(r.status, Status::Fail | Status::Warn) {
            format!(" ([details](#{}))", anchor(p.profile, r.id))
        } else {
            String::new()
        };
        doc.push(
            "requirement rows",
            format!(
                "| {} | {}{anchor} | {cases} | {} |\n",
                id_link(r.id, docs, "spec"),
                status_text(r.status).0,
                trusted(title(r.id))
            ),
        );
    }
    // A crash with no other finding has no requirement row; say it under the table.
    let crashes: Vec<&Failure> = p
        .failures
        .iter()
        .filter(|f| requirement(f.requirement).is_none())
        .collect();
    doc.push("", "\n");
    for f in crashes {
        doc.push(
            "crashes",
            format!(
                "- ❌ FAIL {} — {} ([details](#{}))\n\n",
                escape(f.requirement),
                trusted(title(f.requirement)),
                anchor(p.profile, f.requirement)
            ),
        );
    }
}

/// The id of the heading of one counterexample (GitHub prefixes ids with `user-content-`
/// and resolves `#x` links to them).
fn anchor(profile: Profile, id: &str) -> String {
    format!("{}-{profile}", id.to_ascii_lowercase())
}

fn failure_section(profile: Profile, f: &Failure, docs: Option<&str>) -> String {
    let mut out = String::new();
    let word = if f.finding.error {
        "❌ FAIL"
    } else {
        "⚠️ WARN"
    };
    let _ = writeln!(
        out,
        "#### {word} {} — {} [{profile}]\n",
        escape(f.requirement),
        trusted(title(f.requirement))
    );
    // An explicit anchor: the heading's own id depends on the renderer's slug rules.
    let _ = writeln!(out, "<a id=\"{}\"></a>\n", anchor(profile, f.requirement));
    let _ = writeln!(
        out,
        "{}{}: {}\n",
        id_link(f.finding.requirement, docs, "spec"),
        at_log(f.finding.position),
        escape(&f.finding.message)
    );
    let origin = case_origin(f);
    if f.from_corpus {
        let _ = writeln!(out, "Case {} ({origin}).\n", f.case_id);
    } else {
        let _ = writeln!(out, "Case {}: {origin}.\n", f.case_id);
    }
    if let Some(primary) = f.attributed_to {
        let _ = writeln!(
            out,
            "{}.\n",
            sentence(&attribution(&escape(f.requirement), &escape(primary)))
        );
    }
    if !f.also.is_empty() {
        out.push_str("Also on this case:\n\n");
        for (k, a) in f.also.iter().enumerate() {
            let kind = match f.masked_also(k) {
                Some(by) => format!(" (not judged here: a consequence of {})", escape(by)),
                None if a.error => String::new(),
                None => " (warning)".to_owned(),
            };
            let _ = writeln!(
                out,
                "- {}{kind} — {}",
                id_link(a.requirement, docs, "spec"),
                escape(&a.message)
            );
        }
        out.push('\n');
    }
    if !f.finding.expected.is_empty() || !f.finding.observed.is_empty() {
        let mut window = String::from("expected:\n");
        for l in &f.finding.expected {
            let _ = writeln!(window, "  {l}");
        }
        window.push_str("observed:\n");
        if f.finding.observed.is_empty() {
            window.push_str("  (nothing)\n");
        }
        for l in &f.finding.observed {
            let _ = writeln!(window, "  {l}");
        }
        out.push_str(&details(
            "expected and observed, around the first divergence",
            &fence("text", &window),
        ));
    }
    out.push_str(&details(
        &format!("minimal script ({} chunks and actions)", f.shrunk_chunks),
        &fence("json", &pretty_case(f)),
    ));
    out.push_str("Replay:\n\n");
    out.push_str(&fence("sh", &replay_command(f)));
    out.push('\n');
    if f.leak.is_some() {
        out.push_str("State leaks between cases: this case passes when run alone in a fresh process; it failed only after other cases ran in the same process.\n\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::in_process;
    use crate::oracle::{Finding, Origin};
    use crate::reference::ReferenceLoop;
    use crate::scenario::Case;
    use crate::suite::{Config, run};

    /// A real run of the reference loop (few cases, both profiles).
    fn reference_run() -> RunReport {
        let config = Config {
            cases: 24,
            jobs: 1,
            ..Config::default()
        };
        let mut driver = in_process::<ReferenceLoop>("reference (embedded)");
        run(&mut driver, &config, &mut |_| {}).expect("the reference runs")
    }

    /// A loop that crashes at once: its run has real counterexamples to reshape.
    struct Crasher;

    impl crate::driver::AgentLoop for Crasher {
        fn new(_: Profile) -> Self {
            Crasher
        }

        fn run(&mut self, _: &mut dyn crate::driver::Host) -> Result<(), String> {
            Err("boom".to_owned())
        }
    }

    /// A counterexample (a real one, from a run of [`Crasher`], so that it has every field the
    /// suite gives one) for `requirement`, whose message and replay command hold `text`.
    fn failure(requirement: &'static str, text: &str) -> Failure {
        let config = Config {
            profiles: vec![Profile::ALL[0]],
            cases: 1,
            jobs: 1,
            shrink_steps: 0,
            ..Config::default()
        };
        let mut driver = in_process::<Crasher>("crasher");
        let report = run(&mut driver, &config, &mut |_| {}).expect("the run ends");
        let mut f = report.profiles[0]
            .failures
            .first()
            .cloned()
            .expect("a crash is a failure");
        let case: Case = serde_json::from_str(
            r#"{"profile":"2026-08","script":{"actions":[{"action":"prompt","text":"p","calls":[{"chunks":[{"type":"finish","reason":{"kind":"stop"}}]}]}]}}"#,
        )
        .expect("a case");
        f.requirement = requirement;
        f.attributed_to = None;
        f.case_id = case.id();
        f.case = case;
        f.finding = Finding {
            requirement,
            error: true,
            position: Some(3),
            message: text.to_owned(),
            expected: vec![format!("  {text}")],
            observed: vec![],
            origin: Origin::Oracle,
        };
        f.also.clear();
        f.masked.clear();
        f.shrunk_chunks = 1;
        f.from_corpus = false;
        f.case_file = Some("c.json".to_owned());
        f.replay = format!("mirrorless replay c.json -- {text}");
        f.stderr.clear();
        f.leak = None;
        f
    }

    #[test]
    fn a_conformant_run_leads_with_its_verdict_and_counts() {
        let md = render_markdown(&reference_run(), &MarkdownOptions::default());
        assert!(md.starts_with("## mirrorless run: ✅ conformant\n"), "{md}");
        for p in Profile::ALL {
            assert!(md.contains(&format!("### {p}: conformant")), "{md}");
        }
        assert!(md.contains(" failed · 0 warned · "), "{md}");
        assert!(!md.contains("Counterexamples"), "{md}");
        assert!(!md.contains("](http"), "no docs URL, no links: {md}");
    }

    #[test]
    fn a_failure_has_its_row_headline_script_and_replay() {
        let mut report = reference_run();
        let p = &mut report.profiles[0];
        let row = p
            .requirements
            .iter_mut()
            .find(|r| r.id == "CHUNK-1")
            .expect("CHUNK-1");
        row.status = Status::Fail;
        row.failures = 2;
        p.failures.push(failure("CHUNK-1", "two chunks merged"));
        let options = MarkdownOptions {
            docs_url: Some("https://example.invalid/docs/".to_owned()),
            ..MarkdownOptions::default()
        };
        let md = render_markdown(&report, &options);
        assert!(
            md.starts_with("## mirrorless run: ❌ NOT CONFORMANT\n"),
            "{md}"
        );
        let profile = report.profiles[0].profile;
        // The failed row comes first in its table and links to its spec page and details.
        let table = md.split("|---|---|---|---|\n").nth(1).expect("a table");
        assert!(
            table.starts_with(&format!(
                "| [CHUNK-1](https://example.invalid/docs/spec/CHUNK-1.md) | ❌ FAIL ([details](#chunk-1-{profile})) | 2 failed of "
            )),
            "{table}"
        );
        assert!(
            md.contains(&format!("<a id=\"chunk-1-{profile}\"></a>")),
            "{md}"
        );
        assert!(md.contains("two chunks merged"), "{md}");
        assert!(
            md.contains(
                "<details><summary>minimal script (1 chunks and actions)</summary>\n\n```json\n{"
            ),
            "{md}"
        );
        assert!(
            md.contains("```sh\nmirrorless replay c.json -- two chunks merged\n```"),
            "{md}"
        );
    }

    #[test]
    fn hostile_text_cannot_break_the_document() {
        let mut report = reference_run();
        let hostile = "a|b`c</details><script>x</script>\n| forged | row |\n```\nz";
        report.implementation = hostile.to_owned();
        report.profiles[0]
            .failures
            .push(failure("CHUNK-1", hostile));
        let md = render_markdown(&report, &MarkdownOptions::default());
        // The replay fence is longer than the backticks in it.
        assert!(md.contains("````sh\n"), "{md}");
        // Outside code blocks the text opens no tag and starts no row, and `</details>`
        // appears only where the report closes a section.
        let prose = outside_fences(&md);
        assert!(!prose.contains("<script>"), "{prose}");
        assert!(!prose.contains("\n| forged"), "{prose}");
        assert_eq!(
            prose.matches("<details>").count(),
            prose.matches("</details>").count()
        );
        assert!(
            prose.contains("a\\|b\\`c&lt;/details&gt;&lt;script&gt;"),
            "{prose}"
        );
    }

    /// The lines of `md` outside fenced code blocks (CommonMark's rule: a fence closes at a
    /// line of at least as many backticks and nothing else).
    fn outside_fences(md: &str) -> String {
        let mut out = String::new();
        let mut open: Option<usize> = None;
        for line in md.lines() {
            let ticks = line.len() - line.trim_start_matches('`').len();
            match open {
                None if ticks >= 3 => open = Some(ticks),
                None => {
                    out.push_str(line);
                    out.push('\n');
                }
                Some(n) if ticks >= n && line.trim_start_matches('`').trim().is_empty() => {
                    open = None
                }
                Some(_) => {}
            }
        }
        out
    }

    #[test]
    fn a_huge_report_stays_within_the_step_summary_limit_and_says_what_it_left_out() {
        let mut report = reference_run();
        let long = "x".repeat(2000);
        let template = failure("CHUNK-1", "");
        for i in 0..2000 {
            let mut f = template.clone();
            f.finding.message = format!("{i} {long}");
            f.finding.expected = vec![f.finding.message.clone()];
            report.profiles[0].failures.push(f);
        }
        let options = MarkdownOptions::default();
        let md = render_markdown(&report, &options);
        assert!(
            md.len() <= super::super::md_text::STEP_SUMMARY_LIMIT,
            "{}",
            md.len()
        );
        assert!(
            md.len() > super::super::md_text::STEP_SUMMARY_LIMIT / 2,
            "{}",
            md.len()
        );
        assert!(md.starts_with("## mirrorless run: ❌ NOT CONFORMANT\n"));
        let shown = md.matches("#### ❌ FAIL CHUNK-1").count();
        assert!(shown > 0 && shown < 2000, "{shown}");
        assert!(
            md.contains(&format!("Left out: {} failure details.", 2000 - shown)),
            "{}",
            &md[md.len() - 600..]
        );
        assert!(md.contains(&format!(
            "`mirrorless run --seed {} --format json`",
            report.seed
        )));
    }
}
