//! The run: walk, prefilter, pass 1 (declarations, to a fixpoint), pass 2 (occurrences),
//! then rules, severities, suppressions, fingerprints and baseline. Language-neutral: it
//! talks to front ends through [`FrontEnd`].

use crate::baseline::{self, Baseline, Entry};
pub use crate::cache::Cache;
use crate::catalog::Catalog;
use crate::config::Config;
use crate::frontend::{
    CallNames, Context, Declaration, Declarations, FileAnalysis, FrontEnd, Symbols,
};
use crate::model::{FileError, Finding, Occurrence, Role, Severity};
use crate::rules::{self, Rule};
use crate::source::{LineIndex, Source, read_source};
use crate::suppress::{self, Suppression};
use aho_corasick::AhoCorasick;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Re-exported from [`crate::source`], where they live, for callers of the earlier path.
pub use crate::source::display_path;

/// What to lint and how.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Files and directories (default: `.`).
    pub paths: Vec<PathBuf>,
    /// Worker threads (default: one per core).
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
    /// Files that passed the byte prefilter (a removed name, its namespace, or a declared
    /// identifier) and were analysed.
    pub candidates: usize,
    /// Identifiers found to stand for a removed event.
    pub declarations: usize,
    /// Findings removed by inline suppressions.
    pub suppressed: usize,
    /// Findings removed by the baseline.
    pub baselined: usize,
    /// Findings removed because they already existed at the `--new-since` revision.
    pub preexisting: usize,
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

    /// Applies a baseline (matching paths with `key`), recording what it removed.
    pub fn apply_baseline(&mut self, baseline: &Baseline, key: impl Fn(&str) -> String) {
        let (removed, stale) = baseline.apply(&mut self.findings, key);
        self.stats.baselined += removed;
        self.stale.extend(stale);
    }
}

fn front_ends() -> Vec<Box<dyn FrontEnd>> {
    vec![
        Box::new(crate::frontend::rust::Rust),
        Box::new(crate::frontend::typescript::TypeScript),
        Box::new(crate::frontend::markdown::Markdown),
    ]
}

/// Runs the linter.
pub fn lint(opts: &Options) -> Report {
    in_pool(opts.jobs, || lint_tree(opts, &Tree::read(opts)))
}

/// Runs `f` on a pool of `jobs` threads (the global pool when `None`).
fn in_pool<R: Send>(jobs: Option<usize>, f: impl FnOnce() -> R + Send) -> R {
    match jobs {
        Some(n) => match rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
        {
            Ok(pool) => pool.install(f),
            Err(_) => f(),
        },
        None => f(),
    }
}

/// The files of a run, walked and read once: `--fix` lints them again, edited in memory,
/// after each round of fixes.
#[derive(Default)]
pub struct Tree {
    sources: Vec<Source>,
    errors: Vec<FileError>,
    /// Display path → index into `sources`.
    index: HashMap<String, usize>,
}

impl Tree {
    /// Walks and reads the files `opts` names.
    pub fn read(opts: &Options) -> Tree {
        in_pool(opts.jobs, || {
            let fronts = front_ends();
            let mut tree = Tree::default();
            let walk = crate::walk::Walk {
                paths: &opts.paths,
                config: &opts.config,
                follow: opts.follow,
                threads: opts.jobs.unwrap_or_else(rayon::current_num_threads),
            };
            let files = crate::walk::walk(walk, &fronts, &mut tree.errors);
            let read: Vec<Result<Source, FileError>> = files
                .into_par_iter()
                .map(|(path, _named)| read_source(path))
                .collect();
            for r in read {
                match r {
                    Ok(s) => tree.sources.push(s),
                    Err(e) => tree.errors.push(e),
                }
            }
            tree.index = (tree.sources.iter().enumerate())
                .map(|(i, s)| (s.display.clone(), i))
                .collect();
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
        }
    }
}

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
    in_pool(opts.jobs, || {
        lint_sources(opts, &tree.sources, &tree.errors, None)
    })
}

/// [`lint_tree`], reusing with `cache` what an earlier round computed for the files whose text
/// has not changed: `--fix` lints the tree again after each round of fixes, and parses again
/// only the files it edited (every file, when the edits changed the run's declarations).
pub fn lint_tree_cached(opts: &Options, tree: &Tree, cache: &mut Cache) -> Report {
    in_pool(opts.jobs, || {
        lint_sources_cached(opts, &tree.sources, &tree.errors, None, cache)
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
    run(opts, sources, errors, only, None)
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
    run(opts, sources, errors, only, Some(cache))
}

fn run(
    opts: &Options,
    sources: &[Source],
    errors: &[FileError],
    only: Option<&[String]>,
    mut cache: Option<&mut Cache>,
) -> Report {
    let fronts = front_ends();
    let mut report = Report {
        errors: errors.to_vec(),
        ..Report::default()
    };
    // Non-UTF-8 files were read lossily and are still scanned; their error is recorded.
    report.stats.files = sources.len();

    let config = &opts.config;
    let catalog = match Catalog::new(&config.extra_events()) {
        Ok(c) => c,
        Err(message) => {
            report.errors.push(FileError {
                path: config
                    .source
                    .as_deref()
                    .map_or_else(|| "configuration".to_owned(), display_path),
                line: None,
                message,
            });
            return report;
        }
    };
    if let Some(c) = cache.as_deref_mut() {
        c.begin(config);
    }
    let mut calls = CallNames::default();
    calls
        .subscribe
        .extend(config.lint.subscribe_methods.iter().cloned());
    calls.emit.extend(config.lint.emit_methods.iter().cloned());
    calls.ignore_receivers = config.lint.ignore_receivers.clone();
    let front_of = |s: &Source| fronts.iter().find(|f| f.handles(&s.path)).map(|f| &**f);

    // Pass 1: files that contain a removed name (or its namespace) declare identifiers;
    // files that mention a declared identifier may declare more (aliases, const chains).
    let mut candidate: Vec<bool> = sources
        .par_iter()
        .map(|s| catalog.may_contain(s.text.as_bytes()))
        .collect();
    let mut symbols = Symbols::default();
    let mut ident_hit = vec![false; sources.len()];
    let mut collected = vec![false; sources.len()];
    let mut pending: Vec<Vec<String>> = vec![Vec::new(); sources.len()];
    let mut frontier: Vec<usize> = (0..sources.len()).filter(|&i| candidate[i]).collect();
    // Every declaration of the run, for the cache: analyses are reused only with the same.
    let mut declared: Vec<Declaration> = Vec::new();
    for round in 0..16 {
        if frontier.is_empty() {
            break;
        }
        let cx = Context {
            catalog: &catalog,
            symbols: &symbols,
            calls: &calls,
            mentions_declared: !symbols.is_empty(),
        };
        // The first round sees no declarations yet: its result depends on the text alone.
        let cached = |i: usize| {
            let s = &sources[i];
            let c = cache.as_deref().filter(|_| round == 0)?;
            c.declarations(&s.display, &s.path, &s.text).cloned()
        };
        let results: Vec<(usize, Declarations, bool)> = frontier
            .par_iter()
            .map(|&i| match cached(i) {
                Some(d) => (i, d, true),
                None => {
                    let s = &sources[i];
                    let d = front_of(s).map_or_else(Declarations::default, |f| {
                        f.declarations(&s.display, &s.text, cx)
                    });
                    (i, d, false)
                }
            })
            .collect();
        let mut new_idents = Vec::new();
        for (i, d, hit) in results {
            if round == 0
                && !hit
                && let Some(c) = cache.as_deref_mut()
            {
                let s = &sources[i];
                c.store_declarations(&s.display, &s.path, &s.text, d.clone());
            }
            collected[i] = true;
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
        let mentions: Vec<bool> = sources
            .par_iter()
            .map(|s| contains_ident(&matcher, s.text.as_bytes()))
            .collect();
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
    report.stats.declarations = symbols.len();

    // Pass 2: every candidate file, with the whole run's symbols (every file's findings, even
    // with `only`: the run-level passes below need them all).
    if let Some(c) = cache.as_deref_mut() {
        declared.sort();
        declared.dedup();
        c.use_symbols(declared);
    }
    // Per candidate: its findings, how many suppressions removed, its syntax-error count when
    // the analysis parsed it (for `--fix`), whether the cache had it.
    type PerFile = (usize, Vec<Finding>, usize, Option<usize>, bool);
    let per_file: Vec<PerFile> = sources
        .par_iter()
        .enumerate()
        .filter(|(i, _)| candidate[*i])
        .map(|(i, s)| {
            if let Some((findings, suppressed)) = cache
                .as_deref()
                .and_then(|c| c.analysis(&s.display, &s.path, &s.text, ident_hit[i]))
            {
                return (i, findings.to_vec(), suppressed, None, true);
            }
            let (findings, suppressed, syntax) = match front_of(s) {
                Some(f) => {
                    let cx = Context {
                        catalog: &catalog,
                        symbols: &symbols,
                        calls: &calls,
                        mentions_declared: ident_hit[i],
                    };
                    let analysis = f.analyze(&s.display, &s.text, cx);
                    let syntax = analysis.syntax_errors;
                    let (findings, suppressed) = file_findings(s, analysis, &catalog, config);
                    (findings, suppressed, syntax)
                }
                None => (Vec::new(), 0, None),
            };
            (i, findings, suppressed, syntax, false)
        })
        .collect();
    report.stats.candidates = candidate.iter().filter(|c| **c).count();
    let wanted = |s: &Source| only.is_none_or(|o| o.contains(&s.display));
    let misses = per_file.iter().filter(|(.., hit)| !hit).count();
    for (i, findings, suppressed, syntax, hit) in per_file {
        let s = &sources[i];
        if !hit && let Some(c) = cache.as_deref_mut() {
            c.store_analysis(
                &s.display,
                &s.path,
                &s.text,
                ident_hit[i],
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
        let keep: HashSet<&str> = (sources.iter().zip(&candidate))
            .filter(|(_, c)| **c)
            .map(|(s, _)| s.display.as_str())
            .collect();
        c.retain(&keep);
    }
    drop_deletions_used_elsewhere(&mut report.findings, sources);
    crate::in_use::keep_what_is_still_used(&mut report.findings);
    crate::docs_follow::follow_declarations(&mut report.findings, sources);
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
    report
}

/// Drops each fix that deletes a declaration whose identifier another Rust file of the run
/// names (a use the front end, seeing one file, cannot know about). By text, so it is the same
/// whether pass 2 ran on every file or on a few (the language server).
fn drop_deletions_used_elsewhere(findings: &mut [Finding], sources: &[Source]) {
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
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    // For each identifier, the files naming it.
    let mut named_in: Vec<Vec<&str>> = vec![Vec::new(); idents.len()];
    for s in sources
        .iter()
        .filter(|s| s.path.extension().is_some_and(|e| e == "rs"))
    {
        let hay = s.text.as_bytes();
        for m in matcher.find_iter(hay) {
            let before = m.start().checked_sub(1).map(|i| hay[i]);
            if before.is_some_and(is_ident) || hay.get(m.end()).is_some_and(|&b| is_ident(b)) {
                continue;
            }
            let list = &mut named_in[m.pattern().as_usize()];
            if list.last() != Some(&s.display.as_str()) {
                list.push(&s.display);
            }
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

fn contains_ident(matcher: &AhoCorasick, hay: &[u8]) -> bool {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    matcher.find_iter(hay).any(|m| {
        let before = m.start().checked_sub(1).map(|i| hay[i]);
        !before.is_some_and(ident) && !hay.get(m.end()).is_some_and(|&b| ident(b))
    })
}

fn file_findings(
    s: &Source,
    analysis: FileAnalysis,
    catalog: &Catalog,
    config: &Config,
) -> (Vec<Finding>, usize) {
    let index = LineIndex::new(&s.text);
    // One finding per rule and place: the same name at the same place found twice is one
    // finding (the most specific role), but every other occurrence is kept, however many
    // share a line (`bus.on("x", a); bus.emit("x", b)` is a subscription and an emit).
    // A declaration is one place however it is spelled: `event!(TurnStart, "agent/x")`
    // declares once, not once for the name and once for the string.
    let mut declared = std::collections::HashSet::new();
    let occ: Vec<_> = crate::frontend::in_source_order(analysis.occurrences)
        .into_iter()
        .filter(|o| {
            o.role != Role::Declare || declared.insert((index.position(o.start).0, o.event.clone()))
        })
        .collect();

    let parse_note = analysis.parse_error.as_ref().map(|_| {
        "found by the lexical scan: the file does not parse, so the use could not be classified"
            .to_owned()
    });
    // The front end's fix of each occurrence, by its range (the first one given wins).
    let mut fix_at: HashMap<(usize, usize), &crate::model::Fix> = HashMap::new();
    for f in &analysis.fixes {
        fix_at.entry((f.start, f.end)).or_insert(&f.fix);
    }
    let mut findings = Vec::new();
    for o in occ {
        let rule = rules::for_role(o.role);
        let Some(severity) = config.severity(rule) else {
            continue;
        };
        let event = catalog.lookup(&o.event);
        let replacement = event.map_or("", |e| e.replacement.as_str());
        let see = event
            .and_then(|e| e.requirement.as_deref())
            .map_or_else(String::new, |r| format!(" (see `mirrorless explain {r}`)"));
        let ev = &o.event;
        let (message, help) = match o.role {
            Role::Subscribe => (
                format!("subscribes to removed event `{ev}`"),
                format!("{replacement}{see}"),
            ),
            Role::Emit => (
                format!("emits removed event `{ev}`"),
                format!(
                    "delete the emit: the durable event is already in the session log; consumers {replacement}{see}"
                ),
            ),
            Role::Declare => (
                format!("declares removed event `{ev}`"),
                format!("delete the declaration and migrate its users: {replacement}{see}"),
            ),
            Role::Reference => (
                format!("uses removed event `{ev}`"),
                format!("{replacement}{see}"),
            ),
            Role::Embedded => (
                format!("embedded code names removed event `{ev}`"),
                format!("migrate the embedded code: {replacement}{see}"),
            ),
            Role::Mention => (
                format!("string mentions removed event `{ev}`"),
                format!("reword it in terms of the durable event: {replacement}"),
            ),
            Role::Comment => (
                format!("comment mentions removed event `{ev}`"),
                format!("update the comment if it describes current behaviour: {replacement}"),
            ),
        };
        let note = o.via.clone().or_else(|| parse_note.clone());
        let fix = fix_for(&o, &fix_at, event, &index);
        findings.push(make_finding(
            s,
            &index,
            rule,
            severity,
            Some(o.event.clone()),
            o.start,
            o.end,
            message,
            help,
            note,
        ));
        if let Some(f) = findings.last_mut() {
            f.fix = fix;
        }
    }
    if let Some((offset, msg)) = &analysis.parse_error
        && let Some(severity) = config.severity(&rules::unparsed::RULE)
    {
        let end = s.text[*offset..]
            .chars()
            .next()
            .map_or(*offset, |c| offset + c.len_utf8());
        findings.push(make_finding(
            s,
            &index,
            &rules::unparsed::RULE,
            severity,
            None,
            *offset,
            end,
            format!("file does not parse: {msg}"),
            "fix the syntax error, or exclude the file; its strings and comments were scanned lexically".to_owned(),
            None,
        ));
    }

    // Suppressions.
    let mut sups: Vec<Suppression> = analysis
        .suppression_comments
        .iter()
        .filter_map(|c| {
            let (line, _) = index.position(c.start);
            suppress::parse(
                &c.text,
                c.start,
                line,
                index.starts_line(c.start),
                index.next_nonblank(line),
            )
        })
        .collect();
    let before = findings.len();
    findings.retain(|f| {
        for sp in sups.iter_mut() {
            if sp.problem.is_none()
                && sp.target_line == f.line
                && sp.rules.iter().any(|(r, ev)| {
                    r.id == f.rule && ev.as_ref().is_none_or(|e| f.event.as_ref() == Some(e))
                })
            {
                sp.used = true;
                return false;
            }
        }
        true
    });
    let suppressed = before - findings.len();
    if let Some(severity) = config.severity(&rules::suppression::RULE) {
        for sp in &sups {
            let message = match (&sp.problem, sp.used) {
                (Some(p), _) => format!("malformed suppression: {p}"),
                (None, false) => format!(
                    "unused suppression: no {} finding on line {}",
                    sp.rules
                        .iter()
                        .map(|(r, ev)| match ev {
                            Some(e) => format!("{}[{e}]", r.id),
                            None => r.id.to_owned(),
                        })
                        .collect::<Vec<_>>()
                        .join("/"),
                    sp.target_line
                ),
                (None, true) => continue,
            };
            // To the end of the line, but never past a snippet's worth of it: thousands of
            // suppressions on one long line must not each scan the rest of it.
            let limit = crate::source::floor_boundary(&s.text, sp.start + LINE_TEXT_MAX);
            let end = memchr::memchr(b'\n', &s.text.as_bytes()[sp.start..limit])
                .map_or(limit, |e| sp.start + e);
            findings.push(make_finding(
                s,
                &index,
                &rules::suppression::RULE,
                severity,
                None,
                sp.start,
                end,
                message,
                "delete the comment, or fix it: `// mirrorless: allow(RULE) reason`".to_owned(),
                None,
            ));
        }
    }

    // Fingerprints: stable under line shifts, distinct for repeated identical lines.
    findings.sort_by_key(|f| (f.line, f.column, f.rule));
    let mut counts: HashMap<(String, String, String), usize> = HashMap::new();
    for f in &mut findings {
        let normalized: String = f.line_text.chars().filter(|c| !c.is_whitespace()).collect();
        let ev = f.event.clone().unwrap_or_default();
        let n = counts
            .entry((f.rule.to_owned(), ev.clone(), normalized))
            .or_insert(0);
        f.fingerprint = baseline::fingerprint(f.rule, &ev, &f.line_text, *n);
        *n += 1;
    }
    (findings, suppressed)
}

/// The fix of an occurrence: the front end's, or for prose (a mention or a comment) the
/// suggestion to name the durable twin instead. Its edits get their line/column ranges here.
fn fix_for(
    o: &Occurrence,
    fix_at: &HashMap<(usize, usize), &crate::model::Fix>,
    event: Option<&crate::catalog::Event>,
    index: &LineIndex<'_>,
) -> Option<crate::model::Fix> {
    use crate::model::{Applicability, Edit, Fix};
    let mut fix = fix_at
        .get(&(o.start, o.end))
        .map(|f| (*f).clone())
        .or_else(|| {
            let twin = &event?.migration.as_ref()?.twin;
            matches!(o.role, Role::Mention | Role::Comment).then(|| {
                let mut edits = vec![Edit::new(o.start, o.end, twin.clone())];
                edits.extend(article_edit(index.text(), o.start, twin));
                edits.sort_by_key(|e| (e.start, e.end));
                Fix::new(
                    Applicability::Suggestion,
                    format!("name the durable `{twin}` instead"),
                    edits,
                )
            })
        })?;
    if fix.edits.is_empty() || !crate::lines::edits_valid(index.text(), &fix.edits) {
        return None;
    }
    for e in &mut fix.edits {
        e.range = text_range(index, e.start, e.end);
    }
    fix.lines = crate::lines::line_replacement(index, &fix.edits);
    Some(fix)
}

/// The article before a renamed name, when the new name needs the other one: every removed
/// name starts `agent/`, so prose says "an `agent/step-end` listener", and "an `step/end`
/// listener" would not read. `None` when there is no article or it still fits.
fn article_edit(text: &str, start: usize, new_name: &str) -> Option<crate::model::Edit> {
    let before = text.get(..start)?;
    // The name may sit in backticks or quotes.
    let before = before.strip_suffix(['`', '\'', '"']).unwrap_or(before);
    let vowel = new_name
        .chars()
        .next()
        .is_some_and(|c| "aeioAEIO".contains(c));
    let (article, replacement) = if vowel {
        (["a ", "A "], ["an ", "An "])
    } else {
        (["an ", "An "], ["a ", "A "])
    };
    article.iter().zip(replacement).find_map(|(a, r)| {
        let head = before.strip_suffix(a)?;
        // A word of its own: `an`, not the end of `can`.
        let word_start = head
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        word_start.then(|| crate::model::Edit::new(head.len(), head.len() + a.len(), r))
    })
}

/// Line and column (characters and bytes) of a byte range.
pub fn text_range(index: &LineIndex<'_>, start: usize, end: usize) -> crate::model::TextRange {
    let (line, column) = index.position(start);
    let (end_line, end_column) = index.position(end);
    crate::model::TextRange {
        line,
        column,
        end_line,
        end_column,
        byte_column: index.byte_column(start),
        end_byte_column: index.byte_column(end),
    }
}

#[allow(clippy::too_many_arguments)]
fn make_finding(
    s: &Source,
    index: &LineIndex<'_>,
    rule: &'static Rule,
    severity: Severity,
    event: Option<String>,
    start: usize,
    end: usize,
    message: String,
    help: String,
    note: Option<String>,
) -> Finding {
    let (line, column) = index.position(start);
    let (end_line, end_column) = index.position(end);
    let window = snippet_window(s, index, line, start, end);
    let line_text_column = index.position(window.start).1;
    Finding {
        rule: rule.id,
        rule_name: rule.name,
        severity,
        event,
        path: s.display.clone(),
        line,
        column,
        end_line,
        end_column,
        message,
        help,
        note,
        line_text_column,
        fingerprint: String::new(),
        line_text: s.text[window].to_owned(),
        fix: None,
    }
}

/// Lines up to this many bytes are kept whole in [`Finding::line_text`].
const LINE_TEXT_MAX: usize = 512;

/// Bytes of context kept before and after a finding on a longer line.
const LINE_TEXT_CONTEXT: usize = 160;

/// The part of `line` that a finding from `start` to `end` keeps as its snippet: the whole line
/// when it is short, else a window around the finding (bounded, so a line with thousands of
/// findings costs linear memory and output).
fn snippet_window(
    s: &Source,
    index: &LineIndex<'_>,
    line: usize,
    start: usize,
    end: usize,
) -> std::ops::Range<usize> {
    let whole = index.line_range(line);
    if whole.len() <= LINE_TEXT_MAX {
        return whole;
    }
    let from = start.saturating_sub(LINE_TEXT_CONTEXT).max(whole.start);
    let to = (end.max(start) + LINE_TEXT_CONTEXT)
        .min(start + LINE_TEXT_MAX)
        .min(whole.end);
    crate::source::floor_boundary(&s.text, from)..crate::source::ceil_boundary(&s.text, to)
}
