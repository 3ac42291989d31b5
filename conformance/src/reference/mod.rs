//! The reference implementation: a genuine agent loop for both profiles, and the embedded
//! default of `mirrorless run`.
//!
//! It keeps its own state — a session log that assigns `seq`, a block assembler, a steering
//! queue, an abort signal, turn and step counters, sticky `max-tokens` — and talks to the world
//! only through the [`Host`]. It never looks at the script or the oracle: the suite must not
//! check itself. Its shape follows the upstream loops the protocol was distilled from
//! (2026-07 `runTurn`/`runStep`/`drainSteering`, 2026-08 `ReactLoopAgent.turn()`/`step()`).

mod assembler;

pub use assembler::{Assembled, BlockAssembler};

use crate::driver::{AgentLoop, AgentStatus, Host, LiveEvent, StreamItem, ToolRequest, UserInput};
use crate::vocab::Profile;
use crate::vocab::chunk::{ContentBlock, FinishReason, LlmFailure, StreamChunk};
use crate::vocab::durable::SessionEvent;
use serde_json::{Value, json};

/// The session log the loop appends to: it assigns `seq` and remembers the events.
#[derive(Debug, Default)]
struct SessionLog {
    len: u64,
}

impl SessionLog {
    fn append(
        &mut self,
        host: &mut dyn Host,
        kind: &str,
        data: Value,
        surface: bool,
        sources: Option<Vec<u64>>,
    ) -> u64 {
        let seq = self.len;
        self.len += 1;
        host.append(SessionEvent {
            kind: kind.to_owned(),
            seq: Some(seq),
            time: Some(json!(1_767_225_600_000u64 + seq)),
            data,
            surface_op: surface.then(|| json!("append")),
            source_event_seqs: sources,
            ignorable: None,
        });
        seq
    }
}

/// Why the running turn stops early.
#[derive(Debug, Clone, PartialEq)]
enum Abort {
    Cancel(String),
    Dispose,
}

/// The outcome of one model call, as the loop sees it.
enum CallOutcome {
    Completed(Assembled),
    Failed(LlmFailure),
    Aborted(Assembled),
}

/// The reference agent loop.
#[derive(Debug)]
pub struct ReferenceLoop {
    profile: Profile,
    log: SessionLog,
    turn: u64,
    steering: Vec<Vec<ContentBlock>>,
    abort: Option<Abort>,
    disposed: bool,
    status: Option<AgentStatus>,
    next_message_id: u64,
}

impl AgentLoop for ReferenceLoop {
    fn new(profile: Profile) -> Self {
        ReferenceLoop {
            profile,
            log: SessionLog::default(),
            turn: 0,
            steering: Vec::new(),
            abort: None,
            disposed: false,
            status: None,
            next_message_id: 0,
        }
    }

    fn run(&mut self, host: &mut dyn Host) -> Result<(), String> {
        host.emit(LiveEvent::Created);
        host.emit(LiveEvent::SessionStart {
            source: "startup".into(),
        });
        while let Some(input) = host.next_input() {
            match input {
                UserInput::Prompt { content } => self.run_turns(host, content),
                UserInput::Inject { content } => self.inject(host, content),
                UserInput::Dispose => self.dispose(host),
            }
            if self.disposed {
                break;
            }
        }
        Ok(())
    }
}

impl ReferenceLoop {
    fn legacy(&self) -> bool {
        self.profile == Profile::V2026_07
    }

    fn set_status(&mut self, host: &mut dyn Host, status: AgentStatus) {
        if self.status != Some(status) {
            self.status = Some(status);
            host.emit(LiveEvent::Status(status));
        }
    }

    fn dispose(&mut self, host: &mut dyn Host) {
        if self.legacy() {
            self.set_status(host, AgentStatus::Disposed);
        }
        host.emit(LiveEvent::Disposed);
        self.disposed = true;
    }

    fn message_id(&mut self) -> String {
        self.next_message_id += 1;
        format!("msg-{}", self.next_message_id)
    }

    fn user_message(&mut self, host: &mut dyn Host, content: Vec<ContentBlock>) {
        let data = if self.legacy() {
            json!({ "content": content, "source": { "kind": "user" } })
        } else {
            let id = self.message_id();
            json!({ "id": id, "role": "user", "content": content, "source": { "kind": "user" } })
        };
        self.log.append(host, "user/message", data, true, None);
    }

    /// 2026-07 idle injection: a one-shot turn with the context and no step, no mirror.
    fn inject(&mut self, host: &mut dyn Host, content: Vec<ContentBlock>) {
        self.turn += 1;
        let turn = self.turn;
        let source = json!({ "kind": "plugin", "plugin": "mirrorless" });
        self.log.append(
            host,
            "turn/start",
            json!({ "turn": turn, "trigger": { "kind": "injection", "source": source } }),
            false,
            None,
        );
        self.log.append(
            host,
            "context/message",
            json!({ "content": content, "source": source }),
            true,
            None,
        );
        self.log.append(
            host,
            "turn/end",
            json!({ "turn": turn, "reason": { "kind": "completed" } }),
            false,
            None,
        );
    }

    /// Runs the prompt's turn, then (2026-07) the turns its leftover steering starts: steering
    /// still queued when a turn fails is re-enqueued as queued messages, which run at once as
    /// the next turn, as upstream's `runLoop` does ("it must never be stranded"). A cancel drops
    /// it (upstream `Agent.cancel`).
    fn run_turns(&mut self, host: &mut dyn Host, prompt: Vec<ContentBlock>) {
        let mut prompts = vec![prompt];
        loop {
            self.run_turn(host, prompts);
            if !self.legacy() || self.disposed {
                return;
            }
            if matches!(self.abort, Some(Abort::Cancel(_))) {
                self.steering.clear();
            }
            if self.steering.is_empty() {
                return;
            }
            prompts = std::mem::take(&mut self.steering);
        }
    }

    fn run_turn(&mut self, host: &mut dyn Host, prompts: Vec<Vec<ContentBlock>>) {
        self.turn += 1;
        let turn = self.turn;
        self.abort = None;
        self.set_status(host, AgentStatus::Running);
        if self.legacy() {
            self.log.append(
                host,
                "turn/start",
                json!({ "turn": turn, "trigger": { "kind": "message", "source": { "kind": "user" } } }),
                false,
                None,
            );
            for content in prompts.iter().cloned() {
                self.user_message(host, content);
            }
        } else {
            self.log
                .append(host, "turn/start", json!({ "turn": turn }), false, None);
        }
        // 2026-08 claims the prompt (and later steering) inside the next step.
        let mut inbox: Vec<Vec<ContentBlock>> = if self.legacy() {
            Vec::new()
        } else {
            // Leftover steering first: upstream claims the `next-step` inbox before the
            // `next-turn` one that holds the prompt.
            let mut first = std::mem::take(&mut self.steering);
            first.extend(prompts);
            first
        };
        let mut max_tokens = false;
        let mut failure: Option<(u64, LlmFailure)> = None;
        let mut step = 0;
        loop {
            step += 1;
            self.log.append(
                host,
                "step/start",
                json!({ "turn": turn, "step": step }),
                false,
                None,
            );
            for content in inbox.drain(..) {
                self.user_message(host, content);
            }
            let outcome = self.stream_with_retries(host, turn, step);
            let mut go_on = false;
            match outcome {
                CallOutcome::Aborted(partial) => {
                    if !self.legacy() {
                        let blocks = partial.interrupted_blocks();
                        if !blocks.is_empty() {
                            self.assistant_message(host, turn, step, &partial, blocks, true);
                        }
                    }
                }
                CallOutcome::Failed(f) => failure = Some((step, f)),
                CallOutcome::Completed(assembled) => {
                    let content = assembled.content();
                    if !self.legacy() || !content.is_empty() || assembled.usage.is_some() {
                        self.assistant_message(host, turn, step, &assembled, content, false);
                    }
                    if matches!(assembled.finish, Some(FinishReason::MaxTokens)) {
                        max_tokens = true;
                    }
                    let calls = assembled.tool_calls();
                    go_on = !calls.is_empty();
                    for (id, name, arguments) in calls {
                        self.run_tool(host, turn, step, id, name, arguments);
                    }
                    if !self.steering.is_empty() {
                        go_on = true;
                        if self.legacy() {
                            for content in std::mem::take(&mut self.steering) {
                                self.log.append(
                                    host,
                                    "steering/message",
                                    json!({ "turn": turn, "content": content, "source": { "kind": "user" } }),
                                    true,
                                    None,
                                );
                            }
                        } else {
                            inbox.append(&mut self.steering);
                        }
                    }
                }
            }
            self.log.append(
                host,
                "step/end",
                json!({ "turn": turn, "step": step }),
                false,
                None,
            );
            if !go_on || self.abort.is_some() || failure.is_some() {
                break;
            }
        }
        let reason = match (&self.abort, &failure) {
            (Some(Abort::Dispose), _) if self.legacy() => json!({ "kind": "disposed" }),
            (Some(Abort::Dispose), _) => {
                json!({ "kind": "aborted", "reason": { "kind": "disposed" } })
            }
            (Some(Abort::Cancel(reason)), _) if self.legacy() => {
                json!({ "kind": "aborted", "reason": reason })
            }
            (Some(Abort::Cancel(_)), _) => {
                json!({ "kind": "aborted", "reason": { "kind": "user" } })
            }
            (None, Some((step, f))) => {
                host.emit(LiveEvent::Error {
                    turn,
                    step: *step,
                    message: f.message.clone(),
                });
                if self.legacy() {
                    json!({ "kind": "error", "step": step, "message": f.message, "code": f.code })
                } else {
                    json!({ "kind": "error", "error": f })
                }
            }
            (None, None) if max_tokens => json!({ "kind": "max-tokens" }),
            (None, None) => json!({ "kind": "completed" }),
        };
        self.log.append(
            host,
            "turn/end",
            json!({ "turn": turn, "reason": reason }),
            false,
            None,
        );
        // Steering left over when a turn ends early stays queued: under 2026-08 the next turn
        // claims it; under 2026-07 `run_turns` runs it (or drops it after a cancel). Back-to-back
        // turns stay `running` between them, as upstream's do.
        if self.abort == Some(Abort::Dispose) {
            self.dispose(host);
        } else if !(self.legacy()
            && self.abort.is_none()
            && failure.is_some()
            && !self.steering.is_empty())
        {
            self.set_status(host, AgentStatus::Idle);
        }
    }

    /// Runs model calls for one step until one succeeds, is aborted, or fails without a
    /// retry (2026-08 asks `agent/request-error`; 2026-07 never retries).
    fn stream_with_retries(&mut self, host: &mut dyn Host, turn: u64, step: u64) -> CallOutcome {
        let mut attempt = 1;
        loop {
            match self.stream(host, turn, step) {
                CallOutcome::Failed(f) if !self.legacy() && host.request_error(turn, step, &f) => {
                    // Steering queued during the failed attempt stays queued: the retry re-sends
                    // the same request, and the step's end hands it to the next step (upstream
                    // `step()`). The retry is a new request; the log says so before its chunks.
                    attempt += 1;
                    self.log.append(
                        host,
                        "llm/retry",
                        json!({ "turn": turn, "step": step, "attempt": attempt, "failure": f }),
                        false,
                        None,
                    );
                }
                other => return other,
            }
        }
    }

    /// One model call: records every chunk before assembling it, stops recording when the
    /// abort signal is set.
    fn stream(&mut self, host: &mut dyn Host, turn: u64, step: u64) -> CallOutcome {
        host.request_model(turn, step);
        let mut assembler = BlockAssembler::default();
        let mut thrown: Option<LlmFailure> = None;
        loop {
            match host.next_stream_item() {
                StreamItem::Chunk(chunk) => {
                    if self.abort.is_some() {
                        // The chunk at which the abort is observed is never recorded.
                        continue;
                    }
                    let seq = self.log.append(
                        host,
                        "assistant/chunk",
                        json!({ "turn": turn, "step": step, "chunk": chunk }),
                        false,
                        None,
                    );
                    assembler.push(seq, &chunk);
                }
                StreamItem::Throw(failure) => thrown = Some(failure),
                StreamItem::Steer { content } => self.steering.push(content),
                StreamItem::Cancel { reason } => self.abort = Some(Abort::Cancel(reason)),
                StreamItem::Dispose => self.abort = Some(Abort::Dispose),
                StreamItem::End => break,
            }
        }
        let assembled = assembler.finish();
        if self.abort.is_some() {
            return CallOutcome::Aborted(assembled);
        }
        if let Some(failure) = thrown {
            if !self.legacy() {
                // The 2026-08 LLM runtime records an adapter throw as a terminal finish chunk.
                let chunk = StreamChunk::Finish {
                    reason: FinishReason::Error {
                        message: None,
                        code: None,
                        failure: Some(failure.clone()),
                    },
                    replay_state: None,
                };
                self.log.append(
                    host,
                    "assistant/chunk",
                    json!({ "turn": turn, "step": step, "chunk": chunk }),
                    false,
                    None,
                );
            }
            return CallOutcome::Failed(failure);
        }
        match &assembled.finish {
            Some(FinishReason::Error {
                message,
                code,
                failure,
            }) => {
                let f = failure.clone().unwrap_or_else(|| LlmFailure {
                    message: message
                        .clone()
                        .unwrap_or_else(|| "model stream failed".into()),
                    code: code.clone().unwrap_or_else(|| "UNKNOWN".into()),
                    extra: Default::default(),
                });
                CallOutcome::Failed(f)
            }
            Some(FinishReason::Aborted { failure }) => {
                let f = failure.clone().unwrap_or_else(|| LlmFailure {
                    message: "model stream aborted".into(),
                    code: "ABORTED".into(),
                    extra: Default::default(),
                });
                CallOutcome::Failed(f)
            }
            _ => CallOutcome::Completed(assembled),
        }
    }

    fn assistant_message(
        &mut self,
        host: &mut dyn Host,
        turn: u64,
        step: u64,
        assembled: &Assembled,
        content: Vec<ContentBlock>,
        interrupted: bool,
    ) {
        let seqs = assembled.seqs.clone();
        let data = if self.legacy() {
            let mut d = json!({ "turn": turn, "step": step, "content": content });
            if let Some(u) = &assembled.usage {
                d["usage"] = json!(u);
            }
            d
        } else {
            let id = self.message_id();
            let mut d = json!({
                "turn": turn,
                "step": step,
                "message": {
                    "id": id,
                    "role": "assistant",
                    "content": content,
                    "source": { "kind": "model", "provider": "mirrorless", "model": "scripted" }
                }
            });
            if let Some(u) = &assembled.usage {
                d["usage"] = json!(u);
            }
            if interrupted {
                d["interrupted"] = json!(true);
            }
            d
        };
        // 2026-07 omits an empty provenance list; 2026-08 records it.
        let sources = (!seqs.is_empty() || !self.legacy()).then_some(seqs);
        self.log
            .append(host, "assistant/message", data, true, sources);
    }

    fn run_tool(
        &mut self,
        host: &mut dyn Host,
        turn: u64,
        step: u64,
        id: String,
        name: String,
        arguments: String,
    ) {
        let call_seq = self.log.append(
            host,
            "tool/call",
            json!({ "turn": turn, "step": step, "callId": id, "name": name, "arguments": arguments }),
            false,
            None,
        );
        let result = host.run_tool(&ToolRequest {
            call_id: id.clone(),
            name,
            arguments,
        });
        let error = result
            .is_error
            .then(|| json!({ "name": "ToolError", "code": "TOOL_FAILED" }));
        let mut data = if self.legacy() {
            json!({
                "turn": turn, "step": step, "callId": id,
                "content": result.content, "isError": result.is_error
            })
        } else {
            let mid = self.message_id();
            json!({
                "turn": turn, "step": step,
                "message": {
                    "id": mid,
                    "role": "tool",
                    "content": [{
                        "type": "tool-result", "toolCallId": id,
                        "content": result.content, "isError": result.is_error
                    }],
                    "source": { "kind": "tool", "callId": id }
                }
            })
        };
        if let Some(e) = error {
            data["error"] = e;
        }
        self.log
            .append(host, "tool/result", data, true, Some(vec![call_seq]));
    }
}
