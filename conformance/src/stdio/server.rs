//! The implementation side of the protocol for Rust: serves any in-process [`AgentLoop`]
//! over standard input and output. `mirrorless reference-impl --stdio` uses it to run the
//! reference implementation as a subprocess (the stdio benchmark), and a Rust implementation
//! can use it to be tested over the same wire as every other language.

use super::PROTOCOL;
use super::message::{Implementation, Input, Item, ToHarness, ToImplementation};
use crate::driver::{AgentLoop, Host, StreamItem, ToolRequest, ToolResult, UserInput};
use crate::vocab::Profile;
use crate::vocab::chunk::LlmFailure;
use crate::vocab::durable::SessionEvent;
use std::collections::VecDeque;
use std::io::{BufRead, Write};

/// The [`Host`] of one case, backed by the protocol streams.
struct WireHost<'a, R, W> {
    input: &'a mut R,
    output: &'a mut W,
    profile: Profile,
    agent: String,
    items: VecDeque<Item>,
    line: String,
    buf: Vec<u8>,
    /// The first wire failure; once set, the host answers so that the loop winds down.
    failed: Option<String>,
}

impl<R: BufRead, W: Write> WireHost<'_, R, W> {
    fn send(&mut self, msg: &ToHarness) {
        if self.failed.is_some() {
            return;
        }
        self.buf.clear();
        let r = serde_json::to_writer(&mut self.buf, msg)
            .map_err(|e| e.to_string())
            .and_then(|()| {
                self.buf.push(b'\n');
                self.output.write_all(&self.buf).map_err(|e| e.to_string())
            });
        if let Err(e) = r {
            self.failed = Some(format!("writing to stdout failed: {e}"));
        }
    }

    /// Sends a request and reads its answer.
    fn ask(&mut self, msg: &ToHarness) -> Option<ToImplementation> {
        self.send(msg);
        if self.failed.is_some() {
            return None;
        }
        if let Err(e) = self.output.flush() {
            self.failed = Some(format!("writing to stdout failed: {e}"));
            return None;
        }
        match read_message(self.input, &mut self.line) {
            Ok(Some(m)) => Some(m),
            Ok(None) => {
                self.failed = Some("stdin closed in the middle of a case".into());
                None
            }
            Err(e) => {
                self.failed = Some(e);
                None
            }
        }
    }

    fn unexpected(&mut self, wanted: &str, got: Option<ToImplementation>) {
        if self.failed.is_none() {
            self.failed = Some(format!("expected `{wanted}`, got {got:?}"));
        }
    }
}

impl<R: BufRead, W: Write> Host for WireHost<'_, R, W> {
    fn profile(&self) -> Profile {
        self.profile
    }

    fn next_input(&mut self) -> Option<UserInput> {
        match self.ask(&ToHarness::NextInput) {
            Some(ToImplementation::Input { input }) => match input {
                Input::Prompt { content } => Some(UserInput::Prompt { content }),
                Input::Inject { content } => Some(UserInput::Inject { content }),
                Input::Dispose => Some(UserInput::Dispose),
                Input::End => None,
            },
            other => {
                self.unexpected("input", other);
                None
            }
        }
    }

    fn request_model(&mut self, turn: u64, step: u64) {
        self.items.clear();
        match self.ask(&ToHarness::RequestModel { turn, step }) {
            Some(ToImplementation::Stream { items }) => self.items = items.into(),
            other => self.unexpected("stream", other),
        }
    }

    fn next_stream_item(&mut self) -> StreamItem {
        match self.items.pop_front() {
            Some(Item::Chunk { chunk }) => StreamItem::Chunk(chunk),
            Some(Item::Throw { failure }) => StreamItem::Throw(failure),
            Some(Item::Steer { content }) => StreamItem::Steer { content },
            Some(Item::Cancel { reason }) => StreamItem::Cancel { reason },
            Some(Item::Dispose) => StreamItem::Dispose,
            None => StreamItem::End,
        }
    }

    fn run_tool(&mut self, request: &ToolRequest) -> ToolResult {
        let msg = ToHarness::RunTool {
            call_id: request.call_id.clone(),
            name: request.name.clone(),
            arguments: request.arguments.clone(),
        };
        match self.ask(&msg) {
            Some(ToImplementation::ToolResult {
                content, is_error, ..
            }) => ToolResult { content, is_error },
            other => {
                self.unexpected("tool-result", other);
                ToolResult {
                    content: "the harness did not answer".into(),
                    is_error: true,
                }
            }
        }
    }

    fn request_error(&mut self, turn: u64, step: u64, failure: &LlmFailure) -> bool {
        let msg = ToHarness::RequestError {
            turn,
            step,
            failure: failure.clone(),
        };
        match self.ask(&msg) {
            Some(ToImplementation::Retry { retry }) => retry,
            other => {
                self.unexpected("retry", other);
                false
            }
        }
    }

    fn append(&mut self, event: SessionEvent) {
        self.send(&ToHarness::Append { event });
    }

    fn emit_named(&mut self, event: &str, data: serde_json::Value) {
        self.send(&ToHarness::Emit {
            event: event.to_owned(),
            agent: Some(self.agent.clone()),
            data,
        });
    }
}

fn read_message(
    input: &mut impl BufRead,
    line: &mut String,
) -> Result<Option<ToImplementation>, String> {
    loop {
        line.clear();
        let n = input
            .read_line(line)
            .map_err(|e| format!("reading stdin failed: {e}"))?;
        if n == 0 {
            return Ok(None);
        }
        if line.trim().is_empty() {
            continue;
        }
        return serde_json::from_str(line.trim_end())
            .map(Some)
            .map_err(|e| format!("not a harness message ({e}): {}", line.trim_end()));
    }
}

/// Serves agents built by `factory` over the protocol until `shutdown` or end of input.
/// `Err` is a protocol failure (the caller should print it to stderr and exit non-zero).
pub fn serve<R: BufRead, W: Write>(
    mut input: R,
    mut output: W,
    implementation: Implementation,
    factory: &mut dyn FnMut(Profile) -> Box<dyn AgentLoop>,
) -> Result<(), String> {
    let mut line = String::new();
    let write = |output: &mut W, msg: &ToHarness| -> Result<(), String> {
        let mut bytes = serde_json::to_vec(msg).map_err(|e| e.to_string())?;
        bytes.push(b'\n');
        output
            .write_all(&bytes)
            .and_then(|()| output.flush())
            .map_err(|e| format!("writing to stdout failed: {e}"))
    };
    match read_message(&mut input, &mut line)? {
        Some(ToImplementation::Hello { protocol, .. }) if protocol == PROTOCOL => {}
        Some(ToImplementation::Hello { protocol, .. }) => {
            // Answer with what we speak so the harness can say so, then stop.
            write(
                &mut output,
                &ToHarness::Hello {
                    protocol: PROTOCOL.into(),
                    implementation,
                    profiles: Some(Profile::ALL.iter().map(|p| p.name().to_owned()).collect()),
                },
            )?;
            return Err(format!(
                "the harness speaks `{protocol}`, this implementation `{PROTOCOL}`"
            ));
        }
        Some(other) => return Err(format!("expected `hello` first, got {other:?}")),
        None => return Ok(()),
    }
    write(
        &mut output,
        &ToHarness::Hello {
            protocol: PROTOCOL.into(),
            implementation,
            profiles: Some(Profile::ALL.iter().map(|p| p.name().to_owned()).collect()),
        },
    )?;
    loop {
        match read_message(&mut input, &mut line)? {
            None | Some(ToImplementation::Shutdown) => return Ok(()),
            Some(ToImplementation::Case { profile, agent, .. }) => {
                let mut host = WireHost {
                    input: &mut input,
                    output: &mut output,
                    profile,
                    agent,
                    items: VecDeque::new(),
                    line: String::new(),
                    buf: Vec::with_capacity(512),
                    failed: None,
                };
                let mut agent_loop = factory(profile);
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    agent_loop.run(&mut host)
                }));
                if let Some(e) = host.failed.take() {
                    return Err(e);
                }
                let end = match outcome {
                    Ok(Ok(())) => ToHarness::Done,
                    Ok(Err(message)) => ToHarness::Crash { message },
                    Err(_) => ToHarness::Crash {
                        message: "the agent loop panicked".into(),
                    },
                };
                write(&mut output, &end)?;
            }
            Some(other) => return Err(format!("expected `case` or `shutdown`, got {other:?}")),
        }
    }
}
