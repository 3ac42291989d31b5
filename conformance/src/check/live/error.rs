//! `agent/error`: its payload (LIVE-3), and once for each failed turn (LIVE-8).

use super::super::values::clip;
use super::LiveChecker;
use crate::vocab::live::LiveEmit;

impl LiveChecker {
    pub(super) fn error(&mut self, line: Option<u64>, emit: &LiveEmit) {
        self.error_payload(line, emit);
        let turn = emit.data.get("turn").and_then(|t| t.as_u64());
        let key = emit.agent.clone();
        let who = Self::who(&key);
        let state = self.agent(&key);
        // A turn fails once: a second report of it (without a status change between, so
        // within the same run) is one failure told twice.
        let twice = turn.is_some() && state.errors.contains(&turn);
        state.errors.push(turn);
        if let (true, Some(turn)) = (twice, turn) {
            self.report(
                "LIVE-8",
                line,
                format!("a second `agent/error` about {who} for turn {turn}: a failed turn is reported once"),
            );
        }
        if self.is_log_agent(&key) && self.log.open_turn.is_some() {
            self.log.errors_in_turn.push(turn);
        }
    }

    /// LIVE-3: the payload of `agent/error`.
    fn error_payload(&mut self, line: Option<u64>, emit: &LiveEmit) {
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

    /// LIVE-8 when the log's turn `turn` ends with an error (durable event `seq`): an
    /// `agent/error` was emitted while it was open. Which number it names is not compared
    /// with the log's: a log that numbers its turns wrongly is TURN-1's finding, not this one.
    pub(super) fn error_owed(&mut self, seq: u64, turn: Option<u64>) {
        if !std::mem::take(&mut self.log.errors_in_turn).is_empty() {
            return;
        }
        let shown = turn.map_or("the turn".to_owned(), |t| format!("turn {t}"));
        let key = self.log_agent.clone().unwrap_or_default();
        let message = format!(
            "{shown} failed (`turn/end` with reason `error`), but {} emitted no `agent/error` for it before the `turn/end`",
            Self::who(&key)
        );
        self.report_at("LIVE-8", None, Some(seq), message);
    }
}
