//! The Python wheel: `maturin build` with `bindings = "bin"` (see `pyproject.toml`), which puts
//! the binary in the wheel's scripts, so `pip install` puts `mirrorless` on `PATH`.
//!
//! maturin runs the same `cargo build --release --locked` that `dist` has just run, so cargo
//! finds the binary fresh and does not build it again.

use crate::tools;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Builds the wheel for `target` (the host when `None`) into `out`; returns its path.
pub fn build(root: &Path, out: &Path, target: Option<&str>, version: &str) -> Result<PathBuf> {
    let started = SystemTime::now();
    let mut cmd = tools::maturin(root);
    cmd.args(["build", "--release", "--locked", "--out"])
        .arg(out)
        .current_dir(root);
    if let Some(target) = target {
        cmd.args(["--target", target]);
        // A static musl binary runs on glibc systems too: one wheel tagged for both.
        if target.ends_with("-linux-musl") {
            cmd.args(["--compatibility", "manylinux2014", "musllinux_1_2"]);
        }
    }
    tools::run(
        &mut cmd,
        "run packaging/ci-tools/setup.sh (installs the pinned maturin), set MATURIN, or pass --no-wheel",
    )?;
    let prefix = format!("mirrorless-{version}-");
    let mut built: Vec<(SystemTime, PathBuf)> = std::fs::read_dir(out)
        .with_context(|| format!("listing {}", out.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.starts_with(&prefix) && name.ends_with(".whl")
        })
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .filter(|(modified, _)| *modified >= started)
        .collect();
    built.sort();
    match built.pop() {
        Some((_, wheel)) => Ok(wheel),
        None => bail!(
            "maturin succeeded but wrote no {prefix}*.whl into {}",
            out.display()
        ),
    }
}
