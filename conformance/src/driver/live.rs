//! The typed live-event API of an in-process implementation.
//!
//! An implementation emits typed live events through
//! [`emit_event`](super::HostExt::emit_event) with any type that implements [`Emit`] (or
//! [`Host::emit`](super::Host::emit) with a [`LiveEvent`]). The six removed mirrors cannot be
//! expressed: `LiveEvent` has no variant for them, and the stand-in types in [`removed`] do not
//! implement [`Emit`]. Passing one fails to compile with a message that names the durable event
//! to append instead:
//!
//! ```compile_fail
//! use mirrorless_conformance::driver::{Host, HostExt, live::removed};
//! fn on_chunk(host: &mut dyn Host) {
//!     host.emit_event(removed::StreamChunk { turn: 1, step: 1 });
//!     // error[E0277]: `agent/stream-chunk` was removed (MIRROR-1): append the durable
//!     // `assistant/chunk` instead
//! }
//! ```
//!
//! A loop whose event bus names its events by string reports them with
//! [`Host::emit_named`](super::Host::emit_named) instead. Nothing is refused at compile time
//! there: the suite judges every name it is given, exactly as over stdio, so a removed mirror
//! emitted by string fails its MIRROR requirement.

use crate::vocab::live::LiveEmit;
use serde_json::{Value, json};

/// A live `agent/*` event an implementation may emit. Every variant is a current event of the
/// profile vocabulary ([`crate::vocab::live::LIVE_EVENTS`]); none is a removed mirror.
#[derive(Debug, Clone, PartialEq)]
pub enum LiveEvent {
    /// `agent/created`: the agent exists.
    Created,
    /// `agent/disposed`: the agent is gone.
    Disposed,
    /// `agent/status`: the agent's run status changed.
    Status(AgentStatus),
    /// `agent/error`: a turn failed.
    Error {
        /// The turn that failed.
        turn: u64,
        /// The step that failed (0 before the first step).
        step: u64,
        /// What failed.
        message: String,
    },
    /// `agent/session-start`: once, before the first turn.
    SessionStart {
        /// `startup`, `resume`, `clear` or `compact`.
        source: String,
    },
}

/// The values of `agent/status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentStatus {
    /// Waiting for input.
    Idle,
    /// Running a turn.
    Running,
    /// 2026-07 only: disposed (terminal).
    Disposed,
}

impl AgentStatus {
    /// The status as written in the event.
    pub const fn as_str(self) -> &'static str {
        match self {
            AgentStatus::Idle => "idle",
            AgentStatus::Running => "running",
            AgentStatus::Disposed => "disposed",
        }
    }
}

impl LiveEvent {
    /// The live event name.
    pub const fn name(&self) -> &'static str {
        match self {
            LiveEvent::Created => "agent/created",
            LiveEvent::Disposed => "agent/disposed",
            LiveEvent::Status(_) => "agent/status",
            LiveEvent::Error { .. } => "agent/error",
            LiveEvent::SessionStart { .. } => "agent/session-start",
        }
    }

    /// The normalized trace record of the event, emitted by `agent` when the durable log held
    /// `at` events.
    pub fn to_emit(&self, agent: &str, at: u64) -> LiveEmit {
        LiveEmit {
            event: self.name().to_owned(),
            agent: Some(agent.to_owned()),
            data: self.data(),
            at: Some(at),
        }
    }

    /// The payload of the event: its named fields without the agent (`null` for none).
    pub fn data(&self) -> Value {
        match self {
            LiveEvent::Created | LiveEvent::Disposed => Value::Null,
            LiveEvent::Status(s) => json!({ "status": s.as_str() }),
            LiveEvent::Error {
                turn,
                step,
                message,
            } => json!({ "turn": turn, "step": step, "error": { "message": message } }),
            LiveEvent::SessionStart { source } => json!({ "source": source }),
        }
    }
}

/// A value that can be emitted as a live event. Implemented by [`LiveEvent`] and
/// [`AgentStatus`]; deliberately not implementable for the removed mirrors in [`removed`].
pub trait Emit {
    /// The live event.
    fn into_live_event(self) -> LiveEvent;
}

impl Emit for LiveEvent {
    fn into_live_event(self) -> LiveEvent {
        self
    }
}

impl Emit for AgentStatus {
    fn into_live_event(self) -> LiveEvent {
        LiveEvent::Status(self)
    }
}

/// Stand-ins for the six removed mirror events. They exist so that code ported from the old
/// API fails to compile with a message naming the durable event that replaced each one,
/// instead of an unhelpful "no variant" error.
pub mod removed {
    use super::Emit;

    macro_rules! removed_mirror {
        ($ty:ident, $guard:ident, $name:literal, $message:literal, $note:literal, $fields:tt) => {
            #[doc = concat!("The removed `", $name, "` mirror. It cannot be emitted: ", $message, ".")]
            #[derive(Debug, Clone, Default, PartialEq)]
            pub struct $ty $fields

            #[doc = concat!("Unimplementable: proves at compile time that `", $name, "` cannot be emitted.")]
            #[diagnostic::on_unimplemented(
                message = $message,
                label = "a removed mirror event cannot be emitted",
                note = $note
            )]
            pub trait $guard {}

            impl Emit for $ty
            where
                for<'a> &'a $ty: $guard,
            {
                fn into_live_event(self) -> super::LiveEvent {
                    unreachable!(concat!($name, " is not emittable"))
                }
            }
        };
    }

    removed_mirror!(StreamChunk, StreamChunkWasRemoved, "agent/stream-chunk",
        "`agent/stream-chunk` was removed (MIRROR-1): append the durable `assistant/chunk` instead",
        "consumers subscribe to `session/event` and filter `assistant/chunk`; run `mirrorless explain MIRROR-1`", {
        /// The turn.
        pub turn: u64,
        /// The step.
        pub step: u64,
    });
    removed_mirror!(Steering, SteeringWasRemoved, "agent/steering",
        "`agent/steering` was removed (MIRROR-2): append the durable `steering/message` (2026-08: `user/message`) instead",
        "consumers subscribe to `session/event` and filter `steering/message` (2026-08: `user/message`); run `mirrorless explain MIRROR-2`", {
        /// The turn.
        pub turn: u64,
    });
    removed_mirror!(TurnStart, TurnStartWasRemoved, "agent/turn-start",
        "`agent/turn-start` was removed (MIRROR-3): append the durable `turn/start` instead",
        "consumers subscribe to `session/event` and filter `turn/start`; run `mirrorless explain MIRROR-3`", {
        /// The turn.
        pub turn: u64,
    });
    removed_mirror!(TurnEnd, TurnEndWasRemoved, "agent/turn-end",
        "`agent/turn-end` was removed (MIRROR-4): append the durable `turn/end` instead",
        "consumers subscribe to `session/event` and filter `turn/end`; run `mirrorless explain MIRROR-4`", {
        /// The turn.
        pub turn: u64,
    });
    removed_mirror!(StepStart, StepStartWasRemoved, "agent/step-start",
        "`agent/step-start` was removed (MIRROR-5): append the durable `step/start` instead",
        "consumers subscribe to `session/event` and filter `step/start`; run `mirrorless explain MIRROR-5`", {
        /// The turn.
        pub turn: u64,
        /// The step.
        pub step: u64,
    });
    removed_mirror!(StepEnd, StepEndWasRemoved, "agent/step-end",
        "`agent/step-end` was removed (MIRROR-6): append the durable `step/end` instead",
        "consumers subscribe to `session/event` and filter `step/end`; run `mirrorless explain MIRROR-6`", {
        /// The turn.
        pub turn: u64,
        /// The step.
        pub step: u64,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Profile;
    use crate::vocab::live::{LiveStatus, classify};

    #[test]
    fn every_typed_event_is_current_in_both_profiles() {
        let all = [
            LiveEvent::Created,
            LiveEvent::Disposed,
            LiveEvent::Status(AgentStatus::Idle),
            LiveEvent::Error {
                turn: 1,
                step: 1,
                message: "m".into(),
            },
            LiveEvent::SessionStart {
                source: "startup".into(),
            },
        ];
        for e in all {
            for p in Profile::ALL {
                assert_eq!(
                    classify(e.name(), p),
                    Some(LiveStatus::Current),
                    "{}",
                    e.name()
                );
            }
        }
    }
}
