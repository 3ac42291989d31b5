//! Ignore files the walk cannot apply, named. When the rules of a directory's ignore files
//! fail to build (too many patterns for the matcher, a bad line), the error `ignore`'s builder
//! gives does not always name the file (a matcher too large names none); these helpers find
//! which file it was and say so, so that the walk ([`super::rules`]) refuses the directory
//! instead of linting (and fixing) what the file excludes.

use crate::model::FileError;
use crate::source::display_path;
use ignore::gitignore::GitignoreBuilder;
use std::path::Path;

/// The ignore files the walker reads in a directory (relative to it).
const NAMES: [&str; 3] = [".gitignore", ".ignore", ".git/info/exclude"];

/// The ignore files of `dir` whose rules cannot be applied, each as an error naming it (and
/// the line, for a bad pattern); `err` (what the walker reported) when none can be named.
pub(super) fn explain(dir: &Path, err: &ignore::Error) -> Vec<FileError> {
    let named = failing(dir, dir);
    if named.is_empty() {
        vec![refused(dir, None, &err.to_string(), dir)]
    } else {
        named
    }
}

/// [`explain`] for the directories above `root`, whose rules cover all of it.
pub(super) fn explain_above(root: &Path, err: &ignore::Error) -> Vec<FileError> {
    let abs = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    let named: Vec<FileError> = abs
        .ancestors()
        .skip(1)
        .flat_map(|dir| failing(dir, root))
        .collect();
    if named.is_empty() {
        vec![refused(root, None, &err.to_string(), root)]
    } else {
        named
    }
}

/// Builds each regular ignore file of `dir` alone, as the walker does, and returns an error
/// for each that fails; `covered` is what the failure keeps out of the run.
fn failing(dir: &Path, covered: &Path) -> Vec<FileError> {
    let mut out = Vec::new();
    for path in NAMES.iter().map(|name| dir.join(name)) {
        if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let mut builder = GitignoreBuilder::new(dir);
        if let Some(err) = builder.add(&path) {
            for (line, why) in flatten(&err) {
                out.push(refused(&path, line, &why, covered));
            }
        }
        if let Err(err) = builder.build() {
            let why = format!(
                "its patterns are too many or too large for the matcher ({})",
                bare(&err)
            );
            out.push(refused(&path, None, &why, covered));
        }
    }
    out
}

/// The single errors inside `err`, each with its line when it has one.
fn flatten(err: &ignore::Error) -> Vec<(Option<usize>, String)> {
    match err {
        ignore::Error::Partial(errs) => errs.iter().flat_map(flatten).collect(),
        ignore::Error::WithLineNumber { line, err } => {
            vec![(usize::try_from(*line).ok(), bare(err))]
        }
        ignore::Error::WithPath { err, .. } | ignore::Error::WithDepth { err, .. } => flatten(err),
        other => vec![(None, other.to_string())],
    }
}

/// The message of `err` without the path and line wrappers (the error names those itself).
fn bare(err: &ignore::Error) -> String {
    match err {
        ignore::Error::WithLineNumber { err, .. }
        | ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. } => bare(err),
        other => other.to_string(),
    }
}

pub(super) fn refused(path: &Path, line: Option<usize>, why: &str, covered: &Path) -> FileError {
    FileError {
        path: display_path(path),
        line,
        message: format!(
            "cannot apply this ignore file: {why}; nothing below {} is linted (fix or remove it, or name the files to lint)",
            display_path(covered)
        ),
    }
}
