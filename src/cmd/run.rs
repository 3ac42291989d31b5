//! `mirrorless run` and `mirrorless replay`: drive an implementation with generated scripts.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `mirrorless run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The implementation's command line (after `--`); the embedded reference implementation
    /// when omitted.
    #[arg(last = true)]
    pub command: Vec<String>,
}

/// Arguments of `mirrorless replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The case file to replay.
    pub case: PathBuf,
    /// The implementation's command line (after `--`).
    #[arg(last = true)]
    pub command: Vec<String>,
}

/// Runs `mirrorless run`.
pub fn run(_args: RunArgs) -> ExitCode {
    super::fail("`mirrorless run` is not implemented yet")
}

/// Runs `mirrorless replay`.
pub fn replay(_args: ReplayArgs) -> ExitCode {
    super::fail("`mirrorless replay` is not implemented yet")
}
