//! `mirrorless check`: validate recorded session logs and live traces.

use clap::{Args, ValueEnum};
use mirrorless_conformance::Profile;
use mirrorless_conformance::check::{
    CheckOutcome, Finding, LogChecker, Severity, check_live_reader, detect_profile,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How many bytes of a log profile detection looks at.
const DETECT_PREFIX_BYTES: u64 = 1 << 20;
/// How many findings per file the human report shows in full (with a window).
const HUMAN_DETAIL_LIMIT: usize = 50;
/// Width to which window lines are clipped.
const WINDOW_WIDTH: usize = 110;

/// Output format of `mirrorless check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// rustc-like diagnostics with a window of the surrounding events.
    Human,
    /// One JSON document (see docs/check/report-format.md).
    Json,
}

/// Arguments of `mirrorless check`.
#[derive(Debug, Args)]
#[command(after_help = "\
Each LOG is a session log: a header line ({\"type\":\"session\", …}), then one event per line.
Logs are checked independently. Without --profile, each log's profile is detected from its
first MiB (2026-08 markers such as request/header or packed chunk rows win; with no marker the
current profile, 2026-08, is assumed); --profile always wins.

Exit status: 0 when every log (and the trace) conforms; 1 when any violates a MUST
requirement (malformed content counts), or has a SHOULD finding under --deny-warnings;
2 on a usage error or when a file cannot be read (2 wins over 1; the other files are
still checked and reported).

Examples:
  mirrorless check session.jsonl
  mirrorless check --profile 2026-07 tests/snapshots/*/session*.jsonl
  mirrorless check --live trace.jsonl session.jsonl
  mirrorless check --format json session.jsonl | jq '.summary'
  zcat session.jsonl.gz | mirrorless check -
  mirrorless explain CHUNK-2          what a reported rule means")]
pub struct CheckArgs {
    /// Session logs (JSONL: a header line, then one event per line); `-` reads standard input.
    #[arg(required = true, value_name = "LOG")]
    pub logs: Vec<PathBuf>,
    /// Protocol profile to check against [default: detected per log].
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<Profile>,
    /// Also check a live-event trace (JSONL of {"event", "agent"?, "data"?, "at"?} records;
    /// schema in docs/schemas/live-trace.schema.json). Checked under --profile, or 2026-08.
    #[arg(long, value_name = "FILE")]
    pub live: Option<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: CheckFormat,
    /// When to color the human report (NO_COLOR is honoured in auto mode).
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub color: super::ColorChoice,
    /// Exit 1 on a SHOULD finding (a warning) too.
    #[arg(long)]
    pub deny_warnings: bool,
}

/// Where the profile of a file came from.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "lowercase")]
enum ProfileSource {
    Flag,
    Detected,
    Default,
}

/// The result for one input file.
#[derive(Debug, Serialize)]
struct FileReport {
    path: String,
    kind: &'static str,
    status: &'static str,
    profile: Profile,
    profile_source: ProfileSource,
    #[serde(skip_serializing_if = "Option::is_none")]
    profile_marker: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    events: u64,
    lines: u64,
    errors: u64,
    warnings: u64,
    /// Findings per requirement ID (kept findings only).
    requirements: BTreeMap<&'static str, u64>,
    findings: Vec<Finding>,
    findings_not_shown: u64,
}

#[derive(Debug, Default, Serialize)]
struct Summary {
    files: u64,
    conforming: u64,
    violating: u64,
    unreadable: u64,
    errors: u64,
    warnings: u64,
}

#[derive(Debug, Serialize)]
struct Report {
    tool: &'static str,
    version: &'static str,
    spec_version: &'static str,
    profile: Option<Profile>,
    files: Vec<FileReport>,
    summary: Summary,
    exit_code: u8,
}

/// Runs `mirrorless check`.
pub fn run(args: CheckArgs) -> ExitCode {
    let mut files = Vec::new();
    for path in &args.logs {
        files.push(check_log(path, args.profile));
    }
    if let Some(live) = &args.live {
        files.push(check_trace(live, args.profile));
    }
    let mut summary = Summary::default();
    for f in &files {
        summary.files += 1;
        summary.errors += f.errors;
        summary.warnings += f.warnings;
        match f.status {
            "unreadable" => summary.unreadable += 1,
            "violating" => summary.violating += 1,
            _ => summary.conforming += 1,
        }
    }
    let exit_code = if summary.unreadable > 0 {
        super::EXIT_ERROR
    } else if summary.violating > 0 || (args.deny_warnings && summary.warnings > 0) {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    };
    let report = Report {
        tool: "mirrorless",
        version: env!("CARGO_PKG_VERSION"),
        spec_version: mirrorless_conformance::SPEC_VERSION,
        profile: args.profile,
        files,
        summary,
        exit_code,
    };
    let text = match args.format {
        CheckFormat::Json => match serde_json::to_string_pretty(&report) {
            Ok(mut s) => {
                s.push('\n');
                s
            }
            Err(e) => return super::fail(format!("cannot serialize the report: {e}")),
        },
        CheckFormat::Human => render_human(&report, args.color.enabled()),
    };
    if !super::print_out(&text) {
        return ExitCode::from(super::EXIT_ERROR);
    }
    ExitCode::from(exit_code)
}

/// How many findings name each requirement.
fn count_requirements(findings: &[Finding]) -> BTreeMap<&'static str, u64> {
    let mut counts = BTreeMap::new();
    for f in findings {
        *counts.entry(f.requirement).or_insert(0) += 1;
    }
    counts
}

/// The path as reports show it; standard input is `<stdin>`.
fn display_path(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}

fn unreadable(
    path: &Path,
    kind: &'static str,
    profile: Profile,
    source: ProfileSource,
    e: &std::io::Error,
) -> FileReport {
    FileReport {
        path: path.display().to_string(),
        kind,
        status: "unreadable",
        profile,
        profile_source: source,
        profile_marker: None,
        error: Some(format!("cannot read {}: {e}", path.display())),
        events: 0,
        lines: 0,
        errors: 0,
        warnings: 0,
        requirements: BTreeMap::new(),
        findings: Vec::new(),
        findings_not_shown: 0,
    }
}

/// Opens a log: `-` is standard input. Returns the first bytes (for detection, only when
/// `detect` is set) and a reader positioned at the start of the log.
fn open_log(path: &Path, detect: bool) -> std::io::Result<(Vec<u8>, Box<dyn BufRead>)> {
    let mut input: Box<dyn Read> = if path == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        Box::new(File::open(path)?)
    };
    let mut prefix = Vec::new();
    if detect {
        (&mut input)
            .take(DETECT_PREFIX_BYTES)
            .read_to_end(&mut prefix)?;
    }
    let replay = std::io::Cursor::new(prefix.clone()).chain(input);
    Ok((
        prefix,
        Box::new(BufReader::with_capacity(256 * 1024, replay)),
    ))
}

fn check_log(path: &Path, flag: Option<Profile>) -> FileReport {
    let (prefix, reader) = match open_log(path, flag.is_none()) {
        Ok(opened) => opened,
        Err(e) => {
            let source = if flag.is_some() {
                ProfileSource::Flag
            } else {
                ProfileSource::Default
            };
            return unreadable(path, "log", flag.unwrap_or(Profile::DEFAULT), source, &e);
        }
    };
    let (profile, source, marker) = match flag {
        Some(p) => (p, ProfileSource::Flag, None),
        None => {
            let d = detect_profile(&prefix);
            match d.marker {
                Some(m) => (d.profile, ProfileSource::Detected, Some(m)),
                None => (d.profile, ProfileSource::Default, None),
            }
        }
    };
    drop(prefix);
    let outcome: CheckOutcome = match LogChecker::check_reader(profile, reader) {
        Ok(o) => o,
        Err(e) => return unreadable(path, "log", profile, source, &e),
    };
    let errors = outcome.error_count();
    FileReport {
        path: display_path(path),
        kind: "log",
        status: if errors > 0 {
            "violating"
        } else {
            "conforming"
        },
        profile,
        profile_source: source,
        profile_marker: marker,
        error: None,
        events: outcome.events,
        lines: outcome.lines,
        errors,
        warnings: outcome.warning_count(),
        findings_not_shown: outcome.suppressed,
        requirements: count_requirements(&outcome.findings),
        findings: outcome.findings,
    }
}

fn check_trace(path: &Path, flag: Option<Profile>) -> FileReport {
    let (profile, source) = match flag {
        Some(p) => (p, ProfileSource::Flag),
        None => (Profile::DEFAULT, ProfileSource::Default),
    };
    let outcome = File::open(path).and_then(|f| check_live_reader(profile, BufReader::new(f)));
    let (findings, lines, emits) = match outcome {
        Ok(o) => (o.findings, o.lines, o.emits),
        Err(e) => return unreadable(path, "live-trace", profile, source, &e),
    };
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count() as u64;
    let warnings = findings.len() as u64 - errors;
    FileReport {
        path: path.display().to_string(),
        kind: "live-trace",
        status: if errors > 0 {
            "violating"
        } else {
            "conforming"
        },
        profile,
        profile_source: source,
        profile_marker: None,
        error: None,
        events: emits,
        lines,
        errors,
        warnings,
        requirements: count_requirements(&findings),
        findings,
        findings_not_shown: 0,
    }
}

struct Style {
    color: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
}

/// Reads the lines a report needs for its windows, clipped.
fn window_lines(path: &Path, wanted: &std::collections::BTreeSet<u64>) -> BTreeMap<u64, String> {
    let mut out = BTreeMap::new();
    if path == Path::new("-") {
        return out; // standard input cannot be read twice
    }
    let Some(&last) = wanted.iter().next_back() else {
        return out;
    };
    let Ok(file) = File::open(path) else {
        return out;
    };
    let mut reader = BufReader::new(file);
    let mut buf = Vec::new();
    let mut n = 0u64;
    while n < last {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        n += 1;
        if wanted.contains(&n) {
            let text = String::from_utf8_lossy(&buf);
            let text = text.trim_end_matches(['\n', '\r']);
            out.insert(n, clip_width(text));
        }
    }
    out
}

fn clip_width(text: &str) -> String {
    if text.chars().count() <= WINDOW_WIDTH {
        return text.to_owned();
    }
    let cut: String = text.chars().take(WINDOW_WIDTH - 1).collect();
    format!("{cut}…")
}

fn render_human(report: &Report, color: bool) -> String {
    use std::fmt::Write as _;
    let st = Style { color };
    let mut out = String::new();
    for file in &report.files {
        if let Some(e) = &file.error {
            let _ = writeln!(out, "{}: {e}\n", st.paint("1;31", "error"));
            continue;
        }
        let shown: Vec<&Finding> = file.findings.iter().take(HUMAN_DETAIL_LIMIT).collect();
        let mut wanted = std::collections::BTreeSet::new();
        for f in &shown {
            if let Some(l) = f.line {
                wanted.extend(l.saturating_sub(1).max(1)..=l + 1);
            }
        }
        let lines = window_lines(Path::new(&file.path), &wanted);
        for f in &shown {
            let (label, code) = match f.severity {
                Severity::Error => ("error", "1;31"),
                Severity::Warning => ("warning", "1;33"),
            };
            let _ = writeln!(
                out,
                "{}: {}",
                st.paint(code, &format!("{label}[{}]", f.requirement)),
                st.paint("1", &f.message)
            );
            let location = match (f.line, f.seq) {
                (Some(l), Some(s)) => format!("{}:{l} (seq {s})", file.path),
                (Some(l), None) => format!("{}:{l}", file.path),
                (None, _) => file.path.clone(),
            };
            let _ = writeln!(out, "  {} {location}", st.paint("1;34", "-->"));
            if let Some(l) = f.line.filter(|l| lines.contains_key(l)) {
                let width = (l + 1).to_string().len();
                let bar = st.paint("1;34", "|");
                let _ = writeln!(out, "{:width$} {bar}", "");
                for n in l.saturating_sub(1).max(1)..=l + 1 {
                    if let Some(text) = lines.get(&n) {
                        let marker = if n == l {
                            st.paint(code, ">")
                        } else {
                            " ".to_owned()
                        };
                        let _ = writeln!(
                            out,
                            "{} {bar}{marker} {text}",
                            st.paint("1;34", &format!("{n:>width$}"))
                        );
                    }
                }
                let _ = writeln!(out, "{:width$} {bar}", "");
            }
            if let (Some(e), Some(o)) = (&f.expected, &f.observed) {
                let _ = writeln!(out, "   = expected: {e}");
                let _ = writeln!(out, "   = observed: {o}");
            }
            let _ = writeln!(out, "   = help: `mirrorless explain {}`\n", f.requirement);
        }
        let hidden =
            file.findings.len().saturating_sub(HUMAN_DETAIL_LIMIT) as u64 + file.findings_not_shown;
        if hidden > 0 {
            let _ = writeln!(
                out,
                "… and {hidden} more findings in {} (use --format json for all)\n",
                file.path
            );
        }
        let profile_note = match (&file.profile_source, file.profile_marker) {
            (ProfileSource::Flag, _) => format!("profile {}", file.profile),
            (ProfileSource::Detected, Some(m)) => {
                format!("profile {}, detected from {m}", file.profile)
            }
            _ => format!("profile {} (default)", file.profile),
        };
        let what = if file.kind == "live-trace" {
            format!("live trace of {} emits", file.events)
        } else {
            format!("{} events", file.events)
        };
        let verdict = if file.errors > 0 {
            st.paint("1;31", "violates")
        } else {
            st.paint("1;32", "conforms")
        };
        let rules = if file.requirements.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = file
                .requirements
                .iter()
                .map(|(id, n)| {
                    if *n == 1 {
                        (*id).to_owned()
                    } else {
                        format!("{id} ×{n}")
                    }
                })
                .collect();
            format!(" [{}]", list.join(", "))
        };
        let _ = writeln!(
            out,
            "{}: {verdict} ({} error{}, {} warning{}{rules}; {what}; {profile_note})",
            file.path,
            file.errors,
            if file.errors == 1 { "" } else { "s" },
            file.warnings,
            if file.warnings == 1 { "" } else { "s" },
        );
        if !out.ends_with("\n\n") {
            out.push('\n');
        }
    }
    let s = &report.summary;
    let _ = writeln!(
        out,
        "checked {} file{}: {} conform, {} violate, {} unreadable; {} error{}, {} warning{} — {}",
        s.files,
        if s.files == 1 { "" } else { "s" },
        s.conforming,
        s.violating,
        s.unreadable,
        s.errors,
        if s.errors == 1 { "" } else { "s" },
        s.warnings,
        if s.warnings == 1 { "" } else { "s" },
        mirrorless_conformance::version_banner(),
    );
    out
}
