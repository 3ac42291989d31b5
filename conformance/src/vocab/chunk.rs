//! The model stream: `StreamChunk` and the payload types it carries.
//!
//! A `StreamChunk` is what the model adapter yields for one token delta or one stream marker.
//! The loop records every one of them, verbatim and in arrival order, as the `chunk` field of an
//! `assistant/chunk` durable event. There is no error chunk: failures are `finish` chunks whose
//! reason is `error` or `aborted`.
//!
//! Unknown fields are kept in `extra` maps so that a chunk read from a log re-serializes to the
//! same JSON object it was read from (the checker compares chunks byte-for-value).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The kind of a content block, as named by `block-start.blockType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BlockType {
    /// Assistant text.
    Text,
    /// Model reasoning.
    Reasoning,
    /// A tool call (`id`, `name`, raw JSON `arguments`).
    ToolCall,
    /// A tool result.
    ToolResult,
    /// An image.
    Image,
}

/// One chunk of a model stream (`assistant/chunk.data.chunk`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum StreamChunk {
    /// A block opens at `index`.
    #[serde(rename_all = "camelCase")]
    BlockStart {
        /// Block index within the model call.
        index: u32,
        /// What kind of block opens.
        block_type: BlockType,
    },
    /// A text delta for the text block at `index`.
    TextDelta {
        /// Block index.
        index: u32,
        /// The delta (may be empty).
        text: String,
    },
    /// A reasoning delta for the reasoning block at `index`.
    ReasoningDelta {
        /// Block index.
        index: u32,
        /// The delta (may be empty).
        text: String,
    },
    /// A tool-call arguments delta for the tool-call block at `index`.
    #[serde(rename_all = "camelCase")]
    ToolCallDelta {
        /// Block index.
        index: u32,
        /// The call id.
        id: String,
        /// The tool name, usually only on the first delta.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// A piece of the raw JSON arguments string.
        arguments_delta: String,
    },
    /// The block at `index` is complete; `block` is authoritative over the deltas.
    BlockEnd {
        /// Block index.
        index: u32,
        /// The complete block.
        block: ContentBlock,
    },
    /// Token usage of the call so far; the last one wins.
    Usage {
        /// Disjoint token counts.
        usage: TokenUsage,
    },
    /// The call ended. Nothing follows a `finish` in the same call.
    Finish {
        /// Why the call ended.
        reason: FinishReason,
        /// 2026-08: provider replay state.
        #[serde(
            rename = "replayState",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        replay_state: Option<Value>,
    },
}

impl StreamChunk {
    /// The chunk's `type` tag as written in a log.
    pub fn type_name(&self) -> &'static str {
        match self {
            StreamChunk::BlockStart { .. } => "block-start",
            StreamChunk::TextDelta { .. } => "text-delta",
            StreamChunk::ReasoningDelta { .. } => "reasoning-delta",
            StreamChunk::ToolCallDelta { .. } => "tool-call-delta",
            StreamChunk::BlockEnd { .. } => "block-end",
            StreamChunk::Usage { .. } => "usage",
            StreamChunk::Finish { .. } => "finish",
        }
    }

    /// The block index the chunk belongs to, if it belongs to a block.
    pub fn index(&self) -> Option<u32> {
        match self {
            StreamChunk::BlockStart { index, .. }
            | StreamChunk::TextDelta { index, .. }
            | StreamChunk::ReasoningDelta { index, .. }
            | StreamChunk::ToolCallDelta { index, .. }
            | StreamChunk::BlockEnd { index, .. } => Some(*index),
            StreamChunk::Usage { .. } | StreamChunk::Finish { .. } => None,
        }
    }

    /// Whether this is a delta chunk (text, reasoning or tool-call arguments): what a model
    /// emits per token.
    pub fn is_delta(&self) -> bool {
        matches!(
            self,
            StreamChunk::TextDelta { .. }
                | StreamChunk::ReasoningDelta { .. }
                | StreamChunk::ToolCallDelta { .. }
        )
    }
}

/// Token counts; the categories are disjoint.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenUsage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
    /// Prompt tokens read from cache.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_read_tokens: Option<u64>,
    /// Prompt tokens written to cache.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_tokens: Option<u64>,
    /// Reasoning tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_tokens: Option<u64>,
}

/// A provider failure (2026-08 `LlmFailure`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LlmFailure {
    /// Human-readable message.
    pub message: String,
    /// Machine-readable code, e.g. `UNKNOWN`, `ABORTED`.
    pub code: String,
    /// Other fields (`status`, `providerRetryAfterMs`, `requestId`, …).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Why a model call ended (`finish.reason`).
///
/// 2026-07 carries `message`/`code` on `error`; 2026-08 carries `failure` on `error` and
/// `aborted`. Both shapes deserialize into the same variants.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum FinishReason {
    /// The model stopped normally.
    Stop,
    /// The model asked for tool calls.
    ToolCalls,
    /// The output limit was hit; tool calls of this call are dropped.
    MaxTokens,
    /// The stream was aborted.
    Aborted {
        /// 2026-08: the failure.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        failure: Option<LlmFailure>,
    },
    /// The stream failed.
    Error {
        /// 2026-07: the message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        /// 2026-07: the code.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
        /// 2026-08: the failure.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        failure: Option<LlmFailure>,
    },
}

impl FinishReason {
    /// Whether the call failed (`error` or `aborted`): no `assistant/message` finalizes it.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            FinishReason::Aborted { .. } | FinishReason::Error { .. }
        )
    }

    /// The `kind` tag as written in a log.
    pub fn kind(&self) -> &'static str {
        match self {
            FinishReason::Stop => "stop",
            FinishReason::ToolCalls => "tool-calls",
            FinishReason::MaxTokens => "max-tokens",
            FinishReason::Aborted { .. } => "aborted",
            FinishReason::Error { .. } => "error",
        }
    }
}

/// A content block of a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ContentBlock {
    /// Text.
    Text {
        /// The text.
        text: String,
        /// Other fields (2026-07 `cache` hints, …).
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
    /// Reasoning.
    Reasoning {
        /// The reasoning text.
        text: String,
        /// Other fields (signatures, …).
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
    /// A tool call with raw JSON arguments.
    ToolCall {
        /// Call id.
        id: String,
        /// Tool name.
        name: String,
        /// Raw JSON arguments string.
        arguments: String,
        /// Other fields.
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
    /// A tool result.
    #[serde(rename_all = "camelCase")]
    ToolResult {
        /// The call this answers.
        tool_call_id: String,
        /// Result content (a string or nested blocks).
        content: Value,
        /// Whether the tool failed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        is_error: Option<bool>,
        /// Other fields.
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
    /// An image (2026-07 `url`/`mimeType`, 2026-08 `attachment`).
    Image {
        /// The image fields.
        #[serde(flatten)]
        fields: Map<String, Value>,
    },
}

impl ContentBlock {
    /// A plain text block.
    pub fn text(text: impl Into<String>) -> Self {
        ContentBlock::Text {
            text: text.into(),
            extra: Map::new(),
        }
    }

    /// A plain reasoning block.
    pub fn reasoning(text: impl Into<String>) -> Self {
        ContentBlock::Reasoning {
            text: text.into(),
            extra: Map::new(),
        }
    }

    /// A tool-call block.
    pub fn tool_call(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> Self {
        ContentBlock::ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: arguments.into(),
            extra: Map::new(),
        }
    }

    /// The block's kind.
    pub fn block_type(&self) -> BlockType {
        match self {
            ContentBlock::Text { .. } => BlockType::Text,
            ContentBlock::Reasoning { .. } => BlockType::Reasoning,
            ContentBlock::ToolCall { .. } => BlockType::ToolCall,
            ContentBlock::ToolResult { .. } => BlockType::ToolResult,
            ContentBlock::Image { .. } => BlockType::Image,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn chunks_round_trip_through_log_json() {
        let samples = [
            json!({"type":"block-start","index":0,"blockType":"text"}),
            json!({"type":"text-delta","index":0,"text":"hé"}),
            json!({"type":"tool-call-delta","index":1,"id":"c1","name":"read","argumentsDelta":"{\"a\""}),
            json!({"type":"block-end","index":0,"block":{"type":"text","text":"hé","cache":{"kind":"x"}}}),
            json!({"type":"usage","usage":{"inputTokens":3,"outputTokens":2}}),
            json!({"type":"finish","reason":{"kind":"error","message":"boom","code":"E"}}),
            json!({"type":"finish","reason":{"kind":"aborted","failure":{"message":"m","code":"ABORTED","status":499}}}),
        ];
        for s in samples {
            let chunk: StreamChunk = serde_json::from_value(s.clone()).expect("parses");
            assert_eq!(serde_json::to_value(&chunk).expect("serializes"), s);
        }
    }
}
