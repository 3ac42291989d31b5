//! The scenario model: what the harness plays for one generated case.
//!
//! A [`Case`] is a [`Profile`] plus a [`Script`]. The script is the sequence of user actions
//! the harness performs, and for each prompt the model calls it serves, in order. The harness
//! plays the model (it streams each call's chunks), the tools (it answers each tool call from
//! the script) and the user (prompts, steering at an exact chunk index, cancel or dispose at an
//! exact chunk index, idle injection, dispose when idle).
//!
//! Scripts are plain data: they serialize to language-neutral JSON, which is the format of the
//! counterexample corpus (`mirrorless replay CASE`) and of the stdio protocol. The JSON shape
//! is stable: fields are only ever added, with defaults.
//!
//! The semantics of a script (which call serves which step, how a turn ends) is computed by
//! [`Script::plan`]; the generators in [`generate`] only produce scripts that
//! [`Script::validate`] accepts.

pub mod coverage;
pub mod generate;
pub mod validate;

use crate::vocab::Profile;
use crate::vocab::chunk::{BlockType, ContentBlock, FinishReason, LlmFailure, StreamChunk};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

/// One test case: a profile and the script the harness plays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// The protocol profile the implementation is checked against.
    pub profile: Profile,
    /// What the harness plays.
    pub script: Script,
}

impl Case {
    /// The content-hash id of the case: the first 16 hex digits of the SHA-256 of its
    /// canonical JSON (`{"profile":…,"script":…}`). Equal cases have equal ids in every
    /// language, so a corpus can be shared between implementations.
    pub fn id(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        let digest = Sha256::digest(json.as_bytes());
        digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
    }
}

/// The user actions of a case, in order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Script {
    /// The actions, performed one after another; each waits until the agent is idle.
    pub actions: Vec<Action>,
}

/// One thing the user does while the agent is idle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum Action {
    /// `send(text)`: starts a turn. The model calls of the turn are served in order.
    Prompt {
        /// The prompt text (unique within the case).
        text: String,
        /// The model calls the turn makes, in the order the implementation requests them.
        calls: Vec<ModelCall>,
    },
    /// 2026-07 only: `inject(text)` while idle, a one-shot injection turn with no step.
    Inject {
        /// The injected context text.
        text: String,
    },
    /// `dispose()` while idle. Nothing follows it.
    Dispose,
}

/// One model call: the chunks the harness streams, and what happens around them.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelCall {
    /// The chunks, in delivery order. A call that does not throw ends with a `finish` chunk.
    pub chunks: Vec<StreamChunk>,
    /// The adapter throws after the chunks (then the call has no `finish` chunk).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throw: Option<LlmFailure>,
    /// Steering the user sends while the call streams.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steer: Vec<SteerAt>,
    /// A cancel or dispose while the call streams.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupt: Option<InterruptAt>,
    /// 2026-08: after this call fails, the `agent/request-error` decision is "retry" and the
    /// next call is served in the same step.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub retry: bool,
    /// The results of the tool calls this call makes, by call id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<ToolOutcome>,
}

/// A steering message sent right after chunk `after` (0-based) was delivered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SteerAt {
    /// The index of the chunk after which the user steers.
    pub after: usize,
    /// The steering text (unique within the case).
    pub text: String,
}

/// What interrupts a streaming call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InterruptKind {
    /// `cancel()`: the turn ends `aborted`.
    Cancel,
    /// `dispose()`: the turn ends `disposed` (2026-07) or `aborted` with cause `disposed`
    /// (2026-08), and nothing follows.
    Dispose,
}

/// A cancel or dispose sent right after chunk `after` (0-based) was delivered. The harness
/// then delivers chunk `after + 1` (the chunk at which the implementation observes the
/// interrupt, which it must not record) and ends the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterruptAt {
    /// The index of the last chunk delivered before the interrupt.
    pub after: usize,
    /// Cancel or dispose.
    pub kind: InterruptKind,
}

/// The harness's answer to one tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolOutcome {
    /// The call id the model used.
    pub call_id: String,
    /// Whether the tool failed.
    pub is_error: bool,
    /// The result text.
    pub content: String,
}

impl ModelCall {
    /// The `finish` reason of the call, if its last chunk is a `finish`.
    pub fn finish(&self) -> Option<&FinishReason> {
        match self.chunks.last() {
            Some(StreamChunk::Finish { reason, .. }) => Some(reason),
            _ => None,
        }
    }

    /// How the call ends as far as the loop is concerned.
    pub fn ending(&self) -> CallEnding {
        if let Some(i) = self.interrupt {
            return CallEnding::Interrupted(i);
        }
        if self.throw.is_some() {
            return CallEnding::Failed;
        }
        match self.finish() {
            Some(r) if r.is_failure() => CallEnding::Failed,
            Some(FinishReason::MaxTokens) => CallEnding::MaxTokens,
            _ => CallEnding::Success,
        }
    }

    /// The tool-call blocks the loop dispatches after this call: the assembled tool calls of
    /// a successful call, none after `max-tokens`, a failure or an interrupt.
    pub fn dispatched_tool_calls(&self) -> Vec<(String, String, String)> {
        if self.ending() != CallEnding::Success {
            return Vec::new();
        }
        tool_calls_of(&self.chunks)
    }

    /// Whether the loop runs another step after this call: it dispatched tool calls, or the
    /// user steered while it streamed.
    pub fn continues(&self) -> bool {
        matches!(self.ending(), CallEnding::Success | CallEnding::MaxTokens)
            && (!self.dispatched_tool_calls().is_empty() || !self.steer.is_empty())
    }

    /// Whether the loop runs another step after this call when `steered_earlier`: the user
    /// also steered during a failed attempt of the same step that this call retries.
    pub fn continues_after(&self, steered_earlier: bool) -> bool {
        matches!(self.ending(), CallEnding::Success | CallEnding::MaxTokens)
            && (steered_earlier || self.continues())
    }

    /// 2026-07: whether steering left over in this call starts a turn of its own. A failed call
    /// ends its turn with steering still queued; upstream re-enqueues it as a queued message
    /// after `turn/end`, so it runs at once as the next turn, whose prompt it is (`runLoop`:
    /// "it must never be stranded"). The calls that follow it in the script serve that turn.
    pub fn starts_leftover_turn(&self, profile: Profile) -> bool {
        profile == Profile::V2026_07
            && self.ending() == CallEnding::Failed
            && !self.steer.is_empty()
    }

    /// How many chunks the harness delivers: all of them, or up to and including the chunk
    /// at which an interrupt is observed.
    pub fn delivered_len(&self) -> usize {
        match self.interrupt {
            Some(i) => i.after.saturating_add(2).min(self.chunks.len()),
            None => self.chunks.len(),
        }
    }
}

/// The index of the call that settles the step attempt of call `c` of a prompt's `calls`: `c`
/// itself, unless it failed and is retried (2026-08); then the first of the retries after it
/// that is not retried again. Steering sent during a retried call waits for that call: the
/// retry re-sends the step's request without claiming the step's pending input (upstream
/// `ReactLoopAgent.step()` loops back to `buildRequest` over `session.deriveMessages()`, and
/// only `turn()`'s next `preStep` claims the `next-step` inbox), so the steering is claimed by
/// the next step when the settling call succeeds, and is left over when it fails or is
/// cancelled, exactly as if it had been sent during the settling call.
pub fn settling_call(calls: &[ModelCall], c: usize) -> usize {
    let mut k = c;
    while k + 1 < calls.len() && calls[k].retry && calls[k].ending() == CallEnding::Failed {
        k += 1;
    }
    k
}

/// Whether the user steered during a failed attempt that call `c` of `calls` retries (the
/// retried calls right before it): that steering is still pending when `c` settles the step
/// (see [`settling_call`]).
pub fn steered_in_retried(calls: &[ModelCall], c: usize) -> bool {
    calls[..c.min(calls.len())]
        .iter()
        .rev()
        .take_while(|p| p.retry && p.ending() == CallEnding::Failed)
        .any(|p| !p.steer.is_empty())
}

/// Whether the loop runs another step after call `c` of a prompt's `calls`: it dispatched tool
/// calls, or the user steered during it or during a failed attempt it retries.
pub fn continues_at(calls: &[ModelCall], c: usize) -> bool {
    calls
        .get(c)
        .is_some_and(|call| call.continues_after(steered_in_retried(calls, c)))
}

/// The steering pending when call `c` of `calls` settles its step: the steers sent during the
/// failed attempts it retries and during `c` itself, in delivery order.
pub fn pending_steers(calls: &[ModelCall], c: usize) -> Vec<&SteerAt> {
    let first = (0..c.min(calls.len()))
        .rev()
        .take_while(|p| calls[*p].retry && calls[*p].ending() == CallEnding::Failed)
        .last()
        .unwrap_or(c);
    calls
        .get(first..=c)
        .unwrap_or_default()
        .iter()
        .flat_map(|call| &call.steer)
        .collect()
}

/// The tool calls (id, name, arguments) assembled from a chunk list: the `block-end` block
/// when present, otherwise the concatenated deltas, in first-seen block order (a block is seen
/// at its `block-start`, as upstream's `BlockAssembler` orders them). A tool-call block with
/// neither delta nor `block-end` assembles as upstream's does: id `call-<index>`, empty name
/// and arguments (scripts only hold one in a call that never dispatches it).
pub fn tool_calls_of(chunks: &[StreamChunk]) -> Vec<(String, String, String)> {
    struct Partial {
        index: u32,
        tool: bool,
        id: Option<String>,
        name: String,
        arguments: String,
        ended: bool,
    }
    let mut blocks: Vec<Partial> = Vec::new();
    fn seen(blocks: &mut Vec<Partial>, index: u32, tool: bool) -> &mut Partial {
        let pos = match blocks.iter().position(|b| b.index == index) {
            Some(p) => p,
            None => {
                blocks.push(Partial {
                    index,
                    tool,
                    id: None,
                    name: String::new(),
                    arguments: String::new(),
                    ended: false,
                });
                blocks.len() - 1
            }
        };
        &mut blocks[pos]
    }
    for c in chunks {
        match c {
            StreamChunk::BlockStart { index, block_type } => {
                seen(&mut blocks, *index, *block_type == BlockType::ToolCall);
            }
            StreamChunk::ToolCallDelta {
                index,
                id,
                name,
                arguments_delta,
            } => {
                let b = seen(&mut blocks, *index, true);
                if !b.ended {
                    b.id = Some(id.clone());
                    if let Some(n) = name {
                        b.name.clone_from(n);
                    }
                    b.arguments.push_str(arguments_delta);
                }
            }
            StreamChunk::BlockEnd { index, block } => {
                let b = seen(&mut blocks, *index, false);
                if !b.ended {
                    b.ended = true;
                    b.tool = false;
                    if let ContentBlock::ToolCall {
                        id,
                        name,
                        arguments,
                        ..
                    } = block
                    {
                        b.tool = true;
                        b.id = Some(id.clone());
                        b.name.clone_from(name);
                        b.arguments.clone_from(arguments);
                    }
                }
            }
            _ => {}
        }
    }
    blocks
        .into_iter()
        .filter(|b| b.tool)
        .map(|b| {
            let id = b.id.unwrap_or_else(|| format!("call-{}", b.index));
            (id, b.name, b.arguments)
        })
        .collect()
}

/// How a model call ends, as the loop sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallEnding {
    /// `finish` `stop` or `tool-calls`.
    Success,
    /// `finish` `max-tokens`: a successful call whose tool calls are dropped.
    MaxTokens,
    /// `finish` `error`/`aborted`, or the adapter threw.
    Failed,
    /// The user cancelled or disposed while it streamed.
    Interrupted(InterruptAt),
}

/// A script that cannot be played, with the place that is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("action {action}{}: {message}", call.map(|c| format!(", call {c}")).unwrap_or_default())]
pub struct ScriptError {
    /// 0-based index of the action.
    pub action: usize,
    /// 0-based index of the call within the prompt, if the problem is in one.
    pub call: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// The planned shape of one turn: which calls serve which step, and how the turn ends.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnPlan {
    /// The 1-based turn number.
    pub turn: u64,
    /// The index of the action that starts the turn.
    pub action: usize,
    /// Whether the turn is a 2026-07 idle injection (no step).
    pub injection: bool,
    /// For each call of the turn, the 1-based step it serves.
    pub steps_of_calls: Vec<u64>,
    /// The index, within its prompt's calls, of the turn's first call: a prompt's calls serve
    /// more than one turn when 2026-07 leftover steering starts a turn of its own.
    pub first_call: usize,
    /// 2026-07: the turn was started by steering left over from the previous turn, whose
    /// failed call it followed; the steering is its prompt.
    pub leftover: bool,
    /// The `turn/end` reason kind the turn must end with.
    pub reason: &'static str,
}

impl Script {
    /// Checks that the script can be played under `profile` and that every turn ends where
    /// the script ends it: every call but the last continues the turn, the last one does
    /// not; interrupt and steer indices lie inside the call; retries only under 2026-08;
    /// nothing follows a dispose.
    pub fn validate(&self, profile: Profile) -> Result<(), ScriptError> {
        let err = |action, call, message: String| ScriptError {
            action,
            call,
            message,
        };
        for (a, action) in self.actions.iter().enumerate() {
            let last_action = a + 1 == self.actions.len();
            match action {
                Action::Dispose if !last_action => {
                    return Err(err(a, None, "nothing may follow `dispose`".into()));
                }
                Action::Dispose => {}
                Action::Inject { .. } if profile != Profile::V2026_07 => {
                    return Err(err(a, None, "`inject` exists only under 2026-07".into()));
                }
                Action::Inject { .. } => {}
                Action::Prompt { calls, .. } => {
                    if calls.is_empty() {
                        return Err(err(a, None, "a prompt needs at least one call".into()));
                    }
                    for (c, call) in calls.iter().enumerate() {
                        let last = c + 1 == calls.len();
                        let e = |m: &str| err(a, Some(c), m.to_owned());
                        let n = call.chunks.len();
                        if call.throw.is_none() && call.finish().is_none() {
                            return Err(e("a call that does not throw must end with `finish`"));
                        }
                        let finishes = call
                            .chunks
                            .iter()
                            .filter(|c| matches!(c, StreamChunk::Finish { .. }))
                            .count();
                        if finishes > usize::from(call.throw.is_none()) {
                            return Err(e("`finish` must be the call's last chunk"));
                        }
                        if let Some(i) = call.interrupt {
                            if i.after >= n.saturating_sub(1) {
                                return Err(e(
                                    "an interrupt needs a chunk after it (the chunk at which it is observed)",
                                ));
                            }
                            if !last {
                                return Err(e("an interrupted call must be the turn's last"));
                            }
                            if i.kind == InterruptKind::Dispose && !last_action {
                                return Err(e("nothing may follow a dispose"));
                            }
                        }
                        if call.steer.iter().any(|s| s.after >= n) {
                            return Err(e("steering after a chunk the call does not have"));
                        }
                        // 2026-07: steering left over by a failed call runs as a turn of its
                        // own, served by the calls that follow; a cancel drops it.
                        let claimed_here = call.starts_leftover_turn(profile)
                            || (profile == Profile::V2026_07
                                && matches!(call.ending(), CallEnding::Interrupted(i) if i.kind == InterruptKind::Cancel));
                        if call.retry && profile != Profile::V2026_08 {
                            return Err(e("retries exist only under 2026-08"));
                        }
                        // Steering in a call that ends the turn early (a failure that is not
                        // retried, a cancel) is left over: the next turn claims it, right after
                        // its prompt (STEER-2's upstream evidence; stdio.md §5.3, §5.4). Steering in
                        // a retried call waits for the call that settles the step.
                        if !call.steer.is_empty() {
                            if let CallEnding::Interrupted(i) = call.ending()
                                && call.steer.iter().any(|s| s.after > i.after)
                            {
                                return Err(e("steering after the interrupt"));
                            }
                            match calls[settling_call(calls, c)].ending() {
                                CallEnding::Success | CallEnding::MaxTokens => {}
                                _ if !claimed_here
                                    && !matches!(
                                        self.actions.get(a + 1),
                                        Some(Action::Prompt { .. })
                                    ) =>
                                {
                                    return Err(e(
                                        "leftover steering needs a next prompt to claim it",
                                    ));
                                }
                                _ => {}
                            }
                        }
                        if call.retry && call.ending() != CallEnding::Failed {
                            return Err(e("only a failed call can be retried"));
                        }
                        let goes_on = continues_at(calls, c) || call.retry;
                        if call.starts_leftover_turn(profile) && last {
                            return Err(e(
                                "leftover steering runs as a turn of its own: the calls of that turn must follow the failed call",
                            ));
                        }
                        let goes_on = goes_on || call.starts_leftover_turn(profile);
                        if goes_on && last && !call.continues() && !call.retry {
                            return Err(e(
                                "the user steered during a failed attempt this call retries: the next step claims that steering, so a call for that step must follow",
                            ));
                        }
                        if goes_on && last {
                            return Err(e(
                                "the turn's last call must end it (no tool calls, steering or retry)",
                            ));
                        }
                        if !goes_on && !last {
                            return Err(e(
                                "only the turn's last call may end it; calls after it are never requested",
                            ));
                        }
                        for (id, _, _) in call.dispatched_tool_calls() {
                            if !call.tools.iter().any(|t| t.call_id == id) {
                                return Err(e(&format!("no scripted result for tool call `{id}`")));
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The planned turns of a valid script.
    pub fn plan(&self, profile: Profile) -> Vec<TurnPlan> {
        let mut turns = Vec::new();
        let mut turn = 0;
        for (a, action) in self.actions.iter().enumerate() {
            match action {
                Action::Dispose => {}
                Action::Inject { .. } => {
                    turn += 1;
                    turns.push(TurnPlan {
                        turn,
                        action: a,
                        injection: true,
                        steps_of_calls: Vec::new(),
                        first_call: 0,
                        leftover: false,
                        reason: "completed",
                    });
                }
                Action::Prompt { calls, .. } => {
                    let mut first_call = 0;
                    let mut leftover = false;
                    while first_call < calls.len() {
                        turn += 1;
                        let mut step = 1;
                        let mut steps = Vec::new();
                        let mut max_tokens = false;
                        let mut reason = "completed";
                        let mut next = calls.len();
                        for (c, call) in calls.iter().enumerate().skip(first_call) {
                            steps.push(step);
                            match call.ending() {
                                CallEnding::Interrupted(i) => {
                                    reason = match (i.kind, profile) {
                                        (InterruptKind::Dispose, Profile::V2026_07) => "disposed",
                                        _ => "aborted",
                                    };
                                }
                                CallEnding::Failed if !call.retry => reason = "error",
                                CallEnding::Failed => continue,
                                CallEnding::MaxTokens => max_tokens = true,
                                CallEnding::Success => {}
                            }
                            if call.starts_leftover_turn(profile) {
                                next = c + 1;
                                break;
                            }
                            step += 1;
                        }
                        if reason == "completed" && max_tokens {
                            reason = "max-tokens";
                        }
                        turns.push(TurnPlan {
                            turn,
                            action: a,
                            injection: false,
                            steps_of_calls: steps,
                            first_call,
                            leftover,
                            reason,
                        });
                        first_call = next;
                        leftover = true;
                    }
                }
            }
        }
        turns
    }

    /// The calls of one planned turn, as indices within its prompt's calls with the step each
    /// serves.
    pub fn calls_of<'s>(
        &'s self,
        turn: &TurnPlan,
    ) -> impl Iterator<Item = (usize, &'s ModelCall, u64)> + 's {
        let calls = match self.actions.get(turn.action) {
            Some(Action::Prompt { calls, .. }) => calls.as_slice(),
            _ => &[],
        };
        let first = turn.first_call;
        let steps = turn.steps_of_calls.clone();
        calls
            .iter()
            .enumerate()
            .skip(first)
            .zip(steps)
            .map(|((c, call), step)| (c, call, step))
    }

    /// The model calls of action `action` (none unless it is a prompt).
    pub fn prompt_calls(&self, action: usize) -> &[ModelCall] {
        match self.actions.get(action) {
            Some(Action::Prompt { calls, .. }) => calls,
            _ => &[],
        }
    }

    /// Every model call of the script, in order, with the index of its action.
    pub fn calls(&self) -> impl Iterator<Item = (usize, &ModelCall)> {
        self.actions
            .iter()
            .enumerate()
            .flat_map(|(a, action)| match action {
                Action::Prompt { calls, .. } => calls.iter().map(move |c| (a, c)).collect(),
                _ => Vec::new(),
            })
    }

    /// The total number of chunks in the script.
    pub fn chunk_count(&self) -> usize {
        self.calls().map(|(_, c)| c.chunks.len()).sum()
    }
}

impl fmt::Display for Case {
    /// The case as one line of canonical JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match serde_json::to_string(self) {
            Ok(s) => f.write_str(&s),
            Err(_) => f.write_str("<unserializable case>"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_call(text: &str, finish: FinishReason) -> ModelCall {
        ModelCall {
            chunks: vec![
                StreamChunk::BlockStart {
                    index: 0,
                    block_type: BlockType::Text,
                },
                StreamChunk::TextDelta {
                    index: 0,
                    text: text.into(),
                },
                StreamChunk::BlockEnd {
                    index: 0,
                    block: ContentBlock::text(text),
                },
                StreamChunk::Finish {
                    reason: finish,
                    replay_state: None,
                },
            ],
            ..ModelCall::default()
        }
    }

    #[test]
    fn a_simple_script_validates_and_plans() {
        let script = Script {
            actions: vec![
                Action::Prompt {
                    text: "p".into(),
                    calls: vec![text_call("hi", FinishReason::MaxTokens)],
                },
                Action::Dispose,
            ],
        };
        assert_eq!(script.validate(Profile::V2026_08), Ok(()));
        let plan = script.plan(Profile::V2026_08);
        assert_eq!(plan.len(), 1);
        assert_eq!(plan[0].reason, "max-tokens");
        assert_eq!(plan[0].steps_of_calls, vec![1]);
    }

    #[test]
    fn calls_after_a_turn_ending_call_are_refused() {
        let script = Script {
            actions: vec![Action::Prompt {
                text: "p".into(),
                calls: vec![
                    text_call("a", FinishReason::Stop),
                    text_call("b", FinishReason::Stop),
                ],
            }],
        };
        let e = script.validate(Profile::V2026_07).unwrap_err();
        assert_eq!((e.action, e.call), (0, Some(0)));
    }

    #[test]
    fn a_2026_07_failed_calls_leftover_steering_starts_a_turn_served_by_the_next_calls() {
        let mut failed = text_call("a", FinishReason::Stop);
        failed.chunks.pop();
        failed.throw = Some(LlmFailure {
            message: "boom".into(),
            code: "E".into(),
            extra: Default::default(),
        });
        failed.steer = vec![SteerAt {
            after: 0,
            text: "s".into(),
        }];
        let script = Script {
            actions: vec![Action::Prompt {
                text: "p".into(),
                calls: vec![failed.clone(), text_call("b", FinishReason::Stop)],
            }],
        };
        assert_eq!(script.validate(Profile::V2026_07), Ok(()));
        let plan = script.plan(Profile::V2026_07);
        let shape: Vec<(u64, &str, usize, bool, Vec<u64>)> = plan
            .iter()
            .map(|t| {
                (
                    t.turn,
                    t.reason,
                    t.first_call,
                    t.leftover,
                    t.steps_of_calls.clone(),
                )
            })
            .collect();
        assert_eq!(
            shape,
            [
                (1, "error", 0, false, vec![1]),
                (2, "completed", 1, true, vec![1])
            ]
        );
        let calls: Vec<usize> = script.calls_of(&plan[1]).map(|(c, _, _)| c).collect();
        assert_eq!(calls, [1]);
        // 2026-08 keeps it for the next prompt: no call may follow the failed one.
        assert!(script.validate(Profile::V2026_08).is_err());
        // Without the leftover turn's calls the 2026-07 script cannot be played.
        let alone = Script {
            actions: vec![Action::Prompt {
                text: "p".into(),
                calls: vec![failed],
            }],
        };
        let e = alone.validate(Profile::V2026_07).unwrap_err();
        assert!(e.message.contains("turn of its own"), "{e}");
    }

    #[test]
    fn steering_in_a_retried_call_waits_for_the_call_that_settles_the_step() {
        let mut failed = text_call("a", FinishReason::Stop);
        failed.chunks.pop();
        failed.throw = Some(LlmFailure {
            message: "boom".into(),
            code: "E".into(),
            extra: Default::default(),
        });
        failed.retry = true;
        failed.steer = vec![SteerAt {
            after: 0,
            text: "s".into(),
        }];
        let retry = text_call("b", FinishReason::Stop);
        let calls = vec![
            failed.clone(),
            retry.clone(),
            text_call("c", FinishReason::Stop),
        ];
        assert_eq!(settling_call(&calls, 0), 1);
        assert!(continues_at(&calls, 1), "the steer goes on to step 2");
        assert!(!retry.continues(), "the retry alone would end the turn");
        let texts: Vec<&str> = pending_steers(&calls, 1)
            .iter()
            .map(|s| s.text.as_str())
            .collect();
        assert_eq!(texts, ["s"]);
        let script = Script {
            actions: vec![Action::Prompt {
                text: "p".into(),
                calls: calls.clone(),
            }],
        };
        assert_eq!(script.validate(Profile::V2026_08), Ok(()));
        assert_eq!(script.plan(Profile::V2026_08)[0].steps_of_calls, [1, 1, 2]);
        // Without the steered step's call the turn cannot end where the script ends it.
        let short = Script {
            actions: vec![Action::Prompt {
                text: "p".into(),
                calls: calls[..2].to_vec(),
            }],
        };
        let e = short.validate(Profile::V2026_08).unwrap_err();
        assert_eq!((e.action, e.call), (0, Some(1)));
        assert!(
            e.message.contains("failed attempt this call retries"),
            "{e}"
        );
        // A retry that fails too leaves the steer over: a next prompt must claim it.
        let mut failed_again = failed.clone();
        failed_again.retry = false;
        failed_again.steer.clear();
        let leftover = |next: bool| Script {
            actions: std::iter::once(Action::Prompt {
                text: "p".into(),
                calls: vec![failed.clone(), failed_again.clone()],
            })
            .chain(next.then(|| Action::Prompt {
                text: "q".into(),
                calls: vec![text_call("d", FinishReason::Stop)],
            }))
            .collect(),
        };
        assert_eq!(leftover(true).validate(Profile::V2026_08), Ok(()));
        let e = leftover(false).validate(Profile::V2026_08).unwrap_err();
        assert!(e.message.contains("next prompt"), "{e}");
    }

    #[test]
    fn tool_calls_come_in_block_start_order() {
        let delta = |index: u32, id: &str| StreamChunk::ToolCallDelta {
            index,
            id: id.into(),
            name: Some("read".into()),
            arguments_delta: "{}".into(),
        };
        let start = |index: u32| StreamChunk::BlockStart {
            index,
            block_type: BlockType::ToolCall,
        };
        // Block 1 streams first, but block 0 started first: upstream's order is 0, 1.
        let chunks = vec![start(0), start(1), delta(1, "b"), delta(0, "a"), start(2)];
        let ids: Vec<String> = tool_calls_of(&chunks).into_iter().map(|c| c.0).collect();
        assert_eq!(ids, ["a", "b", "call-2"]);
    }

    #[test]
    fn ids_are_content_hashes() {
        let a = Case {
            profile: Profile::V2026_07,
            script: Script::default(),
        };
        let mut b = a.clone();
        assert_eq!(a.id(), b.id());
        b.profile = Profile::V2026_08;
        assert_ne!(a.id(), b.id());
        assert_eq!(a.id().len(), 16);
    }
}
