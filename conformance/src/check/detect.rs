//! Best-effort profile detection from the first bytes of a log.

use crate::vocab::Profile;
use memchr::memmem;

/// The outcome of [`detect_profile`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Detection {
    /// The guessed profile.
    pub profile: Profile,
    /// The marker that decided it, or `None` when nothing did and the default was taken.
    pub marker: Option<&'static str>,
}

/// Markers only a 2026-08 log contains.
const MARKERS_2026_08: &[&str] = &[
    "\"type\":\"text-chunks\"",
    "\"type\":\"reasoning-chunks\"",
    "\"type\":\"tool-call-chunks\"",
    "\"agent/inbox/spliced\"",
    "\"session/end-seed\"",
    "\"request/header\"",
    "\"request/context\"",
    "\"delegationDepth\"",
    "\"llm/retry",
    "\"compaction/",
    "\"interrupted\":true",
    "\"role\":\"assistant\"",
    "\"kind\":\"blocked\"",
    "\"ignorable\":true",
];

/// Markers only a 2026-07 log contains.
const MARKERS_2026_07: &[&str] = &[
    "\"steering/message\"",
    "\"context/message\"",
    "\"prompt/blocked\"",
    "\"compact/start\"",
    "\"compact/summary\"",
    "\"kind\":\"disposed\"",
    "\"kind\":\"rejected\"",
];

/// Guesses the profile of a log from its first bytes (the caller passes a prefix, e.g. the
/// first MiB). A 2026-08 marker wins over a 2026-07 one (2026-08 logs recorded by earlier
/// builds keep some 2026-07 shapes); with no marker at all the current profile is assumed.
/// `--profile` always overrides this guess.
pub fn detect_profile(prefix: &[u8]) -> Detection {
    for marker in MARKERS_2026_08 {
        if memmem::find(prefix, marker.as_bytes()).is_some() {
            return Detection {
                profile: Profile::V2026_08,
                marker: Some(marker),
            };
        }
    }
    for marker in MARKERS_2026_07 {
        if memmem::find(prefix, marker.as_bytes()).is_some() {
            return Detection {
                profile: Profile::V2026_07,
                marker: Some(marker),
            };
        }
    }
    Detection {
        profile: Profile::DEFAULT,
        marker: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_decide() {
        assert_eq!(
            detect_profile(br#"{"type":"steering/message"}"#).profile,
            Profile::V2026_07
        );
        let both = br#"{"type":"steering/message"}{"type":"request/header"}"#;
        assert_eq!(detect_profile(both).profile, Profile::V2026_08);
        assert_eq!(detect_profile(b"{}").marker, None);
    }
}
