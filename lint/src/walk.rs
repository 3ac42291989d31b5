//! The walk: which files a run reads. Paths named on the command line are taken as given;
//! directories are walked (`.gitignore`-aware, with ripgrep's rules: see `walk/rules.rs`),
//! filtered by the configuration's `include`/`exclude`/`allow_paths` globs and by the front
//! ends' extensions, and returned sorted. Each file is visited (read, for a run) on the rayon pool
//! as soon as the walker finds it: no second pass over the list, and every core busy from
//! the first file found to the last one visited.

use crate::config::Config;
use crate::frontend::FrontEnd;
use crate::model::FileError;
use crate::source::display_path;
use rayon::iter::{IntoParallelIterator, ParallelExtend, ParallelIterator};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

mod global_excludes;
mod ignore_files;
mod rules;
#[cfg(test)]
mod same_as_ripgrep;

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

/// A file found: its [`path_order`] key, whether it was named on the command line (a walk's
/// files were not), its path, and what `visit` returned for it.
type Found<T> = (Vec<u8>, bool, PathBuf, T);

/// Files found by a walk and the walk's errors.
type Walked<T> = (Vec<Found<T>>, Vec<FileError>);

/// A directory to read: its path, its depth below the root, the ignore rules of the
/// directory it is in.
type Pending = (PathBuf, usize, rules::Chain);

/// Walks `root`, keeping the regular files `keep` accepts and visiting each on the pool as
/// soon as it is found; `.gitignore`/`.ignore` rules apply when `ignores` is set, as
/// ripgrep's walker applies them (see [`rules`]). Unordered: the caller sorts.
///
/// An ignore file that cannot be applied (too many patterns for the matcher, a bad line, not
/// a regular file) is an error naming it, and no file below its directory is returned: a walk
/// that went on as if the file were empty would have a run (`--fix` included) read and write
/// the very files it excludes.
fn walk_dir<T: Send>(
    root: &Path,
    opts: Walk<'_>,
    ignores: bool,
    keep: &(dyn Fn(&Path) -> bool + Sync),
    visit: &(dyn Fn(&Path) -> T + Sync),
) -> Walked<T> {
    let rules = if ignores {
        match rules::Rules::above(root, global_excludes::possible()) {
            Ok(rules) => Some(rules),
            Err(errors) => return (Vec::new(), errors),
        }
    } else {
        None
    };
    // With links followed, a link to a directory above the root is a loop too.
    let above_root: Vec<PathBuf> = match opts.follow.then(|| root.canonicalize()) {
        Some(Ok(canonical)) => canonical
            .ancestors()
            .skip(1)
            .map(Path::to_path_buf)
            .collect(),
        _ => Vec::new(),
    };
    let found: Mutex<Walked<T>> = Mutex::new((Vec::new(), Vec::new()));
    let push = |item: Result<Found<T>, FileError>| {
        // Like every lock of the walk, recovered if poisoned: nothing pushed is lost.
        let mut lists = found.lock().unwrap_or_else(PoisonError::into_inner);
        match item {
            Ok(found) => lists.0.push(found),
            Err(e) => lists.1.push(e),
        }
    };
    // The directories are read in turn on the calling thread, and the files found are visited
    // on the pool, in batches. One thread: reading directories costs little beside visiting
    // their files, and reading them as tasks of the pool measured no faster (session 27,
    // docs/benchmarks/lint.md). Each directory's listing is read
    // before anything else is done with it: its ignore files are found there, with their
    // types, and none is looked up by name. The batches grow from one file (the pool starts at
    // once) to [`MAX_BATCH`] (few jobs, and few wake-ups, on a large tree). The calling
    // thread, a thread of the pool, joins the pool's work once the walk is done.
    let reader = Reader {
        root,
        follow: opts.follow,
        rules: rules.as_ref(),
        above_root: &above_root,
        keep,
        push: &push,
    };
    rayon::in_place_scope(|scope| {
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
        let (mut batch, mut size) = (Vec::new(), 1);
        let mut pending: Vec<Pending> = vec![(root.to_path_buf(), 0, rules::Chain::default())];
        while let Some(dir) = pending.pop() {
            let (subdirs, files) = reader.read(dir);
            pending.extend(subdirs);
            for path in files {
                batch.push(path);
                if batch.len() == size {
                    size = (size * 2).min(MAX_BATCH);
                    flush(std::mem::take(&mut batch));
                }
            }
        }
        if !batch.is_empty() {
            flush(batch);
        }
    });
    found
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What reading one directory of a walk needs.
struct Reader<'a, T> {
    /// The walk's root: what an error that names no path is reported at.
    root: &'a Path,
    follow: bool,
    rules: Option<&'a rules::Rules>,
    /// With links followed: the root's canonical ancestors (see [`symlink_loop`]).
    above_root: &'a [PathBuf],
    keep: &'a (dyn Fn(&Path) -> bool + Sync),
    push: &'a (dyn Fn(Result<Found<T>, FileError>) + Sync),
}

impl<T> Reader<'_, T> {
    fn cannot(&self, err: ignore::Error) {
        (self.push)(Err(walk_error(&err, self.root)));
    }

    /// Reads the directory `dir`: the directories below it to read next and the files in it
    /// to keep; the errors met go to `push`.
    fn read(&self, (dir, depth, up): Pending) -> (Vec<Pending>, Vec<PathBuf>) {
        let (mut subdirs, mut files) = (Vec::new(), Vec::new());
        let listing = match std::fs::read_dir(&dir) {
            Ok(listing) => listing,
            Err(err) => {
                self.cannot(io_error(err, &dir));
                return (subdirs, files);
            }
        };
        let mut listed = rules::Listed::default();
        let mut entries = Vec::new();
        for entry in listing {
            match entry {
                Ok(entry) => {
                    let (path, kind) = (entry.path(), entry.file_type());
                    if let (Ok(kind), Some(name)) = (&kind, path.file_name()) {
                        listed.note(name, *kind);
                    }
                    entries.push((path, kind));
                }
                Err(err) => self.cannot(io_error(err, &dir)),
            }
        }
        let chain = match self.rules {
            Some(_) => match rules::Rules::enter(&dir, &listed, &up) {
                Ok(chain) => chain,
                Err(errors) => {
                    // Nothing below `dir` is walked: its rules cannot be applied.
                    errors.into_iter().for_each(|e| (self.push)(Err(e)));
                    return (subdirs, files);
                }
            },
            None => up,
        };
        for (path, kind) in entries {
            let mut kind = match kind {
                Ok(kind) => kind,
                Err(err) => {
                    self.cannot(io_error(err, &path));
                    continue;
                }
            };
            if self.follow && kind.is_symlink() {
                match std::fs::metadata(&path) {
                    Ok(meta) => kind = meta.file_type(),
                    Err(err) => {
                        // A link that cannot be followed is reported unless the rules ignore
                        // the link itself.
                        if !self.rules.is_some_and(|r| r.ignores(&chain, &path, false)) {
                            self.cannot(io_error(err, &path));
                        }
                        continue;
                    }
                }
                let looped = match kind.is_dir() {
                    true => symlink_loop(&path, &dir, depth, self.above_root).err(),
                    false => None,
                };
                if let Some(err) = looped {
                    self.cannot(err);
                    continue;
                }
            }
            if self
                .rules
                .is_some_and(|r| r.ignores(&chain, &path, kind.is_dir()))
                || path.file_name() == Some(std::ffi::OsStr::new(".git"))
            {
                continue;
            }
            if kind.is_dir() {
                subdirs.push((path, depth + 1, chain.clone()));
            } else if kind.is_file() && (self.keep)(&path) {
                files.push(path);
            }
        }
        (subdirs, files)
    }
}

/// An I/O error of the walk at `path`, as the walker reports it.
fn io_error(err: std::io::Error, path: &Path) -> ignore::Error {
    ignore::Error::WithPath {
        path: path.to_path_buf(),
        err: Box::new(ignore::Error::Io(err)),
    }
}

/// With links followed: an error when the directory `link` (found in `dir`, at `depth` below
/// the root) is `dir` or a directory above it, up to the root and the root's own ancestors
/// (`above_root`, canonical: one above the root contains it too): walking it would never end.
fn symlink_loop(
    link: &Path,
    dir: &Path,
    depth: usize,
    above_root: &[PathBuf],
) -> Result<(), ignore::Error> {
    let target = same_file::Handle::from_path(link).map_err(|e| io_error(e, link))?;
    let walked = dir.ancestors().take(depth + 1);
    for ancestor in walked.chain(above_root.iter().map(PathBuf::as_path)) {
        let handle = same_file::Handle::from_path(ancestor).map_err(|e| io_error(e, link))?;
        if handle == target {
            return Err(ignore::Error::Loop {
                ancestor: ancestor.to_path_buf(),
                child: link.to_path_buf(),
            });
        }
    }
    Ok(())
}

fn walk_error(err: &ignore::Error, root: &Path) -> FileError {
    /// The path the error is about: the entry's, a loop's link, else none.
    fn about(err: &ignore::Error) -> Option<&Path> {
        match err {
            ignore::Error::WithPath { path, .. } => Some(path),
            ignore::Error::WithDepth { err, .. } => about(err),
            ignore::Error::Loop { child, .. } => Some(child),
            _ => None,
        }
    }
    let text = err.to_string();
    FileError {
        path: display_path(about(err).unwrap_or(root)),
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

    /// Bad input never hangs the walk: every file the walk may open to read rules (an ignore
    /// file above the root, a directory's `.gitignore` and `.ignore`, a repository's exclude
    /// file, a worktree's `commondir` and its common directory's exclude file) is made a FIFO,
    /// in every combination (opening one would block until a writer came). Each walk ends; a
    /// directory whose rules are a FIFO is refused with an error and nothing below it is
    /// returned, every other file is; a FIFO `commondir` is not opened (the worktree's exclude
    /// file is then unknown, as when `commondir` is missing). (`ignore`'s walker blocks for
    /// ever on that one.)
    #[test]
    fn a_fifo_wherever_the_walk_reads_rules_does_not_block_it() {
        const POSITIONS: [&str; 6] = [
            ".gitignore",
            "r/sub/.gitignore",
            "r/sub/.ignore",
            "r/repo/.git/info/exclude",
            "gitdir/commondir",
            "common/info/exclude",
        ];
        for combination in 1..1u32 << POSITIONS.len() {
            let fifo = |i: usize| combination & (1 << i) != 0;
            let dir = tempfile::tempdir().expect("tempdir");
            let top = dir.path().canonicalize().expect("canonical");
            let root = top.join("r");
            for sub in ["r/sub", "r/repo/.git/info", "r/wt", "gitdir", "common/info"] {
                std::fs::create_dir_all(top.join(sub)).expect("mkdir");
            }
            for file in ["r/a.ts", "r/sub/c.ts", "r/repo/b.ts", "r/wt/d.ts"] {
                std::fs::write(top.join(file), "x").expect("write");
            }
            let dot_git = format!("gitdir: {}\n", top.join("gitdir").display());
            std::fs::write(top.join("r/wt/.git"), dot_git).expect("write");
            for (i, position) in POSITIONS.iter().enumerate() {
                let path = top.join(position);
                if !fifo(i) {
                    let text = match *position {
                        "gitdir/commondir" => format!("{}\n", top.join("common").display()),
                        _ => "# nothing\n".to_owned(),
                    };
                    std::fs::write(&path, text).expect("write");
                    continue;
                }
                let made = std::process::Command::new("mkfifo").arg(&path).status();
                if !made.is_ok_and(|s| s.success()) {
                    return; // No `mkfifo` here: nothing to check.
                }
            }
            let (tx, rx) = std::sync::mpsc::channel();
            let walked = root.clone();
            std::thread::spawn(move || {
                let config = crate::config::Config::default();
                let opts = Walk {
                    paths: &[],
                    config: &config,
                    follow: false,
                };
                let ts = |p: &Path| p.extension().is_some_and(|e| e == "ts");
                let (files, errors) = super::walk_dir(&walked, opts, true, &ts, &|_| ());
                let mut files: Vec<PathBuf> = files.into_iter().map(|(_, _, p, _)| p).collect();
                files.sort();
                tx.send((files, errors)).ok();
            });
            let (files, errors) = rx
                .recv_timeout(std::time::Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("the walk blocked, FIFOs {combination:06b}"));
            let refused_sub = fifo(1) || fifo(2);
            let refused_repo = fifo(3);
            // The common exclude file is reached only through a regular `commondir`.
            let refused_wt = fifo(5) && !fifo(4);
            let mut want: Vec<PathBuf> = Vec::new();
            if !fifo(0) {
                want.push(root.join("a.ts"));
                if !refused_repo {
                    want.push(root.join("repo/b.ts"));
                }
                if !refused_sub {
                    want.push(root.join("sub/c.ts"));
                }
                if !refused_wt {
                    want.push(root.join("wt/d.ts"));
                }
            }
            assert_eq!(files, want, "FIFOs {combination:06b}: {errors:?}");
            let refused = fifo(0) || refused_sub || refused_repo || refused_wt;
            assert_eq!(
                !errors.is_empty(),
                refused,
                "FIFOs {combination:06b}: {errors:?}"
            );
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
