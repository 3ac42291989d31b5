//! Where an event may lie: inside a turn or a step (TURN-3), and not inside a model call's
//! run of chunks (remembered here, reported as CHUNK-2 if the run continues).

use super::Monitor;
use crate::check::event::Loc;
use crate::vocab::Profile;
use crate::vocab::durable::Scope;

impl Monitor {
    /// Remembers an event that lands inside an open model call's run (CHUNK-2 if the run then
    /// continues). Under 2026-08 free-scope events (a concurrent steer's `agent/inbox/spliced`)
    /// may interleave a run; under 2026-07 nothing may.
    pub(super) fn note_interleaving(&mut self, at: Loc, kind: &str, scope: Scope) {
        if kind == "assistant/chunk"
            || kind == "assistant/message"
            || (self.profile == Profile::V2026_08 && scope == Scope::Free)
        {
            return;
        }
        if let Some(step) = self.step_mut()
            && step.interleaved.is_none()
            && step
                .call
                .as_ref()
                .is_some_and(|c| c.finish.is_none() && !c.closed && !c.seqs.is_empty())
        {
            step.interleaved = Some((at, kind.to_owned()));
        }
    }

    /// TURN-3: where an event may lie.
    pub(super) fn enclosure(&mut self, at: Loc, kind: &str, scope: Scope) {
        let in_turn = self.turn.is_some();
        let in_step = self.turn.as_ref().is_some_and(|t| t.step.is_some());
        let needs_turn = self.profile == Profile::V2026_07 || scope == Scope::Turn;
        match scope {
            Scope::Step if !in_step => {
                self.report(
                    "TURN-3",
                    at,
                    format!("`{kind}` must lie inside a step, but no step is open"),
                );
            }
            Scope::Boundary | Scope::Step => {}
            _ if needs_turn && !in_turn => {
                let why = if self.profile == Profile::V2026_07 {
                    "under 2026-07 every non-boundary event must lie inside a turn"
                } else {
                    "it must lie inside a turn"
                };
                self.report(
                    "TURN-3",
                    at,
                    format!("`{kind}` appears between turns; {why}"),
                );
            }
            _ => {}
        }
    }
}
