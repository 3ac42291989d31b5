//! The log reader and checker on arbitrary bytes, under both profiles, with the human report's
//! context ring on: no panic, bounded findings, every finding on a line of the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mirrorless_conformance::Profile;
use mirrorless_conformance::check::{LogChecker, ReadOptions};

fuzz_target!(|data: &[u8]| {
    let options = ReadOptions {
        max_line_bytes: 1 << 16,
        context_findings: 50,
        ..ReadOptions::default()
    };
    for profile in Profile::ALL {
        let outcome = LogChecker::check_reader_with(profile, data, &options).expect("memory");
        assert!(outcome.findings.len() <= 10_000);
        for f in &outcome.findings {
            assert!(f.line.is_some_and(|l| l >= 1 && l <= outcome.lines.max(1)), "{f:?}");
            assert!(f.message.len() <= 1027);
        }
        assert!(outcome.context.values().all(|l| l.chars().count() <= 110));
    }
});
