//! The walk against ripgrep's: on generated trees, [`walk_dir`] finds the files and reports the
//! errors that `ignore`'s own walker (0.4, the walk's settings, the guard the walk kept in
//! front of it for ignore files that are not regular files) finds and reports. The trees mix
//! what the rules depend on: `.gitignore` and `.ignore` files at every level and above the
//! root, a repository's exclude file, negations, directory-only and anchored patterns, bad
//! lines, ignore files that are directories, links or FIFOs, `.git` directories and files,
//! links to files, to directories, to an ancestor and to nothing; each walked from an
//! absolute and from a relative root, with and without the rules, with links followed and not.

use super::{Walk, ignore_files, walk_dir, walk_error};
use crate::model::FileError;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// The pattern lines of the generated ignore files.
const LINES: [&str; 26] = [
    "*.ts",
    "!x.ts",
    "a/",
    "/b",
    "**/c",
    "a",
    "!a/",
    "b/*.rs",
    "# c",
    "",
    "node_modules",
    "!/b/x.ts",
    "a/**/x.ts",
    "*",
    "!*/",
    "!*.md",
    ".hidden",
    "/a/b",
    "b/",
    "x.ts/",
    "\\#x",
    "*.rs",
    "!b",
    "c/**",
    "!c/y.rs",
    "l*",
];

/// Names of the generated files and directories.
const NAMES: [&str; 10] = [
    "a",
    "b",
    "c",
    "node_modules",
    ".hidden",
    "x.ts",
    "y.rs",
    "z.md",
    "w.txt",
    "#x",
];

/// Directories whose ignore files could not be applied, with the errors naming them.
type Refused = Vec<(PathBuf, Vec<FileError>)>;

/// What ripgrep's walker, with the guard the walk had, finds below `root`: the files and the
/// errors, as the walk reported them before it read listings itself.
fn ripgrep(root: &Path, ignores: bool, follow: bool) -> (BTreeSet<PathBuf>, Vec<FileError>) {
    let guard = |dir: &Path| -> Vec<FileError> {
        [".gitignore", ".ignore", ".git/info/exclude"]
            .iter()
            .filter(|name| std::fs::metadata(dir.join(name)).is_ok_and(|m| !m.is_file()))
            .map(|name| {
                ignore_files::refused(
                    &dir.join(name),
                    None,
                    "not a regular file (a FIFO, socket or device)",
                    dir,
                )
            })
            .collect()
    };
    if ignores {
        // The root as walked, and the directories above it whose rules `ignore` reads.
        let canonical = root.canonicalize().expect("canonical");
        let above = canonical.ancestors().skip(1);
        let broken: Vec<FileError> = std::iter::once(root).chain(above).flat_map(guard).collect();
        if !broken.is_empty() {
            return (BTreeSet::new(), broken);
        }
    }
    let refused: Arc<Mutex<Refused>> = Arc::default();
    let found: Mutex<(BTreeSet<PathBuf>, Vec<FileError>)> = Mutex::default();
    let walker = ignore::WalkBuilder::new(root)
        .standard_filters(ignores)
        .git_global(ignores && super::global_excludes::possible())
        .hidden(false)
        .require_git(false)
        .follow_links(follow)
        .threads(1)
        .filter_entry({
            let refused = Arc::clone(&refused);
            move |e| {
                if e.file_name() == ".git" {
                    return false;
                }
                if ignores && e.file_type().is_some_and(|t| t.is_dir()) {
                    let broken = guard(e.path());
                    if !broken.is_empty() {
                        let mut dirs = refused.lock().unwrap_or_else(PoisonError::into_inner);
                        dirs.push((e.path().to_path_buf(), broken));
                        return false;
                    }
                }
                true
            }
        })
        .build_parallel();
    walker.run(|| {
        Box::new(|entry| {
            let mut found = found.lock().unwrap_or_else(PoisonError::into_inner);
            let mut dirs = refused.lock().unwrap_or_else(PoisonError::into_inner);
            match entry {
                Ok(e) => {
                    if let Some(err) = e.error() {
                        dirs.push((e.path().to_path_buf(), ignore_files::explain(e.path(), err)));
                    }
                    if e.file_type().is_some_and(|t| t.is_file()) {
                        found.0.insert(e.into_path());
                    }
                }
                Err(err) if from_above(&err) => {
                    dirs.push((root.to_path_buf(), ignore_files::explain_above(root, &err)));
                }
                Err(err) => found.1.push(walk_error(&err, root)),
            }
            ignore::WalkState::Continue
        })
    });
    let (mut files, mut errors) = found.into_inner().unwrap_or_else(PoisonError::into_inner);
    let refused = std::mem::take(&mut *refused.lock().unwrap_or_else(PoisonError::into_inner));
    files.retain(|p| !refused.iter().any(|(d, _)| p.starts_with(d)));
    // Nothing below a refused directory is walked: what the walker met there is not reported.
    errors.retain(|e| {
        !refused
            .iter()
            .any(|(d, _)| Path::new(&e.path).starts_with(crate::source::display_path(d)))
    });
    errors.extend(refused.into_iter().flat_map(|(_, e)| e));
    (files, errors)
}

/// Whether the walker's error came from the ignore files above the root: those carry no depth
/// (the walk's shipped until 0.1 took any error without an outer depth for one, and refused
/// the whole tree for a dangling link met with links followed).
fn from_above(err: &ignore::Error) -> bool {
    match err {
        ignore::Error::WithDepth { .. } | ignore::Error::Loop { .. } => false,
        ignore::Error::WithPath { err, .. } => from_above(err),
        _ => true,
    }
}

/// What the walk finds below `root`.
fn ours(root: &Path, ignores: bool, follow: bool) -> (BTreeSet<PathBuf>, Vec<FileError>) {
    let config = crate::config::Config::default();
    let opts = Walk {
        paths: &[],
        config: &config,
        follow,
    };
    let (files, errors) = walk_dir(root, opts, ignores, &|_| true, &|_| ());
    (files.into_iter().map(|(_, _, p, _)| p).collect(), errors)
}

/// A random tree below `top/r` (the root), with ignore files above it in `top`.
fn generate(r: &mut crate::test_rng::Rng, top: &Path) -> PathBuf {
    let root = top.join("r");
    std::fs::create_dir(&root).expect("mkdir");
    let mut dirs = vec![root.clone()];
    let ignore_file = |r: &mut crate::test_rng::Rng, path: &Path| {
        if path.symlink_metadata().is_ok() {
            return; // Made before, as a file or as something else.
        }
        let mut text = String::new();
        for _ in 0..1 + r.below(4) {
            // Now and then a line whose glob does not build.
            text.push_str(if r.below(40) == 0 {
                "a["
            } else {
                r.pick(&LINES)
            });
            text.push('\n');
        }
        std::fs::write(path, text).expect("write");
    };
    for name in [".gitignore", ".ignore"] {
        if r.below(4) == 0 {
            ignore_file(r, &top.join(name));
        }
    }
    for _ in 0..4 + r.below(16) {
        let dir = dirs[r.below(dirs.len())].clone();
        let path = dir.join(r.pick(&NAMES));
        if path.exists() || path.symlink_metadata().is_ok() {
            continue;
        }
        match r.below(20) {
            0..=5 => {
                std::fs::create_dir(&path).expect("mkdir");
                dirs.push(path);
            }
            6..=11 => std::fs::write(&path, "x").expect("write"),
            12..=14 => {
                let name = [".gitignore", ".ignore"][r.below(2)];
                ignore_file(r, &dir.join(name));
            }
            15 => {
                // A repository: its exclude file holds rules too.
                let info = dir.join(".git/info");
                if std::fs::create_dir_all(&info).is_err() {
                    continue; // `.git` is a worktree's file here.
                }
                ignore_file(r, &info.join("exclude"));
            }
            16 => link(r, &dirs, &path, top),
            17 => {
                // An ignore file that is no regular file, or a link to one that is.
                let at = dir.join([".gitignore", ".ignore"][r.below(2)]);
                if at.symlink_metadata().is_err() {
                    match r.below(3) {
                        0 => std::fs::create_dir(&at).expect("mkdir"),
                        1 => fifo(&at),
                        _ => {
                            let target = top.join(format!("rules{}", r.below(1000)));
                            ignore_file(r, &target);
                            symlink(&target, &at);
                        }
                    }
                }
            }
            18 => {
                // A worktree's `.git` file naming a git directory whose common one excludes.
                let common = top.join(format!("common{}", r.below(1000)));
                let git_dir = top.join(format!("gitdir{}", r.below(1000)));
                std::fs::create_dir_all(common.join("info")).expect("mkdir");
                std::fs::create_dir_all(&git_dir).expect("mkdir");
                ignore_file(r, &common.join("info/exclude"));
                std::fs::write(git_dir.join("commondir"), format!("{}\n", common.display()))
                    .expect("write");
                let dot_git = dir.join(".git");
                if dot_git.symlink_metadata().is_err() {
                    std::fs::write(&dot_git, format!("gitdir: {}\n", git_dir.display()))
                        .expect("write");
                }
            }
            _ => std::fs::write(dir.join("l.ts"), "x").expect("write"),
        }
    }
    root
}

/// A link at `path` to a file, a directory of the tree (an ancestor makes a loop), the
/// directory above the root, or nothing.
fn link(r: &mut crate::test_rng::Rng, dirs: &[PathBuf], path: &Path, top: &Path) {
    let target = match r.below(4) {
        0 => dirs[r.below(dirs.len())].clone(),
        1 => top.to_path_buf(),
        2 => top.join("missing"),
        _ => {
            let file = top.join(format!("f{}.ts", r.below(1000)));
            std::fs::write(&file, "x").expect("write");
            file
        }
    };
    symlink(&target, path);
}

#[cfg(unix)]
fn symlink(target: &Path, at: &Path) {
    std::os::unix::fs::symlink(target, at).expect("symlink");
}

#[cfg(not(unix))]
fn symlink(_: &Path, _: &Path) {}

fn fifo(at: &Path) {
    // No `mkfifo` here: a directory stands in (the same refusal).
    let made = std::process::Command::new("mkfifo").arg(at).status();
    if !made.is_ok_and(|s| s.success()) {
        std::fs::create_dir(at).expect("mkdir");
    }
}

/// `path` relative to the current directory, through `..`: a relative root of the walk.
fn relative(path: &Path) -> PathBuf {
    let cwd = std::env::current_dir().expect("cwd");
    let mut rel = PathBuf::new();
    for _ in cwd.components().skip(1) {
        rel.push("..");
    }
    rel.join(path.strip_prefix("/").unwrap_or(path))
}

/// Issue 32 item 1: the walk reads each directory's listing and applies the rules itself; on
/// 300 generated trees it finds what ripgrep's walker finds and reports what the walk
/// reported with it, in all eight combinations of root form, rules and links.
#[test]
fn the_walk_finds_what_ripgreps_walker_finds() {
    let mut r = crate::test_rng::Rng(0x0000_0001_9e5d_a11c);
    for round in 0..300 {
        let dir = tempfile::tempdir().expect("tempdir");
        let top = dir.path().canonicalize().expect("canonical").join("t");
        std::fs::create_dir(&top).expect("mkdir");
        let root = generate(&mut r, &top);
        for root in [root.clone(), relative(&root)] {
            for ignores in [true, false] {
                for follow in [false, true] {
                    let (want_files, mut want_errors) = ripgrep(&root, ignores, follow);
                    let (files, mut errors) = ours(&root, ignores, follow);
                    let key = |e: &FileError| (e.path.clone(), e.line, e.message.clone());
                    want_errors.sort_by_key(key);
                    errors.sort_by_key(key);
                    let listing = walkdir::WalkDir::new(&top)
                        .into_iter()
                        .flatten()
                        .map(|e| e.path().display().to_string())
                        .collect::<Vec<_>>();
                    assert_eq!(
                        (&files, &errors),
                        (&want_files, &want_errors),
                        "round {round}, root {root:?}, ignores {ignores}, follow {follow}; tree {listing:#?}"
                    );
                }
            }
        }
    }
}
