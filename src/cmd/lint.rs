//! `mirrorless lint`: find source still using removed mirror events.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `mirrorless lint`.
#[derive(Debug, Args)]
pub struct LintArgs {
    /// Files or directories to lint (default: the current directory).
    pub paths: Vec<PathBuf>,
}

/// Runs `mirrorless lint`.
pub fn run(_args: LintArgs) -> ExitCode {
    super::fail("`mirrorless lint` is not implemented yet")
}
