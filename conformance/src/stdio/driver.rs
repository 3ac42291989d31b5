//! The stdio [`Driver`]: runs cases against an implementation in another process, in any
//! language, over `mirrorless-stdio/1`.
//!
//! One persistent process serves every case (a `case` message resets it). The driver maps
//! the implementation's requests 1:1 onto the same [`Harness`] the in-process driver uses, so
//! both drivers play a case identically. Everything the process does wrong at the protocol
//! level — it exits, hangs, writes something that is not a protocol message, speaks another
//! protocol version — is a [`HarnessError`] naming the case, the last lines exchanged and
//! the stderr tail; the process is stopped and started afresh for the next case.

use super::PROTOCOL;
use super::disposal::Disposal;
use super::message::{
    Direction, Implementation, Input, Item, ToHarness, ToImplementation, parse_to_harness,
};
use super::process::{Process, Read1, WaitError, WriteError};
use super::schema::Validator;
use super::text::{preview, secs, shell_quote, tail_chars};
use crate::driver::{
    CaseLimits, Driver, Harness, HarnessError, Host, Observation, StreamItem, UserInput,
};
use crate::scenario::Case;
use crate::stop::{Stop, StopReason, deadline_after};
use crate::vocab::Profile;
use crate::vocab::live::LiveEmit;
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How the stdio driver runs an implementation.
#[derive(Debug, Clone, PartialEq)]
pub struct StdioConfig {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// How long the process may take to answer `hello`.
    pub startup_timeout: Duration,
    /// How long the harness waits for the implementation's next message during a case.
    pub message_timeout: Duration,
    /// How long one case may take in total.
    pub case_timeout: Duration,
    /// How many bytes of standard error are kept (the tail).
    pub stderr_limit: usize,
    /// How many times, in the whole run, a process is restarted after a fault before the
    /// driver gives up (forks share the budget).
    pub max_restarts: u32,
    /// Validate every message, in both directions, against the protocol's JSON Schemas.
    pub validate: bool,
    /// What one case may cost: calls served, events recorded, bytes received.
    pub limits: CaseLimits,
    /// Ends every wait early when the run is stopped (a signal, `--run-timeout`).
    pub stop: Stop,
}

impl StdioConfig {
    /// The defaults for `command`: 10 s startup, 5 s per message, 30 s per case, 64 KiB of
    /// stderr, 10 restarts, no schema validation, [`CaseLimits::DEFAULT`].
    pub fn new(command: Vec<String>) -> StdioConfig {
        StdioConfig {
            command,
            startup_timeout: Duration::from_secs(10),
            message_timeout: Duration::from_secs(5),
            case_timeout: Duration::from_secs(30),
            stderr_limit: 64 << 10,
            max_restarts: 10,
            validate: false,
            limits: CaseLimits::DEFAULT,
            stop: Stop::never(),
        }
    }
}

/// A callback that sees every protocol line, for tests and debugging.
pub type Tap = Box<dyn FnMut(Direction, &str) + Send>;

/// How many lines the fault report shows.
const TRANSCRIPT_LINES: usize = 10;
/// How much of a long line the fault report shows.
const LINE_PREVIEW: usize = 300;
/// How many characters of the case's JSON a fault report shows.
const CASE_PREVIEW: usize = 8 << 10;
/// How much stderr the fault report shows.
const STDERR_PREVIEW: usize = 4 << 10;

/// Runs cases over the stdio protocol.
pub struct StdioDriver {
    config: StdioConfig,
    process: Option<Process>,
    /// After a fault: `Some(n)` when the next start is restart `n` of the budget, `None` when
    /// no restart was left. `Ok(())` while no fault needs a restart.
    restart: Result<(), Option<u32>>,
    /// Restarts reserved so far (one per fault), shared with forks.
    restarts: Arc<AtomicU32>,
    /// Restarts of this process alone (its faults), which its reports count.
    own_restarts: u32,
    /// This process's number in the run: 1 for the first, then each fork's.
    process_no: u32,
    /// Processes started so far, shared with forks (numbers them).
    processes: Arc<AtomicU32>,

    implementation: Implementation,
    profiles: Option<Vec<String>>,
    recent: VecDeque<(Direction, String)>,
    validator: Option<Validator>,
    tap: Option<Tap>,
    buf: Vec<u8>,
}

/// A fault during a case, before it is turned into a report. After any fault the process is
/// stopped: its state is unknown.
struct Fault {
    what: String,
    /// Set when the fault is the run being stopped, not the implementation's doing.
    stopped: Option<StopReason>,
}

impl StdioDriver {
    /// Starts the implementation and performs the `hello` handshake.
    pub fn start(config: StdioConfig) -> Result<StdioDriver, HarnessError> {
        let validator = if config.validate {
            Some(Validator::protocol().map_err(|e| {
                HarnessError(format!(
                    "the protocol schemas do not load (a mirrorless bug): {e}"
                ))
            })?)
        } else {
            None
        };
        let mut d = StdioDriver {
            config,
            process: None,
            restart: Ok(()),
            restarts: Arc::new(AtomicU32::new(0)),
            own_restarts: 0,
            process_no: 1,
            processes: Arc::new(AtomicU32::new(1)),
            implementation: Implementation::default(),
            profiles: None,
            recent: VecDeque::new(),
            validator,
            tap: None,
            buf: Vec::with_capacity(4096),
        };
        d.ensure_started(true)?;
        Ok(d)
    }

    /// Installs a callback that sees every protocol line.
    pub fn set_tap(&mut self, tap: Tap) {
        self.tap = Some(tap);
    }

    /// The implementation as it introduced itself.
    pub fn implementation(&self) -> &Implementation {
        &self.implementation
    }

    /// The profiles the implementation said it implements (`None`: it did not say, so all).
    pub fn implemented_profiles(&self) -> Option<&[String]> {
        self.profiles.as_deref()
    }

    /// Whether the implementation implements `profile`.
    pub fn implements(&self, profile: Profile) -> bool {
        self.profiles
            .as_ref()
            .is_none_or(|ps| ps.iter().any(|p| p == profile.name()))
    }

    fn command_line(&self) -> String {
        self.config
            .command
            .iter()
            .map(|a| shell_quote(a))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Remembers a line for fault reports (the last few, kept whole; cut when reported) and
    /// shows it to the tap. Returns the buffer of the line it forgot, for reuse.
    fn note(&mut self, dir: Direction, line: String) -> Option<String> {
        if let Some(tap) = self.tap.as_mut() {
            tap(dir, &line);
        }
        let forgotten = if self.recent.len() == TRANSCRIPT_LINES {
            self.recent.pop_front().map(|(_, l)| l)
        } else {
            None
        };
        self.recent.push_back((dir, line));
        forgotten
    }

    /// Starts the process if none runs. `initial`: the start of [`StdioDriver::start`], whose
    /// failure ends the command, so it takes no restart from the budget.
    fn ensure_started(&mut self, initial: bool) -> Result<(), HarnessError> {
        if self.process.is_some() {
            return Ok(());
        }
        if let Some(reason) = self.config.stop.reason() {
            return Err(HarnessError(format!(
                "the implementation was not started: {reason}"
            )));
        }
        if self.restart == Err(None) {
            return Err(HarnessError(format!(
                "gave up on `{}`: it faulted again after {} restarts (--max-restarts {})",
                self.command_line(),
                self.config.max_restarts,
                self.config.max_restarts
            )));
        }
        self.recent.clear();
        let mut process = Process::spawn(
            &self.config.command,
            self.config.stderr_limit,
            self.config.stop.clone(),
        )
        .map_err(HarnessError)?;
        let hello = ToImplementation::Hello {
            protocol: PROTOCOL.to_owned(),
            suite: crate::SUITE_VERSION.to_owned(),
            profiles: Profile::ALL.to_vec(),
        };
        let limit = Limit {
            at: deadline_after(Instant::now(), self.config.startup_timeout),
            flag: "--startup-timeout",
            value: self.config.startup_timeout,
        };
        let result = self
            .send_on(&mut process, &hello, &limit)
            .and_then(|()| self.await_hello(&mut process, limit.at));
        match result {
            Ok(()) => {
                self.process = Some(process);
                self.restart = Ok(());
                Ok(())
            }
            Err(fault) => {
                if !initial {
                    self.reserve_restart();
                }
                let status = process.stop(Duration::from_millis(300));
                let stderr = process.stderr_since(0);
                if let Some(reason) = fault.stopped {
                    return Err(HarnessError(format!(
                        "the implementation was stopped during the `hello` handshake: {reason}"
                    )));
                }
                Err(HarnessError(self.report(
                    &format!("did not complete the `hello` handshake: {}", fault.what),
                    None,
                    status,
                    &stderr,
                )))
            }
        }
    }

    fn await_hello(&mut self, process: &mut Process, deadline: Instant) -> Result<(), Fault> {
        let timeout = self.config.startup_timeout;
        loop {
            let line = match process.next(deadline) {
                Err(WaitError::Timeout) => {
                    return Err(fault(format!(
                        "no answer within {} (--startup-timeout)",
                        secs(timeout)
                    )));
                }
                Err(WaitError::Stopped(reason)) => return Err(stopped(reason)),
                Ok(Read1::Line(l)) => l,
                Ok(Read1::Eof { partial }) => return Err(eof_fault(partial, process)),
                Ok(Read1::Broken(e)) => return Err(fault(e)),
                Ok(Read1::Exited(status)) => {
                    return Err(exited_fault(status, "its `hello`"));
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            self.note(Direction::ToHarness, line.clone());
            let value: serde_json::Value = serde_json::from_str(&line).map_err(|e| {
                fault(format!(
                    "its first line is not JSON ({e}): `{}`",
                    preview(&line, 200)
                ))
            })?;
            let kind = value.get("type").and_then(|t| t.as_str()).unwrap_or("");
            if kind != "hello" {
                return Err(fault(format!(
                    "its first message must be `hello`, got `{}`",
                    preview(&line, 200)
                )));
            }
            match value.get("protocol") {
                Some(serde_json::Value::String(p)) if p == PROTOCOL => {}
                Some(serde_json::Value::String(p)) => {
                    return Err(fault(format!(
                        "it speaks protocol `{p}`, the harness speaks `{PROTOCOL}`"
                    )));
                }
                None => {
                    return Err(fault(format!(
                        "its `hello` has no `protocol` field (it must be \"{PROTOCOL}\")"
                    )));
                }
                Some(other) => {
                    return Err(fault(format!(
                        "the `protocol` of its `hello` is not a string but `{}` (it must be \"{PROTOCOL}\")",
                        preview(&other.to_string(), 80)
                    )));
                }
            }
            self.validate(Direction::ToHarness, &value)?;
            match serde_json::from_value::<ToHarness>(value) {
                Ok(ToHarness::Hello {
                    implementation,
                    profiles,
                    ..
                }) => {
                    self.implementation = implementation.clipped();
                    self.profiles = profiles;
                    return Ok(());
                }
                Ok(_) => return Err(fault("its first message must be `hello`".into())),
                Err(e) => return Err(fault(format!("malformed `hello`: {e}"))),
            }
        }
    }

    fn validate(&self, dir: Direction, value: &serde_json::Value) -> Result<(), Fault> {
        let Some(v) = &self.validator else {
            return Ok(());
        };
        match v.check(dir, value) {
            Ok(()) => Ok(()),
            Err(e) if dir == Direction::ToImplementation => Err(fault(format!(
                "the harness's own message breaks its schema (a mirrorless bug, please report it): {e}"
            ))),
            Err(e) => Err(fault(format!("a message breaks the protocol schema: {e}"))),
        }
    }

    fn send_on(
        &mut self,
        process: &mut Process,
        msg: &ToImplementation,
        limit: &Limit,
    ) -> Result<(), Fault> {
        self.buf.clear();
        serde_json::to_writer(&mut self.buf, msg).map_err(|e| {
            fault(format!(
                "cannot serialize a message (a mirrorless bug): {e}"
            ))
        })?;
        if self.validator.is_some()
            && let Ok(value) = serde_json::from_slice(&self.buf)
        {
            self.validate(Direction::ToImplementation, &value)?;
        }
        process.write_line(&self.buf);
        let written = process.flush(limit.at);
        let line = std::mem::take(&mut self.buf);
        let text = String::from_utf8(line)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        if let Some(old) = self.note(Direction::ToImplementation, text) {
            self.buf = old.into_bytes();
        }
        written.map_err(|e| match e {
            WriteError::Timeout { unwritten } if limit.flag == "--message-timeout" => {
                fault(format!(
                    "it stopped reading its stdin: {unwritten} bytes of `{}` were still unwritten after {} ({})",
                    msg.kind(),
                    secs(limit.value),
                    limit.flag
                ))
            }
            WriteError::Timeout { unwritten } => fault(format!(
                "it stopped reading its stdin: {unwritten} bytes of `{}` were still unwritten when the {} of {} ran out",
                msg.kind(),
                limit.flag,
                secs(limit.value)
            )),
            WriteError::Stopped(reason) => stopped(reason),
            WriteError::Closed(e) => {
                let how = match process.exit_within(Duration::from_millis(200)) {
                    Some(status) => format!("the process {}", describe_status(status)),
                    None => format!("the process (pid {}) is still running", process.id()),
                };
                fault(format!(
                    "writing `{}` to its stdin failed ({e}): {how}",
                    msg.kind()
                ))
            }
        })
    }

    /// Plays one case; `Err` is a fault that ended it.
    fn play(
        &mut self,
        process: &mut Process,
        case: &Case,
        harness: &mut Harness<'_>,
    ) -> Result<(), Fault> {
        // Anything still unread belongs to no case: the lockstep was broken.
        if let Ok(Read1::Line(l)) = process.next(Instant::now()) {
            let what = format!(
                "it wrote `{}` after `done`, outside any case",
                preview(&l, 200)
            );
            self.note(Direction::ToHarness, l);
            return Err(fault(what));
        }
        let case_deadline = deadline_after(Instant::now(), self.config.case_timeout);
        let limit = self.limit(case_deadline);
        self.send_on(
            process,
            &ToImplementation::Case {
                id: case.id(),
                profile: case.profile,
                agent: AGENT.to_owned(),
            },
            &limit,
        )?;
        let mut awaiting = "its first message of the case";
        let mut disposal = Disposal::default();
        loop {
            // A limit reached by the last message ends the case before the next is read.
            if let Some(hit) = harness.exceeded() {
                return Err(fault(hit.to_string()));
            }
            let now = Instant::now();
            if now >= case_deadline {
                // Also catches an implementation that never stops talking.
                return Err(fault(format!(
                    "the case did not finish within {} (--case-timeout); the harness was waiting for {awaiting}",
                    secs(self.config.case_timeout)
                )));
            }
            let deadline = deadline_after(now, self.config.message_timeout).min(case_deadline);
            let line = match process.next(deadline) {
                Err(WaitError::Stopped(reason)) => return Err(stopped(reason)),
                Err(WaitError::Timeout) if Instant::now() >= case_deadline => {
                    return Err(fault(format!(
                        "the case did not finish within {} (--case-timeout); the harness was waiting for {awaiting}",
                        secs(self.config.case_timeout)
                    )));
                }
                Err(WaitError::Timeout) => {
                    return Err(fault(format!(
                        "it sent nothing for {} (--message-timeout) while the harness waited for {awaiting}",
                        secs(self.config.message_timeout)
                    )));
                }
                Ok(Read1::Line(l)) => l,
                Ok(Read1::Eof { partial }) => {
                    let mut f = eof_fault(partial, process);
                    f.what
                        .push_str(&format!(" while the harness waited for {awaiting}"));
                    return Err(f);
                }
                Ok(Read1::Broken(e)) => return Err(fault(e)),
                Ok(Read1::Exited(status)) => return Err(exited_fault(status, awaiting)),
            };
            harness.received_bytes(line.len() + 1);
            if line.trim().is_empty() {
                continue;
            }
            let msg = match parse_to_harness(&line) {
                Ok(m) => m,
                Err(e) => {
                    // Not JSON at all: most often a debug print or a log line on stdout.
                    let hint = if serde_json::from_str::<serde::de::IgnoredAny>(&line).is_err() {
                        STDOUT_HINT
                    } else {
                        ""
                    };
                    let what = format!(
                        "it wrote a line that is not a protocol message ({e}): `{}`{hint}",
                        preview(&line, 200)
                    );
                    self.note(Direction::ToHarness, line);
                    return Err(fault(what));
                }
            };
            let checked = match &self.validator {
                Some(_) => match serde_json::from_str(&line) {
                    Ok(value) => self.validate(Direction::ToHarness, &value),
                    Err(_) => Ok(()),
                },
                None => Ok(()),
            };
            self.note(Direction::ToHarness, line);
            checked?;
            if let Some(what) = disposal.refuse(&msg) {
                return Err(fault(what));
            }
            let answer = match msg {
                ToHarness::Append { event } => {
                    disposal.appended(&event.kind);
                    harness.append(event);
                    awaiting = "its next message";
                    continue;
                }
                ToHarness::Emit { event, agent, data } => {
                    harness.record_live(LiveEmit {
                        event,
                        agent: Some(agent.unwrap_or_else(|| AGENT.to_owned())),
                        data,
                        at: None,
                    });
                    awaiting = "its next message";
                    continue;
                }
                ToHarness::Done => return Ok(()),
                ToHarness::Crash { message } => {
                    harness.record_crash(format!("the implementation reported a crash: {message}"));
                    return Ok(());
                }
                ToHarness::Hello { .. } => {
                    return Err(fault(
                        "it sent `hello` again in the middle of a case".into(),
                    ));
                }
                ToHarness::NextInput => {
                    awaiting = "its next message after `input`";
                    let input = match harness.next_input() {
                        Some(UserInput::Prompt { content }) => Input::Prompt { content },
                        Some(UserInput::Inject { content }) => Input::Inject { content },
                        Some(UserInput::Dispose) => Input::Dispose,
                        None => Input::End,
                    };
                    disposal.input(&input);
                    ToImplementation::Input { input }
                }
                ToHarness::RequestModel { turn, step } => {
                    awaiting = "its next message after `stream`";
                    harness.request_model(turn, step);
                    let mut items = Vec::new();
                    loop {
                        items.push(match harness.next_stream_item() {
                            StreamItem::Chunk(chunk) => Item::Chunk { chunk },
                            StreamItem::Throw(failure) => Item::Throw { failure },
                            StreamItem::Steer { content } => Item::Steer { content },
                            StreamItem::Cancel { reason } => Item::Cancel { reason },
                            StreamItem::Dispose => Item::Dispose,
                            StreamItem::End => break,
                        });
                    }
                    disposal.stream(&items);
                    ToImplementation::Stream { items }
                }
                ToHarness::RunTool {
                    call_id,
                    name,
                    arguments,
                } => {
                    awaiting = "its next message after `tool-result`";
                    let result = harness.run_tool(&crate::driver::ToolRequest {
                        call_id: call_id.clone(),
                        name,
                        arguments,
                    });
                    ToImplementation::ToolResult {
                        call_id,
                        content: result.content,
                        is_error: result.is_error,
                    }
                }
                ToHarness::RequestError {
                    turn,
                    step,
                    failure,
                } => {
                    awaiting = "its next message after `retry`";
                    ToImplementation::Retry {
                        retry: harness.request_error(turn, step, &failure),
                    }
                }
            };
            // Over a limit, the answer is not sent: the case ends here.
            if let Some(hit) = harness.exceeded() {
                return Err(fault(hit.to_string()));
            }
            let limit = self.limit(case_deadline);
            self.send_on(process, &answer, &limit)?;
        }
    }

    fn report(
        &self,
        what: &str,
        case: Option<&Case>,
        status: Option<std::process::ExitStatus>,
        stderr: &str,
    ) -> String {
        let mut s = String::new();
        let _ = write!(s, "the implementation `{}` ", self.command_line());
        match case {
            Some(c) => {
                let _ = write!(
                    s,
                    "failed in case {} (profile {}): {what}",
                    c.id(),
                    c.profile
                );
            }
            None => {
                let _ = write!(s, "{what}");
            }
        }
        if let Some(status) = status {
            let _ = write!(s, "\n  process: {}", describe_status(status));
        }
        if self.recent.is_empty() {
            s.push_str("\n  nothing was exchanged on the protocol");
        } else {
            s.push_str("\n  last lines exchanged (> to the implementation, < from it):");
            for (dir, line) in &self.recent {
                let arrow = match dir {
                    Direction::ToImplementation => '>',
                    Direction::ToHarness => '<',
                };
                let _ = write!(s, "\n    {arrow} {}", preview(line, LINE_PREVIEW));
            }
        }
        let stderr = stderr.trim_end();
        if stderr.is_empty() {
            s.push_str("\n  stderr: (empty)");
        } else {
            let tail = tail_chars(stderr, STDERR_PREVIEW);
            s.push_str("\n  stderr (tail):");
            for l in tail.lines() {
                let _ = write!(s, "\n    | {l}");
            }
        }
        if let Some(c) = case {
            // Clipped: a case file can be large, and the report is read in a terminal.
            let _ = write!(s, "\n  the case: {}", preview(&c.to_string(), CASE_PREVIEW));
        }
        s.push_str(&self.restart_note());
        s
    }

    /// What became of the process after a fault: restarted (counted for this process, and
    /// against the run's budget when processes run in parallel), or no restart left.
    fn restart_note(&self) -> String {
        let mut s = String::new();
        let max = self.config.max_restarts;
        // Forks hold the shared counter too: then each process counts its own restarts.
        let parallel = Arc::strong_count(&self.restarts) > 1;
        match self.restart {
            Err(Some(n)) if parallel => {
                let _ = write!(
                    s,
                    "\n  The process was stopped; the next case starts it afresh (restart {} of process {}; {n} of {max} in the run, --max-restarts).",
                    self.own_restarts, self.process_no
                );
            }
            Err(Some(n)) => {
                let _ = write!(
                    s,
                    "\n  The process was stopped; the next case starts it afresh (restart {n} of {max}, --max-restarts)."
                );
            }
            Err(None) => {
                let _ = write!(
                    s,
                    "\n  The process was stopped, and no restart is left (--max-restarts {max}): the run ends here."
                );
            }
            Ok(()) => {}
        }
        s
    }

    /// After a fault: takes the next restart from the shared budget, if one is left.
    fn reserve_restart(&mut self) {
        self.own_restarts = self.own_restarts.saturating_add(1);
        let n = self
            .restarts
            .fetch_add(1, Ordering::SeqCst)
            .saturating_add(1);
        self.restart = Err((n <= self.config.max_restarts).then_some(n));
    }

    /// The deadline of the next message in a case: `--message-timeout` from now, or the end
    /// of the case if that comes first.
    fn limit(&self, case_deadline: Instant) -> Limit {
        let message = deadline_after(Instant::now(), self.config.message_timeout);
        if message <= case_deadline {
            Limit {
                at: message,
                flag: "--message-timeout",
                value: self.config.message_timeout,
            }
        } else {
            Limit {
                at: case_deadline,
                flag: "--case-timeout",
                value: self.config.case_timeout,
            }
        }
    }
}

/// A deadline and the option that set it, for messages.
struct Limit {
    at: Instant,
    flag: &'static str,
    value: Duration,
}

/// Said of a line on stdout that is not JSON.
const STDOUT_HINT: &str = "; stdout carries protocol messages only: write diagnostics (print, console.log, a logger) to stderr, which the harness shows in its reports (docs/protocol/stdio.md §1)";

/// How long a process may take to exit by itself after `shutdown` before it is stopped.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// The agent id the harness attributes live events to.
const AGENT: &str = crate::driver::CASE_AGENT;

fn fault(what: String) -> Fault {
    Fault {
        what,
        stopped: None,
    }
}

fn stopped(reason: StopReason) -> Fault {
    Fault {
        what: format!("the run was stopped: {reason}"),
        stopped: Some(reason),
    }
}

/// The end of stdout, with what became of the process: an exit status or signal, or still
/// running (it closed stdout but lives on).
/// The process exited while its stdout stays open (held by a process it started).
fn exited_fault(status: std::process::ExitStatus, awaiting: &str) -> Fault {
    let how = describe_status(status);
    let how = if how.starts_with("killed") {
        format!("was {how}")
    } else {
        how
    };
    fault(format!(
        "it {how} while the harness waited for {awaiting}; its stdout is still open, held by a process it started (the harness stops its whole process group)"
    ))
}

fn eof_fault(partial: Option<String>, process: &mut Process) -> Fault {
    // Stdout closes a moment before the process is reaped; give it that moment.
    let how = match process.exit_within(Duration::from_millis(500)) {
        Some(status) => format!("and {}", describe_status(status)),
        None => format!("but is still running (pid {})", process.id()),
    };
    match partial {
        Some(p) => fault(format!(
            "it closed its stdout after an unterminated line `{}` (every message must end with a newline), {how}",
            preview(&p, 200)
        )),
        None => fault(format!("it closed its stdout {how}")),
    }
}

impl Driver for StdioDriver {
    fn hello(&self) -> Implementation {
        self.implementation.clone()
    }

    fn name(&self) -> String {
        let who = if self.implementation.name.is_empty() {
            "implementation".to_owned()
        } else {
            match &self.implementation.version {
                Some(v) => format!("{} {v}", self.implementation.name),
                None => self.implementation.name.clone(),
            }
        };
        format!("{who} over {PROTOCOL} (`{}`)", self.command_line())
    }

    fn replay_command(&self, case_file: &str) -> String {
        format!(
            "mirrorless replay {} -- {}",
            shell_quote(case_file),
            self.command_line()
        )
    }

    fn recovers(&self) -> bool {
        self.config.stop.reason().is_none() && self.restart != Err(None)
    }

    /// Another process of the same implementation, started at its first case (so `-j N`
    /// handshakes in parallel); it shares the restart budget and the stop condition.
    fn fork(&self) -> Option<Box<dyn Driver + Send>> {
        Some(Box::new(StdioDriver {
            config: self.config.clone(),
            process: None,
            restart: Ok(()),
            restarts: Arc::clone(&self.restarts),
            own_restarts: 0,
            process_no: self
                .processes
                .fetch_add(1, Ordering::SeqCst)
                .saturating_add(1),
            processes: Arc::clone(&self.processes),
            implementation: self.implementation.clone(),
            profiles: self.profiles.clone(),
            recent: VecDeque::new(),
            validator: self.validator.clone(),
            tap: None,
            buf: Vec::with_capacity(4096),
        }))
    }

    /// Sends `shutdown`, closes stdin and gives the process [`SHUTDOWN_GRACE`] to exit by
    /// itself; then stops what is left of its group. An exit status other than 0 (or a death
    /// by signal) within the grace is a fault (stdio.md §2: `shutdown` → exit 0). It takes no
    /// restart: nothing is restarted for it. Not checked when the run was stopped, when the
    /// harness could not write `shutdown`, or when the process had to be stopped.
    fn shutdown(&mut self) -> Result<(), HarnessError> {
        let Some(mut process) = self.process.take() else {
            return Ok(());
        };
        let sent = match serde_json::to_vec(&ToImplementation::Shutdown) {
            Ok(line) => {
                process.write_line(&line);
                let sent = process.flush(Instant::now() + SHUTDOWN_GRACE).is_ok();
                let text = String::from_utf8_lossy(&line).into_owned();
                self.note(Direction::ToImplementation, text);
                sent
            }
            Err(_) => false,
        };
        process.close_stdin();
        let exited = process.exit_within(SHUTDOWN_GRACE);
        let status = process.stop(Duration::ZERO);
        let failed = exited.filter(|s| !s.success());
        match failed {
            Some(how) if sent && self.config.stop.reason().is_none() => {
                let stderr = process.stderr_since(0);
                Err(HarnessError(self.report(
                    &format!(
                        "{} after `shutdown` at the end of the run: on `shutdown` an implementation exits with status 0 (docs/protocol/stdio.md §2)",
                        match describe_status(how) {
                            killed if killed.starts_with("killed") => format!("was {killed}"),
                            exited => exited,
                        }
                    ),
                    None,
                    status,
                    &stderr,
                )))
            }
            _ => Ok(()),
        }
    }

    fn run_case(&mut self, case: &Case) -> Result<Observation, HarnessError> {
        if !self.implements(case.profile) {
            return Err(HarnessError(format!(
                "the implementation `{}` does not implement profile {} (its hello lists {}); choose profiles with --profile",
                self.command_line(),
                case.profile,
                self.profiles.as_deref().unwrap_or_default().join(", ")
            )));
        }
        if let Some(why) = crate::driver::over_limits(case, &self.config.limits, true) {
            return Err(HarnessError(why));
        }
        self.ensure_started(false)?;
        let Some(mut process) = self.process.take() else {
            return Err(HarnessError("the implementation is not running".into()));
        };
        let mark = process.stderr_mark();
        let mut harness = Harness::new(case, AGENT).with_limits(self.config.limits);
        match self.play(&mut process, case, &mut harness) {
            Ok(()) => {
                let mut obs = harness.finish();
                obs.stderr = process.stderr_since(mark);
                self.process = Some(process);
                Ok(obs)
            }
            Err(f) => {
                let status = process.stop(Duration::from_millis(300));
                let stderr = process.stderr_since(mark);
                if let Some(reason) = f.stopped {
                    return Err(HarnessError(format!(
                        "case {} was cut short: {reason}",
                        case.id()
                    )));
                }
                self.reserve_restart();
                Err(HarnessError(self.report(
                    &f.what,
                    Some(case),
                    status,
                    &stderr,
                )))
            }
        }
    }
}

impl Drop for StdioDriver {
    fn drop(&mut self) {
        // Nobody is left to report to: the process is ended the same way, unchecked.
        let _ = Driver::shutdown(self);
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig}");
        }
    }
    match status.code() {
        Some(c) => format!("exited with status {c}"),
        None => "exited".into(),
    }
}
