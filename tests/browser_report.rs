//! The HTML report as a person sees it: rendered by headless Chromium (Debian's package,
//! installed by `tests/browser/setup.sh`) for a broken stdio fixture and for the conformant
//! reference. The test asserts on the DOM the browser built (the failing requirement, both
//! timelines, the first-divergence marker, the replay command) and keeps a screenshot of each
//! page under `target/tmp/browser-report/` (the paths are printed).
//!
//! Without Chromium the test prints SKIPPED and returns; with `MIRRORLESS_REQUIRE_CHROMIUM=1`
//! (set by `.ci/run` once the setup installed it) a missing Chromium fails it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long one Chromium or `mirrorless run` may take before the test gives up on it.
const TIMEOUT: Duration = Duration::from_secs(180);

/// The Chromium to use: `MIRRORLESS_CHROMIUM`, else `chromium` or `chromium-browser` on PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("MIRRORLESS_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

/// Prints a line on standard error past the test harness's capture (a write to the handle,
/// not `eprintln!`), so that a skip or an artifact's path shows in a plain `cargo test`.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Chromium, or `None` after saying SKIPPED (a failure under `MIRRORLESS_REQUIRE_CHROMIUM=1`).
fn chromium_or_skip(test: &str) -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var("MIRRORLESS_REQUIRE_CHROMIUM").as_deref() != Ok("1"),
            "MIRRORLESS_REQUIRE_CHROMIUM=1 but no chromium on PATH (run tests/browser/setup.sh)"
        );
        say(&format!(
            "SKIPPED {test}: no chromium on PATH (tests/browser/setup.sh installs it) — the HTML report was NOT rendered in a browser"
        ));
    }
    found
}

/// Runs `cmd` to its end within [`TIMEOUT`], its output captured.
fn run(mut cmd: Command, what: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    // Read both pipes on threads, so that a full pipe never blocks the child.
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut v).map(|_| v)
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut v).map(|_| v)
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("waiting for the child") {
            break s;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: no end after {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: out.join().expect("reader").expect("stdout"),
        stderr: err.join().expect("reader").expect("stderr"),
    }
}

fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-report");
    std::fs::create_dir_all(&dir).expect("the artifact directory");
    dir
}

/// Writes the HTML report of `mirrorless run ARGS` to `DIR/NAME.html`; returns its path.
fn report(name: &str, args: &[&str], want_exit: i32) -> PathBuf {
    let html = out_dir().join(format!("{name}.html"));
    let mut cmd = crate::common::mirrorless_command();
    cmd.args(["run", "--ci", "--format", "html", "--output"])
        .arg(&html)
        .args(args);
    let out = run(cmd, "mirrorless run");
    assert_eq!(
        out.status.code(),
        Some(want_exit),
        "mirrorless run {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    html
}

/// Chromium's flags for one headless job with its own throwaway profile directory.
fn headless(chromium: &Path, name: &str) -> Command {
    let mut cmd = Command::new(chromium);
    cmd.args([
        "--headless",
        // Running as root (CI containers) needs it; the page is our own file.
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--hide-scrollbars",
    ])
    .arg(format!(
        "--user-data-dir={}",
        out_dir().join(format!("chromium-{name}")).display()
    ));
    cmd
}

/// Removes the throwaway profile directory of [`headless`]: only the pages and screenshots
/// are artifacts.
fn forget_profile(name: &str) {
    let _ = std::fs::remove_dir_all(out_dir().join(format!("chromium-{name}")));
}

fn url(path: &Path) -> String {
    format!(
        "file://{}",
        path.canonicalize().expect("the report exists").display()
    )
}

/// The DOM Chromium built from the page (after parsing: markup the page did not mean would show).
fn dump_dom(chromium: &Path, page: &Path, name: &str) -> String {
    let mut cmd = headless(chromium, name);
    cmd.arg("--dump-dom").arg(url(page));
    let out = run(cmd, "chromium --dump-dom");
    forget_profile(name);
    assert!(
        out.status.success(),
        "chromium --dump-dom failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("the DOM is UTF-8")
}

/// A screenshot of the page, kept as a test artifact; returns its path.
fn screenshot(chromium: &Path, page: &Path, name: &str) -> PathBuf {
    let png = out_dir().join(format!("{name}.png"));
    let _ = std::fs::remove_file(&png);
    let mut cmd = headless(chromium, name);
    cmd.arg("--window-size=1400,3000")
        .arg(format!("--screenshot={}", png.display()))
        .arg(url(page));
    let out = run(cmd, "chromium --screenshot");
    forget_profile(name);
    assert!(
        out.status.success(),
        "chromium --screenshot failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&png).expect("chromium wrote the screenshot");
    assert!(
        bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 10_000,
        "{} is a PNG of a drawn page ({} bytes)",
        png.display(),
        bytes.len()
    );
    say(&format!("screenshot: {}", png.display()));
    png
}

fn assert_shows(dom: &str, page: &str, wants: &[&str]) {
    for want in wants {
        assert!(
            dom.contains(want),
            "{page}: the browser's DOM shows {want:?}"
        );
    }
}

#[test]
fn a_broken_fixture_report_renders_with_both_timelines_and_the_divergence() {
    let Some(chromium) =
        chromium_or_skip("a_broken_fixture_report_renders_with_both_timelines_and_the_divergence")
    else {
        return;
    };
    let cases = [
        (
            "broken-CHUNK-1-coalescer",
            "CHUNK-1",
            "fixtures/impls/broken-stdio/CHUNK-1-coalescer.py",
        ),
        (
            "broken-MIRROR-1-stream-chunk-emitter",
            "MIRROR-1",
            "fixtures/impls/broken-stdio/MIRROR-1-stream-chunk-emitter.py",
        ),
    ];
    for (name, id, fixture) in cases {
        let page = report(
            name,
            &[
                "--no-corpus",
                "--profile",
                "2026-08",
                "--",
                "python3",
                fixture,
            ],
            1,
        );
        let dom = dump_dom(&chromium, &page, name);
        let article = format!("<article class=\"failure\" id=\"case-2026-08-{id}\">");
        let marker = format!(
            "<tr id=\"case-2026-08-{id}-first-divergence\" class=\"first\"><td class=\"mark\">◆ first divergence</td>"
        );
        let replay = format!("mirrorless replay CASE.json -- python3 {fixture}");
        assert_shows(
            &dom,
            name,
            &[
                "id=\"verdict\">NOT CONFORMANT</span>",
                &article,
                &format!("<a href=\"#case-2026-08-{id}\">{id}</a>"),
                "expected (reference)",
                "observed (implementation)",
                &marker,
                &replay,
                "Coverage labels this script reaches:",
            ],
        );
        // The marker row is a row of the timeline table, after the article's headline.
        let at = dom.find(&article).expect("the article");
        let tail = &dom[at..];
        let table = tail
            .find("<table class=\"timeline\">")
            .expect("a timeline table");
        let row = tail.find(&marker).expect("the marker");
        let end = tail.find("</table>").expect("the table ends");
        assert!(
            table < row && row < end,
            "{name}: the marker is inside the timeline"
        );
        assert!(!dom.contains("<script"), "{name}: the page has no script");
        screenshot(&chromium, &page, name);
    }
}

#[test]
fn the_reference_report_renders_conformant() {
    let Some(chromium) = chromium_or_skip("the_reference_report_renders_conformant") else {
        return;
    };
    let page = report("reference", &["--no-corpus"], 0);
    let dom = dump_dom(&chromium, &page, "reference");
    assert_shows(
        &dom,
        "reference",
        &[
            "id=\"verdict\">conformant</span>",
            "<h2>Profile 2026-07: <span class=\"badge s-pass\">conformant</span></h2>",
            "<h2>Profile 2026-08: <span class=\"badge s-pass\">conformant</span></h2>",
            "Coverage labels the run reached:",
            "<span class=\"badge s-pass\">pass</span>",
        ],
    );
    assert!(
        !dom.contains("<article"),
        "no counterexample on a conformant run"
    );
    screenshot(&chromium, &page, "reference");
}

#[test]
fn hostile_payloads_stay_text_in_the_browser() {
    let Some(chromium) = chromium_or_skip("hostile_payloads_stay_text_in_the_browser") else {
        return;
    };
    let corpus = out_dir().join("hostile-corpus");
    let _ = std::fs::remove_dir_all(&corpus);
    std::fs::create_dir_all(&corpus).expect("the corpus directory");
    std::fs::copy(
        "fixtures/reports/hostile-case.json",
        corpus.join("\"><img src=x onerror=alert(2)>.json"),
    )
    .expect("the case file");
    let corpus_arg = corpus.display().to_string();
    let page = report(
        "hostile",
        &[
            "--profile",
            "2026-08",
            "--cases",
            "0",
            "--no-save",
            "--corpus",
            &corpus_arg,
            "--",
            "python3",
            "fixtures/impls/broken-stdio/CHUNK-1-coalescer.py",
        ],
        1,
    );
    let dom = dump_dom(&chromium, &page, "hostile");
    assert!(!dom.contains("<img"), "no img element in the DOM");
    assert!(!dom.contains("<script"), "no script element in the DOM");
    assert_shows(
        &dom,
        "hostile",
        &[
            "replayed from the corpus",
            "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&lt;!--",
            "onerror=alert(2)&gt;.json",
            "◆ first divergence",
        ],
    );
    screenshot(&chromium, &page, "hostile");
}
