//! The messages of `mirrorless-stdio/1`, one type per direction.
//!
//! Every message is one JSON object on one line, discriminated by `type`. The normative
//! description, with a transcript, is `docs/protocol/stdio.md`; the JSON Schemas are under
//! `docs/schemas/stdio/`. These types are the Rust side of the same shapes.

use crate::vocab::Profile;
use crate::vocab::chunk::{ContentBlock, LlmFailure, StreamChunk};
use crate::vocab::durable::SessionEvent;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The direction of a protocol line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Harness → implementation (its stdin).
    ToImplementation,
    /// Implementation → harness (its stdout).
    ToHarness,
}

/// A message the harness writes to the implementation's standard input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ToImplementation {
    /// The first message: the protocol the harness speaks and the profiles it may run.
    Hello {
        /// Always [`PROTOCOL`](super::PROTOCOL).
        protocol: String,
        /// The mirrorless version.
        suite: String,
        /// The profiles the harness may start cases under.
        profiles: Vec<Profile>,
    },
    /// Starts a case: the implementation discards all state and creates a fresh agent.
    Case {
        /// The content-hash id of the case (for the implementation's own logs).
        id: String,
        /// The profile the case runs under.
        profile: Profile,
        /// The agent id the harness attributes live events to.
        agent: String,
    },
    /// The answer to `next-input`: the next user action.
    Input {
        /// The action.
        input: Input,
    },
    /// The answer to `request-model`: every item of the model call, in delivery order.
    Stream {
        /// The items; the stream ends after the last one.
        items: Vec<Item>,
    },
    /// The answer to `run-tool`.
    #[serde(rename_all = "camelCase")]
    ToolResult {
        /// The call id the result answers.
        call_id: String,
        /// The result text.
        content: String,
        /// Whether the tool failed.
        is_error: bool,
    },
    /// The answer to `request-error`: whether to retry the failed call in the same step.
    Retry {
        /// `true`: start a new model call in the same step; `false`: the turn ends `error`.
        retry: bool,
    },
    /// No more cases: exit with status 0.
    Shutdown,
}

impl ToImplementation {
    /// The message's `type`, for reports.
    pub fn kind(&self) -> &'static str {
        match self {
            ToImplementation::Hello { .. } => "hello",
            ToImplementation::Case { .. } => "case",
            ToImplementation::Input { .. } => "input",
            ToImplementation::Stream { .. } => "stream",
            ToImplementation::ToolResult { .. } => "tool-result",
            ToImplementation::Retry { .. } => "retry",
            ToImplementation::Shutdown => "shutdown",
        }
    }
}

/// A user action, the payload of an `input` message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Input {
    /// `send(content)`: run a turn.
    Prompt {
        /// The prompt.
        content: Vec<ContentBlock>,
    },
    /// 2026-07 `inject(content)` while idle: a one-shot injection turn with no step.
    Inject {
        /// The injected context.
        content: Vec<ContentBlock>,
    },
    /// `dispose()` while idle: the agent goes away.
    Dispose,
    /// The case is over: the implementation sends `done`.
    End,
}

/// One item of a model call's stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Item {
    /// The model delivers a chunk.
    Chunk {
        /// The chunk, verbatim.
        chunk: StreamChunk,
    },
    /// The model adapter throws (always the last item).
    Throw {
        /// The failure.
        failure: LlmFailure,
    },
    /// The user steers: queue the message for the next request.
    Steer {
        /// The steering message.
        content: Vec<ContentBlock>,
    },
    /// The user cancels: the abort signal is set from here on.
    Cancel {
        /// The `cancel(reason)` string.
        reason: String,
    },
    /// The user disposes of the agent: the abort signal is set, and the case ends after the
    /// turn.
    Dispose,
}

/// Who the implementation is, from its `hello`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Implementation {
    /// A short name, e.g. `reference-py`.
    #[serde(default)]
    pub name: String,
    /// Its version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The language it is written in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Where to report its bugs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homepage: Option<String>,
}

impl Implementation {
    /// Each field cut to what a report keeps of it ([`clip_name`](crate::check::clip_name)):
    /// the identity is taken from the `hello` this way, so no report carries more of it.
    pub fn clipped(mut self) -> Implementation {
        crate::check::clip_name(&mut self.name);
        self.version
            .iter_mut()
            .chain(self.language.iter_mut())
            .chain(self.homepage.iter_mut())
            .for_each(crate::check::clip_name);
        self
    }
}

/// A message the implementation writes to its standard output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ToHarness {
    /// The answer to the harness's `hello`.
    Hello {
        /// The protocol the implementation speaks; must equal the harness's.
        protocol: String,
        /// Who the implementation is.
        #[serde(default)]
        implementation: Implementation,
        /// The profiles it implements (the harness only starts cases under these).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        profiles: Option<Vec<String>>,
    },
    /// A durable event was appended to the session log (`Host::append`).
    Append {
        /// The event, with the `seq` the implementation assigned.
        event: SessionEvent,
    },
    /// A live event was emitted (`Host::emit_named`, or `Host::emit` for a typed one).
    Emit {
        /// The live event name, e.g. `agent/status`.
        event: String,
        /// The agent it is about; the case's agent when omitted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        agent: Option<String>,
        /// The named payload fields, without the agent.
        #[serde(default, skip_serializing_if = "Value::is_null")]
        data: Value,
    },
    /// The agent is idle and asks for the next user action; answered by `input`.
    NextInput,
    /// The agent opens a model call; answered by `stream`.
    RequestModel {
        /// The open turn.
        turn: u64,
        /// The open step.
        step: u64,
    },
    /// The agent runs a tool call; answered by `tool-result`.
    #[serde(rename_all = "camelCase")]
    RunTool {
        /// The call id.
        call_id: String,
        /// The tool name.
        name: String,
        /// The raw JSON arguments string.
        arguments: String,
    },
    /// 2026-08 `agent/request-error`: a model call failed; answered by `retry`.
    RequestError {
        /// The open turn.
        turn: u64,
        /// The open step.
        step: u64,
        /// The failure.
        failure: LlmFailure,
    },
    /// The agent's run for this case is over.
    Done,
    /// The agent loop threw: the case ends and is reported as an implementation crash.
    Crash {
        /// What went wrong.
        message: String,
    },
}

impl ToHarness {
    /// The `type` tag of the message.
    pub fn type_name(&self) -> &'static str {
        match self {
            ToHarness::Hello { .. } => "hello",
            ToHarness::Append { .. } => "append",
            ToHarness::Emit { .. } => "emit",
            ToHarness::NextInput => "next-input",
            ToHarness::RequestModel { .. } => "request-model",
            ToHarness::RunTool { .. } => "run-tool",
            ToHarness::RequestError { .. } => "request-error",
            ToHarness::Done => "done",
            ToHarness::Crash { .. } => "crash",
        }
    }
}

/// The `type` tags an implementation may send, for error messages.
pub const TO_HARNESS_TYPES: &[&str] = &[
    "hello",
    "append",
    "emit",
    "next-input",
    "request-model",
    "run-tool",
    "request-error",
    "done",
    "crash",
];

/// The `type` tags the harness sends.
pub const TO_IMPLEMENTATION_TYPES: &[&str] = &[
    "hello",
    "case",
    "input",
    "stream",
    "tool-result",
    "retry",
    "shutdown",
];

/// Parses one line from the implementation, with an error that says what is wrong in terms
/// of the protocol (not JSON, no `type`, unknown `type`, a bad field).
pub fn parse_to_harness(line: &str) -> Result<ToHarness, String> {
    match serde_json::from_str::<ToHarness>(line) {
        Ok(m) => Ok(m),
        Err(typed) => {
            let value: Value =
                serde_json::from_str(line).map_err(|e| format!("not a JSON value ({e})"))?;
            let Some(obj) = value.as_object() else {
                return Err("not a JSON object".into());
            };
            match obj.get("type").and_then(Value::as_str) {
                None => Err("the object has no string `type`".into()),
                Some(t) if !TO_HARNESS_TYPES.contains(&t) => Err(format!(
                    "unknown message type `{t}` (an implementation sends one of: {})",
                    TO_HARNESS_TYPES.join(", ")
                )),
                Some(t) => Err(format!("malformed `{t}` message: {typed}")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_have_the_documented_shape() {
        let m = ToImplementation::ToolResult {
            call_id: "c1".into(),
            content: "ok".into(),
            is_error: false,
        };
        assert_eq!(
            serde_json::to_string(&m).unwrap_or_default(),
            r#"{"type":"tool-result","callId":"c1","content":"ok","isError":false}"#
        );
        let m = ToImplementation::Input { input: Input::End };
        assert_eq!(
            serde_json::to_string(&m).unwrap_or_default(),
            r#"{"type":"input","input":{"kind":"end"}}"#
        );
        let parsed = parse_to_harness(r#"{"type":"request-model","turn":1,"step":2}"#);
        assert_eq!(parsed, Ok(ToHarness::RequestModel { turn: 1, step: 2 }));
    }

    #[test]
    fn parse_errors_name_the_problem() {
        let e = |l: &str| parse_to_harness(l).err().unwrap_or_default();
        assert!(e("{\"type\":\"app").starts_with("not a JSON value"));
        assert_eq!(e("[1]"), "not a JSON object");
        assert_eq!(e("{\"t\":1}"), "the object has no string `type`");
        assert!(e("{\"type\":\"chunk\"}").starts_with("unknown message type `chunk`"));
        assert!(
            e("{\"type\":\"request-model\",\"turn\":\"1\"}")
                .starts_with("malformed `request-model`")
        );
    }
}
