//! Running the external tools `dist` needs (cargo, npm, maturin), with errors that name the
//! command and say how to get the tool.

use anyhow::{Context, Result, bail};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root (the parent of `xtask/`).
pub fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or(manifest)
}

/// Cargo's target directory: `CARGO_TARGET_DIR` or `<root>/target`.
pub fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

/// The cargo that runs this task (`CARGO`, set by `cargo run`), else `cargo`.
pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// npm (`npm.cmd` on Windows, where npm is a batch file).
pub fn npm() -> Command {
    Command::new(if cfg!(windows) { "npm.cmd" } else { "npm" })
}

/// maturin: `MATURIN`, else the pinned copy `packaging/ci-tools/setup.sh` installs, else PATH.
pub fn maturin(root: &Path) -> Command {
    if let Some(path) = std::env::var_os("MATURIN") {
        return Command::new(path);
    }
    let venv = target_dir(root).join("packaging-tools/venv");
    for candidate in [venv.join("bin/maturin"), venv.join("Scripts/maturin.exe")] {
        if candidate.is_file() {
            return Command::new(candidate);
        }
    }
    Command::new("maturin")
}

/// Runs `cmd` with inherited output; an error unless it exits 0. `hint` says how to get the
/// tool when it cannot be started.
pub fn run(cmd: &mut Command, hint: &str) -> Result<()> {
    let shown = describe(cmd);
    let status = cmd
        .status()
        .with_context(|| format!("cannot run `{shown}` ({hint})"))?;
    if !status.success() {
        bail!("`{shown}` failed with {status}");
    }
    Ok(())
}

/// Runs `cmd` and returns its standard output; standard error is passed through.
pub fn output(cmd: &mut Command, hint: &str) -> Result<String> {
    let shown = describe(cmd);
    let out = cmd
        .stderr(std::process::Stdio::inherit())
        .output()
        .with_context(|| format!("cannot run `{shown}` ({hint})"))?;
    if !out.status.success() {
        bail!("`{shown}` failed with {}", out.status);
    }
    String::from_utf8(out.stdout).with_context(|| format!("`{shown}` printed non-UTF-8 output"))
}

fn describe(cmd: &Command) -> String {
    let mut words = vec![cmd.get_program().to_string_lossy().into_owned()];
    words.extend(cmd.get_args().map(OsStr::to_string_lossy).map(Into::into));
    words.join(" ")
}
