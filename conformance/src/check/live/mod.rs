//! Live-event traces: JSON lines of [`LiveEmit`] records.
//!
//! One checker serves `mirrorless check` (a trace file alone) and `mirrorless run` (the trace
//! together with the durable log the implementation appended, see [`check_live_with_log`]).
//! Rules a trace shows alone are checked on both; rules that tie a live event to a durable
//! one (the status when a turn starts, the `agent/error` of a failed turn, the
//! `agent/disposed` a disposed turn owes) need the log and run where it is fed
//! ([`LiveChecker::durable`]). One file per concern:
//!
//! * `lifecycle.rs` — `agent/created` (LIVE-4), `agent/session-start` (LIVE-5),
//!   `agent/disposed` (LIVE-7);
//! * `status.rs` — `agent/status` values and repeats (LIVE-1), its timing around turns (LIVE-6);
//! * `error.rs` — `agent/error`'s payload (LIVE-3), once per failed turn (LIVE-8);
//! * `durable.rs` — the durable turn boundaries fed from a log, and the merge by `at`;
//! * `twins.rs` — a live event outside the vocabulary that repeats the durable event appended
//!   next to it, a mirror under another name (LIVE-9).

mod durable;
mod error;
mod lifecycle;
mod status;
mod twins;

pub use durable::check_live_with_log;

use super::excerpt::ContextCollector;
use super::finding::{Finding, MAX_KEPT_FINDINGS};
use super::lines::read_line_limited;
use super::reader::ReadOptions;
use super::values::clip;
use crate::vocab::Profile;
use crate::vocab::live::{LiveEmit, LiveStatus, classify};
use std::collections::{BTreeMap, HashMap};
use std::io::{self, BufRead};

/// What the checker knows about one agent (keyed by its id; `None` for emits without one).
#[derive(Debug, Default)]
struct AgentState {
    /// `agent/*` events seen about it.
    events: u64,
    /// `agent/created` seen.
    created: bool,
    /// `agent/session-start` seen.
    session_started: bool,
    /// A missing `agent/session-start` was reported already.
    session_start_reported: bool,
    /// The last status (clipped), if any.
    status: Option<String>,
    /// `agent/disposed` seen.
    disposed: bool,
    /// The turns named by `agent/error` since the status last changed (LIVE-8).
    errors: Vec<Option<u64>>,
}

/// The turn boundaries seen in the log so far (fed by `durable.rs`).
#[derive(Debug, Default)]
struct LogTurns {
    /// The open turn's number (0 if its `turn/start` named none).
    pub(super) open_turn: Option<u64>,
    /// The turns named by the log agent's `agent/error`s while the open turn was open.
    pub(super) errors_in_turn: Vec<Option<u64>>,
    /// An `idle` seen while the open turn was open (its trace line, if read from a file).
    pub(super) idle_in_turn: Option<Option<u64>>,
    /// The seq of the last `turn/end`.
    pub(super) last_end_seq: Option<u64>,
    /// The turn that ended because the agent was disposed, and the seq of its `turn/end`.
    pub(super) disposed_turn: Option<u64>,
    pub(super) disposed_seq: Option<u64>,
}

/// A streaming checker for a live-event trace.
pub struct LiveChecker {
    profile: Profile,
    agents: HashMap<Option<String>, AgentState>,
    /// The agent the durable log belongs to: the first one announced.
    log_agent: Option<Option<String>>,
    /// The durable turn boundaries, when a log is fed.
    log: LogTurns,
    /// The durable events next to the live emits, for LIVE-9.
    twins: twins::Twins,
    /// The user disposed of the agent (`mirrorless run` knows it from the script).
    disposed_by_user: bool,
    /// Whether `session/event` records of the trace stand for the log (true unless the log
    /// itself is fed, see [`check_live_with_log`]).
    marks_from_trace: bool,
    findings: Vec<Finding>,
    /// Findings beyond the kept ones, counted only.
    suppressed: u64,
    index: u64,
    /// The last line read (end-of-trace findings point at it).
    last_line: Option<u64>,
    ended: bool,
}

impl LiveChecker {
    /// A checker for `profile`.
    pub fn new(profile: Profile) -> LiveChecker {
        LiveChecker {
            profile,
            agents: HashMap::new(),
            log_agent: None,
            log: LogTurns::default(),
            twins: twins::Twins::default(),
            disposed_by_user: false,
            marks_from_trace: true,
            findings: Vec::new(),
            suppressed: 0,
            index: 0,
            last_line: None,
            ended: false,
        }
    }

    fn report(&mut self, req: &'static str, line: Option<u64>, msg: String) {
        self.report_at(req, line, None, msg);
    }

    /// A finding; `seq` is the durable event it is tied to, when the log is fed.
    fn report_at(&mut self, req: &'static str, line: Option<u64>, seq: Option<u64>, msg: String) {
        // Live findings have no seq of their own; `at` (the durable log length) is in the message.
        if self.findings.len() < MAX_KEPT_FINDINGS {
            self.findings
                .push(Finding::new(self.profile, req, line, seq, msg));
        } else {
            self.suppressed += 1;
        }
    }

    /// The user disposed of the agent while it was idle (the `dispose` input of a script): the
    /// trace owes an `agent/disposed` (LIVE-7), which [`finish`](Self::finish) checks.
    pub fn expect_disposed(&mut self) {
        self.disposed_by_user = true;
    }

    /// Checks one emit; `line` is its 1-based line when read from a file.
    pub fn push(&mut self, line: Option<u64>, emit: &LiveEmit) {
        self.index += 1;
        if line.is_some() {
            self.last_line = line;
        }
        let shown = clip(&emit.event);
        let name = shown.as_str();
        let when = emit
            .at
            .map_or(String::new(), |at| format!(" (after {at} durable events)"));
        if emit.event.starts_with("agent/") {
            self.announce(line, emit, name);
        } else if emit.event == "session/event" && self.marks_from_trace {
            self.session_event(line, emit);
        }
        match classify(&emit.event, self.profile) {
            Some(LiveStatus::Removed(mirror)) => {
                self.report(
                    mirror.requirement,
                    line,
                    format!(
                        "removed mirror `{name}` was emitted{when}; consumers read `session/event` and filter `{}`",
                        match self.profile {
                            Profile::V2026_07 => mirror.durable_twin,
                            Profile::V2026_08 => mirror.durable_twin_2026_08,
                        }
                    ),
                );
            }
            Some(LiveStatus::Current) if emit.event != "session/event" => {
                self.live_boundary();
                self.current(line, emit);
            }
            Some(LiveStatus::Current) => {}
            None => {
                if emit.event.starts_with("agent/") {
                    self.report(
                        "LIVE-2",
                        line,
                        format!(
                            "`{name}` is not a live event of the {} profile",
                            self.profile
                        ),
                    );
                }
                self.repeated_fact(line, emit);
            }
        }
    }

    /// Dispatches a current live event to the rule that checks it.
    fn current(&mut self, line: Option<u64>, emit: &LiveEmit) {
        match emit.event.as_str() {
            "agent/created" => self.agent(&emit.agent).created = true,
            "agent/session-start" => self.session_start(line, emit),
            "agent/status" => self.status(line, emit),
            "agent/error" => self.error(line, emit),
            "agent/disposed" => self.disposed(line, emit),
            _ => {}
        }
    }

    fn agent(&mut self, key: &Option<String>) -> &mut AgentState {
        self.agents.entry(key.clone()).or_default()
    }

    /// The agent named `key`, as shown in a message.
    fn who(key: &Option<String>) -> String {
        key.as_deref()
            .map_or("the agent".to_owned(), |a| format!("agent `{}`", clip(a)))
    }

    /// Runs the end-of-trace rules (what the trace still owes) once; [`finish`](Self::finish)
    /// calls it. Their findings point at the last line read.
    pub fn end(&mut self) {
        if std::mem::replace(&mut self.ended, true) {
            return;
        }
        self.end_twins();
        self.end_lifecycle();
        self.end_status();
    }

    /// The findings so far, after the end-of-trace rules (at most 10 000; see
    /// [`suppressed`](Self::suppressed)).
    pub fn finish(mut self) -> Vec<Finding> {
        self.end();
        self.findings
    }

    /// Findings beyond the kept ones, counted but not stored.
    pub fn suppressed(&self) -> u64 {
        self.suppressed
    }
}

/// The result of [`check_live_reader`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveOutcome {
    /// The findings, in trace order (at most 10 000; see `suppressed`).
    pub findings: Vec<Finding>,
    /// Findings beyond the kept ones, counted but not stored.
    pub suppressed: u64,
    /// Lines read.
    pub lines: u64,
    /// Live emits checked (well-formed lines).
    pub emits: u64,
    /// Excerpts of the lines around the first findings (see [`ReadOptions::context_findings`]).
    pub context: BTreeMap<u64, String>,
}

/// Reads and checks a live-event trace (one JSON [`LiveEmit`] per line). Malformed lines are
/// reported as `LOG-2` findings with their line; only an I/O error is an `Err`.
pub fn check_live_reader<R: BufRead>(profile: Profile, reader: R) -> io::Result<LiveOutcome> {
    check_live_reader_with(profile, reader, &ReadOptions::default())
}

/// [`check_live_reader`] with explicit [`ReadOptions`]: the same line-length limit as logs
/// (a longer line is reported as `LOG-2` and skipped without being buffered), and the context
/// lines for a report, kept during the single pass.
pub fn check_live_reader_with<R: BufRead>(
    profile: Profile,
    mut reader: R,
    options: &ReadOptions,
) -> io::Result<LiveOutcome> {
    let mut checker = LiveChecker::new(profile);
    let mut context = (options.context_findings > 0)
        .then(|| ContextCollector::new(options.context_findings, options.context_width));
    let mut buf = Vec::new();
    let mut line_no = 0u64;
    loop {
        let read = read_line_limited(&mut reader, &mut buf, options.max_line_bytes)?;
        if read.at_end() {
            break;
        }
        line_no += 1;
        if let Some(c) = context.as_mut() {
            c.line(line_no, &buf);
        }
        let line = buf.strip_suffix(b"\r").unwrap_or(&buf);
        if read.overlong {
            checker.report(
                "LOG-2",
                Some(line_no),
                format!(
                    "line is {} bytes long, over the {}-byte limit; it was skipped",
                    read.len, options.max_line_bytes
                ),
            );
        } else if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        } else {
            match serde_json::from_slice::<LiveEmit>(line) {
                Ok(emit) => checker.push(Some(line_no), &emit),
                Err(e) => checker.report(
                    "LOG-2",
                    Some(line_no),
                    format!("not a live-trace record (`{{\"event\": …, \"agent\"?, \"data\"?, \"at\"?}}`): {e}"),
                ),
            }
        }
        if let Some(c) = context.as_mut() {
            c.findings(&checker.findings, line_no);
        }
    }
    // End-of-trace findings point at the last line (line 1 of an empty file).
    checker.last_line = Some(checker.last_line.unwrap_or(0).max(line_no).max(1));
    if checker.index == 0 && line_no > 0 {
        // Not one record could be read: the LOG-2 findings say so; what the trace "owes" is
        // unknown.
        checker.ended = true;
    }
    checker.end();
    if let Some(c) = context.as_mut() {
        c.findings(&checker.findings, line_no);
    }
    let emits = checker.index;
    let suppressed = checker.suppressed;
    Ok(LiveOutcome {
        findings: checker.finish(),
        suppressed,
        lines: line_no,
        emits,
        context: context
            .map(ContextCollector::into_lines)
            .unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An agent announced as 2026-08 wants it (`agent/created`, `agent/session-start`).
    const ANNOUNCED: &[u8] = b"{\"event\":\"agent/created\"}\n{\"event\":\"agent/session-start\",\"data\":{\"source\":\"startup\"}}\n";

    #[test]
    fn a_trace_has_the_line_and_finding_caps_of_a_log() {
        let mut trace = vec![b'0'; 5000];
        trace.push(b'\n');
        trace.extend_from_slice(ANNOUNCED);
        let mirror = format!(
            "{{\"event\":\"{}\"}}\n",
            crate::vocab::mirrors::REMOVED_MIRRORS[0].name
        );
        for _ in 0..(MAX_KEPT_FINDINGS + 5) {
            trace.extend_from_slice(mirror.as_bytes());
        }
        let options = ReadOptions {
            max_line_bytes: 1000,
            ..ReadOptions::default()
        };
        let outcome =
            check_live_reader_with(Profile::V2026_08, &trace[..], &options).expect("in memory");
        assert_eq!(outcome.findings.len(), MAX_KEPT_FINDINGS);
        assert_eq!(outcome.suppressed, 6);
        let first = &outcome.findings[0];
        assert_eq!((first.requirement, first.line), ("LOG-2", Some(1)));
        assert!(
            first.message.contains("over the 1000-byte limit"),
            "{first:?}"
        );
    }

    #[test]
    fn echoed_names_and_statuses_are_clipped() {
        let name = format!("agent/{}", "x".repeat(100_000));
        let status = "y".repeat(100_000);
        let trace = format!(
            "{}{{\"event\":\"{name}\"}}\n{{\"event\":\"agent/status\",\"data\":{{\"status\":\"{status}\"}}}}\n",
            String::from_utf8_lossy(ANNOUNCED)
        );
        let outcome = check_live_reader(Profile::V2026_08, trace.as_bytes()).expect("in memory");
        let ids: Vec<&str> = outcome.findings.iter().map(|f| f.requirement).collect();
        assert_eq!(ids, ["LIVE-2", "LIVE-1"], "{:?}", outcome.findings);
        assert!(outcome.findings.iter().all(|f| f.message.len() < 300));
    }
}
