//! Plugging an implementation in: the [`Host`] an implementation talks to, the harness that
//! plays a [`Case`] behind it, and the [`Driver`]s that run cases.
//!
//! # The conversation
//!
//! The harness plays the user, the model and the tools; the implementation under test plays
//! the agent loop. Everything is synchronous and ordered, so every injection point is exact:
//!
//! 1. The implementation asks [`Host::next_input`] for the next user action while it is idle
//!    (a prompt, a 2026-07 idle injection, a dispose, or `None` when the case is over).
//! 2. For each model call it calls [`Host::request_model`] with the open turn and step, then
//!    reads [`Host::next_stream_item`] until [`StreamItem::End`]. Between two chunks the user
//!    may steer ([`StreamItem::Steer`], to be queued) or cancel/dispose ([`StreamItem::Cancel`],
//!    [`StreamItem::Dispose`]): the chunk delivered right after an interrupt is the chunk at
//!    which the implementation observes it, and it must not be recorded.
//! 3. It runs each tool call through [`Host::run_tool`], and under 2026-08 asks
//!    [`Host::request_error`] whether to retry a failed call.
//! 4. It records every durable event it appends to its session log with [`Host::append`]
//!    (it assigns `seq` itself) and every live event it emits: typed with
//!    [`HostExt::emit_event`], or by name and JSON payload with [`Host::emit_named`] when the
//!    loop's event bus names events by string. Both are judged exactly like an `emit` message of
//!    the stdio protocol, removed mirrors included.
//!
//! The same conversation is the stdio protocol's: each `Host` method is one message.
//!
//! # Drivers
//!
//! A [`Driver`] runs one case and returns the [`Observation`]. [`InProcess`] runs a Rust
//! [`AgentLoop`] against a [`Harness`]; an out-of-process driver translates the same calls into
//! JSON lines and feeds them to the same [`Harness`].

pub mod live;
mod script_needs;
pub use script_needs::over_limits;
#[cfg(feature = "tokio")]
pub mod tokio_bridge;

use crate::scenario::{Action, Case, InterruptKind, ModelCall};
use crate::vocab::Profile;
use crate::vocab::chunk::{ContentBlock, LlmFailure, StreamChunk};
use crate::vocab::durable::SessionEvent;
use crate::vocab::live::LiveEmit;
pub use live::{AgentStatus, Emit, LiveEvent};
use serde::Serialize;
use std::collections::VecDeque;

/// A user action delivered while the agent is idle.
#[derive(Debug, Clone, PartialEq)]
pub enum UserInput {
    /// `send(content)`: run a turn.
    Prompt {
        /// The prompt.
        content: Vec<ContentBlock>,
    },
    /// 2026-07 `inject(content)` while idle: a one-shot injection turn.
    Inject {
        /// The injected context.
        content: Vec<ContentBlock>,
    },
    /// `dispose()`: the agent goes away; no input follows.
    Dispose,
}

/// One item of an open model call, or something the user did while it streamed.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamItem {
    /// The next chunk of the model stream.
    Chunk(StreamChunk),
    /// The model adapter threw. Under 2026-07 the call has no `finish`; under 2026-08 the LLM
    /// runtime turns the throw into a recorded `finish {error}` chunk.
    Throw(LlmFailure),
    /// The user steered: queue the message for the next request.
    Steer {
        /// The steering message.
        content: Vec<ContentBlock>,
    },
    /// The user cancelled: the abort signal is now set.
    Cancel {
        /// The `cancel(reason)` string.
        reason: String,
    },
    /// The user disposed of the agent: the abort signal is set, and no input follows.
    Dispose,
    /// The call is over (after `finish`, a throw, or an interrupt). Reading on keeps
    /// returning `End`.
    End,
}

/// A tool call the implementation asks the harness to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolRequest {
    /// The call id.
    pub call_id: String,
    /// The tool name.
    pub name: String,
    /// The raw JSON arguments.
    pub arguments: String,
}

/// The harness's result for a tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolResult {
    /// The result text.
    pub content: String,
    /// Whether the tool failed.
    pub is_error: bool,
}

/// What an implementation under test talks to. Object safe; see the module docs for the
/// conversation.
pub trait Host {
    /// The profile the case runs under.
    fn profile(&self) -> Profile;
    /// The next user action while the agent is idle; `None` when the case is over.
    fn next_input(&mut self) -> Option<UserInput>;
    /// Opens a model call for the open `turn` and `step`.
    fn request_model(&mut self, turn: u64, step: u64);
    /// The next item of the open model call.
    fn next_stream_item(&mut self) -> StreamItem;
    /// Runs a tool call and returns its result.
    fn run_tool(&mut self, request: &ToolRequest) -> ToolResult;
    /// 2026-08 `agent/request-error`: whether to retry the failed call in the same step.
    fn request_error(&mut self, turn: u64, step: u64, failure: &LlmFailure) -> bool;
    /// Records a durable event the implementation appended to its session log.
    fn append(&mut self, event: SessionEvent);
    /// Records a live event the implementation emitted, by name (`agent/status`) and payload
    /// (the named fields without the agent, `null` for none), exactly as the stdio protocol's
    /// `emit` message does: any name is accepted and judged, so a removed mirror or an unknown
    /// name is reported (MIRROR-*, LIVE-*), never dropped. Use it when the loop's event bus
    /// names its events by string; report every live event it emits.
    fn emit_named(&mut self, event: &str, data: serde_json::Value);
    /// Records a typed live event; the same as [`Host::emit_named`] with its name and payload.
    fn emit(&mut self, event: LiveEvent) {
        self.emit_named(event.name(), event.data());
    }
}

/// Typed emission on any [`Host`].
pub trait HostExt: Host {
    /// Emits anything that is a current live event. The removed mirrors in [`live::removed`]
    /// do not compile here, and the error names their durable twin.
    fn emit_event<E: Emit>(&mut self, event: E) {
        self.emit(event.into_live_event());
    }
}

impl<H: Host + ?Sized> HostExt for H {}

/// An in-process implementation of the agent loop.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an agent loop: implement `mirrorless_conformance::driver::AgentLoop` for it",
    label = "the conformance suite drives this type",
    note = "`AgentLoop::new(profile)` creates a fresh agent per case; `AgentLoop::run(&mut self, host)` runs it against the harness"
)]
pub trait AgentLoop {
    /// Creates a fresh agent for one case under `profile`.
    fn new(profile: Profile) -> Self
    where
        Self: Sized;

    /// Runs the agent until [`Host::next_input`] returns `None` or the agent is disposed.
    /// An `Err` is an implementation crash: it is reported as such, with the log so far.
    fn run(&mut self, host: &mut dyn Host) -> Result<(), String>;
}

/// Something the harness saw that the implementation did, in order: the transcript of a case.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Exchange {
    /// A user action was delivered.
    Input {
        /// The action index in the script.
        action: usize,
        /// How many durable events had been recorded when it was delivered.
        at: u64,
    },
    /// A model call was opened.
    ModelRequest {
        /// The turn the implementation named.
        turn: u64,
        /// The step the implementation named.
        step: u64,
        /// The index of the served call within its prompt, or `None` if the script had none.
        call: Option<usize>,
        /// How many durable events had been recorded when it was requested.
        at: u64,
    },
    /// A chunk was delivered.
    Chunk {
        /// The chunk's index within its call.
        index: usize,
        /// How many durable events had been recorded when it was delivered.
        at: u64,
    },
    /// A tool was run.
    Tool {
        /// The call id.
        call_id: String,
        /// Whether the script had a result for it.
        scripted: bool,
    },
}

/// Everything an implementation did during one case.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Observation {
    /// The durable events it appended, in order.
    pub log: Vec<SessionEvent>,
    /// The live events it emitted, in order (`at` = log length at emission).
    pub live: Vec<LiveEmit>,
    /// The harness-side transcript.
    pub transcript: Vec<Exchange>,
    /// Set when the implementation crashed or returned an error.
    pub crash: Option<String>,
    /// Captured standard error of an out-of-process implementation.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stderr: String,
}

impl Observation {
    /// The indices of the script actions the harness delivered as inputs.
    pub fn delivered_actions(&self) -> std::collections::BTreeSet<usize> {
        self.transcript
            .iter()
            .filter_map(|x| match x {
                Exchange::Input { action, .. } => Some(*action),
                _ => None,
            })
            .collect()
    }
}

/// What one case may cost the harness at most. An implementation that loops (a failed call
/// retried forever, a tool run again and again) would otherwise make the harness hold an
/// ever-growing log and transcript until the case timeout; a limit reached ends the case with
/// a [`LimitExceeded`] fault instead, naming the limit. The defaults are far above what any
/// generated case needs (a few dozen calls and a few hundred events).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaseLimits {
    /// Model calls and tool runs the harness serves in one case (`--max-case-calls`).
    pub calls: u64,
    /// Durable and live events the implementation records in one case (`--max-case-events`).
    pub events: u64,
    /// Bytes of protocol messages an out-of-process implementation sends in one case
    /// (`--max-case-bytes`); an in-process loop hands over values, not bytes.
    pub bytes: u64,
}

impl CaseLimits {
    /// 1,000 calls, 100,000 events and 64 MiB per case.
    pub const DEFAULT: CaseLimits = CaseLimits {
        calls: 1_000,
        events: 100_000,
        bytes: 64 << 20,
    };
}

impl Default for CaseLimits {
    fn default() -> Self {
        CaseLimits::DEFAULT
    }
}

/// Which [`CaseLimits`] bound a case reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// [`CaseLimits::calls`].
    Calls,
    /// [`CaseLimits::events`].
    Events,
    /// [`CaseLimits::bytes`].
    Bytes,
}

/// A case reached one of its [`CaseLimits`]: the harness stopped serving it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitExceeded {
    /// The bound reached.
    pub limit: Limit,
    /// Its value.
    pub value: u64,
}

impl LimitExceeded {
    /// The command-line option that sets the limit.
    pub fn flag(&self) -> &'static str {
        match self.limit {
            Limit::Calls => "--max-case-calls",
            Limit::Events => "--max-case-events",
            Limit::Bytes => "--max-case-bytes",
        }
    }
}

impl std::fmt::Display for LimitExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (what, hint) = match self.limit {
            Limit::Calls => (
                "model calls and tool runs",
                "does it retry a failed call (or run a tool) forever? A call the harness refused to retry, or one the script does not have, must end the turn",
            ),
            Limit::Events => (
                "durable and live events",
                "does it record events in a loop?",
            ),
            Limit::Bytes => (
                "bytes of protocol messages",
                "does it write in a loop, or very large messages?",
            ),
        };
        write!(
            f,
            "it reached the case limit of {} {what} ({} {}): the harness stopped the case; {hint}",
            self.value,
            self.flag(),
            self.value
        )
    }
}

/// The harness side of one case: it plays the script and records what the implementation
/// does. It implements [`Host`] for in-process implementations; an out-of-process driver calls
/// the same methods as messages arrive, and [`Harness::record_live`] for raw live events.
#[derive(Debug)]
pub struct Harness<'c> {
    case: &'c Case,
    agent: String,
    next_action: usize,
    /// The calls of the current prompt and the next one to serve.
    calls: &'c [ModelCall],
    next_call: usize,
    /// The call served last (tool results and retry decisions refer to it).
    current: Option<&'c ModelCall>,
    pending: VecDeque<(StreamItem, Option<usize>)>,
    disposed: bool,
    obs: Observation,
    limits: CaseLimits,
    /// What the case has cost so far: calls served, events recorded, bytes received.
    spent: CaseLimits,
    exceeded: Option<LimitExceeded>,
    /// Unwind out of the implementation at a limit (in-process: a looping loop never
    /// returns by itself); an out-of-process driver checks [`Harness::exceeded`] instead.
    unwind: bool,
}

impl<'c> Harness<'c> {
    /// A harness for `case`; `agent` is the id live events are attributed to.
    pub fn new(case: &'c Case, agent: impl Into<String>) -> Self {
        Harness {
            case,
            agent: agent.into(),
            next_action: 0,
            calls: &[],
            next_call: 0,
            current: None,
            pending: VecDeque::new(),
            disposed: false,
            obs: Observation::default(),
            limits: CaseLimits::DEFAULT,
            spent: CaseLimits {
                calls: 0,
                events: 0,
                bytes: 0,
            },
            exceeded: None,
            unwind: false,
        }
    }

    /// Bounds what the case may cost (see [`CaseLimits`]).
    pub fn with_limits(mut self, limits: CaseLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The first limit the case reached, if any. Once one is reached, nothing more is
    /// recorded, so the observation stays bounded.
    pub fn exceeded(&self) -> Option<LimitExceeded> {
        self.exceeded
    }

    /// Counts `n` bytes of protocol messages received (out-of-process drivers).
    pub fn received_bytes(&mut self, n: usize) {
        self.spent.bytes = self.spent.bytes.saturating_add(n as u64);
        if self.spent.bytes > self.limits.bytes {
            self.reached(Limit::Bytes, self.limits.bytes);
        }
    }

    /// Counts one more of `limit`; false once the case is over its limits (nothing more is
    /// to be recorded).
    fn spend(&mut self, limit: Limit) -> bool {
        let (spent, max) = match limit {
            Limit::Calls => (&mut self.spent.calls, self.limits.calls),
            Limit::Events => (&mut self.spent.events, self.limits.events),
            Limit::Bytes => (&mut self.spent.bytes, self.limits.bytes),
        };
        *spent = spent.saturating_add(1);
        if *spent > max {
            self.reached(limit, max);
        }
        self.exceeded.is_none()
    }

    fn reached(&mut self, limit: Limit, value: u64) {
        let hit = *self.exceeded.get_or_insert(LimitExceeded { limit, value });
        if self.unwind {
            // Not a panic: no hook runs, and `InProcess::run_case` recognises the payload.
            std::panic::resume_unwind(Box::new(hit));
        }
    }

    /// Records a raw live event (out-of-process drivers, which receive names as strings).
    pub fn record_live(&mut self, mut emit: LiveEmit) {
        if !self.spend(Limit::Events) {
            return;
        }
        emit.at = Some(self.obs.log.len() as u64);
        self.obs.live.push(emit);
    }

    /// Records an implementation crash.
    pub fn record_crash(&mut self, message: impl Into<String>) {
        self.obs.crash = Some(message.into());
    }

    /// The observation so far.
    pub fn observation(&self) -> &Observation {
        &self.obs
    }

    /// Ends the case and returns what was observed.
    pub fn finish(self) -> Observation {
        self.obs
    }

    fn text(text: &str) -> Vec<ContentBlock> {
        vec![ContentBlock::text(text)]
    }
}

impl Host for Harness<'_> {
    fn profile(&self) -> Profile {
        self.case.profile
    }

    fn next_input(&mut self) -> Option<UserInput> {
        if self.disposed {
            return None;
        }
        let action = self.case.script.actions.get(self.next_action)?;
        self.obs.transcript.push(Exchange::Input {
            action: self.next_action,
            at: self.obs.log.len() as u64,
        });
        self.next_action += 1;
        self.pending.clear();
        Some(match action {
            Action::Prompt { text, calls } => {
                self.calls = calls;
                self.next_call = 0;
                self.current = None;
                UserInput::Prompt {
                    content: Self::text(text),
                }
            }
            Action::Inject { text } => UserInput::Inject {
                content: Self::text(text),
            },
            Action::Dispose => {
                self.disposed = true;
                UserInput::Dispose
            }
        })
    }

    fn request_model(&mut self, turn: u64, step: u64) {
        self.pending.clear();
        if !self.spend(Limit::Calls) {
            // Over the limit: the call ends at once, and nothing more is recorded.
            self.pending.push_back((StreamItem::End, None));
            return;
        }
        let index = self.next_call;
        let Some(call) = self.calls.get(index) else {
            self.obs.transcript.push(Exchange::ModelRequest {
                turn,
                step,
                call: None,
                at: self.obs.log.len() as u64,
            });
            self.pending.push_back((
                StreamItem::Throw(LlmFailure {
                    message:
                        "mirrorless: the script has no model call here (the turn should have ended)"
                            .into(),
                    code: UNSCRIPTED_CALL.into(),
                    extra: Default::default(),
                }),
                None,
            ));
            self.pending.push_back((StreamItem::End, None));
            return;
        };
        self.obs.transcript.push(Exchange::ModelRequest {
            turn,
            step,
            call: Some(index),
            at: self.obs.log.len() as u64,
        });
        self.next_call += 1;
        self.current = Some(call);
        for (i, chunk) in call.chunks.iter().enumerate() {
            self.pending
                .push_back((StreamItem::Chunk(chunk.clone()), Some(i)));
            for s in call.steer.iter().filter(|s| s.after == i) {
                self.pending.push_back((
                    StreamItem::Steer {
                        content: Self::text(&s.text),
                    },
                    None,
                ));
            }
            if let Some(interrupt) = call.interrupt.filter(|x| x.after == i) {
                self.pending.push_back((
                    match interrupt.kind {
                        InterruptKind::Cancel => StreamItem::Cancel {
                            reason: "cancelled".into(),
                        },
                        InterruptKind::Dispose => StreamItem::Dispose,
                    },
                    None,
                ));
                if let Some(next) = call.chunks.get(i + 1) {
                    self.pending
                        .push_back((StreamItem::Chunk(next.clone()), Some(i + 1)));
                }
                self.pending.push_back((StreamItem::End, None));
                if interrupt.kind == InterruptKind::Dispose {
                    self.disposed = true;
                }
                return;
            }
        }
        if let Some(failure) = &call.throw {
            self.pending
                .push_back((StreamItem::Throw(failure.clone()), None));
        }
        self.pending.push_back((StreamItem::End, None));
    }

    fn next_stream_item(&mut self) -> StreamItem {
        match self.pending.pop_front() {
            Some((item, chunk_index)) => {
                if let Some(index) = chunk_index {
                    self.obs.transcript.push(Exchange::Chunk {
                        index,
                        at: self.obs.log.len() as u64,
                    });
                }
                item
            }
            None => StreamItem::End,
        }
    }

    fn run_tool(&mut self, request: &ToolRequest) -> ToolResult {
        if !self.spend(Limit::Calls) {
            return ToolResult {
                content: format!(
                    "mirrorless: {}",
                    self.exceeded.map(|e| e.to_string()).unwrap_or_default()
                ),
                is_error: true,
            };
        }
        let scripted = self
            .current
            .and_then(|c| c.tools.iter().find(|t| t.call_id == request.call_id));
        self.obs.transcript.push(Exchange::Tool {
            call_id: request.call_id.clone(),
            scripted: scripted.is_some(),
        });
        match scripted {
            Some(t) => ToolResult {
                content: t.content.clone(),
                is_error: t.is_error,
            },
            None => ToolResult {
                content: format!(
                    "mirrorless: the model made no tool call `{}` here",
                    request.call_id
                ),
                is_error: true,
            },
        }
    }

    fn request_error(&mut self, _turn: u64, _step: u64, _failure: &LlmFailure) -> bool {
        self.case.profile == Profile::V2026_08 && self.current.is_some_and(|c| c.retry)
    }

    fn append(&mut self, event: SessionEvent) {
        if self.spend(Limit::Events) {
            self.obs.log.push(event);
        }
    }

    fn emit_named(&mut self, event: &str, data: serde_json::Value) {
        // The stdio driver's path: one way for a live event into the observation.
        let agent = Some(self.agent.clone());
        self.record_live(LiveEmit {
            event: event.to_owned(),
            agent,
            data,
            at: None,
        });
    }
}

/// The failure code of the throw that answers a model request the script has no call for.
pub const UNSCRIPTED_CALL: &str = "UNSCRIPTED_CALL";

/// The id of the agent a case creates: the drivers name it (the stdio `case` message's
/// `agent`), and its live events are attributed to it (LIVE-4).
pub const CASE_AGENT: &str = "agent-1";

/// A fault of the harness itself (never reported as an implementation failure).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("harness error: {0}")]
pub struct HarnessError(pub String);

/// Runs cases against one implementation.
pub trait Driver {
    /// A short name of the implementation, for reports.
    fn name(&self) -> String;
    /// Who the implementation is, as its `hello` says (for an in-process loop: its name);
    /// reports carry it so that a matrix of runs can name each implementation.
    fn hello(&self) -> crate::stdio::message::Implementation {
        crate::stdio::message::Implementation {
            name: self.name(),
            ..Default::default()
        }
    }
    /// The replay command line for a saved case file, e.g.
    /// `mirrorless replay CASE -- python3 impl.py`.
    fn replay_command(&self, case_file: &str) -> String;
    /// Runs one case and returns what the implementation did. An implementation crash is an
    /// `Ok` observation with [`Observation::crash`] set; `Err` is a harness fault.
    fn run_case(&mut self, case: &Case) -> Result<Observation, HarnessError>;
    /// An independent driver for the same implementation, to run cases on another thread;
    /// `None` if the driver cannot be duplicated (the runner then runs cases one by one).
    fn fork(&self) -> Option<Box<dyn Driver + Send>> {
        None
    }
    /// Whether the driver can run further cases after [`Driver::run_case`] returned a
    /// [`HarnessError`] (an out-of-process implementation is restarted, within its restart
    /// budget). The runner records the fault and goes on when this is true, and ends the run
    /// with the report of what ran otherwise.
    fn recovers(&self) -> bool {
        false
    }
    /// Ends the implementation after the run's last case. An out-of-process implementation
    /// is sent `shutdown` and must then exit with status 0; `Err` is the fault when it exited
    /// otherwise. A later [`Driver::run_case`] starts it afresh.
    fn shutdown(&mut self) -> Result<(), HarnessError> {
        Ok(())
    }
}

/// The factory of an in-process driver: a fresh agent per case.
pub type LoopFactory = std::sync::Arc<dyn Fn(Profile) -> Box<dyn AgentLoop> + Send + Sync>;

/// Runs an in-process [`AgentLoop`] built by a factory. It forks (one agent per thread), so
/// the runner can use every core.
#[derive(Clone)]
pub struct InProcess {
    name: String,
    factory: LoopFactory,
    limits: CaseLimits,
    /// How to replay a case file, with `{case}` for its path.
    replay: String,
}

impl InProcess {
    /// A driver named `name` whose agents come from `factory`.
    pub fn new(
        name: impl Into<String>,
        factory: impl Fn(Profile) -> Box<dyn AgentLoop> + Send + Sync + 'static,
    ) -> Self {
        InProcess {
            name: name.into(),
            factory: std::sync::Arc::new(factory),
            limits: CaseLimits::DEFAULT,
            replay: "mirrorless replay {case}".to_owned(),
        }
    }

    /// Bounds what one case may cost (see [`CaseLimits`]); a loop that reaches a limit is
    /// unwound out of and the case is a [`HarnessError`] naming the limit.
    pub fn with_limits(mut self, limits: CaseLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets the replay command shown in reports; `{case}` stands for the case file. The
    /// default, `mirrorless replay {case}`, replays against the embedded reference
    /// implementation.
    pub fn with_replay_command(mut self, template: impl Into<String>) -> Self {
        self.replay = template.into();
        self
    }
}

/// The in-process driver of an [`AgentLoop`] type.
pub fn in_process<L: AgentLoop + 'static>(name: impl Into<String>) -> InProcess {
    InProcess::new(name, |p| Box::new(L::new(p)) as Box<dyn AgentLoop>)
}

impl Driver for InProcess {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn replay_command(&self, case_file: &str) -> String {
        self.replay.replace("{case}", case_file)
    }

    fn run_case(&mut self, case: &Case) -> Result<Observation, HarnessError> {
        if let Some(why) = over_limits(case, &self.limits, false) {
            return Err(HarnessError(why));
        }
        let mut agent = (self.factory)(case.profile);
        let mut harness = Harness::new(case, CASE_AGENT).with_limits(self.limits);
        harness.unwind = true;
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| agent.run(&mut harness)));
        if let Some(hit) = harness.exceeded() {
            // Reached in the loop's own code or caught by it: either way the case is over.
            return Err(HarnessError(format!(
                "the implementation `{}` failed in case {} (profile {}): {hit}",
                self.name,
                case.id(),
                case.profile
            )));
        }
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                harness.record_crash(format!("the implementation returned an error: {e}"))
            }
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic with a non-string payload".into());
                harness.record_crash(format!("the implementation panicked: {msg}"));
            }
        }
        Ok(harness.finish())
    }

    fn fork(&self) -> Option<Box<dyn Driver + Send>> {
        Some(Box::new(self.clone()))
    }

    /// Every case gets a fresh agent: after a case that reached a limit the next one runs.
    fn recovers(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Script;
    use serde_json::json;

    /// A loop that asks for a model call again and again, whatever the harness answers.
    struct RetriesForever;

    impl AgentLoop for RetriesForever {
        fn new(_: Profile) -> Self {
            RetriesForever
        }

        fn run(&mut self, host: &mut dyn Host) -> Result<(), String> {
            host.next_input();
            loop {
                host.request_model(1, 1);
                while host.next_stream_item() != StreamItem::End {}
                host.append(event("llm/retry"));
            }
        }
    }

    fn event(kind: &str) -> SessionEvent {
        SessionEvent {
            kind: kind.into(),
            seq: None,
            time: None,
            data: serde_json::json!({"turn": 1, "step": 1}),
            surface_op: None,
            source_event_seqs: None,
            ignorable: None,
        }
    }

    fn one_prompt() -> Case {
        Case {
            profile: Profile::V2026_08,
            script: Script {
                actions: vec![Action::Prompt {
                    text: "prompt 1".into(),
                    calls: Vec::new(),
                }],
            },
        }
    }

    #[test]
    fn an_in_process_loop_that_never_stops_calling_ends_at_the_call_limit() {
        let limits = CaseLimits {
            calls: 50,
            ..CaseLimits::DEFAULT
        };
        let mut driver = in_process::<RetriesForever>("retries-forever").with_limits(limits);
        let e = driver
            .run_case(&one_prompt())
            .expect_err("the case ends as a fault");
        assert!(
            e.0.contains(
                "it reached the case limit of 50 model calls and tool runs (--max-case-calls 50)"
            ),
            "{e}"
        );
        assert!(driver.recovers(), "the next case gets a fresh agent");
    }

    #[test]
    fn a_harness_over_its_event_limit_records_no_more() {
        let case = one_prompt();
        let limits = CaseLimits {
            events: 3,
            ..CaseLimits::DEFAULT
        };
        let mut harness = Harness::new(&case, "agent-1").with_limits(limits);
        for _ in 0..10 {
            harness.append(event("turn/start"));
        }
        assert_eq!(harness.observation().log.len(), 3);
        let hit = harness.exceeded().expect("the limit is reached");
        assert_eq!(
            (hit.limit, hit.value, hit.flag()),
            (Limit::Events, 3, "--max-case-events")
        );
    }

    #[test]
    fn an_event_emitted_by_name_is_recorded_as_a_stdio_emit_is() {
        let case = Case {
            profile: Profile::V2026_08,
            script: Script::default(),
        };
        let turn_start = SessionEvent {
            kind: "turn/start".into(),
            seq: Some(0),
            time: None,
            data: json!({ "turn": 1 }),
            surface_op: None,
            source_event_seqs: None,
            ignorable: None,
        };
        let data = json!({ "turn": 1 });
        let mut inproc = Harness::new(&case, "agent-1");
        inproc.append(turn_start.clone());
        // mirrorless: allow(ML002) the test records a removed mirror by name on purpose
        inproc.emit_named("agent/turn-start", data.clone());
        inproc.emit(LiveEvent::Status(AgentStatus::Running));
        // The stdio driver's path for the same two `emit` messages.
        let mut stdio = Harness::new(&case, "agent-1");
        stdio.append(turn_start);
        for (event, data) in [
            // mirrorless: allow(ML004) the same removed mirror, as a stdio `emit` names it
            ("agent/turn-start", data),
            ("agent/status", json!({ "status": "running" })),
        ] {
            stdio.record_live(LiveEmit {
                event: event.into(),
                agent: Some("agent-1".into()),
                data,
                at: None,
            });
        }
        assert_eq!(inproc.finish().live, stdio.finish().live);
    }
}
