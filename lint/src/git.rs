//! `--new-since REV`: lint the same paths as they were at a git revision, and treat those
//! findings as a baseline. Findings are matched by repository-relative path and content
//! fingerprint, so a finding that only moved is not new, while a changed const makes its
//! untouched users new findings (they are new results, semgrep-style, not changed lines).

use crate::baseline::Baseline;
use crate::engine::{self, Options};
use crate::source::display_path;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Runs git; its output is one value (a path or a commit), so only the line end is trimmed (a
/// repository path may end in a space).
fn git(args: &[&str], dir: &Path) -> Result<String, String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text.trim_end_matches(['\n', '\r']).to_owned())
}

/// The repository root containing the current directory.
pub fn toplevel() -> Result<PathBuf, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    git(&["rev-parse", "--show-toplevel"], &cwd).map(PathBuf::from)
}

/// Maps a reported path to its repository-relative form.
pub fn repo_relative(top: &Path, reported: &str) -> String {
    inside(top, Path::new(reported)).map_or_else(|| reported.to_owned(), |rel| display_path(&rel))
}

/// The path of `p` relative to the repository root `top` (symbolic links resolved), or `None`
/// when it lies outside the repository.
fn inside(top: &Path, p: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let abs = abs.canonicalize().unwrap_or(abs);
    abs.strip_prefix(top).ok().map(Path::to_path_buf)
}

/// Lints `opts.paths` as they were at `rev` and returns the findings as a baseline whose
/// paths are repository-relative.
pub fn baseline_at(rev: &str, opts: &Options) -> Result<Baseline, String> {
    // A revision is never an option to git (`--new-since=--output=x`).
    if rev.starts_with('-') || rev.is_empty() {
        return Err(format!(
            "--new-since: `{rev}` is not a revision (a branch, tag or commit, e.g. origin/main)"
        ));
    }
    let top = toplevel()?;
    let top = top.canonicalize().unwrap_or(top);
    let commit = git(
        &["rev-parse", "--verify", &format!("{rev}^{{commit}}")],
        &top,
    )
    .map_err(|_| format!("--new-since: `{rev}` is not a commit in {}", top.display()))?;
    // What `git archive` is given is a full object name, never text that could be an option.
    if commit.is_empty() || !commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "--new-since: git resolved `{rev}` to `{commit}`, which is not a commit id"
        ));
    }
    let tmp =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let archive = Command::new("git")
        .args(["archive", "--format=tar", &commit, "--"])
        .current_dir(&top)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git archive: {e}"))?;
    let Some(stdout) = archive.stdout else {
        return Err("git archive produced no output".to_owned());
    };
    let status = Command::new("tar")
        .args(["-x", "-C"])
        .arg(tmp.path())
        .stdin(stdout)
        .status()
        .map_err(|e| format!("cannot run tar: {e}"))?;
    if !status.success() {
        return Err(format!(
            "extracting {rev} failed (tar exited with {status})"
        ));
    }
    let paths: Vec<PathBuf> = if opts.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        opts.paths.clone()
    };
    let mut old_paths = Vec::new();
    for p in &paths {
        // A path outside the repository has no version at `rev`: comparing it with itself
        // would call every finding old.
        let rel = inside(&top, p).ok_or_else(|| {
            format!(
                "--new-since: {} is outside the repository at {}, so it has no version at `{rev}`; lint it without --new-since, or from its own repository",
                p.display(),
                top.display()
            )
        })?;
        let old = tmp.path().join(&rel);
        if old.exists() {
            old_paths.push(old);
        }
    }
    if old_paths.is_empty() {
        return Ok(Baseline::from_findings(&[]));
    }
    let mut config = opts.config.clone();
    if let Ok(rel) = config
        .root
        .canonicalize()
        .unwrap_or(config.root.clone())
        .strip_prefix(&top)
    {
        config.root = tmp.path().join(rel);
    }
    let old = engine::lint(&Options {
        paths: old_paths,
        jobs: opts.jobs,
        follow: opts.follow,
        config,
    });
    let mut baseline = Baseline::from_findings(&old.findings);
    let tmp_root = tmp
        .path()
        .canonicalize()
        .unwrap_or_else(|_| tmp.path().to_path_buf());
    for e in &mut baseline.findings {
        let abs = std::path::absolute(&e.path).unwrap_or_else(|_| PathBuf::from(&e.path));
        let abs = abs.canonicalize().unwrap_or(abs);
        if let Ok(rel) = abs.strip_prefix(&tmp_root) {
            e.path = display_path(rel);
        }
    }
    Ok(baseline)
}
