//! When a dispose has taken effect in a case, so that the implementation may ask for nothing
//! more (`docs/protocol/stdio.md` §2 rule 5: the case ends with `done` once the agent is
//! disposed).
//!
//! A dispose takes effect at once when it is the answer to `next-input` (the agent is idle,
//! no turn runs), and when the turn it interrupted ends when it is a stream item (§4: "after
//! the turn the agent is gone"), which the driver sees as the `turn/end` appended after it.
//! From then on a request (`next-input`, `request-model`, `run-tool`, `request-error`) is a
//! protocol fault: the harness would have to invent an answer for an agent that no longer
//! exists, and answering `end` would hide a loop that keeps running after its dispose.

use super::message::{Input, Item, ToHarness};

/// Where a case stands with respect to a dispose.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum Disposal {
    /// No dispose was delivered.
    #[default]
    None,
    /// A `dispose` stream item was delivered; its turn has not ended yet.
    InTurn,
    /// The dispose took effect: only `emit`, `append`, `done` or `crash` may follow.
    Done(How),
}

/// How the dispose took effect, for the fault report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum How {
    /// The answer to `next-input` was `input {kind: dispose}`.
    Idle,
    /// A `dispose` stream item was delivered and its turn ended with `turn/end`.
    TurnEnded,
}

impl Disposal {
    /// The harness answered `next-input` with `input`.
    pub(super) fn input(&mut self, input: &Input) {
        if matches!(input, Input::Dispose) {
            *self = Disposal::Done(How::Idle);
        }
    }

    /// The harness answered `request-model` with these stream items.
    pub(super) fn stream(&mut self, items: &[Item]) {
        if *self == Disposal::None && items.iter().any(|i| matches!(i, Item::Dispose)) {
            *self = Disposal::InTurn;
        }
    }

    /// The implementation appended a durable event of type `kind`.
    pub(super) fn appended(&mut self, kind: &str) {
        if *self == Disposal::InTurn && kind == "turn/end" {
            *self = Disposal::Done(How::TurnEnded);
        }
    }

    /// The fault when `request` is not allowed any more, `None` while it is.
    pub(super) fn refuse(&self, request: &ToHarness) -> Option<String> {
        let Disposal::Done(how) = self else {
            return None;
        };
        let is_request = matches!(
            request,
            ToHarness::NextInput
                | ToHarness::RequestModel { .. }
                | ToHarness::RunTool { .. }
                | ToHarness::RequestError { .. }
        );
        if !is_request {
            return None;
        }
        let when = match how {
            How::Idle => {
                "after the agent was disposed (the answer to its `next-input` was `input {kind: dispose}`)"
            }
            How::TurnEnded => {
                "after the agent was disposed (a `dispose` stream item was delivered and its turn ended with `turn/end`)"
            }
        };
        Some(format!(
            "it sent `{}` {when}: once the dispose takes effect the case ends with `done` (docs/protocol/stdio.md §2, rule 5)",
            request.type_name()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idle_dispose_refuses_every_later_request() {
        let mut d = Disposal::default();
        assert_eq!(d.refuse(&ToHarness::NextInput), None);
        d.input(&Input::End);
        assert_eq!(d.refuse(&ToHarness::NextInput), None);
        d.input(&Input::Dispose);
        let fault = d.refuse(&ToHarness::NextInput).expect("refused");
        assert!(fault.starts_with("it sent `next-input` after the agent was disposed (the answer"));
        assert!(fault.contains("stdio.md §2, rule 5"));
        assert!(
            d.refuse(&ToHarness::RequestModel { turn: 2, step: 1 })
                .is_some()
        );
        // What ends or reports the disposal is not a request: it is always allowed.
        assert_eq!(d.refuse(&ToHarness::Done), None);
        let emit = ToHarness::Emit {
            event: "agent/disposed".into(),
            agent: None,
            data: serde_json::Value::Null,
        };
        assert_eq!(d.refuse(&emit), None);
    }

    #[test]
    fn a_stream_dispose_takes_effect_when_its_turn_ends() {
        let mut d = Disposal::default();
        d.stream(&[Item::Dispose]);
        assert_eq!(d, Disposal::InTurn);
        // The turn is still open: the loop may still finish it (e.g. run nothing more).
        assert_eq!(d.refuse(&ToHarness::NextInput), None);
        d.appended("assistant/message");
        assert_eq!(d.refuse(&ToHarness::NextInput), None);
        d.appended("turn/end");
        let fault = d.refuse(&ToHarness::NextInput).expect("refused");
        assert!(fault.contains("its turn ended with `turn/end`"), "{fault}");
    }

    #[test]
    fn a_stream_without_dispose_changes_nothing() {
        let mut d = Disposal::default();
        d.stream(&[]);
        d.appended("turn/end");
        assert_eq!(d, Disposal::None);
    }
}
