//! The in-memory entry points give what `lint` gives from disk: `lint_document` on every
//! single-file lint fixture, and `lint_sources` (with `only`) on every fixture directory, find
//! exactly the findings — fixes included — that `lint` finds reading the same files; and
//! `lint_sources_cached` gives what `lint_sources` gives, run after run, while files change.

use mirrorless_lint::cache::Cache;
use mirrorless_lint::config::Config;
use mirrorless_lint::engine::read_sources;
use mirrorless_lint::source::Source;
use mirrorless_lint::{Options, lint, lint_document, lint_sources, lint_sources_cached};
use std::path::PathBuf;

fn cases() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for lang in ["rust", "ts", "md"] {
        let root = PathBuf::from("../fixtures/lint").join(lang);
        for e in std::fs::read_dir(&root).unwrap() {
            out.push(e.unwrap().path());
        }
    }
    out.sort();
    out
}

fn options(path: &std::path::Path) -> Options {
    let dir = if path.is_dir() {
        path.to_path_buf()
    } else {
        path.parent().unwrap().to_path_buf()
    };
    Options {
        paths: vec![path.to_path_buf()],
        config: Config::discover(&dir).unwrap(),
        ..Options::default()
    }
}

#[test]
fn lint_document_equals_lint_on_every_single_file_fixture() {
    let mut files = 0;
    let mut findings = 0;
    for case in cases().into_iter().filter(|p| p.is_file()) {
        let opts = options(&case);
        let from_disk = lint(&opts);
        let Ok(text) = std::fs::read_to_string(&case) else {
            continue;
        };
        let in_memory = lint_document(&case, &text, &opts.config);
        assert_eq!(in_memory.findings, from_disk.findings, "{}", case.display());
        files += 1;
        findings += from_disk.findings.len();
    }
    assert!(
        files >= 20 && findings >= 100,
        "{files} files, {findings} findings"
    );
}

#[test]
fn lint_sources_with_only_equals_lint_on_every_fixture_directory() {
    let mut dirs = 0;
    // The fix fixtures' directories hold fixes that another file's use holds back.
    let fix_dirs = std::fs::read_dir("../fixtures/lint/fix")
        .unwrap()
        .map(|e| e.unwrap().path());
    for case in cases().into_iter().chain(fix_dirs).filter(|p| p.is_dir()) {
        let opts = options(&case);
        let from_disk = lint(&opts);
        let (sources, _) = read_sources(&opts);
        // File by file, every other file taking part in resolution only.
        for s in &sources {
            let only = [s.display.clone()];
            let report = lint_sources(&opts, &sources, &[], Some(&only));
            let expected: Vec<_> = from_disk
                .findings
                .iter()
                .filter(|f| f.path == s.display)
                .cloned()
                .collect();
            assert_eq!(report.findings, expected, "{}", s.display);
        }
        dirs += 1;
    }
    assert!(dirs >= 5, "{dirs} fixture directories");
}

/// `lint_sources_cached` against `lint_sources` on the same sources: the same report.
fn assert_cached_equals_uncached(
    opts: &Options,
    sources: &[Source],
    cache: &mut Cache,
    what: &str,
) -> usize {
    let cached = lint_sources_cached(opts, sources, &[], None, cache);
    let analyzed = cache.analyzed();
    let uncached = lint_sources(opts, sources, &[], None);
    assert_eq!(cached.findings, uncached.findings, "{what}");
    assert_eq!(cached.stats, uncached.stats, "{what}");
    // With `only`, the same findings of that file.
    if let Some(s) = sources.first() {
        let only = [s.display.clone()];
        let one = lint_sources_cached(opts, sources, &[], Some(&only), cache);
        let expected: Vec<_> = (uncached.findings.iter())
            .filter(|f| f.path == s.display)
            .cloned()
            .collect();
        assert_eq!(one.findings, expected, "{what}, only {}", s.display);
        assert_eq!(cache.analyzed(), 0, "{what}: the same texts again");
    }
    analyzed
}

/// Edits the file whose display path ends with `display`, and reports the change to the cache
/// (which a cache that does not track changes ignores).
fn set(
    sources: &mut [Source],
    cache: &mut Cache,
    display: &str,
    edit: impl FnOnce(&str) -> String,
) {
    let s = sources
        .iter_mut()
        .find(|s| s.display.ends_with(display))
        .unwrap_or_else(|| panic!("no {display}"));
    s.text = edit(&s.text);
    cache.changed(&s.display);
}

/// The language server's runs: the whole tree linted again after each change, through one
/// cache. Each run reports what an uncached run reports, and only changed files are parsed
/// again, unless the declarations of the run changed.
#[test]
fn a_cached_run_equals_an_uncached_one_while_files_change() {
    cached_runs_while_files_change(Cache::default());
}

/// The same, with a cache that keeps the byte scans of the files not reported changed (the
/// prefilter's verdict, the declared identifiers each mentions), as the language server's.
#[test]
fn a_cache_tracking_changes_equals_an_uncached_run_while_files_change() {
    let mut cache = Cache::default();
    cache.track_changes();
    cached_runs_while_files_change(cache);
}

fn cached_runs_while_files_change(mut cache: Cache) {
    let root = PathBuf::from("../fixtures/lint");
    let opts = Options {
        paths: vec![root.join("fix"), root.join("ts")],
        config: Config::default(),
        ..Options::default()
    };
    let (mut sources, _) = read_sources(&opts);
    let first = assert_cached_equals_uncached(&opts, &sources, &mut cache, "first run");
    assert!(first > 50, "{first} files analysed");
    assert_eq!(cache.len(), first);
    assert_eq!(
        assert_cached_equals_uncached(&opts, &sources, &mut cache, "unchanged"),
        0,
        "nothing changed, nothing is parsed again"
    );

    // One file changes: only it is parsed again, and the deletion it held back no longer
    // names it (other files of this tree still use the event). The emit's note (no fix: a
    // listener has none) or its fix's message (held back by a listener's suggestion) names
    // the listener that holds it.
    let host_fix = |cache: &mut Cache, sources: &[Source]| {
        let report = lint_sources_cached(&opts, sources, &[], None, cache);
        let emit = (report.findings.into_iter())
            .find(|f| f.path.ends_with("emit_with_listener/host.ts") && f.rule == "ML002")
            .unwrap();
        let said = emit.fix.map(|x| x.message).or(emit.note).unwrap();
        let named = said
            .split(" at ")
            .nth(1)
            .and_then(|rest| rest.split(':').next())
            .unwrap()
            .to_owned();
        (said, named)
    };
    let (held, listener) = host_fix(&mut cache, &sources);
    assert!(held.contains("agent/turn-start"), "{held}");
    let listener = listener.trim_start_matches("../fixtures/lint/").to_owned();
    set(&mut sources, &mut cache, &listener, |t| {
        t.replace("agent/turn-start", "agent/turn-started")
    });
    assert_eq!(
        assert_cached_equals_uncached(&opts, &sources, &mut cache, "listener gone"),
        1
    );
    let (now, _) = host_fix(&mut cache, &sources);
    assert!(!now.contains(&listener), "{listener}: {now}");

    // A declaration moves a line down: every note that names it changes, every file is
    // analysed again with the new declarations.
    set(
        &mut sources,
        &mut cache,
        "consts_cross_file/src/events.ts",
        |t| format!("\n{t}"),
    );
    let moved = assert_cached_equals_uncached(&opts, &sources, &mut cache, "declaration moved");
    assert!(moved > 1, "{moved}");
    // A declaration is added in one file and used by another.
    set(&mut sources, &mut cache, "ts/near_misses.ts", |t| {
        format!("{t}\nexport const LATE = 'agent/step-end';\n")
    });
    set(
        &mut sources,
        &mut cache,
        "declaration_in_use/loop.ts",
        |t| format!("{t}\nbus.on(LATE, h);\n"),
    );
    assert_cached_equals_uncached(&opts, &sources, &mut cache, "declaration added");
    // A file is removed, another stops naming any removed event.
    let gone = sources.remove(0).display;
    cache.changed(&gone);
    set(
        &mut sources,
        &mut cache,
        "listener_with_emitter/ui.spec.ts",
        |_| "export {};\n".to_owned(),
    );
    assert_cached_equals_uncached(&opts, &sources, &mut cache, "file removed");
    assert!(cache.len() < first, "{gone} and ui.spec.ts are forgotten");
    // The file that named nothing (the prefilter rejected it) names an event again.
    set(
        &mut sources,
        &mut cache,
        "listener_with_emitter/ui.spec.ts",
        |t| format!("{t}bus.on('agent/turn-end', (agent, turn) => done(agent, turn));\n"),
    );
    assert_eq!(
        assert_cached_equals_uncached(&opts, &sources, &mut cache, "a name again"),
        1
    );

    // Another configuration: nothing is reused.
    let mut other = opts.clone();
    other
        .config
        .lint
        .severity
        .insert("ML001".into(), "warning".into());
    let all = assert_cached_equals_uncached(&other, &sources, &mut cache, "new configuration");
    assert_eq!(all, cache.len());
}

/// `--fix` checks a round's edits with the syntax-error count the next round's parse left in
/// the cache instead of parsing them again: that count must be the front end's own, on texts
/// that parse and on texts that do not.
#[test]
fn the_cached_syntax_count_is_the_front_ends() {
    let root = PathBuf::from("../fixtures/lint");
    let opts = Options {
        paths: vec![root.join("fix"), root.join("ts"), root.join("md")],
        config: Config::default(),
        ..Options::default()
    };
    let (mut sources, _) = read_sources(&opts);
    // Break every TypeScript file (an unclosed call), so both counts are seen.
    let mut broken: Vec<Source> = (sources.iter())
        .filter(|s| s.display.ends_with(".ts"))
        .map(|s| Source {
            text: format!("{}\nfoo(\n", s.text),
            ..s.clone()
        })
        .collect();
    sources.append(&mut broken);
    let mut counted = [0, 0];
    for s in &sources {
        let one = std::slice::from_ref(s);
        let mut cache = Cache::default();
        lint_sources_cached(&opts, one, &[], None, &mut cache);
        let Some(n) = cache.syntax_errors(&s.display, &s.path, &s.text) else {
            continue;
        };
        let expected = mirrorless_lint::engine::syntax_errors(&s.path, &s.display, &s.text);
        assert_eq!(n, expected, "{}:\n{}", s.display, s.text);
        counted[n.min(1)] += 1;
    }
    assert!(counted[0] > 20 && counted[1] > 20, "{counted:?}");
}

/// A later round of resolution (a file whose declaration is an alias of another file's) is
/// kept by the cache with the declarations it saw: when the aliased declaration's event
/// changes and the aliasing file's text does not, the cached run follows the new event, as an
/// uncached one does; and back again, to the set the cache saw first.
#[test]
fn a_later_round_kept_by_the_cache_follows_the_declarations_it_saw() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        ("a.ts", "export const A = 'agent/turn-end';\n"),
        ("b.ts", "import { A } from './a';\nexport const X = A;\n"),
        ("c.ts", "import { X } from './b';\nbus.on(X, h);\n"),
    ];
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let opts = Options {
        paths: vec![dir.path().to_path_buf()],
        config: Config::default(),
        ..Options::default()
    };
    let (mut sources, _) = read_sources(&opts);
    for tracked in [false, true] {
        let mut cache = Cache::default();
        if tracked {
            cache.track_changes();
        }
        for event in [
            "agent/turn-end",
            "agent/step-end",
            "agent/turn-end",
            "agent/step-end",
        ] {
            set(&mut sources, &mut cache, "a.ts", |_| {
                format!("export const A = '{event}';\n")
            });
            for run in ["changed", "unchanged"] {
                let what = format!("{event}, {run}, tracked {tracked}");
                assert_cached_equals_uncached(&opts, &sources, &mut cache, &what);
                let report = lint_sources_cached(&opts, &sources, &[], None, &mut cache);
                let subscribed: Vec<_> = (report.findings.iter())
                    .filter(|f| f.path.ends_with("c.ts") && f.rule == "ML001")
                    .collect();
                assert_eq!(subscribed.len(), 1, "{what}: {:?}", report.findings);
                assert!(
                    subscribed[0].message.contains(event),
                    "{what}: {subscribed:?}"
                );
            }
        }
    }
}
