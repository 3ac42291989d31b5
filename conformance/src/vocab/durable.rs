//! Durable session events: the log header, the event envelope, the catalogue of event types
//! with where each may appear, and `TurnEndReason`.
//!
//! A session log on disk is JSON lines: a header line (`{"type":"session", …}`, not an event,
//! no seq), then one event per line. In the 2026-08 profile a line may instead be a packed chunk
//! row ([`PACKED_CHUNK_ROW_TYPES`]) that expands to consecutive `assistant/chunk` events.

use super::chunk::{LlmFailure, StreamChunk};
use super::profile::{Profile, Profiles};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The `type` of the header line.
pub const HEADER_TYPE: &str = "session";

/// The storage-only packed chunk row types of 2026-08 (`text-chunks`, `reasoning-chunks`,
/// `tool-call-chunks`). They are an encoding of `assistant/chunk` runs, never events.
pub const PACKED_CHUNK_ROW_TYPES: [&str; 3] =
    ["text-chunks", "reasoning-chunks", "tool-call-chunks"];

/// The first line of a session log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionHeader {
    /// Always [`HEADER_TYPE`].
    #[serde(rename = "type")]
    pub kind: String,
    /// Format version; `0` today. Some hand-made fixtures omit it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<Value>,
    /// Session id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Other fields (`createdAt`, `cwd`, `parentSession`, `delegationDepth`, …).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The envelope of one durable event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionEvent {
    /// The event type, e.g. `assistant/chunk`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Index of the event in the log. Committed fixtures may omit it; it is then re-synthesized.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// Epoch milliseconds; not monotonic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<Value>,
    /// The payload.
    #[serde(default)]
    pub data: Value,
    /// Surface operation: `"append"` or `{op:"replace", start, end}`; only on surface types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface_op: Option<Value>,
    /// The events this surface event was derived from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_event_seqs: Option<Vec<u64>>,
    /// 2026-08: a reader that does not know this type may skip it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignorable: Option<bool>,
}

/// `assistant/chunk.data`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AssistantChunkData {
    /// The open turn.
    pub turn: u64,
    /// The open step.
    pub step: u64,
    /// The chunk, verbatim.
    pub chunk: StreamChunk,
}

/// Where an event type may appear in a log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// `turn/start`, `turn/end`, `step/start`, `step/end`.
    Boundary,
    /// Must carry the open turn and step and lie inside a step.
    Step,
    /// Must lie inside a turn.
    Turn,
    /// May appear anywhere, including between turns.
    Free,
}

/// One durable event type of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventTypeSpec {
    /// The `type` string.
    pub name: &'static str,
    /// Where it may appear under 2026-07; `None` if the type does not exist there.
    pub scope_2026_07: Option<Scope>,
    /// Where it may appear under 2026-08; `None` if the type does not exist there.
    pub scope_2026_08: Option<Scope>,
    /// The profiles in which it is a surface type (carries `surfaceOp`).
    pub surface: Profiles,
    /// Whether core defines it (as opposed to a plugin merging it in).
    pub core: bool,
}

impl EventTypeSpec {
    /// Where the type may appear under `profile`, or `None` if it does not exist there.
    pub const fn scope(&self, profile: Profile) -> Option<Scope> {
        match profile {
            Profile::V2026_07 => self.scope_2026_07,
            Profile::V2026_08 => self.scope_2026_08,
        }
    }

    /// Whether the type is a surface type under `profile`.
    pub const fn is_surface(&self, profile: Profile) -> bool {
        self.surface.contains(profile)
    }
}

const fn core(
    name: &'static str,
    m: Option<Scope>,
    h: Option<Scope>,
    surface: Profiles,
) -> EventTypeSpec {
    EventTypeSpec {
        name,
        scope_2026_07: m,
        scope_2026_08: h,
        surface,
        core: true,
    }
}

const fn plugin(name: &'static str, m: Option<Scope>, h: Option<Scope>) -> EventTypeSpec {
    EventTypeSpec {
        name,
        scope_2026_07: m,
        scope_2026_08: h,
        surface: NONE,
        core: false,
    }
}

const NONE: Profiles = Profiles {
    v2026_07: false,
    v2026_08: false,
};
const B: Option<Scope> = Some(Scope::Boundary);
const S: Option<Scope> = Some(Scope::Step);
const T: Option<Scope> = Some(Scope::Turn);
const F: Option<Scope> = Some(Scope::Free);

/// Every known durable event type of both profiles.
///
/// Under 2026-07 every non-boundary event must lie inside a turn, so plugin types the catalogue
/// does not name are accepted there as turn-scoped. Under 2026-08 a type not named here is
/// refused unless the event is marked `ignorable`.
pub const EVENT_TYPES: &[EventTypeSpec] = &[
    core("turn/start", B, B, NONE),
    core("turn/end", B, B, NONE),
    core("step/start", B, B, NONE),
    core("step/end", B, B, NONE),
    core("user/message", T, F, Profiles::BOTH),
    core("context/message", T, None, Profiles::ONLY_2026_07),
    core("steering/message", T, None, Profiles::ONLY_2026_07),
    core("prompt/blocked", T, None, NONE),
    core("assistant/chunk", S, S, NONE),
    core("assistant/message", S, S, Profiles::BOTH),
    core("tool/call", S, S, NONE),
    core("tool/result", S, S, Profiles::BOTH),
    core("todo/write", T, T, NONE),
    core("request/header", None, T, NONE),
    core("request/context", None, T, NONE),
    core("session/end-seed", None, F, NONE),
    core("agent/inbox/spliced", None, F, NONE),
    plugin("compact/start", T, None),
    plugin("compact/summary", T, None),
    plugin("compact/end", T, None),
    plugin("hook/invoked", T, F),
    plugin("hook/result", T, F),
    plugin("agent-preset/selected", None, F),
    plugin("approval/asked", None, F),
    plugin("approval/decided", None, F),
    plugin("approval/policy", None, F),
    plugin("command/run", None, F),
    plugin("command/done", None, F),
    plugin("compaction/start", None, F),
    plugin("compaction/summary", None, F),
    plugin("compaction/prune", None, F),
    plugin("compaction/end", None, F),
    plugin("feedback/record", None, F),
    plugin("goal/change", None, F),
    plugin("llm/retry", None, F),
    plugin("llm/retry-started", None, F),
    plugin("permission/preset", None, F),
    plugin("plan/mode", None, F),
    plugin("sandbox/mode", None, F),
    plugin("schedule/change", None, F),
    plugin("session/title", None, F),
    plugin("session/title-llm-request", None, F),
    plugin("subagent/descriptor", None, F),
    plugin("team/member", None, F),
    plugin("team/task", None, F),
    plugin("team/message/queued", None, F),
    plugin("team/message/delivered", None, F),
    plugin("tool/code-dispatch", None, F),
    plugin("tool/code-dispatch-start", None, F),
    plugin("tool-workflow/run-start", None, F),
    plugin("tool-workflow/run-end", None, F),
    plugin("tool-workflow/agent-start", None, F),
    plugin("tool-workflow/agent-end", None, F),
    plugin("web/deepseek-search-llm-request", None, F),
];

/// Looks an event type up in [`EVENT_TYPES`].
pub fn event_type(name: &str) -> Option<&'static EventTypeSpec> {
    EVENT_TYPES.iter().find(|spec| spec.name == name)
}

/// Why a turn ended (`turn/end.data.reason`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum TurnEndReason {
    /// The turn ran to completion.
    Completed,
    /// The turn was cancelled. 2026-07: `reason` is the `cancel(reason)` string; 2026-08: the
    /// cancel cause object (`user`, `parent`, `hook`, `disposed`, `legacy`).
    Aborted {
        /// The cancel reason or cause.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<Value>,
    },
    /// The turn failed. 2026-07: `step`, `message`, `code?`; 2026-08: `error: LlmFailure`.
    Error {
        /// 2026-07: the failing step (0 for a pre-step failure).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<u64>,
        /// 2026-07: the message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        /// 2026-07: the code.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
        /// 2026-08: the failure.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<LlmFailure>,
    },
    /// 2026-07: the agent was disposed during the turn.
    Disposed,
    /// A step hit the output limit (sticky for the turn).
    MaxTokens,
    /// Synthesized by crash repair; never emitted by a running loop.
    Interrupted,
    /// 2026-07: every queued prompt was vetoed.
    Rejected {
        /// Why.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<Value>,
    },
    /// 2026-08: `agent/pre-step` rejected the step.
    Blocked,
}

impl TurnEndReason {
    /// The `kind` tag as written in a log.
    pub fn kind(&self) -> &'static str {
        match self {
            TurnEndReason::Completed => "completed",
            TurnEndReason::Aborted { .. } => "aborted",
            TurnEndReason::Error { .. } => "error",
            TurnEndReason::Disposed => "disposed",
            TurnEndReason::MaxTokens => "max-tokens",
            TurnEndReason::Interrupted => "interrupted",
            TurnEndReason::Rejected { .. } => "rejected",
            TurnEndReason::Blocked => "blocked",
        }
    }

    /// The reason kinds each profile defines.
    pub const fn kinds(profile: Profile) -> &'static [&'static str] {
        match profile {
            Profile::V2026_07 => &[
                "completed",
                "aborted",
                "error",
                "disposed",
                "max-tokens",
                "interrupted",
                "rejected",
            ],
            Profile::V2026_08 => &[
                "completed",
                "aborted",
                "blocked",
                "error",
                "max-tokens",
                "interrupted",
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_names_are_unique() {
        for (i, a) in EVENT_TYPES.iter().enumerate() {
            assert!(
                EVENT_TYPES[i + 1..].iter().all(|b| b.name != a.name),
                "{} twice",
                a.name
            );
        }
    }

    #[test]
    fn turn_end_reasons_parse_both_shapes() {
        let m: TurnEndReason =
            serde_json::from_str(r#"{"kind":"error","step":2,"message":"boom"}"#)
                .expect("2026-07 shape");
        let h: TurnEndReason =
            serde_json::from_str(r#"{"kind":"error","error":{"message":"boom","code":"UNKNOWN"}}"#)
                .expect("2026-08 shape");
        assert_eq!(m.kind(), "error");
        assert_eq!(h.kind(), "error");
        assert!(TurnEndReason::kinds(Profile::V2026_08).contains(&"blocked"));
        assert!(!TurnEndReason::kinds(Profile::V2026_08).contains(&"disposed"));
    }
}
