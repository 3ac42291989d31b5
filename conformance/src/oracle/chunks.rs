//! CHUNK-1, CHUNK-3, CHUNK-4 and CHUNK-5 against the script: the recorded chunk sequence
//! against the delivered one, each divergence reported on its own.

use super::align::{Edit, align, matches_at};
use super::describe::describe_chunk;
use super::divergence::name_divergence;
use super::expected::{ChunkRole, Expected, ExpectedChunk};
use super::finding::{Finding, Origin};
use super::log_index::{LogIndex, ObservedChunk, observed_chunks};
use crate::driver::UNSCRIPTED_CALL;
use crate::scenario::Case;
use crate::vocab::chunk::{FinishReason, StreamChunk};
use crate::vocab::durable::SessionEvent;

/// The expected and observed chunks around a divergence (two before, two after).
pub(super) fn window(
    expected: &[ExpectedChunk],
    i: usize,
    observed: &[ObservedChunk],
    j: usize,
) -> (Vec<String>, Vec<String>) {
    let lo_e = i.saturating_sub(2);
    let lo_o = j.saturating_sub(2);
    let exp = expected
        .iter()
        .enumerate()
        .skip(lo_e)
        .take(5)
        .map(|(k, c)| {
            format!(
                "{} {}/{} {}",
                if k == i { ">" } else { " " },
                c.turn,
                c.step,
                describe_chunk(&c.chunk)
            )
        })
        .collect();
    let obs = observed
        .iter()
        .enumerate()
        .skip(lo_o)
        .take(5)
        .map(|(k, c)| {
            format!(
                "{} #{} {}/{} {}",
                if k == j { ">" } else { " " },
                c.position,
                c.named.0,
                c.named.1,
                describe_chunk(&c.chunk)
            )
        })
        .collect();
    (exp, obs)
}

/// Whether `chunk` is the `finish {error}` recording the harness's `UNSCRIPTED_CALL` failure.
fn refuses_unscripted_call(chunk: &StreamChunk) -> bool {
    matches!(
        chunk,
        StreamChunk::Finish {
            reason: FinishReason::Error { failure: Some(f), .. },
            ..
        } if f.code == UNSCRIPTED_CALL
    )
}

/// Compares the recorded chunks with the delivered ones and reports each divergence on its
/// own: the alignment re-synchronises at the next chunk recorded as delivered, so a divergence
/// in one step does not hide a different one later (a coalesced delta in turn 1 and a chunk
/// recorded after a cancel in turn 2 are two findings). Each divergent region of the
/// alignment gives one finding; of several of one requirement in one turn the first is kept
/// (the later ones say nothing new, and a report stays short).
pub(super) fn compare_chunks(
    case: &Case,
    expected: &Expected,
    log: &[SessionEvent],
    ix: &LogIndex,
) -> Vec<Finding> {
    let exp = &expected.chunks;
    // The `finish {error}` a 2026-08 loop records for the harness's refusal of a model call the
    // script does not have is that call's consequence, reported with it (or with the turn the
    // plan lacks): never a chunk the model delivered out of place.
    let obs: Vec<ObservedChunk> = observed_chunks(log, ix)
        .into_iter()
        .filter(|o| !refuses_unscripted_call(&o.chunk))
        .collect();
    if exp.len() == obs.len() && (0..exp.len()).all(|k| matches_at(exp, k, &obs[k])) {
        return Vec::new();
    }
    let edits = align(exp, &obs);
    let mut out: Vec<Finding> = Vec::new();
    let mut seen: Vec<(&'static str, u64)> = Vec::new();
    for first in 0..edits.len() {
        let starts_region = !matches!(edits[first], Edit::Match(..))
            && (first == 0 || matches!(edits[first - 1], Edit::Match(..)));
        if !starts_region {
            continue;
        }
        let Some(f) = divergence_at(case, expected, log, ix, &obs, &edits, first) else {
            continue;
        };
        let turn = match edits[first] {
            Edit::Match(i, j) | Edit::Missing(i, j) | Edit::Extra(i, j) => exp
                .get(i)
                .map(|e| e.turn)
                .or_else(|| obs.get(j).map(|o| o.turn))
                .unwrap_or(0),
        };
        if !seen.contains(&(f.requirement, turn)) {
            seen.push((f.requirement, turn));
            out.push(f);
        }
    }
    out
}

/// The finding of the divergent region of the alignment that starts at `edits[first]`.
fn divergence_at(
    case: &Case,
    expected: &Expected,
    log: &[SessionEvent],
    ix: &LogIndex,
    obs: &[ObservedChunk],
    edits: &[Edit],
    first: usize,
) -> Option<Finding> {
    let exp = &expected.chunks;
    let (i, j) = match edits[first] {
        Edit::Match(i, j) | Edit::Missing(i, j) | Edit::Extra(i, j) => (i, j),
    };
    let missing = |k: usize| {
        edits
            .iter()
            .any(|e| matches!(e, Edit::Missing(x, _) if *x == k))
    };
    // Where the divergence shows: at the observed chunk when it belongs to the expected
    // chunk's step; otherwise where the missing chunk should have been — right after the
    // previous recorded chunk of its step, or right after its step opened.
    let position = match (edits[first], exp.get(i), obs.get(j)) {
        (Edit::Extra(..), _, Some(o)) => o.position,
        (_, Some(e), o) if o.is_none_or(|o| (o.turn, o.step) != (e.turn, e.step)) => j
            .checked_sub(1)
            .map(|p| &obs[p])
            .filter(|prev| (prev.turn, prev.step) == (e.turn, e.step))
            .map(|prev| prev.position + 1)
            .or_else(|| ix.step_start(e.turn, e.step).map(|p| p as u64 + 1))
            .or(o.map(|o| o.position))
            .unwrap_or(log.len() as u64),
        (_, _, Some(o)) => o.position,
        (_, _, None) => j
            .checked_sub(1)
            .map_or(log.len() as u64, |p| obs[p].position + 1),
    };
    let (exp_w, obs_w) = window(exp, i, obs, j);
    let finding = |requirement: &'static str, message: String| {
        Some(Finding {
            requirement,
            error: true,
            position: Some(position),
            message,
            expected: exp_w.clone(),
            observed: obs_w.clone(),
            origin: Origin::Oracle,
        })
    };
    match edits[first] {
        Edit::Extra(i, j) => {
            let o = &obs[j];
            // The chunk at the cancel point is the last the harness delivers in its call: an
            // equal chunk with more of its step's chunks recorded after it belongs to a rewrite
            // (a retry's replayed chunks, say), which is CHUNK-1's.
            let last_of_step = obs[j + 1..]
                .iter()
                .all(|n| (n.turn, n.step) != (o.turn, o.step));
            if let Some((_, t, s, c)) = expected.forbidden.iter().find(|(at, t, s, c)| {
                *at == i && (*t, *s) == (o.turn, o.step) && *c == o.chunk && last_of_step
            }) {
                let mut f = finding(
                    "CHUNK-5",
                    format!(
                        "turn {t} step {s}: `{}` was recorded although the cancel was observed at it: nothing at or after the cancel point may be appended",
                        describe_chunk(c)
                    ),
                );
                if let Some(f) = &mut f {
                    f.expected.push(format!(
                        "  (cancel observed at {}: nothing more is recorded)",
                        describe_chunk(c)
                    ));
                }
                return f;
            }
            finding("CHUNK-1", name_divergence(exp, obs, edits, first))
        }
        Edit::Missing(i, _) => {
            let e = &exp[i];
            if e.role == ChunkRole::Synthetic {
                return finding(
                    "CHUNK-3",
                    format!(
                        "turn {} step {}: the model adapter threw; under {} the throw must be recorded as a terminal `finish {{error}}` chunk",
                        e.turn, e.step, case.profile
                    ),
                );
            }
            // CHUNK-4: everything from here to the end of a failed or cancelled stream is lost.
            let tail_lost = (i..exp.len())
                .take_while(|k| exp[*k].call == e.call)
                .all(|k| exp[k].role == ChunkRole::Synthetic || missing(k));
            // …and nothing was recorded in their place (that would be a rewrite: CHUNK-1).
            let replaced = edits[first..]
                .iter()
                .take_while(|x| !matches!(x, Edit::Match(..)))
                .any(|x| matches!(x, Edit::Extra(..)));
            // A lost tail of nothing but empty deltas is what merging them into the previous
            // delta looks like: that is CHUNK-1's.
            let only_empty_deltas = (i..exp.len())
                .take_while(|k| exp[*k].call == e.call)
                .filter(|k| missing(*k))
                .all(|k| match &exp[k].chunk {
                    StreamChunk::TextDelta { text, .. }
                    | StreamChunk::ReasoningDelta { text, .. } => text.is_empty(),
                    StreamChunk::ToolCallDelta {
                        arguments_delta, ..
                    } => arguments_delta.is_empty(),
                    _ => false,
                });
            if e.role == ChunkRole::Kept && tail_lost && !replaced && !only_empty_deltas {
                let lost = (i..exp.len())
                    .take_while(|k| exp[*k].call == e.call)
                    .filter(|k| missing(*k))
                    .count();
                return finding(
                    "CHUNK-4",
                    format!(
                        "turn {} step {}: the last {lost} chunk(s) a {} model call delivered were not kept, starting with chunk {} `{}`",
                        e.turn,
                        e.step,
                        if expected.interrupted_calls.contains(&e.call) {
                            "cancelled"
                        } else {
                            "failed"
                        },
                        e.index,
                        describe_chunk(&e.chunk)
                    ),
                );
            }
            finding("CHUNK-1", name_divergence(exp, obs, edits, first))
        }
        Edit::Match(..) => None,
    }
}
