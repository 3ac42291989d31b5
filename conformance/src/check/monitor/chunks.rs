//! `assistant/chunk`: which model call a chunk belongs to, the structure of each block, and
//! the deltas against their block ends once a call closes (CHUNK-1, CHUNK-2, CHUNK-6, MSG-2).

use super::Monitor;
use crate::check::assemble::{Call, Finish, block_type};
use crate::check::event::{Chunk, ChunkData, Envelope, KindOnly, Loc, chunk_index, loc};
use crate::check::fastline::DeltaLine;
use crate::check::values::{clip, same_characters};
use crate::vocab::Profile;
use serde_json::Value;

impl Monitor {
    /// One expanded member of a packed chunk row.
    pub fn packed_chunk(
        &mut self,
        line: Option<u64>,
        seq: Option<u64>,
        turn: u64,
        step: u64,
        chunk: Chunk<'_>,
    ) {
        let seq = self.resolve_seq(line, seq, "assistant/chunk");
        let at = loc(line, seq);
        self.chunk(at, Some(turn), Some(step), chunk);
    }

    /// The fast path for the commonest line: a plain `assistant/chunk` event parsed in one
    /// pass (no surface metadata, which chunks never carry).
    pub fn plain_chunk(
        &mut self,
        line: Option<u64>,
        seq: Option<u64>,
        time: Option<&str>,
        data: ChunkData<'_>,
    ) {
        let seq = self.resolve_seq(line, seq, "assistant/chunk");
        let at = loc(line, seq);
        if let Some(time) = time
            && time != "null"
            && time.parse::<i64>().is_err()
        {
            self.report(
                "SEQ-2",
                at,
                format!("`time` is not an integer: {}", clip(time)),
            );
        }
        self.chunk_data(at, data);
    }

    /// A text or reasoning delta read by the byte scanner. The quiet case (its seq the next
    /// one, its step open and named, its call open, unfinished and not interrupted, its block
    /// seen and not ended) is recorded here without building a [`Chunk`]; anything else goes
    /// through [`plain_chunk`](Self::plain_chunk), which reports it.
    pub fn delta_line(&mut self, line: Option<u64>, delta: DeltaLine<'_>) {
        if !self.resync && delta.seq == self.next_seq && self.quiet_delta(&delta) {
            self.events += 1;
            self.next_seq = delta.seq.saturating_add(1);
            return;
        }
        self.plain_chunk(line, Some(delta.seq), None, delta.into_data());
    }

    /// Records a delta that [`chunk`](Self::chunk) would record without a finding and
    /// without changing anything but its call's seqs and its block's text; `false` (and
    /// nothing changed) for any other.
    fn quiet_delta(&mut self, delta: &DeltaLine<'_>) -> bool {
        let Some(step) = self.turn.as_mut().and_then(|t| t.step.as_mut()) else {
            return false;
        };
        if step.turn != delta.turn
            || step.number != delta.step
            || step.message.is_some()
            || step.interrupted_message
            || step.interleaved.is_some()
        {
            return false;
        }
        let Some(call) = step.call.as_mut() else {
            return false;
        };
        if call.finish.is_some() || call.first.is_none() {
            return false;
        }
        let Some(block) = call.blocks.iter_mut().find(|b| b.index == delta.index) else {
            return false;
        };
        if block.end.is_some() || block.kind.is_none() {
            return false;
        }
        call.seqs.push(delta.seq);
        block.text.push_str(&delta.text);
        block.deltas = block.deltas.saturating_add(1);
        true
    }

    pub(super) fn chunk_event(&mut self, at: Loc, env: &Envelope<'_>) {
        let data: ChunkData<'_> = match serde_json::from_str(env.data.get()) {
            Ok(d) => d,
            Err(e) => {
                self.report(
                    "LOG-2",
                    at,
                    format!("malformed `assistant/chunk` data: {e}"),
                );
                return;
            }
        };
        self.chunk_data(at, data);
    }

    pub(super) fn chunk_data(&mut self, at: Loc, data: ChunkData<'_>) {
        let Some(raw) = data.chunk else {
            self.report("LOG-2", at, "`assistant/chunk` has no `data.chunk`");
            return;
        };
        let kind: &str = &raw.kind;
        let idx = raw.index;
        let chunk = match kind {
            "block-start" => match (idx, raw.block_type.as_deref()) {
                (Some(index), Some(bt)) => Chunk::BlockStart {
                    index,
                    block_type: bt,
                },
                _ => Chunk::Malformed {
                    kind,
                    why: "needs `index` and `blockType`",
                },
            },
            "text-delta" | "reasoning-delta" => match (idx, raw.text.as_deref()) {
                (Some(index), Some(text)) if kind == "text-delta" => {
                    Chunk::TextDelta { index, text }
                }
                (Some(index), Some(text)) => Chunk::ReasoningDelta { index, text },
                _ => Chunk::Malformed {
                    kind,
                    why: "needs `index` and `text`",
                },
            },
            "tool-call-delta" => match (idx, raw.arguments_delta.as_deref()) {
                (Some(index), Some(args)) => Chunk::ToolCallDelta {
                    index,
                    id: raw.id.as_deref().unwrap_or(""),
                    name: raw.name.as_deref(),
                    args,
                },
                _ => Chunk::Malformed {
                    kind,
                    why: "needs `index` and `argumentsDelta`",
                },
            },
            "block-end" => match (idx, raw.block) {
                (Some(index), Some(block)) => Chunk::BlockEnd { index, block },
                _ => Chunk::Malformed {
                    kind,
                    why: "needs `index` and `block`",
                },
            },
            "usage" => match raw.usage {
                Some(usage) => Chunk::Usage { usage },
                None => Chunk::Malformed {
                    kind,
                    why: "needs `usage`",
                },
            },
            "finish" => {
                let k = raw
                    .reason
                    .and_then(|r| serde_json::from_str::<KindOnly<'_>>(r.get()).ok())
                    .and_then(|k| k.kind);
                match k {
                    Some(k) => {
                        let owned = k.into_owned();
                        return self.chunk_finish(at, data.turn, data.step, &owned);
                    }
                    None => Chunk::Malformed {
                        kind,
                        why: "needs `reason.kind`",
                    },
                }
            }
            _ => Chunk::Malformed {
                kind,
                why: "is not a stream chunk type",
            },
        };
        self.chunk(at, data.turn, data.step, chunk);
    }

    pub(super) fn chunk_finish(
        &mut self,
        at: Loc,
        turn: Option<u64>,
        step: Option<u64>,
        kind: &str,
    ) {
        self.chunk(at, turn, step, Chunk::Finish { kind });
    }

    pub(super) fn chunk(
        &mut self,
        at: Loc,
        turn_no: Option<u64>,
        step_no: Option<u64>,
        chunk: Chunk<'_>,
    ) {
        if let Chunk::Malformed { kind, why } = chunk {
            self.report("LOG-2", at, format!("chunk `{kind}` {why}"));
        }
        if !self.step_scoped(at, "assistant/chunk", turn_no, step_no) {
            return;
        }
        let profile = self.profile;
        let mut pending: Vec<(&'static str, String)> = Vec::new();
        let mut closed_call: Option<Call> = None;
        {
            let Some(step) = self.step_mut() else { return };
            // Which model call does this chunk belong to?
            let after_failure = step
                .call
                .as_ref()
                .and_then(|c| c.finish.as_ref())
                .is_some_and(|f| f.failure);
            if after_failure {
                if profile == Profile::V2026_07 {
                    pending.push((
                        "CHUNK-6",
                        "a chunk follows a failed `finish` in the same step; 2026-07 has no in-step retries".to_owned(),
                    ));
                }
                closed_call = step.call.take();
            }
            if step.message.is_some() || step.interrupted_message {
                pending.push((
                    "CHUNK-2",
                    "a chunk follows the step's `assistant/message`: the model call's run is over"
                        .to_owned(),
                ));
            }
            if let Some((where_, kind)) = step.interleaved.take()
                && step
                    .call
                    .as_ref()
                    .is_some_and(|c| c.finish.is_none() && !c.closed)
            {
                pending.push((
                    "CHUNK-2",
                    format!(
                        "the model call's chunks are interrupted by `{kind}` (seq {}): a call's chunks are consecutive events",
                        where_.seq
                    ),
                ));
            }
            let call = step.call.get_or_insert_with(Call::default);
            if call.first.is_none() {
                call.first = Some(at);
            }
            if call.finish.is_some() && !after_failure {
                pending.push((
                    "CHUNK-2",
                    "a chunk follows `finish` in the same model call: nothing follows `finish`"
                        .to_owned(),
                ));
            }
            call.seqs.push(at.seq);
            if let Some(index) = chunk_index(&chunk)
                && !matches!(chunk, Chunk::BlockStart { .. })
                && !call.has_block(index)
            {
                pending.push((
                    "CHUNK-1",
                    format!("a chunk of block {index} before its `block-start`: a chunk was dropped or reordered"),
                ));
            }
            match chunk {
                Chunk::BlockStart { index, block_type } => {
                    if call.has_block(index) {
                        pending.push((
                            "CHUNK-1",
                            format!("`block-start` of block {index} after other chunks of that block: a chunk was duplicated or reordered"),
                        ));
                    }
                    let b = call.block(index);
                    b.started = true;
                    b.kind.get_or_insert_with(|| block_type.to_owned());
                }
                Chunk::TextDelta { index, text } | Chunk::ReasoningDelta { index, text } => {
                    let k = if matches!(chunk, Chunk::TextDelta { .. }) {
                        "text"
                    } else {
                        "reasoning"
                    };
                    let b = call.block(index);
                    if b.end.is_some() {
                        pending.push((
                            "CHUNK-1",
                            format!("a delta of block {index} after its `block-end`: a chunk was duplicated or reordered"),
                        ));
                    }
                    b.kind.get_or_insert_with(|| k.to_owned());
                    b.text.push_str(text);
                    b.deltas = b.deltas.saturating_add(1);
                }
                Chunk::ToolCallDelta {
                    index,
                    id,
                    name,
                    args,
                } => {
                    let b = call.block(index);
                    if b.end.is_some() {
                        pending.push((
                            "CHUNK-1",
                            format!("a delta of block {index} after its `block-end`: a chunk was duplicated or reordered"),
                        ));
                    }
                    b.kind.get_or_insert_with(|| "tool-call".to_owned());
                    if b.tool_id.is_none() && !id.is_empty() {
                        b.tool_id = Some(id.to_owned());
                    }
                    if let (None, Some(n)) = (&b.tool_name, name) {
                        b.tool_name = Some(n.to_owned());
                    }
                    b.text.push_str(args);
                    b.deltas = b.deltas.saturating_add(1);
                }
                Chunk::BlockEnd { index, block } => {
                    let b = call.block(index);
                    if b.end.is_some() {
                        pending.push((
                            "CHUNK-1",
                            format!(
                                "a second `block-end` of block {index}: a chunk was duplicated"
                            ),
                        ));
                    } else {
                        match serde_json::from_str::<Value>(block.get()) {
                            Ok(v) => {
                                b.kind.get_or_insert_with(|| block_type(&v).to_owned());
                                b.end = Some(v);
                                b.end_loc = Some(at);
                            }
                            Err(e) => {
                                pending.push(("LOG-2", format!("malformed `block-end.block`: {e}")))
                            }
                        }
                    }
                }
                Chunk::Usage { usage } => match serde_json::from_str::<Value>(usage.get()) {
                    Ok(v) => call.usage = Some(v),
                    Err(e) => pending.push(("LOG-2", format!("malformed usage: {e}"))),
                },
                Chunk::Finish { kind } => {
                    if call.finish.is_none() {
                        call.finish = Some(Finish {
                            kind: kind.to_owned(),
                            failure: matches!(kind, "error" | "aborted"),
                        });
                    }
                }
                Chunk::Malformed { .. } => {}
            }
        }
        if let Some(mut old) = closed_call {
            self.close_call(&mut old);
        }
        for (req, msg) in pending {
            self.report(req, at, msg);
        }
    }

    /// MSG-2: deltas against their block ends, once per call.
    pub(super) fn close_call(&mut self, call: &mut Call) {
        if call.closed {
            return;
        }
        call.closed = true;
        let mismatches: Vec<(Loc, u32, String, String, bool)> = call
            .delta_mismatches()
            .into_iter()
            .map(|(b, deltas, end)| {
                (
                    b.end_loc.unwrap_or(Loc { line: None, seq: 0 }),
                    b.index,
                    clip(deltas),
                    clip(&end),
                    same_characters(deltas, &end),
                )
            })
            .collect();
        for (at, index, deltas, end, reordered) in mismatches {
            self.report_diff(
                "MSG-2",
                at,
                format!("the deltas of block {index} do not concatenate to its `block-end` text: a delta was dropped, duplicated, reordered or rewritten"),
                format!("block-end text {end:?}"),
                format!("deltas {deltas:?}"),
            );
            if reordered && self.infer_chunk_fidelity {
                self.report(
                    "CHUNK-1",
                    at,
                    format!("the deltas of block {index} hold exactly the characters of its `block-end` text in another order: deltas were reordered"),
                );
            }
        }
    }
}
