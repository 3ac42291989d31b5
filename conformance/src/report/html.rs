//! The HTML report of a run: one self-contained page (inline CSS, no script, no network) that
//! opens from a CI artifact.
//!
//! It shows the verdict, each profile's requirement table, and for each counterexample its
//! headline, the expected and observed timelines side by side with the first divergence
//! marked (a text label and an anchor, never colour alone), the minimal script, the replay
//! command and the script's coverage labels. Every colour has a word beside it, and the page
//! reads the same without JavaScript: long parts are `<details>`. Everything that comes from
//! the implementation or the script (payloads, names, stderr) is escaped.

use super::timeline::{Row, align, aligns_by_content, divergence_row, first_divergence, timeline};
use super::{at_log, attribution, case_origin, sentence, title};
use crate::driver::{Driver, Observation, in_process};
use crate::oracle::{CRASH, Finding};
use crate::reference::ReferenceLoop;
use crate::registry::{Area, requirement};
use crate::scenario::Case;
use crate::scenario::coverage::labels_of;
use crate::suite::{
    Failure, ProfileReport, RequirementResult, RunReport, Status, UNSAVED_CASE_FILE,
};
use crate::vocab::Profile;
use std::fmt::Write as _;

/// A script longer than this many lines (pretty-printed) starts folded.
const SCRIPT_OPEN_LINES: usize = 60;
/// How many rows of a timeline show open from the first divergence's context on; the rest
/// is folded.
const TIMELINE_OPEN_ROWS: usize = 400;
/// How many rows before the first divergence show with it (the earlier ones are folded).
const CONTEXT_ROWS: usize = 6;
/// How many rows the folded rest of a timeline shows at most: an unshrunk case can hold up to
/// `--max-case-events` events, more than a page should carry.
const FOLDED_ROWS: usize = 5_000;

const STYLE: &str = r#"
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; margin: 1.5rem auto; max-width: 90rem; padding: 0 1rem; color: #1b1b1b; line-height: 1.4; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; }
h2 { border-bottom: 2px solid #ccc; padding-bottom: .2rem; margin-top: 2rem; }
h3 { margin-top: 1.6rem; }
h4 { margin: 1rem 0 .3rem; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .85rem; }
pre { background: #f5f5f5; border: 1px solid #ddd; padding: .5rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
table { border-collapse: collapse; margin: .4rem 0; }
th, td { border: 1px solid #ccc; padding: .15rem .45rem; text-align: left; vertical-align: top; }
th { background: #eee; }
.verdict { display: inline-block; padding: .1rem .5rem; border-radius: .3rem; font-weight: bold; border: 2px solid; }
.badge { display: inline-block; min-width: 4.2rem; padding: 0 .3rem; border-radius: .25rem; font-weight: bold; font-size: .8rem; text-align: center; border: 1px solid; }
.s-fail { background: #fde2e1; color: #8a1111; border-color: #c62828; }
.s-warn { background: #fff1cc; color: #6b4a00; border-color: #b58100; }
.s-pass { background: #e2f4e4; color: #1d5e24; border-color: #2e7d32; }
.s-skip { background: #eceff1; color: #455a64; border-color: #90a4ae; }
.counts .count { margin-right: 1.2rem; white-space: nowrap; }
.nowrap { white-space: nowrap; }
.failure { border: 1px solid #ccc; border-left: 6px solid #c62828; padding: .2rem 1rem 1rem; margin: 1rem 0; }
.failure.warning { border-left-color: #b58100; }
.headline { font-size: 1.05rem; font-weight: 600; }
.timeline { font-size: .8rem; width: 100%; table-layout: fixed; }
.timeline td { overflow-wrap: anywhere; }
.timeline td.detail { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.timeline col.num { width: 3rem; } .timeline col.kind { width: 5.2rem; } .timeline col.ts { width: 2.6rem; }
.timeline col.name { width: 11rem; } .timeline col.mark { width: 7.5rem; }
.timeline th.side { text-align: center; font-size: .9rem; }
.timeline td.gap { color: #666; font-style: italic; background: #fafafa; }
.timeline tr.only td.mark { color: #555; font-weight: normal; font-style: italic; }
.timeline tr.first td { background: #fde2e1; border-top: 3px solid #c62828; border-bottom: 3px solid #c62828; }
.timeline td.mark { font-weight: bold; color: #8a1111; }
.timeline tr.finding td { border-bottom: 2px dashed #c62828; }
.k { display: inline-block; padding: 0 .25rem; border-radius: .2rem; font-size: .75rem; border: 1px solid #bbb; }
.k-turn { background: #e3ecfa; } .k-step { background: #eef3fb; } .k-chunk { background: #f4f4f4; }
.k-steering { background: #f3e5f5; } .k-message { background: #e8f5e9; } .k-tool { background: #fff8e1; }
.k-live { background: #e0f7fa; } .k-event { background: #fafafa; }
.legend { font-size: .85rem; color: #444; }
nav ul { margin: .2rem 0; }
"#;

/// Escapes text for HTML element content and quoted attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters other than whitespace are not allowed in HTML text.
            // Nor are bidirectional controls and invisible characters shown raw: they make
            // text read differently from what it is.
            c if crate::check::needs_escape(c) && !matches!(c, '\n' | '\t') => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// An id attribute value made of the characters an anchor keeps as they are.
fn anchor(parts: &[&str]) -> String {
    parts
        .iter()
        .map(|p| {
            p.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("-")
}

/// Text with Markdown-style `code` spans (the registry's titles use them), escaped, the
/// spans as `<code>`.
fn prose(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in s.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", escape(part));
        } else {
            out.push_str(&escape(part));
        }
    }
    out
}

fn run_verdict(report: &RunReport) -> (&'static str, &'static str) {
    if report.conformant() {
        ("conformant", "s-pass")
    } else if !report.profiles.iter().any(ProfileReport::failed) {
        ("INCOMPLETE", "s-warn")
    } else {
        ("NOT CONFORMANT", "s-fail")
    }
}

fn profile_verdict(p: &ProfileReport) -> (&'static str, &'static str) {
    if p.conformant() {
        ("conformant", "s-pass")
    } else if p.incomplete() {
        ("INCOMPLETE", "s-warn")
    } else {
        ("NOT CONFORMANT", "s-fail")
    }
}

/// A requirement's status as the table shows it: the word, its class, and its sort group
/// (failed, warned, passed, skipped).
fn status_cell(r: &RequirementResult) -> (&'static str, &'static str, u8) {
    match r.status {
        Status::Fail => ("FAIL", "s-fail", 0),
        Status::NotExercised => ("FAIL: never exercised", "s-fail", 0),
        Status::NotJudged if r.counts_as_failure() => ("FAIL: not judged", "s-fail", 0),
        Status::NotJudged => ("not judged", "s-warn", 1),
        Status::Warn => ("WARN", "s-warn", 1),
        Status::Pass => ("pass", "s-pass", 2),
        Status::Untested => ("skipped: not exercised", "s-skip", 3),
        Status::NotApplicable => ("skipped: does not apply", "s-skip", 3),
    }
}

/// Renders a whole run as one self-contained HTML page.
pub fn render_html(report: &RunReport) -> String {
    let mut out = String::new();
    let (verdict, class) = run_verdict(report);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>mirrorless run: {verdict} — {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(&crate::check::shown(&report.implementation))
    );
    let _ = writeln!(
        out,
        "<header>\n<h1>mirrorless run: <span class=\"verdict {class}\" id=\"verdict\">{verdict}</span></h1>"
    );
    let _ = writeln!(
        out,
        "<p>Implementation <strong>{}</strong>, seed <code>{}</code>{}{} (reproduce with <code class=\"nowrap\">--seed {}</code>) — {}</p>\n</header>",
        prose(&crate::check::shown(&report.implementation)),
        report.seed,
        if report.ci { ", CI mode" } else { "" },
        report
            .partition
            .map(|p| format!(", shard {p}"))
            .unwrap_or_default(),
        report.seed,
        escape(&crate::version_banner())
    );
    summary_table(&mut out, report);
    let counterexamples: Vec<(Profile, &Failure)> = report
        .profiles
        .iter()
        .flat_map(|p| p.failures.iter().chain(&p.warnings).map(|f| (p.profile, f)))
        .collect();
    if !counterexamples.is_empty() || !report.problems.is_empty() {
        out.push_str("<nav>\n<h2>Counterexamples</h2>\n<ul>\n");
        for (profile, f) in &counterexamples {
            let _ = writeln!(
                out,
                "<li><a href=\"#{}\">{} {} — {} [{profile}]</a></li>",
                anchor(&["case", &profile.to_string(), f.requirement]),
                if f.finding.error { "FAIL" } else { "WARN" },
                escape(f.requirement),
                prose(title(f.requirement))
            );
        }
        if !report.problems.is_empty() {
            out.push_str("<li><a href=\"#problems\">Problems of the run</a></li>\n");
        }
        out.push_str("</ul>\n</nav>\n");
    }
    for p in &report.profiles {
        profile_section(&mut out, p);
    }
    if !report.problems.is_empty() {
        out.push_str(
            "<section id=\"problems\">\n<h2>Problems of the run</h2>\n<p>These make the run a usage or harness error: it proves nothing either way.</p>\n",
        );
        for problem in &super::problems::grouped(&report.problems) {
            let _ = writeln!(out, "<pre>{}</pre>", escape(problem));
        }
        out.push_str("</section>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// Counts of a profile's requirements: failed, warned, passed, skipped.
fn counts(p: &ProfileReport) -> [usize; 4] {
    let mut counts = [0usize; 4];
    for r in &p.requirements {
        counts[usize::from(status_cell(r).2)] += 1;
    }
    counts
}

/// One row per profile at the top: its verdict and counts, linking to its section.
fn summary_table(out: &mut String, report: &RunReport) {
    out.push_str("<table class=\"summary\">\n<caption>Profiles of this run</caption>\n<thead><tr><th>profile</th><th>verdict</th><th>cases</th><th>requirements failed</th><th>warned</th><th>passed</th><th>skipped</th></tr></thead>\n<tbody>\n");
    for p in &report.profiles {
        let profile = p.profile.to_string();
        let (verdict, class) = profile_verdict(p);
        let c = counts(p);
        let _ = writeln!(
            out,
            "<tr><td><a href=\"#{}\">{profile}</a></td><td><span class=\"badge {class}\">{verdict}</span></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            anchor(&["profile", &profile]),
            p.generated + p.replayed,
            c[0],
            c[1],
            c[2],
            c[3]
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

fn profile_section(out: &mut String, p: &ProfileReport) {
    let profile = p.profile.to_string();
    let (verdict, class) = profile_verdict(p);
    let _ = writeln!(
        out,
        "<section id=\"{}\">\n<h2>Profile {profile}: <span class=\"badge {class}\">{verdict}</span></h2>",
        anchor(&["profile", &profile])
    );
    let _ = writeln!(
        out,
        "<p>{} cases ({} generated, {} from the corpus), {} failed, {} with warnings only{}.</p>",
        p.generated + p.replayed,
        p.generated,
        p.replayed,
        p.failed_cases,
        p.warned_cases,
        if p.faulted_cases > 0 {
            format!(
                ", {} without a verdict (harness faults, see the problems below)",
                p.faulted_cases
            )
        } else {
            String::new()
        }
    );
    if let Some(part) = p.partition {
        let _ = writeln!(
            out,
            "<p>Shard {part}: {} of {} generated and {} of {} corpus cases; coverage and “never exercised” are of the whole run.</p>",
            p.generated, p.whole_run_generated, p.replayed, p.whole_run_replayed
        );
    }
    requirement_table(out, p);
    coverage_table(out, p);
    for f in p.failures.iter().chain(&p.warnings) {
        failure_article(out, p.profile, f);
    }
    out.push_str("</section>\n");
}

fn requirement_table(out: &mut String, p: &ProfileReport) {
    let mut rows: Vec<&RequirementResult> = p.requirements.iter().collect();
    rows.sort_by_key(|r| status_cell(r).2);
    let counts = counts(p);
    let crashed = p.failures.iter().any(|f| f.requirement == CRASH);
    let _ = writeln!(
        out,
        "<p class=\"counts\">Requirements: <span class=\"count\"><span class=\"badge s-fail\">failed</span> {}{}</span> <span class=\"count\"><span class=\"badge s-warn\">warned</span> {}</span> <span class=\"count\"><span class=\"badge s-pass\">passed</span> {}</span> <span class=\"count\"><span class=\"badge s-skip\">skipped</span> {}</span></p>",
        counts[0],
        if crashed { " (and a crash)" } else { "" },
        counts[1],
        counts[2],
        counts[3]
    );
    let profile = p.profile.to_string();
    // What needs reading (failed, warned) is open; the passed and skipped rows are folded.
    let (open, folded): (Vec<&RequirementResult>, Vec<&RequirementResult>) =
        rows.into_iter().partition(|r| status_cell(r).2 < 2);
    if !open.is_empty() {
        table(
            out,
            p,
            &open,
            &format!("Requirements failed or warned under {profile}"),
        );
    }
    if !folded.is_empty() {
        let _ = writeln!(
            out,
            "<details{}>\n<summary>{} passed and {} skipped requirements under {profile}</summary>",
            if open.is_empty() { " open" } else { "" },
            counts[2],
            counts[3]
        );
        table(
            out,
            p,
            &folded,
            &format!("Requirements passed or skipped under {profile}"),
        );
        out.push_str("</details>\n");
    }
}

fn table(out: &mut String, p: &ProfileReport, rows: &[&RequirementResult], caption: &str) {
    let profile = p.profile.to_string();
    let _ = writeln!(
        out,
        "<table class=\"requirements\">\n<caption>{}</caption>\n<thead><tr><th>status</th><th>requirement</th><th>title</th><th>tier</th><th>cases exercising it</th><th>cases failing it</th><th>cases warning</th></tr></thead>\n<tbody>",
        escape(caption)
    );
    for r in rows {
        let (word, class, _) = status_cell(r);
        let has_case = p
            .failures
            .iter()
            .chain(&p.warnings)
            .any(|f| f.requirement == r.id);
        let id = if has_case {
            format!(
                "<a href=\"#{}\">{}</a>",
                anchor(&["case", &profile, r.id]),
                escape(r.id)
            )
        } else {
            escape(r.id)
        };
        let _ = writeln!(
            out,
            "<tr><td><span class=\"badge {class}\">{word}</span></td><td><code>{id}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            prose(title(r.id)),
            r.tier.map(|t| t.to_string()).unwrap_or_else(|| "—".into()),
            match r.masked_note() {
                Some(note) => format!("{} ({})", r.exercised, escape(&note)),
                None => r.exercised.to_string(),
            },
            r.failures,
            r.warnings
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

fn coverage_table(out: &mut String, p: &ProfileReport) {
    let low = p.coverage.iter().filter(|l| l.count < l.minimum).count();
    let _ = writeln!(
        out,
        "<details{}>\n<summary>Coverage labels the run reached: {} of {} at their minimum{}</summary>\n<table class=\"coverage\">\n<thead><tr><th>status</th><th>label</th><th>cases</th><th>minimum</th></tr></thead>\n<tbody>",
        if low > 0 { " open" } else { "" },
        p.coverage.len() - low,
        p.coverage.len(),
        if low > 0 {
            format!(", {low} too low (raise --cases)")
        } else {
            String::new()
        }
    );
    for l in &p.coverage {
        let (word, class) = if l.count < l.minimum {
            ("too low", "s-fail")
        } else {
            ("reached", "s-pass")
        };
        let _ = writeln!(
            out,
            "<tr><td><span class=\"badge {class}\">{word}</span></td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            escape(l.name),
            l.count,
            l.minimum
        );
    }
    out.push_str("</tbody>\n</table>\n</details>\n");
}

fn finding_line(f: &Finding) -> String {
    format!(
        "<code>{}</code>{}: {}",
        escape(f.requirement),
        at_log(f.position),
        prose(&f.message)
    )
}

fn failure_article(out: &mut String, profile: Profile, f: &Failure) {
    let p = profile.to_string();
    let id = anchor(&["case", &p, f.requirement]);
    let (word, class) = if f.finding.error {
        ("FAIL", "s-fail")
    } else {
        ("WARN", "s-warn")
    };
    let _ = writeln!(
        out,
        "<article class=\"failure{}\" id=\"{id}\">\n<h3><span class=\"badge {class}\">{word}</span> {} — {} [{p}]</h3>",
        if f.finding.error { "" } else { " warning" },
        escape(f.requirement),
        prose(title(f.requirement))
    );
    let _ = writeln!(
        out,
        "<p class=\"headline\">{}</p>",
        finding_line(&f.finding)
    );
    if let Some(primary) = f.attributed_to {
        let words = attribution(
            &escape(f.requirement),
            &format!("<code>{}</code>", escape(primary)),
        );
        let _ = writeln!(
            out,
            "<p>{}, listed first under “also on this case”.</p>",
            sentence(&words)
        );
    }
    let origin = case_origin(f);
    if f.from_corpus {
        let _ = writeln!(
            out,
            "<p>Case <code>{}</code>, {origin}.</p>",
            escape(&f.case_id)
        );
    } else {
        let _ = writeln!(
            out,
            "<p>Case <code>{}</code>: {origin}.</p>",
            escape(&f.case_id)
        );
    }
    out.push_str("<h4>Replay</h4>\n");
    match &f.case_file {
        Some(_) => {
            let _ = writeln!(
                out,
                "<pre class=\"replay\"><code>{}</code></pre>",
                escape(&f.replay)
            );
        }
        None => {
            let _ = writeln!(
                out,
                "<p>Save the minimal script below as <code>{UNSAVED_CASE_FILE}</code>, then:</p>\n<pre class=\"replay\"><code>{}</code></pre>",
                escape(&f.replay)
            );
        }
    }
    if let Some(leak) = &f.leak {
        let _ = writeln!(
            out,
            "<p><strong>State leaks between cases:</strong> this case passes when run alone in a fresh process (so the replay above passes); it failed only after other cases ran in the same process. Look for state kept from case to case (a class attribute, a global, a module-level counter or cache).</p>"
        );
        let _ = writeln!(
            out,
            "<p>{} (the run's cases through this one, {} per profile, in one process):</p>\n<pre><code>{}</code></pre>",
            if leak.reproduced {
                "Reproduce"
            } else {
                "This did not reproduce it in one process; rerun the whole run with -j 1"
            },
            leak.cases,
            escape(&leak.sequence)
        );
    }
    timelines(out, &id, &f.case, f);
    if !f.also.is_empty() {
        let _ = writeln!(
            out,
            "<details>\n<summary>Also on this case: {} more finding{}</summary>\n<ul>",
            f.also.len(),
            if f.also.len() == 1 { "" } else { "s" }
        );
        for (k, a) in f.also.iter().enumerate() {
            let kind = match f.masked_also(k) {
                Some(by) => format!("(not judged here: a consequence of {}) ", escape(by)),
                None if a.error => String::new(),
                None => "(warning) ".to_owned(),
            };
            let _ = writeln!(out, "<li>{kind}{}</li>", finding_line(a));
        }
        out.push_str("</ul>\n</details>\n");
    }
    let script = super::json_layout::layout(&f.case.to_string());
    let lines = script.lines().count();
    let _ = writeln!(
        out,
        "<details{} class=\"script\">\n<summary>Minimal script ({lines} lines of JSON)</summary>\n<pre><code>{}</code></pre>\n</details>",
        if lines <= SCRIPT_OPEN_LINES {
            " open"
        } else {
            ""
        },
        escape(&script)
    );
    let labels = labels_of(&f.case);
    let _ = writeln!(
        out,
        "<p>Coverage labels this script reaches: {}</p>",
        if labels.is_empty() {
            "none".to_owned()
        } else {
            labels
                .iter()
                .map(|l| format!("<code>{}</code>", escape(l)))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    if !f.stderr.is_empty() {
        let _ = writeln!(
            out,
            "<details>\n<summary>Standard error of the implementation during the case</summary>\n<pre>{}</pre>\n</details>",
            escape(&f.stderr)
        );
    }
    out.push_str("</article>\n");
}

/// What the embedded reference implementation records for `case`: the expected side.
fn expected_observation(case: &Case) -> Result<Observation, String> {
    in_process::<ReferenceLoop>("reference (embedded)")
        .run_case(case)
        .map_err(|e| e.0)
}

/// The steering texts of a script, which tell a steer's record from a prompt's.
fn steering_texts(case: &Case) -> Vec<&str> {
    case.script
        .actions
        .iter()
        .filter_map(|a| match a {
            crate::scenario::Action::Prompt { calls, .. } => Some(calls),
            _ => None,
        })
        .flatten()
        .flat_map(|c| c.steer.iter().map(|s| s.text.as_str()))
        .collect()
}

fn cells(out: &mut String, row: Option<&Row>, gap: &str) {
    match row {
        Some(r) => {
            let num = match (r.index, r.at) {
                (Some(i), _) => format!("#{i}"),
                (None, Some(at)) => format!("@{at}"),
                (None, None) => String::new(),
            };
            let n = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
            let _ = write!(
                out,
                "<td>{num}</td><td><span class=\"k k-{0}\">{0}</span></td><td>{1}</td><td>{2}</td><td><code>{3}</code></td><td class=\"detail\">{4}</td>",
                r.kind.label(),
                n(r.turn),
                n(r.step),
                escape(&r.name),
                escape(&r.detail)
            );
        }
        None => {
            let _ = write!(out, "<td colspan=\"6\" class=\"gap\">{gap}</td>");
        }
    }
}

fn timelines(out: &mut String, id: &str, case: &Case, f: &Failure) {
    out.push_str("<h4>Timelines: expected and observed</h4>\n");
    let steering = steering_texts(case);
    let expected = match expected_observation(case) {
        Ok(obs) => timeline(&obs, &steering),
        Err(e) => {
            let _ = writeln!(
                out,
                "<p>The reference implementation could not play this script, so there is no expected timeline: {}</p>",
                escape(&e)
            );
            Vec::new()
        }
    };
    let observed = timeline(&f.observed, &steering);
    let live =
        requirement(f.requirement).is_some_and(|r| matches!(r.area, Area::Mirror | Area::Live));
    let first = divergence_row(&observed, f.finding.position, live, &f.finding.message);
    let pairs = align(&expected, &observed);
    if !aligns_by_content(expected.len(), observed.len()) {
        let _ = writeln!(
            out,
            "<p>These timelines are too long to align by what each event says: their rows are paired by position.</p>"
        );
    }
    // Where the first divergence goes: at the observed row the finding names (or the rows
    // missing right around it); else (something missing at the end) the first row the two
    // sides disagree on at or after its position.
    let finding_pair = first.and_then(|o| pairs.iter().position(|(_, ob)| *ob == Some(o)));
    let first_pair = match finding_pair {
        Some(k) => Some(first_divergence(&pairs, k)),
        None => {
            let from = f.finding.position.unwrap_or(0);
            pairs
                .iter()
                .position(|(e, o)| {
                    (e.is_none() || o.is_none())
                        && e.and_then(|e| expected[e].index)
                            .or_else(|| o.and_then(|o| observed[o].index))
                            .is_none_or(|i| i as u64 >= from)
                })
                .or_else(|| pairs.iter().position(|(e, o)| e.is_none() || o.is_none()))
        }
    };
    let div = format!("{id}-first-divergence");
    let _ = writeln!(
        out,
        "<p class=\"legend\">Expected: what the embedded reference implementation records for the minimal script. Observed: what the implementation recorded. One row per event: durable events by log index (<code>#n</code>), live events after the durable event they followed (<code>@n</code>: the log's length when emitted). Rows that say the same are side by side; “only expected” and “only observed” rows have no counterpart on the other side, which is not by itself a violation (an implementation may record more events than the reference, a plugin's or extra live events): the headline says what breaks the spec. {}</p>",
        match first_pair {
            Some(_) => format!(
                "The <a href=\"#{div}\">first divergence</a> is marked “◆ first divergence” (and the row at the finding's log position, when it is another one, “the finding's log #n”)."
            ),
            None =>
                "No row differs: the finding is about what the events carry (see the headline)."
                    .to_owned(),
        }
    );
    let rows = Rows {
        expected: &expected,
        observed: &observed,
        pairs: &pairs,
        first: first_pair,
        finding: finding_pair.filter(|k| Some(*k) != first_pair),
        position: f.finding.position,
        anchor: &div,
    };
    // The rows well before the first divergence are folded, so that it shows without scrolling
    // through a long run-up; so are the rows far after it.
    let from = first_pair
        .filter(|k| *k > CONTEXT_ROWS * 2)
        .map_or(0, |k| k - CONTEXT_ROWS);
    let to = pairs.len().min(from + TIMELINE_OPEN_ROWS);
    if from > 0 {
        let _ = writeln!(
            out,
            "<details class=\"before\">\n<summary>Rows 1–{from}, before the first divergence (open to read)</summary>"
        );
        rows.table(out, 0..from);
        out.push_str("</details>\n");
    }
    rows.table(out, from..to);
    let last = pairs.len().min(to + FOLDED_ROWS);
    if to < last {
        let _ = writeln!(
            out,
            "<details class=\"after\">\n<summary>Rows {}–{last} (open to read)</summary>",
            to + 1,
        );
        rows.table(out, to..last);
        out.push_str("</details>\n");
    }
    if last < pairs.len() {
        let _ = writeln!(
            out,
            "<p>{} more rows are left out of this page: <code>mirrorless replay CASE.json --log</code> prints the observed log and trace whole.</p>",
            pairs.len() - last
        );
    }
}

/// The aligned rows of one counterexample, written as one or more tables of the same columns.
struct Rows<'a> {
    expected: &'a [Row],
    observed: &'a [Row],
    pairs: &'a [(Option<usize>, Option<usize>)],
    first: Option<usize>,
    /// The row the finding's position names, when the first divergence is another row.
    finding: Option<usize>,
    position: Option<u64>,
    anchor: &'a str,
}

impl Rows<'_> {
    fn table(&self, out: &mut String, range: std::ops::Range<usize>) {
        out.push_str(
            "<table class=\"timeline\">\n<colgroup><col class=\"mark\"><col class=\"num\"><col class=\"kind\"><col class=\"ts\"><col class=\"ts\"><col class=\"name\"><col><col class=\"num\"><col class=\"kind\"><col class=\"ts\"><col class=\"ts\"><col class=\"name\"><col></colgroup>\n\
             <thead><tr><th rowspan=\"2\">mark</th><th colspan=\"6\" class=\"side\">expected (reference)</th><th colspan=\"6\" class=\"side\">observed (implementation)</th></tr>\n\
             <tr><th>#</th><th>kind</th><th>turn</th><th>step</th><th>event</th><th>detail</th><th>#</th><th>kind</th><th>turn</th><th>step</th><th>event</th><th>detail</th></tr></thead>\n<tbody>\n",
        );
        if self.pairs.is_empty() {
            out.push_str(
                "<tr><td colspan=\"13\" class=\"gap\">both sides recorded nothing</td></tr>\n",
            );
        }
        for k in range {
            let (e, o) = self.pairs[k];
            let (attrs, mark) = if self.first == Some(k) {
                (
                    format!(" id=\"{}\" class=\"first\"", self.anchor),
                    "◆ first divergence".to_owned(),
                )
            } else if self.finding == Some(k) {
                (
                    " class=\"finding\"".to_owned(),
                    format!(
                        "the finding's log #{}",
                        self.position.map(|p| p.to_string()).unwrap_or_default()
                    ),
                )
            } else {
                match (e, o) {
                    (Some(_), None) => (" class=\"only\"".to_owned(), "only expected".to_owned()),
                    (None, Some(_)) => (" class=\"only\"".to_owned(), "only observed".to_owned()),
                    _ => (String::new(), String::new()),
                }
            };
            let _ = write!(out, "<tr{attrs}><td class=\"mark\">{mark}</td>");
            cells(
                out,
                e.map(|i| &self.expected[i]),
                "— not in the reference —",
            );
            cells(out, o.map(|i| &self.observed[i]), "— not recorded —");
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_leaves_no_markup() {
        let hostile = "</script><img src=x onerror=alert(1)>\"'&\u{7}";
        let e = escape(hostile);
        assert_eq!(
            e,
            "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;\\u{7}"
        );
    }

    const HOSTILE: &str = "</script><img src=x onerror=alert(1)><!--";

    /// A report whose every user-controlled string is hostile markup: the implementation's
    /// name, the script's prompt, the recorded events and live names, the finding, the replay
    /// command and stderr.
    fn hostile_report() -> RunReport {
        let case: Case = serde_json::from_value(serde_json::json!({
            "profile": "2026-08",
            "script": {"actions": [{"action": "prompt", "text": HOSTILE, "calls": [{"chunks": [
                {"type": "block-start", "index": 0, "blockType": "text"},
                {"type": "text-delta", "index": 0, "text": HOSTILE},
                {"type": "finish", "reason": {"kind": "stop"}}
            ]}]}]}
        }))
        .expect("a case");
        let event = |v: serde_json::Value| -> crate::vocab::durable::SessionEvent {
            serde_json::from_value(v).expect("an event")
        };
        let observed = Observation {
            log: vec![
                event(
                    serde_json::json!({"type": format!("x/{HOSTILE}"), "data": {"turn": 1, HOSTILE: HOSTILE}}),
                ),
                event(
                    serde_json::json!({"type": "assistant/chunk", "data": {"turn": 1, "step": 1,
                    "chunk": {"type": "text-delta", "index": 0, "text": HOSTILE}}}),
                ),
                event(
                    serde_json::json!({"type": "user/message", "data": {"content": [{"type": "text", "text": HOSTILE}],
                    "source": {"kind": HOSTILE}}}),
                ),
            ],
            live: vec![crate::vocab::live::LiveEmit {
                event: format!("agent/{HOSTILE}"),
                agent: Some(HOSTILE.into()),
                data: serde_json::json!({"k": HOSTILE}),
                at: Some(1),
            }],
            ..Observation::default()
        };
        let finding = Finding {
            requirement: "CHUNK-1",
            error: true,
            position: Some(1),
            message: format!("`{HOSTILE}` and {HOSTILE}"),
            expected: vec![HOSTILE.into()],
            observed: vec![HOSTILE.into()],
            origin: crate::oracle::Origin::Oracle,
        };
        let failure = Failure {
            requirement: "CHUNK-1",
            attributed_to: None,
            case_id: case.id(),
            case: case.clone(),
            finding: finding.clone(),
            also: vec![finding],
            masked: Vec::new(),
            original: case,
            original_chunks: 3,
            shrunk_chunks: 3,
            shrink_steps: 0,
            shrink_bounded: false,
            from_corpus: true,
            case_file: Some(format!("{HOSTILE}.json")),
            replay: format!("mirrorless replay {HOSTILE}"),
            stderr: HOSTILE.into(),
            leak: Some(crate::suite::StateLeak {
                sequence: HOSTILE.into(),
                cases: 1,
                reproduced: true,
            }),
            observed,
        };
        RunReport {
            implementation: HOSTILE.into(),
            hello: crate::stdio::message::Implementation {
                name: HOSTILE.into(),
                version: Some(HOSTILE.into()),
                ..Default::default()
            },
            seed: 1,
            ci: true,
            partition: None,
            deny_warnings: false,
            profiles: vec![ProfileReport {
                profile: Profile::V2026_08,
                generated: 1,
                replayed: 0,
                failed_cases: 1,
                warned_cases: 0,
                faulted_cases: 0,
                seconds: 0.0,
                cases_per_second: 0.0,
                requirements: Vec::new(),
                coverage: Vec::new(),
                failures: vec![failure],
                warnings: Vec::new(),
                deny_warnings: false,
                partition: None,
                whole_run_generated: 1,
                whole_run_replayed: 0,
                case_ids: Default::default(),
            }],
            problems: vec![HOSTILE.into()],
        }
    }

    #[test]
    fn hostile_payloads_are_text_never_markup() {
        let html = render_html(&hostile_report());
        assert!(!html.contains("<script"), "no script element: {html}");
        assert!(!html.contains("<img"), "no img element");
        assert!(!html.contains("<!--"), "no comment opened");
        assert!(html.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&lt;!--"));
        // Every tag in the page is one the renderer writes itself.
        let allowed = [
            "!DOCTYPE", "html", "head", "meta", "title", "style", "body", "header", "h1", "h2",
            "h3", "h4", "p", "span", "strong", "code", "pre", "nav", "ul", "li", "a", "section",
            "table", "caption", "thead", "tbody", "tr", "th", "td", "details", "summary",
            "article", "colgroup", "col",
        ];
        for (i, _) in html.match_indices('<') {
            let name: String = html[i + 1..]
                .trim_start_matches('/')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '!')
                .collect();
            assert!(
                allowed.contains(&name.as_str()),
                "unexpected tag <{name} at byte {i}"
            );
        }
    }

    #[test]
    fn a_huge_observed_log_leaves_rows_out_with_a_note() {
        let mut report = hostile_report();
        let f = &mut report.profiles[0].failures[0];
        let chunk: crate::vocab::durable::SessionEvent = serde_json::from_value(serde_json::json!({
            "type": "assistant/chunk",
            "data": {"turn": 1, "step": 1, "chunk": {"type": "text-delta", "index": 0, "text": "x"}}
        }))
        .expect("an event");
        f.observed.log = vec![chunk; 20_000];
        let html = render_html(&report);
        let shown = html.matches("<td>#").count();
        assert!(shown < 6_000, "{shown} rows on the page");
        assert!(html.contains("more rows are left out of this page"));
    }

    /// The sentences on how a counterexample's case was found, in the human, Markdown and HTML
    /// reports: replayed from the corpus, shrunk (to the bound or not), attributed elsewhere.
    #[test]
    fn every_format_says_how_the_case_was_found() {
        let variants: [(bool, bool, Option<&'static str>, [&str; 3]); 3] = [
            (
                true,
                false,
                None,
                [
                    "  case {id} (replayed from the corpus)\n",
                    "Case {id} (replayed from the corpus).\n\n",
                    "<p>Case <code>{id}</code>, replayed from the corpus.</p>\n",
                ],
            ),
            (
                false,
                false,
                None,
                [
                    "  case {id}: shrunk from 9 to 3 chunks and actions in 5 steps\n",
                    "Case {id}: shrunk from 9 to 3 chunks and actions in 5 steps.\n\n",
                    "<p>Case <code>{id}</code>: shrunk from 9 to 3 chunks and actions in 5 steps.</p>\n",
                ],
            ),
            (
                false,
                true,
                Some("CHUNK-3"),
                [
                    "  case {id}: shrunk from 9 to 3 chunks and actions in 5 steps (stopped at the shrink bound)\n  (shrunk for CHUNK-1; this case is attributed to CHUNK-3, listed first below)\n  CHUNK-1 at log #1: ",
                    "Case {id}: shrunk from 9 to 3 chunks and actions in 5 steps (stopped at the shrink bound).\n\nShrunk for CHUNK-1; this case is attributed to CHUNK-3.\n\n",
                    "<p>Shrunk for CHUNK-1; this case is attributed to <code>CHUNK-3</code>, listed first under “also on this case”.</p>\n<p>Case <code>{id}</code>: shrunk from 9 to 3 chunks and actions in 5 steps (stopped at the shrink bound).</p>\n",
                ],
            ),
        ];
        for (from_corpus, bounded, attributed_to, [human, md, html]) in variants {
            let mut report = hostile_report();
            let f = &mut report.profiles[0].failures[0];
            f.from_corpus = from_corpus;
            f.shrink_bounded = bounded;
            f.attributed_to = attributed_to;
            f.original_chunks = 9;
            f.shrunk_chunks = 3;
            f.shrink_steps = 5;
            let id = f.case_id.clone();
            let text = crate::report::render_failure(Profile::V2026_08, f, true);
            assert!(text.contains(&human.replace("{id}", &id)), "{text}");
            let text = crate::report::render_markdown(&report, &Default::default());
            assert!(text.contains(&md.replace("{id}", &id)), "{text}");
            let text = render_html(&report);
            assert!(text.contains(&html.replace("{id}", &id)), "{text}");
        }
    }

    #[test]
    fn anchors_keep_only_safe_characters() {
        assert_eq!(
            anchor(&["case", "2026-08", "CHUNK-1"]),
            "case-2026-08-CHUNK-1"
        );
        assert_eq!(anchor(&["a\"><b"]), "a---b");
    }
}
