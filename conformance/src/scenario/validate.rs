//! Case validation: a case file that describes something no model, tool or user can do is
//! refused before it is played, so that the implementation is never blamed for the script.
//!
//! [`validate_case`] checks what [`Script::validate`](super::Script::validate) (the turn
//! structure) takes for granted:
//!
//! - **indices in range**: a steering or interrupt point names a chunk the call has (no
//!   arithmetic on an index can wrap: `interrupt.after = 18446744073709551615` is refused);
//! - **a well-formed stream**: every delta belongs to a block that was started (`block-start`)
//!   and not yet ended, of the delta's kind; a block index starts once per call; a
//!   `block-end` closes a started block of the same kind; blocks may stay open, have no
//!   delta, and interleave (deltas of two open blocks, told apart by index);
//! - **tool calls the model named**: a tool-call block's deltas carry one id and at most one
//!   name; in a call that finishes `stop` or `tool-calls` (whose tool calls the loop
//!   dispatches) every tool-call block has a `block-end`, or deltas that name the tool (a block
//!   with only its `block-start` names no call to run; a call that finishes `max-tokens` or
//!   fails may leave one, since it is never dispatched);
//! - **steering the user can send**: never after the chunk at which a cancel or dispose was
//!   sent (the harness stops streaming there);
//! - **what the oracle tells apart**: prompt, injection and steering texts are unique within
//!   the case, and so are a call's tool-call ids and scripted tool results.
//!
//! The generators only produce cases that pass (a test checks it).

use super::{Action, Case, ModelCall};
use crate::vocab::chunk::{BlockType, ContentBlock, FinishReason, StreamChunk};
use std::collections::{BTreeMap, BTreeSet};

/// Why a case cannot be played, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "action {action}{}{}: {message}",
    call.map(|c| format!(", call {c}")).unwrap_or_default(),
    chunk.map(|c| format!(", chunk {c}")).unwrap_or_default()
)]
pub struct CaseError {
    /// 0-based index of the action.
    pub action: usize,
    /// 0-based index of the model call within the prompt, if the problem is in one.
    pub call: Option<usize>,
    /// 0-based index of the chunk within the call, if the problem is at one.
    pub chunk: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// Validates `case` (see the module documentation), then its turn structure with
/// [`Script::validate`](super::Script::validate).
pub fn validate_case(case: &Case) -> Result<(), CaseError> {
    // Text → the action that first used it.
    let mut texts: BTreeMap<&str, usize> = BTreeMap::new();
    for (a, action) in case.script.actions.iter().enumerate() {
        let mut used: Vec<&str> = Vec::new();
        match action {
            Action::Dispose => {}
            Action::Inject { text } => used.push(text),
            Action::Prompt { text, calls } => {
                used.push(text);
                for (c, call) in calls.iter().enumerate() {
                    validate_call(call).map_err(|(chunk, message)| CaseError {
                        action: a,
                        call: Some(c),
                        chunk,
                        message,
                    })?;
                    for s in &call.steer {
                        if used.contains(&s.text.as_str()) {
                            return Err(CaseError {
                                action: a,
                                call: Some(c),
                                chunk: None,
                                message: format!(
                                    "the text {:?} is used twice in this action: prompt, injection and steering texts must be unique within a case (the oracle tells messages apart by their text)",
                                    s.text
                                ),
                            });
                        }
                        used.push(&s.text);
                    }
                }
            }
        }
        for t in used {
            if let Some(&first) = texts.get(t) {
                return Err(CaseError {
                    action: a,
                    call: None,
                    chunk: None,
                    message: format!(
                        "the text {t:?} was already used by action {first}: prompt, injection and steering texts must be unique within a case (the oracle tells messages apart by their text)"
                    ),
                });
            }
            texts.insert(t, a);
        }
    }
    case.script.validate(case.profile).map_err(|e| CaseError {
        action: e.action,
        call: e.call,
        chunk: None,
        message: e.message,
    })
}

/// The block kind a chunk's content belongs to.
fn kind_of(block: &ContentBlock) -> BlockType {
    match block {
        ContentBlock::Text { .. } => BlockType::Text,
        ContentBlock::Reasoning { .. } => BlockType::Reasoning,
        ContentBlock::ToolCall { .. } => BlockType::ToolCall,
        ContentBlock::ToolResult { .. } => BlockType::ToolResult,
        ContentBlock::Image { .. } => BlockType::Image,
    }
}

fn name(kind: BlockType) -> &'static str {
    match kind {
        BlockType::Text => "text",
        BlockType::Reasoning => "reasoning",
        BlockType::ToolCall => "tool-call",
        BlockType::ToolResult => "tool-result",
        BlockType::Image => "image",
    }
}

/// What the chunks of one tool-call block name.
struct ToolBlock<'a> {
    /// The chunk index of its `block-start`.
    start: usize,
    deltas: usize,
    id: Option<&'a str>,
    name: Option<&'a str>,
    ended: bool,
}

impl<'a> ToolBlock<'a> {
    fn started_at(start: usize) -> Self {
        ToolBlock {
            start,
            deltas: 0,
            id: None,
            name: None,
            ended: false,
        }
    }

    /// One delta: a tool call has one id and one name, so which delta supplies them never
    /// matters (upstream keeps the last, other assemblers the first).
    fn delta(&mut self, id: &'a str, name: Option<&'a str>) -> Result<(), String> {
        self.deltas += 1;
        match self.id {
            Some(earlier) if earlier != id => {
                return Err(format!(
                    "carries id `{id}`, but an earlier delta of the block carries `{earlier}`: a tool call has one id"
                ));
            }
            _ => self.id = Some(id),
        }
        if let Some(n) = name {
            match self.name {
                Some(earlier) if earlier != n => {
                    return Err(format!(
                        "names the tool `{n}`, but an earlier delta of the block names `{earlier}`: a tool call has one name"
                    ));
                }
                _ => self.name = Some(n),
            }
        }
        Ok(())
    }
}

/// The call's `finish` kind, for messages.
fn finish_name(call: &ModelCall) -> &'static str {
    match call.finish() {
        Some(FinishReason::Stop) => "`stop`",
        Some(FinishReason::ToolCalls) => "`tool-calls`",
        _ => "successfully",
    }
}

/// Checks one model call; the error carries the chunk index where there is one.
fn validate_call(call: &ModelCall) -> Result<(), (Option<usize>, String)> {
    let n = call.chunks.len();
    for s in &call.steer {
        if s.after >= n {
            return Err((
                None,
                format!(
                    "steering after chunk {} but the call has {n} chunk(s) (`after` is a 0-based chunk index)",
                    s.after
                ),
            ));
        }
    }
    if let Some(i) = call.interrupt {
        // `after + 1` must name a chunk: the one at which the interrupt is observed.
        if n < 2 || i.after > n - 2 {
            return Err((
                None,
                format!(
                    "an interrupt after chunk {} needs a chunk after it, but the call has {n} chunk(s)",
                    i.after
                ),
            ));
        }
        if let Some(s) = call.steer.iter().find(|s| s.after > i.after) {
            return Err((
                None,
                format!(
                    "steering after chunk {}, but the user interrupted after chunk {}: no chunk is streamed after that, so the steering could never be sent",
                    s.after, i.after
                ),
            ));
        }
    }
    // Block index → (kind, still open).
    let mut blocks: BTreeMap<u32, (BlockType, bool)> = BTreeMap::new();
    let mut tool_ids: BTreeSet<&str> = BTreeSet::new();
    // Tool-call block index → what its chunks name (see `ToolBlock`).
    let mut tools: BTreeMap<u32, ToolBlock<'_>> = BTreeMap::new();
    for (k, chunk) in call.chunks.iter().enumerate() {
        let at = |m: String| (Some(k), m);
        let delta_kind = match chunk {
            StreamChunk::TextDelta { .. } => Some(BlockType::Text),
            StreamChunk::ReasoningDelta { .. } => Some(BlockType::Reasoning),
            StreamChunk::ToolCallDelta { .. } => Some(BlockType::ToolCall),
            _ => None,
        };
        match chunk {
            StreamChunk::BlockStart { index, block_type } => {
                let earlier = blocks.insert(*index, (*block_type, true));
                if earlier.is_some() {
                    return Err(at(format!(
                        "`block-start` for block {index}, which already started in this call"
                    )));
                }
                if *block_type == BlockType::ToolCall {
                    tools.insert(*index, ToolBlock::started_at(k));
                }
            }
            StreamChunk::BlockEnd { index, block } => match blocks.get_mut(index) {
                None => {
                    return Err(at(format!(
                        "`block-end` for block {index} before its `block-start`"
                    )));
                }
                Some((_, false)) => {
                    return Err(at(format!(
                        "`block-end` for block {index}, which already ended"
                    )));
                }
                Some((kind, open)) => {
                    if *kind != kind_of(block) {
                        return Err(at(format!(
                            "`block-end` of block {index} holds a {} block, but the block started as {}",
                            name(kind_of(block)),
                            name(*kind)
                        )));
                    }
                    *open = false;
                    if let Some(t) = tools.get_mut(index) {
                        t.ended = true;
                    }
                    if let ContentBlock::ToolCall { id, .. } = block
                        && !tool_ids.insert(id)
                    {
                        return Err(at(format!(
                            "tool call id `{id}` is used by two blocks of the call"
                        )));
                    }
                }
            },
            _ => {}
        }
        if let (Some(want), Some(index)) = (delta_kind, chunk.index()) {
            let what = chunk.type_name();
            match blocks.get(&index) {
                None => {
                    return Err(at(format!(
                        "`{what}` for block {index} before its `block-start`"
                    )));
                }
                Some((_, false)) => {
                    return Err(at(format!(
                        "`{what}` for block {index} after its `block-end`"
                    )));
                }
                Some((kind, true)) if *kind != want => {
                    return Err(at(format!(
                        "`{what}` for block {index}, which started as a {} block",
                        name(*kind)
                    )));
                }
                Some(_) => {}
            }
        }
        if let (
            StreamChunk::ToolCallDelta {
                index, id, name, ..
            },
            Some(t),
        ) = (chunk, chunk.index().and_then(|i| tools.get_mut(&i)))
        {
            t.delta(id, name.as_deref())
                .map_err(|m| at(format!("`tool-call-delta` for block {index} {m}")))?;
        }
    }
    // Only a call that finishes `stop` or `tool-calls` dispatches its tool calls.
    let dispatches = matches!(
        call.finish(),
        Some(FinishReason::Stop | FinishReason::ToolCalls)
    ) && call.throw.is_none();
    if dispatches {
        for (index, t) in &tools {
            if t.ended {
                continue;
            }
            if t.deltas == 0 {
                return Err((
                    Some(t.start),
                    format!(
                        "tool-call block {index} has neither a `tool-call-delta` nor a `block-end`, in a call that finishes {}: the model never named the call, so no loop could dispatch it (only a call that finishes `max-tokens` or fails may leave such a block)",
                        finish_name(call)
                    ),
                ));
            }
            if t.name.is_none_or(str::is_empty) {
                return Err((
                    Some(t.start),
                    format!(
                        "tool-call block {index} has no `block-end` and none of its deltas names the tool, in a call that finishes {}: no loop could dispatch it",
                        finish_name(call)
                    ),
                ));
            }
        }
    }
    let mut results = BTreeSet::new();
    for t in &call.tools {
        if !results.insert(&t.call_id) {
            return Err((
                None,
                format!("two scripted results for tool call `{}`", t.call_id),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::generate::cases;
    use crate::vocab::Profile;
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;

    fn case(json: &str) -> Case {
        serde_json::from_str(json).expect("a case")
    }

    fn refused(json: &str) -> String {
        validate_case(&case(json)).expect_err("refused").to_string()
    }

    const TEXT: &str = r#"{"type":"block-start","index":0,"blockType":"text"},{"type":"text-delta","index":0,"text":"hi"}"#;
    const FINISH: &str = r#"{"type":"finish","reason":{"kind":"stop"}}"#;

    fn one_call(chunks: &str, extra: &str) -> String {
        format!(
            r#"{{"profile":"2026-08","script":{{"actions":[{{"action":"prompt","text":"p","calls":[{{"chunks":[{chunks}]{extra}}}]}}]}}}}"#
        )
    }

    #[test]
    fn a_well_formed_case_passes() {
        assert_eq!(
            validate_case(&case(&one_call(&format!("{TEXT},{FINISH}"), ""))),
            Ok(())
        );
    }

    #[test]
    fn a_delta_before_its_block_start_is_refused() {
        let e = refused(&one_call(
            &format!(r#"{{"type":"text-delta","index":0,"text":"hi"}},{FINISH}"#),
            "",
        ));
        assert_eq!(
            e,
            "action 0, call 0, chunk 0: `text-delta` for block 0 before its `block-start`"
        );
        let e = refused(&one_call(
            &format!(
                r#"{TEXT},{{"type":"block-end","index":0,"block":{{"type":"text","text":"hi"}}}},{{"type":"text-delta","index":0,"text":"!"}},{FINISH}"#
            ),
            "",
        ));
        assert!(
            e.ends_with("chunk 3: `text-delta` for block 0 after its `block-end`"),
            "{e}"
        );
        let e = refused(&one_call(
            &format!(r#"{TEXT},{{"type":"reasoning-delta","index":0,"text":"x"}},{FINISH}"#),
            "",
        ));
        assert!(e.contains("which started as a text block"), "{e}");
        let e = refused(&one_call(
            &format!(r#"{TEXT},{{"type":"block-start","index":0,"blockType":"text"}},{FINISH}"#),
            "",
        ));
        assert!(e.contains("already started"), "{e}");
        let e = refused(&one_call(
            &format!(
                r#"{TEXT},{{"type":"block-end","index":0,"block":{{"type":"reasoning","text":"hi"}}}},{FINISH}"#
            ),
            "",
        ));
        assert!(e.contains("holds a reasoning block"), "{e}");
    }

    #[test]
    fn indices_out_of_range_are_refused_without_wrapping() {
        let e = refused(&one_call(
            &format!("{TEXT},{FINISH}"),
            r#","interrupt":{"after":18446744073709551615,"kind":"cancel"}"#,
        ));
        assert!(
            e.contains("an interrupt after chunk 18446744073709551615 needs a chunk after it"),
            "{e}"
        );
        let e = refused(&one_call(
            &format!("{TEXT},{FINISH}"),
            r#","steer":[{"after":18446744073709551615,"text":"s"}]"#,
        ));
        assert!(
            e.contains("steering after chunk 18446744073709551615"),
            "{e}"
        );
    }

    #[test]
    fn steering_the_user_cannot_send_is_refused() {
        let e = refused(&one_call(
            &format!("{TEXT},{FINISH}"),
            r#","interrupt":{"after":0,"kind":"cancel"},"steer":[{"after":2,"text":"s"}]"#,
        ));
        assert!(e.contains("could never be sent"), "{e}");
        let e = refused(&one_call(
            &format!("{TEXT},{FINISH}"),
            r#","steer":[{"after":1,"text":"p"}]"#,
        ));
        assert!(e.contains("\"p\" is used twice in this action"), "{e}");
    }

    #[test]
    fn ambiguous_tool_calls_are_refused() {
        let call = |id: &str, index: u32| {
            format!(
                r#"{{"type":"block-start","index":{index},"blockType":"tool-call"}},{{"type":"block-end","index":{index},"block":{{"type":"tool-call","id":"{id}","name":"read","arguments":""}}}}"#
            )
        };
        let tools = r#","tools":[{"callId":"c1","isError":false,"content":"r"}]"#;
        let e = refused(&one_call(
            &format!(
                r#"{},{},{{"type":"finish","reason":{{"kind":"tool-calls"}}}}"#,
                call("c1", 0),
                call("c1", 1)
            ),
            tools,
        ));
        assert!(
            e.ends_with("chunk 3: tool call id `c1` is used by two blocks of the call"),
            "{e}"
        );
        let e = refused(&one_call(
            &format!(r#"{},{FINISH}"#, call("c1", 0)),
            r#","tools":[{"callId":"c1","isError":false,"content":"r"},{"callId":"c1","isError":true,"content":"s"}]"#,
        ));
        assert!(
            e.ends_with("two scripted results for tool call `c1`"),
            "{e}"
        );
    }

    #[test]
    fn blocks_may_stay_open_be_empty_and_interleave() {
        // Two blocks open at once, the later started one streaming first; an empty text block
        // left open; a usage chunk before the first block.
        let chunks = r#"{"type":"usage","usage":{"inputTokens":1,"outputTokens":0}},{"type":"block-start","index":0,"blockType":"text"},{"type":"block-start","index":1,"blockType":"reasoning"},{"type":"reasoning-delta","index":1,"text":"r"},{"type":"text-delta","index":0,"text":"t"},{"type":"block-end","index":0,"block":{"type":"text","text":"t"}},{"type":"block-start","index":2,"blockType":"text"},{"type":"finish","reason":{"kind":"stop"}}"#;
        assert_eq!(validate_case(&case(&one_call(chunks, ""))), Ok(()));
    }

    #[test]
    fn tool_calls_the_model_never_named_are_refused() {
        let open_tool = r#"{"type":"block-start","index":0,"blockType":"tool-call"}"#;
        let e = refused(&one_call(&format!("{open_tool},{FINISH}"), ""));
        assert_eq!(
            e,
            "action 0, call 0, chunk 0: tool-call block 0 has neither a `tool-call-delta` nor a `block-end`, in a call that finishes `stop`: the model never named the call, so no loop could dispatch it (only a call that finishes `max-tokens` or fails may leave such a block)"
        );
        // max-tokens drops it and a failure dispatches nothing: such a stream is legal there.
        for end in [
            r#"{"type":"finish","reason":{"kind":"max-tokens"}}"#,
            r#"{"type":"finish","reason":{"kind":"aborted"}}"#,
        ] {
            assert_eq!(
                validate_case(&case(&one_call(&format!("{open_tool},{end}"), ""))),
                Ok(())
            );
        }
        let unnamed = r#"{"type":"tool-call-delta","index":0,"id":"c1","argumentsDelta":"{}"}"#;
        let e = refused(&one_call(
            &format!(
                r#"{open_tool},{unnamed},{{"type":"finish","reason":{{"kind":"tool-calls"}}}}"#
            ),
            r#","tools":[{"callId":"c1","isError":false,"content":"r"}]"#,
        ));
        assert!(
            e.ends_with("chunk 0: tool-call block 0 has no `block-end` and none of its deltas names the tool, in a call that finishes `tool-calls`: no loop could dispatch it"),
            "{e}"
        );
        let delta = |id: &str, name: &str| {
            format!(
                r#"{{"type":"tool-call-delta","index":0,"id":"{id}","name":"{name}","argumentsDelta":""}}"#
            )
        };
        let e = refused(&one_call(
            &format!(
                "{open_tool},{},{},{FINISH}",
                delta("c1", "read"),
                delta("c2", "read")
            ),
            "",
        ));
        assert!(
            e.ends_with("chunk 2: `tool-call-delta` for block 0 carries id `c2`, but an earlier delta of the block carries `c1`: a tool call has one id"),
            "{e}"
        );
        let e = refused(&one_call(
            &format!(
                "{open_tool},{},{},{FINISH}",
                delta("c1", "read"),
                delta("c1", "")
            ),
            "",
        ));
        assert!(
            e.contains("names the tool ``, but an earlier delta of the block names `read`"),
            "{e}"
        );
    }

    #[test]
    fn every_generated_case_is_valid() {
        for profile in Profile::ALL {
            let mut runner = TestRunner::deterministic();
            let strategy = cases(profile);
            for _ in 0..512 {
                let c = strategy.new_tree(&mut runner).expect("a case").current();
                assert_eq!(validate_case(&c), Ok(()), "{c}");
            }
        }
    }
}
