//! The case-file loader (the corpus and `mirrorless replay`) on arbitrary bytes: it loads or
//! refuses, and a refusal names the file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mirrorless_conformance::suite::read_case_file;

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("case.json");
    std::fs::write(&path, data).expect("write");
    if let Err(e) = read_case_file(&path) {
        assert!(e.starts_with(&path.display().to_string()), "{e}");
    }
});
