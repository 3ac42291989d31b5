//! One module per subcommand. Each exposes its clap `Args` and a function returning the exit
//! code; shared exit-code conventions live here.

pub mod check;
pub mod lint;
pub mod lsp;
pub mod markdown;
mod output;
pub mod report;
pub mod run;
mod run_color;
pub mod signals;
pub mod spec;
pub mod stdio;

use clap::ValueEnum;
use std::io::IsTerminal;
use std::process::ExitCode;

/// When to color human output (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Color when standard output is a terminal and `NO_COLOR` is unset or empty.
    Auto,
    /// Always color.
    Always,
    /// Never color.
    Never,
}

impl ColorChoice {
    /// Whether to color output written to standard output.
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stdout().is_terminal()
            }
        }
    }
}

/// The `--color WHEN` flag, the same on every subcommand that prints color (`check`, `lint`,
/// `run`, `replay`): flattened into their `Args`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct ColorArg {
    /// When to color the human report: auto (a terminal, and NO_COLOR unset or empty), always,
    /// never.
    #[arg(
        long = "color",
        value_enum,
        default_value = "auto",
        value_name = "WHEN"
    )]
    pub choice: ColorChoice,
}

impl ColorArg {
    /// Whether to color output written to standard output.
    pub fn enabled(self) -> bool {
        self.choice.enabled()
    }
}

/// Everything conformed / no error-level findings.
#[allow(dead_code)] // used by the subcommands as they land
pub const EXIT_OK: u8 = 0;
/// Some input violated the spec, or the linter found something.
#[allow(dead_code)] // used by the subcommands as they land
pub const EXIT_FINDINGS: u8 = 1;
/// Usage error, unreadable input, or a harness fault.
pub const EXIT_ERROR: u8 = 2;

/// Prints `message` as an error and returns the usage/I/O exit code.
pub fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(EXIT_ERROR)
}

/// Writes `text` to standard output. A closed pipe (`mirrorless spec | head`) is not an error:
/// the reader has what it wanted, so output stops quietly. Returns false if writing failed.
pub fn print_out(text: &str) -> bool {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => true,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => true,
        Err(e) => {
            eprintln!("error: cannot write to standard output: {e}");
            false
        }
    }
}
