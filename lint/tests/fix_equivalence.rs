//! A behaviour-equivalence harness for `--fix` (issue #29, item 2), as codemod suites test
//! themselves: generated plugin shapes (`equivalence/shape.rs`: how the plugin is wired,
//! `ctx.on`, `bus.on` or `agent.on`; a host whose `on` is generic over its `Events` map, takes
//! any name with an untyped listener, has both as overloads, is generic through aliases
//! (`on<K extends EventName>(name: K, fn: Handler<K>)`) or is `EventEmitter`-style; whose
//! `Events` is an interface, a type alias, or partly declared by module augmentation in
//! another file (imported by the host, or only compiled with it), or whose entries name the
//! agent and payload types through aliases it does not export; that calls its listeners
//! with upstream's signatures, or has signatures of its own (`session/event` with one payload
//! object; `agent/created` with a payload holding the agent; its own events, with a payload of
//! their own, under the mirrors' names); that declares
//! `agent/created`/`agent/disposed` or not; that types `session/event`'s `data` by event (a
//! mapped type or a spelled-out union), as `unknown` or as `any`; agents announced before or
//! after the listener; one agent or three; handlers reading only the payload,
//! `agent.session.id`, the agent itself, comparing it by object, id or name, throwing,
//! `async`, `once`, in a loop over names, annotated, beside a `session/event` listener, or in
//! a plugin that also appends and emits; the plugin imports only the host's types it names) are
//! written as small TypeScript projects (`equivalence/render.rs`), fixed in memory with and
//! without `--unsafe-fixes`, compiled with the real `tsc --strict`, and run with Node against
//! a simulated host that fires each mirror after appending its durable twin (`before`, as
//! upstream did) or only appends (`after`).
//!
//! The invariants, per shape (`E(tree, host)` is the `out(…)` lines the plugin printed):
//! - the generated input type-checks and runs (else the generator is wrong);
//! - **safe fixes keep behaviour**: the machine-applicable output type-checks,
//!   `E(fixed, before) == E(input, before)` (what the fix changed behaves the same on the
//!   host the code runs on today), and when it migrated everything (no ML001/ML002 left),
//!   `E(fixed, after) == E(input, before)` (and on the host without mirrors);
//! - **suggestions type-check**: the `--unsafe-fixes` output type-checks, unless it
//!   subscribes to an event the host does not declare (invariant (b), reported as such);
//! - **(a)** no output deletes an emit of a mirror the plugin still listens to unmigrated;
//! - **(c)** a handler that uses its agent only to tell it from another (by object, id or
//!   name) behaves the same after `--fix --unsafe-fixes` on the host without mirrors: its
//!   identity check must not become a lookup that misses agents announced before the listener.
//!
//! The plugin is linted alone, as in a plugin's own repository where the host is a dependency:
//! the fixer sees the host's `Events` only through the files the plugin's imports reach, as
//! `tsc` does (an augmentation nothing imports is not seen).
//!
//! Other differences of a suggestion's behaviour are printed (the test says what differs),
//! not failed: a suggestion is one because a human must check it.
//!
//! Shapes failing an invariant another change is fixing are listed in [`KNOWN_FAILURES`]
//! with the invariant (none now); the test fails when a listed shape passes it (remove the
//! entry), so the list cannot rot. `MIRRORLESS_EQUIVALENCE_SEED=N` draws the host dimensions
//! anew (a failure prints the seed); the listed shapes and those of [`ONCE_FAILED`] are always
//! run. `MIRRORLESS_EQUIVALENCE_KEEP=1` keeps the generated trees.
//!
//! tsc is the pinned npm `typescript` `tests/js-tools/setup.sh` installs, Node the one on
//! `PATH`; without them the test is skipped (and says so), and `MIRRORLESS_REQUIRE_TSC=1`
//! makes that a failure.

use crate::equivalence;

use equivalence::render;
use equivalence::shape::{self, Handler, Shape};
use mirrorless_lint::config::Config;
use mirrorless_lint::fix::{self, FixOptions};
use mirrorless_lint::{Options, Report};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// An invariant a shape can fail, as `KNOWN_FAILURES` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Invariant {
    /// The generated input does not type-check or does not run: the generator is wrong.
    Input,
    /// The machine-applicable output does not type-check.
    FixedTypeChecks,
    /// The machine-applicable output behaves differently on the host with mirrors.
    FixedKeepsBehaviour,
    /// The machine-applicable output migrated everything but behaves differently on the host
    /// without mirrors.
    FixedMigrates,
    /// The `--unsafe-fixes` output does not type-check (other than by (b) or the two below).
    UnsafeTypeChecks,
    /// The `--unsafe-fixes` output destructures `event.data` uncast where the host types it
    /// `unknown` (TS2339): the suggestion says it needs a host typing `data` by event.
    UnsafeDataUncast,
    /// The agent map the `--unsafe-fixes` output declares spells the agent's type as
    /// `typeof recv.on<'agent/created'>`, which a host whose `on` is not generic rejects
    /// (TS2635).
    UnsafeAgentMapType,
    /// (a): an emit deleted while a listener of the mirror stays unmigrated.
    EmitKeptForListener,
    /// (b): an output subscribes to an event the host does not declare.
    HostDeclaredNames,
    /// (c): agent identity by comparison became a lookup that changes behaviour.
    IdentityByComparison,
}

/// Shapes that fail an invariant of issue #29 that a change under way is fixing, each with the
/// invariant it fails. Remove an entry once its shape passes: the test fails on a listed shape
/// that passes.
const KNOWN_FAILURES: &[(&str, Invariant)] = &[];

/// Shapes that once failed an invariant (each was in [`KNOWN_FAILURES`] until the fixer kept
/// to what the host declares, issue #29 item 1 (b), or failed before the change named at its
/// group): run whatever the seed draws, so that they keep passing.
const ONCE_FAILED: &[&str] = &[
    "agent-typed-nolifecycle-datatyped-before-3-agentvalue-step-end",
    "agent-typed-nolifecycle-dataunknown-after-1-comparename-step-start",
    "agent-typed-nolifecycle-dataunknown-before-1-compareid-step-end",
    "agent-typed-nolifecycle-dataunknown-before-3-agentvalue-turn-end",
    "agent-typed-nolifecycle-dataunknown-before-3-compareid-turn-end",
    "agent-untyped-nolifecycle-datatyped-after-3-splitscopes-stream-chunk",
    "agent-untyped-nolifecycle-dataunknown-after-1-splitscopes-turn-start",
    "agent-untyped-nolifecycle-dataunknown-before-1-agentvalue-turn-start",
    "agent-untyped-nolifecycle-dataunknown-before-1-splitscopes-step-end",
    "agent-untyped-nolifecycle-dataunknown-before-1-splitscopes-step-start",
    "bus-typed-nolifecycle-datatyped-after-1-splitscopes-turn-start",
    "bus-typed-nolifecycle-dataunknown-before-3-splitscopes-stream-chunk",
    "bus-untyped-nolifecycle-dataunknown-after-1-agentvalue-stream-chunk",
    "bus-untyped-nolifecycle-dataunknown-before-1-agentvalue-turn-end",
    "ctx-typed-nolifecycle-dataunknown-after-3-agentvalue-turn-start",
    "ctx-typed-nolifecycle-dataunknown-before-3-compareid-turn-start",
    "ctx-untyped-nolifecycle-datatyped-after-3-agentvalue-turn-end",
    "ctx-untyped-nolifecycle-datatyped-before-1-splitscopes-step-end",
    "ctx-untyped-nolifecycle-dataunknown-after-1-agentvalue-step-start",
    "ctx-untyped-nolifecycle-dataunknown-before-3-agentvalue-step-end",
    "agent-untyped-lifecycle-dataunknown-before-3-splitscopes-turn-end",
    "bus-untyped-lifecycle-datatyped-after-3-agentvalue-step-end",
    "bus-untyped-lifecycle-datatyped-after-3-splitscopes-step-start",
    "bus-untyped-lifecycle-dataunknown-after-3-agentvalue-step-start",
    "bus-untyped-lifecycle-dataunknown-before-3-splitscopes-turn-end",
    "ctx-untyped-lifecycle-datatyped-after-3-splitscopes-step-start",
    "ctx-untyped-lifecycle-datatyped-before-3-splitscopes-turn-start",
    "ctx-untyped-lifecycle-dataunknown-after-1-splitscopes-turn-end",
    "agent-typed-lifecycle-dataunknown-after-1-agentvalue-step-start",
    "agent-typed-lifecycle-dataunknown-after-3-compareid-stream-chunk",
    "agent-typed-lifecycle-dataunknown-after-3-compareobject-stream-chunk",
    "agent-typed-lifecycle-dataunknown-after-3-sessionid-turn-end",
    "agent-typed-lifecycle-dataunknown-before-1-throws-turn-end",
    "agent-typed-lifecycle-dataunknown-before-3-compareid-step-start",
    "agent-typed-nolifecycle-dataunknown-after-3-plain-turn-start",
    "agent-typed-nolifecycle-dataunknown-after-3-sessionid-stream-chunk",
    "agent-typed-nolifecycle-dataunknown-before-1-merge-step-start",
    "agent-typed-nolifecycle-dataunknown-before-1-plain-turn-end",
    "agent-typed-nolifecycle-dataunknown-before-3-throws-step-end",
    "bus-typed-lifecycle-dataunknown-after-1-throws-turn-start",
    "bus-typed-lifecycle-dataunknown-after-3-plain-step-end",
    "bus-typed-lifecycle-dataunknown-before-1-splitscopes-step-end",
    "bus-typed-lifecycle-dataunknown-before-3-compareobject-step-start",
    "bus-typed-lifecycle-dataunknown-before-3-compareobject-turn-end",
    "bus-typed-lifecycle-dataunknown-before-3-emitsandlistens-step-start",
    "bus-typed-lifecycle-dataunknown-before-3-sessionid-turn-start",
    "bus-typed-nolifecycle-dataunknown-after-1-emitsandlistens-turn-start",
    "bus-typed-nolifecycle-dataunknown-after-3-plain-stream-chunk",
    "bus-typed-nolifecycle-dataunknown-before-1-merge-turn-end",
    "bus-typed-nolifecycle-dataunknown-before-3-merge-stream-chunk",
    "ctx-typed-lifecycle-dataunknown-after-1-compareid-stream-chunk",
    "ctx-typed-lifecycle-dataunknown-after-1-merge-step-start",
    "ctx-typed-lifecycle-dataunknown-after-3-plain-stream-chunk",
    "ctx-typed-lifecycle-dataunknown-before-3-merge-turn-start",
    "ctx-typed-nolifecycle-dataunknown-after-1-plain-turn-end",
    "ctx-typed-nolifecycle-dataunknown-after-1-sessionid-turn-start",
    "ctx-typed-nolifecycle-dataunknown-after-1-throws-step-start",
    "ctx-typed-nolifecycle-dataunknown-after-3-async-stream-chunk",
    "ctx-typed-nolifecycle-dataunknown-before-1-compareobject-step-start",
    "ctx-typed-nolifecycle-dataunknown-before-1-emitsandlistens-step-end",
    "ctx-typed-nolifecycle-dataunknown-before-3-sessionid-step-end",
    // Hosts with signatures of their own (a `session/event` or `agent/created` called with one
    // payload, the host's own events under the mirrors' names): the fixer rewrote them as upstream's
    // until it checked the host's signatures (2026-12-05).
    "agent-constrained-lifecycle-datatyped-before-3-annotated-turn-start+augmented+sessionpayload",
    "agent-overloaded-nolifecycle-datatyped-after-3-async-step-start+sessionpayload",
    "agent-overloaded-nolifecycle-dataunknown-after-3-compareobject-turn-start+augmented+sessionpayload",
    "agent-typed-lifecycle-datatyped-before-3-splitscopes-step-start+sessionpayload",
    "bus-typed-lifecycle-datatyped-before-3-sessionid-step-end+alias+sessionpayload",
    "bus-typed-lifecycle-dataunknown-before-1-plain-step-end+sessionpayload",
    "bus-untyped-lifecycle-datatyped-before-3-plain-stream-chunk+alias+own",
    "ctx-constrained-lifecycle-dataany-before-1-compareid-step-start+sessionpayload",
    "ctx-constrained-lifecycle-dataany-before-3-throws-step-end+sessionpayload",
    "ctx-overloaded-lifecycle-dataunion-after-1-throws-stream-chunk+augmented+own",
    "ctx-overloaded-nolifecycle-dataunknown-after-1-compareobject-step-start+augmented+sessionpayload",
    "ctx-overloaded-nolifecycle-dataunknown-after-3-compareobject-step-end+sessionpayload",
    "ctx-typed-lifecycle-datatyped-before-3-compareid-turn-start+sessionpayload",
    "agent-typed-lifecycle-datatyped-before-3-splitscopes-step-start+createdpayload",
    "bus-untyped-lifecycle-dataunknown-before-1-splitscopes-turn-end+augmented+createdpayload",
    // A host whose agent and payload types only its event map shows (`+hidden`): the
    // rewrites named them as `import('./host').HiddenAgent`, which the host does not export
    // (TS2694), or had no fix, which at upstream's `3f85f522ea` held back the loop's
    // `agent/turn-start` emit under `--unsafe-fixes` (issue #29 acceptance: the parents keep
    // their results). They are typed through the map now.
    "agent-emitter-lifecycle-dataunknown-after-1-async-stream-chunk+hidden",
    "agent-emitter-nolifecycle-dataunknown-after-1-merge-stream-chunk+hidden",
    "agent-overloaded-lifecycle-datatyped-before-3-splitscopes-step-start+hidden",
    "bus-typed-lifecycle-datatyped-before-3-agentvalue-turn-start+hidden",
    "bus-untyped-lifecycle-datatyped-before-3-splitscopes-turn-end+hidden",
    "ctx-constrained-lifecycle-datatyped-after-1-agentvalue-step-end+hidden",
    "ctx-typed-nolifecycle-dataunknown-before-1-async-turn-end+hidden",
];

fn js_tools() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/js-tools")
}

/// `tsc` and `node`, or `None` (after saying why) when the test is to be skipped.
fn tools() -> Option<(PathBuf, PathBuf)> {
    let tsc = js_tools().join("node_modules/.bin/tsc");
    let node = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("node"))
            .find(|p| p.is_file())
    });
    let required = std::env::var("MIRRORLESS_REQUIRE_TSC").is_ok_and(|v| v == "1");
    match (tsc.is_file(), node) {
        (true, Some(node)) => Some((tsc, node)),
        (has_tsc, node) => {
            let missing = if has_tsc {
                "node is not on PATH".to_owned()
            } else if node.is_none() {
                format!("{} and node are missing", tsc.display())
            } else {
                format!("{} is missing (run tests/js-tools/setup.sh)", tsc.display())
            };
            assert!(!required, "MIRRORLESS_REQUIRE_TSC=1 but {missing}");
            eprintln!("SKIPPED: {missing}: the fix equivalence shapes were NOT run");
            None
        }
    }
}

fn no_filter(_: &mut Report) {}

/// What `--fix` (or `--fix --unsafe-fixes`) made of one plugin, in memory.
struct Fixed {
    text: String,
    /// The subscribe (ML001) and emit (ML002) findings left, by event name.
    subscribed: BTreeSet<String>,
    emitted: BTreeSet<String>,
}

fn fix_plugin(dir: &Path, unsafe_fixes: bool) -> Fixed {
    let path = dir.join("plugin.ts");
    let opts = Options {
        paths: vec![path.clone()],
        jobs: Some(1),
        follow: false,
        config: Config {
            root: dir.to_path_buf(),
            ..Config::default()
        },
    };
    let outcome = fix::run(&opts, FixOptions { unsafe_fixes }, &no_filter);
    assert!(
        outcome.report.errors.is_empty(),
        "{}: {:?}",
        dir.display(),
        outcome.report.errors
    );
    let original = std::fs::read_to_string(&path).unwrap_or_default();
    let text = outcome.files.first().map_or(original, |f| f.fixed.clone());
    let names = |rule: &str| {
        outcome
            .report
            .findings
            .iter()
            .filter(|f| f.rule == rule)
            .filter_map(|f| f.event.clone())
            .collect()
    };
    Fixed {
        subscribed: names("ML001"),
        emitted: names("ML002"),
        text,
    }
}

/// tsc's error lines by (tree, shape): one program compiles every tree (one compiler start).
fn compile(tsc: &Path, root: &Path, trees: &[&str]) -> BTreeMap<(String, String), String> {
    let mut files = Vec::new();
    for tree in trees {
        for entry in walkdir::WalkDir::new(root.join(tree))
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "ts"))
        {
            files.push(entry.into_path());
        }
    }
    let out = Command::new(tsc)
        .current_dir(root)
        .args([
            "--strict",
            "--pretty",
            "false",
            "--target",
            "es2022",
            "--module",
            "commonjs",
            "--types",
            "",
            "--outDir",
            "out",
            "--rootDir",
            ".",
        ])
        .args(&files)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tsc.display()));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut errors: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut current = None;
    for line in text.lines() {
        if !line.starts_with(' ') {
            let mut parts = line.split('/');
            let (tree, shape) = (parts.next(), parts.next());
            current = tree
                .zip(shape)
                .filter(|(t, _)| trees.contains(t))
                .map(|(t, s)| (t.to_owned(), s.to_owned()));
            assert!(
                current.is_some() || line.trim().is_empty(),
                "tsc reports outside the shapes (the runner?): {line}\n{text}"
            );
        }
        if let Some(key) = &current {
            let entry = errors.entry(key.clone()).or_default();
            entry.push_str(line);
            entry.push('\n');
        }
    }
    assert!(
        out.status.success() == errors.is_empty(),
        "{} exited {:?} without errors a shape owns:\n{text}",
        tsc.display(),
        out.status
    );
    errors
}

/// Each shape's effects when `tree`'s runner runs in `mode`.
fn run(node: &Path, root: &Path, tree: &str, mode: &str) -> BTreeMap<String, Vec<String>> {
    let out = Command::new(node)
        .current_dir(root)
        .arg(Path::new("out").join(tree).join("run.js"))
        .arg(mode)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", node.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.ends_with("### end\n"),
        "node {tree}/run.js {mode} exited {:?}:\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let mut effects: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current = String::new();
    for line in stdout.lines() {
        if let Some(name) = line.strip_prefix("### ") {
            current = name.to_owned();
            effects.entry(current.clone()).or_default();
        } else {
            effects
                .entry(current.clone())
                .or_default()
                .push(line.to_owned());
        }
    }
    effects
}

/// The removed events a text still subscribes to with an event the host does not declare:
/// `agent/created`/`agent/disposed` on a host without them.
fn undeclared_subscriptions(shape: &Shape, text: &str) -> Vec<&'static str> {
    if shape.lifecycle {
        return Vec::new();
    }
    ["agent/created", "agent/disposed"]
        .into_iter()
        .filter(|name| text.contains(&format!("'{name}'")))
        .collect()
}

#[test]
fn safe_fixes_keep_behaviour_and_suggestions_type_check() {
    let Some((tsc, node)) = tools() else { return };
    let seed: u64 = std::env::var("MIRRORLESS_EQUIVALENCE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(29);
    let named: Vec<Shape> = KNOWN_FAILURES
        .iter()
        .map(|(name, _)| *name)
        .chain(ONCE_FAILED.iter().copied())
        .map(|name| {
            Shape::parse(name)
                .unwrap_or_else(|| panic!("KNOWN_FAILURES or ONCE_FAILED names no shape: {name}"))
        })
        .collect();
    let shapes = shape::sample(seed, &named);
    let names: Vec<String> = shapes.iter().map(Shape::name).collect();

    let dir = tempfile::tempdir().unwrap();
    // `MIRRORLESS_EQUIVALENCE_KEEP=1` keeps the generated trees to look at (their path is
    // printed).
    let kept = std::env::var("MIRRORLESS_EQUIVALENCE_KEEP").is_ok_and(|v| v == "1");
    let root = &if kept {
        let path = dir.keep();
        eprintln!("the generated trees are kept in {}", path.display());
        path
    } else {
        dir.path().to_path_buf()
    };
    let trees = ["input", "fixed", "unsafe"];
    let mut fixed: BTreeMap<String, (Fixed, Fixed)> = BTreeMap::new();
    for (shape, name) in shapes.iter().zip(&names) {
        let input = root.join("input").join(name);
        std::fs::create_dir_all(&input).unwrap();
        for (file, text) in render::host_files(shape) {
            std::fs::write(input.join(file), text).unwrap();
        }
        std::fs::write(input.join("driver.ts"), render::driver(shape)).unwrap();
        std::fs::write(input.join("plugin.ts"), render::plugin(shape)).unwrap();
        let machine = fix_plugin(&input, false);
        let suggested = fix_plugin(&input, true);
        for (tree, out) in [("fixed", &machine), ("unsafe", &suggested)] {
            let d = root.join(tree).join(name);
            std::fs::create_dir_all(&d).unwrap();
            for (file, text) in render::host_files(shape) {
                std::fs::write(d.join(file), text).unwrap();
            }
            std::fs::write(d.join("driver.ts"), render::driver(shape)).unwrap();
            std::fs::write(d.join("plugin.ts"), &out.text).unwrap();
        }
        fixed.insert(name.clone(), (machine, suggested));
    }
    for tree in trees {
        std::fs::write(root.join(tree).join("run.ts"), render::runner(&names)).unwrap();
    }
    let errors = compile(&tsc, root, &trees);
    let input_before = run(&node, root, "input", "before");
    let fixed_before = run(&node, root, "fixed", "before");
    let fixed_after = run(&node, root, "fixed", "after");
    let unsafe_after = run(&node, root, "unsafe", "after");

    let mut failed: BTreeMap<String, BTreeSet<Invariant>> = BTreeMap::new();
    let mut details = Vec::new();
    let mut differs = Vec::new();
    let mut migrated = 0;
    // `--unsafe-fixes` outputs that type-check with every listener migrated, and those of them
    // whose rewrite casts `data` as the host declares it (issue #29 item 1 (b)).
    let (mut unsafe_migrated, mut cast) = (0, 0);
    for (shape, name) in shapes.iter().zip(&names) {
        let mut fail = |inv: Invariant, why: String| {
            failed.entry(name.clone()).or_default().insert(inv);
            details.push(format!("{name}: {inv:?}: {why}"));
        };
        let (machine, suggested) = &fixed[name];
        let tsc_errors = |tree: &str| errors.get(&(tree.to_owned(), name.clone()));
        let expected = &input_before[name];
        if let Some(e) = tsc_errors("input") {
            fail(
                Invariant::Input,
                format!("the input does not type-check:\n{e}"),
            );
            continue;
        }
        if expected.iter().any(|l| l.starts_with("!!!")) || expected.is_empty() {
            fail(
                Invariant::Input,
                format!("the input observes nothing or fails: {expected:?}"),
            );
            continue;
        }
        // (a): an emit gone while a listener of its mirror is left.
        let input_text = std::fs::read_to_string(root.join("input").join(name).join("plugin.ts"))
            .unwrap_or_default();
        for (kind, out) in [("fixed", machine), ("unsafe", suggested)] {
            let emitted_before = input_text.contains(&format!(".emit('{}'", shape.mirror.name));
            let emitted_after = out.text.contains(&format!(".emit('{}'", shape.mirror.name));
            if emitted_before && !emitted_after && out.subscribed.contains(shape.mirror.name) {
                fail(
                    Invariant::EmitKeptForListener,
                    format!(
                        "{kind}: the emit of {} is deleted, its listener is left:\n{}",
                        shape.mirror.name, out.text
                    ),
                );
            }
        }
        // Safe fixes.
        if let Some(e) = tsc_errors("fixed") {
            let inv = if undeclared_subscriptions(shape, &machine.text).is_empty() {
                Invariant::FixedTypeChecks
            } else {
                Invariant::HostDeclaredNames
            };
            fail(inv, format!("--fix output:\n{}\n{e}", machine.text));
        } else {
            let got = &fixed_before[name];
            if got != expected {
                fail(
                    Invariant::FixedKeepsBehaviour,
                    format!(
                        "with mirrors, input {expected:?}, --fix {got:?}:\n{}",
                        machine.text
                    ),
                );
            }
            if machine.subscribed.is_empty() && machine.emitted.is_empty() {
                migrated += 1;
                let got = &fixed_after[name];
                if got != expected {
                    fail(
                        Invariant::FixedMigrates,
                        format!(
                            "without mirrors, input {expected:?}, --fix {got:?}:\n{}",
                            machine.text
                        ),
                    );
                }
            }
        }
        // Suggestions.
        if let Some(e) = tsc_errors("unsafe") {
            let inv = if !undeclared_subscriptions(shape, &suggested.text).is_empty() {
                Invariant::HostDeclaredNames
            } else if e.contains("error TS2635") {
                Invariant::UnsafeAgentMapType
            } else if matches!(shape.data, shape::Data::Unknown)
                && e.lines()
                    .filter(|l| l.contains("): error "))
                    .all(|l| l.contains("error TS2339"))
            {
                Invariant::UnsafeDataUncast
            } else {
                Invariant::UnsafeTypeChecks
            };
            fail(
                inv,
                format!("--unsafe-fixes output:\n{}\n{e}", suggested.text),
            );
        } else {
            if suggested.subscribed.is_empty() {
                unsafe_migrated += 1;
                if suggested.text.contains(".data as {") {
                    cast += 1;
                }
            }
            let got = &unsafe_after[name];
            let compares = matches!(
                shape.handler,
                Handler::CompareObject | Handler::CompareId | Handler::CompareName
            );
            if got != expected && compares && suggested.subscribed.is_empty() {
                fail(
                    Invariant::IdentityByComparison,
                    format!(
                        "without mirrors, input {expected:?}, --unsafe-fixes {got:?}:\n{}",
                        suggested.text
                    ),
                );
            } else if got != expected {
                let left = if suggested.subscribed.is_empty() {
                    ""
                } else {
                    " (a listener is left unmigrated: no fix)"
                };
                differs.push(format!(
                    "{name}: --unsafe-fixes without mirrors prints {got:?}, the input {expected:?}{left}"
                ));
            }
        }
    }

    eprintln!(
        "{} shapes (seed {seed}); --fix migrated {migrated} whole, --unsafe-fixes {unsafe_migrated} \
         ({cast} casting `data`); {} --unsafe-fixes outputs behave differently (suggestions, for a \
         human to check):",
        shapes.len(),
        differs.len()
    );
    for d in &differs {
        eprintln!("  {d}");
    }
    // The property must not hold vacuously.
    assert!(
        migrated >= 10,
        "only {migrated} shapes migrated whole by --fix"
    );
    // Nor by dropping every fix the host cannot be shown to type.
    assert!(
        unsafe_migrated * 2 >= shapes.len() && cast >= 10,
        "only {unsafe_migrated} of {} shapes migrated whole by --fix --unsafe-fixes, {cast} casting `data`",
        shapes.len()
    );

    let known: BTreeSet<(&str, Invariant)> = KNOWN_FAILURES.iter().copied().collect();
    let mut problems = Vec::new();
    for (name, invs) in &failed {
        for inv in invs {
            if !known.contains(&(name.as_str(), *inv)) {
                let why: Vec<&String> = details
                    .iter()
                    .filter(|d| d.starts_with(&format!("{name}: {inv:?}:")))
                    .collect();
                problems.push(format!("FAILS (not a known failure): {why:?}"));
            }
        }
    }
    let unlisted: String = failed
        .iter()
        .flat_map(|(name, invs)| invs.iter().map(move |inv| (name, inv)))
        .filter(|(name, inv)| !known.contains(&(name.as_str(), **inv)))
        .map(|(name, inv)| format!("    (\"{name}\", Invariant::{inv:?}),\n"))
        .collect();
    if !unlisted.is_empty() {
        eprintln!("failing (shape, invariant) pairs not in KNOWN_FAILURES:\n{unlisted}");
    }
    for (name, inv) in KNOWN_FAILURES {
        if !failed.get(*name).is_some_and(|f| f.contains(inv)) {
            problems.push(format!(
                "{name} passes {inv:?} now: remove it from KNOWN_FAILURES"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "seed {seed}:\n{}",
        problems.join("\n\n")
    );
}
