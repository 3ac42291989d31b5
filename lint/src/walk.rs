//! The walk: which files a run reads. Paths named on the command line are taken as given;
//! directories are walked (ripgrep's `ignore` walker, `.gitignore`-aware), filtered by the
//! configuration's `include`/`exclude`/`allow_paths` globs and by the front ends'
//! extensions, and returned sorted. Each file is visited (read, for a run) on the rayon pool
//! as soon as the walker finds it: no second pass over the list, and every core busy from
//! the first file found to the last one visited.

use crate::config::Config;
use crate::frontend::FrontEnd;
use crate::model::FileError;
use crate::source::display_path;
use rayon::iter::{IntoParallelIterator, ParallelExtend, ParallelIterator};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

mod global_excludes;
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
}

/// Every file to lint (path, named explicitly, what `visit` returned for it), sorted by path
/// and deduplicated; problems go to `errors`. `visit` runs once per file found, on the
/// current rayon pool, as the walk finds it.
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
    let mut named = Vec::new();
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
                named.push(root_path.clone());
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
        // The first root's files are kept as the walk returned them: no copy of each.
        if out.is_empty() {
            out = files;
        } else {
            out.extend(files);
        }
        errors.extend(errs);
    }
    // Files named on the command line are visited on the pool too, each once, and not again
    // when a walk found them.
    named.sort();
    named.dedup();
    if !named.is_empty() && !out.is_empty() {
        let walked: crate::hash::HashSet<&Path> =
            out.iter().map(|(_, _, p, _)| p.as_path()).collect();
        named.retain(|p| !walked.contains(p.as_path()));
    }
    out.par_extend(named.into_par_iter().map(|p| {
        let v = visit(&p);
        (path_order(&p), true, p, v)
    }));
    // Walked before named (`false < true`): the first of each path is kept. Equal keys are
    // equal paths (`Path`'s equality compares components too).
    // Unstable: two entries compare equal only when they are one path walked from two roots,
    // and either is kept. In place, where a stable sort copies half the files aside.
    out.sort_unstable_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    out.dedup_by(|a, b| a.0 == b.0);
    out.into_iter()
        .map(|(_, named, p, v)| (p, named, v))
        .collect()
}

/// Whether git's global excludes file can hold a rule, asked once and kept for every later walk
/// of the process: for a one-shot command (see [`global_excludes`]).
pub(crate) fn remember_global_excludes() -> bool {
    global_excludes::remember()
}

/// The most files visited by one job of the pool (see [`walk_dir`]).
const MAX_BATCH: usize = 32;

/// A directory whose ignore files could not be applied, and the errors naming them.
type Unapplied = (PathBuf, Vec<FileError>);

/// A file found: its [`path_order`] key, whether it was named on the command line (a walk's
/// files were not), its path, and what `visit` returned for it.
type Found<T> = (Vec<u8>, bool, PathBuf, T);

/// Files found by a walk and the walk's errors.
type Walked<T> = (Vec<Found<T>>, Vec<FileError>);

/// Walks `root` (ripgrep's walker), keeping the regular files `keep` accepts and visiting
/// each on the pool as soon as it is found; `.gitignore`/`.ignore` rules apply when
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
            // Like every lock of the walk, recovered if poisoned: a refusal is never lost.
            let mut dirs = unapplied.lock().unwrap_or_else(PoisonError::into_inner);
            dirs.push((dir.to_path_buf(), errors));
        }
    };
    let refuse_in_filter = refuse.clone();
    let walker = ignore::WalkBuilder::new(root)
        .standard_filters(ignores)
        // Without a global excludes file that can hold a rule, its matcher is empty: not
        // built (see [`global_excludes`]).
        .git_global(ignores && global_excludes::possible())
        .hidden(false)
        .require_git(false)
        .follow_links(opts.follow)
        .threads(1)
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
        .build_parallel();
    let push = |item: Result<Found<T>, FileError>| {
        let mut lists = found.lock().unwrap_or_else(PoisonError::into_inner);
        match item {
            Ok(found) => lists.0.push(found),
            Err(e) => lists.1.push(e),
        }
    };
    // The directories are read in order by one thread of `ignore`'s parallel walker, and the
    // files found are visited on the pool, in batches. One thread: with more, a thread with no
    // directory to take sleeps a millisecond at a time, at the start (one root) and at the end
    // of every walk, a millisecond of a run that lasts ten; reading directories costs little
    // beside visiting their files. The parallel walker, not the iterator: it reads each
    // directory's listing first and looks for the ignore files it holds there, where the
    // iterator asks the file system for each of four names in every directory (`.git`,
    // `.ignore`, `.gitignore`, `.git/info/exclude`). The batches grow from one file (the pool
    // starts at once) to [`MAX_BATCH`] (few jobs, and few wake-ups, on a large tree). The
    // calling thread, a thread of the pool, joins the pool's work once the walk is done.
    rayon::in_place_scope(|scope| {
        // The batch being filled and the size it is flushed at.
        let batch: Mutex<(Vec<PathBuf>, usize)> = Mutex::new((Vec::new(), 1));
        // A batch is a parallel iterator: a file that takes long (a candidate, analysed on
        // the thread that read it) leaves the rest of its batch to an idle thread, which
        // splits it off only then.
        let flush = |batch: Vec<PathBuf>| {
            let push = &push;
            scope.spawn(move |_| {
                batch.into_par_iter().for_each(|path| {
                    let v = visit(&path);
                    // The key the run sorts its files by, made here on the pool rather than
                    // for every file on the command's thread once the walk is done.
                    push(Ok((path_order(&path), false, path, v)));
                });
            });
        };
        walker.run(|| {
            Box::new(|entry| {
                match entry {
                    Ok(e) => {
                        if let Some(err) = e.error() {
                            // The rules of this directory's ignore files failed to build.
                            refuse(e.path(), ignore_files::explain(e.path(), err));
                        }
                        if e.file_type().is_some_and(|t| t.is_file()) && keep(e.path()) {
                            // A poisoned lock still holds every file pushed: none is lost.
                            let mut b = batch.lock().unwrap_or_else(PoisonError::into_inner);
                            let (files, size) = &mut *b;
                            files.push(e.into_path());
                            let full = (files.len() == *size).then(|| {
                                *size = (*size * 2).min(MAX_BATCH);
                                std::mem::take(files)
                            });
                            drop(b);
                            if let Some(full) = full {
                                flush(full);
                            }
                        }
                    }
                    Err(err) if ignore_files::is_parents_error(&err) => {
                        refuse(root, ignore_files::explain_above(root, &err));
                    }
                    Err(err) => push(Err(walk_error(&err, root))),
                }
                ignore::WalkState::Continue
            })
        });
        let (last, _) = batch.into_inner().unwrap_or_else(|e| e.into_inner());
        if !last.is_empty() {
            flush(last);
        }
    });
    let (mut files, mut errors) = found
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let unapplied = std::mem::take(&mut *unapplied.lock().unwrap_or_else(|e| e.into_inner()));
    files.retain(|(_, _, p, _)| !unapplied.iter().any(|(d, _)| p.starts_with(d)));
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
    use super::{MAX_BATCH, Walk, path_order, walk};
    use std::collections::BTreeMap;
    use std::path::{Path, PathBuf};
    use std::sync::Mutex;

    /// Every regular file below `dir` whose front end exists, by a plain recursive listing:
    /// the walk's oracle on a tree without ignore files.
    fn listed(dir: &Path, fronts: &[Box<dyn crate::frontend::FrontEnd>], out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
            let (path, kind) = (e.path(), e.file_type().expect("file type"));
            if kind.is_dir() {
                listed(&path, fronts, out);
            } else if kind.is_file() && crate::frontend::front_for(fronts, &path).is_some() {
                out.push(path);
            }
        }
    }

    /// Issue 32 item 1: the walk reads directories on the calling thread and visits the files
    /// on the pool, in batches that grow to [`MAX_BATCH`]. On generated trees (file counts on
    /// each side of every batch size, nested directories, files of other types, a file also
    /// named on the command line) and pools of 1 to 3 threads, every file is visited exactly
    /// once, and the walk returns each, sorted, with what its visit returned.
    #[test]
    fn every_file_is_visited_once_on_any_pool() {
        let fronts = crate::engine::front_ends();
        let mut r = crate::test_rng::Rng(0x0000_3a1c_ba7c);
        let counts = [
            0,
            1,
            2,
            3,
            4,
            7,
            8,
            15,
            16,
            31,
            MAX_BATCH,
            MAX_BATCH + 1,
            3 * MAX_BATCH + 5,
            400,
        ];
        for (round, &count) in counts.iter().enumerate() {
            let dir = tempfile::tempdir().expect("tempdir");
            let mut dirs = vec![dir.path().to_path_buf()];
            for i in 0..count {
                if r.below(4) == 0 {
                    let parent = dirs[r.below(dirs.len())].clone();
                    let sub = parent.join(format!("d{i}"));
                    std::fs::create_dir(&sub).expect("mkdir");
                    dirs.push(sub);
                }
                let ext = r.pick(&["ts", "md", "rs", "txt", "js", "json"]);
                let at = dirs[r.below(dirs.len())].join(format!("f{i}.{ext}"));
                std::fs::write(&at, "x").expect("write");
            }
            let mut expected = Vec::new();
            listed(dir.path(), &fronts, &mut expected);
            expected.sort();
            let named: Vec<PathBuf> = match expected.first() {
                Some(first) => vec![dir.path().to_path_buf(), first.clone()],
                None => vec![dir.path().to_path_buf()],
            };
            let config = crate::config::Config {
                root: dir.path().to_path_buf(),
                ..Default::default()
            };
            for threads in 1..=3 {
                let visits: Mutex<BTreeMap<PathBuf, usize>> = Mutex::default();
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("pool");
                let mut errors = Vec::new();
                let opts = Walk {
                    paths: &named,
                    config: &config,
                    follow: false,
                };
                let found = pool.install(|| {
                    walk(opts, &fronts, &mut errors, &|p| {
                        *visits
                            .lock()
                            .expect("lock")
                            .entry(p.to_path_buf())
                            .or_default() += 1;
                        p.to_string_lossy().len()
                    })
                });
                assert!(errors.is_empty(), "round {round}: {errors:?}");
                let paths: Vec<PathBuf> = found.iter().map(|(p, _, _)| p.clone()).collect();
                assert_eq!(paths, expected, "round {round}, {threads} thread(s)");
                for (p, _, len) in &found {
                    assert_eq!(*len, p.to_string_lossy().len(), "{p:?}");
                }
                let visits = visits.into_inner().expect("lock");
                assert!(
                    visits.values().all(|&n| n == 1),
                    "round {round}, {threads} thread(s): a file visited twice: {visits:?}"
                );
                assert_eq!(visits.len(), expected.len(), "round {round}");
            }
        }
    }

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
