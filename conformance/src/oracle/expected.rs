//! What a script implies, derived once per case: the chunks that must be recorded (and the one
//! at each cancel point that must not), the steering messages, and each turn's end reason.

use crate::scenario::{CallEnding, Case, InterruptKind, ModelCall, settling_call};
use crate::vocab::Profile;
use crate::vocab::chunk::{FinishReason, StreamChunk};
use std::collections::BTreeSet;

/// What a delivered chunk is, for attribution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ChunkRole {
    /// A chunk of a call that succeeded.
    Normal,
    /// A chunk of a failed or interrupted call, which must be kept (CHUNK-4).
    Kept,
    /// 2026-08: the `finish {error}` chunk an adapter throw is recorded as (CHUNK-3).
    Synthetic,
}

/// One chunk the implementation must record.
#[derive(Debug, Clone)]
pub(super) struct ExpectedChunk {
    pub(super) turn: u64,
    pub(super) step: u64,
    pub(super) chunk: StreamChunk,
    pub(super) role: ChunkRole,
    /// Index of the call in script order.
    pub(super) call: usize,
    /// Index of the chunk within its call.
    pub(super) index: usize,
}

/// One steering message the implementation must record.
#[derive(Debug, Clone)]
pub(super) struct ExpectedSteer {
    pub(super) turn: u64,
    pub(super) step: u64,
    pub(super) text: String,
    /// Steering sent during a call that ended its turn early (a failure, a cancel) is left
    /// over: the next turn (this one) claims it right after its prompt (2026-08), or is that
    /// turn's prompt (2026-07, after a failure: the leftover runs as a turn of its own).
    pub(super) leftover_to: Option<u64>,
    /// 2026-08 steering pending at a cancel: upstream's `cancel()` clears the inbox (recording
    /// the discard as `agent/inbox/spliced {outcome: "canceled"}`) while `cancel({keepInbox})`
    /// keeps it for the next turn, so the record may be absent when the log records that
    /// discard; when present it must sit where a leftover belongs.
    pub(super) optional: bool,
    /// 2026-07 steering pending at a cancel: `cancel()` drops it, so it must not be recorded.
    pub(super) dropped: bool,
}

/// How one turn must end, and why.
#[derive(Debug, Clone)]
pub(super) struct ExpectedTurn {
    pub(super) turn: u64,
    pub(super) reason: &'static str,
    pub(super) why: &'static str,
}

/// Everything the oracle derives from a script.
#[derive(Debug, Clone, Default)]
pub(super) struct Expected {
    pub(super) chunks: Vec<ExpectedChunk>,
    /// The chunk at which each interrupt is observed, which must not be recorded: (turn,
    /// step, chunk), with the index in `chunks` where it would have appeared.
    pub(super) forbidden: Vec<(usize, u64, u64, StreamChunk)>,
    pub(super) steers: Vec<ExpectedSteer>,
    pub(super) turns: Vec<ExpectedTurn>,
    /// The script-order indices of the interrupted calls.
    pub(super) interrupted_calls: BTreeSet<usize>,
}

/// The model calls, as (action, call index), that the implementation never requested because
/// it ended their turn early (TURN-8's). Nothing of theirs was delivered, so nothing of theirs
/// is expected.
pub(super) type Skipped = BTreeSet<(usize, usize)>;

impl Expected {
    pub(super) fn of(case: &Case, skipped: &Skipped) -> Expected {
        let mut e = Expected::default();
        let plan = case.script.plan(case.profile);
        let mut call_number = 0;
        for turn in &plan {
            let calls: Vec<(usize, &ModelCall, u64)> = case.script.calls_of(turn).collect();
            let requested = calls
                .iter()
                .take_while(|(c, _, _)| !skipped.contains(&(turn.action, *c)))
                .count();
            // A turn ended early ends with the reason of the calls it ran: each of them
            // continued the turn, so only a max-tokens among them matters.
            let reason = if requested < calls.len() {
                if calls[..requested]
                    .iter()
                    .any(|(_, c, _)| c.ending() == CallEnding::MaxTokens)
                {
                    "max-tokens"
                } else {
                    "completed"
                }
            } else {
                turn.reason
            };
            let why = match reason {
                "aborted" => "the user cancelled (or disposed) while the model streamed",
                "disposed" => "the user disposed of the agent while the model streamed",
                "error" => "the turn's last model call failed and was not retried",
                "max-tokens" => "a model call of the turn hit max-tokens",
                _ if turn.injection => "an idle injection turn completes",
                _ => "every model call of the turn succeeded",
            };
            e.turns.push(ExpectedTurn {
                turn: turn.turn,
                reason,
                why,
            });
            let prompt_calls = case.script.prompt_calls(turn.action);
            for (c, call, step) in calls.iter().take(requested) {
                let ending = call.ending();
                // Steering in a retried call is pending until the call that settles the step.
                let settled = prompt_calls
                    .get(settling_call(prompt_calls, *c))
                    .map_or(ending, ModelCall::ending);
                let role = match ending {
                    CallEnding::Failed | CallEnding::Interrupted(_) => ChunkRole::Kept,
                    _ => ChunkRole::Normal,
                };
                let recorded = match ending {
                    CallEnding::Interrupted(i) => i.after + 1,
                    _ => call.chunks.len(),
                };
                for (index, chunk) in call.chunks.iter().take(recorded).enumerate() {
                    e.chunks.push(ExpectedChunk {
                        turn: turn.turn,
                        step: *step,
                        chunk: chunk.clone(),
                        role,
                        call: call_number,
                        index,
                    });
                }
                if let CallEnding::Interrupted(_) = ending {
                    e.interrupted_calls.insert(call_number);
                    // Only the chunk at which the cancel is observed is ever delivered; a
                    // later one recorded would be one the model never delivered (CHUNK-1).
                    if let Some(chunk) = call.chunks.get(recorded) {
                        e.forbidden
                            .push((e.chunks.len(), turn.turn, *step, chunk.clone()));
                    }
                }
                if let Some(failure) = &call.throw
                    && case.profile == Profile::V2026_08
                    && !matches!(ending, CallEnding::Interrupted(_))
                {
                    e.chunks.push(ExpectedChunk {
                        turn: turn.turn,
                        step: *step,
                        chunk: StreamChunk::Finish {
                            reason: FinishReason::Error {
                                message: None,
                                code: None,
                                failure: Some(failure.clone()),
                            },
                            replay_state: None,
                        },
                        role: ChunkRole::Synthetic,
                        call: call_number,
                        index: call.chunks.len(),
                    });
                }
                let leftover = matches!(settled, CallEnding::Failed | CallEnding::Interrupted(_));
                let cancelled = matches!(settled, CallEnding::Interrupted(i) if i.kind == InterruptKind::Cancel);
                let discardable = case.profile == Profile::V2026_08 && cancelled;
                // 2026-07 `cancel()` drops the cancelled turn's steering (upstream
                // `Agent.cancel`: "not re-enqueued"); there is no discard record.
                let dropped = case.profile == Profile::V2026_07 && cancelled;
                for s in &call.steer {
                    e.steers.push(ExpectedSteer {
                        turn: turn.turn,
                        step: *step,
                        text: s.text.clone(),
                        leftover_to: leftover.then_some(turn.turn + 1),
                        optional: discardable,
                        dropped,
                    });
                }
                call_number += 1;
            }
            // The skipped calls keep their script-order numbers, so later calls are named right.
            call_number += calls.len() - requested;
        }
        e
    }
}
