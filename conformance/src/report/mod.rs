//! Rendering run reports: human text, JSON, JUnit XML and Markdown (`markdown.rs`).
//!
//! A failure names its requirement, shows the minimal script inline as JSON, the window of
//! expected and observed events around the first divergence, and a one-line replay command.
//! The HTML report ([`render_html`], in `html.rs`) shows the whole logs as aligned timelines
//! (`timeline.rs`).

mod html;
mod json_layout;
mod problems;
pub mod timeline;

pub use html::{escape as html_escape, render_html};

pub mod markdown;
pub mod matrix;
pub mod md_text;

pub use markdown::{MarkdownOptions, render_markdown};

use crate::oracle::{Finding, Verdict};
use crate::registry::requirement;
use crate::scenario::Case;
use crate::suite::{Failure, RunReport, Status, UNSAVED_CASE_FILE};
use crate::vocab::Profile;
use crate::vocab::durable::SessionEvent;
use std::fmt::Write as _;

// The words every rendering of a run shares (human, Markdown, HTML, the matrix). Each format
// puts its own punctuation and markup around them and escapes what it passes in.

/// The title of a requirement ID, of `CRASH`, or of an ID this version does not know (a
/// report written by a later release, which may add requirements).
pub(crate) fn title(id: &str) -> &'static str {
    match requirement(id) {
        Some(r) => r.title,
        None if id == crate::oracle::CRASH => "the implementation crashed",
        None => "a requirement unknown to this version of mirrorless (from a later release?)",
    }
}

/// Where in the durable log a finding is: " at log #N", or nothing when it has no position.
pub(crate) fn at_log(position: Option<u64>) -> String {
    position
        .map(|p| format!(" at log #{p}"))
        .unwrap_or_default()
}

/// How a counterexample's case was found: "replayed from the corpus", or "shrunk from N to M
/// chunks and actions in K steps" (and " (stopped at the shrink bound)" when it was).
pub(crate) fn case_origin(f: &Failure) -> String {
    if f.from_corpus {
        "replayed from the corpus".to_owned()
    } else {
        format!(
            "shrunk from {} to {} chunks and actions in {} steps{}",
            f.original_chunks,
            f.shrunk_chunks,
            f.shrink_steps,
            if f.shrink_bounded {
                " (stopped at the shrink bound)"
            } else {
                ""
            }
        )
    }
}

/// "shrunk for A; this case is attributed to B", of a counterexample shrunk for `shrunk_for`
/// whose case is attributed to `primary` (both as the format renders them).
pub(crate) fn attribution(shrunk_for: &str, primary: &str) -> String {
    format!("shrunk for {shrunk_for}; this case is attributed to {primary}")
}

/// `words` with their first letter upper-case, to start a sentence.
pub(crate) fn sentence(words: &str) -> String {
    let mut chars = words.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

fn finding_block(out: &mut String, f: &Finding, indent: &str) {
    let at = at_log(f.position);
    let _ = writeln!(out, "{indent}{}{at}: {}", f.requirement, f.message);
    if !f.expected.is_empty() || !f.observed.is_empty() {
        let _ = writeln!(out, "{indent}  expected:");
        for l in &f.expected {
            let _ = writeln!(out, "{indent}    {l}");
        }
        let _ = writeln!(out, "{indent}  observed:");
        if f.observed.is_empty() {
            let _ = writeln!(out, "{indent}    (nothing)");
        }
        for l in &f.observed {
            let _ = writeln!(out, "{indent}    {l}");
        }
    }
}

/// Renders one counterexample for humans: `FAIL` for a MUST, `WARN` for a SHOULD. With
/// `full`, the other findings of the case are listed too, the case's primary one first.
pub fn render_failure(profile: Profile, f: &Failure, full: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} — {} [{profile}]",
        if f.finding.error { "FAIL" } else { "WARN" },
        f.requirement,
        title(f.requirement)
    );
    let origin = case_origin(f);
    if f.from_corpus {
        let _ = writeln!(out, "  case {} ({origin})", f.case_id);
    } else {
        let _ = writeln!(out, "  case {}: {origin}", f.case_id);
    }
    if let Some(primary) = f.attributed_to {
        let _ = writeln!(
            out,
            "  ({}, listed first below)",
            attribution(f.requirement, primary)
        );
    }
    finding_block(&mut out, &f.finding, "  ");
    if full && !f.also.is_empty() {
        let _ = writeln!(out, "  also on this case:");
        for (k, a) in f.also.iter().enumerate() {
            let kind = match f.masked_also(k) {
                Some(by) => format!(" (not judged here: a consequence of {by})"),
                None if a.error => String::new(),
                None => " (warning)".to_owned(),
            };
            let _ = writeln!(out, "    {}{kind} — {}", a.requirement, a.message);
        }
    }
    let _ = writeln!(out, "  script: {}", f.case);
    if !f.stderr.is_empty() {
        let tail: String = f
            .stderr
            .lines()
            .rev()
            .take(20)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join("\n    ");
        let _ = writeln!(out, "  stderr (tail):\n    {tail}");
    }
    match &f.case_file {
        Some(_) => {
            let _ = writeln!(out, "  replay: {}", f.replay);
        }
        None => {
            let _ = writeln!(
                out,
                "  replay: save the script above as {UNSAVED_CASE_FILE}, then {}",
                f.replay
            );
        }
    }
    if let Some(leak) = &f.leak {
        let _ = writeln!(
            out,
            "  state leaks between cases: this case passes when run alone in a fresh process (so the replay above passes); it failed only after other cases ran in the same process. Look for state kept from case to case (a class attribute, a global, a module-level counter or cache)."
        );
        if leak.reproduced {
            let _ = writeln!(
                out,
                "  reproduce (the run's cases through this one, {} per profile, in one process): {}",
                leak.cases, leak.sequence
            );
        } else {
            let _ = writeln!(
                out,
                "  `{}` did not reproduce it in one process: rerun the whole run with -j 1 (the same seed and corpus)",
                leak.sequence
            );
        }
    }
    out
}

/// Renders the unshrunk failure printed the moment it is found.
pub fn render_found(profile: Profile, case: &Case, finding: &Finding) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "found {} — {} [{profile}], shrinking…",
        finding.requirement,
        title(finding.requirement)
    );
    finding_block(&mut out, finding, "  ");
    let _ = writeln!(out, "  unshrunk script: {case}");
    out
}

/// Renders a whole run for humans.
pub fn render_human(report: &RunReport) -> String {
    render_human_with(report, true)
}

/// Renders a whole run for humans after its progress went to standard error: each problem,
/// already printed there in full as it happened, is listed by its first line only, so that a
/// fault's transcript is not printed twice.
pub fn render_human_after_progress(report: &RunReport) -> String {
    render_human_with(report, false)
}

fn render_human_with(report: &RunReport, full_problems: bool) -> String {
    let mut out = String::new();
    for p in &report.profiles {
        for f in p.failures.iter().chain(&p.warnings) {
            out.push_str(&render_failure(p.profile, f, true));
            out.push('\n');
        }
    }
    for p in &report.profiles {
        let failing: Vec<&str> = p
            .requirements
            .iter()
            .filter(|r| r.status == Status::Fail)
            .map(|r| r.id)
            .chain(
                p.failures
                    .iter()
                    .filter(|f| f.requirement == crate::oracle::CRASH)
                    .map(|f| f.requirement),
            )
            .collect();
        let unexercised: Vec<&str> = p
            .requirements
            .iter()
            .filter(|r| r.status == Status::NotExercised)
            .map(|r| r.id)
            .collect();
        // Every row some case could not judge, whatever its status: a pass that rests on
        // fewer cases than it seems, or no judgement at all.
        let masked: Vec<String> = p
            .requirements
            .iter()
            .filter_map(|r| {
                r.masked_note().map(|note| {
                    let status = if r.status == Status::NotJudged {
                        " — never judged"
                    } else {
                        ""
                    };
                    format!("{} {note}{status}", r.id)
                })
            })
            .collect();
        let warned: Vec<String> = p
            .requirements
            .iter()
            .filter(|r| r.status == Status::Warn)
            .map(|r| format!("{} ({} case{})", r.id, r.warnings, plural(r.warnings)))
            .collect();
        let failing: Vec<String> = failing
            .into_iter()
            .map(|id| match p.requirements.iter().find(|r| r.id == id) {
                Some(r) => format!("{id} ({} case{})", r.failures, plural(r.failures)),
                None => id.to_owned(),
            })
            .collect();
        let passed = p
            .requirements
            .iter()
            .filter(|r| r.status == Status::Pass)
            .count();
        let _ = writeln!(
            out,
            "{}: {} — {} cases ({} generated, {} from the corpus), {} failed{}; {passed} requirements passed; {:.0} cases/s",
            p.profile,
            if p.conformant() {
                "conformant"
            } else if p.incomplete() {
                // Nothing failed, but not every case got a verdict: this proves nothing.
                "INCOMPLETE"
            } else {
                "NOT CONFORMANT"
            },
            p.generated + p.replayed,
            p.generated,
            p.replayed,
            p.failed_cases,
            if p.faulted_cases > 0 {
                format!(
                    ", {} without a verdict (harness faults, see the problems below)",
                    p.faulted_cases
                )
            } else {
                String::new()
            },
            p.cases_per_second
        );
        if let Some(part) = p.partition {
            let _ = writeln!(
                out,
                "  shard {part}: {} of {} generated and {} of {} corpus cases; coverage and \"never exercised\" are of the whole run",
                p.generated, p.whole_run_generated, p.replayed, p.whole_run_replayed
            );
        }
        if !failing.is_empty() {
            let _ = writeln!(out, "  failed: {}", failing.join(", "));
        }
        if !warned.is_empty() {
            let _ = writeln!(
                out,
                "  warnings{}: {}",
                if p.deny_warnings {
                    " (fail the run: --deny-warnings)"
                } else {
                    " (SHOULD; --deny-warnings makes them fail)"
                },
                warned.join(", ")
            );
        }
        if !masked.is_empty() {
            let _ = writeln!(
                out,
                "  not judged where another finding masked it (a consequence of it in the same turn; never judged counts as a failure for a MUST): {}",
                masked.join("; ")
            );
        }
        if !unexercised.is_empty() {
            let _ = writeln!(
                out,
                "  never exercised (counts as a failure; raise --cases): {}",
                unexercised.join(", ")
            );
        }
        for l in p.coverage.iter().filter(|l| l.count < l.minimum) {
            let _ = writeln!(
                out,
                "  coverage too low: `{}` in {} cases, minimum {} (raise --cases)",
                l.name, l.count, l.minimum
            );
        }
    }
    for problem in &problems::grouped(&report.problems) {
        match problem.split_once('\n') {
            Some((headline, _)) if !full_problems => {
                let _ = writeln!(out, "problem: {headline} (in full above, on stderr)");
            }
            _ => {
                let _ = writeln!(out, "problem: {problem}");
            }
        }
    }
    let _ = writeln!(
        out,
        "{} — implementation {}, seed {}{} (reproduce with --seed {}) — {}",
        if report.conformant() {
            "conformant"
        } else if !report.profiles.iter().any(|p| p.failed()) {
            // Nothing failed, but the run had problems (cut short, harness faults, no case).
            "INCOMPLETE"
        } else {
            "NOT CONFORMANT"
        },
        crate::check::shown(&report.implementation),
        report.seed,
        if report.ci { ", CI mode" } else { "" },
        report.seed,
        crate::version_banner()
    );
    out
}

/// The `format_version` of the JSON report: 2 since a requirement's `status` may be
/// `not-judged`.
pub const FORMAT_VERSION: u64 = 2;

/// Renders a whole run as pretty JSON (`format_version` [`FORMAT_VERSION`]).
pub fn render_json(report: &RunReport) -> String {
    let value = serde_json::json!({
        "format_version": FORMAT_VERSION,
        "tool": "mirrorless",
        "tool_version": env!("CARGO_PKG_VERSION"),
        "spec_version": crate::SPEC_VERSION,
        "conformant": report.conformant(),
        "report": report,
    });
    let mut s =
        serde_json::to_string_pretty(&value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => {
                let _ = write!(out, "&#{};", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Renders a whole run as JUnit XML: one test suite per profile, one test case per
/// requirement (a failure carries the human report; a requirement that does not apply is
/// skipped).
pub fn render_junit(report: &RunReport) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let tests: usize = report
        .profiles
        .iter()
        .map(|p| p.requirements.len() + 1)
        .sum();
    let failures: usize = report
        .profiles
        .iter()
        .map(|p| {
            p.requirements
                .iter()
                .filter(|r| match r.status {
                    Status::Warn => p.deny_warnings,
                    _ => r.counts_as_failure(),
                })
                .count()
                + usize::from(p.coverage.iter().any(|l| l.count < l.minimum))
        })
        .sum();
    let shard = report
        .partition
        .map(|p| format!(" (shard {p})"))
        .unwrap_or_default();
    // The run's problems (a harness fault, an implementation that never started) are one
    // errored test case, so that a CI test view never shows such a run green.
    let problem_case = !report.problems.is_empty();
    let tests = tests + usize::from(problem_case);
    let errors = if problem_case {
        " errors=\"1\"".to_owned()
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "<testsuites name=\"mirrorless run{shard}\" tests=\"{tests}\" failures=\"{failures}\"{errors}>"
    );
    for p in &report.profiles {
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" time=\"{:.3}\">",
            p.profile,
            p.requirements.len() + 1,
            p.seconds
        );
        for r in &p.requirements {
            let _ = write!(
                out,
                "    <testcase classname=\"mirrorless.{}\" name=\"{} {}\"",
                p.profile,
                r.id,
                xml_escape(title(r.id))
            );
            match r.status {
                Status::Pass | Status::Untested => match r.masked_note() {
                    Some(note) => {
                        let _ = writeln!(
                            out,
                            "><system-out>{}</system-out></testcase>",
                            xml_escape(&note)
                        );
                    }
                    None => out.push_str("/>\n"),
                },
                Status::NotJudged => {
                    let note = r.masked_note().unwrap_or_default();
                    if r.counts_as_failure() {
                        let _ = writeln!(
                            out,
                            "><failure message=\"not judged\" type=\"not-judged\">{}: no case could judge this MUST requirement</failure></testcase>",
                            xml_escape(&note)
                        );
                    } else {
                        let _ = writeln!(
                            out,
                            "><system-out>{}</system-out></testcase>",
                            xml_escape(&note)
                        );
                    }
                }
                Status::NotApplicable => out.push_str(
                    "><skipped message=\"does not apply to this profile\"/></testcase>\n",
                ),
                Status::Warn => {
                    let body = p
                        .warnings
                        .iter()
                        .find(|f| f.requirement == r.id)
                        .map(|f| render_failure(p.profile, f, true))
                        .unwrap_or_default();
                    let message = format!("warning: {} case(s) violate this SHOULD", r.warnings);
                    if p.deny_warnings {
                        let _ = writeln!(
                            out,
                            "><failure message=\"{message} (--deny-warnings)\" type=\"warning\">{}</failure></testcase>",
                            xml_escape(&body)
                        );
                    } else {
                        let _ = writeln!(
                            out,
                            "><system-out>{message}\n{}</system-out></testcase>",
                            xml_escape(&body)
                        );
                    }
                }
                Status::NotExercised => {
                    let _ = writeln!(
                        out,
                        "><failure message=\"never exercised\" type=\"not-exercised\">no case exercised this MUST requirement</failure></testcase>"
                    );
                }
                Status::Fail => {
                    let body = p
                        .failures
                        .iter()
                        .find(|f| f.requirement == r.id)
                        .map(|f| render_failure(p.profile, f, true))
                        .unwrap_or_default();
                    let _ = writeln!(
                        out,
                        "><failure message=\"{} case(s) failed\" type=\"{}\">{}</failure></testcase>",
                        r.failures,
                        r.id,
                        xml_escape(&body)
                    );
                }
            }
        }
        let low: Vec<String> = p
            .coverage
            .iter()
            .filter(|l| l.count < l.minimum)
            .map(|l| format!("{}: {} < {}", l.name, l.count, l.minimum))
            .collect();
        let _ = write!(
            out,
            "    <testcase classname=\"mirrorless.{}\" name=\"coverage\"",
            p.profile
        );
        if low.is_empty() {
            out.push_str("/>\n");
        } else {
            let _ = writeln!(
                out,
                "><failure message=\"coverage too low\" type=\"coverage\">{}</failure></testcase>",
                xml_escape(&low.join("\n"))
            );
        }
        out.push_str("  </testsuite>\n");
    }
    if problem_case {
        let _ = writeln!(
            out,
            "  <testsuite name=\"run\" tests=\"1\" errors=\"1\">\n    <testcase classname=\"mirrorless.run\" name=\"problems of the run\"><error message=\"{} problem(s): the run proves nothing either way\" type=\"problem\">{}</error></testcase>\n  </testsuite>",
            report.problems.len(),
            xml_escape(&problems::grouped(&report.problems).join("\n"))
        );
    }
    out.push_str("</testsuites>\n");
    out
}

/// One line per durable event, for replay output.
pub fn render_log(log: &[SessionEvent]) -> String {
    let mut out = String::new();
    for (i, e) in log.iter().enumerate() {
        let _ = writeln!(
            out,
            "#{i} {}",
            serde_json::to_string(e).unwrap_or_else(|_| e.kind.clone())
        );
    }
    out
}

/// Renders the verdict of one replayed case.
pub fn render_verdict(case: &Case, verdict: &Verdict) -> String {
    let mut out = String::new();
    match verdict.primary() {
        None => {
            let _ = writeln!(out, "PASS case {} [{}]", case.id(), case.profile);
        }
        Some(p) => {
            let _ = writeln!(
                out,
                "FAIL {} — {} [{}] case {}",
                p.requirement,
                title(p.requirement),
                case.profile,
                case.id()
            );
            finding_block(&mut out, p, "  ");
        }
    }
    let skip = usize::from(verdict.primary().is_some());
    for (k, f) in verdict.findings.iter().enumerate().skip(skip) {
        let kind = match verdict.masked_by(k) {
            Some(by) => format!("not judged (a consequence of {by})"),
            None if f.error => "also".to_owned(),
            None => "warning".to_owned(),
        };
        let _ = writeln!(out, "  {kind}: {} — {}", f.requirement, f.message);
    }
    out
}
