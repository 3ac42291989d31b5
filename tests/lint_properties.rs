//! Properties of the lint front ends over damaged sources, on the stable toolchain (the
//! `fuzz/` targets explore them further on nightly). Each input is a lint fixture (Rust,
//! TypeScript, Markdown) damaged by structure-aware mutations: drop, duplicate or swap lines,
//! flip bits, truncate, insert bytes. Whatever the input, `lint` must not panic, its output
//! must stay bounded, and every finding and error must name the file (and a line of it).
//!
//! Case counts are bounded so that the file runs in a few seconds; `PROPTEST_CASES` raises
//! them. Deep nesting is left to `lint`'s own regression tests (its depth limits).

use mirrorless_lint::config::Config;
use mirrorless_lint::{Options, lint};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The top-level fixture files of one front end: (file name, content).
fn fixtures(lang: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/lint")
        .join(lang);
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .expect("fixture directory")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().expect("name").to_string_lossy().into_owned();
            (name, std::fs::read(&p).expect("fixture"))
        })
        .collect();
    out.sort();
    assert!(out.len() >= 3, "fixtures of {lang}");
    out
}

fn all_fixtures() -> &'static [(String, Vec<u8>)] {
    static ALL: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = fixtures("rust");
        all.extend(fixtures("ts"));
        all.extend(fixtures("md"));
        all
    })
}

#[derive(Debug, Clone)]
enum Mutation {
    DropLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    FlipBit(usize, u8),
    Truncate(usize),
    Insert(usize, Vec<u8>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let bytes = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..12),
        Just(b"\"agent/stream-chunk\"".to_vec()),
        Just(b"/* ".to_vec()),
        Just(b"`".to_vec()),
        Just(b"```ts\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"\xEF\xBB\xBF".to_vec()),
    ];
    prop_oneof![
        any::<usize>().prop_map(Mutation::DropLine),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (any::<usize>(), 0u8..8).prop_map(|(a, b)| Mutation::FlipBit(a, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), bytes).prop_map(|(a, b)| Mutation::Insert(a, b)),
    ]
}

fn apply(input: &mut Vec<u8>, m: &Mutation) {
    let mut lines: Vec<Vec<u8>> = input.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    let n = lines.len().max(1);
    match m {
        Mutation::DropLine(i) => {
            lines.remove(i % n);
        }
        Mutation::DuplicateLine(i) => {
            let line = lines[i % n].clone();
            lines.insert(i % n, line);
        }
        Mutation::SwapLines(a, b) => lines.swap(a % n, b % n),
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
    }
    *input = lines.join(&b'\n');
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
    #![proptest_config(config(128))]

    #[test]
    fn damaged_sources_are_linted_or_reported_naming_file_and_line(
        pick in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..5),
    ) {
        let (name, content) = pick.get(all_fixtures());
        let mut input = content.clone();
        for m in &mutations {
            apply(&mut input, m);
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let path: PathBuf = dir.path().join(name);
        std::fs::write(&path, &input).expect("write");
        let report = lint(&Options {
            paths: vec![path.clone()],
            jobs: Some(1),
            follow: false,
            config: Config { root: dir.path().to_path_buf(), ..Config::default() },
        });
        let shown = path.to_string_lossy().replace('\\', "/");
        let lines = input.split(|&b| b == b'\n').count();
        // Bounded: never more findings than bytes (each finding needs at least one).
        prop_assert!(report.findings.len() <= input.len() + 1);
        for f in &report.findings {
            prop_assert_eq!(&f.path, &shown);
            prop_assert!(f.line >= 1 && f.line <= lines, "line {} of {lines}: {:?}", f.line, f);
            prop_assert!(f.column >= 1);
        }
        for e in &report.errors {
            prop_assert_eq!(&e.path, &shown);
            if let Some(l) = e.line {
                prop_assert!(l >= 1 && l <= lines);
            }
        }
    }
}
