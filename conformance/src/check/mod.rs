//! The durable-log checker: a streaming monitor over session logs and live-event traces.
//!
//! A session log is JSON lines: a header line (`{"type":"session", …}`), then one event per
//! line (2026-08 packed chunk rows are expanded to their `assistant/chunk` events). The checker
//! reads it once, line by line, and keeps only the state of what is open: the open turn, the
//! open step, the chunks of the open model call and the open step's tool calls. Memory is
//! therefore bounded by the open state, not by the length of the log.
//!
//! Every [`Finding`] names one requirement of the [registry](crate::registry) and takes its
//! [`Severity`] from the requirement's tier under the checked profile (MUST → error,
//! SHOULD → warning).
//!
//! Entry points:
//! * [`check_events`] — owned events, e.g. produced by an implementation under test;
//! * [`LogChecker`] — the streaming checker `mirrorless check` feeds lines to
//!   ([`LogChecker::check_reader`] reads a whole file with bounded memory);
//! * [`check_live`] / [`check_live_reader`] — live-event traces of [`LiveEmit`] records;
//! * [`detect_profile`] — a best-effort guess of a log's profile from its first bytes.
//!
//! "One durable chunk per token" (`CHUNK-1`) cannot be checked exactly on a log alone, since
//! the model's output is unknown. It is verified through provenance (`MSG-1`: a message cites
//! exactly its call's chunks), assembly (`MSG-2`, `MSG-3`: deltas agree with block ends and
//! with the message), and the structure of each block (a repeated `block-start`/`block-end`
//! or a delta after its block's end is a duplicated or reordered chunk). Dropping the only
//! delta of a block that also has a `block-end` leaves a legal block-end-only block, so that
//! damage is undetectable here; `mirrorless run` checks it exactly against a known script.

mod assemble;
mod detect;
mod excerpt;
mod lines;
mod live;
mod monitor;
mod reader;

pub use detect::{Detection, detect_profile};
pub use excerpt::{ContextCollector, EXCERPT_WIDTH, escape_control, excerpt};
pub use lines::DEFAULT_MAX_LINE_BYTES;
pub use live::{LiveChecker, LiveOutcome, check_live_reader, check_live_reader_with};
pub use reader::{CheckOutcome, LogChecker, ReadOptions};

use crate::registry::{REQUIREMENTS, Tier};
use crate::vocab::Profile;
use crate::vocab::durable::SessionEvent;
use crate::vocab::live::LiveEmit;
use excerpt::truncate_owned;
use serde::Serialize;
use std::fmt;

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

/// Checks owned events (e.g. produced by an implementation under test) as one log without a
/// header line; `seq` is re-synthesized as the event's index where absent. Findings carry no
/// line numbers. `CHUNK-1` is not inferred from provenance or assembly here (see
/// [`LogChecker::infer_chunk_fidelity`]): the caller knows the stream and checks it exactly.
pub fn check_events(profile: Profile, events: &[SessionEvent]) -> Vec<Finding> {
    let mut checker = LogChecker::without_header(profile).infer_chunk_fidelity(false);
    for event in events {
        match serde_json::to_vec(event) {
            Ok(bytes) => checker.feed_event_bytes(&bytes),
            // A `SessionEvent` always serializes; keep the invariant visible if it ever does not.
            Err(e) => checker.push_external(Finding::new(
                profile,
                "LOG-2",
                None,
                event.seq,
                format!("event cannot be serialized: {e}"),
            )),
        }
    }
    checker.finish().findings
}

/// Checks a live-event trace (a sequence of [`LiveEmit`] records) under `profile`: no removed
/// mirror (`MIRROR-1` … `MIRROR-6`), legal `agent/status` sequences (`LIVE-1`), and live
/// `agent/*` names from the profile's vocabulary (`LIVE-2`).
pub fn check_live(profile: Profile, trace: &[LiveEmit]) -> Vec<Finding> {
    let mut checker = LiveChecker::new(profile);
    for emit in trace {
        checker.push(None, emit);
    }
    checker.finish()
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
