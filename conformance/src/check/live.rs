//! Live-event traces: JSON lines of [`LiveEmit`] records.

use super::finding::Finding;
use super::values::clip;
use crate::vocab::Profile;
use crate::vocab::live::{LiveEmit, LiveStatus, agent_statuses, classify};
use std::collections::HashMap;
use std::io::{self, BufRead};

/// A streaming checker for a live-event trace.
pub struct LiveChecker {
    profile: Profile,
    /// Last status per agent (`None` key for emits without an agent id).
    status: HashMap<Option<String>, String>,
    findings: Vec<Finding>,
    index: u64,
}

impl LiveChecker {
    /// A checker for `profile`.
    pub fn new(profile: Profile) -> LiveChecker {
        LiveChecker {
            profile,
            status: HashMap::new(),
            findings: Vec::new(),
            index: 0,
        }
    }

    fn report(&mut self, req: &'static str, line: Option<u64>, msg: String) {
        // Live findings have no seq; `at` (the durable log length) is in the message.
        self.findings
            .push(Finding::new(self.profile, req, line, None, msg));
    }

    /// Checks one emit; `line` is its 1-based line when read from a file.
    pub fn push(&mut self, line: Option<u64>, emit: &LiveEmit) {
        self.index += 1;
        let name = emit.event.as_str();
        let when = emit
            .at
            .map_or(String::new(), |at| format!(" (after {at} durable events)"));
        match classify(name, self.profile) {
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
            Some(LiveStatus::Current) if name == "agent/status" => self.status(line, emit),
            Some(LiveStatus::Current) if name == "agent/error" => self.error(line, emit),
            Some(LiveStatus::Current) => {}
            None if name.starts_with("agent/") => self.report(
                "LIVE-2",
                line,
                format!(
                    "`{name}` is not a live event of the {} profile",
                    self.profile
                ),
            ),
            None => {}
        }
    }

    /// LIVE-3: the payload of `agent/error`.
    fn error(&mut self, line: Option<u64>, emit: &LiveEmit) {
        let d = &emit.data;
        let problem = if d.get("turn").and_then(|t| t.as_u64()).is_none() {
            "`data.turn` must be a non-negative integer"
        } else if d.get("step").and_then(|s| s.as_u64()).is_none() {
            "`data.step` must be a non-negative integer"
        } else if d
            .get("error")
            .and_then(|e| e.get("message"))
            .and_then(|m| m.as_str())
            .is_none()
        {
            "`data.error` must be an object with a string `message`"
        } else {
            return;
        };
        self.report(
            "LIVE-3",
            line,
            format!(
                "`agent/error` does not say what failed: {problem}: {}",
                clip(&d.to_string())
            ),
        );
    }

    fn status(&mut self, line: Option<u64>, emit: &LiveEmit) {
        let Some(status) = emit.data.get("status").and_then(|s| s.as_str()) else {
            self.report(
                "LIVE-1",
                line,
                format!(
                    "`agent/status` without a string `data.status`: {}",
                    clip(&emit.data.to_string())
                ),
            );
            return;
        };
        if !agent_statuses(self.profile).contains(&status) {
            self.report(
                "LIVE-1",
                line,
                format!(
                    "status `{status}` is not defined by the {} profile",
                    self.profile
                ),
            );
        }
        let key = emit.agent.clone();
        match self.status.get(&key).map(String::as_str) {
            Some("disposed") => self.report(
                "LIVE-1",
                line,
                format!("status `{status}` after `disposed`: nothing may follow `disposed`"),
            ),
            Some(prev) if prev == status => self.report(
                "LIVE-1",
                line,
                format!("status `{status}` repeats the previous status of the agent"),
            ),
            _ => {}
        }
        self.status.insert(key, status.to_owned());
    }

    /// The findings so far.
    pub fn finish(self) -> Vec<Finding> {
        self.findings
    }
}

/// The result of [`check_live_reader`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveOutcome {
    /// The findings, in trace order.
    pub findings: Vec<Finding>,
    /// Lines read.
    pub lines: u64,
    /// Live emits checked (well-formed lines).
    pub emits: u64,
}

/// Reads and checks a live-event trace (one JSON [`LiveEmit`] per line). Malformed lines are
/// reported as `LOG-2` findings with their line; only an I/O error is an `Err`.
pub fn check_live_reader<R: BufRead>(profile: Profile, mut reader: R) -> io::Result<LiveOutcome> {
    let mut checker = LiveChecker::new(profile);
    let mut buf = Vec::new();
    let mut line_no = 0u64;
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        line_no += 1;
        let line = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<LiveEmit>(line) {
            Ok(emit) => checker.push(Some(line_no), &emit),
            Err(e) => checker.report(
                "LOG-2",
                Some(line_no),
                format!("not a live-trace record (`{{\"event\": …, \"agent\"?, \"data\"?, \"at\"?}}`): {e}"),
            ),
        }
    }
    let emits = checker.index;
    Ok(LiveOutcome {
        findings: checker.finish(),
        lines: line_no,
        emits,
    })
}
