//! What one run keeps for the next run over the same files: the language server lints the
//! whole workspace on every change (so that the run-level passes, which decide whether a
//! deletion is safe, see every file's findings, as `mirrorless lint` does), but only the
//! documents that changed are parsed again.
//!
//! Per file, by its exact text, the cache holds the first round of pass 1 (which depends on the
//! text and the configuration alone), the later rounds (which depend on the text and the
//! declarations in view, compared whole) and pass 2: the file's findings before the run-level
//! passes (which depend on the text, the configuration and the declarations of the whole run).
//! A run that finds other declarations analyses every file again; another configuration empties
//! the cache. The run-level passes always run on the full set of findings, so a cached run
//! reports exactly what an uncached one does.

use crate::config::{Config, LintConfig};
use crate::frontend::{Declaration, Declarations};
use crate::hash::{HashMap, HashSet};
use crate::model::Finding;
use std::path::PathBuf;

/// The per-file results a run can reuse; pass it to [`crate::engine::lint_sources_cached`]
/// run after run. It holds a copy of the text of every file that names a removed event (the
/// candidates), no other file.
#[derive(Debug, Default)]
pub struct Cache {
    /// The configuration the entries were computed with.
    config: Option<(LintConfig, Option<PathBuf>, PathBuf)>,
    /// Every declaration of the run the analyses were computed with, sorted.
    symbols: Vec<Declaration>,
    /// By display path.
    files: HashMap<String, Entry>,
    /// The sets of declarations later rounds of pass 1 ran with, each with its id, the newest
    /// last (at most [`MAX_LATER_SETS`]).
    later_sets: Vec<(u64, Vec<Declaration>)>,
    /// The id the next new set gets: an id is never reused, so an entry's results for a set
    /// that was dropped are never taken for another's.
    next_set: u64,
    /// How many files the last run parsed for pass 2 (the others were reused).
    analyzed: usize,
    /// With [`Cache::track_changes`]: per display path, what the byte scans of every file
    /// found in its text, kept until the caller reports the text [`Cache::changed`].
    scans: Option<HashMap<String, Scanned>>,
}

/// How many sets of declarations in view the cache keeps later rounds of pass 1 for: a run
/// has a set per round, rarely more than three.
const MAX_LATER_SETS: usize = 16;

/// How many later rounds of pass 1 the cache keeps per file.
const MAX_LATER_PER_FILE: usize = 4;

/// What the byte scans found in one file's text (see [`Cache::track_changes`]).
#[derive(Debug)]
struct Scanned {
    path: PathBuf,
    /// The prefilter's verdict ([`crate::frontend::FrontEnd::may_hold_name`]).
    may_hold_name: bool,
    /// Declared identifiers the file was scanned for, and those of them it mentions.
    checked: HashSet<String>,
    mentioned: HashSet<String>,
}

#[derive(Debug)]
struct Entry {
    path: PathBuf,
    text: String,
    /// The first round of pass 1.
    declarations: Option<Declarations>,
    /// Later rounds of pass 1, each with the id of the declarations in view (at most
    /// [`MAX_LATER_PER_FILE`], the newest last).
    later: Vec<(u64, Declarations)>,
    /// Pass 2: whether the file mentions a declared identifier (part of its context), its
    /// findings before the run-level passes, and how many its suppressions removed.
    analysis: Option<(bool, Vec<Finding>, usize)>,
    /// The syntax errors pass 2's parse counted, when it parsed the file (see
    /// [`crate::frontend::FileAnalysis::syntax_errors`]).
    syntax_errors: Option<usize>,
}

impl Cache {
    /// Starts a run with `config`: entries computed with another configuration are dropped.
    pub(crate) fn begin(&mut self, config: &Config) {
        let key = (
            config.lint.clone(),
            config.source.clone(),
            config.root.clone(),
        );
        if self.config.as_ref() != Some(&key) {
            self.files.clear();
            self.symbols.clear();
            self.later_sets.clear();
            if let Some(scans) = &mut self.scans {
                scans.clear();
            }
            self.config = Some(key);
        }
    }

    /// From now on the caller reports every file whose text it changes, before the next run,
    /// with [`Cache::changed`] (the language server does, on each edit, open, close and change
    /// on disk). In return the byte scans of the files it did not report are not run again:
    /// the prefilter's verdict and which declared identifiers each file mentions are kept, so a
    /// run costs the changed files, not the workspace's bytes.
    pub fn track_changes(&mut self) {
        self.scans.get_or_insert_with(HashMap::default);
    }

    /// The text of `display` changed (or the file came or went): scan it again in the next run.
    pub fn changed(&mut self, display: &str) {
        if let Some(scans) = &mut self.scans {
            scans.remove(display);
        }
    }

    /// Whether the cache keeps the byte scans ([`Cache::track_changes`]).
    pub(crate) fn tracks_changes(&self) -> bool {
        self.scans.is_some()
    }

    fn scanned(&self, display: &str, path: &std::path::Path) -> Option<&Scanned> {
        (self.scans.as_ref()?.get(display)).filter(|s| s.path == path)
    }

    /// The prefilter's verdict on the file, if it is kept.
    pub(crate) fn may_hold_name(&self, display: &str, path: &std::path::Path) -> Option<bool> {
        Some(self.scanned(display, path)?.may_hold_name)
    }

    /// Keeps the prefilter's verdict on the file (when changes are tracked).
    pub(crate) fn store_may_hold_name(
        &mut self,
        display: &str,
        path: &std::path::Path,
        verdict: bool,
    ) {
        if let Some(scans) = &mut self.scans {
            scans.insert(
                display.to_owned(),
                Scanned {
                    path: path.to_path_buf(),
                    may_hold_name: verdict,
                    checked: HashSet::default(),
                    mentioned: HashSet::default(),
                },
            );
        }
    }

    /// Whether the file mentions one of `idents`, if it was scanned for all of them.
    pub(crate) fn mentions_any(
        &self,
        display: &str,
        path: &std::path::Path,
        idents: &[String],
    ) -> Option<bool> {
        let s = self.scanned(display, path)?;
        idents
            .iter()
            .all(|i| s.checked.contains(i))
            .then(|| idents.iter().any(|i| s.mentioned.contains(i)))
    }

    /// Keeps what a scan of the file for `idents` found: the ones it mentions.
    pub(crate) fn store_mentions(
        &mut self,
        display: &str,
        path: &std::path::Path,
        idents: &[String],
        mentioned: Vec<String>,
    ) {
        if let Some(s) = (self.scans.as_mut())
            .and_then(|scans| scans.get_mut(display))
            .filter(|s| s.path == path)
        {
            s.checked.extend(idents.iter().cloned());
            s.mentioned.extend(mentioned);
        }
    }

    fn entry(&self, display: &str, path: &std::path::Path, text: &str) -> Option<&Entry> {
        self.files
            .get(display)
            .filter(|e| e.path == path && e.text == text)
    }

    fn entry_mut(&mut self, display: &str, path: &std::path::Path, text: &str) -> &mut Entry {
        let fresh = || Entry {
            path: path.to_path_buf(),
            text: text.to_owned(),
            declarations: None,
            later: Vec::new(),
            analysis: None,
            syntax_errors: None,
        };
        let e = self.files.entry(display.to_owned()).or_insert_with(fresh);
        if e.path != path || e.text != text {
            *e = fresh();
        }
        e
    }

    /// The first round of pass 1 for this text, if it was computed.
    pub(crate) fn declarations(
        &self,
        display: &str,
        path: &std::path::Path,
        text: &str,
    ) -> Option<&Declarations> {
        self.entry(display, path, text)?.declarations.as_ref()
    }

    /// Records the first round of pass 1 for this text.
    pub(crate) fn store_declarations(
        &mut self,
        display: &str,
        path: &std::path::Path,
        text: &str,
        d: Declarations,
    ) {
        self.entry_mut(display, path, text).declarations = Some(d);
    }

    /// The id of a later round's declarations in view, `symbols` (sorted): the same set has
    /// the same id from run to run while the cache keeps it.
    pub(crate) fn later_set(&mut self, symbols: Vec<Declaration>) -> u64 {
        if let Some((id, _)) = self.later_sets.iter().find(|(_, s)| *s == symbols) {
            return *id;
        }
        let id = self.next_set;
        self.next_set += 1;
        if self.later_sets.len() == MAX_LATER_SETS {
            self.later_sets.remove(0);
        }
        self.later_sets.push((id, symbols));
        id
    }

    /// A later round of pass 1 for this text with the declarations of set `set` in view, if
    /// it was computed.
    pub(crate) fn later_declarations(
        &self,
        display: &str,
        path: &std::path::Path,
        text: &str,
        set: u64,
    ) -> Option<&Declarations> {
        let e = self.entry(display, path, text)?;
        e.later.iter().find(|(s, _)| *s == set).map(|(_, d)| d)
    }

    /// Records a later round of pass 1 for this text with the declarations of set `set`.
    pub(crate) fn store_later_declarations(
        &mut self,
        display: &str,
        path: &std::path::Path,
        text: &str,
        set: u64,
        d: Declarations,
    ) {
        let later = &mut self.entry_mut(display, path, text).later;
        if later.len() == MAX_LATER_PER_FILE {
            later.remove(0);
        }
        later.push((set, d));
    }

    /// Pass 2 is about to run with these declarations (sorted): analyses computed with others
    /// are dropped.
    pub(crate) fn use_symbols(&mut self, symbols: Vec<Declaration>) {
        if self.symbols != symbols {
            for e in self.files.values_mut() {
                e.analysis = None;
            }
            self.symbols = symbols;
        }
    }

    /// Pass 2 of this text with this context, if it was computed.
    pub(crate) fn analysis(
        &self,
        display: &str,
        path: &std::path::Path,
        text: &str,
        mentions_declared: bool,
    ) -> Option<(&[Finding], usize)> {
        let (m, findings, suppressed) = self.entry(display, path, text)?.analysis.as_ref()?;
        (*m == mentions_declared).then_some((findings.as_slice(), *suppressed))
    }

    /// Records pass 2 of this text: its findings and how many suppressions removed, and the
    /// syntax errors its parse counted.
    pub(crate) fn store_analysis(
        &mut self,
        display: &str,
        path: &std::path::Path,
        text: &str,
        mentions_declared: bool,
        (findings, suppressed): (Vec<Finding>, usize),
        syntax_errors: Option<usize>,
    ) {
        let e = self.entry_mut(display, path, text);
        e.analysis = Some((mentions_declared, findings, suppressed));
        e.syntax_errors = syntax_errors;
    }

    /// How many syntax errors the front end counts in this text, if a run with this cache
    /// parsed it in pass 2 (`--fix` checks a fixed text with this instead of parsing it again).
    pub fn syntax_errors(
        &self,
        display: &str,
        path: &std::path::Path,
        text: &str,
    ) -> Option<usize> {
        self.entry(display, path, text)?.syntax_errors
    }

    /// Forgets the files that are not in `keep` (no longer in the run, or no longer candidates).
    pub(crate) fn retain(&mut self, keep: &HashSet<&str>) {
        self.files.retain(|d, _| keep.contains(d.as_str()));
    }

    /// Records how many files the run parsed for pass 2.
    pub(crate) fn set_analyzed(&mut self, n: usize) {
        self.analyzed = n;
    }

    /// How many files the last run parsed for pass 2; the other candidates' findings were
    /// reused.
    pub fn analyzed(&self) -> usize {
        self.analyzed
    }

    /// How many files the cache holds results for.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether the cache holds nothing.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}
