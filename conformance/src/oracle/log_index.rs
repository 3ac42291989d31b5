//! Where each event of a recorded log sits, by ordinal turn and step, and the log's recorded
//! chunks.

use crate::driver::{Exchange, Observation};
use crate::scenario::Case;
use crate::vocab::chunk::StreamChunk;
use crate::vocab::durable::{AssistantChunkData, SessionEvent};
use serde::Deserialize;

/// The planned turn (its number in the script's plan) each recorded `turn/start` plays, in log
/// order; `None` for a turn the plan does not have.
///
/// A recorded turn plays a turn of the input the harness delivered last before it: the k-th
/// turn recorded after an input's delivery (and before the next input's) is the k-th turn the
/// plan gives that input (its prompt turn, then a 2026-07 leftover turn). So an input that
/// opened no turn (an idle injection the loop never recorded) leaves its planned turn without a
/// recorded one instead of handing its number to the next input's turn, and a turn the plan
/// does not have (one started for steering a cancel dropped, one started by nothing) takes no
/// planned turn's number: each divergence is then judged on its own turn.
pub(super) fn planned_turns(case: &Case, obs: &Observation) -> Vec<Option<u64>> {
    let plan = case.script.plan(case.profile);
    let inputs: Vec<(usize, u64)> = obs
        .transcript
        .iter()
        .filter_map(|x| match x {
            Exchange::Input { action, at } => Some((*action, *at)),
            _ => None,
        })
        .collect();
    // How many turns recorded so far in the window of each delivered input.
    let mut taken = vec![0usize; inputs.len()];
    obs.log
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == "turn/start")
        .map(|(i, _)| {
            let w = inputs.iter().rposition(|(_, at)| *at <= i as u64)?;
            let k = taken[w];
            taken[w] += 1;
            plan.iter()
                .filter(|t| t.action == inputs[w].0)
                .nth(k)
                .map(|t| t.turn)
        })
        .collect()
}

/// Where each event of a log sits: the ordinal of the open turn and step (the n-th
/// `turn/start`, the n-th `step/start` since it). The oracle compares by ordinals, so that a
/// wrongly *numbered* turn or step is the checker's finding (TURN-1, STEP-1, STEP-3), not a
/// chunk divergence. A `step/start` that opens again the step that is still open (same
/// number, no `step/end` between) does not start another ordinal step: the checker reports the
/// nesting (STEP-2), and the events after it still belong to the step the script planned.
pub(super) struct LogIndex {
    pub(super) ords: Vec<(u64, u64)>,
    pub(super) step_starts: Vec<((u64, u64), usize)>,
    pub(super) step_ends: Vec<((u64, u64), usize)>,
    pub(super) turn_starts: Vec<(u64, usize)>,
    pub(super) turn_ends: Vec<(u64, usize)>,
}

/// The ordinal of the events of a turn the plan does not have: no planned turn is numbered 0.
pub(super) const UNPLANNED: u64 = 0;

impl LogIndex {
    /// The index of a case's log, each turn numbered by the planned turn it plays
    /// ([`planned_turns`]).
    pub(super) fn aligned(case: &Case, obs: &Observation) -> LogIndex {
        LogIndex::numbered(&obs.log, &planned_turns(case, obs))
    }

    /// The index of a log whose n-th `turn/start` plays `turns[n]` (`None`: no planned turn).
    fn numbered(log: &[SessionEvent], turns: &[Option<u64>]) -> LogIndex {
        let (mut t, mut s) = (0, 0);
        let mut n = 0;
        // The number the open step's `step/start` named, while no `step/end` closed it.
        let mut open: Option<Option<u64>> = None;
        let mut ix = LogIndex {
            ords: Vec::with_capacity(log.len()),
            step_starts: Vec::new(),
            step_ends: Vec::new(),
            turn_starts: Vec::new(),
            turn_ends: Vec::new(),
        };
        for (i, e) in log.iter().enumerate() {
            match e.kind.as_str() {
                "turn/start" => {
                    t = turns.get(n).copied().flatten().unwrap_or(UNPLANNED);
                    n += 1;
                    s = 0;
                    open = None;
                    ix.turn_starts.push((t, i));
                }
                "step/start" => {
                    let named = e.data.get("step").and_then(serde_json::Value::as_u64);
                    if open.is_none_or(|n| n.is_none() || n != named) {
                        s += 1;
                        ix.step_starts.push(((t, s), i));
                    }
                    open = Some(named);
                }
                "step/end" => {
                    open = None;
                    ix.step_ends.push(((t, s), i));
                }
                "turn/end" => ix.turn_ends.push((t, i)),
                _ => {}
            }
            ix.ords.push((t, s));
        }
        ix
    }

    pub(super) fn step_start(&self, turn: u64, step: u64) -> Option<usize> {
        self.step_starts
            .iter()
            .find(|(k, _)| *k == (turn, step))
            .map(|(_, i)| *i)
    }

    pub(super) fn step_end(&self, turn: u64, step: u64) -> Option<usize> {
        self.step_ends
            .iter()
            .find(|(k, _)| *k == (turn, step))
            .map(|(_, i)| *i)
    }

    /// The `turn/start` of the recorded turn that plays planned turn `turn`.
    pub(super) fn turn_start(&self, turn: u64) -> Option<usize> {
        self.turn_starts
            .iter()
            .find(|(k, _)| *k == turn && turn != UNPLANNED)
            .map(|(_, i)| *i)
    }

    pub(super) fn turn_end(&self, turn: u64) -> Option<usize> {
        self.turn_ends
            .iter()
            .find(|(k, _)| *k == turn && turn != UNPLANNED)
            .map(|(_, i)| *i)
    }

    /// The first event of `kind` in the ordinal step.
    pub(super) fn first_in_step(
        &self,
        log: &[SessionEvent],
        kind: &str,
        turn: u64,
        step: u64,
    ) -> Option<usize> {
        let start = self.step_start(turn, step)?;
        (start..log.len()).find(|i| self.ords[*i] == (turn, step) && log[*i].kind == kind)
    }
}

/// A recorded chunk event.
#[derive(Debug, Clone)]
pub(super) struct ObservedChunk {
    pub(super) position: u64,
    /// The ordinal turn and step it was recorded in.
    pub(super) turn: u64,
    pub(super) step: u64,
    /// The turn and step it names.
    pub(super) named: (u64, u64),
    pub(super) chunk: StreamChunk,
}

/// The recorded chunk events of a log, with where they sit.
pub(super) fn observed_chunks(log: &[SessionEvent], ix: &LogIndex) -> Vec<ObservedChunk> {
    log.iter()
        .enumerate()
        .filter(|(_, e)| e.kind == "assistant/chunk")
        .filter_map(|(i, e)| {
            // A malformed chunk event is the checker's to report; it is skipped here.
            let d = AssistantChunkData::deserialize(&e.data).ok()?;
            let (turn, step) = ix.ords[i];
            Some(ObservedChunk {
                position: i as u64,
                turn,
                step,
                named: (d.turn, d.step),
                chunk: d.chunk,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::driver::{Exchange, Observation};
    use crate::oracle::{oracle_findings, reference_run as run};
    use crate::scenario::Action;
    use crate::scenario::generate::cases;
    use crate::vocab::Profile;
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;

    /// The reference's observation with the events `from..to` of its log removed, as a loop
    /// that never recorded them leaves it: every later position shifts back.
    fn without(obs: &Observation, from: usize, to: usize) -> Observation {
        let mut cut = obs.clone();
        cut.log.drain(from..to);
        let removed = (to - from) as u64;
        let shift = |at: &mut u64| {
            if *at >= to as u64 {
                *at -= removed;
            } else if *at > from as u64 {
                *at = from as u64;
            }
        };
        for x in &mut cut.transcript {
            match x {
                Exchange::Input { at, .. }
                | Exchange::ModelRequest { at, .. }
                | Exchange::Chunk { at, .. } => shift(at),
                _ => {}
            }
        }
        for e in &mut cut.live {
            if let Some(at) = &mut e.at {
                shift(at);
            }
        }
        cut
    }

    /// MSG-7 (issue #28 item 3): over generated 2026-07 cases, an idle injection whose turn a
    /// loop never recorded is MSG-7's alone: every other turn is still judged as itself (no
    /// TURN-10 trigger, TURN-7 reason or CHUNK-1 divergence moved onto the next turn).
    #[test]
    fn an_unrecorded_injection_is_msg_7_alone_in_every_generated_case() {
        let mut runner = TestRunner::deterministic();
        let strategy = cases(Profile::V2026_07);
        let mut judged = 0;
        for _ in 0..400 {
            let case = strategy.new_tree(&mut runner).expect("a case").current();
            let obs = run(&case);
            assert!(oracle_findings(&case, &obs).is_empty(), "{case}");
            // The first injection the harness delivered, and its turn: `turn/start` to `turn/end`.
            let Some(at) = obs.transcript.iter().find_map(|x| match x {
                Exchange::Input { action, at }
                    if matches!(case.script.actions[*action], Action::Inject { .. }) =>
                {
                    Some(*at as usize)
                }
                _ => None,
            }) else {
                continue;
            };
            let start = (at..obs.log.len())
                .find(|i| obs.log[*i].kind == "turn/start")
                .expect("the injection's turn");
            let end = (start..obs.log.len())
                .find(|i| obs.log[*i].kind == "turn/end")
                .expect("it ends");
            let findings = oracle_findings(&case, &without(&obs, start, end + 1));
            let ids: Vec<&str> = findings.iter().map(|f| f.requirement).collect();
            assert_eq!(ids, ["MSG-7"], "{case}\n{findings:#?}");
            judged += 1;
        }
        assert!(
            judged >= 20,
            "only {judged} generated cases had an injection"
        );
    }
}
