//! What the monitor keeps open: the open turn, its open step, that step's tool calls and
//! message, and findings collected while that state is borrowed.

use crate::check::assemble::Call;
use crate::check::event::Loc;
use serde_json::Value;

/// Findings collected while the open step is borrowed: (requirement, message, expected/observed).
pub(super) type Pending = Vec<(&'static str, String, Option<(String, String)>)>;

/// A `tool/call` of the open step.
pub(super) struct ToolCallRec {
    pub(super) call_id: String,
    pub(super) seq: u64,
    pub(super) answered: bool,
    /// Position among the message's tool-call blocks.
    pub(super) block_pos: Option<usize>,
}

/// What the step's `assistant/message` said that later events are checked against.
pub(super) struct MessageInfo {
    pub(super) tool_blocks: Vec<Value>,
    pub(super) max_tokens: bool,
}

/// The open step.
pub(super) struct Step {
    pub(super) number: u64,
    pub(super) turn: u64,
    pub(super) call: Option<Call>,
    pub(super) message: Option<MessageInfo>,
    pub(super) interrupted_message: bool,
    pub(super) tool_calls: Vec<ToolCallRec>,
    /// Call ids answered by a crash-repair result without a `tool/call` (`TOOL_NOT_STARTED`).
    pub(super) answered_unstarted: Vec<String>,
    /// An event that came between two chunks of the open model call (reported if the call
    /// continues): where, and its type.
    pub(super) interleaved: Option<(Loc, String)>,
    pub(super) last_result_pos: Option<usize>,
    /// 2026-07 `steering/message`s recorded before some of the message's tool calls had their
    /// results: where, and those calls' ids. Judged when the step closes: STEER-1 if any of
    /// them ran after all (the steering landed inside the body), nothing here if none ever ran
    /// (a call that never runs is TOOL-4's, not the steering's).
    pub(super) steered_early: Vec<(Loc, Vec<String>)>,
}

/// The open turn.
pub(super) struct Turn {
    pub(super) number: u64,
    pub(super) loc: Loc,
    /// Opened implicitly by a `step/start` outside any turn (already reported).
    pub(super) phantom: bool,
    pub(super) last_step: u64,
    pub(super) steps: u64,
    pub(super) injection: bool,
    pub(super) max_tokens: bool,
    pub(super) last_call_failed: bool,
    /// A model call whose run did not end in `finish` (allowed only on some turn ends).
    pub(super) unfinished_call: Option<Loc>,
    /// A successful call with no `assistant/message` (allowed only under crash repair).
    pub(super) missing_message: Option<Loc>,
    /// Tool calls of the last closed step left without a result.
    pub(super) unanswered_in_last_step: usize,
    /// The message ids of the turn's surface messages, with the seq that first used each
    /// (SURF-3); kept per turn so memory stays bounded by the open turn.
    pub(super) message_ids: Vec<(String, u64)>,
    pub(super) step: Option<Step>,
}
