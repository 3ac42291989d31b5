//! The files the server lints as one run: the workspace's files as `mirrorless lint` in the
//! workspace root reads them, with each open document's unsaved text in place of its file.
//!
//! Every lint is a run over the whole workspace, as `mirrorless lint` in the root is: whether a
//! fix may delete an emit or a declaration depends on the uses of its event in every other file
//! (`mirrorless_lint` holds it back to a suggestion while one remains), so the run-level passes
//! see every file's findings, unsaved text counted. A [`Cache`] keeps each file's analysis by
//! its text, so a change parses only the documents that changed.

use mirrorless_lint::cache::Cache;
use mirrorless_lint::config::Config;
use mirrorless_lint::engine;
use mirrorless_lint::model::Finding;
use mirrorless_lint::source::{Source, display_path};
use mirrorless_lint::{Options, lint_sources_cached, lint_sources_cached_unsettled};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The workspace: its configuration and the text of every file a lint of its root reads.
#[derive(Debug, Default)]
pub struct Workspace {
    root: Option<PathBuf>,
    config: Config,
    /// Why the configuration could not be used (the defaults apply meanwhile).
    pub config_error: Option<String>,
    sources: Vec<Source>,
    index: HashMap<PathBuf, usize>,
    /// Files under the root that the walk skipped (`exclude`, `allow-paths`, `.gitignore`):
    /// `mirrorless lint` in the root does not lint them, so neither does the server.
    walked: HashSet<PathBuf>,
    /// Each file's analysis from the last lint, reused while its text is unchanged.
    cache: Cache,
}

impl Workspace {
    /// Reads the configuration (`mirrorless.toml`, or `Cargo.toml` metadata, in `root` or
    /// above) and every file of the workspace, as `mirrorless lint` run in `root` does.
    /// Without a root, only open documents are linted, with the configuration found from the
    /// current directory.
    pub fn load(root: Option<&Path>) -> Workspace {
        let root = root.map(canonical);
        let start = root
            .clone()
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        let (config, config_error) = match Config::discover(&start) {
            Ok(c) => (c, None),
            Err(e) => (
                Config {
                    root: start.clone(),
                    ..Config::default()
                },
                Some(e),
            ),
        };
        let mut ws = Workspace {
            root: root.clone(),
            config,
            config_error,
            ..Workspace::default()
        };
        // Every text change goes through `set_text`, `reload` or `places_with`, which report it
        // to the cache: the byte scans of the other files are kept from change to change.
        ws.cache.track_changes();
        if let Some(root) = &root {
            let opts = Options {
                paths: vec![root.clone()],
                jobs: None,
                follow: false,
                config: ws.config.clone(),
            };
            // Unreadable files are skipped: they cannot be open in the editor either.
            let (sources, _errors) = engine::read_sources(&opts);
            for mut s in sources {
                s.display = ws.display(&s.path);
                ws.walked.insert(s.path.clone());
                ws.push(s);
            }
        }
        ws
    }

    fn push(&mut self, s: Source) {
        self.index.insert(s.path.clone(), self.sources.len());
        self.sources.push(s);
    }

    /// The path as findings name it: relative to the root, as `mirrorless lint` run in the
    /// root prints it.
    fn display(&self, path: &Path) -> String {
        match self.root.as_deref().and_then(|r| path.strip_prefix(r).ok()) {
            Some(rel) => display_path(rel),
            None => display_path(path),
        }
    }

    /// Whether a lint of the workspace would read `path`: a file under the root that the walk
    /// skipped is not linted; a file outside the root, or not yet on disk, is.
    pub fn lints(&self, path: &Path) -> bool {
        let path = canonical(path);
        self.walked.contains(&path)
            || !path.exists()
            || !self
                .root
                .as_deref()
                .is_some_and(|root| path.starts_with(root))
    }

    /// Whether `path` is a configuration file the workspace depends on.
    pub fn is_config(&self, path: &Path) -> bool {
        let name = path.file_name().and_then(|n| n.to_str());
        matches!(name, Some("mirrorless.toml" | "Cargo.toml"))
    }

    /// The configuration in effect.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Replaces the text of `path` with an open document's text (a file the workspace does
    /// not lint is left out: it takes no part in resolution either).
    pub fn set_text(&mut self, path: &Path, text: String) {
        let path = canonical(path);
        if !self.lints(&path) {
            return;
        }
        match self.index.get(&path) {
            Some(&i) => {
                self.sources[i].text = text;
                self.cache.changed(&self.sources[i].display);
            }
            None => {
                let display = self.display(&path);
                self.cache.changed(&display);
                self.push(Source {
                    path,
                    display,
                    text,
                });
            }
        }
    }

    /// The current text of `path`, if the workspace holds it.
    pub fn text(&self, path: &Path) -> Option<&str> {
        let path = canonical(path);
        self.index
            .get(&path)
            .map(|&i| self.sources[i].text.as_str())
    }

    /// A document was closed, or changed on disk: its text is the file's again (a file that is
    /// gone, or was never part of the workspace, leaves it).
    pub fn reload(&mut self, path: &Path) {
        let path = canonical(path);
        let on_disk = self
            .walked
            .contains(&path)
            .then(|| std::fs::read_to_string(&path).ok())
            .flatten();
        match (on_disk, self.index.get(&path).copied()) {
            (Some(text), Some(i)) => {
                self.sources[i].text = text;
                self.cache.changed(&self.sources[i].display);
            }
            (Some(text), None) => {
                let display = self.display(&path);
                self.cache.changed(&display);
                self.push(Source {
                    path,
                    display,
                    text,
                });
            }
            (None, Some(i)) => {
                self.cache.changed(&self.sources[i].display);
                self.sources.swap_remove(i);
                self.index.remove(&path);
                if let Some(moved) = self.sources.get(i) {
                    self.index.insert(moved.path.clone(), i);
                }
            }
            (None, None) => {}
        }
    }

    /// The findings of each of `paths` (as `mirrorless lint` would report them in the root):
    /// identifiers resolve across every file of the workspace, and a fix is machine-applicable
    /// only when no other file of it still needs what the fix removes.
    pub fn lint(&mut self, paths: &[PathBuf]) -> HashMap<PathBuf, Vec<Finding>> {
        self.lint_settled(paths, true)
    }

    /// [`Workspace::lint`]; with `settled` false, each finding's fix, note and human part are
    /// left as its file's analysis gave them ([`lint_sources_cached_unsettled`]).
    fn lint_settled(&mut self, paths: &[PathBuf], settled: bool) -> HashMap<PathBuf, Vec<Finding>> {
        let wanted: Vec<(PathBuf, String)> = paths
            .iter()
            .map(|p| canonical(p))
            .filter(|p| self.lints(p) && self.index.contains_key(p))
            .map(|p| {
                let d = self.sources[self.index[&p]].display.clone();
                (p, d)
            })
            .collect();
        let mut out: HashMap<PathBuf, Vec<Finding>> =
            paths.iter().map(|p| (p.clone(), Vec::new())).collect();
        if wanted.is_empty() {
            return out;
        }
        let displays: Vec<String> = wanted.iter().map(|(_, d)| d.clone()).collect();
        let opts = Options {
            config: self.config.clone(),
            ..Options::default()
        };
        let run = match settled {
            true => lint_sources_cached,
            false => lint_sources_cached_unsettled,
        };
        let report = run(&opts, &self.sources, &[], Some(&displays), &mut self.cache);
        let by_display: HashMap<&str, &PathBuf> =
            wanted.iter().map(|(p, d)| (d.as_str(), p)).collect();
        let asked: HashMap<PathBuf, &PathBuf> = paths.iter().map(|p| (canonical(p), p)).collect();
        for f in report.findings {
            if let Some(&canon) = by_display.get(f.path.as_str())
                && let Some(&p) = asked.get(canon)
                && let Some(list) = out.get_mut(p)
            {
                list.push(f);
            }
        }
        out
    }

    /// The findings `path` would have with `text` in place of its current text (the
    /// workspace is left as it was), as far as where they are and what they say: their fixes,
    /// notes and human part are left unsettled ([`lint_sources_cached_unsettled`]). The check
    /// of a suppression comment compares none of those, and the run costs a fraction of a
    /// settled one.
    pub fn places_with(&mut self, path: &Path, text: String) -> Vec<Finding> {
        let canon = canonical(path);
        let Some(&i) = self.index.get(&canon) else {
            return Vec::new();
        };
        let old = std::mem::replace(&mut self.sources[i].text, text);
        self.cache.changed(&self.sources[i].display);
        let mut found = self.lint_settled(std::slice::from_ref(&canon), false);
        self.sources[i].text = old;
        self.cache.changed(&self.sources[i].display);
        found.remove(&canon).unwrap_or_default()
    }
}

/// The canonical form of a path that exists; an absolute path otherwise.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}
