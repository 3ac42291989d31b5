//! An agent's life in the trace: `agent/created` first (LIVE-4), `agent/session-start` before
//! the first turn (LIVE-5), nothing after `agent/disposed`, and `agent/disposed` where it is
//! owed (LIVE-7).

use super::super::values::clip;
use super::LiveChecker;
use super::durable::turn_name;
use crate::vocab::Profile;
use crate::vocab::live::{LiveEmit, SESSION_START_SOURCES, session_start_required};

impl LiveChecker {
    /// Every `agent/*` event, before its own rule: LIVE-4 (the agent was announced by
    /// `agent/created`, once) and LIVE-7 (nothing about an agent after its `agent/disposed`).
    pub(super) fn announce(&mut self, line: Option<u64>, emit: &LiveEmit, name: &str) {
        if self.log_agent.is_none() {
            self.log_agent = Some(emit.agent.clone());
        }
        let who = Self::who(&emit.agent);
        let is_created = emit.event == "agent/created";
        let state = self.agent(&emit.agent);
        let (first, created, disposed) = (state.events == 0, state.created, state.disposed);
        state.events += 1;
        if disposed {
            self.report(
                "LIVE-7",
                line,
                format!("`{name}` about {who} after its `agent/disposed`: a disposed agent is gone and emits nothing more"),
            );
        }
        if first && !is_created {
            self.report(
                "LIVE-4",
                line,
                format!("the first live event about {who} is `{name}`: `agent/created` must announce the agent before anything else"),
            );
        } else if is_created && created {
            self.report(
                "LIVE-4",
                line,
                format!("`agent/created` about {who} a second time: an agent is created once"),
            );
        }
    }

    /// LIVE-5: `agent/session-start`, once, before the first status, from a known source.
    pub(super) fn session_start(&mut self, line: Option<u64>, emit: &LiveEmit) {
        let who = Self::who(&emit.agent);
        let state = self.agent(&emit.agent);
        let (again, late) = (state.session_started, state.status.is_some());
        state.session_started = true;
        if again {
            self.report(
                "LIVE-5",
                line,
                format!("`agent/session-start` about {who} a second time: it is emitted once, before the first turn"),
            );
        } else if late {
            self.report(
                "LIVE-5",
                line,
                format!("`agent/session-start` about {who} after its first `agent/status`: it comes before the first turn"),
            );
        }
        match emit.data.get("source").and_then(|s| s.as_str()) {
            Some(source) if SESSION_START_SOURCES.contains(&source) => {}
            _ => self.report(
                "LIVE-5",
                line,
                format!(
                    "`agent/session-start` without a known `data.source` ({}): {}",
                    SESSION_START_SOURCES.join(", "),
                    clip(&emit.data.to_string())
                ),
            ),
        }
    }

    /// LIVE-5 when an agent's first status arrives (its first turn starts) without a
    /// session start, in a profile whose loops always send one.
    pub(super) fn session_start_owed(&mut self, line: Option<u64>, key: &Option<String>) {
        if !session_start_required(self.profile) {
            return;
        }
        let who = Self::who(key);
        let state = self.agent(key);
        if state.session_started || state.session_start_reported {
            return;
        }
        state.session_start_reported = true;
        self.report(
            "LIVE-5",
            line,
            format!("{who} starts its first turn without `agent/session-start {{source}}`; the {} profile sends it once, before the first turn", self.profile),
        );
    }

    /// LIVE-7: `agent/disposed`; under 2026-07 the status `disposed` comes first.
    pub(super) fn disposed(&mut self, line: Option<u64>, emit: &LiveEmit) {
        let who = Self::who(&emit.agent);
        let legacy = self.profile == Profile::V2026_07;
        let state = self.agent(&emit.agent);
        state.disposed = true;
        if legacy && state.status.as_deref() != Some("disposed") {
            self.report(
                "LIVE-7",
                line,
                format!("`agent/disposed` about {who} without the status `disposed` before it: under 2026-07 a disposed agent first sets `agent/status disposed`"),
            );
        }
    }

    /// LIVE-4, LIVE-5 and LIVE-7 at the end of the trace: what it still owes.
    pub(super) fn end_lifecycle(&mut self) {
        let line = self.last_line;
        if self.agents.values().all(|a| a.events == 0) {
            self.report(
                "LIVE-4",
                line,
                "the trace has no `agent/created`: an agent announces itself when it is created"
                    .to_owned(),
            );
        }
        let mut keys: Vec<Option<String>> = self.agents.keys().cloned().collect();
        keys.sort();
        for key in keys {
            let Some(state) = self.agents.get(&key) else {
                continue;
            };
            let created_only = state.created && state.status.is_none();
            let unfinished_dispose = self.profile == Profile::V2026_07
                && state.status.as_deref() == Some("disposed")
                && !state.disposed;
            if created_only {
                // An agent that never ran still owes its session start.
                self.session_start_owed(line, &key);
            }
            if unfinished_dispose {
                let who = Self::who(&key);
                self.report(
                    "LIVE-7",
                    line,
                    format!("{who} set the status `disposed` but the trace ends without its `agent/disposed`"),
                );
            }
        }
        let log_agent = self.log_agent.clone().unwrap_or_default();
        let owed = self.disposed_by_user || self.log.disposed_turn.is_some();
        if owed && !self.agents.get(&log_agent).is_some_and(|a| a.disposed) {
            let why = match self.log.disposed_turn {
                Some(turn) => format!("{} ended because the agent was disposed", turn_name(turn)),
                None => "the user disposed of the agent".to_owned(),
            };
            let seq = self.log.disposed_seq;
            self.report_at(
                "LIVE-7",
                line,
                seq,
                format!(
                    "{why}, but {} never emitted `agent/disposed`",
                    Self::who(&log_agent)
                ),
            );
        }
    }
}
