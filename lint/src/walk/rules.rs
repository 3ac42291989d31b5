//! The ignore rules of a walk, applied as ripgrep's `ignore` walker (0.4) applies them with the
//! walk's settings (standard filters, hidden files walked, no repository required): each
//! directory's `.ignore`, `.gitignore` and `.git/info/exclude` (the exclude file of a
//! worktree's common directory when `.git` is a file), those of the directories above the
//! walked root, and git's global excludes file. For a path, the nearest directory whose
//! `.ignore` matches decides, else the nearest whose `.gitignore` does, else the nearest
//! exclude file, else the global file; a match that re-includes (`!pattern`) is not an ignore.
//!
//! The walk finds a directory's ignore files in its listing, with their types, so that none is
//! looked up by name and none that is not a regular file is opened (a FIFO would block the
//! walk for ever): issue 32 item 1 measured the three look-ups per directory that a guard in
//! front of `ignore`'s walker needed at 7.5 % of a run.

use super::ignore_files::refused;
use crate::model::FileError;
use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use std::ffi::OsStr;
use std::fs::FileType;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The rules of one directory's ignore files, each rooted at the directory.
#[derive(Debug)]
struct Level {
    ignore: Gitignore,
    git_ignore: Gitignore,
    git_exclude: Gitignore,
}

impl Level {
    fn is_empty(&self) -> bool {
        self.ignore.is_empty() && self.git_ignore.is_empty() && self.git_exclude.is_empty()
    }
}

/// The rules that apply in a directory of the walk: its own and those of the directories
/// between it and the walked root, nearest first. Directories without ignore files share
/// their parent's chain.
#[derive(Debug, Clone, Default)]
pub(super) struct Chain(Option<Arc<Link>>);

#[derive(Debug)]
struct Link {
    level: Level,
    up: Chain,
}

impl Chain {
    fn levels(&self) -> impl Iterator<Item = &Level> {
        std::iter::successors(self.0.as_deref(), |link| link.up.0.as_deref()).map(|l| &l.level)
    }
}

/// What a directory's listing says of its ignore files: the type of each (not followed
/// through a symbolic link), when present.
#[derive(Debug, Default)]
pub(super) struct Listed {
    ignore: Option<FileType>,
    git_ignore: Option<FileType>,
    git: bool,
}

impl Listed {
    /// Notes an entry of the listing; whether it was an ignore file.
    pub(super) fn note(&mut self, name: &OsStr, kind: FileType) {
        if name == ".ignore" {
            self.ignore = Some(kind);
        } else if name == ".gitignore" {
            self.git_ignore = Some(kind);
        } else if name == ".git" {
            self.git = true;
        }
    }
}

/// The rules of a walk that hold for its whole tree: the directories above the root, git's
/// global excludes file.
#[derive(Debug)]
pub(super) struct Rules {
    /// The root as walked, without a leading `./` (as the paths matched are): paths below it
    /// are this joined with their names.
    root: PathBuf,
    /// The root, canonical: what the rules of the directories above it see a path as.
    canonical_root: Option<PathBuf>,
    /// The directories above the root, nearest first (only those with rules).
    above: Vec<Level>,
    global: Gitignore,
}

impl Rules {
    /// The rules above `root` (a directory) and git's global ones when `global` is set; the
    /// errors naming the ignore files above it that cannot be applied (then nothing below
    /// `root` may be walked).
    pub(super) fn above(root: &Path, global: bool) -> Result<Rules, Vec<FileError>> {
        let canonical_root = root.canonicalize().ok();
        let mut above = Vec::new();
        if let Some(canonical) = &canonical_root {
            for dir in canonical.ancestors().skip(1) {
                match looked_up(dir) {
                    Ok(level) if level.is_empty() => {}
                    Ok(level) => above.push(level),
                    Err(err) => {
                        return Err(match err {
                            Unusable::NotRegular(errors) => errors,
                            Unusable::Rules(err) => super::ignore_files::explain_above(root, &err),
                        });
                    }
                }
            }
        }
        let global = if global {
            match std::env::current_dir() {
                // Errors in it are `ignore`'s to drop too: the file is the user's, not the
                // tree's, and a bad line of it must not stop every walk.
                Ok(cwd) => GitignoreBuilder::new(cwd).build_global().0,
                Err(_) => Gitignore::empty(),
            }
        } else {
            Gitignore::empty()
        };
        Ok(Rules {
            root: root.strip_prefix("./").unwrap_or(root).to_path_buf(),
            canonical_root,
            above,
            global,
        })
    }

    /// The chain of `dir` (a directory of the walk, below `up`), whose listing found `listed`;
    /// errors naming its ignore files when one cannot be applied (nothing below `dir` may then
    /// be walked).
    pub(super) fn enter(dir: &Path, listed: &Listed, up: &Chain) -> Result<Chain, Vec<FileError>> {
        match listed_level(dir, listed) {
            Ok(level) if level.is_empty() => Ok(up.clone()),
            Ok(level) => Ok(Chain(Some(Arc::new(Link {
                level,
                up: up.clone(),
            })))),
            Err(Unusable::NotRegular(errors)) => Err(errors),
            Err(Unusable::Rules(err)) => Err(super::ignore_files::explain(dir, &err)),
        }
    }

    /// Whether the rules of `chain` (the directory `path` is in) and of the whole walk ignore
    /// `path`, a path of the walk.
    pub(super) fn ignores(&self, chain: &Chain, path: &Path, is_dir: bool) -> bool {
        let path = path.strip_prefix("./").unwrap_or(path);
        let (mut ignore, mut git_ignore, mut git_exclude) = (Match::None, Match::None, Match::None);
        let mut decide = |level: &Level, path: &Path| {
            if ignore.is_none() {
                ignore = level.ignore.matched(path, is_dir).map(|_| ());
            }
            if git_ignore.is_none() {
                git_ignore = level.git_ignore.matched(path, is_dir).map(|_| ());
            }
            if git_exclude.is_none() {
                git_exclude = level.git_exclude.matched(path, is_dir).map(|_| ());
            }
        };
        for level in chain.levels() {
            decide(level, path);
        }
        if let (false, Some(canonical)) = (self.above.is_empty(), &self.canonical_root) {
            let below = path.strip_prefix(&self.root).unwrap_or(path);
            let absolute = canonical.join(below);
            for level in &self.above {
                decide(level, &absolute);
            }
        }
        ignore
            .or(git_ignore)
            .or(git_exclude)
            .or(self.global.matched(path, is_dir).map(|_| ()))
            .is_ignore()
    }
}

/// Why a directory's rules cannot be applied.
enum Unusable {
    /// Ignore files that are not regular files, each named.
    NotRegular(Vec<FileError>),
    /// Rules that fail to build (a bad line, too many patterns), as `ignore` reports them.
    Rules(ignore::Error),
}

/// The rules of `dir` from the ignore files its listing found.
fn listed_level(dir: &Path, listed: &Listed) -> Result<Level, Unusable> {
    let mut bad = Vec::new();
    let mut usable = |name: &str, kind: Option<FileType>| -> Option<PathBuf> {
        let kind = kind?;
        let path = dir.join(name);
        if kind.is_file() {
            return Some(path);
        }
        // A link is followed, as opening it would; a dangling one is no file.
        let followed = if kind.is_symlink() {
            std::fs::metadata(&path).ok()?.file_type()
        } else {
            kind
        };
        if followed.is_file() {
            Some(path)
        } else {
            bad.push(not_regular(&path, dir));
            None
        }
    };
    let ignore = usable(".ignore", listed.ignore);
    let git_ignore = usable(".gitignore", listed.git_ignore);
    let exclude = if listed.git {
        exclude_file(dir, &mut bad)
    } else {
        Ok(None)
    };
    if !bad.is_empty() {
        return Err(Unusable::NotRegular(bad));
    }
    level(dir, ignore, git_ignore, exclude)
}

/// The rules of `dir`, a directory above the walked root, found by name: no listing of it is
/// read.
fn looked_up(dir: &Path) -> Result<Level, Unusable> {
    let mut bad = Vec::new();
    let mut regular = |path: PathBuf| -> Option<PathBuf> {
        let meta = std::fs::metadata(&path).ok()?;
        if meta.is_file() {
            Some(path)
        } else {
            bad.push(not_regular(&path, dir));
            None
        }
    };
    let ignore = regular(dir.join(".ignore"));
    let git_ignore = regular(dir.join(".gitignore"));
    let exclude = exclude_file(dir, &mut bad);
    if !bad.is_empty() {
        return Err(Unusable::NotRegular(bad));
    }
    level(dir, ignore, git_ignore, exclude)
}

/// The exclude file of the repository whose `.git` is in `dir`, if it exists and is regular
/// (else an error in `bad`); an error when a worktree's `.git` file cannot be read.
fn exclude_file(dir: &Path, bad: &mut Vec<FileError>) -> Result<Option<PathBuf>, ignore::Error> {
    let dot_git = dir.join(".git");
    let Ok(kind) = std::fs::metadata(&dot_git).map(|m| m.file_type()) else {
        return Ok(None);
    };
    let git_dir = if kind.is_file() {
        match common_dir(&dot_git) {
            Ok(Some(common)) => common,
            Ok(None) => return Ok(None),
            Err(err) => return Err(err),
        }
    } else {
        dot_git
    };
    let path = git_dir.join("info/exclude");
    match std::fs::metadata(&path) {
        Ok(meta) if meta.is_file() => Ok(Some(path)),
        Ok(_) => {
            bad.push(not_regular(&path, dir));
            Ok(None)
        }
        Err(_) => Ok(None),
    }
}

/// The common directory of the worktree whose `.git` file is `dot_git`, as `ignore` finds it:
/// the file's `gitdir: ` line names the worktree's git directory, whose `commondir` file names
/// the common one (relative to it when it starts with `.`). None when either file does not
/// say; an error when the `.git` file cannot be read.
fn common_dir(dot_git: &Path) -> Result<Option<PathBuf>, ignore::Error> {
    let read_error = |err: std::io::Error, path: &Path| ignore::Error::WithPath {
        path: path.to_path_buf(),
        err: Box::new(ignore::Error::Io(err)),
    };
    let first_line = |path: &Path| -> Result<Option<String>, std::io::Error> {
        let file = std::fs::File::open(path)?;
        std::io::BufReader::new(file).lines().next().transpose()
    };
    let line = match first_line(dot_git) {
        Ok(Some(line)) => line,
        Ok(None) => return Ok(None),
        Err(err) => return Err(read_error(err, dot_git)),
    };
    let Some(git_dir) = line.strip_prefix("gitdir: ").map(PathBuf::from) else {
        return Ok(None);
    };
    let commondir = git_dir.join("commondir");
    // Only a regular file is opened: a FIFO named there would block the walk for ever.
    if !std::fs::metadata(&commondir).is_ok_and(|m| m.is_file()) {
        return Ok(None);
    }
    match first_line(&commondir) {
        Ok(Some(common)) if common.starts_with('.') => Ok(Some(git_dir.join(common))),
        Ok(Some(common)) => Ok(Some(PathBuf::from(common))),
        Ok(None) => Ok(None),
        Err(err) => Err(read_error(err, &commondir)),
    }
}

/// Builds the matchers of `dir` from the files found; a file that cannot be read counts as
/// empty, as `ignore` counts it.
fn level(
    dir: &Path,
    ignore: Option<PathBuf>,
    git_ignore: Option<PathBuf>,
    exclude: Result<Option<PathBuf>, ignore::Error>,
) -> Result<Level, Unusable> {
    let mut errors = Vec::new();
    let mut matcher = |file: Option<PathBuf>| -> Gitignore {
        let Some(file) = file else {
            return Gitignore::empty();
        };
        let mut builder = GitignoreBuilder::new(dir);
        if let Some(err) = builder.add(&file).filter(|err| !err.is_io()) {
            errors.push(err);
        }
        builder.build().unwrap_or_else(|err| {
            errors.push(err);
            Gitignore::empty()
        })
    };
    let level = Level {
        ignore: matcher(ignore),
        git_ignore: matcher(git_ignore),
        git_exclude: match exclude {
            Ok(file) => matcher(file),
            Err(err) => {
                errors.push(err);
                Gitignore::empty()
            }
        },
    };
    match errors.len() {
        0 => Ok(level),
        1 => Err(Unusable::Rules(errors.remove(0))),
        _ => Err(Unusable::Rules(ignore::Error::Partial(errors))),
    }
}

fn not_regular(path: &Path, dir: &Path) -> FileError {
    refused(
        path,
        None,
        "not a regular file (a FIFO, socket or device)",
        dir,
    )
}
