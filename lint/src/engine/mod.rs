//! The run: walk, prefilter, pass 1 (declarations, to a fixpoint), pass 2 (occurrences),
//! then rules, severities, suppressions, fingerprints and baseline. Language-neutral: it
//! talks to front ends through [`FrontEnd`].

use crate::baseline::{Baseline, Entry};
pub use crate::cache::Cache;
use crate::catalog::Catalog;
use crate::config::Config;
use crate::frontend::{CallNames, Context, Declaration, Declarations, FrontEnd, Symbols};
use crate::hash::{HashMap, HashSet};
use crate::model::{FileError, Finding, Severity};
use crate::source::{Source, read_source};
use aho_corasick::AhoCorasick;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Re-exported from [`crate::source`], where they live, for callers of the earlier path.
pub use crate::source::display_path;

mod early;
mod findings;

use early::{Analyzed, Early, Speculation};

use findings::file_findings;
// Kept public here for callers of `engine::text_range`; it lives with `LineIndex`.
pub use crate::source::text_range;

/// What to lint and how.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Files and directories (default: `.`).
    pub paths: Vec<PathBuf>,
    /// Worker threads of a pool built for the run; `None`: the calling thread's pool if it
    /// has one ([`join_run_pool`]), else the analysing pool, a thread per core, built once.
    pub jobs: Option<usize>,
    /// Follow symbolic links while walking (loops are reported, not followed forever).
    pub follow: bool,
    /// The configuration.
    pub config: Config,
}

/// Counters for the summary line and the benchmark.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Files walked and read.
    pub files: usize,
    /// Files that passed the byte prefilter (a removed name; in Rust also its namespace, from
    /// which `concat!`/`format!` assemble names; or a declared identifier) and were analysed.
    pub candidates: usize,
    /// Identifiers found to stand for a removed event.
    pub declarations: usize,
    /// Findings removed by inline suppressions.
    pub suppressed: usize,
    /// Findings removed by the baseline.
    pub baselined: usize,
    /// Findings removed because they already existed at the `--new-since` revision.
    pub preexisting: usize,
    /// Files the host pass read for their declarations: the scripts with a finding, when one
    /// of them has a fix, and the files their imports reach (never the run's other scripts).
    pub host_files: usize,
}

/// The result of a run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Findings, sorted by path, line, column and rule.
    pub findings: Vec<Finding>,
    /// Files that could not be read or walked.
    pub errors: Vec<FileError>,
    /// Baseline entries that matched no finding.
    pub stale: Vec<Entry>,
    /// Counters.
    pub stats: Stats,
}

impl Report {
    /// Whether any finding has error severity.
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// Whether any finding has error severity and is not the human's part
    /// ([`Finding::human`](crate::model::Finding::human)): what `--fix` and `--diff` fail on
    /// (see `docs/lint/README.md#exit-status`).
    pub fn has_errors_to_fix(&self) -> bool {
        self.findings
            .iter()
            .any(|f| f.severity == Severity::Error && !f.human)
    }

    /// The findings that are the human's part, in report order.
    pub fn human_part(&self) -> impl Iterator<Item = &crate::model::Finding> {
        self.findings.iter().filter(|f| f.human)
    }

    /// Applies a baseline (matching paths with `key`), recording what it removed.
    pub fn apply_baseline(&mut self, baseline: &Baseline, key: impl Fn(&str) -> String) {
        let (removed, stale) = baseline.apply(&mut self.findings, key);
        self.stats.baselined += removed;
        self.stale.extend(stale);
    }
}

pub(crate) fn front_ends() -> Vec<Box<dyn FrontEnd>> {
    vec![
        Box::new(crate::frontend::rust::Rust),
        Box::new(crate::frontend::typescript::TypeScript),
        Box::new(crate::frontend::markdown::Markdown),
    ]
}

/// Runs the linter. Only the texts of the files that pass the byte prefilter stay in memory
/// ([`Tree::read_candidates`]); the others are read again only if a scan needs them.
/// The candidates are analysed while the walk goes on ([`early`]).
pub fn lint(opts: &Options) -> Report {
    in_pool(opts.jobs, || {
        let catalog = run_catalog(&opts.config).ok();
        let mut tree = match &catalog {
            Some(catalog) => Tree::read_candidates(opts, catalog),
            None => Tree::read(opts),
        };
        let early = std::mem::take(&mut tree.early);
        let files = Files {
            dropped: &tree.dropped,
            prefiltered: catalog.is_some(),
            ..Files::held(&tree.sources)
        };
        let prepared = Prepared {
            catalog,
            early,
            ..Prepared::default()
        };
        let report = run(opts, files, &tree.errors, None, None, prepared);
        // Freeing every file's text is no part of the report: it is done on the pool, whose
        // threads are idle now, while the caller renders the report (issue 32 item 1).
        rayon::spawn(move || drop(tree));
        report
    })
}

/// Stack of the analysing pool's threads: a file nested up to 1536 estimated levels is parsed
/// on them rather than on a thread of its own (`frontend::depth::guarded`; issue 32 item 1).
/// Address space only: the pages a parse does not reach are never touched.
const POOL_STACK: usize = 32 << 20;

/// A pool whose threads have [`POOL_STACK`] bytes of stack, and know it.
fn pool_builder() -> rayon::ThreadPoolBuilder {
    pool_builder_then(|_| {})
}

/// [`pool_builder`], each thread then running `then` with its index as it starts.
fn pool_builder_then(then: impl Fn(usize) + Send + Sync + 'static) -> rayon::ThreadPoolBuilder {
    rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("mirrorless-pool-{i}"))
        .stack_size(POOL_STACK)
        .start_handler(move |index| {
            crate::frontend::depth::set_thread_stack(POOL_STACK);
            then(index);
        })
}

/// Makes the calling thread the first thread of a pool built as the analyses want it (a large
/// stack on each of its other threads, see [`POOL_STACK`]), one more than the cores, for a
/// program that lints on it (`mirrorless lint`, from its main thread): every use of rayon on
/// this thread from then on (a run's walk, its parallel passes) runs on that pool, with this
/// thread taking part. Call it before any other use of rayon on this thread; if this thread
/// already belongs to a pool, or the pool cannot be built, nothing changes, and rayon's
/// global pool is used.
///
/// Nothing waits for the pool's threads to start (`build_global` waited 0.2 ms, over a
/// millisecond when a virtual machine's idle core was slow to wake), and this thread waits
/// while a thread of the walk reads its directories and the others read and analyse the
/// files, then joins them (a pool of only as many threads as cores was slower: 1.10× on
/// upstream's 3f85f522ea subset, 1.19× on an older tree). Its own stack is not the pool's: a
/// file it comes to analyse that is deeper than a default thread's stack allows is parsed on
/// a thread of its own ([`crate::frontend::depth`]), which takes a main thread's stack to be
/// at least a spawned thread's 2 MiB. That holds on Unix (the stack limit, 8 MiB unless
/// lowered); a Windows program's main thread has 1 MiB, so there the pool is rayon's global
/// one, built as before, and this thread only waits for the walk. The pool lives as long as
/// the process. On Linux with glibc, the allocator is first set up for a process that lints
/// once and exits: each thread's arena starts with, and grows by, 4 MiB of address space.
pub fn join_run_pool() {
    #[cfg(unix)]
    {
        // Joined already (`main` joins before parsing the command line, and `lint` asks again
        // for the callers that did not): not even the count of cores is asked again, which
        // reads the cgroup's files.
        if rayon::current_thread_index().is_some() {
            return;
        }
        // Before the pool's threads start: each of them makes its allocator arena then.
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        pad_allocator();
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        if let Ok(pool) = pool_builder_then(|index| {
            // The pool's second thread, as soon as it starts (while this thread still
            // starts the others), does what this thread would otherwise wait for before
            // the walk finds a file: std's detection of the CPU's features, which the
            // catalog's substring searchers ask for first (a dozen `cpuid`, each a trap to
            // the hypervisor on a virtual machine: 7 µs on a CI runner's), whether git's
            // global excludes file can hold a rule (a few small files read), and, when it
            // can, the pattern that finds it, which the walk's first use of `ignore`
            // compiles (0.4 ms: the walk waited 0.25 ms for it when a job of the started
            // pool compiled it).
            if index == 1 {
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                let _ = std::arch::is_x86_feature_detected!("avx2");
                if crate::walk::remember_global_excludes() {
                    drop(ignore::gitignore::gitconfig_excludes_path());
                }
            }
        })
        .num_threads(cores + 1)
        .use_current_thread()
        .build()
        {
            // Dropping it would end the pool this thread now belongs to.
            std::mem::forget(pool);
        }
    }
    #[cfg(not(unix))]
    {
        // An error only says the global pool exists already: it is then used as it is.
        let _ = pool_builder().build_global();
    }
}

/// Bytes glibc's allocator adds to every request it makes of the system, and the least
/// allocation it maps on its own ([`pad_allocator`]).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const ALLOCATOR_PAD: libc::c_int = 4 << 20;

/// Sets glibc's allocator up for a process that lints once and exits (issue 32 item 1).
///
/// By default each thread's arena starts with 132 KiB usable and grows by the pages a request
/// lacks, one `mprotect` at a time (110 of them in a lint of upstream's 3f85f522ea subset, each
/// taking the address space's lock that the other threads' page faults wait for); with
/// `M_TOP_PAD` an arena starts with, and grows by, 4 MiB of address space (14 calls; its pages
/// are still only faulted in when used). Setting it turns off glibc's sliding thresholds, so
/// they are set too: an allocation under 4 MiB comes from an arena rather than from a mapping
/// of its own (which is zeroed page by page and unmapped again on free, an `munmap` that stops
/// every other thread's core to flush its address cache), and free memory is not handed back
/// to the system before 64 MiB lie unused at an arena's top: the process ends soon. The peak
/// resident set of a lint of a cargo registry of 10,164 files grows from about 21 to 26 MiB.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn pad_allocator() {
    for (param, value) in [
        (libc::M_TOP_PAD, ALLOCATOR_PAD),
        (libc::M_MMAP_THRESHOLD, ALLOCATOR_PAD),
        (libc::M_TRIM_THRESHOLD, 16 * ALLOCATOR_PAD),
    ] {
        // SAFETY: `mallopt` only sets a parameter of glibc's allocator, which takes its own
        // lock to do so; a value it refuses leaves the parameter as it was (it returns 0).
        let _ = unsafe { libc::mallopt(param, value) };
    }
}

/// Runs `f` on a thread of the analysing pool ([`pool_builder`], as many threads as cores,
/// built at the first call and kept), whose large stack the parser's depth guard knows, so
/// that a file is parsed in place rather than on a thread of its own (`frontend::depth`):
/// the language server's lints and every other in-process run from a thread of no pool (in a
/// debug build nearly every parse spawned one: 18,589 threads in one language-server test;
/// issue 32 item 5). A thread of a pool already (`mirrorless lint` joined one, or a caller
/// chose its own) runs `f` itself, as before; so does every thread if the pool cannot be
/// built.
fn on_analysis_pool<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    if rayon::current_thread_index().is_some() {
        return f();
    }
    match POOL.get_or_init(|| pool_builder().build().ok()) {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

/// Runs `f` on a pool of `jobs` threads (the analysing pool when `None`: [`on_analysis_pool`]).
fn in_pool<R: Send>(jobs: Option<usize>, f: impl FnOnce() -> R + Send) -> R {
    match jobs {
        Some(n) => match pool_builder().num_threads(n.max(1)).build() {
            Ok(pool) => pool.install(f),
            Err(_) => f(),
        },
        None => on_analysis_pool(f),
    }
}

/// The files of a run, walked and read once: `--fix` lints them again, edited in memory,
/// after each round of fixes.
#[derive(Default)]
pub struct Tree {
    sources: Vec<Source>,
    errors: Vec<FileError>,
    /// Display path → index into `sources`: built by [`Tree::read`] for the edits of `--fix`;
    /// empty for a one-shot lint, which looks no file up by its path (0.05 ms and a string per
    /// file on the command's thread otherwise).
    index: HashMap<String, usize>,
    /// Per source, whether its text was dropped after the prefilter (empty when none was):
    /// see [`Tree::read_candidates`].
    dropped: Vec<bool>,
    /// Per source, what was computed for it while the walk went on (empty when nothing was:
    /// see [`early`]).
    early: Vec<Option<Box<Early>>>,
}

impl Tree {
    /// Walks and reads the files `opts` names.
    pub fn read(opts: &Options) -> Tree {
        let mut tree = Tree::read_with(opts, &|path, _| read_source(path).map(|s| (s, true, None)));
        tree.index = (tree.sources.iter().enumerate())
            .map(|(i, s)| (s.display.clone(), i))
            .collect();
        tree
    }

    /// Walks and reads the files `opts` names, keeping the text of only the files that pass
    /// their front end's byte prefilter ([`FrontEnd::may_hold_name`]): the others cannot
    /// have a finding unless they mention an identifier declared elsewhere, which the run
    /// finds by reading them again. For a one-shot lint (`--fix` edits texts in memory, and
    /// reads with [`Tree::read`]). Each candidate is analysed as soon as it is read, on the
    /// pool while the walk goes on, as if the run declared no identifier ([`early`]).
    fn read_candidates(opts: &Options, catalog: &Catalog) -> Tree {
        let speculation = Speculation::new(catalog, &opts.config);
        let analysers = front_ends();
        // Files are read on the pool ([`crate::walk`]): a candidate is analysed by the thread
        // that read it, while the walk goes on, and its text is not copied for another job.
        let mut tree = Tree::read_with(opts, &|path, fronts| {
            let front = crate::frontend::front_for(fronts, &path);
            let (s, held) = crate::source::read_source_if(path, |text| {
                front.is_some_and(|f| f.may_hold_name(text.as_bytes(), catalog))
            })?;
            let early = match crate::frontend::front_for(&analysers, &s.path) {
                Some(f) if held => Some(Box::new(speculation.run(f, &s))),
                _ => None,
            };
            Ok((s, held, early))
        });
        if tree.dropped.iter().all(|d| !d) {
            tree.dropped = Vec::new();
        }
        if tree.early.iter().all(Option::is_none) {
            tree.early = Vec::new();
        }
        tree
    }

    /// The walk, then `read` on every file in parallel: its source and whether its text is
    /// held.
    fn read_with(opts: &Options, read: &ReadFile<'_>) -> Tree {
        in_pool(opts.jobs, || {
            let fronts = front_ends();
            let mut tree = Tree::default();
            let walk = crate::walk::Walk {
                paths: &opts.paths,
                config: &opts.config,
                follow: opts.follow,
            };
            // Each file is read (and prefiltered) on the pool as soon as the walk finds it.
            let files = crate::walk::walk(walk, &fronts, &mut tree.errors, &|path| {
                read(path.to_path_buf(), &fronts)
            });
            tree.sources.reserve_exact(files.len());
            tree.dropped.reserve_exact(files.len());
            tree.early.reserve_exact(files.len());
            for (_, _, r) in files {
                match r {
                    Ok((s, held, early)) => {
                        tree.sources.push(s);
                        tree.dropped.push(!held);
                        tree.early.push(early);
                    }
                    Err(e) => tree.errors.push(e),
                }
            }
            tree
        })
    }

    /// Every file: the path it was read from, its display path, and its current text.
    pub fn files(&self) -> impl Iterator<Item = (&Path, &str, &str)> {
        self.sources
            .iter()
            .map(|s| (s.path.as_path(), s.display.as_str(), s.text.as_str()))
    }

    /// The path and current text of the file shown as `display`.
    pub fn file(&self, display: &str) -> Option<(&Path, &str)> {
        let s = &self.sources[*self.index.get(display)?];
        Some((s.path.as_path(), s.text.as_str()))
    }

    /// The current text of the file shown as `display`.
    pub fn text(&self, display: &str) -> Option<&str> {
        self.file(display).map(|(_, t)| t)
    }

    /// Replaces the text of the file shown as `display` (in memory only).
    pub fn set_text(&mut self, display: &str, text: String) {
        if let Some(&i) = self.index.get(display) {
            self.sources[i].text = text;
            if let Some(d) = self.dropped.get_mut(i) {
                *d = false;
            }
        }
    }
}

/// Reads one walked file for [`Tree::read_with`] (its front ends at hand): its source,
/// whether its text is held, and what was computed for it early ([`early`]).
type ReadFile<'a> = dyn Fn(PathBuf, &[Box<dyn FrontEnd>]) -> Result<(Source, bool, Option<Box<Early>>), FileError>
    + Sync
    + 'a;

/// How many syntax errors the front end of `path` counts in `text` (see
/// [`FrontEnd::syntax_errors`]).
pub fn syntax_errors(path: &Path, display: &str, text: &str) -> usize {
    front_ends()
        .iter()
        .find(|f| f.handles(path))
        .map_or(0, |f| f.syntax_errors(display, text))
}

/// Lints the files of `tree` as they are now.
pub fn lint_tree(opts: &Options, tree: &Tree) -> Report {
    let files = Files {
        dropped: &tree.dropped,
        ..Files::held(&tree.sources)
    };
    in_pool(opts.jobs, || {
        run(opts, files, &tree.errors, None, None, Prepared::default())
    })
}

/// [`lint_tree`], reusing with `cache` what an earlier round computed for the files whose text
/// has not changed: `--fix` lints the tree again after each round of fixes, and parses again
/// only the files it edited (every file, when the edits changed the run's declarations).
pub fn lint_tree_cached(opts: &Options, tree: &Tree, cache: &mut Cache) -> Report {
    let files = Files {
        dropped: &tree.dropped,
        ..Files::held(&tree.sources)
    };
    in_pool(opts.jobs, || {
        run(
            opts,
            files,
            &tree.errors,
            None,
            Some(cache),
            Prepared::default(),
        )
    })
}

/// Walks `opts.paths` as [`lint`] does (configuration globs, `.gitignore`) and reads every file
/// a front end handles; the files that cannot be read or walked are returned as errors.
pub fn read_sources(opts: &Options) -> (Vec<Source>, Vec<FileError>) {
    let tree = Tree::read(opts);
    (tree.sources, tree.errors)
}

/// Lints one document's text in memory, alone (no disk read): what `mirrorless lint FILE`
/// reports for a file with this text, as the language server does for an unsaved buffer.
pub fn lint_document(path: &Path, text: &str, config: &Config) -> Report {
    let source = Source {
        path: path.to_path_buf(),
        display: display_path(path),
        text: text.to_owned(),
    };
    let opts = Options {
        config: config.clone(),
        ..Options::default()
    };
    lint_sources(&opts, std::slice::from_ref(&source), &[], None)
}

/// Lints texts already in memory as one run (identifiers declared in one resolve uses in the
/// others, as in [`lint`]), with `opts.config`; `errors` are reported as they are. With
/// `only`, the report holds the findings of the sources whose `display` is listed there; every
/// source still takes part in resolution and in the run-level passes (whether a deletion is
/// safe depends on the uses in the other files), so those findings are exactly what a run
/// without `only` reports for them.
pub fn lint_sources(
    opts: &Options,
    sources: &[Source],
    errors: &[FileError],
    only: Option<&[String]>,
) -> Report {
    run(
        opts,
        Files::held(sources),
        errors,
        only,
        None,
        Prepared::default(),
    )
}

/// [`lint_sources`], reusing what earlier runs with `cache` computed for files whose text has
/// not changed (see [`Cache`]): the language server lints the whole workspace on every change
/// and parses only the documents that changed. The report is the one [`lint_sources`] gives.
pub fn lint_sources_cached(
    opts: &Options,
    sources: &[Source],
    errors: &[FileError],
    only: Option<&[String]>,
    cache: &mut Cache,
) -> Report {
    cached(opts, sources, errors, only, cache, false)
}

/// [`lint_sources_cached`] without the passes that settle each fix against the whole run
/// ([`settle_fixes`]: which deletions other files still need, which events the host still
/// declares, which fixes wait for a use elsewhere, which fixes Markdown follows): the same
/// findings, in the same order, at the same places, with the same rules, messages, help and
/// fingerprints; only their `fix`, `note` and `human` part are what each file's analysis
/// gave, unsettled. For a caller that asks where findings are and what they say, not how they
/// are fixed: the language server's check that a suppression comment silences its finding and
/// nothing else, run for each quick fix it offers (issue 32 item 5). `cache` is used and kept
/// as [`lint_sources_cached`] uses it.
pub fn lint_sources_cached_unsettled(
    opts: &Options,
    sources: &[Source],
    errors: &[FileError],
    only: Option<&[String]>,
    cache: &mut Cache,
) -> Report {
    cached(opts, sources, errors, only, cache, true)
}

/// The run of [`lint_sources_cached`], settling fixes or not.
fn cached(
    opts: &Options,
    sources: &[Source],
    errors: &[FileError],
    only: Option<&[String]>,
    cache: &mut Cache,
    unsettled: bool,
) -> Report {
    let prepared = Prepared {
        unsettled,
        ..Prepared::default()
    };
    let files = Files::held(sources);
    run(opts, files, errors, only, Some(cache), prepared)
}

/// [`lint_sources`] with every source taken past the byte prefilter: what the run reports
/// when each front end decides alone what a file holds. The reference the prefilter is tested
/// against (`lint/tests/prefilter.rs`): it may only save work, never change a finding.
#[doc(hidden)]
pub fn lint_sources_unfiltered(opts: &Options, sources: &[Source], errors: &[FileError]) -> Report {
    let files = Files {
        every_candidate: true,
        ..Files::held(sources)
    };
    run(opts, files, errors, None, None, Prepared::default())
}

/// The sources of a run, and which of them were read without keeping their text.
#[derive(Clone, Copy)]
struct Files<'a> {
    sources: &'a [Source],
    /// Per source, whether its text was dropped (empty: none was).
    dropped: &'a [bool],
    /// Every source is a candidate (no prefilter).
    every_candidate: bool,
    /// Each held text passed the prefilter, with the run's catalog, as the walk read it (a
    /// one-shot lint): it is a candidate without a second scan.
    prefiltered: bool,
}

impl<'a> Files<'a> {
    /// Sources whose every text is held.
    fn held(sources: &'a [Source]) -> Files<'a> {
        Files {
            sources,
            dropped: &[],
            every_candidate: false,
            prefiltered: false,
        }
    }

    fn is_dropped(&self, i: usize) -> bool {
        self.dropped.get(i).copied().unwrap_or(false)
    }

    /// `f` on the text of source `i`: held, or read again from its file (empty if it can no
    /// longer be read: it was read once, and is treated as unchanged at worst).
    fn with_text<R>(&self, i: usize, f: impl FnOnce(&str) -> R) -> R {
        let s = &self.sources[i];
        if self.is_dropped(i) {
            f(&std::fs::read_to_string(&s.path).unwrap_or_default())
        } else {
            f(&s.text)
        }
    }
}

/// What a one-shot lint computed while it walked: the catalog it prefiltered with, and per
/// source what was analysed early ([`early`]). Empty for the other runs.
#[derive(Default)]
struct Prepared {
    catalog: Option<Catalog>,
    early: Vec<Option<Box<Early>>>,
    /// Skip the passes that settle fixes across the run ([`lint_sources_cached_unsettled`]).
    unsettled: bool,
}

/// The run over read sources: the catalog, pass 1 to a fixpoint, pass 2 on the candidates
/// (from `cache` where it has them), then the run-level passes; on the analysing pool, from
/// whatever thread it is called ([`on_analysis_pool`]).
fn run(
    opts: &Options,
    files: Files<'_>,
    errors: &[FileError],
    only: Option<&[String]>,
    cache: Option<&mut Cache>,
    prepared: Prepared,
) -> Report {
    on_analysis_pool(|| run_here(opts, files, errors, only, cache, prepared))
}

/// [`run`] on the calling thread.
fn run_here(
    opts: &Options,
    files: Files<'_>,
    errors: &[FileError],
    only: Option<&[String]>,
    mut cache: Option<&mut Cache>,
    prepared: Prepared,
) -> Report {
    #[cfg(test)]
    tests::record_depth_limit(opts);
    let Prepared {
        catalog,
        early,
        unsettled,
    } = prepared;
    let sources = files.sources;
    let fronts = front_ends();
    let mut report = Report {
        errors: errors.to_vec(),
        ..Report::default()
    };
    // Non-UTF-8 files were read lossily and are still scanned; their error is recorded.
    report.stats.files = sources.len();

    let config = &opts.config;
    // Built once per run: a one-shot lint already built it for the walk's prefilter.
    let catalog = match catalog.map_or_else(|| run_catalog(config), Ok) {
        Ok(c) => c,
        Err(error) => {
            report.errors.push(error);
            return report;
        }
    };
    if let Some(c) = cache.as_deref_mut() {
        c.begin(config);
    }
    let calls = call_names(config);
    let mut resolved = resolve_declarations(
        files,
        &fronts,
        &catalog,
        &calls,
        cache.as_deref_mut(),
        &early,
    );
    // The early analyses are pass 2's when the run declares no identifier ([`early`]).
    let early: Vec<Option<Analyzed>> = match resolved.symbols.is_empty() {
        true => early.into_iter().map(|e| e?.analysis).collect(),
        false => Vec::new(),
    };
    // A dropped file that mentions a declared identifier is analysed: hold its text now.
    let reread: Vec<Source>;
    let mut still_dropped: Vec<bool> = Vec::new();
    let sources = if (0..sources.len()).any(|i| files.is_dropped(i) && resolved.candidate[i]) {
        reread = (sources.iter().enumerate())
            .map(
                |(i, s)| match files.is_dropped(i) && resolved.candidate[i] {
                    true => Source {
                        text: files.with_text(i, str::to_owned),
                        ..s.clone()
                    },
                    false => s.clone(),
                },
            )
            .collect();
        still_dropped = (0..sources.len())
            .map(|i| files.is_dropped(i) && !resolved.candidate[i])
            .collect();
        &reread[..]
    } else {
        sources
    };
    let files = Files {
        sources,
        dropped: if still_dropped.is_empty() {
            files.dropped
        } else {
            &still_dropped
        },
        every_candidate: files.every_candidate,
        // A dropped file read again for a declared identifier did not pass the prefilter.
        prefiltered: files.prefiltered && still_dropped.is_empty(),
    };
    report.stats.declarations = resolved.symbols.len();
    if let Some(c) = cache.as_deref_mut() {
        c.use_symbols(std::mem::take(&mut resolved.declared));
    }
    let per_file = analyze_candidates(
        sources,
        &fronts,
        &resolved,
        &catalog,
        &calls,
        config,
        cache.as_deref(),
        early,
    );
    report.stats.candidates = resolved.candidate.iter().filter(|c| **c).count();
    let hosts = record_analyses(&mut report, per_file, sources, &resolved, only, cache);
    if !unsettled {
        settle_fixes(&mut report, files, hosts);
    }
    keep_only_in_order(&mut report, only);
    report
}

/// The catalog of removed events with the configuration's extra events, or the
/// configuration's error.
fn run_catalog(config: &Config) -> Result<Catalog, FileError> {
    Catalog::new(&config.extra_events()).map_err(|message| FileError {
        path: config
            .source
            .as_deref()
            .map_or_else(|| "configuration".to_owned(), display_path),
        line: None,
        message,
    })
}

/// The subscribe and emit methods and the ignored receivers: the built-in ones and the
/// configuration's.
fn call_names(config: &Config) -> CallNames {
    let mut calls = CallNames::default();
    calls
        .subscribe
        .extend(config.lint.subscribe_methods.iter().cloned());
    calls.emit.extend(config.lint.emit_methods.iter().cloned());
    calls.ignore_receivers = config.lint.ignore_receivers.clone();
    calls
}

/// The front end that handles `s`, if any.
fn front_of<'f>(fronts: &'f [Box<dyn FrontEnd>], s: &Source) -> Option<&'f dyn FrontEnd> {
    crate::frontend::front_for(fronts, &s.path)
}

/// What pass 1 decided: the run's symbols, and which files pass 2 analyses.
struct Resolution {
    symbols: Symbols,
    /// Files pass 2 analyses: they contain a removed name (or its namespace) or mention a
    /// declared identifier.
    candidate: Vec<bool>,
    /// Files that mention a declared identifier.
    ident_hit: Vec<bool>,
    /// Every declaration of the run, sorted (gathered only with a cache: analyses are reused
    /// only with the same).
    declared: Vec<Declaration>,
}

/// Pass 1: files that contain a removed name (or its namespace) declare identifiers; files
/// that mention a declared identifier may declare more (aliases, const chains), to a fixpoint
/// (at most 16 rounds).
fn resolve_declarations(
    files: Files<'_>,
    fronts: &[Box<dyn FrontEnd>],
    catalog: &Catalog,
    calls: &CallNames,
    mut cache: Option<&mut Cache>,
    early: &[Option<Box<Early>>],
) -> Resolution {
    let sources = files.sources;
    // The verdicts a cache that tracks changes kept: those files are not scanned again.
    let tracked = cache.as_deref().filter(|c| c.tracks_changes());
    let known: Vec<Option<bool>> = match tracked {
        Some(c) if !files.every_candidate => (sources.iter())
            .map(|s| c.may_hold_name(&s.display, &s.path))
            .collect(),
        _ => vec![None; sources.len()],
    };
    // A dropped file failed this prefilter when it was read.
    let candidate_of = |i: usize, s: &Source| {
        files.every_candidate
            || known[i].unwrap_or_else(|| {
                !files.is_dropped(i)
                    && (files.prefiltered
                        || front_of(fronts, s)
                            .is_some_and(|f| f.may_hold_name(s.text.as_bytes(), catalog)))
            })
    };
    let mut candidate: Vec<bool> = match files.prefiltered {
        // Nothing to scan: no thread of the pool is woken for it.
        true => (sources.iter().enumerate())
            .map(|(i, s)| candidate_of(i, s))
            .collect(),
        false => (sources.par_iter().enumerate())
            .map(|(i, s)| candidate_of(i, s))
            .collect(),
    };
    if let Some(c) = cache.as_deref_mut().filter(|c| c.tracks_changes())
        && !files.every_candidate
    {
        for (i, s) in sources
            .iter()
            .enumerate()
            .filter(|(i, _)| known[*i].is_none())
        {
            c.store_may_hold_name(&s.display, &s.path, candidate[i]);
        }
    }
    let mut symbols = Symbols::default();
    let mut ident_hit = vec![false; sources.len()];
    let mut collected = vec![false; sources.len()];
    let mut pending: Vec<Vec<String>> = vec![Vec::new(); sources.len()];
    // Files whose pending words are still to be read from their text, however their
    // declarations came (early, cached or collected): [`Declarations::pending_later`].
    let mut pending_later = vec![false; sources.len()];
    let mut frontier: Vec<usize> = (0..sources.len()).filter(|&i| candidate[i]).collect();
    let mut declared: Vec<Declaration> = Vec::new();
    for round in 0..16 {
        if frontier.is_empty() {
            break;
        }
        let cx = Context {
            catalog,
            symbols: &symbols,
            calls,
            mentions_declared: !symbols.is_empty(),
        };
        // The first round sees no declarations yet: its result depends on the text alone;
        // a later one's on the text and the declarations in view, kept by the cache as a set.
        let set = match cache.as_deref_mut() {
            Some(c) if round > 0 => Some(c.later_set(symbols.sorted())),
            _ => None,
        };
        let cached = |i: usize| {
            if round == 0
                && let Some(Some(e)) = early.get(i)
            {
                return Some(e.declarations.clone());
            }
            let s = &sources[i];
            let c = cache.as_deref()?;
            match set {
                None => c.declarations(&s.display, &s.path, &s.text).cloned(),
                Some(set) => (c.later_declarations(&s.display, &s.path, &s.text, set)).cloned(),
            }
        };
        let declarations = |i: usize| match cached(i) {
            Some(d) => (i, d, true),
            None => {
                let s = &sources[i];
                let d = front_of(fronts, s).map_or_else(Declarations::default, |f| {
                    files.with_text(i, |text| f.declarations(&s.display, text, cx))
                });
                (i, d, false)
            }
        };
        // A one-shot lint's first round has every candidate's declarations from its early
        // analysis: copying them wakes no thread of the pool.
        let all_early = round == 0
            && frontier
                .iter()
                .all(|&i| matches!(early.get(i), Some(Some(_))));
        let results: Vec<(usize, Declarations, bool)> = match all_early {
            true => frontier.iter().map(|&i| declarations(i)).collect(),
            false => frontier.par_iter().map(|&i| declarations(i)).collect(),
        };
        let mut new_idents = Vec::new();
        for (i, d, hit) in results {
            if !hit && let Some(c) = cache.as_deref_mut() {
                let s = &sources[i];
                match set {
                    None => c.store_declarations(&s.display, &s.path, &s.text, d.clone()),
                    Some(set) => {
                        c.store_later_declarations(&s.display, &s.path, &s.text, set, d.clone());
                    }
                }
            }
            collected[i] = true;
            pending_later[i] = d.pending_later;
            pending[i] = d.pending;
            for decl in d.found {
                let ident = decl.ident.clone();
                if cache.is_some() {
                    declared.push(decl.clone());
                }
                if symbols.insert(decl) {
                    new_idents.push(ident);
                }
            }
        }
        symbols.finish();
        if new_idents.is_empty() {
            break;
        }
        new_idents.sort();
        new_idents.dedup();
        let Some(matcher) = ident_matcher(&new_idents) else {
            break;
        };
        // One scan per round: which files mention a new identifier. Files never collected
        // that do are collected next, as are collected files with an item waiting for one.
        let mentions = mentions_of(files, &matcher, &new_idents, cache.as_deref_mut());
        for i in 0..sources.len() {
            if std::mem::take(&mut pending_later[i]) {
                pending[i] = pending_words(fronts, files, i);
            }
        }
        frontier = (0..sources.len())
            .filter(|&i| {
                if collected[i] {
                    pending[i]
                        .iter()
                        .any(|p| new_idents.binary_search(p).is_ok())
                } else {
                    mentions[i]
                }
            })
            .collect();
        // Every file mentioning a declared identifier is analysed in pass 2.
        for (i, m) in mentions.into_iter().enumerate() {
            ident_hit[i] |= m;
            candidate[i] |= m;
        }
    }
    declared.sort();
    declared.dedup();
    Resolution {
        symbols,
        candidate,
        ident_hit,
        declared,
    }
}

/// The pending words of file `i` whose declarations left them to be read from its text
/// ([`Declarations::pending_later`]).
fn pending_words(fronts: &[Box<dyn FrontEnd>], files: Files<'_>, i: usize) -> Vec<String> {
    let s = &files.sources[i];
    front_of(fronts, s).map_or_else(Vec::new, |f| {
        files.with_text(i, |text| f.pending_words(text))
    })
}

/// One candidate's pass 2: its index, findings, how many suppressions removed, its
/// syntax-error count when the analysis parsed it (for `--fix`), what it declares for the
/// host pass when the analysis read that, whether the cache had it.
type PerFile = (
    usize,
    Vec<Finding>,
    usize,
    Option<usize>,
    Option<crate::host_events::HostDeclarations>,
    bool,
);

/// Pass 2: every candidate file, with the whole run's symbols (every file's findings, even
/// with `only`: the run-level passes need them all), from the cache where it has them.
#[allow(clippy::too_many_arguments)]
fn analyze_candidates(
    sources: &[Source],
    fronts: &[Box<dyn FrontEnd>],
    resolved: &Resolution,
    catalog: &Catalog,
    calls: &CallNames,
    config: &Config,
    cache: Option<&Cache>,
    mut early: Vec<Option<Analyzed>>,
) -> Vec<PerFile> {
    // Largest first, one file a task: a large file analysed last on one core while the other
    // waits is what a run's wall time would end on (issue 32 item 1).
    let mut order: Vec<usize> = (0..sources.len())
        .filter(|&i| resolved.candidate[i])
        .collect();
    // Those analysed early ([`early`]) are not analysed again.
    let mut done: Vec<PerFile> = Vec::new();
    order.retain(|&i| match early.get_mut(i).and_then(Option::take) {
        Some((findings, suppressed, syntax, host)) => {
            done.push((i, findings, suppressed, syntax, host, false));
            false
        }
        None => true,
    });
    order.sort_by_key(|&i| std::cmp::Reverse(sources[i].text.len()));
    let mut out: Vec<PerFile> = order
        .into_par_iter()
        .with_max_len(1)
        .map(|i| (i, &sources[i]))
        .map(|(i, s)| {
            let ident_hit = resolved.ident_hit[i];
            if let Some((findings, suppressed)) =
                cache.and_then(|c| c.analysis(&s.display, &s.path, &s.text, ident_hit))
            {
                return (i, findings.to_vec(), suppressed, None, None, true);
            }
            let (findings, suppressed, syntax, host) = match front_of(fronts, s) {
                Some(f) => {
                    let cx = Context {
                        catalog,
                        symbols: &resolved.symbols,
                        calls,
                        mentions_declared: ident_hit,
                    };
                    let mut analysis = f.analyze(&s.display, &s.text, cx);
                    let syntax = analysis.syntax_errors;
                    let host = analysis.host.take();
                    let (findings, suppressed) = file_findings(s, analysis, catalog, config);
                    (findings, suppressed, syntax, host)
                }
                None => (Vec::new(), 0, None, None),
            };
            (i, findings, suppressed, syntax, host, false)
        })
        .collect();
    out.append(&mut done);
    out.sort_by_key(|p| p.0);
    out
}

/// Adds each file's findings to the report (and its suppressions to the count, for the files
/// `only` wants), storing the new analyses in the cache and dropping what it holds for files
/// no longer analysed.
fn record_analyses(
    report: &mut Report,
    per_file: Vec<PerFile>,
    sources: &[Source],
    resolved: &Resolution,
    only: Option<&[String]>,
    mut cache: Option<&mut Cache>,
) -> Vec<Option<crate::host_events::HostDeclarations>> {
    let mut hosts: Vec<Option<crate::host_events::HostDeclarations>> = Vec::new();
    hosts.resize_with(sources.len(), || None);
    let wanted = |s: &Source| only.is_none_or(|o| o.contains(&s.display));
    let misses = per_file.iter().filter(|(.., hit)| !hit).count();
    // Room for every finding at once: each growth would copy all the findings before it.
    report
        .findings
        .reserve(per_file.iter().map(|(_, f, ..)| f.len()).sum());
    for (i, findings, suppressed, syntax, host, hit) in per_file {
        let s = &sources[i];
        hosts[i] = host;
        if !hit && let Some(c) = cache.as_deref_mut() {
            c.store_analysis(
                &s.display,
                &s.path,
                &s.text,
                resolved.ident_hit[i],
                (findings.clone(), suppressed),
                syntax,
            );
        }
        if wanted(s) {
            report.stats.suppressed += suppressed;
        }
        report.findings.extend(findings);
    }
    if let Some(c) = cache {
        c.set_analyzed(misses);
        let keep: HashSet<&str> = (sources.iter().zip(&resolved.candidate))
            .filter(|(_, c)| **c)
            .map(|(s, _)| s.display.as_str())
            .collect();
        c.retain(&keep);
    }
    hosts
}

/// What only the whole run can decide: which deletions other files still need, which events
/// the host still declares, which fixes must wait for a use elsewhere, which fixes Markdown
/// follows. These passes settle each finding's `fix`, `note` and `human` and nothing else: a
/// finding's place, rule, message and every other field, and the list's length and order, are
/// what the files' analyses made them, so a run that skips them
/// ([`lint_sources_cached_unsettled`]) reports the same findings in the same places. Debug
/// builds check that on every run. `hosts`: per source, what it declares for the host pass
/// when its analysis read that.
fn settle_fixes(
    report: &mut Report,
    files: Files<'_>,
    hosts: Vec<Option<crate::host_events::HostDeclarations>>,
) {
    #[cfg(debug_assertions)]
    let unsettled: Vec<Finding> = report.findings.iter().map(unsettled_part).collect();
    drop_deletions_used_elsewhere(&mut report.findings, files);
    // Before `in_use`: a rewrite dropped here is one more listener left on the mirror. The
    // host's event map holds a removed event's entry, so its file is a candidate, held.
    report.stats.host_files = crate::host_events::keep_to_declared_events(
        &mut report.findings,
        files.sources,
        &|i| files.is_dropped(i),
        hosts,
    );
    crate::in_use::keep_what_is_still_used(&mut report.findings);
    // Every file with a finding is a candidate, whose text is held.
    crate::docs_follow::follow_declarations(&mut report.findings, files.sources);
    #[cfg(debug_assertions)]
    for (before, after) in unsettled.iter().zip(&report.findings) {
        assert_eq!(
            before,
            &unsettled_part(after),
            "a pass that settles fixes changed more than a finding's fix, note and human part"
        );
    }
}

/// `f` without what [`settle_fixes`] may change: its fix, note and whether it is the human's
/// part.
#[cfg(debug_assertions)]
fn unsettled_part(f: &Finding) -> Finding {
    Finding {
        fix: None,
        note: None,
        human: false,
        ..f.clone()
    }
}

/// `only`'s files (all when `None`), in a stable order: by path, line, column, rule and event.
fn keep_only_in_order(report: &mut Report, only: Option<&[String]>) {
    if let Some(only) = only {
        report.findings.retain(|f| only.contains(&f.path));
    }
    report.findings.sort_by(|a, b| {
        (&a.path, a.line, a.column, a.rule, &a.event)
            .cmp(&(&b.path, b.line, b.column, b.rule, &b.event))
    });
    report
        .errors
        .sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
}

/// Drops each fix that deletes a declaration whose identifier another Rust file of the run
/// names (a use the front end, seeing one file, cannot know about). By text, so it is the same
/// whether pass 2 ran on every file or on a few (the language server).
fn drop_deletions_used_elsewhere(findings: &mut [Finding], files: Files<'_>) {
    let mut idents: Vec<String> = findings
        .iter()
        .filter_map(|f| f.fix.as_ref())
        .flat_map(|x| x.deletes.iter().cloned())
        .collect();
    if idents.is_empty() {
        return;
    }
    idents.sort();
    idents.dedup();
    let Some(matcher) = ident_matcher(&idents) else {
        return;
    };
    // For each identifier, the files naming it (in the sources' order).
    let named: Vec<Vec<usize>> = (0..files.sources.len())
        .into_par_iter()
        .filter(|&i| files.sources[i].path.extension().is_some_and(|e| e == "rs"))
        .map(|i| files.with_text(i, |text| idents_in(&matcher, text.as_bytes())))
        .collect();
    let rust_files =
        (files.sources.iter()).filter(|s| s.path.extension().is_some_and(|e| e == "rs"));
    let mut named_in: Vec<Vec<&str>> = vec![Vec::new(); idents.len()];
    for (s, patterns) in rust_files.zip(named) {
        for p in patterns {
            named_in[p].push(&s.display);
        }
    }
    for f in findings.iter_mut() {
        let elsewhere = f.fix.as_ref().is_some_and(|x| {
            x.deletes.iter().any(|d| {
                idents
                    .binary_search(d)
                    .is_ok_and(|i| named_in[i].iter().any(|p| *p != f.path))
            })
        });
        if elsewhere {
            f.fix = None;
        }
    }
}

/// A matcher for identifiers: a DFA, since every file of the tree is scanned with it.
/// Leftmost-longest, so a short identifier (an alias `S`) never hides a longer one starting at
/// the same place (`STEP`): `contains_ident` rejects the short match for its word boundary and
/// would otherwise resume past the long one.
fn ident_matcher(idents: &[String]) -> Option<AhoCorasick> {
    let longest = aho_corasick::MatchKind::LeftmostLongest;
    AhoCorasick::builder()
        .kind(Some(aho_corasick::AhoCorasickKind::DFA))
        .match_kind(longest)
        .build(idents)
        .or_else(|_| AhoCorasick::builder().match_kind(longest).build(idents))
        .ok()
}

/// Per file, whether it mentions one of `idents` (which `matcher` finds). A cache that tracks
/// changes answers for the files it scanned for all of them, and keeps what the others' scans
/// find.
fn mentions_of(
    files: Files<'_>,
    matcher: &AhoCorasick,
    idents: &[String],
    cache: Option<&mut Cache>,
) -> Vec<bool> {
    let sources = files.sources;
    let Some(cache) = cache.filter(|c| c.tracks_changes()) else {
        return (0..sources.len())
            .into_par_iter()
            .map(|i| files.with_text(i, |text| contains_ident(matcher, text.as_bytes())))
            .collect();
    };
    let known: Vec<Option<bool>> = (sources.iter())
        .map(|s| cache.mentions_any(&s.display, &s.path, idents))
        .collect();
    let scanned: Vec<(usize, Vec<usize>)> = (0..sources.len())
        .into_par_iter()
        .filter(|&i| known[i].is_none())
        .map(|i| (i, files.with_text(i, |t| idents_in(matcher, t.as_bytes()))))
        .collect();
    let mut mentions: Vec<bool> = known.iter().map(|k| k.unwrap_or(false)).collect();
    for (i, found) in scanned {
        mentions[i] = !found.is_empty();
        let s = &sources[i];
        let names = found.into_iter().map(|p| idents[p].clone()).collect();
        cache.store_mentions(&s.display, &s.path, idents, names);
    }
    mentions
}

/// The patterns of `matcher` that occur in `hay` as whole identifiers, sorted.
fn idents_in(matcher: &AhoCorasick, hay: &[u8]) -> Vec<usize> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found: Vec<usize> = (matcher.find_iter(hay))
        .filter(|m| {
            let before = m.start().checked_sub(1).map(|i| hay[i]);
            !before.is_some_and(ident) && !hay.get(m.end()).is_some_and(|&b| ident(b))
        })
        .map(|m| m.pattern().as_usize())
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

fn contains_ident(matcher: &AhoCorasick, hay: &[u8]) -> bool {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    matcher.find_iter(hay).any(|m| {
        let before = m.start().checked_sub(1).map(|i| hay[i]);
        !before.is_some_and(ident) && !hay.get(m.end()).is_some_and(|&b| ident(b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::depth::{SHALLOW, shallow_limit};
    use std::sync::Mutex;

    /// Per run: the address of its `Options` (the caller's, alive for the whole call, so no
    /// other live run shares it) and how deep a file its thread parses in place.
    static LIMITS: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

    pub(super) fn record_depth_limit(opts: &Options) {
        let key = std::ptr::from_ref(opts) as usize;
        LIMITS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((key, shallow_limit()));
    }

    /// The limit the newest run with `opts` recorded.
    fn limit_of(opts: &Options) -> usize {
        let key = std::ptr::from_ref(opts) as usize;
        let limits = LIMITS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let found = limits.iter().rev().find(|(k, _)| *k == key);
        found.expect("the run recorded its limit").1
    }

    /// Every in-process entry point, called from a thread of no pool (a test's, the language
    /// server's), analyses on a thread whose large stack the depth guard knows: a file a few
    /// dozen levels deep is parsed in place, not on a thread spawned for it (in a debug build,
    /// nearly every file; issue 32 item 5).
    #[test]
    fn runs_from_a_thread_of_no_pool_analyse_on_the_analysing_pool() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        std::fs::write(dir.path().join("a.ts"), "ctx.on('agent/turn-end', f);\n").expect("write");
        let source = Source {
            path: PathBuf::from("a.ts"),
            display: "a.ts".to_owned(),
            text: "ctx.on('agent/turn-end', f);\n".to_owned(),
        };
        let opts = Options {
            paths: vec![dir.path().to_owned()],
            ..Options::default()
        };
        std::thread::spawn(move || {
            assert_eq!(
                shallow_limit(),
                SHALLOW,
                "a plain thread parses in place only shallow files"
            );
            let sources = std::slice::from_ref(&source);
            type Run<'a> = &'a dyn Fn(&Options);
            let runs: [(&str, Run); 5] = [
                ("lint", &|o| drop(lint(o))),
                ("lint_sources", &|o| {
                    drop(lint_sources(o, sources, &[], None))
                }),
                ("lint_sources_cached", &|o| {
                    drop(lint_sources_cached(
                        o,
                        sources,
                        &[],
                        None,
                        &mut Cache::default(),
                    ))
                }),
                ("lint_sources_cached_unsettled", &|o| {
                    drop(lint_sources_cached_unsettled(
                        o,
                        sources,
                        &[],
                        None,
                        &mut Cache::default(),
                    ))
                }),
                ("lint_sources_unfiltered", &|o| {
                    drop(lint_sources_unfiltered(o, sources, &[]))
                }),
            ];
            for (name, run) in runs {
                run(&opts);
                assert!(
                    limit_of(&opts) > SHALLOW,
                    "{name} analysed on a thread whose stack the depth guard does not know"
                );
            }
        })
        .join()
        .expect("the runs");
    }
}
