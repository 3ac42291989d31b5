//! Issue #32 item 1 ("reports identical"): what the host pass decides of a fix does not depend
//! on the order the run asks its (memoized) questions of the file system. On generated trees
//! — a host event map as a relative module, a directory's `index`, a declaration file, or a
//! package (plain, scoped, `@types`) under a `node_modules` at some depth, declaring the
//! plugins' events or not, typing `data` or not; plugins in several directories importing it by
//! a relative path, through a link to a directory and `..`, by package name, or by a name
//! nothing resolves — the report of the walked tree equals the report of its files listed in
//! seeded orders (as paths, and as sources in memory).
//!
//! Issue #32 item 3 ("a change costs the changed file plus what depends on its declarations"):
//! the trees also hold hosts that no longer declare a removed event and maps no plugin imports
//! (a stray `Events` with `session/event`). A run that holds every text (the language server,
//! `--fix`) sees and reads what the walked run, which holds only the candidates, does: the
//! scripts with a finding and what their imports reach, never the run's other scripts.

use mirrorless_lint::config::Config;
use mirrorless_lint::engine::read_sources;
use mirrorless_lint::{Options, Report, lint, lint_sources};
use std::path::{Path, PathBuf};

use crate::test_rng::Rng;

/// Where hosts and links may be; the run is `src` (a plugin linted without its host, which
/// only its imports reach).
const DIRS: &[&str] = &["", "src", "src/a", "src/a/b", "x", "x/y"];

/// Where plugins are.
const PLUGIN_DIRS: &[&str] = &["src", "src/a", "src/a/b"];

/// A host's event map (of one of two names): `agent/turn-end` declared or not, `data` typed
/// `unknown` or not.
fn host(r: &mut Rng) -> String {
    let turn_end = match r.below(3) {
        0 => "",
        _ => "  'agent/turn-end'(agent: Agent, turn: number, reason: TurnEndReason): void;\n",
    };
    // A host that no longer declares any mirror: no finding, not a candidate.
    let step_end = match r.below(4) {
        0 => "",
        _ => "  'agent/step-end'(agent: Agent, turn: number, step: number): void;\n",
    };
    let data = ["unknown", "any", "{ turn: number }"][r.below(3)];
    let map = ["Events", "HostEvents"][r.below(2)];
    format!(
        "export type TurnEndReason = {{ kind: string }};\n\
         export interface Session {{ id: string }}\n\
         export interface Agent {{ name: string; session: Session }}\n\
         export type SessionEvent = {{ type: string; data: {data} }};\n\
         export interface {map} {{\n{turn_end}{step_end}  \
         'session/event'(session: Session, event: SessionEvent): void;\n}}\n\
         export interface Context {{\n  on<K extends keyof {map}>(name: K, fn: {map}[K]): () => void;\n}}\n"
    )
}

fn plugin(spec: &str) -> String {
    format!(
        "import type {{ Context }} from '{spec}';\n\
         declare function out(...args: unknown[]): void;\n\n\
         export function apply(ctx: Context): void {{\n  \
         ctx.on('agent/turn-end', (_agent, turn, reason) => {{\n    out(turn, reason.kind);\n  }});\n  \
         ctx.on('agent/step-end', (agent, turn) => {{\n    out(agent.name, turn);\n  }});\n}}\n"
    )
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `"../"` once per component of `dir`: from `dir` back to the root.
fn up(dir: &str) -> String {
    "../".repeat(Path::new(dir).components().count())
}

/// Writes a tree under `root`; returns the plugins' paths.
fn tree(r: &mut Rng, root: &Path) -> Vec<PathBuf> {
    for d in DIRS {
        std::fs::create_dir_all(root.join(d)).unwrap();
        #[cfg(unix)]
        let _ = std::os::unix::fs::symlink(root.join(r.pick(DIRS)), root.join(d).join("ld"));
    }
    // One to three hosts, each somewhere.
    let mut specs: Vec<(String, Option<String>)> = Vec::new();
    for n in 0..1 + r.below(3) {
        let d = r.pick(DIRS);
        let text = host(r);
        match r.below(6) {
            0 => {
                write(&root.join(d).join(format!("host{n}.ts")), &text);
                specs.push((format!("{d}/host{n}"), None));
            }
            1 => {
                write(&root.join(d).join(format!("host{n}/index.ts")), &text);
                specs.push((format!("{d}/host{n}"), None));
            }
            2 => {
                write(&root.join(d).join(format!("host{n}.d.ts")), &text);
                specs.push((format!("{d}/host{n}.js"), None));
            }
            3 => {
                let pkg = root.join(d).join(format!("node_modules/hostpkg{n}"));
                write(&pkg.join("lib/types.d.ts"), &text);
                write(&pkg.join("package.json"), "{\"types\": \"lib/types.d.ts\"}");
                specs.push((d.to_string(), Some(format!("hostpkg{n}"))));
            }
            4 => {
                let pkg = root.join(d).join(format!("node_modules/@s/host{n}"));
                write(&pkg.join("index.d.ts"), &text);
                specs.push((d.to_string(), Some(format!("@s/host{n}"))));
            }
            _ => {
                let pkg = root.join(d).join(format!("node_modules/@types/host{n}"));
                write(&pkg.join("index.d.ts"), &text);
                write(&pkg.join("package.json"), "{\"typings\": \"index.d.ts\"}");
                specs.push((d.to_string(), Some(format!("host{n}"))));
            }
        }
    }
    // Maps no plugin imports, in the run: a plugin does not see them.
    for n in 0..r.below(3) {
        let text = host(r).replace("'agent/turn-end'", "'x/turn-end'");
        let text = text.replace("'agent/step-end'", "'x/step-end'");
        write(
            &root.join(r.pick(PLUGIN_DIRS)).join(format!("stray{n}.ts")),
            &text,
        );
    }
    let mut plugins = Vec::new();
    for n in 0..2 + r.below(4) {
        let d = r.pick(PLUGIN_DIRS);
        let (at, package) = &specs[r.below(specs.len())];
        let spec = match (package, r.below(4)) {
            (Some(name), _) => name.clone(),
            (None, 0) => format!("./ld/../{}{}", up(d), at.trim_start_matches('/')),
            (None, 1) => "./nothing-here".to_owned(),
            (None, _) => format!("./{}{}", up(d), at.trim_start_matches('/')),
        };
        let path = root.join(d).join(format!("plugin{n}.ts"));
        write(&path, &plugin(&spec));
        plugins.push(path);
    }
    plugins
}

/// The tree under `root`, for a failure's message: each file, and what a plugin imports.
fn describe(root: &Path) -> String {
    let mut out = String::new();
    for e in walkdir::WalkDir::new(root).sort_by_file_name() {
        let Ok(e) = e else { continue };
        let rel = e.path().strip_prefix(root).unwrap_or(e.path()).display();
        let link = std::fs::read_link(e.path()).map(|t| format!(" -> {}", t.display()));
        let first = std::fs::read_to_string(e.path()).unwrap_or_default();
        let first = first.lines().next().filter(|l| l.starts_with("import"));
        out.push_str(&format!(
            "  {rel}{} {}\n",
            link.unwrap_or_default(),
            first.unwrap_or_default()
        ));
    }
    out
}

fn options(paths: Vec<PathBuf>, root: &Path) -> Options {
    Options {
        paths,
        jobs: Some(1),
        follow: false,
        config: Config {
            root: root.to_path_buf(),
            ..Config::default()
        },
    }
}

fn same(a: &Report, b: &Report, at: &str) {
    let differ = a.findings.iter().zip(&b.findings).find(|(x, y)| x != y);
    if let Some((x, y)) = differ {
        panic!("{at}: the first finding that differs:\n{x:#?}\n{y:#?}");
    }
    assert_eq!(a.findings, b.findings, "{at}");
    assert_eq!(a.errors, b.errors, "{at}");
}

#[test]
fn host_pass_reports_do_not_depend_on_the_order_files_are_listed() {
    let (mut with_fix, mut without_fix) = (0, 0);
    for seed in 1..=48u64 {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let plugins = tree(&mut r, &root);
        let src = root.join("src");
        let walked = lint(&options(vec![src.clone()], &root));
        let (sources, errors) = read_sources(&options(vec![src.clone()], &root));
        for round in 0..3 {
            let mut order: Vec<usize> = (0..sources.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, r.below(i + 1));
            }
            let listed: Vec<_> = order.iter().map(|&i| sources[i].clone()).collect();
            let opts = options(vec![src.clone()], &root);
            let held = lint_sources(&opts, &listed, &errors, None);
            let at = format!(
                "seed {seed}, sources in order {order:?}\n{}",
                describe(&root)
            );
            same(&walked, &held, &at);
            assert_eq!(
                held.stats.host_files, walked.stats.host_files,
                "files the host pass read, every text held and only candidates, {at}"
            );
            let paths: Vec<PathBuf> = order.iter().map(|&i| sources[i].path.clone()).collect();
            let named = lint(&options(paths, &root));
            same(
                &walked,
                &named,
                &format!("seed {seed}, round {round}: paths listed"),
            );
        }
        for f in walked.findings.iter().filter(|f| f.path.contains("plugin")) {
            if f.fix.is_some() {
                with_fix += 1;
            } else {
                without_fix += 1;
            }
        }
        assert!(plugins.len() >= 2);
        // The scripts with a finding, and at most the three hosts their imports reach.
        let mut with_findings: Vec<&str> =
            walked.findings.iter().map(|f| f.path.as_str()).collect();
        with_findings.sort_unstable();
        with_findings.dedup();
        assert!(
            walked.stats.host_files <= with_findings.len() + 3,
            "seed {seed}: the host pass read {} files, {} scripts have a finding\n{}",
            walked.stats.host_files,
            with_findings.len(),
            describe(&root)
        );
    }
    // The host decided some fixes each way.
    assert!(
        with_fix >= 10 && without_fix >= 10,
        "{with_fix} fixes, {without_fix} dropped"
    );
}
