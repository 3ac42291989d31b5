//! The live-trace reader on arbitrary bytes: no panic, bounded findings, each on a line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mirrorless_conformance::Profile;
use mirrorless_conformance::check::{ReadOptions, check_live_reader_with};

fuzz_target!(|data: &[u8]| {
    let options = ReadOptions {
        max_line_bytes: 1 << 16,
        context_findings: 50,
        ..ReadOptions::default()
    };
    for profile in Profile::ALL {
        let outcome = check_live_reader_with(profile, data, &options).expect("memory");
        assert!(outcome.findings.len() <= 10_000);
        for f in &outcome.findings {
            assert!(f.line.is_some_and(|l| l >= 1 && l <= outcome.lines.max(1)), "{f:?}");
        }
    }
});
