//! 2026-07 `steering/message`: it names the open turn and lands only where steering may
//! land (STEER-1).

use super::Monitor;
use crate::check::event::{Envelope, Loc};
use crate::check::values::parse_u64;

impl Monitor {
    pub(super) fn steering(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.parse_data(at, env) else {
            return;
        };
        let turn_no = data.turn.and_then(parse_u64);
        let Some(turn) = self.turn.as_ref() else {
            return;
        };
        if turn_no != Some(turn.number) {
            let (expected, observed) = (turn.number, turn_no);
            self.report_diff(
                "STEER-1",
                at,
                "`steering/message` does not name the open turn",
                format!("turn {expected}"),
                observed.map_or("none".to_owned(), |n| format!("turn {n}")),
            );
        }
        let Some(step) = self.turn.as_ref().and_then(|t| t.step.as_ref()) else {
            return;
        };
        let failed = match &step.call {
            None => true,
            Some(c) => c.finish.as_ref().is_none_or(|f| f.failure),
        };
        if failed {
            self.report(
                "STEER-1",
                at,
                "`steering/message` inside a step that has no successful model call: steering lands between steps or after a successful step body",
            );
        }
    }
}
