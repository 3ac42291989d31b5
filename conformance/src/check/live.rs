//! Live-event traces: JSON lines of [`LiveEmit`] records.

use super::excerpt::ContextCollector;
use super::finding::{Finding, MAX_KEPT_FINDINGS};
use super::lines::read_line_limited;
use super::reader::ReadOptions;
use super::values::clip;
use crate::vocab::Profile;
use crate::vocab::live::{LiveEmit, LiveStatus, agent_statuses, classify};
use std::collections::{BTreeMap, HashMap};
use std::io::{self, BufRead};

/// A streaming checker for a live-event trace.
pub struct LiveChecker {
    profile: Profile,
    /// Last status per agent (`None` key for emits without an agent id).
    status: HashMap<Option<String>, String>,
    findings: Vec<Finding>,
    /// Findings beyond the kept ones, counted only.
    suppressed: u64,
    index: u64,
}

impl LiveChecker {
    /// A checker for `profile`.
    pub fn new(profile: Profile) -> LiveChecker {
        LiveChecker {
            profile,
            status: HashMap::new(),
            findings: Vec::new(),
            suppressed: 0,
            index: 0,
        }
    }

    fn report(&mut self, req: &'static str, line: Option<u64>, msg: String) {
        // Live findings have no seq; `at` (the durable log length) is in the message.
        if self.findings.len() < MAX_KEPT_FINDINGS {
            self.findings
                .push(Finding::new(self.profile, req, line, None, msg));
        } else {
            self.suppressed += 1;
        }
    }

    /// Checks one emit; `line` is its 1-based line when read from a file.
    pub fn push(&mut self, line: Option<u64>, emit: &LiveEmit) {
        self.index += 1;
        let shown = clip(&emit.event);
        let name = shown.as_str();
        let when = emit
            .at
            .map_or(String::new(), |at| format!(" (after {at} durable events)"));
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
            Some(LiveStatus::Current) if emit.event == "agent/status" => self.status(line, emit),
            Some(LiveStatus::Current) if emit.event == "agent/error" => self.error(line, emit),
            Some(LiveStatus::Current) => {}
            None if emit.event.starts_with("agent/") => self.report(
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
        let Some(full) = emit.data.get("status").and_then(|s| s.as_str()) else {
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
        // Known statuses are short; an unknown one is echoed and remembered clipped.
        let status = clip(full);
        let status = status.as_str();
        if !agent_statuses(self.profile).contains(&full) {
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

    /// The findings so far (at most 10 000; see [`suppressed`](Self::suppressed)).
    pub fn finish(self) -> Vec<Finding> {
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

    #[test]
    fn a_trace_has_the_line_and_finding_caps_of_a_log() {
        let mut trace = vec![b'0'; 5000];
        trace.push(b'\n');
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
            "{{\"event\":\"{name}\"}}\n{{\"event\":\"agent/status\",\"data\":{{\"status\":\"{status}\"}}}}\n"
        );
        let outcome = check_live_reader(Profile::V2026_08, trace.as_bytes()).expect("in memory");
        assert_eq!(outcome.findings.len(), 2, "{:?}", outcome.findings);
        assert!(outcome.findings.iter().all(|f| f.message.len() < 300));
    }
}
