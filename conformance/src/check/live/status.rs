//! `agent/status`: legal values and no repeat (LIVE-1), and its timing around turns (LIVE-6).

use super::super::values::clip;
use super::LiveChecker;
use super::durable::turn_name;
use crate::vocab::live::{LiveEmit, agent_statuses};

impl LiveChecker {
    pub(super) fn status(&mut self, line: Option<u64>, emit: &LiveEmit) {
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
        let previous = self.agent(&key).status.clone();
        match previous.as_deref() {
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
            None => {
                self.session_start_owed(line, &key);
                if status == "idle" {
                    self.report(
                        "LIVE-6",
                        line,
                        format!("the first status of {} is `idle`: an agent starts idle, so its first change is to `running` when a turn starts", Self::who(&key)),
                    );
                }
            }
            _ => {}
        }
        // Reported when the turn ends: a turn that never ends is TURN-4's finding.
        if status == "idle" && self.is_log_agent(&key) && self.log.open_turn.is_some() {
            self.log.idle_in_turn = self.log.idle_in_turn.or(Some(line));
        }
        let state = self.agent(&key);
        state.status = Some(status.to_owned());
        state.errors.clear();
    }

    pub(super) fn is_log_agent(&self, key: &Option<String>) -> bool {
        self.log_agent.as_ref().is_none_or(|a| a == key)
    }

    /// LIVE-6 when the log's open turn ends (durable event `seq`): it went `idle` before.
    pub(super) fn idle_before_turn_end(&mut self, seq: u64) {
        let (Some(line), Some(turn)) = (self.log.idle_in_turn.take(), self.log.open_turn) else {
            return;
        };
        self.report_at(
            "LIVE-6",
            line,
            Some(seq),
            format!(
                "status `idle` while {} was open: `idle` follows the turn's `turn/end`",
                turn_name(turn)
            ),
        );
    }

    /// LIVE-6 when the log's turn `turn` (durable event `seq`) starts: the agent is running.
    pub(super) fn running_at_turn_start(&mut self, seq: u64, turn: u64) {
        let key = self.log_agent.clone().unwrap_or_default();
        let status = self.agents.get(&key).and_then(|a| a.status.clone());
        if status.as_deref() != Some("running") {
            let now = status.map_or("idle (no status yet)".to_owned(), |s| format!("`{s}`"));
            self.report_at(
                "LIVE-6",
                None,
                Some(seq),
                format!(
                    "{} starts while {} is {now}: `agent/status running` comes before `turn/start`",
                    turn_name(turn),
                    Self::who(&key)
                ),
            );
        }
    }

    /// LIVE-6 at the end: after the log's last turn ended, the agent went back to `idle`
    /// (or was disposed).
    pub(super) fn end_status(&mut self) {
        let Some(seq) = self.log.last_end_seq else {
            return;
        };
        // A turn that ended by dispose owes `agent/disposed` instead of `idle` (LIVE-7 says so).
        if self.log.open_turn.is_some() || self.log.disposed_turn.is_some() || self.disposed_by_user
        {
            return;
        }
        let key = self.log_agent.clone().unwrap_or_default();
        let Some(state) = self.agents.get(&key) else {
            return;
        };
        if !state.disposed && state.status.as_deref() == Some("running") {
            let who = Self::who(&key);
            self.report_at(
                "LIVE-6",
                self.last_line,
                Some(seq),
                format!("{who} is still `running` after its last turn ended: `agent/status idle` follows the `turn/end`"),
            );
        }
    }
}
