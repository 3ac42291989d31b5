//! Issue #32 item 1 ("reports identical"): the host pass's memoized file-system probes (what a
//! path is on disk, each directory's imports, the `node_modules` shortcut) resolve every import
//! as a fresh resolution does, on generated package layouts. Each layout is written to a
//! temporary directory: `node_modules` at several depths (a directory, a regular file, a link),
//! plain, scoped and `@types` packages whose `package.json` names `types`, `typings`, `main` or
//! `exports` (string and object forms), or is broken or missing, `index` files of every
//! extension, relative imports with and without extensions, links to files and directories,
//! dangling links, link cycles, a link to a device, a directory named like a script, a file not
//! in UTF-8 and one over the size limit. (Unreadable entries are not generated: the tests run
//! as root too, which reads through any mode.)
//!
//! Two references: a [`World`] made afresh for every import (no memo shared between imports,
//! so asking in any order must not matter), and [`reference`], a plain resolver that asks the
//! file system every time, with no `node_modules` shortcut, and follows the rules
//! `docs/lint/typescript.md` states ("relative paths with their extensions or `index`, a
//! package's `types`/`typings` or `index.d.ts` under `node_modules` or `node_modules/@types`",
//! "none over 4 MiB"), paths joined as TypeScript joins them: `..` taken lexically.

use super::view::World;
use crate::source::Source;
use crate::test_rng::Rng;
use std::os::unix::fs::symlink;
use std::path::{Component, Path, PathBuf};

/// The directories of a layout, relative to its root.
const DIRS: &[&str] = &["", "a", "a/b", "a/b/c", "x", "x/y"];

/// The packages a `node_modules` may hold.
const PACKAGES: &[&str] = &[
    "p",
    "q",
    "@s/p",
    "@s/q",
    "@types/p",
    "@types/q",
    "@types/s__p",
];

/// What a package's `package.json` may point at.
const TYPES: &[&str] = &[
    "lib/main.d.ts",
    "./dist/index.d.ts",
    "lib/main.js",
    "lib",
    "types",
    "missing.d.ts",
    "../q/index.d.ts",
    "dist",
];

/// The files a package may hold.
const PACKAGE_FILES: &[&str] = &[
    "index.ts",
    "index.d.ts",
    "index.js",
    "lib/main.d.ts",
    "lib/main.js",
    "lib/index.d.ts",
    "dist/index.d.ts",
    "types.d.ts",
    "sub.ts",
    "sub/index.d.ts",
];

/// The files a directory may hold (beside links and `node_modules`).
const PLAIN_FILES: &[&str] = &[
    "m.ts",
    "m.d.ts",
    "n.js",
    "n.ts",
    "o.tsx",
    "r.mts",
    "r.d.mts",
    "k/index.ts",
    "k/index.d.ts",
    "h/index.js",
    "m",
];

/// What a generated file imports from.
const SPECIFIERS: &[&str] = &[
    "./m",
    "./m.ts",
    "./m.js",
    "./n",
    "./n.js",
    "./o",
    "./o.jsx",
    "./r",
    "./r.mjs",
    "./k",
    "./k/",
    "./k/index",
    "./h",
    "../m",
    "../../k",
    "../n.js",
    "./ld/m",
    "./ld/../m",
    "./ld/../../n",
    "./ld/k",
    "./l",
    "./lf",
    "./dang",
    "./cyc1",
    "./self",
    "./dev",
    "./big",
    "./bad",
    "./dir",
    "./virt",
    "./virt.js",
    "./s0",
    ".",
    "..",
    "p",
    "q",
    "@s/p",
    "@s/q",
    "@s",
    "p/sub",
    "p/lib/main",
    "p/lib/main.js",
    "@s/p/sub",
    "q/types",
    "q/lib",
    "p/../q",
    "missing",
    "@types/p",
    "nm-link",
];

/// `p` without `.` and with `..` applied lexically (as TypeScript joins paths).
fn lexical(p: &Path) -> PathBuf {
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

fn write(path: &Path, text: &[u8]) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

/// A script importing a few generated specifiers and declaring a map.
fn script(r: &mut Rng, absolute: &Path) -> String {
    let mut text = String::new();
    for _ in 0..r.below(4) {
        let spec = match r.below(12) {
            0 => absolute.join("a/m").to_string_lossy().into_owned(),
            _ => r.pick(SPECIFIERS).to_owned(),
        };
        text.push_str(&match r.below(3) {
            0 => format!("import '{spec}';\n"),
            1 => format!("export * from '{spec}';\n"),
            _ => format!("import {{ Events }} from '{spec}';\n"),
        });
    }
    text.push_str("export interface Events { 'agent/turn-end'(a: number): void }\n");
    text
}

/// A package at `root`.
fn package(r: &mut Rng, root: &Path, absolute: &Path) {
    std::fs::create_dir_all(root).unwrap();
    let t = r.pick(TYPES);
    let manifest = match r.below(10) {
        0 => None,
        1 => Some(format!("{{\"types\": \"{t}\"}}")),
        2 => Some(format!("{{\"typings\": \"{t}\"}}")),
        3 => Some(format!("{{\"types\": 3, \"typings\": \"{t}\"}}")),
        4 => Some(format!("{{\"main\": \"{t}\"}}")),
        5 => Some(format!("{{\"exports\": \"./{t}\"}}")),
        6 => Some(format!(
            "{{\"exports\": {{\".\": {{\"types\": \"./{t}\"}}}}}}"
        )),
        7 => Some("{\"types\": ".to_owned()),
        8 => Some(format!(
            "{{\"types\": \"{t}\", \"typings\": \"index.d.ts\"}}"
        )),
        _ => Some(format!("{{\"types\": \"{t}\", \"main\": \"index.js\"}}")),
    };
    if let Some(m) = manifest {
        write(&root.join("package.json"), m.as_bytes());
    }
    for f in PACKAGE_FILES {
        if r.below(3) == 0 {
            write(&root.join(f), script(r, absolute).as_bytes());
        }
    }
}

/// Writes a layout under `root` (absolute); returns the run's scripts (one per directory, one
/// in a package, and one the run holds that is not on disk).
fn layout(r: &mut Rng, root: &Path) -> Vec<Source> {
    let mut run = Vec::new();
    for (i, d) in DIRS.iter().enumerate() {
        let dir = root.join(d);
        std::fs::create_dir_all(&dir).unwrap();
        for f in PLAIN_FILES {
            if r.below(3) == 0 {
                write(&dir.join(f), script(r, root).as_bytes());
            }
        }
        let other = root.join(r.pick(DIRS));
        // Links to a file, a directory, nothing, each other, themselves, a device.
        let _ = symlink(other.join("m.ts"), dir.join("l.ts"));
        let _ = symlink(other.join(r.pick(PLAIN_FILES)), dir.join("lf.d.ts"));
        let _ = symlink(&other, dir.join("ld"));
        let _ = symlink(dir.join("nowhere.ts"), dir.join("dang.ts"));
        let _ = symlink(dir.join("cyc2.ts"), dir.join("cyc1.ts"));
        let _ = symlink(dir.join("cyc1.ts"), dir.join("cyc2.ts"));
        let _ = symlink(dir.join("self.ts"), dir.join("self.ts"));
        let _ = symlink("/dev/null", dir.join("dev.ts"));
        if r.below(3) == 0 {
            std::fs::create_dir_all(dir.join("dir.ts")).unwrap();
        }
        if r.below(4) == 0 {
            write(&dir.join("bad.ts"), b"export const a = '\xff\xfe';\n");
        }
        if r.below(8) == 0 {
            // Sparse: over the 4 MiB limit without writing it.
            let f = std::fs::File::create(dir.join("big.ts")).unwrap();
            f.set_len((4 << 20) + 1).unwrap();
        }
        let nm = dir.join("node_modules");
        match r.below(10) {
            0..=5 => {
                for p in PACKAGES {
                    match r.below(8) {
                        0..=3 => package(r, &nm.join(p), root),
                        4 => {
                            let target = root.join(r.pick(DIRS)).join("node_modules").join(p);
                            std::fs::create_dir_all(nm.join(p).parent().unwrap()).unwrap();
                            let _ = symlink(target, nm.join(p));
                        }
                        5 => write(&nm.join(p), b"not a package"),
                        _ => {}
                    }
                }
                let _ = symlink(root.join("a/k"), nm.join("nm-link"));
            }
            6 => write(&nm, b"a regular file"),
            7 => {
                let _ = symlink(root.join(r.pick(DIRS)).join("node_modules"), &nm);
            }
            _ => {}
        }
        let path = dir.join(format!("s{i}.ts"));
        let text = script(r, root);
        write(&path, text.as_bytes());
        run.push(Source {
            display: crate::source::display_path(&path),
            path,
            text,
        });
    }
    // A script inside a package, and one that is only in memory.
    let in_package = root.join("node_modules/p/inner.ts");
    if in_package.parent().is_some_and(Path::is_dir) {
        let text = script(r, root);
        write(&in_package, text.as_bytes());
        run.push(Source {
            display: crate::source::display_path(&in_package),
            path: in_package,
            text,
        });
    }
    let virt = root.join(r.pick(DIRS)).join("virt.ts");
    if !virt.exists() {
        run.push(Source {
            display: crate::source::display_path(&virt),
            path: virt,
            text: script(r, root),
        });
    }
    run
}

/// The plain resolver: every question asked of the file system, no `node_modules` shortcut.
struct Reference<'a> {
    run: &'a [PathBuf],
}

impl Reference<'_> {
    /// What a found candidate reads as: a run's script, or a file of at most 4 MiB in UTF-8.
    fn read(&self, p: &Path) -> Option<PathBuf> {
        if self.run.iter().any(|r| r == p) {
            return Some(p.to_path_buf());
        }
        let m = std::fs::metadata(p).ok()?;
        (m.is_file() && m.len() <= 4 << 20 && std::fs::read_to_string(p).is_ok())
            .then(|| p.to_path_buf())
    }

    /// The first of `base`'s candidates that is a file or a run's script, read.
    fn with_extensions(&self, base: &Path) -> Option<PathBuf> {
        let s = base.to_string_lossy().into_owned();
        let mut candidates = Vec::new();
        for js in [".js", ".mjs", ".cjs", ".jsx"] {
            if let Some(stem) = s.strip_suffix(js) {
                for e in ["ts", "tsx", "d.ts", "mts", "cts", "d.mts", "d.cts"] {
                    candidates.push(PathBuf::from(format!("{stem}.{e}")));
                }
                break;
            }
        }
        candidates.push(base.to_path_buf());
        for e in ["ts", "tsx", "d.ts", "mts", "cts", "js", "jsx", "mjs", "cjs"] {
            candidates.push(PathBuf::from(format!("{s}.{e}")));
        }
        for e in ["ts", "tsx", "d.ts", "js"] {
            candidates.push(base.join(format!("index.{e}")));
        }
        let found = candidates
            .into_iter()
            .map(|c| lexical(&c))
            .find(|c| c.is_file() || self.run.contains(c))?;
        self.read(&found)
    }

    fn resolve(&self, dir: &Path, spec: &str) -> Option<PathBuf> {
        if spec.starts_with('.') || spec.starts_with('/') {
            return self.with_extensions(&dir.join(spec));
        }
        let parts: Vec<&str> = spec.split('/').collect();
        let (package, sub) = if spec.starts_with('@') {
            if parts.len() < 2 {
                return None;
            }
            let sub = (parts.len() > 2).then(|| parts[2..].join("/"));
            (format!("{}/{}", parts[0], parts[1]), sub)
        } else {
            let sub = (parts.len() > 1).then(|| parts[1..].join("/"));
            (parts[0].to_owned(), sub)
        };
        let types_name = package.trim_start_matches('@').replace('/', "__");
        for d in dir.ancestors() {
            let roots = [
                d.join("node_modules").join(&package),
                d.join("node_modules/@types").join(&types_name),
            ];
            for root in roots.iter().filter(|r| r.is_dir()) {
                if let Some(sub) = &sub {
                    if let Some(f) = self.with_extensions(&root.join(sub)) {
                        return Some(f);
                    }
                    continue;
                }
                let manifest = std::fs::read_to_string(root.join("package.json")).ok();
                let manifest: Option<serde_json::Value> =
                    manifest.and_then(|m| serde_json::from_str(&m).ok());
                let types = manifest.as_ref().and_then(|m| {
                    (m.get("types").and_then(|t| t.as_str()))
                        .or_else(|| m.get("typings").and_then(|t| t.as_str()))
                });
                if let Some(f) = types.and_then(|t| self.with_extensions(&root.join(t))) {
                    return Some(f);
                }
                if let Some(f) = self.with_extensions(&root.join("index")) {
                    return Some(f);
                }
            }
        }
        None
    }
}

fn resolved_path(world: &World, id: Option<usize>) -> Option<PathBuf> {
    id.map(|i| world.files[i].path.clone())
}

#[test]
fn memoized_resolution_is_a_fresh_one_on_generated_layouts() {
    let mut resolved_to_a_file = 0;
    for seed in 1..=64u64 {
        let tmp = tempfile::tempdir().unwrap();
        // The run's paths are absolute and normal, as `World::of_run` keys them.
        let root = lexical(&tmp.path().canonicalize().unwrap());
        let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let run = layout(&mut r, &root);
        let run_paths: Vec<PathBuf> = run.iter().map(|s| s.path.clone()).collect();
        let reference = Reference { run: &run_paths };
        let fresh = || World::of_run(&run, &|_| false, |_| true, |_| true, Vec::new());
        let mut shared = fresh();
        // Half the scripts in the run's view, the others held and read only when an import
        // reaches them (the scripts without a finding): they resolve alike.
        let in_half = |s: &Source| s.display.len().is_multiple_of(2);
        let mut half = World::of_run(&run, &|_| false, |_| true, in_half, Vec::new());
        // Every (script, specifier) pair, in an order of the seed's.
        let mut asks: Vec<(usize, String)> = (0..run.len())
            .flat_map(|f| SPECIFIERS.iter().map(move |s| (f, (*s).to_owned())))
            .chain((0..run.len()).map(|f| (f, root.join("a/m").to_string_lossy().into_owned())))
            .collect();
        for i in (1..asks.len()).rev() {
            asks.swap(i, r.below(i + 1));
        }
        for (f, spec) in &asks {
            let from = shared.run_file(&run[*f].display).unwrap();
            let memoized = shared.resolve(from, spec);
            let memoized = resolved_path(&shared, memoized);
            let dir = run[*f].path.parent().unwrap();
            let at = format!("seed {seed}: '{spec}' from {}", dir.display());
            // A fresh World parses the run's scripts again: one ask in three, for time.
            if r.below(3) == 0 {
                let mut alone = fresh();
                let from_alone = alone.run_file(&run[*f].display).unwrap();
                let alone_id = alone.resolve(from_alone, spec);
                let alone_path = resolved_path(&alone, alone_id);
                assert_eq!(memoized, alone_path, "memoized vs fresh World, {at}");
            }
            let plain = reference.resolve(dir, spec);
            assert_eq!(memoized, plain, "memoized vs the plain resolver, {at}");
            if let Some(from_half) = half.run_file(&run[*f].display) {
                let half_id = half.resolve(from_half, spec);
                let half_path = resolved_path(&half, half_id);
                assert_eq!(memoized, half_path, "every script vs half in view, {at}");
            }
            resolved_to_a_file += usize::from(memoized.is_some());
        }
        // What each script sees (its imports followed to the end) does not depend on what
        // was asked before.
        for s in &run {
            let seen = |w: &mut World| {
                let id = w.run_file(&s.display).unwrap();
                let mut paths: Vec<PathBuf> = w
                    .view(id)
                    .iter()
                    .map(|&i| w.files[i].path.clone())
                    .collect();
                paths.sort();
                paths
            };
            assert_eq!(
                seen(&mut shared),
                seen(&mut fresh()),
                "seed {seed}: view of {}",
                s.display
            );
        }
    }
    // The layouts exercise resolution, not only its failures.
    assert!(resolved_to_a_file > 2000, "{resolved_to_a_file} resolved");
}
