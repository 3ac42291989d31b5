//! Names what happened at the first divergence of the recorded chunks from the delivered ones
//! (CHUNK-1): several deltas merged into one durable chunk, one delta split into several, a
//! chunk reordered, dropped, duplicated or rewritten, or one the model never delivered.
//!
//! Chunks are named by their position in their model call (`chunk 2 of model call 1`, counted
//! from 0 as in the script's `chunks` array) and, once recorded, by their log position (`#5`).

use super::align::{Edit, matches_at};
use super::describe::describe_chunk;
use super::expected::ExpectedChunk;
use super::log_index::ObservedChunk;
use crate::vocab::chunk::StreamChunk;

/// The delta payload of a chunk: (variant, block index, tool-call id, text).
fn delta(chunk: &StreamChunk) -> Option<(u8, u32, &str, &str)> {
    match chunk {
        StreamChunk::TextDelta { index, text } => Some((0, *index, "", text)),
        StreamChunk::ReasoningDelta { index, text } => Some((1, *index, "", text)),
        StreamChunk::ToolCallDelta {
            index,
            id,
            arguments_delta,
            ..
        } => Some((2, *index, id, arguments_delta)),
        _ => None,
    }
}

/// Whether `parts` are deltas of one block whose texts concatenate to `whole`'s delta text.
fn concatenate_to(parts: &[&StreamChunk], whole: &StreamChunk) -> bool {
    let Some((kind, index, id, text)) = delta(whole) else {
        return false;
    };
    let mut joined = String::new();
    for p in parts {
        match delta(p) {
            Some((k, i, pid, t)) if (k, i, pid) == (kind, index, id) => joined.push_str(t),
            _ => return false,
        }
    }
    joined == text
}

/// Up to three chunk descriptions, quoted, then how many more.
fn listed<'a>(chunks: impl Iterator<Item = &'a StreamChunk>) -> String {
    let all: Vec<String> = chunks.map(|c| format!("`{}`", describe_chunk(c))).collect();
    if all.len() <= 3 {
        all.join(", ")
    } else {
        format!("{}, … ({} in all)", all[..3].join(", "), all.len())
    }
}

/// "chunk 2" or "chunks 2–4".
fn chunk_range(first: usize, last: usize) -> String {
    if first == last {
        format!("chunk {first}")
    } else {
        format!("chunks {first}–{last}")
    }
}

/// "#5" or "#5–#7".
fn position_range(obs: &[ObservedChunk], xs: &[usize]) -> String {
    match (xs.first(), xs.last()) {
        (Some(a), Some(b)) if a != b => format!("#{}–#{}", obs[*a].position, obs[*b].position),
        (Some(a), _) => format!("#{}", obs[*a].position),
        _ => String::new(),
    }
}

/// The CHUNK-1 message for the divergence that starts at `edits[first]`.
pub(super) fn name_divergence(
    exp: &[ExpectedChunk],
    obs: &[ObservedChunk],
    edits: &[Edit],
    first: usize,
) -> String {
    // The divergent region: the edits from `first` up to the next match.
    let region: Vec<Edit> = edits[first..]
        .iter()
        .copied()
        .take_while(|e| !matches!(e, Edit::Match(..)))
        .collect();
    let missing: Vec<usize> = region
        .iter()
        .filter_map(|e| match e {
            Edit::Missing(i, _) => Some(*i),
            _ => None,
        })
        .collect();
    let extra: Vec<usize> = region
        .iter()
        .filter_map(|e| match e {
            Edit::Extra(_, j) => Some(*j),
            _ => None,
        })
        .collect();
    let contiguous = |v: &[usize]| v.windows(2).all(|w| w[1] == w[0] + 1);
    let same_call = |v: &[usize]| v.windows(2).all(|w| exp[w[0]].call == exp[w[1]].call);

    // N deltas merged into one durable chunk.
    if let [x] = extra.as_slice()
        && missing.len() >= 2
        && contiguous(&missing)
        && same_call(&missing)
    {
        let parts: Vec<&StreamChunk> = missing.iter().map(|i| &exp[*i].chunk).collect();
        if concatenate_to(&parts, &obs[*x].chunk) {
            let (a, b) = (&exp[missing[0]], &exp[missing[missing.len() - 1]]);
            return format!(
                "turn {} step {}: {} of model call {} ({} deltas: {}) were merged into one durable chunk, #{} `{}`: each delivered chunk is recorded as its own event",
                a.turn,
                a.step,
                chunk_range(a.index, b.index),
                a.call + 1,
                missing.len(),
                listed(parts.into_iter()),
                obs[*x].position,
                describe_chunk(&obs[*x].chunk)
            );
        }
    }
    // One delta split into N durable chunks.
    if let [m] = missing.as_slice()
        && extra.len() >= 2
        && contiguous(&extra)
    {
        let parts: Vec<&StreamChunk> = extra.iter().map(|j| &obs[*j].chunk).collect();
        if concatenate_to(&parts, &exp[*m].chunk) {
            let e = &exp[*m];
            return format!(
                "turn {} step {}: chunk {} of model call {} `{}` was split into {} durable chunks, {} ({}): each delivered chunk is recorded as exactly one event",
                e.turn,
                e.step,
                e.index,
                e.call + 1,
                describe_chunk(&e.chunk),
                extra.len(),
                position_range(obs, &extra),
                listed(parts.into_iter())
            );
        }
    }
    let later = &edits[first + 1..];
    match edits[first] {
        Edit::Missing(i, _) => {
            let e = &exp[i];
            // Recorded, but later than chunks delivered after it: reordered.
            if let Some(j) = later.iter().find_map(|x| match x {
                Edit::Extra(_, j) if matches_at(exp, i, &obs[*j]) => Some(*j),
                _ => None,
            }) {
                return format!(
                    "turn {} step {}: chunk {} of model call {} `{}` was recorded out of order, at #{} after chunks delivered later: chunks are recorded in arrival order",
                    e.turn,
                    e.step,
                    e.index,
                    e.call + 1,
                    describe_chunk(&e.chunk),
                    obs[j].position
                );
            }
            if !extra.is_empty() {
                return format!(
                    "turn {} step {}: {} of model call {} ({}) {} recorded as {} ({}): chunks are recorded verbatim",
                    e.turn,
                    e.step,
                    chunk_range(e.index, exp[missing[missing.len() - 1]].index),
                    e.call + 1,
                    listed(missing.iter().map(|i| &exp[*i].chunk)),
                    if missing.len() == 1 { "was" } else { "were" },
                    position_range(obs, &extra),
                    listed(extra.iter().map(|j| &obs[*j].chunk))
                );
            }
            let empty = delta(&e.chunk).is_some_and(|(_, _, _, t)| t.is_empty());
            let lost = missing.len();
            format!(
                "turn {} step {}: {} of model call {} ({}) {} delivered but never recorded{}",
                e.turn,
                e.step,
                chunk_range(e.index, exp[missing[lost - 1]].index),
                e.call + 1,
                listed(missing.iter().map(|i| &exp[*i].chunk)),
                if lost == 1 { "was" } else { "were" },
                if empty && lost == 1 {
                    " (an empty delta: merged into a neighbouring chunk, or dropped)"
                } else {
                    " (dropped)"
                }
            )
        }
        Edit::Extra(next, j) => {
            let o = &obs[j];
            // Recorded before chunks delivered ahead of it: reordered.
            if let Some(k) = later.iter().find_map(|x| match x {
                Edit::Missing(k, _) if matches_at(exp, *k, o) => Some(*k),
                _ => None,
            }) {
                let e = &exp[k];
                let before = exp.get(next).map_or(String::new(), |n| {
                    format!(", before chunk {} `{}`", n.index, describe_chunk(&n.chunk))
                });
                return format!(
                    "turn {} step {}: chunk {} of model call {} `{}` was recorded early, at #{}{before}: chunks are recorded in arrival order",
                    e.turn,
                    e.step,
                    e.index,
                    e.call + 1,
                    describe_chunk(&e.chunk),
                    o.position
                );
            }
            // The same chunk recorded twice.
            if let Some((k, p)) = edits[..first].iter().rev().find_map(|x| match x {
                Edit::Match(k, p)
                    if obs[*p].chunk == o.chunk
                        && (obs[*p].turn, obs[*p].step) == (o.turn, o.step) =>
                {
                    Some((*k, *p))
                }
                _ => None,
            }) {
                let e = &exp[k];
                return format!(
                    "turn {} step {}: chunk {} of model call {} `{}` was recorded twice, at #{} and #{}: each delivered chunk is recorded exactly once",
                    e.turn,
                    e.step,
                    e.index,
                    e.call + 1,
                    describe_chunk(&e.chunk),
                    obs[p].position,
                    o.position
                );
            }
            if let Some(m) = missing.first() {
                let e = &exp[*m];
                return format!(
                    "turn {} step {}: {} ({}) recorded in place of {} of model call {} ({}): chunks are recorded verbatim",
                    e.turn,
                    e.step,
                    position_range(obs, &extra),
                    listed(extra.iter().map(|j| &obs[*j].chunk)),
                    chunk_range(e.index, exp[missing[missing.len() - 1]].index),
                    e.call + 1,
                    listed(missing.iter().map(|i| &exp[*i].chunk))
                );
            }
            format!(
                "turn {} step {}: #{} `{}` is an extra chunk, which the model never delivered there",
                o.named.0,
                o.named.1,
                o.position,
                describe_chunk(&o.chunk)
            )
        }
        Edit::Match(..) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::align::align;
    use crate::oracle::expected::ChunkRole;

    fn text(t: &str) -> StreamChunk {
        StreamChunk::TextDelta {
            index: 0,
            text: t.to_owned(),
        }
    }

    fn finish() -> StreamChunk {
        serde_json::from_value(serde_json::json!({"type":"finish","reason":{"kind":"stop"}}))
            .expect("a finish chunk")
    }

    /// The message for delivering `delivered` and recording `recorded` (log positions from 3).
    fn named(delivered: &[StreamChunk], recorded: &[StreamChunk]) -> String {
        let exp: Vec<ExpectedChunk> = delivered
            .iter()
            .enumerate()
            .map(|(index, chunk)| ExpectedChunk {
                turn: 1,
                step: 1,
                chunk: chunk.clone(),
                role: ChunkRole::Normal,
                call: 0,
                index,
            })
            .collect();
        let obs: Vec<ObservedChunk> = recorded
            .iter()
            .enumerate()
            .map(|(k, chunk)| ObservedChunk {
                position: k as u64 + 3,
                turn: 1,
                step: 1,
                named: (1, 1),
                chunk: chunk.clone(),
            })
            .collect();
        let edits = align(&exp, &obs);
        let first = edits
            .iter()
            .position(|e| !matches!(e, Edit::Match(..)))
            .expect("a divergence");
        name_divergence(&exp, &obs, &edits, first)
    }

    #[test]
    fn merged_deltas_are_named_with_their_indices() {
        let m = named(
            &[text("a"), text("b"), text("c"), finish()],
            &[text("abc"), finish()],
        );
        assert!(
            m.contains("chunks 0–2 of model call 1 (3 deltas: `text-delta[0] \"a\"`, `text-delta[0] \"b\"`, `text-delta[0] \"c\"`) were merged into one durable chunk, #3"),
            "{m}"
        );
    }

    #[test]
    fn a_split_delta_is_named() {
        let m = named(&[text("ab"), finish()], &[text("a"), text("b"), finish()]);
        assert!(
            m.contains("chunk 0 of model call 1 `text-delta[0] \"ab\"` was split into 2 durable chunks, #3–#4"),
            "{m}"
        );
    }

    #[test]
    fn reordered_dropped_duplicated_and_extra_chunks_are_named() {
        let m = named(
            &[text("a"), text("b"), finish()],
            &[text("b"), text("a"), finish()],
        );
        assert!(
            m.contains(
                "chunk 0 of model call 1 `text-delta[0] \"a\"` was recorded out of order, at #4"
            ),
            "{m}"
        );
        let m = named(&[text("a"), text("b"), finish()], &[text("a"), finish()]);
        assert!(
            m.contains("chunk 1 of model call 1 (`text-delta[0] \"b\"`) was delivered but never recorded (dropped)"),
            "{m}"
        );
        let m = named(&[text("a"), text(""), finish()], &[text("a"), finish()]);
        assert!(m.contains("an empty delta"), "{m}");
        let m = named(&[text("a"), finish()], &[text("a"), text("a"), finish()]);
        assert!(
            m.contains(
                "chunk 0 of model call 1 `text-delta[0] \"a\"` was recorded twice, at #3 and #4"
            ),
            "{m}"
        );
        let m = named(&[text("a"), finish()], &[text("a"), text("z"), finish()]);
        assert!(
            m.contains("#4 `text-delta[0] \"z\"` is an extra chunk"),
            "{m}"
        );
        let m = named(&[text("a"), finish()], &[text("z"), finish()]);
        assert!(
            m.contains("chunk 0 of model call 1 (`text-delta[0] \"a\"`) was recorded as #3 (`text-delta[0] \"z\"`)"),
            "{m}"
        );
    }
}
