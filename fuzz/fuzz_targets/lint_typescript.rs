//! The typescript front end of `mirrorless lint` (through the engine, as the CLI runs it) on
//! arbitrary source: no panic, every finding and error names the file and a line of it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mirrorless_lint::config::Config;
use mirrorless_lint::{Options, lint};

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("input.ts");
    std::fs::write(&path, data).expect("write");
    let report = lint(&Options {
        paths: vec![path.clone()],
        jobs: Some(1),
        follow: false,
        config: Config {
            root: dir.path().to_path_buf(),
            ..Config::default()
        },
    });
    let shown = path.to_string_lossy().replace('\\', "/");
    let lines = data.split(|&b| b == b'\n').count();
    for f in &report.findings {
        assert_eq!(f.path, shown);
        assert!(f.line >= 1 && f.line <= lines, "{f:?}");
    }
    for e in &report.errors {
        assert_eq!(e.path, shown);
    }
});
