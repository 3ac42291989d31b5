//! A property over every lint fixture (`fixtures/lint/{rust,ts,md,fix}/`), with and without
//! `--unsafe-fixes`, on a copy in a temporary directory:
//! - after `--fix` no finding is left whose fix would be applied (the fixpoint is reached);
//! - no fixed file has more syntax errors than before (the output still parses);
//! - a second `--fix` changes nothing;
//! - the fixes never write outside the copy.

use mirrorless_lint::config::Config;
use mirrorless_lint::engine::syntax_errors;
use mirrorless_lint::fix::{self, FixOptions};
use mirrorless_lint::{Options, Report};
use std::path::{Path, PathBuf};

fn no_filter(_: &mut Report) {}

fn copy_case(case: &Path, into: &Path) -> PathBuf {
    let target = into.join(case.file_name().unwrap());
    if case.is_file() {
        std::fs::copy(case, &target).unwrap();
        return target;
    }
    for entry in walkdir::WalkDir::new(case)
        .into_iter()
        .filter_map(Result::ok)
    {
        let rel = entry.path().strip_prefix(case).unwrap();
        let dest = target.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
    target
}

fn options(case: &Path, root: &Path) -> Options {
    let config_file = case.join("mirrorless.toml");
    let config = if case.is_dir() && config_file.is_file() {
        Config::load(&config_file).unwrap()
    } else {
        Config {
            root: root.to_path_buf(),
            ..Config::default()
        }
    };
    Options {
        paths: vec![case.to_path_buf()],
        jobs: Some(2),
        follow: false,
        config,
    }
}

fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().to_path_buf(), std::fs::read(e.path()).unwrap()))
        .collect();
    out.sort();
    out
}

#[test]
fn fixing_any_fixture_reaches_a_fixpoint_that_still_parses() {
    let mut cases = Vec::new();
    for lang in ["rust", "ts", "md", "fix"] {
        let dir = PathBuf::from("../fixtures/lint").join(lang);
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        found.sort();
        cases.extend(found);
    }
    assert!(cases.len() > 30, "{cases:?}");
    let mut fixed_somewhere = 0;
    for unsafe_fixes in [false, true] {
        let options_fix = FixOptions { unsafe_fixes };
        for case in &cases {
            let outer = tempfile::tempdir().unwrap();
            // Files beside the copy that must never change.
            std::fs::write(
                outer.path().join("outside.ts"),
                "ctx.on('agent/turn-end', () => {});\n",
            )
            .unwrap();
            let work = outer.path().join("work");
            std::fs::create_dir(&work).unwrap();
            let copy = copy_case(case, &work);
            let opts = options(&copy, &work);
            let first = fix::run(&opts, options_fix, &no_filter);
            let roots = fix::write::allowed_roots(&opts.paths);
            for f in &first.files {
                assert!(
                    syntax_errors(&f.path, &f.display, &f.fixed)
                        <= syntax_errors(&f.path, &f.display, &f.original),
                    "{}: the fixed file has new syntax errors:\n{}",
                    f.display,
                    f.fixed
                );
                fix::write::write(f, &roots).unwrap();
                fixed_somewhere += 1;
            }
            for finding in &first.report.findings {
                if let Some(x) = &finding.fix {
                    assert!(
                        !options_fix.applies(x.applicability)
                            || first.dropped.iter().any(|d| d.path == finding.path),
                        "{}:{}: an applicable fix is left after the fixpoint: {}",
                        finding.path,
                        finding.line,
                        x.message
                    );
                }
            }
            let after_first = snapshot(outer.path());
            let second = fix::run(&opts, options_fix, &no_filter);
            assert!(
                second.files.is_empty(),
                "{}: a second --fix changed {:?}",
                case.display(),
                second.files.iter().map(|f| &f.display).collect::<Vec<_>>()
            );
            assert_eq!(after_first, snapshot(outer.path()));
            assert_eq!(
                std::fs::read_to_string(outer.path().join("outside.ts")).unwrap(),
                "ctx.on('agent/turn-end', () => {});\n"
            );
        }
    }
    assert!(
        fixed_somewhere > 20,
        "only {fixed_somewhere} files were fixed"
    );
}

#[test]
fn a_file_changed_on_disk_during_the_run_is_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plugin.ts");
    std::fs::write(
        &file,
        "ctx.on('agent/turn-start', (agent, turn: number) => show(turn));\n",
    )
    .unwrap();
    let opts = options(dir.path(), dir.path());
    let outcome = fix::run(&opts, FixOptions::default(), &no_filter);
    assert_eq!(outcome.files.len(), 1);
    // Someone edits the file between the read and the write.
    std::fs::write(&file, "// edited meanwhile\n").unwrap();
    let roots = fix::write::allowed_roots(&opts.paths);
    let err = fix::write::write(&outcome.files[0], &roots).unwrap_err();
    assert!(err.message.contains("changed on disk"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "// edited meanwhile\n"
    );
    // Unchanged, it is written.
    std::fs::write(&file, &outcome.files[0].original).unwrap();
    fix::write::write(&outcome.files[0], &roots).unwrap();
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        outcome.files[0].fixed
    );
}
