//! `mirrorless check`: validate recorded session logs and live traces.

mod markdown;

use clap::{Args, ValueEnum};
use mirrorless_conformance::Profile;
use mirrorless_conformance::check::{
    CheckOutcome, Finding, LogChecker, ReadOptions, Severity, check_live_reader_with,
    detect_profile, escape_control,
};
use mirrorless_conformance::input::{self, Origin};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufReader, Read};
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
    /// A Markdown job summary (for $GITHUB_STEP_SUMMARY), at most 1 MiB.
    Markdown,
}

/// Arguments of `mirrorless check`.
#[derive(Debug, Args)]
#[command(after_help = "\
Each LOG is a session log: a header line ({\"type\":\"session\", …}), then one event per line.
A DIR is searched for *.jsonl logs (honouring .gitignore and .ignore files, like lint; a file
whose first record has an `event` and no `type` is checked as a live trace); a directory
holding none is an error. Logs are checked independently and in parallel; the report
lists them in a stable order (arguments in order, each directory's logs sorted by path). Without --profile, each log's profile is detected from its
first MiB (2026-08 markers such as request/header or packed chunk rows win; with no marker the
current profile, 2026-08, is assumed); --profile always wins.

Exit status: 0 when every log (and the trace) conforms; 1 when any violates a MUST
requirement (malformed content counts), or has a SHOULD finding under --deny-warnings;
2 on a usage error or when a file cannot be read (2 wins over 1; the other files are
still checked and reported).

Examples:
  mirrorless check session.jsonl
  mirrorless check --profile 2026-07 tests/snapshots/*/session*.jsonl
  mirrorless check .mirrorless/sessions/          every *.jsonl below the directory
  mirrorless check --live trace.jsonl session.jsonl
  mirrorless check --format json session.jsonl | jq '.summary'
  mirrorless check --summary \"$GITHUB_STEP_SUMMARY\" logs/   and a Markdown job summary
  zcat session.jsonl.gz | mirrorless check -
  mirrorless explain CHUNK-2          what a reported rule means")]
pub struct CheckArgs {
    /// Session logs (JSONL: a header line, then one event per line), or directories to search
    /// for `*.jsonl` logs; `-` reads standard input.
    #[arg(required = true, value_name = "LOG|DIR")]
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
    #[command(flatten)]
    pub color: super::ColorArg,
    /// Exit 1 on a SHOULD finding (a warning) too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Also append the Markdown job summary (--format markdown) to FILE, e.g.
    /// "$GITHUB_STEP_SUMMARY"; the report on standard output and the exit status stay as they
    /// are.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// Threads (default: one per core). Logs are checked side by side; with fewer logs than
    /// threads, each log is read and its chunk lines scanned on a second thread while the
    /// first checks them in order (the report is the same). `-j 1` uses one thread.
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
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
    /// The name as given or found; a name that is not UTF-8 is written losslessly escaped
    /// (see [`report_path`]) and its exact bytes are in `path_bytes`.
    path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    path_bytes: Option<Vec<u8>>,
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
    /// Excerpts of the lines around the first findings, kept while the file was read.
    #[serde(skip)]
    context: BTreeMap<u64, String>,
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
    // The human report shows context lines, kept during the single pass over each input.
    let options = ReadOptions {
        context_findings: match args.format {
            CheckFormat::Human => HUMAN_DETAIL_LIMIT,
            CheckFormat::Json | CheckFormat::Markdown => 0,
        },
        context_width: WINDOW_WIDTH,
        ..ReadOptions::default()
    };
    let inputs: Vec<Input> = args.logs.iter().flat_map(|p| expand(p)).collect();
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    // A second thread per log only when there are threads to spare.
    let pipelined = inputs.len() < jobs;
    let check = |input: Input| match input {
        Input::Log(path) => check_log(&path, args.profile, &options, pipelined),
        Input::Live(path) => check_trace(&path, args.profile, &options),
        Input::Failed(report) => *report,
    };
    // `collect` on an indexed parallel iterator keeps the input order.
    let pool = (jobs > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(jobs)
                .build()
                .ok()
        })
        .flatten();
    let mut files: Vec<FileReport> = match pool {
        Some(pool) => pool.install(|| inputs.into_par_iter().map(check).collect()),
        None => inputs.into_iter().map(check).collect(),
    };
    if let Some(live) = &args.live {
        files.push(check_trace(live, args.profile, &options));
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
            // No raw C1 or bidirectional control from a file name or a line's text.
            Ok(s) => mirrorless_lint::render::json_controls_escaped(s) + "\n",
            Err(e) => return super::fail(format!("cannot serialize the report: {e}")),
        },
        CheckFormat::Human => render_human(&report, args.color.enabled()),
        CheckFormat::Markdown => markdown::render(&report, &super::markdown::options()),
    };
    if let Some(path) = &args.summary {
        let options = super::markdown::options();
        super::markdown::append_summary(path, |limit| {
            markdown::render(
                &report,
                &mirrorless_conformance::report::MarkdownOptions {
                    limit,
                    ..options.clone()
                },
            )
        });
    }
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

/// One thing to check, after directories are expanded.
enum Input {
    /// A log file (or `-`).
    Log(PathBuf),
    /// A live-event trace found in a directory (its first record has an `event` and no `type`).
    Live(PathBuf),
    /// An argument that yields no log: a directory without any, or a walk error.
    Failed(Box<FileReport>),
}

/// A LOG argument as inputs: a directory becomes the `*.jsonl` files below it (gitignore-
/// aware, like `lint`; sorted by path), anything else is checked as a log.
fn expand(path: &Path) -> Vec<Input> {
    if path == Path::new("-") || !path.is_dir() {
        return vec![Input::Log(path.to_path_buf())];
    }
    let mut logs = Vec::new();
    let mut failed = Vec::new();
    let walk = ignore::WalkBuilder::new(path)
        .hidden(false)
        .require_git(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    for entry in walk {
        match entry {
            Ok(e) => {
                if e.file_type().is_some_and(|t| t.is_file())
                    && e.path().extension().is_some_and(|x| x == "jsonl")
                {
                    logs.push(e.into_path());
                }
            }
            Err(err) => {
                let at = match &err {
                    ignore::Error::WithPath { path, .. } => path.clone(),
                    _ => path.to_path_buf(),
                };
                let msg = format!("cannot walk {}: {err}", report_path(&at).0);
                failed.push(input_error(&at, "directory", msg));
            }
        }
    }
    if logs.is_empty() && failed.is_empty() {
        let msg = format!(
            "no session logs (*.jsonl) below the directory {} (files excluded by .gitignore or .ignore are not searched)",
            report_path(path).0
        );
        failed.push(input_error(path, "directory", msg));
    }
    logs.sort();
    let mut inputs: Vec<Input> = logs
        .into_iter()
        .map(|p| {
            if is_live_trace(&p) {
                Input::Live(p)
            } else {
                Input::Log(p)
            }
        })
        .collect();
    inputs.extend(failed);
    inputs
}

/// Whether a file found in a directory is a live-event trace rather than a session log: its
/// first line is a record with an `event` and no `type` (a log starts with its `session`
/// header). Only the first 64 KiB are read; anything unreadable is left to the log checker,
/// which names the problem.
fn is_live_trace(path: &Path) -> bool {
    use std::io::{BufRead, Read};
    let Ok(file) = File::open(path) else {
        return false;
    };
    let mut first = Vec::new();
    if BufReader::new(file.take(64 * 1024))
        .read_until(b'\n', &mut first)
        .is_err()
    {
        return false;
    }
    match serde_json::from_slice::<serde_json::Value>(&first) {
        Ok(serde_json::Value::Object(record)) => {
            record.contains_key("event") && !record.contains_key("type")
        }
        _ => false,
    }
}

fn input_error(path: &Path, kind: &'static str, message: String) -> Input {
    let mut report = unreadable_report(path, kind, Profile::DEFAULT, ProfileSource::Default);
    report.error = Some(message);
    Input::Failed(Box::new(report))
}

/// The path as reports show it, and its exact bytes when it is not UTF-8. A UTF-8 name is
/// kept as it is (`-` is `<stdin>`); in any other name each byte that is not part of UTF-8
/// is written `\xHH` and a backslash `\\`, so the text is lossless and `path_bytes` exact.
fn report_path(path: &Path) -> (String, Option<Vec<u8>>) {
    if path == Path::new("-") {
        return ("<stdin>".to_owned(), None);
    }
    let bytes = path.as_os_str().as_encoded_bytes();
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.to_owned(), None);
    }
    let out = mirrorless_lint::source::escape_non_utf8(bytes);
    (out, Some(bytes.to_vec()))
}

fn unreadable(
    path: &Path,
    kind: &'static str,
    profile: Profile,
    source: ProfileSource,
    e: &std::io::Error,
) -> FileReport {
    let mut report = unreadable_report(path, kind, profile, source);
    report.error = Some(format!("cannot read {}: {e}", report.path));
    report
}

fn unreadable_report(
    path: &Path,
    kind: &'static str,
    profile: Profile,
    source: ProfileSource,
) -> FileReport {
    let (path, path_bytes) = report_path(path);
    FileReport {
        path,
        path_bytes,
        kind,
        status: "unreadable",
        profile,
        profile_source: source,
        profile_marker: None,
        error: None,
        events: 0,
        lines: 0,
        errors: 0,
        warnings: 0,
        requirements: BTreeMap::new(),
        findings: Vec::new(),
        findings_not_shown: 0,
        context: BTreeMap::new(),
    }
}

/// Opens a named input without blocking on it, refusing a device or a socket (`/dev/zero`
/// would be read for ever); a FIFO is read, as a pipe is.
fn open_input(path: &Path) -> std::io::Result<File> {
    input::open(path, Origin::Named).map_err(std::io::Error::other)
}

/// Opens a log: `-` is standard input. Returns the first bytes (for detection, only when
/// `detect` is set) and a reader positioned at the start of the log.
fn open_log(path: &Path, detect: bool) -> std::io::Result<(Vec<u8>, Box<dyn Read + Send>)> {
    let mut input: Box<dyn Read + Send> = if path == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        Box::new(open_input(path)?)
    };
    let mut prefix = Vec::new();
    if detect {
        (&mut input)
            .take(DETECT_PREFIX_BYTES)
            .read_to_end(&mut prefix)?;
    }
    let replay = std::io::Cursor::new(prefix.clone()).chain(input);
    Ok((prefix, Box::new(replay)))
}

fn check_log(
    path: &Path,
    flag: Option<Profile>,
    options: &ReadOptions,
    pipelined: bool,
) -> FileReport {
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
    let checked = if pipelined {
        LogChecker::check_read_pipelined(profile, reader, options)
    } else {
        LogChecker::check_reader_with(
            profile,
            BufReader::with_capacity(256 * 1024, reader),
            options,
        )
    };
    let outcome: CheckOutcome = match checked {
        Ok(o) => o,
        Err(e) => return unreadable(path, "log", profile, source, &e),
    };
    let errors = outcome.error_count();
    let (path, path_bytes) = report_path(path);
    FileReport {
        path,
        path_bytes,
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
        context: outcome.context,
    }
}

fn check_trace(path: &Path, flag: Option<Profile>, options: &ReadOptions) -> FileReport {
    let (profile, source) = match flag {
        Some(p) => (p, ProfileSource::Flag),
        None => (Profile::DEFAULT, ProfileSource::Default),
    };
    let outcome =
        open_input(path).and_then(|f| check_live_reader_with(profile, BufReader::new(f), options));
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => return unreadable(path, "live-trace", profile, source, &e),
    };
    let findings = outcome.findings;
    let warnings = findings
        .iter()
        .filter(|f| f.severity == Severity::Warning)
        .count() as u64;
    // Suppressed findings count as errors, as for logs.
    let errors = findings.len() as u64 - warnings + outcome.suppressed;
    let (path, path_bytes) = report_path(path);
    FileReport {
        path,
        path_bytes,
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
        events: outcome.emits,
        lines: outcome.lines,
        errors,
        warnings,
        requirements: count_requirements(&findings),
        findings,
        findings_not_shown: outcome.suppressed,
        context: outcome.context,
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

/// Renders the human report. Every text that comes from the input (messages quoting it, the
/// expected/observed pair, file names) is written with its control characters escaped, so
/// an input cannot drive the terminal or forge a line of the report.
fn render_human(report: &Report, color: bool) -> String {
    let st = Style { color };
    let mut out = String::new();
    for file in &report.files {
        let path = escape_control(&file.path);
        if let Some(e) = &file.error {
            let e = escape_control(e);
            let _ = writeln!(out, "{}: {e}\n", st.paint("1;31", "error"));
            continue;
        }
        let lines = &file.context;
        for f in file.findings.iter().take(HUMAN_DETAIL_LIMIT) {
            let (label, code) = match f.severity {
                Severity::Error => ("error", "1;31"),
                Severity::Warning => ("warning", "1;33"),
            };
            let _ = writeln!(
                out,
                "{}: {}",
                st.paint(code, &format!("{label}[{}]", f.requirement)),
                st.paint("1", &escape_control(&f.message))
            );
            let location = match (f.line, f.seq) {
                (Some(l), Some(s)) => format!("{path}:{l} (seq {s})"),
                (Some(l), None) => format!("{path}:{l}"),
                (None, _) => path.to_string(),
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
                let _ = writeln!(out, "   = expected: {}", escape_control(e));
                let _ = writeln!(out, "   = observed: {}", escape_control(o));
            }
            let _ = writeln!(out, "   = help: `mirrorless explain {}`\n", f.requirement);
        }
        let hidden =
            file.findings.len().saturating_sub(HUMAN_DETAIL_LIMIT) as u64 + file.findings_not_shown;
        if hidden > 0 {
            let _ = writeln!(
                out,
                "… and {hidden} more findings in {path} (use --format json for all)\n"
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
            "{path}: {verdict} ({} error{}, {} warning{}{rules}; {what}; {profile_note})",
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
