//! `mirrorless run --format html`: the page for the reference implementation (conformant) and
//! for a broken stdio fixture, pinned with insta, and `--output` refusing a directory.

use mirrorless_conformance::driver::in_process;
use mirrorless_conformance::reference::ReferenceLoop;
use mirrorless_conformance::report::render_html;
use mirrorless_conformance::stdio::{StdioConfig, StdioDriver};
use mirrorless_conformance::suite::{self, CI_SEED, Config};
use mirrorless_conformance::vocab::Profile;
use std::process::Command;
use std::time::Duration;

fn config(profiles: Vec<Profile>) -> Config {
    Config {
        profiles,
        cases: 256,
        seed: CI_SEED,
        // Bounded by steps only, so the minimal case does not depend on the machine's speed.
        shrink_time: Duration::from_secs(600),
        shrink_steps: 256,
        corpus: None,
        save: false,
        ci: true,
        jobs: 1,
        ..Config::default()
    }
}

#[test]
fn the_reference_report_is_pinned() {
    let mut driver = in_process::<ReferenceLoop>("reference (embedded)");
    let report =
        suite::run(&mut driver, &config(Profile::ALL.to_vec()), &mut |_| {}).expect("no fault");
    let html = render_html(&report);
    assert!(html.contains("id=\"verdict\">conformant</span>"));
    assert!(
        !html.contains("<article"),
        "a conformant run has no counterexample"
    );
    insta::assert_snapshot!("html_reference", html);
}

#[test]
fn a_broken_stdio_fixture_report_is_pinned() {
    let mut stdio = StdioConfig::new(vec![
        crate::common::python::program(),
        "fixtures/impls/broken-stdio/CHUNK-1-coalescer.py".into(),
    ]);
    stdio.message_timeout = Duration::from_secs(20);
    let mut driver = StdioDriver::start(stdio).expect("the fixture starts");
    let report =
        suite::run(&mut driver, &config(vec![Profile::V2026_08]), &mut |_| {}).expect("no fault");
    let html = crate::common::python::as_printed(&render_html(&report));
    for want in [
        "id=\"verdict\">NOT CONFORMANT</span>",
        "id=\"case-2026-08-CHUNK-1\"",
        "id=\"case-2026-08-CHUNK-1-first-divergence\" class=\"first\"><td class=\"mark\">◆ first divergence</td>",
        "expected (reference)",
        "observed (implementation)",
        "mirrorless replay CASE.json -- python3 fixtures/impls/broken-stdio/CHUNK-1-coalescer.py",
    ] {
        assert!(html.contains(want), "the page shows {want}");
    }
    insta::assert_snapshot!("html_broken_CHUNK-1-coalescer", html);
}

#[test]
fn output_refuses_a_directory_and_writes_only_the_file() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bin = env!("CARGO_BIN_EXE_mirrorless");
    let out = Command::new(bin)
        .args(["run", "--cases", "4", "--format", "html", "--output"])
        .arg(dir.path())
        .output()
        .expect("mirrorless runs");
    assert_eq!(out.status.code(), Some(2), "a directory is a usage error");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is a directory"), "{stderr}");
    assert!(
        !stderr.contains("mirrorless run: reference"),
        "refused before the run: {stderr}"
    );

    let out = Command::new(bin)
        .args(["run", "--cases", "4", "--format", "html", "--output"])
        .arg(dir.path().join("no-such-dir").join("run.html"))
        .output()
        .expect("mirrorless runs");
    assert_eq!(
        out.status.code(),
        Some(2),
        "a missing directory is a usage error"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("does not exist"), "{stderr}");

    let file = dir.path().join("run.html");
    let out = Command::new(bin)
        .args(["run", "--ci", "--no-corpus", "--format", "html", "--output"])
        .arg(&file)
        .current_dir(dir.path())
        .output()
        .expect("mirrorless runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "nothing on stdout with --output");
    let html = std::fs::read_to_string(&file).expect("the report was written");
    assert!(html.starts_with("<!DOCTYPE html>"));
    let written: Vec<_> = std::fs::read_dir(dir.path())
        .expect("listing")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(
        written,
        [std::ffi::OsString::from("run.html")],
        "only that file"
    );
}

/// The markup `fixtures/reports/hostile-case.json` carries in its prompt and a chunk.
const HOSTILE: &str = "</script><img src=x onerror=alert(1)><!--";

#[test]
fn a_corpus_case_with_hostile_payloads_is_text_with_its_timelines() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).expect("the corpus directory");
    // The file name lands in the replay command: hostile too.
    std::fs::copy(
        "fixtures/reports/hostile-case.json",
        corpus.join("\"><img src=x onerror=alert(2)>.json"),
    )
    .expect("the case file");
    let page = dir.path().join("hostile.html");
    let out = crate::common::mirrorless_command()
        .args([
            "run",
            "--ci",
            "--profile",
            "2026-08",
            "--cases",
            "0",
            "--no-save",
        ])
        .arg("--corpus")
        .arg(&corpus)
        .args(["--format", "html", "--output"])
        .arg(&page)
        .args([
            "--",
            "python3",
            "fixtures/impls/broken-stdio/CHUNK-1-coalescer.py",
        ])
        .output()
        .expect("mirrorless runs");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).expect("the report");
    assert!(!html.contains("<img") && !html.contains("<!--") && !html.contains("<script"));
    assert!(html.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&lt;!--"));
    assert!(
        html.contains("onerror=alert(2)&gt;.json"),
        "the file name, escaped"
    );
    // A failure replayed from the corpus has its timelines too.
    assert!(html.contains("replayed from the corpus"));
    assert!(html.contains("id=\"case-2026-08-CHUNK-1-first-divergence\" class=\"first\""));
    assert!(
        html.contains(&format!(
            "text-delta[0] {}",
            mirrorless_conformance::report::html_escape(
                &serde_json::to_string(&format!("a{HOSTILE}")).expect("json")
            )
        )),
        "the coalesced chunk, escaped"
    );
}
