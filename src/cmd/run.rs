//! `mirrorless run` and `mirrorless replay`: drive an implementation with generated scripts.

use super::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, fail, print_out};
use clap::{Args, ValueEnum};
use mirrorless_conformance::driver::{Driver, in_process};
use mirrorless_conformance::reference::ReferenceLoop;
use mirrorless_conformance::report;
use mirrorless_conformance::stop::{Stop, StopReason};
use mirrorless_conformance::suite::{self, CI_SEED, Config, DEFAULT_CASES, Progress, RunReport};
use mirrorless_conformance::vocab::Profile;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Output format of a run report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Failures with their minimal scripts, then a summary per profile.
    Human,
    /// The whole report as JSON: a stable, versioned format (docs/run/report.schema.json).
    Json,
    /// JUnit XML: one test suite per profile, one test case per requirement.
    Junit,
    /// One self-contained HTML page: the requirement tables, and each counterexample's
    /// expected and observed timelines with the first divergence marked.
    Html,
    /// A Markdown job summary (for $GITHUB_STEP_SUMMARY), at most 1 MiB; requirement IDs link
    /// to their spec pages when MIRRORLESS_DOCS_URL names where the docs are.
    Markdown,
}

const RUN_EXAMPLES: &str = "Examples:
  mirrorless run                                  check the embedded reference implementation
  mirrorless run --profile 2026-07 --cases 2000   more cases, one profile
  mirrorless run --seed 42                        reproduce a run (the seed is in every report)
  mirrorless run --ci --format junit > run.xml    derandomized CI run with a JUnit report
  mirrorless run --format html --output run.html  an HTML report to open in a browser
  mirrorless run --ci --partition 2/4 --format junit > run-2.xml
                                                  shard 2 of a 4-job CI matrix
  mirrorless run --deny-warnings                  SHOULD findings fail the run too
  mirrorless run --ci --format junit --summary \"$GITHUB_STEP_SUMMARY\" > run.xml
                                                  and a Markdown job summary for GitHub
  mirrorless run -- python3 my_adapter.py         an implementation over the stdio protocol

How it works: the harness plays the model, the tools and the user. It replays the corpus
(--corpus, default .mirrorless/corpus), then generates --cases scripts per profile, runs each
against the implementation and compares what it recorded with what the script implies. Every
requirement a case violates is counted under its own ID (the removed mirrors each on their own;
on the durable log the first violation, whose consequences stay on its report). The first
failure of each requirement is printed at once, then shrunk (bounded by --shrink-time) to a
minimal script that still violates that requirement, saved to the corpus as <id>.json, and
reported with a replay command. SHOULD findings are reported the same way, as warnings.

CI mode (--ci, or the CI environment variable) fixes the seed, so a run is reproducible;
without it the seed is random and printed. Either way `--seed S` replays a run exactly.

Sharding: --partition K/N (or count:K/N, hash:K/N) runs only shard K of N; the N shards of
one seed run exactly the cases of the unsharded run. Every shard still draws every case, so
coverage minimums and \"never exercised\" are checked over the whole run: a small shard does
not fail for being small, and every shard agrees on coverage.

Stopping: --run-timeout SECS, SIGINT or SIGTERM stop the run between two cases (or at once in
the middle of a stdio case) and print the report of the cases that ran.

Exit status: 0 conformant, 1 not conformant (a requirement failed, a MUST requirement was
never exercised, a coverage label stayed under its minimum, or a warning under
--deny-warnings), 2 usage or harness error (also: a run that would execute no case, e.g.
--cases 0 with an empty corpus, or an implementation that implements no known profile; a
harness fault, such as a stdio implementation that exits with a status other than 0 after
`shutdown` at the end of the run; --run-timeout), 130/143 stopped by SIGINT/SIGTERM.";

/// Arguments of `mirrorless run`.
#[derive(Debug, Args)]
#[command(after_help = RUN_EXAMPLES)]
pub struct RunArgs {
    /// Profile to check (repeatable); both when omitted.
    #[arg(long = "profile", value_name = "PROFILE")]
    pub profiles: Vec<Profile>,
    /// Generated cases per profile [default: 256].
    #[arg(long, value_name = "N")]
    pub cases: Option<u64>,
    /// Seed of the case generator [default: random, or fixed in CI mode].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Derandomized CI mode (also when the CI environment variable is set): a fixed seed
    /// unless --seed is given, plain progress lines.
    #[arg(long)]
    pub ci: bool,
    /// Report format on standard output (or in the --output file).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Write the report to FILE (only that file; not a directory) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Counterexample corpus: replayed first, shrunk failures saved into it.
    #[arg(long, value_name = "DIR", default_value = ".mirrorless/corpus")]
    pub corpus: PathBuf,
    /// Neither replay nor write the corpus.
    #[arg(long, conflicts_with = "no_save")]
    pub no_corpus: bool,
    /// Replay the corpus but do not save new counterexamples.
    #[arg(long)]
    pub no_save: bool,
    /// Time bound for shrinking one failure, in seconds.
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = super::stdio::non_negative_secs)]
    pub shrink_time: Duration,
    /// Report failures unshrunk.
    #[arg(long)]
    pub no_shrink: bool,
    /// Fail the run on a SHOULD finding (a warning) too.
    #[arg(long)]
    pub deny_warnings: bool,
    #[command(flatten)]
    pub color: super::ColorArg,
    /// Also append the Markdown job summary (--format markdown) to FILE, e.g.
    /// "$GITHUB_STEP_SUMMARY"; the report on standard output and the exit status stay as they
    /// are.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// Run one shard of the cases: `K/N` or `count:K/N` (every N-th case from the K-th) or
    /// `hash:K/N` (by case id); shards 1..=N of one seed together run exactly the unsharded
    /// run. Coverage minimums are checked over the whole run in every shard.
    #[arg(long, value_name = "K/N")]
    pub partition: Option<suite::Partition>,
    /// Threads running cases, each with its own implementation process under `-- CMD` (plus
    /// the one that replays the corpus and shrinks) [default: the number of cores, at most
    /// 1024]. The results do not depend on it.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub jobs: Option<usize>,
    /// Seconds the whole run may take; then it stops with the report of what ran (exit 2).
    /// SIGINT and SIGTERM stop it the same way (exit 130 and 143).
    #[arg(long, value_name = "SECS", value_parser = super::stdio::positive_secs)]
    pub run_timeout: Option<Duration>,
    /// The implementation's command line (after `--`); the embedded reference implementation
    /// when omitted.
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
    /// Options of the stdio protocol driver.
    #[command(flatten)]
    pub stdio: super::stdio::StdioArgs,
}

/// Arguments of `mirrorless replay`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mirrorless replay .mirrorless/corpus/3f2a9c0d1b7e4a55.json
  mirrorless replay case.json --log -- python3 my_adapter.py

Exit status: 0 the case passes, 1 it fails, 2 usage or harness error.")]
pub struct ReplayArgs {
    /// The case file to replay (as saved in the corpus, or written by hand).
    pub case: PathBuf,
    /// Also print the recorded durable log and live trace.
    #[arg(long)]
    pub log: bool,
    #[command(flatten)]
    pub color: super::ColorArg,
    /// The implementation's command line (after `--`); the embedded reference implementation
    /// when omitted.
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
    /// Options of the stdio protocol driver.
    #[command(flatten)]
    pub stdio: super::stdio::StdioArgs,
}

/// The driver for a command line: the embedded reference implementation when it is empty,
/// otherwise the implementation over the stdio protocol. Also returns the profiles the
/// implementation implements.
fn driver_for(
    command: &[String],
    stdio: &super::stdio::StdioArgs,
    stop: &Stop,
    ci: bool,
) -> Result<(Box<dyn Driver>, Vec<Profile>), String> {
    if command.is_empty() {
        return Ok((
            Box::new(in_process::<ReferenceLoop>("reference (embedded)")),
            Profile::ALL.to_vec(),
        ));
    }
    super::stdio::driver(command, stdio, stop, ci)
}

/// The exit status of a command that ended on `message`: a signal's own status when the run
/// was stopped by one, the usage/harness status otherwise.
fn fail_or_stopped(stop: &Stop, message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(stop.reason().map_or(EXIT_ERROR, StopReason::exit_code))
}

/// The profiles a run checks: the requested ones (all the implementation implements when
/// none is requested). A run that would check no profile is refused: it would execute no case
/// and prove nothing.
fn profiles_to_run(
    requested: &[Profile],
    implemented: &[Profile],
    name: &str,
) -> Result<Vec<Profile>, String> {
    let list = |ps: &[Profile]| {
        ps.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    if implemented.is_empty() {
        return Err(format!(
            "{name} implements no profile this suite knows ({}): nothing can be run; its `hello` must list at least one of them in `profiles`",
            list(&Profile::ALL)
        ));
    }
    if requested.is_empty() {
        return Ok(implemented.to_vec());
    }
    let mut run = Vec::new();
    let mut skipped = Vec::new();
    for p in requested {
        let into = if implemented.contains(p) {
            &mut run
        } else {
            &mut skipped
        };
        if !into.contains(p) {
            into.push(*p);
        }
    }
    if run.is_empty() {
        return Err(format!(
            "--profile {} filtered out every profile: {name} implements only {}",
            list(requested),
            list(implemented)
        ));
    }
    if !skipped.is_empty() {
        eprintln!(
            "mirrorless run: skipping --profile {}: {name} implements only {}",
            list(&skipped),
            list(implemented)
        );
    }
    Ok(run)
}

/// Live progress on standard error: a redrawn line on a terminal, plain lines otherwise.
struct ProgressPrinter {
    terminal: bool,
    last_draw: Instant,
    drawn: bool,
}

impl ProgressPrinter {
    fn clear(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[2K");
            self.drawn = false;
        }
    }

    fn on(&mut self, p: Progress<'_>) {
        match p {
            Progress::Started {
                profile,
                replay,
                cases,
            } => {
                self.clear();
                eprintln!("{profile}: replaying {replay} corpus case(s), then {cases} generated");
            }
            Progress::Case {
                profile,
                done,
                total,
                failures,
                elapsed,
            } => {
                let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
                if self.terminal {
                    if done == total || self.last_draw.elapsed() >= Duration::from_millis(80) {
                        let width = 30;
                        let filled = (done * width / total.max(1)) as usize;
                        eprint!(
                            "\r\x1b[2K{profile} [{}{}] {done}/{total} cases  {rate:.0} cases/s  {failures} failed",
                            "#".repeat(filled),
                            "-".repeat(width as usize - filled)
                        );
                        let _ = std::io::stderr().flush();
                        self.drawn = true;
                        self.last_draw = Instant::now();
                    }
                    if done == total {
                        self.clear();
                    }
                }
                if done == total {
                    eprintln!(
                        "{profile}: {done} cases in {:.2} s ({rate:.0} cases/s), {failures} failed",
                        elapsed.as_secs_f64()
                    );
                }
            }
            Progress::Found {
                profile,
                case,
                finding,
            } => {
                self.clear();
                eprint!("{}", report::render_found(profile, case, finding));
            }
            Progress::Shrunk(f) => {
                self.clear();
                eprintln!(
                    "{}: minimal case {} ({} chunks and actions){}",
                    f.requirement,
                    f.case_id,
                    f.shrunk_chunks,
                    f.case_file
                        .as_deref()
                        .map(|p| format!(", saved to {p}"))
                        .unwrap_or_default()
                );
            }
            Progress::Problem(p) => {
                self.clear();
                eprintln!("problem: {p}");
            }
        }
    }
}

/// Runs `mirrorless run`.
pub fn run(args: RunArgs) -> ExitCode {
    let ci = args.ci || suite::in_ci();
    if let Some(path) = &args.output
        && let Err(e) = super::output::check_path(path)
    {
        return fail(e);
    }
    let stop = match super::signals::stop_on_signals(args.run_timeout) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let seed = args
        .seed
        .unwrap_or_else(|| if ci { CI_SEED } else { suite::random_seed() });
    let (mut driver, implemented) = match driver_for(&args.command, &args.stdio, &stop, ci) {
        Ok(d) => d,
        Err(e) => return unfinished(&args, &stop, (seed, ci), e),
    };
    let profiles = match profiles_to_run(&args.profiles, &implemented, &driver.name()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let config = Config {
        profiles,
        cases: args.cases.unwrap_or(DEFAULT_CASES),
        seed,
        shrink_time: args.shrink_time,
        shrink_steps: if args.no_shrink { 0 } else { 4096 },
        corpus: (!args.no_corpus).then(|| args.corpus.clone()),
        save: !args.no_corpus && !args.no_save,
        ci,
        jobs: args.jobs.unwrap_or_else(suite::default_jobs).max(1),
        deny_warnings: args.deny_warnings,
        partition: args.partition,
        case_ids: args.format == Format::Json,
    };
    eprintln!(
        "mirrorless run: {} — seed {}{}",
        driver.name(),
        config.seed,
        if ci { " (CI mode)" } else { "" }
    );
    let mut printer = ProgressPrinter {
        terminal: !ci && std::io::stderr().is_terminal(),
        last_draw: Instant::now(),
        drawn: false,
    };
    let outcome = suite::run_until(driver.as_mut(), &config, &stop, &mut |p| printer.on(p));
    printer.clear();
    let mut report = match outcome {
        Ok(r) => r,
        Err(e) => return unfinished(&args, &stop, (seed, ci), e),
    };
    if args.command.is_empty() {
        // The embedded reference says no `hello`: it is this release's.
        report.hello.version = Some(env!("CARGO_PKG_VERSION").to_owned());
        report.hello.language = Some("rust".to_owned());
    }
    if !emit(&args, &report) {
        return ExitCode::from(EXIT_ERROR);
    }
    if let Some(reason) = stop.reason() {
        ExitCode::from(reason.exit_code())
    } else if !report.problems.is_empty() {
        ExitCode::from(EXIT_ERROR)
    } else if report.conformant() {
        ExitCode::from(EXIT_OK)
    } else {
        ExitCode::from(EXIT_FINDINGS)
    }
}

/// Renders `report` in the chosen format to standard output or `--output`, and appends its
/// Markdown to `--summary`. Returns false if the report could not be written.
fn emit(args: &RunArgs, report: &RunReport) -> bool {
    let text = match args.format {
        Format::Human => super::run_color::paint(
            &report::render_human_after_progress(report),
            args.color.enabled(),
        ),
        Format::Json => report::render_json(report),
        Format::Junit => report::render_junit(report),
        Format::Html => report::render_html(report),
        Format::Markdown => report::render_markdown(report, &super::markdown::options()),
    };
    if let Some(path) = &args.summary {
        let options = super::markdown::options();
        super::markdown::append_summary(path, |limit| {
            report::render_markdown(
                report,
                &report::MarkdownOptions {
                    limit,
                    ..options.clone()
                },
            )
        });
    }
    super::output::write_report(args.output.as_deref(), &text)
}

/// A run that ended before it had a report (the implementation did not start or answer its
/// `hello`, or a fault the run cannot go on after): the error on standard error, as always,
/// and a report of no profile whose one problem is that error, so that a CI job collecting
/// reports (`--format json --output`, `--summary`, `mirrorless report`) has one that says so.
/// A human report to the terminal would only repeat the error and is not printed.
fn unfinished(
    args: &RunArgs,
    stop: &Stop,
    (seed, ci): (u64, bool),
    error: impl std::fmt::Display,
) -> ExitCode {
    let error = error.to_string();
    let status = fail_or_stopped(stop, &error);
    if args.format == Format::Human && args.output.is_none() && args.summary.is_none() {
        return status;
    }
    let report = RunReport {
        implementation: if args.command.is_empty() {
            "reference (embedded)".to_owned()
        } else {
            format!("`{}`", args.command.join(" "))
        },
        hello: Default::default(),
        seed,
        ci,
        partition: args.partition,
        deny_warnings: args.deny_warnings,
        profiles: Vec::new(),
        problems: vec![format!("the run ended before any verdict: {error}")],
    };
    if emit(args, &report) {
        status
    } else {
        ExitCode::from(EXIT_ERROR)
    }
}

/// Runs `mirrorless replay`.
pub fn replay(args: ReplayArgs) -> ExitCode {
    let file = match suite::read_case_file(&args.case) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let stop = match super::signals::stop_on_signals(None) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let (mut driver, _) = match driver_for(&args.command, &args.stdio, &stop, false) {
        Ok(d) => d,
        Err(e) => return fail_or_stopped(&stop, e),
    };
    let (verdict, obs) = match suite::replay_case(driver.as_mut(), &file.case) {
        Ok(v) => v,
        Err(e) => return fail_or_stopped(&stop, e),
    };
    let mut text = String::new();
    if args.log {
        text.push_str("durable log:\n");
        text.push_str(&report::render_log(&obs.log));
        text.push_str("live trace:\n");
        for l in &obs.live {
            text.push_str(&format!(
                "  {}\n",
                serde_json::to_string(l).unwrap_or_default()
            ));
        }
    }
    text.push_str(&super::run_color::paint(
        &report::render_verdict(&file.case, &verdict),
        args.color.enabled(),
    ));
    if !print_out(&text) {
        return ExitCode::from(EXIT_ERROR);
    }
    if verdict.passed() {
        ExitCode::from(EXIT_OK)
    } else {
        ExitCode::from(EXIT_FINDINGS)
    }
}
