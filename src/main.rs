//! `mirrorless`: conformance suite and migration linter for the agent event protocol in which
//! the live `agent/*` mirror events were removed in favour of the durable session log.
//!
//! The binary is a thin clap front end; each subcommand lives in `src/cmd/` and calls into
//! `mirrorless-conformance` or `mirrorless-lint`.

mod cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Conformance suite and migration linter for the agent event protocol.
///
/// The live `agent/*` mirror events (agent/stream-chunk, agent/steering, agent/turn-start,
/// agent/turn-end, agent/step-start, agent/step-end) were removed: consumers read
/// `session/event` and filter the durable twin. mirrorless enforces that decision.
///
/// Exit status: 0 conformant / no findings, 1 violations or findings, 2 usage or I/O error.
#[derive(Debug, Parser)]
#[command(
    name = "mirrorless",
    version,
    propagate_version = true,
    max_term_width = 100
)]
#[command(after_help = "Examples:\n  \
    mirrorless run                              test the embedded reference implementation\n  \
    mirrorless run -- python3 my_adapter.py     test an implementation over the stdio protocol\n  \
    mirrorless check session.jsonl              validate a recorded session log\n  \
    mirrorless lint src/                        find code still using removed events\n  \
    mirrorless lsp                              the linter in your editor (docs/guides/editor.md)\n  \
    mirrorless explain CHUNK-1                  read one requirement of the spec")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate recorded session logs (and optionally a live-event trace) against the spec.
    Check(cmd::check::CheckArgs),
    /// Drive an implementation with generated model scripts and check every requirement.
    Run(cmd::run::RunArgs),
    /// Replay one saved counterexample case against an implementation.
    Replay(cmd::run::ReplayArgs),
    /// Render several `run --format json` reports as a matrix of implementations × requirements.
    Report(cmd::report::ReportArgs),
    /// Find source that still subscribes to, emits or names a removed mirror event.
    Lint(cmd::lint::LintArgs),
    /// Serve the linter to an editor: a language server over stdio (diagnostics as you type).
    Lsp(cmd::lsp::LspArgs),
    /// List the requirements of the spec.
    Spec(cmd::spec::SpecArgs),
    /// Print one requirement or lint rule in full.
    Explain(cmd::spec::ExplainArgs),
    /// Serve the embedded reference implementation over the stdio protocol (benchmarks, tests).
    #[command(hide = true)]
    ReferenceImpl(cmd::stdio::ReferenceImplArgs),
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  mirrorless completions bash > /etc/bash_completion.d/mirrorless\n  \
        mirrorless completions zsh > \"${fpath[1]}/_mirrorless\"\n  \
        mirrorless completions fish > ~/.config/fish/completions/mirrorless.fish"
    )]
    Completions {
        /// The shell to generate completions for.
        shell: clap_complete::Shell,
    },
}

/// The static x86_64 Linux build's allocator (see Cargo.toml): musl's allocator costs more than
/// the whole analysis of a typical lint.
#[cfg(all(target_env = "musl", target_arch = "x86_64"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// The same build's `memcpy`, `memmove`, `memcmp` and `bcmp`: musl's copy with `rep movsq` and
// compare a byte at a time (see the crate's documentation).
#[cfg(all(target_env = "musl", target_arch = "x86_64"))]
use mirrorless_mem as _;

fn main() -> ExitCode {
    if lints_on_the_run_pool(std::env::args_os()) {
        // Before clap parses the arguments, so that the pool's threads start, and one of them
        // compiles what the walk needs first, in the meantime (issue 32 item 1).
        mirrorless_lint::join_run_pool();
    }
    if let Some(args) = lint_args_alone(std::env::args_os()) {
        return cmd::lint::run(args);
    }
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => cmd::check::run(args),
        Command::Run(args) => cmd::run::run(args),
        Command::Replay(args) => cmd::run::replay(args),
        Command::Report(args) => cmd::report::run(args),
        Command::Lint(args) => cmd::lint::run(args),
        Command::Lsp(args) => cmd::lsp::run(args),
        Command::Spec(args) => cmd::spec::spec(args),
        Command::Explain(args) => cmd::spec::explain(args),
        Command::ReferenceImpl(args) => cmd::stdio::reference_impl(args),
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, "mirrorless", &mut script);
            if cmd::print_out(&String::from_utf8_lossy(&script)) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(cmd::EXIT_ERROR)
            }
        }
    }
}

/// The arguments of `mirrorless lint …`, parsed by a parser of `lint`'s arguments alone: clap
/// then builds one subcommand's arguments, not all ten (issue 32 item 1). `None` for any other
/// command, and for what that parser does not accept (`--help`, `--version`, an error): the
/// whole command line's parser reads it again, and says it as `mirrorless` always has. Where
/// both accept a command line they read the same arguments (`lint_alone_reads_what_the_cli_reads`).
fn lint_args_alone(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Option<cmd::lint::LintArgs> {
    use clap::{Args, FromArgMatches};
    let mut args = args.into_iter().skip(1).peekable();
    if args.peek().is_none_or(|a| a != "lint") {
        return None;
    }
    let lint = cmd::lint::LintArgs::augment_args(clap::Command::new("lint"));
    let matches = lint.try_get_matches_from(args).ok()?;
    cmd::lint::LintArgs::from_arg_matches(&matches).ok()
}

/// Whether the command line is `mirrorless lint` without `-j`/`--jobs` (which builds a pool
/// of its own): the command whose thread joins the run's pool
/// ([`mirrorless_lint::join_run_pool`]). A spelling of the option this misses (`-Lj2`) only
/// leaves that pool's threads idle.
fn lints_on_the_run_pool(args: impl IntoIterator<Item = std::ffi::OsString>) -> bool {
    let mut args = args.into_iter().skip(1);
    args.next().is_some_and(|a| a == "lint")
        && !args.any(|a| {
            let a = a.as_encoded_bytes();
            a.starts_with(b"-j") || a.starts_with(b"--jobs")
        })
}

#[cfg(test)]
mod tests {
    use super::{Cli, Command, lint_args_alone, lints_on_the_run_pool};
    use clap::Parser;

    /// `lint_args_alone` accepts exactly the command lines the whole parser reads as `lint`, with
    /// the same arguments; what it refuses (help, version, errors) the whole parser answers.
    /// Built from every option of `lint` (and a few it does not have) alone and in pairs.
    #[test]
    fn lint_alone_reads_what_the_cli_reads() {
        let words: &[&[&str]] = &[
            &[],
            &["src"],
            &["a.ts", "b.md"],
            &["--format", "json"],
            &["--format=sarif"],
            &["--format", "nope"],
            &["--no-config"],
            &["--config", "m.toml"],
            &["--config", "m.toml", "--no-config"],
            &["--baseline", "b.json"],
            &["--write-baseline", "b.json"],
            &["--new-since", "origin/main"],
            &["-j", "2"],
            &["-j2"],
            &["--jobs", "x"],
            &["-L"],
            &["--follow"],
            &["--fix"],
            &["--diff"],
            &["--fix", "--diff"],
            &["--unsafe-fixes"],
            &["--statistics"],
            &["--color", "never"],
            &["--output", "out.txt"],
            &["--help"],
            &["-h"],
            &["--version"],
            &["-V"],
            &["--no-such-option"],
            &["--", "--not-an-option"],
            &["help"],
        ];
        let mut lines: Vec<Vec<&str>> = Vec::new();
        for a in words {
            lines.push(a.to_vec());
            for b in words {
                lines.push([*a, *b].concat());
            }
        }
        let mut accepted = 0;
        for line in lines {
            let argv: Vec<std::ffi::OsString> = ["mirrorless", "lint"]
                .iter()
                .chain(&line)
                .map(std::ffi::OsString::from)
                .collect();
            let whole = Cli::try_parse_from(&argv).ok().map(|c| match c.command {
                Command::Lint(args) => format!("{args:?}"),
                other => panic!("`lint` parsed as {other:?}"),
            });
            let alone = lint_args_alone(argv.clone()).map(|args| format!("{args:?}"));
            // Both accept it with the same arguments, or both leave it to the whole parser.
            assert_eq!(alone, whole, "{line:?}");
            accepted += usize::from(alone.is_some());
        }
        assert!(accepted > 300, "{accepted}");
        assert!(lint_args_alone(["mirrorless", "check", "x"].map(Into::into)).is_none());
        assert!(lint_args_alone(["mirrorless"].map(Into::into)).is_none());
    }

    fn joins(line: &str) -> bool {
        lints_on_the_run_pool(line.split(' ').map(std::ffi::OsString::from))
    }

    // `mirrorless lint --help`, `-j`: "Worker threads (default: one per core, plus the
    // command's own …)": only `lint` without `--jobs` runs on the pool `main` joins.
    #[test]
    fn only_lint_without_jobs_joins_the_run_pool_before_parsing() {
        assert!(joins("mirrorless lint"));
        assert!(joins("mirrorless lint src --format json"));
        assert!(!joins("mirrorless lint -j 2 src"));
        assert!(!joins("mirrorless lint -j2 src"));
        assert!(!joins("mirrorless lint --jobs 2"));
        assert!(!joins("mirrorless lint src --jobs=1"));
        assert!(!joins("mirrorless check lint"));
        assert!(!joins("mirrorless run"));
        assert!(!joins("mirrorless"));
    }
}
