//! `mirrorless lint`: find source still using removed mirror events.

use clap::{Args, ValueEnum};
use mirrorless_lint::baseline::Baseline;
use mirrorless_lint::config::Config;
use mirrorless_lint::model::Applicability;
use mirrorless_lint::render::{self, Format};
use mirrorless_lint::{Options, fix, git};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Output format of `mirrorless lint`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LintFormat {
    /// Diagnostics in the style of rustc, with source snippets.
    Human,
    /// One JSON document (docs/lint/json.md).
    Json,
    /// SARIF 2.1.0 for GitHub code scanning.
    Sarif,
    /// GitHub Actions annotations (::error file=…).
    Github,
    /// Reviewdog Diagnostic Format, one JSON document (reviewdog -f=rdjson), with fixes as
    /// suggestions that reviewdog posts as GitHub suggested changes.
    Rdjson,
    /// Reviewdog Diagnostic Format, one diagnostic per line (reviewdog -f=rdjsonl).
    Rdjsonl,
    /// A Markdown job summary (for $GITHUB_STEP_SUMMARY), at most 1 MiB: per rule, per file
    /// (with what --fix can do), then each finding.
    Markdown,
}

use super::ColorArg;

/// Arguments of `mirrorless lint`.
#[derive(Debug, Args)]
#[command(after_help = "\
Rules (mirrorless explain ID prints one in full):
  ML001 subscribe    error    subscription to a removed event
  ML002 emit         error    emit of a removed event
  ML003 declare      error    const/static/typed event/serde rename declaring one
  ML004 reference    error    any other use, directly or through a const/alias/typed event
  ML005 embedded     error    quoted inside a larger string (plugin script, JSON)
  ML006 mention      warning  prose in a string (log message, test title)
  ML007 comment      note     comment or doc comment
  ML008 suppression  warning  unused or malformed `mirrorless: allow(...)`
  ML009 unparsed     note     file does not parse; scanned lexically

Fixes: many findings carry a fix. Machine-applicable ones keep behaviour (delete an emit beside its
durable append, rewrite a subscription whose handler ignores the agent, delete an event-map entry);
suggestions need a reader (the handler uses the agent, prose). --fix applies the machine-applicable
ones in place, --unsafe-fixes adds the suggestions, --diff shows them as a unified diff instead.

Exit status: 0 no error-level finding, 1 error-level findings, 2 usage, configuration or I/O error.
With --fix: 1 when an error-level finding remains that is not the human's part (a test pinning a
removed mirror's own behaviour, listed apart: no fix, its note says what upstream did); with
--diff: 1 when there is a fix to show or --fix would exit 1. --fix and --diff list on stderr
each suggestion applied (--unsafe-fixes: file:line, why it is only a suggestion) and the
findings left for a human.

Examples:
  mirrorless lint                                  lint the current directory
  mirrorless lint crates/ src/main.rs              lint some paths
  mirrorless lint packages/ docs/ README.md        TypeScript, JavaScript and Markdown too
  mirrorless lint --format sarif > lint.sarif      for github/codeql-action/upload-sarif
  mirrorless lint --format github                  annotations in a GitHub Actions log (and, with
                                                   GITHUB_STEP_SUMMARY set, the job summary)
  mirrorless lint --format markdown                the Markdown job summary: per rule, per file, each finding
  mirrorless lint --fix src/                       apply the machine-applicable fixes in place
  mirrorless lint --diff src/                      show them as a unified diff, write nothing
  mirrorless lint --fix --unsafe-fixes src/        apply the suggestions too
  mirrorless lint --format rdjson | reviewdog -f=rdjson -reporter=github-pr-review
  mirrorless lint --write-baseline lint-baseline.json   accept today's findings
  mirrorless lint --baseline lint-baseline.json    fail only on findings not in the baseline
  mirrorless lint --new-since origin/main          only findings new since a revision (code review)
  mirrorless explain ML001                         read a rule

Suppress one site (reason required): // mirrorless: allow(ML001) forwarded to the v1 bridge
Configure in mirrorless.toml ([lint]) or Cargo.toml ([workspace.metadata.mirrorless.lint]); see docs/lint/config.md.")]
pub struct LintArgs {
    /// Files or directories to lint (default: the current directory). Directories are walked
    /// in parallel, honouring .gitignore/.ignore; named files are always linted (unless the
    /// configuration's allow-paths covers them). Reads *.rs, *.ts/*.tsx/*.mts/*.cts,
    /// *.js/*.jsx/*.mjs/*.cjs and *.md/*.markdown/*.mdx.
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: LintFormat,
    /// Configuration file (default: the nearest mirrorless.toml, or Cargo.toml with
    /// [workspace.metadata.mirrorless.lint], in the first path's directory or above, or in the
    /// current directory or above when no path is given).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Ignore configuration files; use the defaults.
    #[arg(long, conflicts_with = "config")]
    pub no_config: bool,
    /// Accept the findings recorded in this baseline; report its stale entries.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write every current finding to this baseline file (and exit 0 unless an I/O error).
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Report only findings that are new since git revision REV (lints REV's tree too).
    #[arg(long, value_name = "REV")]
    pub new_since: Option<String>,
    #[command(flatten)]
    pub color: ColorArg,
    /// Worker threads (default: one per core, plus the command's own, which joins them once
    /// a thread of its own has read the directories).
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Follow symbolic links when walking directories (symlink loops are reported).
    #[arg(short = 'L', long)]
    pub follow: bool,
    /// Apply the machine-applicable fixes in place, repeated until nothing changes; the
    /// report lists what remains. A fix that would break the file's syntax is dropped and
    /// reported; a file that changed on disk meanwhile, or that resolves outside the paths
    /// given, is not written.
    #[arg(long, conflicts_with_all = ["diff", "write_baseline"])]
    pub fix: bool,
    /// Print every fix as a unified diff and write nothing (exit 1 when there is one, or when
    /// --fix would exit 1).
    #[arg(long, conflicts_with = "write_baseline")]
    pub diff: bool,
    /// With --fix or --diff: apply suggestions too (fixes a human should read: the handler
    /// uses the agent, prose is reworded).
    #[arg(long)]
    pub unsafe_fixes: bool,
}

/// Runs `mirrorless lint`.
pub fn run(args: LintArgs) -> ExitCode {
    // Before anything uses rayon: this thread joins a pool whose other threads have a stack
    // deep files fit on, and nothing waits for them to start (`main` joined it already, unless
    // the command line was spelled in a way it does not read; joining again changes nothing).
    // Under `--jobs` the run builds its own pool (with that stack) instead.
    if args.jobs.is_none() {
        mirrorless_lint::join_run_pool();
    }
    let config = if args.no_config {
        Ok(Config {
            root: std::env::current_dir().unwrap_or_default(),
            ..Config::default()
        })
    } else {
        match &args.config {
            Some(path) => Config::load(path),
            // Like the files it configures, the configuration is found from the first path
            // linted (its directory and above), or from the current directory.
            None => {
                let cwd = std::env::current_dir().unwrap_or_default();
                let start = match args.paths.first() {
                    Some(p) if p.is_dir() => p.clone(),
                    Some(p) => p
                        .parent()
                        .filter(|d| !d.as_os_str().is_empty())
                        .map_or_else(|| cwd.clone(), Path::to_path_buf),
                    None => cwd,
                };
                Config::discover(&start)
            }
        }
    };
    let config = match config {
        Ok(c) => c,
        Err(e) => return super::fail(e),
    };
    let baseline = match &args.baseline {
        Some(p) => match Baseline::load(p) {
            Ok(b) => Some(b),
            Err(e) => return super::fail(e),
        },
        None => None,
    };
    let opts = Options {
        paths: args.paths.clone(),
        jobs: args.jobs,
        follow: args.follow,
        config,
    };
    let since = match &args.new_since {
        Some(rev) => match git::baseline_at(rev, &opts) {
            Ok(b) => Some(b),
            Err(e) => return super::fail(e),
        },
        None => None,
    };
    let top = match &since {
        Some(_) => match git::toplevel() {
            Ok(top) => Some(top.canonicalize().unwrap_or(top)),
            Err(e) => return super::fail(e),
        },
        None => None,
    };
    // The baseline and `--new-since` remove the findings the user accepted; `--fix` fixes
    // only what is left.
    let filter = |report: &mut mirrorless_lint::Report| {
        if let Some(b) = &baseline {
            report.apply_baseline(b, str::to_owned);
        }
        if let (Some(b), Some(top)) = (&since, &top) {
            let accepted_before = report.stats.baselined;
            report.apply_baseline(b, |p| {
                if b.findings.iter().any(|e| e.path == p) {
                    p.to_owned()
                } else {
                    git::repo_relative(top, p)
                }
            });
            // Entries that vanished since REV are fixed findings, not a stale baseline.
            report.stale.clear();
            let existing = report.stats.baselined - accepted_before;
            report.stats.baselined = accepted_before;
            report.stats.preexisting = existing;
        }
    };

    if args.fix || args.diff {
        return fix(&args, &opts, &filter);
    }
    let mut report = mirrorless_lint::lint(&opts);

    if let Some(path) = &args.write_baseline {
        if let Err(e) = Baseline::from_findings(&report.findings).write(path) {
            return super::fail(e);
        }
        eprintln!(
            "wrote {} finding(s) to baseline {}",
            report.findings.len(),
            path.display()
        );
        for e in &report.errors {
            eprintln!("error: {e}");
        }
        return ExitCode::from(if report.errors.is_empty() {
            super::EXIT_OK
        } else {
            super::EXIT_ERROR
        });
    }
    filter(&mut report);
    let code = output(&args, &report);
    // The process ends with this command, and its memory with it: freeing the report item by
    // item would only add to the run's wall time (issue 32 item 1).
    std::mem::forget(report);
    code
}

fn format_of(f: LintFormat) -> Format {
    match f {
        LintFormat::Human => Format::Human,
        LintFormat::Json => Format::Json,
        LintFormat::Sarif => Format::Sarif,
        LintFormat::Github => Format::Github,
        LintFormat::Rdjson => Format::Rdjson,
        LintFormat::Rdjsonl => Format::Rdjsonl,
        LintFormat::Markdown => Format::Markdown,
    }
}

/// `--fix` / `--diff`: fix to a fixpoint in memory, then write (or print the diff), then
/// report what remains.
fn fix(args: &LintArgs, opts: &Options, filter: &dyn Fn(&mut mirrorless_lint::Report)) -> ExitCode {
    let options = fix::FixOptions {
        unsafe_fixes: args.unsafe_fixes,
    };
    let mut outcome = fix::run(opts, options, filter);
    let mut dropped_seen = std::collections::HashSet::new();
    for d in &outcome.dropped {
        if dropped_seen.insert((&d.path, d.rule, &d.message)) {
            eprintln!(
                "warning: {}:{}: {} fix dropped, the file would no longer parse: {}",
                d.path, d.line, d.rule, d.message
            );
        }
    }
    let dropped = dropped_seen.len();
    if args.diff {
        let mut text = String::new();
        for f in &outcome.files {
            text.push_str(&fix::diff(f));
        }
        if !super::print_out(&text) {
            return ExitCode::from(super::EXIT_ERROR);
        }
        let fixes: usize = outcome.files.iter().map(|f| f.applied).sum();
        eprintln!(
            "{fixes} fix{} in {} file{} (nothing written){}",
            if fixes == 1 { "" } else { "es" },
            outcome.files.len(),
            if outcome.files.len() == 1 { "" } else { "s" },
            unsafe_hint(&outcome, args.unsafe_fixes),
        );
        for e in &outcome.report.errors {
            eprintln!("error: {e}");
        }
        review_lists(&outcome, false);
        // The same as `--fix` would exit after writing this diff, or 1 when there is a diff
        // to show (docs/lint/README.md#exit-status).
        let code = if !outcome.report.errors.is_empty() {
            super::EXIT_ERROR
        } else if outcome.files.is_empty() && !outcome.report.has_errors_to_fix() {
            super::EXIT_OK
        } else {
            super::EXIT_FINDINGS
        };
        return ExitCode::from(code);
    }
    let mut writer = fix::write::Writer::new(&opts.paths);
    let mut written = 0;
    let mut fixed = 0;
    let mut unwritten = 0;
    // A signal now would leave a temporary file or a half-done tree: it is acted on between files.
    let signals = super::signals::Deferred::new();
    for (i, f) in outcome.files.iter().enumerate() {
        if let Some(status) = signals.received() {
            let left = outcome.files.len() - i;
            eprintln!(
                "interrupted: {written} file{} written, {left} left as they were",
                if written == 1 { "" } else { "s" }
            );
            return ExitCode::from(status);
        }
        match writer.write(f) {
            Ok(fix::write::Written::Written) => {
                written += 1;
                fixed += f.applied;
            }
            // Its fixes are in the file written under its other name.
            Ok(fix::write::Written::SameFileAs(_)) => {}
            Err(e) => {
                // Its findings were fixed in memory only: they remain.
                unwritten += f.applied;
                outcome.report.errors.push(e);
            }
        }
    }
    if let Some(status) = signals.received() {
        eprintln!(
            "interrupted: {written} file{} written",
            if written == 1 { "" } else { "s" }
        );
        return ExitCode::from(status);
    }
    drop(signals);
    let printed = output(args, &outcome.report);
    // `--fix` fails only on what it could have fixed and did not: an error-level finding that
    // is not the human's part (docs/lint/README.md#exit-status).
    let code = if printed != ExitCode::from(super::EXIT_FINDINGS) {
        printed
    } else if outcome.report.has_errors_to_fix() || unwritten > 0 {
        ExitCode::from(super::EXIT_FINDINGS)
    } else {
        ExitCode::from(super::EXIT_OK)
    };
    let remaining = outcome.report.findings.len() + unwritten;
    eprintln!(
        "fixed {fixed} finding{} in {written} file{}{}; {remaining} finding{} remain{}{}",
        if fixed == 1 { "" } else { "s" },
        if written == 1 { "" } else { "s" },
        if dropped > 0 {
            format!(
                " ({dropped} fix{} dropped: the file would no longer parse)",
                if dropped == 1 { "" } else { "es" }
            )
        } else {
            String::new()
        },
        if remaining == 1 { "" } else { "s" },
        if remaining == 1 { "s" } else { "" },
        unsafe_hint(&outcome, args.unsafe_fixes),
    );
    review_lists(&outcome, true);
    code
}

/// What a reviewer must read after `--fix` or `--diff` (on standard error): each suggestion
/// applied (`--unsafe-fixes`), with why it is only a suggestion, and each finding left for a
/// human (a test pinning a removed mirror's own behaviour, a declaration only it needs).
fn review_lists(outcome: &fix::Outcome, written: bool) {
    let applied = &outcome.suggestions;
    if !applied.is_empty() {
        eprintln!(
            "{} unsafe fix{} {}, to review (each is a suggestion, not known to keep behaviour):",
            applied.len(),
            if applied.len() == 1 { "" } else { "es" },
            if written { "applied" } else { "in the diff" }
        );
        for a in applied {
            eprintln!(
                "  {}:{}: {} {}",
                mirrorless_conformance::check::escape_control(&a.path),
                a.line,
                a.rule,
                mirrorless_conformance::check::escape_control(&a.message)
            );
        }
    }
    let human: Vec<_> = outcome.report.human_part().collect();
    if !human.is_empty() {
        let mut places: Vec<String> = Vec::new();
        for f in &human {
            let place = format!(
                "{}:{}",
                mirrorless_conformance::check::escape_control(&f.path),
                f.line
            );
            if places.last() != Some(&place) {
                places.push(place);
            }
        }
        eprintln!(
            "{} finding{} left for a human at {} (no fix: tests that pin a removed mirror's own behaviour, and what only they need; each finding's note says what upstream did with its like)",
            human.len(),
            if human.len() == 1 { "" } else { "s" },
            places.join(", ")
        );
    }
}

fn unsafe_hint(outcome: &fix::Outcome, unsafe_fixes: bool) -> String {
    let suggestions = outcome.fixable(Applicability::Suggestion);
    if unsafe_fixes || suggestions == 0 {
        String::new()
    } else {
        format!(" ({suggestions} with a suggested fix: add --unsafe-fixes to apply them)")
    }
}

/// Prints the report in the chosen format and returns the exit code.
fn output(args: &LintArgs, report: &mirrorless_lint::Report) -> ExitCode {
    let color = args.color.enabled();
    let format = format_of(args.format);
    // Read (and warned about) only when a Markdown summary is written.
    let docs = || super::markdown::options().docs_url;
    let text = match format {
        Format::Markdown => render::step_summary(report, docs().as_deref()),
        _ => render::render(report, format, color),
    };
    let printed = super::print_out(&text);
    // Like the report (see `run`): the process ends with this command, and the document, a
    // few hundred kB the allocator took from the system for it alone, would be handed back by
    // an `munmap` that stops the pool's other threads' cores to flush their address caches.
    std::mem::forget(text);
    if !printed {
        return ExitCode::from(super::EXIT_ERROR);
    }
    if format == Format::Github
        && let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY")
    {
        let docs = docs();
        super::markdown::append_summary(std::path::Path::new(&path), |limit| {
            render::step_summary_within(report, docs.as_deref(), limit)
        });
    }
    if format != Format::Human {
        for e in &report.errors {
            eprintln!("error: {e}");
        }
    }
    let code = if !report.errors.is_empty() {
        super::EXIT_ERROR
    } else if report.has_errors() {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    };
    ExitCode::from(code)
}
