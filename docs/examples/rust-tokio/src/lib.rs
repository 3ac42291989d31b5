//! An async agent loop on tokio (2026-08), plugged into the synchronous mirrorless harness
//! through `mirrorless_conformance::driver::tokio_bridge` (the `tokio` feature).
//!
//! `AgentLoop::run` hands the harness to `tokio_bridge::run`, which runs the async loop on a
//! shared runtime and serves its `AsyncHost`: the loop awaits `host.next_input()`,
//! `host.request_model(turn, step)`, `host.next_stream_item()`, `host.run_tool(..)` and
//! `host.request_error(..)`, and reports every durable event with `host.append(..)` and every
//! live event with `host.emit_event(..)` (or `host.emit_named(name, payload)` from a bus that
//! names events by string).
//!
//! The abort signal is a `tokio::sync::watch` channel, set by a task the loop spawns when the
//! user cancels or disposes: spawned with `host.spawn`, the bridge lets it finish before the
//! harness delivers the next chunk, so the chunk at which the abort is observed is never
//! recorded. (With a bare `tokio::spawn`, the flag is set whenever the scheduler gets to it,
//! often one chunk late, and the suite fails CHUNK-5.)

use mirrorless_conformance::Profile;
use mirrorless_conformance::driver::tokio_bridge::{self, AsyncHost};
use mirrorless_conformance::driver::{
    AgentLoop, AgentStatus, Host, LiveEvent, StreamItem, ToolRequest, UserInput,
};
use mirrorless_conformance::reference::{Assembled, BlockAssembler};
use mirrorless_conformance::vocab::chunk::{ContentBlock, FinishReason, LlmFailure, StreamChunk};
use mirrorless_conformance::vocab::durable::SessionEvent;
use serde_json::{Value, json};
use std::sync::OnceLock;
use tokio::runtime::Runtime;
use tokio::sync::watch;

/// One runtime for every case (the suite runs cases on several threads at once).
fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .expect("a tokio runtime")
    })
}

/// The implementation under test: a fresh async agent per case.
pub struct TokioLoop {
    profile: Profile,
}

impl AgentLoop for TokioLoop {
    fn new(profile: Profile) -> Self {
        TokioLoop { profile }
    }

    fn run(&mut self, host: &mut dyn Host) -> Result<(), String> {
        if self.profile != Profile::V2026_08 {
            return Err(format!("{} is not implemented", self.profile));
        }
        tokio_bridge::run(runtime().handle(), host, |host| Agent::new(host).run())
    }
}

/// Why the running turn stops early.
#[derive(Debug, Clone, PartialEq)]
enum Abort {
    Cancel,
    Dispose,
}

/// The outcome of one model call.
enum CallOutcome {
    Completed(Assembled),
    Failed(LlmFailure),
    Aborted(Assembled),
}

/// The async agent: its session log, steering queue and abort signal.
struct Agent {
    host: AsyncHost,
    seq: u64,
    turn: u64,
    next_message_id: u64,
    steering: Vec<Vec<ContentBlock>>,
    abort: watch::Sender<Option<Abort>>,
    status: Option<AgentStatus>,
}

impl Agent {
    fn new(host: AsyncHost) -> Self {
        Agent {
            host,
            seq: 0,
            turn: 0,
            next_message_id: 0,
            steering: Vec::new(),
            abort: watch::Sender::new(None),
            status: None,
        }
    }

    async fn run(mut self) -> Result<(), String> {
        self.host.emit_event(LiveEvent::Created);
        self.host.emit_event(LiveEvent::SessionStart {
            source: "startup".into(),
        });
        while let Some(input) = self.host.next_input().await {
            match input {
                UserInput::Prompt { content } => {
                    if self.run_turn(content).await {
                        break;
                    }
                }
                UserInput::Inject { .. } => return Err("idle injection is 2026-07 only".into()),
                UserInput::Dispose => {
                    self.host.emit_event(LiveEvent::Disposed);
                    break;
                }
            }
        }
        Ok(())
    }

    fn append(&mut self, kind: &str, data: Value, surface: bool, sources: Option<Vec<u64>>) -> u64 {
        let seq = self.seq;
        self.seq += 1;
        self.host.append(SessionEvent {
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

    fn set_status(&mut self, status: AgentStatus) {
        if self.status != Some(status) {
            self.status = Some(status);
            self.host.emit_event(status);
        }
    }

    fn message_id(&mut self) -> String {
        self.next_message_id += 1;
        format!("msg-{}", self.next_message_id)
    }

    fn user_message(&mut self, content: Vec<ContentBlock>) {
        let id = self.message_id();
        let data =
            json!({ "id": id, "role": "user", "content": content, "source": { "kind": "user" } });
        self.append("user/message", data, true, None);
    }

    fn aborted(&self) -> Option<Abort> {
        self.abort.borrow().clone()
    }

    /// Runs one turn; `true` when the agent was disposed during it.
    async fn run_turn(&mut self, prompt: Vec<ContentBlock>) -> bool {
        self.turn += 1;
        let turn = self.turn;
        self.abort.send_replace(None);
        self.set_status(AgentStatus::Running);
        self.append("turn/start", json!({ "turn": turn }), false, None);
        // Steering left over from an earlier turn, then the prompt, are claimed in the first
        // step (upstream claims the `next-step` inbox before the `next-turn` one).
        let mut inbox = std::mem::take(&mut self.steering);
        inbox.push(prompt);
        let mut max_tokens = false;
        let mut failure: Option<(u64, LlmFailure)> = None;
        let mut step = 0;
        loop {
            step += 1;
            self.append(
                "step/start",
                json!({ "turn": turn, "step": step }),
                false,
                None,
            );
            for content in std::mem::take(&mut inbox) {
                self.user_message(content);
            }
            let mut go_on = false;
            match self.stream_with_retries(turn, step).await {
                CallOutcome::Aborted(partial) => {
                    let blocks = partial.interrupted_blocks();
                    if !blocks.is_empty() {
                        self.assistant_message(turn, step, &partial, blocks, true);
                    }
                }
                CallOutcome::Failed(f) => failure = Some((step, f)),
                CallOutcome::Completed(assembled) => {
                    let content = assembled.content();
                    self.assistant_message(turn, step, &assembled, content, false);
                    max_tokens |= matches!(assembled.finish, Some(FinishReason::MaxTokens));
                    let calls = assembled.tool_calls();
                    go_on = !calls.is_empty();
                    for (id, name, arguments) in calls {
                        self.run_tool(turn, step, id, name, arguments).await;
                    }
                    if !self.steering.is_empty() {
                        go_on = true;
                        inbox.append(&mut self.steering);
                    }
                }
            }
            self.append(
                "step/end",
                json!({ "turn": turn, "step": step }),
                false,
                None,
            );
            if !go_on || self.aborted().is_some() || failure.is_some() {
                break;
            }
        }
        let abort = self.aborted();
        let reason = match (&abort, &failure) {
            (Some(Abort::Dispose), _) => {
                json!({ "kind": "aborted", "reason": { "kind": "disposed" } })
            }
            (Some(Abort::Cancel), _) => json!({ "kind": "aborted", "reason": { "kind": "user" } }),
            (None, Some((step, f))) => {
                self.host.emit_event(LiveEvent::Error {
                    turn,
                    step: *step,
                    message: f.message.clone(),
                });
                json!({ "kind": "error", "error": f })
            }
            (None, None) if max_tokens => json!({ "kind": "max-tokens" }),
            (None, None) => json!({ "kind": "completed" }),
        };
        self.append(
            "turn/end",
            json!({ "turn": turn, "reason": reason }),
            false,
            None,
        );
        if abort == Some(Abort::Dispose) {
            self.host.emit_event(LiveEvent::Disposed);
            return true;
        }
        self.set_status(AgentStatus::Idle);
        false
    }

    /// Model calls for one step until one succeeds, is aborted, or fails without a retry.
    async fn stream_with_retries(&mut self, turn: u64, step: u64) -> CallOutcome {
        let mut attempt = 1;
        loop {
            match self.stream(turn, step).await {
                CallOutcome::Failed(f) if self.host.request_error(turn, step, f.clone()).await => {
                    attempt += 1;
                    let data =
                        json!({ "turn": turn, "step": step, "attempt": attempt, "failure": f });
                    self.append("llm/retry", data, false, None);
                }
                other => return other,
            }
        }
    }

    /// Sets the abort signal from a task, as an abort controller does: spawned through the
    /// bridge, it is set before the next chunk arrives.
    fn abort_later(&self, why: Abort) {
        let abort = self.abort.clone();
        self.host.spawn(async move {
            tokio::task::yield_now().await;
            abort.send_replace(Some(why));
        });
    }

    /// One model call: every chunk is recorded before it is assembled, none after the abort.
    async fn stream(&mut self, turn: u64, step: u64) -> CallOutcome {
        self.host.request_model(turn, step).await;
        let mut assembler = BlockAssembler::default();
        let mut thrown: Option<LlmFailure> = None;
        loop {
            match self.host.next_stream_item().await {
                StreamItem::Chunk(chunk) => {
                    if self.aborted().is_some() {
                        continue;
                    }
                    let data = json!({ "turn": turn, "step": step, "chunk": chunk });
                    let seq = self.append("assistant/chunk", data, false, None);
                    assembler.push(seq, &chunk);
                }
                StreamItem::Throw(failure) => thrown = Some(failure),
                StreamItem::Steer { content } => self.steering.push(content),
                StreamItem::Cancel { .. } => self.abort_later(Abort::Cancel),
                StreamItem::Dispose => self.abort_later(Abort::Dispose),
                StreamItem::End => break,
            }
        }
        let assembled = assembler.finish();
        if self.aborted().is_some() {
            return CallOutcome::Aborted(assembled);
        }
        if let Some(failure) = thrown {
            // The LLM runtime records an adapter throw as a terminal finish chunk.
            let chunk = StreamChunk::Finish {
                reason: FinishReason::Error {
                    message: None,
                    code: None,
                    failure: Some(failure.clone()),
                },
                replay_state: None,
            };
            let data = json!({ "turn": turn, "step": step, "chunk": chunk });
            self.append("assistant/chunk", data, false, None);
            return CallOutcome::Failed(failure);
        }
        let failed = |message: &str, code: &str| LlmFailure {
            message: message.into(),
            code: code.into(),
            extra: Default::default(),
        };
        match &assembled.finish {
            Some(FinishReason::Error {
                message,
                code,
                failure,
            }) => CallOutcome::Failed(failure.clone().unwrap_or_else(|| {
                failed(
                    message.as_deref().unwrap_or("model stream failed"),
                    code.as_deref().unwrap_or("UNKNOWN"),
                )
            })),
            Some(FinishReason::Aborted { failure }) => CallOutcome::Failed(
                failure
                    .clone()
                    .unwrap_or_else(|| failed("model stream aborted", "ABORTED")),
            ),
            _ => CallOutcome::Completed(assembled),
        }
    }

    fn assistant_message(
        &mut self,
        turn: u64,
        step: u64,
        assembled: &Assembled,
        content: Vec<ContentBlock>,
        interrupted: bool,
    ) {
        let id = self.message_id();
        let mut data = json!({
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
            data["usage"] = json!(u);
        }
        if interrupted {
            data["interrupted"] = json!(true);
        }
        self.append(
            "assistant/message",
            data,
            true,
            Some(assembled.seqs.clone()),
        );
    }

    async fn run_tool(
        &mut self,
        turn: u64,
        step: u64,
        id: String,
        name: String,
        arguments: String,
    ) {
        let call = json!({ "turn": turn, "step": step, "callId": id, "name": name, "arguments": arguments });
        let call_seq = self.append("tool/call", call, false, None);
        let request = ToolRequest {
            call_id: id.clone(),
            name,
            arguments,
        };
        let result = self.host.run_tool(request).await;
        let mid = self.message_id();
        let mut data = json!({
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
        });
        if result.is_error {
            data["error"] = json!({ "name": "ToolError", "code": "TOOL_FAILED" });
        }
        self.append("tool/result", data, true, Some(vec![call_seq]));
    }
}
