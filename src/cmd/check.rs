//! `mirrorless check`: validate recorded session logs and live traces.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `mirrorless check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Session logs (JSONL: a header line, then one event per line).
    #[arg(required = true)]
    pub logs: Vec<PathBuf>,
}

/// Runs `mirrorless check`.
pub fn run(_args: CheckArgs) -> ExitCode {
    super::fail("`mirrorless check` is not implemented yet")
}
