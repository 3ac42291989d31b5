//! Turns: `turn/start` and `turn/end` (numbering, nesting, end reasons, what a turn end owes).

use super::Monitor;
use super::data::ReasonObj;
use super::state::Turn;
use crate::check::event::{Envelope, KindOnly, Loc};
use crate::vocab::Profile;
use crate::vocab::durable::TurnEndReason;
use std::borrow::Cow;

impl Monitor {
    pub(super) fn turn_start(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.parse_data(at, env) else {
            return;
        };
        let Some(number) = self.require_u64(at, "turn/start", "turn", data.turn) else {
            return;
        };
        if let Some(open) = self.turn.take()
            && !open.phantom
        {
            self.report_diff(
                "TURN-2",
                at,
                format!(
                    "`turn/start` of turn {number} while turn {} is open: turns do not nest",
                    open.number
                ),
                format!("`turn/end` of turn {}", open.number),
                format!("`turn/start` of turn {number}"),
            );
            self.report(
                "TURN-4",
                open.loc,
                format!("turn {} is never closed by a `turn/end`", open.number),
            );
        }
        let first_of_fork = self.fork_numbering && self.last_turn == 0 && number >= 1;
        if number != self.last_turn.saturating_add(1) && !first_of_fork {
            self.report_diff(
                "TURN-1",
                at,
                format!(
                    "turn {number} follows turn {}: turns are numbered 1, 2, 3 … without gaps",
                    self.last_turn
                ),
                format!("turn {}", self.last_turn.saturating_add(1)),
                format!("turn {number}"),
            );
        }
        self.last_turn = number;
        let injection = data.trigger.is_some_and(|t| {
            serde_json::from_str::<KindOnly<'_>>(t.get())
                .ok()
                .and_then(|k| k.kind)
                .is_some_and(|k| k == "injection")
        });
        self.turn = Some(Turn {
            number,
            loc: at,
            phantom: false,
            last_step: 0,
            steps: 0,
            injection,
            max_tokens: false,
            last_call_failed: false,
            unfinished_call: None,
            missing_message: None,
            unanswered_in_last_step: 0,
            message_ids: Vec::new(),
            step: None,
        });
    }

    pub(super) fn turn_end(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.parse_data(at, env) else {
            return;
        };
        let number = self.require_u64(at, "turn/end", "turn", data.turn);
        let parsed_reason = data
            .reason
            .and_then(|r| serde_json::from_str::<ReasonObj<'_>>(r.get()).ok());
        // 2026-08 failure code (`reason.error.code`; earlier builds wrote `reason.failure`).
        let failure_code = parsed_reason
            .as_ref()
            .and_then(|r| r.error.as_ref().or(r.failure.as_ref()))
            .and_then(|e| e.code.as_deref())
            .map(str::to_owned);
        let reason = parsed_reason.and_then(|r| r.kind).map(Cow::into_owned);
        let Some(mut turn) = self.turn.take() else {
            self.report("TURN-2", at, "`turn/end` with no open turn");
            return;
        };
        if let Some(n) = number
            && n != turn.number
            && !turn.phantom
        {
            self.report_diff(
                "TURN-2",
                at,
                format!("`turn/end` names turn {n} but turn {} is open", turn.number),
                format!("turn {}", turn.number),
                format!("turn {n}"),
            );
        }
        if let Some(step) = turn.step.take() {
            self.report_diff(
                "TURN-4",
                at,
                format!(
                    "`turn/end` of turn {} while step {} is open: the step is never closed by a `step/end`",
                    turn.number, step.number
                ),
                format!("`step/end` of step {}", step.number),
                "`turn/end`",
            );
            self.close_step(&mut turn, step);
        }
        let Some(reason) = reason else {
            self.report(
                "LOG-2",
                at,
                format!(
                    "`turn/end` of turn {} has no `data.reason.kind`",
                    turn.number
                ),
            );
            return;
        };
        if reason == "error"
            && let Some(raw) = data.reason
        {
            self.error_payload(at, turn.number, raw);
        }
        let m = self.profile == Profile::V2026_07;
        // 2026-08 logs recorded by earlier builds may still end turns `disposed`/`rejected`.
        let legacy_reason = !m && matches!(reason.as_str(), "disposed" | "rejected");
        if !TurnEndReason::kinds(self.profile).contains(&reason.as_str()) && !legacy_reason {
            self.report_diff(
                "TURN-6",
                at,
                format!(
                    "turn {} ends `{reason}`, a reason the {} profile does not define",
                    turn.number, self.profile
                ),
                TurnEndReason::kinds(self.profile).join(", "),
                reason.clone(),
            );
        } else if turn.steps == 0 {
            let legal = match reason.as_str() {
                "aborted" | "error" | "interrupted" => true,
                "disposed" | "rejected" => true,
                "blocked" => !m,
                "completed" => !m || turn.injection,
                _ => false,
            };
            if !legal {
                self.report(
                    "TURN-6",
                    at,
                    format!("turn {} ran no step but ends `{reason}`", turn.number),
                );
            }
        }
        let failed_end = matches!(
            reason.as_str(),
            "error" | "aborted" | "interrupted" | "disposed"
        );
        if reason == "interrupted" && turn.unanswered_in_last_step > 0 {
            self.report(
                "TURN-5",
                at,
                format!(
                    "turn {} ends `interrupted` with {} tool call(s) of its last step unanswered: the crash-repair closer must first answer them with synthetic error results",
                    turn.number, turn.unanswered_in_last_step
                ),
            );
        }
        if turn.max_tokens && reason == "completed" {
            self.report_diff(
                "TURN-7",
                at,
                format!(
                    "turn {} had a `max-tokens` model call but ends `completed`",
                    turn.number
                ),
                "max-tokens",
                reason.clone(),
            );
        }
        if turn.last_call_failed
            && matches!(reason.as_str(), "completed" | "max-tokens" | "blocked")
        {
            self.report_diff(
                "TURN-7",
                at,
                format!("turn {}'s last model call failed and was not retried, but the turn ends `{reason}`", turn.number),
                "error or aborted",
                reason.clone(),
            );
        }
        // Under 2026-08 a provider failure is always recorded as a `finish` chunk; a run may
        // end without one only when a middleware or the consumer threw, which surfaces as a
        // non-provider error (`UNKNOWN`). A provider code here means the `finish` is missing.
        let provider_failure_without_finish = self.profile == Profile::V2026_08
            && reason == "error"
            && failure_code.as_deref().is_some_and(|c| c != "UNKNOWN");
        if let Some(u) = turn.unfinished_call
            && (!failed_end || provider_failure_without_finish)
        {
            self.report_diff(
                "CHUNK-3",
                u,
                format!(
                    "a model call's chunk run has no `finish`, yet turn {} ends `{reason}`",
                    turn.number
                ),
                "a `finish` chunk (or a cancelled turn ending `aborted`)",
                "the run stops without `finish`",
            );
        }
        // A cancel, a throw or a crash between the `finish` and the message append leaves a
        // finished call without its message; only a turn that ended normally owes it.
        if let Some(m_at) = turn.missing_message
            && matches!(reason.as_str(), "completed" | "max-tokens")
        {
            self.report(
                "MSG-5",
                m_at,
                format!(
                    "a model call of turn {} finished successfully but no `assistant/message` finalizes it (the turn ends `{reason}`)",
                    turn.number
                ),
            );
        }
    }
}
