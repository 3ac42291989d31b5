//! `mirrorless check --live` on the lifecycle fixtures (LIVE-4 … LIVE-8) and the renamed
//! mirrors (LIVE-9): each invalid trace names its one requirement — exit 1 for a MUST, a
//! warning and exit 0 for a SHOULD — and the report a user reads is pinned with insta.

use crate::common;

use common::mirrorless;
use mirrorless_conformance::Profile;
use mirrorless_conformance::registry::{Tier, requirement};

/// A conforming log of `profile`, checked alongside each trace (`check` needs a log).
fn valid_log(profile: &str) -> &'static str {
    if profile == "2026-07" {
        "fixtures/check/2026-07/valid/steering.jsonl"
    } else {
        "fixtures/check/2026-08/valid/text-turn-no-seq.jsonl"
    }
}

/// Checks `fixtures/check/live/PROFILE/invalid/NAME.jsonl` (with a conforming log) and pins
/// the human report.
fn check(profile: &str, name: &str) {
    let path = format!("fixtures/check/live/{profile}/invalid/{name}.jsonl");
    let o = mirrorless(&[
        "check",
        "--profile",
        profile,
        "--live",
        &path,
        valid_log(profile),
    ]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let id: String = name.split('-').take(2).collect::<Vec<_>>().join("-");
    let p = Profile::ALL
        .into_iter()
        .find(|p| p.name() == profile)
        .expect("a profile");
    let tier = requirement(&id).and_then(|r| r.tier(p));
    let (code, word) = match tier {
        Some(Tier::Should) => (0, "warning"),
        _ => (1, "error"),
    };
    assert_eq!(o.status.code(), Some(code), "{out}");
    assert!(out.contains(&format!("{word}[{id}]")), "{out}");
    // Exactly that requirement: no other rule is named in the report.
    let others = out
        .match_indices("error[")
        .chain(out.match_indices("warning["))
        .filter(|(i, _)| !out[*i..].starts_with(&format!("{word}[{id}]")))
        .count();
    assert_eq!(others, 0, "{out}");
    let version = env!("CARGO_PKG_VERSION");
    insta::assert_snapshot!(
        format!("live_{profile}_{name}"),
        out.replace(&format!("mirrorless {version}"), "mirrorless [version]")
    );
}

macro_rules! live {
    ($test:ident, $profile:literal, $name:literal) => {
        #[test]
        fn $test() {
            check($profile, $name);
        }
    };
}

live!(live_4_h, "2026-08", "LIVE-4-no-agent-created");
live!(live_4_m, "2026-07", "LIVE-4-no-agent-created");
live!(live_5_h, "2026-08", "LIVE-5-no-session-start");
live!(live_5_m, "2026-07", "LIVE-5-session-start-after-first-turn");
live!(live_6_h, "2026-08", "LIVE-6-idle-before-first-turn");
live!(live_6_m, "2026-07", "LIVE-6-idle-before-first-turn");
live!(live_6_h_turn_end, "2026-08", "LIVE-6-idle-before-turn-end");
live!(live_7_h, "2026-08", "LIVE-7-status-after-disposed");
live!(live_7_m, "2026-07", "LIVE-7-disposed-never-emitted");
live!(live_8_h, "2026-08", "LIVE-8-error-reported-twice");
live!(live_8_m, "2026-07", "LIVE-8-error-reported-twice");
live!(live_9_h, "2026-08", "LIVE-9-chunk-mirror-renamed");
live!(live_9_m, "2026-07", "LIVE-9-steering-mirror-renamed");

#[test]
fn the_upstream_recordings_keep_conforming() {
    let o = mirrorless(&["check", "fixtures/check/2026-08/upstream"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains(" 0 errors, 0 warnings — "), "{out}");
}
