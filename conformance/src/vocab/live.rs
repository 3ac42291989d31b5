//! The live (non-durable) `agent/*` events of each profile.
//!
//! Live events are lifecycle and control signals with no durable twin (`agent/status`,
//! `agent/error`, …) or interception seams (`agent/request`, …). The six removed mirrors are
//! listed here too, as [`LiveStatus::Removed`], so that a trace can be classified in one lookup.

use super::mirrors::{RemovedMirror, removed_mirror};
use super::profile::{Profile, Profiles};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How a live event is dispatched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Fire and forget to every listener.
    Emit,
    /// Listeners run one after another, each awaited.
    Serial,
    /// Listeners run concurrently.
    Parallel,
    /// Each listener may rewrite the value and call `next`.
    Waterfall,
}

/// Whether a live event may be emitted today.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LiveStatus {
    /// Part of the profile's vocabulary.
    Current,
    /// A removed mirror: emitting it violates its `MIRROR-n` requirement.
    Removed(&'static RemovedMirror),
}

/// One live event of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LiveEventSpec {
    /// The event name.
    pub name: &'static str,
    /// How it is dispatched.
    pub mode: Mode,
    /// The profiles in which it is current.
    pub profiles: Profiles,
    /// The profiles in which it is current but optional: it arrived part-way through the
    /// profile's era, so a loop from the start of that era never dispatches it. A check that
    /// expects the event must not expect it there.
    pub optional: Profiles,
}

const fn ev(name: &'static str, mode: Mode, profiles: Profiles) -> LiveEventSpec {
    LiveEventSpec {
        name,
        mode,
        profiles,
        optional: NOT_OPTIONAL,
    }
}

/// No profile: the event is always dispatched where it is current.
const NOT_OPTIONAL: Profiles = Profiles {
    v2026_07: false,
    v2026_08: false,
};

impl LiveEventSpec {
    /// Whether a loop of `profile` may leave the event out (see [`LiveEventSpec::optional`]).
    pub const fn is_optional(&self, profile: Profile) -> bool {
        self.optional.contains(profile)
    }
}

/// The current live events of both profiles (removed mirrors are in
/// [`super::mirrors::REMOVED_MIRRORS`], not here).
pub const LIVE_EVENTS: &[LiveEventSpec] = &[
    ev("agent/created", Mode::Emit, Profiles::BOTH),
    ev("agent/disposed", Mode::Emit, Profiles::BOTH),
    ev("agent/status", Mode::Emit, Profiles::BOTH),
    ev("agent/error", Mode::Emit, Profiles::BOTH),
    ev("agent/request", Mode::Waterfall, Profiles::BOTH),
    // Added between M0 and the P3 parent (`dc95a7881d`, 2026-06-30): a 2026-07 loop from the
    // start of the era has no `agent/session-start`, so it is optional there.
    LiveEventSpec {
        optional: Profiles::ONLY_2026_07,
        ..ev("agent/session-start", Mode::Emit, Profiles::BOTH)
    },
    ev("agent/pre-step", Mode::Serial, Profiles::ONLY_2026_07),
    ev("agent/pre-step", Mode::Waterfall, Profiles::ONLY_2026_08),
    ev("agent/queued", Mode::Emit, Profiles::ONLY_2026_07),
    ev("agent/step-result", Mode::Waterfall, Profiles::ONLY_2026_07),
    ev(
        "agent/turn-continuation",
        Mode::Waterfall,
        Profiles::ONLY_2026_07,
    ),
    ev(
        "agent/prompt-submit",
        Mode::Waterfall,
        Profiles::ONLY_2026_07,
    ),
    ev("agent/inbox/inserted", Mode::Emit, Profiles::ONLY_2026_08),
    ev("agent/inbox/claimed", Mode::Emit, Profiles::ONLY_2026_08),
    ev("agent/inbox/discarded", Mode::Emit, Profiles::ONLY_2026_08),
    ev(
        "agent/request-error",
        Mode::Waterfall,
        Profiles::ONLY_2026_08,
    ),
    ev("agent/turn-stopping", Mode::Serial, Profiles::ONLY_2026_08),
    ev("session/created", Mode::Emit, Profiles::BOTH),
    ev("session/disposed", Mode::Emit, Profiles::ONLY_2026_08),
    ev("session/event", Mode::Emit, Profiles::BOTH),
    ev("session/flush", Mode::Parallel, Profiles::BOTH),
    ev("tools/pre-execute", Mode::Waterfall, Profiles::BOTH),
    ev("tools/post-execute", Mode::Waterfall, Profiles::BOTH),
    ev("tools/change", Mode::Emit, Profiles::BOTH),
    // Dispatched by the tools service under 2026-07 too (the real loop at the migration
    // commits), not only at HEAD.
    ev("tools/execute", Mode::Waterfall, Profiles::BOTH),
    ev(
        "tools/code-dispatch-log",
        Mode::Emit,
        Profiles::ONLY_2026_08,
    ),
    ev("tools/result", Mode::Emit, Profiles::ONLY_2026_08),
    ev("llm/stream", Mode::Waterfall, Profiles::BOTH),
    ev("llm/adapters-updated", Mode::Emit, Profiles::ONLY_2026_08),
    ev(
        "agent-loop/config-start-failed",
        Mode::Emit,
        Profiles::ONLY_2026_08,
    ),
    // Dispatched by `@deepseek-ai/dsh-system-prompt` (seen in every recording of the real
    // 0.1.0-rc.8 loop under `fixtures/check/2026-08/upstream/`), and by the system-prompt
    // assembly of era M before each step (upstream `loop.ts` at 3f85f522ea counts the step up before
    // that seam), so under 2026-07 too.
    ev("system-prompt/change", Mode::Emit, Profiles::BOTH),
    ev("system-prompt/assemble", Mode::Waterfall, Profiles::BOTH),
];

/// One live emit, as recorded in a live-event trace (one JSON object per line) and as streamed
/// back by an implementation under test.
///
/// Both profiles are normalized to one shape: the agent handle becomes its id in `agent`, and
/// the remaining arguments are named fields of `data` (2026-07 positional arguments are named
/// after the event's signature, e.g. `agent/status(agent, status)` → `{"status": "idle"}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LiveEmit {
    /// The live event name, e.g. `agent/status`.
    pub event: String,
    /// The id of the agent the event is about, if it is agent-scoped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The named payload fields, without the agent.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub data: Value,
    /// The length of the durable log when the event was emitted (how many durable events had
    /// been appended), if the recorder knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<u64>,
}

/// The status values `agent/status` may carry under `profile`.
pub const fn agent_statuses(profile: Profile) -> &'static [&'static str] {
    match profile {
        Profile::V2026_07 => &["idle", "running", "disposed"],
        Profile::V2026_08 => &["idle", "running"],
    }
}

/// The values of `agent/session-start`'s `source` (why the session started: a fresh agent,
/// a resumed session, or one restarted by `/clear` or a compaction).
pub const SESSION_START_SOURCES: &[&str] = &["startup", "resume", "clear", "compact"];

/// Whether `profile`'s loops must emit `agent/session-start`: it is current there and not
/// [optional](LiveEventSpec::optional).
pub fn session_start_required(profile: Profile) -> bool {
    LIVE_EVENTS.iter().any(|e| {
        e.name == "agent/session-start" && e.profiles.contains(profile) && !e.is_optional(profile)
    })
}

/// Classifies a live event name under `profile`: a removed mirror, a current event, or unknown
/// (`None`).
pub fn classify(name: &str, profile: Profile) -> Option<LiveStatus> {
    if let Some(mirror) = removed_mirror(name) {
        return Some(LiveStatus::Removed(mirror));
    }
    LIVE_EVENTS
        .iter()
        .any(|e| e.name == name && e.profiles.contains(profile))
        .then_some(LiveStatus::Current)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removed_mirrors_are_never_current() {
        for m in super::super::mirrors::REMOVED_MIRRORS {
            assert!(LIVE_EVENTS.iter().all(|e| e.name != m.name));
            for p in Profile::ALL {
                assert!(
                    matches!(classify(m.name, p), Some(LiveStatus::Removed(r)) if r.name == m.name)
                );
            }
        }
        assert_eq!(
            classify("agent/turn-stopping", Profile::V2026_08),
            Some(LiveStatus::Current)
        );
        assert_eq!(classify("agent/turn-stopping", Profile::V2026_07), None);
    }

    #[test]
    fn catalogue_facts_of_both_eras() {
        for name in [
            "tools/execute",
            "system-prompt/change",
            "system-prompt/assemble",
        ] {
            for p in Profile::ALL {
                assert_eq!(
                    classify(name, p),
                    Some(LiveStatus::Current),
                    "{name} under {p}"
                );
            }
        }
        let spec = |name: &str| {
            LIVE_EVENTS
                .iter()
                .find(|e| e.name == name)
                .copied()
                .unwrap_or_else(|| panic!("{name} is in the catalogue"))
        };
        let start = spec("agent/session-start");
        assert!(start.is_optional(Profile::V2026_07));
        assert!(!start.is_optional(Profile::V2026_08));
        assert!(!spec("agent/created").is_optional(Profile::V2026_07));
        // Optional only where current.
        for e in LIVE_EVENTS {
            for p in Profile::ALL {
                assert!(!e.is_optional(p) || e.profiles.contains(p), "{}", e.name);
            }
        }
    }
}
