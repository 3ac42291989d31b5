//! The walk: which files a run reads. Paths named on the command line are taken as given;
//! directories are walked in parallel (ripgrep's `ignore` walker, `.gitignore`-aware), filtered
//! by the configuration's `include`/`exclude`/`allow_paths` globs and by the front ends'
//! extensions, and returned sorted. Each file is visited (read, for a run) as the walker finds
//! it, on the walker's threads, as ripgrep searches: no second pass over the list, and every
//! core busy until the last directory is read.

use crate::config::Config;
use crate::frontend::FrontEnd;
use crate::model::FileError;
use crate::source::display_path;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

mod ignore_files;

/// Where and how to walk.
#[derive(Debug, Clone, Copy)]
pub struct Walk<'a> {
    /// Files and directories named by the user (none: `.`).
    pub paths: &'a [PathBuf],
    /// The configuration (its globs and root).
    pub config: &'a Config,
    /// Follow symbolic links.
    pub follow: bool,
    /// Walker threads.
    pub threads: usize,
}

/// Every file to lint (path, named explicitly, what `visit` returned for it), sorted by path
/// and deduplicated; problems go to `errors`. `visit` runs once per file found, on the
/// walker's threads as the walk finds it (a file named on the command line: on the calling
/// thread).
pub fn walk<T: Send>(
    opts: Walk<'_>,
    fronts: &[Box<dyn FrontEnd>],
    errors: &mut Vec<FileError>,
    visit: &(dyn Fn(&Path) -> T + Sync),
) -> Vec<(PathBuf, bool, T)> {
    let paths: Vec<PathBuf> = if opts.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        opts.paths.to_vec()
    };
    let globs = |list: &[String]| -> Option<globset::GlobSet> {
        if list.is_empty() {
            return None;
        }
        let mut b = globset::GlobSetBuilder::new();
        for g in list {
            if let Ok(g) = globset::Glob::new(g) {
                b.add(g);
            }
        }
        b.build().ok()
    };
    let include = globs(&opts.config.lint.include);
    let exclude = globs(&opts.config.lint.exclude);
    let allowed = globs(&opts.config.lint.allow_paths);
    let root = &opts.config.root;
    let matches = |p: &Path, set: &Option<globset::GlobSet>| -> Option<bool> {
        let set = set.as_ref()?;
        let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        let rel = abs.strip_prefix(root).unwrap_or(&abs).to_path_buf();
        let disp = PathBuf::from(display_path(p));
        Some(set.is_match(&rel) || set.is_match(&disp))
    };
    // Historical records allowed by configuration are never linted, even when named.
    let is_allowed = |p: &Path| matches(p, &allowed) == Some(true);
    // A directory named on the command line is linted even if `exclude` covers it (like a
    // file named explicitly); `exclude` still prunes what a walk from elsewhere finds.
    let selected = |p: &Path, named_excluded: bool| -> bool {
        matches(p, &include) != Some(false)
            && (named_excluded || matches(p, &exclude) != Some(true))
            && !is_allowed(p)
    };

    let mut out = Vec::new();
    for root_path in &paths {
        let meta = match std::fs::metadata(root_path) {
            Ok(m) => m,
            Err(e) => {
                errors.push(FileError {
                    path: display_path(root_path),
                    line: None,
                    message: format!("cannot read: {e}"),
                });
                continue;
            }
        };
        if !meta.is_file() && !meta.is_dir() {
            // Reading a FIFO or a device could block or never end.
            errors.push(FileError {
                path: display_path(root_path),
                line: None,
                message: "not a regular file or a directory (a FIFO, socket or device): not read"
                    .to_owned(),
            });
            continue;
        }
        if meta.is_file() {
            // Named explicitly: linted even if ignored or excluded, like ripgrep.
            if is_allowed(root_path) {
                continue;
            }
            if fronts.iter().any(|f| f.handles(root_path)) {
                out.push((root_path.clone(), true, visit(root_path)));
            } else {
                errors.push(FileError {
                    path: display_path(root_path),
                    line: None,
                    message: "no front end for this file type (mirrorless lint reads *.rs, *.ts, *.tsx, *.mts, *.cts, *.js, *.jsx, *.mjs, *.cjs, *.md, *.markdown and *.mdx files)"
                        .to_owned(),
                });
            }
            continue;
        }
        // `dir/**` does not match `dir` itself, so test a would-be child of the named directory.
        let named_excluded = matches(root_path, &exclude) == Some(true)
            || matches(&root_path.join("_"), &exclude) == Some(true);
        let keep = |p: &Path| {
            crate::frontend::front_for(fronts, p).is_some() && selected(p, named_excluded)
        };
        let (files, errs) = walk_dir(root_path, opts, true, &keep, visit);
        if files.is_empty() && errs.is_empty() {
            // Nothing to lint: say so if ignore files are why, rather than pass silently.
            let (ignored, _) = walk_dir(root_path, opts, false, &keep, &|_| ());
            if !ignored.is_empty() {
                errors.push(FileError {
                    path: display_path(root_path),
                    line: None,
                    message: format!(
                        "nothing linted: all {} lintable file(s) below are excluded by .gitignore/.ignore rules; name the files to lint them",
                        ignored.len()
                    ),
                });
            } else if include.is_some() {
                // Or the `include` globs: ones that match nothing here (paths outside the
                // tree, a typo) would pass a tree full of findings.
                let unfiltered = |p: &Path| {
                    fronts.iter().any(|f| f.handles(p))
                        && (named_excluded || matches(p, &exclude) != Some(true))
                        && !is_allowed(p)
                };
                let (outside, _) = walk_dir(root_path, opts, true, &unfiltered, &|_| ());
                if !outside.is_empty() {
                    errors.push(FileError {
                        path: display_path(root_path),
                        line: None,
                        message: format!(
                            "nothing linted: the configuration's `include` globs ({}) match none of the {} lintable file(s) below; fix them or name the files to lint",
                            opts.config.lint.include.join(", "),
                            outside.len()
                        ),
                    });
                }
            }
        }
        out.extend(files.into_iter().map(|(p, v)| (p, false, v)));
        errors.extend(errs);
    }
    // Walked before named (`false < true`): the first of each path is kept.
    out.sort_by_cached_key(|(path, named, _)| (path_order(path), *named));
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// A directory whose ignore files could not be applied, and the errors naming them.
type Unapplied = (PathBuf, Vec<FileError>);

/// Files found by a walk (path, what `visit` returned) and the walk's errors.
type Walked<T> = (Vec<(PathBuf, T)>, Vec<FileError>);

/// Walks `root` in parallel (ripgrep's walker), keeping the regular files `keep` accepts and
/// visiting each on the thread that found it; `.gitignore`/`.ignore` rules apply when
/// `ignores` is set. Unordered: the caller sorts.
///
/// An ignore file that cannot be applied (too many patterns for the matcher, a bad line, not
/// a regular file) is an error naming it, and no file below its directory is returned: the
/// walker would otherwise go on as if the file were empty, and a run (`--fix` included) would
/// read and write the very files it excludes.
fn walk_dir<T: Send>(
    root: &Path,
    opts: Walk<'_>,
    ignores: bool,
    keep: &(dyn Fn(&Path) -> bool + Sync),
    visit: &(dyn Fn(&Path) -> T + Sync),
) -> Walked<T> {
    if ignores {
        let broken = ignore_files::unusable_above(root);
        if !broken.is_empty() {
            return (Vec::new(), broken);
        }
    }
    let found: Mutex<Walked<T>> = Mutex::new((Vec::new(), Vec::new()));
    // Directories whose ignore rules could not be applied, with the errors naming the files;
    // nothing below them is kept. Shared with the entry filter, which must be `'static`.
    let unapplied: Arc<Mutex<Vec<Unapplied>>> = Arc::default();
    let refuse = {
        let unapplied = Arc::clone(&unapplied);
        move |dir: &Path, errors: Vec<FileError>| {
            if let Ok(mut dirs) = unapplied.lock() {
                dirs.push((dir.to_path_buf(), errors));
            }
        }
    };
    let refuse_in_filter = refuse.clone();
    ignore::WalkBuilder::new(root)
        .standard_filters(ignores)
        .hidden(false)
        .require_git(false)
        .follow_links(opts.follow)
        .threads(opts.threads.max(1))
        .filter_entry(move |e| {
            if e.file_name() == ".git" {
                return false;
            }
            // The walker opens a directory's ignore files after this filter accepts it: one
            // that is a FIFO would block the walk for ever.
            if ignores && e.file_type().is_some_and(|t| t.is_dir()) {
                let broken = ignore_files::not_regular(e.path());
                if !broken.is_empty() {
                    refuse_in_filter(e.path(), broken);
                    return false;
                }
            }
            true
        })
        .build_parallel()
        .run(|| {
            Box::new(|entry| {
                let item = match entry {
                    Ok(e) => {
                        if let Some(err) = e.error() {
                            // The rules of this directory's ignore files failed to build.
                            refuse(e.path(), ignore_files::explain(e.path(), err));
                        }
                        (e.file_type().is_some_and(|t| t.is_file()) && keep(e.path())).then(|| {
                            let v = visit(e.path());
                            Ok((e.into_path(), v))
                        })
                    }
                    Err(err) if ignore_files::is_parents_error(&err) => {
                        refuse(root, ignore_files::explain_above(root, &err));
                        None
                    }
                    Err(err) => Some(Err(walk_error(&err, root))),
                };
                if let Some(item) = item
                    && let Ok(mut lists) = found.lock()
                {
                    match item {
                        Ok(found) => lists.0.push(found),
                        Err(e) => lists.1.push(e),
                    }
                }
                ignore::WalkState::Continue
            })
        });
    let (mut files, mut errors) = found
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let unapplied = std::mem::take(&mut *unapplied.lock().unwrap_or_else(|e| e.into_inner()));
    files.retain(|(p, _)| !unapplied.iter().any(|(d, _)| p.starts_with(d)));
    errors.extend(unapplied.into_iter().flat_map(|(_, e)| e));
    (files, errors)
}
fn walk_error(err: &ignore::Error, root: &Path) -> FileError {
    let text = err.to_string();
    let path = match err {
        ignore::Error::WithPath { path, .. } => display_path(path),
        ignore::Error::WithDepth { err, .. } => match &**err {
            ignore::Error::WithPath { path, .. } => display_path(path),
            _ => display_path(root),
        },
        ignore::Error::Loop { child, .. } => display_path(child),
        _ => display_path(root),
    };
    FileError {
        path,
        line: None,
        message: format!("cannot walk: {text}"),
    }
}

/// A key whose byte order is the order of `Path`s (component by component, each kind of
/// component before the next: root, `.`, `..`, then names by their bytes): each component is a
/// tag byte, its bytes for a name, and a 0 byte, lower than any byte of a name. Sorting
/// thousands of paths by it costs a fraction of comparing their components again at every
/// step of the sort.
fn path_order(path: &Path) -> Vec<u8> {
    use std::path::Component;
    let mut key = Vec::with_capacity(path.as_os_str().len() + 8);
    for c in path.components() {
        match c {
            Component::Prefix(p) => {
                key.push(1);
                key.extend_from_slice(p.as_os_str().as_encoded_bytes());
            }
            Component::RootDir => key.push(2),
            Component::CurDir => key.push(3),
            Component::ParentDir => key.push(4),
            Component::Normal(name) => {
                key.push(5);
                key.extend_from_slice(name.as_encoded_bytes());
            }
        }
        key.push(0);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::path_order;
    use std::path::PathBuf;

    /// Issue 32 item 1: the walk's files are sorted by a byte key, not by comparing their
    /// components; the order must be `Path`'s own on any two paths (roots, `.`, `..`, names
    /// that are prefixes of others, bytes below and above `/` and `.`, repeated slashes).
    #[test]
    fn the_byte_key_orders_paths_as_path_does() {
        let parts = [
            "/", ".", "..", "a", "a.b", "a-b", "ab", "-", "\u{1}", "é", "a b", "", "b",
        ];
        let mut r = crate::test_rng::Rng(0x0005_eed0_f5a7);
        let paths: Vec<PathBuf> = (0..400)
            .map(|_| {
                let mut s = String::new();
                for i in 0..1 + r.below(4) {
                    if i > 0 {
                        s.push_str(["/", "//"][r.below(2)]);
                    }
                    s.push_str(parts[r.below(parts.len())]);
                }
                PathBuf::from(s)
            })
            .collect();
        for a in &paths {
            for b in &paths {
                assert_eq!(
                    path_order(a).cmp(&path_order(b)),
                    a.cmp(b),
                    "{a:?} against {b:?}"
                );
            }
        }
    }
}
