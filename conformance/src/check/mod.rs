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
//!   [`check_live_with_log`] — a trace with the durable log it was recorded with;
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
mod content;
mod detect;
mod event;
mod excerpt;
#[cfg(test)]
mod fast_equiv;
mod fastline;
mod finding;
mod lines;
mod live;
mod monitor;
mod pipeline;
mod reader;
#[cfg(test)]
mod surface_equiv;
mod values;

pub(crate) use assemble::arguments_equal;
pub use detect::{Detection, detect_profile};
pub(crate) use excerpt::needs_escape;
pub use excerpt::{
    ContextCollector, EXCERPT_WIDTH, NAME_WIDTH, clip_name, escape_control, excerpt, shown,
};
pub use finding::{Finding, Severity, severity_of};
pub use lines::DEFAULT_MAX_LINE_BYTES;
pub use live::{
    LiveChecker, LiveOutcome, check_live_reader, check_live_reader_with, check_live_with_log,
};
pub use reader::{CheckOutcome, LogChecker, ReadOptions};

use crate::vocab::Profile;
use crate::vocab::durable::SessionEvent;
use crate::vocab::live::LiveEmit;

/// Checks owned events (e.g. produced by an implementation under test) as one log without a
/// header line; `seq` is re-synthesized as the event's index where absent. Findings carry no
/// line numbers. `CHUNK-1` is not inferred from provenance or assembly here (see
/// [`LogChecker::infer_chunk_fidelity`]): the caller knows the stream and checks it exactly.
pub fn check_events(profile: Profile, events: &[SessionEvent]) -> Vec<Finding> {
    check_owned(profile, events, false)
}

/// [`check_events`], with each finding's `line` set to the 1-based position in `events` of
/// the event it was found at (as if the events were the lines of a log without a header), so
/// that a report can point at the event itself even where its `seq` is wrong (`SEQ-1`), or
/// state leaking from an earlier case made it large.
pub fn check_events_numbered(profile: Profile, events: &[SessionEvent]) -> Vec<Finding> {
    check_owned(profile, events, true)
}

fn check_owned(profile: Profile, events: &[SessionEvent], numbered: bool) -> Vec<Finding> {
    let mut checker = LogChecker::without_header(profile).infer_chunk_fidelity(false);
    for (i, event) in events.iter().enumerate() {
        match serde_json::to_vec(event) {
            Ok(bytes) if numbered => checker.feed_event_bytes_at(i as u64 + 1, &bytes),
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

/// Checks a live-event trace (a sequence of [`LiveEmit`] records) under `profile`, alone: no
/// removed mirror (`MIRROR-1` … `MIRROR-6`), legal `agent/status` sequences (`LIVE-1`), live
/// `agent/*` names from the profile's vocabulary (`LIVE-2`), and the lifecycle rules a trace
/// shows without its log (`LIVE-3` … `LIVE-8`), and `LIVE-9` where the trace's `session/event`
/// records carry the durable event's `data`. [`check_live_with_log`] adds the rules that need
/// the durable log.
pub fn check_live(profile: Profile, trace: &[LiveEmit]) -> Vec<Finding> {
    let mut checker = LiveChecker::new(profile);
    for emit in trace {
        checker.push(None, emit);
    }
    checker.finish()
}
