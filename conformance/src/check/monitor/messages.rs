//! `assistant/message`: one per step, which calls it finalizes, provenance, content against
//! the assembly of its chunks, usage (MSG-1 … MSG-6, with CHUNK-1 and CHUNK-3 where they show).

use super::Monitor;
use super::data::{Data, MessageObj};
use super::state::{MessageInfo, Pending};
use crate::check::assemble::{Call, block_type, first_divergence};
use crate::check::content::ContentBlock;
use crate::check::event::{Envelope, Loc};
use crate::check::values::{clip, parse_seqs, same_characters, seq_list};
use crate::vocab::Profile;
use serde_json::Value;
use serde_json::value::RawValue;

impl Monitor {
    pub(super) fn message(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.step_scoped_data(at, env, "assistant/message") else {
            return;
        };
        let msg_obj = data
            .message
            .and_then(|m| serde_json::from_str::<MessageObj<'_>>(m.get()).ok())
            .unwrap_or_default();
        self.message_read(at, env, data, msg_obj);
    }

    /// The message's own rules once its `data` (in its step) and `data.message` are read.
    pub(super) fn message_read(
        &mut self,
        at: Loc,
        env: &Envelope<'_>,
        data: Data<'_>,
        msg_obj: MessageObj<'_>,
    ) {
        let content_raw = msg_obj.content.or(data.content);
        let content: Vec<ContentBlock<'_>> =
            match content_raw.map(|c| serde_json::from_str::<Vec<Value>>(c.get())) {
                Some(Ok(c)) => c.into_iter().map(ContentBlock::Value).collect(),
                Some(Err(e)) => {
                    self.report(
                        "LOG-2",
                        at,
                        format!("`assistant/message` content is not an array of blocks: {e}"),
                    );
                    return;
                }
                None => {
                    self.report(
                    "LOG-2",
                    at,
                    "`assistant/message` has no content (`data.message.content` or `data.content`)",
                );
                    return;
                }
            };
        self.message_content(at, env, data.usage, data.interrupted, content);
    }

    /// The message's own rules once its content is read (`usage` and `interrupted` as
    /// `data` holds them; the content's blocks as `check/content.rs` reads them, or
    /// `Value`s).
    pub(super) fn message_content(
        &mut self,
        at: Loc,
        env: &Envelope<'_>,
        usage: Option<&RawValue>,
        interrupted: Option<&RawValue>,
        content: Vec<ContentBlock<'_>>,
    ) {
        let usage: Option<Value> = usage
            .filter(|u| u.get() != "null")
            .and_then(|u| serde_json::from_str(u.get()).ok());
        let interrupted =
            self.profile == Profile::V2026_08 && interrupted.is_some_and(|v| v.get() == "true");
        // Read once by SURF-2 when it could be (the same list, whatever the profile).
        let cited: Option<Vec<u64>> = match self.citation.take() {
            Some(seqs) => Some(seqs),
            None => env.source_event_seqs.and_then(parse_seqs),
        };
        let infer = self.infer_chunk_fidelity;
        let legacy = self.profile == Profile::V2026_07;

        let mut findings: Pending = Vec::new();
        let mut closing: Option<Call> = None;
        {
            let Some(step) = self.step_mut() else { return };
            // Read in place: the call holds every delta and block of the step (no copy).
            let no_call = Call::default();
            let call = step.call.as_ref().unwrap_or(&no_call);
            // MSG-6: one non-interrupted message per step, before any tool call.
            if !interrupted && step.message.is_some() {
                findings.push((
                    "MSG-6",
                    "a second `assistant/message` in the same step".to_owned(),
                    None,
                ));
            }
            if !step.tool_calls.is_empty() {
                findings.push((
                    "MSG-6",
                    "the `assistant/message` comes after a `tool/call` of its step".to_owned(),
                    None,
                ));
            }
            // MSG-5: which calls are finalized.
            match &call.finish {
                Some(f) if f.failure => findings.push((
                    "MSG-5",
                    format!("an `assistant/message` finalizes a model call that failed (`finish` `{}`)", f.kind),
                    None,
                )),
                Some(f) if interrupted => findings.push((
                    "MSG-5",
                    format!("an `interrupted` message finalizes a model call that finished normally (`{}`)", f.kind),
                    None,
                )),
                None if !interrupted && !call.seqs.is_empty() => findings.push((
                    "CHUNK-3",
                    "the model call's chunk run has no `finish`, yet a normal `assistant/message` finalizes it".to_owned(),
                    Some(("a `finish` chunk before the message".to_owned(), "no `finish`".to_owned())),
                )),
                _ => {}
            }
            // 2026-07 records a message only to host content or usage (upstream era M,
            // `loop.ts` `runStep`: `content.length > 0 || assembler.usage`).
            if legacy
                && call.finish.as_ref().is_some_and(|f| !f.failure)
                && call.usage.is_none()
                && usage.is_none()
                && content.is_empty()
                && call.assembled(false).is_empty()
            {
                findings.push((
                    "MSG-5",
                    "an `assistant/message` finalizes a model call with neither content nor usage: 2026-07 records none then".to_owned(),
                    None,
                ));
            }
            if interrupted && call.assembled(true).is_empty() {
                findings.push((
                    "MSG-5",
                    "an `interrupted` message for a cancelled call that streamed no non-whitespace text or reasoning".to_owned(),
                    None,
                ));
            }
            // MSG-1: provenance.
            let cited_or_empty: &[u64] = cited.as_deref().unwrap_or(&[]);
            if cited_or_empty != call.seqs.as_slice() {
                findings.push((
                    "MSG-1",
                    "`sourceEventSeqs` is not exactly the seqs of the model call's chunks"
                        .to_owned(),
                    Some((
                        seq_list(&call.seqs),
                        cited.as_deref().map_or("absent".to_owned(), seq_list),
                    )),
                ));
            }
            // CHUNK-1 through provenance: the message was built from the stream the loop
            // received, so a different number of recorded chunks means one was dropped or
            // duplicated on the way to the log (or the citation itself is wrong).
            if let Some(cited) = &cited
                && infer
                && cited.len() != call.seqs.len()
            {
                let what = if cited.len() > call.seqs.len() {
                    "dropped"
                } else {
                    "duplicated"
                };
                findings.push((
                    "CHUNK-1",
                    format!(
                        "the message cites {} chunk(s) but its model call recorded {}: a chunk was {what} (or the citation is wrong)",
                        cited.len(),
                        call.seqs.len()
                    ),
                    Some((
                        format!("{} chunks", cited.len()),
                        format!("{} chunks", call.seqs.len()),
                    )),
                ));
            }
            // MSG-3: content against the assembly.
            let assembled = call.assembled(interrupted);
            // A text the deltas rebuilt in another order than the message has (deltas only,
            // no block-end to compare with): the recorded deltas were reordered.
            let reordered = assembled.iter().zip(&content).any(|(a, c)| {
                matches!(block_type(a), "text" | "reasoning")
                    && block_type(a) == c.kind()
                    && match (a.get("text").and_then(Value::as_str), c.text()) {
                        (Some(x), Some(y)) => same_characters(x, y),
                        _ => false,
                    }
            });
            if reordered && infer {
                findings.push((
                    "CHUNK-1",
                    "the message text holds exactly the characters of its call's deltas in another order: deltas were reordered".to_owned(),
                    None,
                ));
            }
            if let Some((i, exp, obs)) = first_divergence(&assembled, &content) {
                findings.push((
                    "MSG-3",
                    format!("content block {i} differs from the assembly of the cited chunks"),
                    Some((exp, obs)),
                ));
            }
            // MSG-4: usage.
            if usage != call.usage {
                let show = |u: &Option<Value>| {
                    u.as_ref()
                        .map_or("absent".to_owned(), |v| clip(&v.to_string()))
                };
                findings.push((
                    "MSG-4",
                    "`usage` is not the last `usage` chunk of the call".to_owned(),
                    Some((show(&call.usage), show(&usage))),
                ));
            }
            // The content is not read after this: its tool-call blocks move, uncopied.
            let tool_blocks: Vec<Value> = content
                .into_iter()
                .filter(|b| b.kind() == "tool-call")
                .map(ContentBlock::into_value)
                .collect();
            if interrupted {
                step.interrupted_message = true;
            } else if step.message.is_none() {
                step.message = Some(MessageInfo {
                    tool_blocks,
                    max_tokens: call.finish.as_ref().is_some_and(|f| f.kind == "max-tokens"),
                });
            }
            // Taken out while MSG-2 reports on it, then put back (closed): no copy.
            if step.call.as_ref().is_some_and(|c| !c.closed) {
                closing = step.call.take();
            }
        }
        if let Some(mut c) = closing {
            self.close_call(&mut c);
            if let Some(step) = self.step_mut() {
                step.call = Some(c);
            }
        }
        self.report_pending(at, findings);
    }
}
