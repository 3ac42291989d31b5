//! Properties of the readers over hostile input, on the stable toolchain (the `fuzz/` targets
//! explore the same entry points further on nightly). Every input is arbitrary bytes or a
//! fixture damaged by structure-aware mutations (drop, duplicate or swap lines, flip bits,
//! truncate, insert bytes, nest values deeply). Whatever the input, the log checker, the
//! live-trace checker and the case-file loader must not panic, must keep their output bounded
//! (kept findings, message sizes), and every finding or error must name its file and line.
//!
//! Case counts are bounded so that the file runs in a few seconds; `PROPTEST_CASES` raises
//! them for a longer local run.

use mirrorless_conformance::Profile;
use mirrorless_conformance::check::{
    CheckOutcome, DEFAULT_MAX_LINE_BYTES, Finding, LogChecker, check_live_reader,
};
use mirrorless_conformance::suite::read_case_file;
use proptest::prelude::*;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The most findings one input keeps (documented in docs/check/README.md).
const MAX_KEPT_FINDINGS: usize = 10_000;
/// Finding texts are clipped to these sizes (plus the ellipsis).
const MAX_MESSAGE: usize = 1024 + 3;
const MAX_DIVERGENCE: usize = 4096 + 3;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/check")
}

/// Every `*.jsonl` fixture under `dir`, read once.
fn fixtures_under(dir: &Path) -> Vec<Vec<u8>> {
    let mut paths: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .map(walkdir::DirEntry::into_path)
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read(p).expect("fixture"))
        .collect()
}

fn log_fixtures() -> &'static [Vec<u8>] {
    static LOGS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let mut logs = fixtures_under(&fixtures_dir().join("2026-07"));
        logs.extend(fixtures_under(&fixtures_dir().join("2026-08")));
        assert!(logs.len() > 40, "the log fixtures");
        logs
    })
}

fn live_fixtures() -> &'static [Vec<u8>] {
    static LIVE: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    LIVE.get_or_init(|| {
        let live = fixtures_under(&fixtures_dir().join("live"));
        assert!(live.len() > 5, "the live fixtures");
        live
    })
}

/// One structure-aware damage to a line-oriented input.
#[derive(Debug, Clone)]
enum Mutation {
    DropLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    FlipBit(usize, u8),
    Truncate(usize),
    Insert(usize, Vec<u8>),
    /// Wraps the first JSON value after byte `at` of a line in `depth` arrays or objects.
    Nest(usize, u16, bool),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let bytes = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..16),
        Just(b"\n".to_vec()),
        Just(b"\xEF\xBB\xBF".to_vec()),
        Just(b"\"type\":\"x\",".to_vec()),
        Just(b"18446744073709551616".to_vec()),
        Just(b"\x1b[2J\r".to_vec()),
    ];
    prop_oneof![
        any::<usize>().prop_map(Mutation::DropLine),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (any::<usize>(), 0u8..8).prop_map(|(a, b)| Mutation::FlipBit(a, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), bytes).prop_map(|(a, b)| Mutation::Insert(a, b)),
        (any::<usize>(), 1u16..2000, any::<bool>()).prop_map(|(a, d, o)| Mutation::Nest(a, d, o)),
    ]
}

fn split_lines(input: &[u8]) -> Vec<Vec<u8>> {
    input.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

fn apply(input: &mut Vec<u8>, m: &Mutation) {
    let mut lines = split_lines(input);
    let n = lines.len().max(1);
    match m {
        Mutation::DropLine(i) => {
            if !lines.is_empty() {
                lines.remove(i % n);
            }
        }
        Mutation::DuplicateLine(i) => {
            if let Some(line) = lines.get(i % n).cloned() {
                lines.insert(i % n, line);
            }
        }
        Mutation::SwapLines(a, b) => {
            if !lines.is_empty() {
                lines.swap(a % n, b % n);
            }
        }
        Mutation::FlipBit(at, bit) => {
            if !input.is_empty() {
                let at = at % input.len();
                input[at] ^= 1 << bit;
            }
            return;
        }
        Mutation::Truncate(at) => {
            input.truncate(at % (input.len() + 1));
            return;
        }
        Mutation::Insert(at, bytes) => {
            let at = at % (input.len() + 1);
            input.splice(at..at, bytes.iter().copied());
            return;
        }
        Mutation::Nest(at, depth, objects) => {
            let line = &mut lines[at % n];
            if let Some(colon) = line.iter().rposition(|&b| b == b':') {
                let depth = usize::from(*depth);
                let (open, close): (&[u8], &[u8]) = if *objects {
                    (b"{\"k\":", b"}")
                } else {
                    (b"[", b"]")
                };
                let value_end = line.len().saturating_sub(1).max(colon + 1);
                let mut nested = line[..=colon].to_vec();
                nested.extend(open.repeat(depth));
                nested.extend_from_slice(&line[colon + 1..value_end]);
                nested.extend(close.repeat(depth));
                nested.extend_from_slice(&line[value_end..]);
                *line = nested;
            }
        }
    }
    *input = lines.join(&b'\n');
}

/// What holds for every checked input, whatever it was.
fn assert_bounded_and_located(
    outcome_findings: &[Finding],
    lines: u64,
) -> Result<(), TestCaseError> {
    prop_assert!(outcome_findings.len() <= MAX_KEPT_FINDINGS);
    for f in outcome_findings {
        let line = f.line;
        prop_assert!(
            line.is_some_and(|l| l >= 1 && l <= lines.max(1)),
            "a finding must name a line of the input ({lines} lines): {f:?}"
        );
        prop_assert!(
            f.message.len() <= MAX_MESSAGE,
            "message too long: {}",
            f.message.len()
        );
        for text in [&f.expected, &f.observed].into_iter().flatten() {
            prop_assert!(text.len() <= MAX_DIVERGENCE);
        }
    }
    Ok(())
}

fn check_log(input: &[u8]) -> CheckOutcome {
    let profile = if input.windows(18).any(|w| w == b"steering/message\",") {
        Profile::V2026_07
    } else {
        Profile::V2026_08
    };
    LogChecker::check_reader(profile, input).expect("reading memory cannot fail")
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(cases),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn arbitrary_bytes_never_break_the_log_checker(input in prop::collection::vec(any::<u8>(), 0..2048)) {
        let outcome = check_log(&input);
        assert_bounded_and_located(&outcome.findings, outcome.lines)?;
        // Anything that does not even start like a header line gets a finding.
        let starts_like_json = input.trim_ascii_start().starts_with(b"{");
        prop_assert!(!outcome.findings.is_empty() || starts_like_json, "{:?}", input);
    }

    #[test]
    fn arbitrary_bytes_never_break_the_live_checker(input in prop::collection::vec(any::<u8>(), 0..2048)) {
        let outcome = check_live_reader(Profile::V2026_08, &input[..]).expect("memory");
        assert_bounded_and_located(&outcome.findings, outcome.lines)?;
    }
}

proptest! {
    #![proptest_config(config(192))]

    #[test]
    fn damaged_logs_are_reported_line_by_line(
        pick in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..5),
    ) {
        let mut input = pick.get(log_fixtures()).clone();
        for m in &mutations {
            apply(&mut input, m);
        }
        let outcome = check_log(&input);
        assert_bounded_and_located(&outcome.findings, outcome.lines)?;
    }

    #[test]
    fn damaged_live_traces_are_reported_line_by_line(
        pick in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..5),
    ) {
        let mut input = pick.get(live_fixtures()).clone();
        for m in &mutations {
            apply(&mut input, m);
        }
        let outcome = check_live_reader(Profile::V2026_08, &input[..]).expect("memory");
        assert_bounded_and_located(&outcome.findings, outcome.lines)?;
    }
}

proptest! {
    #![proptest_config(config(96))]

    /// A case file written by the suite, then damaged: loading it either succeeds or fails
    /// with an error that starts with the file's name (and, for bad JSON, its line).
    #[test]
    fn damaged_case_files_are_refused_naming_the_file(
        case in mirrorless_conformance::scenario::generate::cases(Profile::V2026_08),
        mutations in prop::collection::vec(mutation(), 0..4),
    ) {
        let mut input = serde_json::to_vec_pretty(&case).expect("a case serializes");
        for m in &mutations {
            apply(&mut input, m);
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("case.json");
        std::fs::write(&path, &input).expect("write");
        if let Err(e) = read_case_file(&path) {
            let name = path.display().to_string();
            prop_assert!(e.starts_with(&name), "{e}");
            prop_assert!(e.len() < 4096, "a bounded error: {} bytes", e.len());
            if e.contains("not a case file") {
                prop_assert!(
                    e[name.len()..].starts_with(':') && e[name.len() + 1..].starts_with(|c: char| c.is_ascii_digit()),
                    "a JSON error names the line: {e}"
                );
            }
        }
    }
}

/// A log whose only event is one line nested `depth` deep (generated, never committed).
fn nested_log(depth: usize, open: &str, close: &str) -> Vec<u8> {
    let mut log = br#"{"type":"session","version":0,"id":"s"}"#.to_vec();
    log.extend_from_slice(b"\n{\"type\":\"assistant/chunk\",\"seq\":0,\"time\":1,\"data\":");
    log.extend(open.repeat(depth).bytes());
    log.extend(close.repeat(depth).bytes());
    log.extend_from_slice(b"}\n");
    log
}

#[test]
fn deeply_nested_lines_are_findings_not_crashes() {
    for (open, close) in [
        ("[", "]"),
        ("{\"a\":", "}"),
        ("{\"turn\":1,\"chunk\":", "}"),
    ] {
        let log = nested_log(200_000, open, close);
        let outcome = check_log(&log);
        assert!(
            outcome.findings.iter().any(|f| f.line == Some(2)),
            "{open}: {:?}",
            outcome.findings
        );
        assert_bounded_and_located(&outcome.findings, outcome.lines).expect("bounded");
    }
    let mut trace = b"{\"event\":\"agent/status\",\"data\":".to_vec();
    trace.extend("[".repeat(200_000).bytes());
    trace.extend_from_slice(b"\n");
    let outcome = check_live_reader(Profile::V2026_08, &trace[..]).expect("memory");
    assert_eq!(outcome.findings.len(), 1);
    assert_eq!(outcome.findings[0].line, Some(1));
}

/// A reader producing a header, then `len` bytes of `fill` with no newline, then a valid
/// line: never held in memory by the test itself.
fn huge_line(len: u64, fill: u8) -> impl std::io::BufRead {
    let header = &b"{\"type\":\"session\",\"version\":0,\"id\":\"s\"}\n"[..];
    let tail = &b"\n{\"type\":\"turn/start\",\"seq\":0,\"time\":1,\"data\":{\"turn\":1}}\n{\"type\":\"turn/end\",\"seq\":1,\"time\":2,\"data\":{\"turn\":1,\"reason\":{\"kind\":\"completed\"}}}\n"[..];
    std::io::BufReader::with_capacity(
        1 << 16,
        header.chain(std::io::repeat(fill).take(len)).chain(tail),
    )
}

#[test]
fn a_line_over_the_limit_is_skipped_and_the_log_goes_on() {
    let len = DEFAULT_MAX_LINE_BYTES as u64 + 10;
    let outcome = LogChecker::check_reader(Profile::V2026_08, huge_line(len, 0)).expect("memory");
    let lines: Vec<(&str, Option<u64>)> = outcome
        .findings
        .iter()
        .map(|f| (f.requirement, f.line))
        .collect();
    assert_eq!(lines, [("LOG-2", Some(2))], "{:?}", outcome.findings);
    assert!(
        outcome.findings[0]
            .message
            .contains(&format!("line is {len} bytes long"))
    );
    assert_eq!(outcome.lines, 4);
}
