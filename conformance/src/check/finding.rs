//! What the checker reports: one [`Finding`] per violated requirement, with its [`Severity`].

use crate::registry::{REQUIREMENTS, Tier};
use crate::vocab::Profile;
use serde::Serialize;
use std::fmt;

/// How many findings one log keeps; later ones are only counted (see
/// [`CheckOutcome::suppressed`](super::CheckOutcome::suppressed)), so a badly broken log cannot
/// exhaust memory.
pub(super) const MAX_KEPT_FINDINGS: usize = 10_000;

/// The longest message a finding keeps: a message quoting its input (a type name, a parser
/// error) is cut here, so findings stay small whatever the input holds.
const MAX_MESSAGE_BYTES: usize = 1024;

/// The longest `expected` or `observed` text a finding keeps.
const MAX_DIVERGENCE_BYTES: usize = 4096;

/// How serious a finding is, from the requirement's tier under the checked profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A MUST requirement is violated: the log does not conform.
    Error,
    /// A SHOULD requirement is violated: reported, but the log still conforms.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// One violation of one requirement, located in the input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The registry ID of the violated requirement, e.g. `CHUNK-2`.
    pub requirement: &'static str,
    /// Error for a MUST requirement, warning for a SHOULD requirement.
    pub severity: Severity,
    /// 1-based line in the input file, when the input is a file.
    pub line: Option<u64>,
    /// The seq of the offending event, if any.
    pub seq: Option<u64>,
    /// What is wrong, in one sentence.
    pub message: String,
    /// What the protocol expects at the first divergence, when meaningful.
    pub expected: Option<String>,
    /// What the input has there.
    pub observed: Option<String>,
}

impl Finding {
    /// A finding of `requirement` under `profile`. The severity comes from the requirement's
    /// tier; the ID must be in the registry (an unknown ID is a bug in the checker and is
    /// reported as an error with the ID kept verbatim).
    pub fn new(
        profile: Profile,
        requirement: &'static str,
        line: Option<u64>,
        seq: Option<u64>,
        message: impl Into<String>,
    ) -> Finding {
        Finding {
            requirement,
            severity: severity_of(profile, requirement),
            line,
            seq,
            message: truncate_owned(message.into(), MAX_MESSAGE_BYTES),
            expected: None,
            observed: None,
        }
    }

    /// Adds the expected-vs-observed pair.
    pub fn diverging(mut self, expected: impl Into<String>, observed: impl Into<String>) -> Self {
        self.expected = Some(truncate_owned(expected.into(), MAX_DIVERGENCE_BYTES));
        self.observed = Some(truncate_owned(observed.into(), MAX_DIVERGENCE_BYTES));
        self
    }
}

/// The severity of `requirement` under `profile`: MUST → error, SHOULD → warning. A
/// requirement that does not apply to the profile, or an unknown ID, counts as an error.
pub fn severity_of(profile: Profile, requirement: &str) -> Severity {
    match REQUIREMENTS
        .iter()
        .find(|r| r.id == requirement)
        .and_then(|r| r.tier(profile))
    {
        Some(Tier::Should) => Severity::Warning,
        _ => Severity::Error,
    }
}

/// `s` cut to at most `max` bytes (at a character boundary), an ellipsis marking the cut.
/// Bounds every text a finding echoes from its input.
fn truncate_owned(mut s: String, max: usize) -> String {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
    s.push('…');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoed_text_is_bounded() {
        let huge = "é".repeat(100_000);
        let f = Finding::new(Profile::V2026_08, "LOG-2", Some(1), None, huge.clone())
            .diverging(huge.clone(), huge);
        assert!(f.message.len() <= MAX_MESSAGE_BYTES + '…'.len_utf8());
        assert!(f.message.ends_with('…'));
        assert!(
            f.observed
                .is_some_and(|o| o.len() <= MAX_DIVERGENCE_BYTES + 3)
        );
    }

    #[test]
    fn severity_follows_the_tier() {
        assert_eq!(severity_of(Profile::V2026_07, "MSG-3"), Severity::Warning);
        assert_eq!(severity_of(Profile::V2026_08, "MSG-3"), Severity::Error);
        assert_eq!(severity_of(Profile::V2026_08, "SEQ-2"), Severity::Warning);
        assert_eq!(severity_of(Profile::V2026_08, "CHUNK-2"), Severity::Error);
    }
}
