//! How a report names one chunk (`text-delta[0] "Hi"`), for every finding that quotes one. The
//! bottom of the oracle's chunk comparison: `chunks` and `divergence` both use it.

use crate::vocab::chunk::{ContentBlock, StreamChunk};

/// A short human rendering of a chunk.
pub fn describe_chunk(chunk: &StreamChunk) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    match chunk {
        StreamChunk::BlockStart { index, block_type } => {
            format!(
                "block-start[{index}] {}",
                serde_json::to_value(block_type)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default()
            )
        }
        StreamChunk::TextDelta { index, text } => format!("text-delta[{index}] {}", q(text)),
        StreamChunk::ReasoningDelta { index, text } => {
            format!("reasoning-delta[{index}] {}", q(text))
        }
        StreamChunk::ToolCallDelta {
            index,
            id,
            arguments_delta,
            ..
        } => format!("tool-call-delta[{index}] {id} {}", q(arguments_delta)),
        StreamChunk::BlockEnd { index, block } => match block {
            ContentBlock::Text { text, .. } => format!("block-end[{index}] text {}", q(text)),
            ContentBlock::Reasoning { text, .. } => {
                format!("block-end[{index}] reasoning {}", q(text))
            }
            ContentBlock::ToolCall { id, arguments, .. } => {
                format!("block-end[{index}] tool-call {id} {}", q(arguments))
            }
            other => format!("block-end[{index}] {:?}", other.block_type()),
        },
        StreamChunk::Usage { usage } => {
            format!(
                "usage in={} out={}",
                usage.input_tokens, usage.output_tokens
            )
        }
        StreamChunk::Finish { reason, .. } => format!("finish {}", reason.kind()),
    }
}
