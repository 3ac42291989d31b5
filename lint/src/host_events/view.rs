//! The declarations a script sees: the run's scripts, and every file its imports reach on disk
//! (relative imports, and a package's types under `node_modules`), as `tsc` would read them.
//! A plugin linted alone sees its host through them; a file the imports do not reach (a module
//! augmentation only the project's `tsconfig.json` includes) is not seen, so a name it alone
//! declares is taken as undeclared: the fix is dropped, never one that breaks the build.

use super::decls::{self, Broken, Kind, Names, TypeDecl};
use crate::hash::HashMap;
use crate::source::Source;
use std::collections::VecDeque;
use std::path::{Component, Path, PathBuf};

/// At most this many files are read for one script's view (a package's types included).
const MAX_REACHED: usize = 256;
/// A file larger than this is not read (a bundled declaration file is not a host's map).
const MAX_BYTES: u64 = 4 << 20;

/// A file read for its declarations.
pub(super) struct File {
    /// How findings name it: the run's display path, or the path on disk.
    pub(super) display: String,
    pub(super) path: PathBuf,
    pub(super) decls: Vec<TypeDecl>,
    pub(super) names: Names,
    /// Set when oxc could not parse it: it then declares nothing that is known.
    pub(super) broken: Option<Broken>,
}

/// Index of a [`File`] in the [`World`].
pub(super) type FileId = usize;

/// Every file read so far: the run's scripts in view, then those their imports reached.
pub(super) struct World<'s> {
    pub(super) files: Vec<File>,
    by_path: HashMap<PathBuf, Option<FileId>>,
    /// The run's scripts every script sees: those with a finding.
    run: Vec<FileId>,
    /// The run's other scripts whose text it holds, by path: read from that text (an editor's
    /// unsaved one, in the language server), not from the disk, when an import reaches one.
    held: HashMap<PathBuf, Held<'s>>,
    reached: HashMap<FileId, Vec<FileId>>,
    /// What each path probed so far is on disk: the scripts of one package import the same
    /// names, and each import probes a dozen extensions and every `node_modules` above it, so
    /// a path is asked about once per run, not once per import (a `statx` each).
    on_disk: HashMap<PathBuf, OnDisk>,
    /// Each import resolved so far, by the directory it was written in and its specifier.
    resolved: HashMap<(PathBuf, String), Option<FileId>>,
}

/// A script of the run not yet read for its declarations.
struct Held<'s> {
    source: &'s Source,
    /// What its analysis read, when it made one.
    known: Option<super::HostDeclarations>,
}

/// What a path is on disk (symbolic links followed, as `Path::is_file` follows them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OnDisk {
    Missing,
    File { len: u64 },
    Dir,
    Other,
}

/// `p` without `.` and with `..` applied, so that two spellings of one path compare equal.
fn normal(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether `p` is a declaration file (`.d.ts`, `.d.mts`, `.d.cts`).
fn is_declaration_file(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    [".d.ts", ".d.mts", ".d.cts"]
        .iter()
        .any(|e| name.ends_with(e))
}

/// The path a run's file is known by: absolute when the current directory `cwd` is known.
fn key(cwd: Option<&Path>, p: &Path) -> PathBuf {
    match cwd {
        Some(d) if !p.is_absolute() => normal(&d.join(p)),
        _ => normal(p),
    }
}

/// A file read for its declarations, by what its analysis read when it made one.
fn read(
    display: String,
    path: PathBuf,
    text: &str,
    known: Option<super::HostDeclarations>,
) -> File {
    match known {
        Some(super::HostDeclarations(read)) => File {
            display,
            path,
            decls: read.decls,
            names: read.names,
            broken: read.broken,
        },
        None => parse(display, path, text),
    }
}

fn parse(display: String, path: PathBuf, text: &str) -> File {
    let read = decls::read(&path.to_string_lossy(), text);
    File {
        display,
        path,
        decls: read.decls,
        names: read.names,
        broken: read.broken,
    }
}

impl<'s> World<'s> {
    /// The run's scripts with a finding (`in_run`), read for their declarations: every script
    /// sees them. The run's other scripts are read when an import reaches them: from the text
    /// the run holds, or from disk when it dropped it.
    ///
    /// Only the scripts with a finding, whatever else the run holds: which texts it holds
    /// depends on the byte prefilter and on who runs it (a one-shot lint holds only its
    /// candidates, `--fix` and the language server hold every file), and what a script sees
    /// must not (issue 32 item 3: the language server read every script of the workspace on
    /// every change). A host's map holding a removed event's entry has a finding there.
    pub(super) fn of_run(
        sources: &'s [Source],
        dropped: &dyn Fn(usize) -> bool,
        is_script: impl Fn(&str) -> bool,
        in_run: impl Fn(&Source) -> bool,
        mut known: Vec<Option<super::HostDeclarations>>,
    ) -> World<'s> {
        let mut w = World {
            files: Vec::new(),
            by_path: HashMap::default(),
            run: Vec::new(),
            held: HashMap::default(),
            reached: HashMap::default(),
            on_disk: HashMap::default(),
            resolved: HashMap::default(),
        };
        let cwd = std::env::current_dir().ok();
        let mut run: Vec<(usize, &Source)> = Vec::new();
        for (i, s) in sources.iter().enumerate() {
            if dropped(i) || !is_script(&s.display) {
                continue;
            }
            if in_run(s) {
                run.push((i, s));
            } else {
                let known = known.get_mut(i).and_then(Option::take);
                w.held
                    .insert(key(cwd.as_deref(), &s.path), Held { source: s, known });
            }
        }
        // In the walk's order (by path), whatever order the run was given its sources in (the
        // language server's changes as documents open and close): which of two maps' entries
        // a merged map keeps, and where it says the map is, follow this order.
        run.sort_by(|a, b| a.1.path.cmp(&b.1.path));
        for (i, s) in run {
            let id = w.files.len();
            let path = key(cwd.as_deref(), &s.path);
            // Read by the analysis's parse when it made one.
            let known = known.get_mut(i).and_then(Option::take);
            w.files
                .push(read(s.display.clone(), path.clone(), &s.text, known));
            w.by_path.insert(path, Some(id));
            w.run.push(id);
        }
        w
    }

    /// The files read, to be freed elsewhere (the rest of the world borrows the run's texts).
    pub(super) fn into_files(self) -> Vec<File> {
        self.files
    }

    /// The run's file shown as `display`.
    pub(super) fn run_file(&self, display: &str) -> Option<FileId> {
        self.run
            .iter()
            .copied()
            .find(|&i| self.files[i].display == display)
    }

    /// The file at `path`, read when first asked for (a script of the run from the text the
    /// run holds); `None` when it cannot be read.
    fn file_at(&mut self, path: &Path) -> Option<FileId> {
        let k = normal(path);
        if let Some(known) = self.by_path.get(&k) {
            return *known;
        }
        if let Some(Held { source, known }) = self.held.remove(&k) {
            let file = read(source.display.clone(), k.clone(), &source.text, known);
            self.files.push(file);
            let id = self.files.len() - 1;
            self.by_path.insert(k, Some(id));
            return Some(id);
        }
        let read = matches!(self.on_disk(&k), OnDisk::File { len } if len <= MAX_BYTES)
            .then(|| std::fs::read_to_string(&k).ok())
            .flatten();
        let id = read.map(|text| {
            let display = crate::source::display_path(&k);
            self.files.push(parse(display, k.clone(), &text));
            self.files.len() - 1
        });
        self.by_path.insert(k, id);
        id
    }

    /// What `p` is on disk, asked of the file system once per run.
    fn on_disk(&mut self, p: &Path) -> OnDisk {
        if let Some(&known) = self.on_disk.get(p) {
            return known;
        }
        let found = match std::fs::metadata(p) {
            Ok(m) if m.is_file() => OnDisk::File { len: m.len() },
            Ok(m) if m.is_dir() => OnDisk::Dir,
            Ok(_) => OnDisk::Other,
            Err(_) => OnDisk::Missing,
        };
        self.on_disk.insert(p.to_path_buf(), found);
        found
    }

    /// The file `spec` names when imported from `from`, as TypeScript resolves it (a relative
    /// path with its extensions or `index`, a package's `types` under `node_modules`).
    pub(super) fn resolve(&mut self, from: FileId, spec: &str) -> Option<FileId> {
        let dir = self.files[from].path.parent()?.to_path_buf();
        let key = (dir, spec.to_owned());
        if let Some(&known) = self.resolved.get(&key) {
            return known;
        }
        let found = self.resolve_in(&key.0, spec);
        self.resolved.insert(key, found);
        found
    }

    /// [`World::resolve`] from the directory `dir`, not yet asked.
    fn resolve_in(&mut self, dir: &Path, spec: &str) -> Option<FileId> {
        if spec.starts_with('.') || spec.starts_with('/') {
            return self.with_extensions(&dir.join(spec));
        }
        let (package, sub) = match spec.strip_prefix('@') {
            Some(scoped) => {
                let mut parts = scoped.splitn(3, '/');
                let scope = parts.next()?;
                let name = parts.next()?;
                (format!("@{scope}/{name}"), parts.next())
            }
            None => {
                let mut parts = spec.splitn(2, '/');
                (parts.next()?.to_owned(), parts.next())
            }
        };
        let mut at = Some(dir);
        while let Some(d) = at {
            // Most directories above a script have no `node_modules`: one question each, for
            // every package, rather than two per package.
            if self.on_disk(&d.join("node_modules")) != OnDisk::Dir {
                at = d.parent();
                continue;
            }
            for root in [
                d.join("node_modules").join(&package),
                d.join("node_modules/@types")
                    .join(package.trim_start_matches('@').replace('/', "__")),
            ] {
                if self.on_disk(&root) != OnDisk::Dir {
                    continue;
                }
                if let Some(sub) = sub {
                    if let Some(f) = self.with_extensions(&root.join(sub)) {
                        return Some(f);
                    }
                    continue;
                }
                let types = std::fs::read_to_string(root.join("package.json"))
                    .ok()
                    .and_then(|m| serde_json::from_str::<serde_json::Value>(&m).ok())
                    .and_then(|m| {
                        ["types", "typings"]
                            .iter()
                            .find_map(|k| m.get(k)?.as_str().map(str::to_owned))
                    });
                if let Some(t) = types
                    && let Some(f) = self.with_extensions(&root.join(t))
                {
                    return Some(f);
                }
                if let Some(f) = self.with_extensions(&root.join("index")) {
                    return Some(f);
                }
            }
            at = d.parent();
        }
        None
    }

    /// `base` as a file, or with a script extension, or as a directory's `index`.
    fn with_extensions(&mut self, base: &Path) -> Option<FileId> {
        let s = base.to_string_lossy();
        // `./host.js` in TypeScript source names `./host.ts`.
        let stem = ["js", "mjs", "cjs", "jsx"]
            .iter()
            .find_map(|e| s.strip_suffix(e).and_then(|r| r.strip_suffix('.')));
        // Each candidate is asked about as it is read (and as TypeScript joins paths: `..`
        // taken lexically), so `./link/../x` names one file whatever was read before. One at a
        // time, in TypeScript's order, until one is a file: most imports name the first or
        // second (issue 32 item 1: the twenty paths were all made first, on the command's
        // thread after the analyses). A file of the run is one without asking the disk.
        let stem_candidates = stem.into_iter().flat_map(|stem| {
            ["ts", "tsx", "d.ts", "mts", "cts", "d.mts", "d.cts"]
                .iter()
                .map(move |e| PathBuf::from(format!("{stem}.{e}")))
        });
        let with_extension = ["ts", "tsx", "d.ts", "mts", "cts", "js", "jsx", "mjs", "cjs"]
            .iter()
            .map(|e| PathBuf::from(format!("{s}.{e}")));
        let index = ["ts", "tsx", "d.ts", "js"]
            .iter()
            .map(|e| base.join(format!("index.{e}")));
        let found = stem_candidates
            .chain(std::iter::once(base.to_path_buf()))
            .chain(with_extension)
            .chain(index)
            .map(|c| normal(&c))
            .find(|c| {
                self.by_path.get(c).is_some_and(Option::is_some)
                    || self.held.contains_key(c)
                    || matches!(self.on_disk(c), OnDisk::File { .. })
            })?;
        self.file_at(&found)
    }

    /// What `file` sees: the run's scripts with a finding, and the files its imports reach.
    pub(super) fn view(&mut self, file: FileId) -> Vec<FileId> {
        let reached = match self.reached.get(&file) {
            Some(r) => r.clone(),
            None => {
                let mut seen = vec![file];
                let mut queue = VecDeque::from([file]);
                while let Some(f) = queue.pop_front() {
                    for spec in self.files[f].names.specifiers.clone() {
                        if seen.len() >= MAX_REACHED {
                            break;
                        }
                        if let Some(t) = self.resolve(f, &spec)
                            && !seen.contains(&t)
                        {
                            seen.push(t);
                            queue.push_back(t);
                        }
                    }
                }
                self.reached.insert(file, seen.clone());
                seen
            }
        };
        let mut out = self.run.clone();
        for r in reached {
            if !out.contains(&r) {
                out.push(r);
            }
        }
        out
    }

    /// The name of the innermost interface or type literal of `file` whose body holds byte
    /// `offset`.
    pub(super) fn enclosing_map(&self, file: FileId, offset: usize) -> Option<String> {
        self.files[file]
            .decls
            .iter()
            .filter(|d| matches!(d.kind, Kind::Interface | Kind::Literal))
            .filter(|d| d.body.0 < offset && offset < d.body.1)
            .min_by_key(|d| d.body.1 - d.body.0)
            .map(|d| d.name.clone())
    }

    /// The files `file` and its imports reach (after [`World::view`]) that oxc could not
    /// parse, each as `path:line (why)`: what they declare is not known. Only these: a script
    /// with a finding that oxc could not parse has that finding's own note.
    pub(super) fn unread(&self, file: FileId) -> Vec<String> {
        let reached = self.reached.get(&file).map_or(&[][..], Vec::as_slice);
        reached
            .iter()
            .filter_map(|&f| {
                let file = &self.files[f];
                let b = file.broken.as_ref()?;
                Some(format!("{}:{} ({})", file.display, b.line, b.message))
            })
            .collect()
    }

    /// The declaration `name` stands for in `file`: the file and name it is declared as
    /// (through imports and re-exports); `None` when the file neither declares nor imports it.
    pub(super) fn origin(&mut self, file: FileId, name: &str) -> Option<(FileId, String)> {
        self.origin_at(file, name, 0, true)
    }

    fn origin_at(
        &mut self,
        file: FileId,
        name: &str,
        depth: usize,
        local: bool,
    ) -> Option<(FileId, String)> {
        if depth > 8 {
            return None;
        }
        let names = &self.files[file].names;
        // In the file itself: its imports (a local name), its declarations.
        if local && let Some((_, imported, spec)) = names.imports.iter().find(|(l, ..)| l == name) {
            let (imported, spec) = (imported.clone(), spec.clone());
            if imported == "*" || imported == "default" {
                return None;
            }
            let target = self.resolve(file, &spec)?;
            return self.exported_origin(target, &imported, depth + 1);
        }
        if names.declared.iter().any(|d| d == name) {
            return Some((file, name.to_owned()));
        }
        None
    }

    /// The declaration `file` exports as `name`.
    pub(super) fn exported_origin(
        &mut self,
        file: FileId,
        name: &str,
        depth: usize,
    ) -> Option<(FileId, String)> {
        if depth > 8 {
            return None;
        }
        let names = &self.files[file].names;
        // A declaration file exports every top-level declaration; another module only what it
        // marks `export` (a name it declares without is no member of `import('…')`).
        let ambient = is_declaration_file(&self.files[file].path);
        if names.declared.iter().any(|d| d == name)
            && names.imports.iter().all(|(l, ..)| l != name)
            && (ambient || names.exported.iter().any(|(e, s)| e == name && s.is_none()))
        {
            return Some((file, name.to_owned()));
        }
        let renamed = format!("{name}=");
        let export = names
            .exported
            .iter()
            .find(|(e, _)| e == name || e.starts_with(&renamed))
            .cloned();
        if let Some((e, spec)) = export {
            let inner = e.split_once('=').map_or(name, |(_, i)| i).to_owned();
            return match spec {
                Some(s) => {
                    let t = self.resolve(file, &s)?;
                    self.exported_origin(t, &inner, depth + 1)
                }
                None => self.origin_at(file, &inner, depth + 1, true),
            };
        }
        for spec in self.files[file].names.export_all.clone() {
            if let Some(t) = self.resolve(file, &spec)
                && let Some(o) = self.exported_origin(t, name, depth + 1)
            {
                return Some(o);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Issue #29 item 1 (b): the run's declaration of a removed event's entry names the map it
    // is in, also when the interface is generic, extends another, or the entry follows a
    // comment holding braces.
    #[test]
    fn an_entry_is_in_the_map_around_it() {
        let text = "declare module 'cordis' {\n  interface Events<T = unknown> extends Base<{ a: 1 }> {\n    // { not a body }\n    'agent/turn-end'(a: { x: T }): void\n  }\n}\nconst m = { 'agent/step-end': 1 }\n";
        let source = Source {
            path: PathBuf::from("host.ts"),
            display: "host.ts".to_owned(),
            text: text.to_owned(),
        };
        let world = World::of_run(
            std::slice::from_ref(&source),
            &|_| false,
            |_| true,
            |_| true,
            Vec::new(),
        );
        let file = world.run_file("host.ts");
        let at = |needle: &str| text.find(needle).unwrap_or_default() + 1;
        let map = |needle: &str| file.and_then(|f| world.enclosing_map(f, at(needle)));
        assert_eq!(map("agent/turn-end").as_deref(), Some("Events"));
        assert_eq!(map("agent/step-end"), None);
    }
}
