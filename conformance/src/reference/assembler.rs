//! The reference loop's block assembler (upstream `BlockAssembler`): blocks in first-seen index
//! order, deltas accumulate per index, the first `block-end` wins and freezes its block, the
//! last `usage` wins, a missing `finish` means `stop`, `max-tokens` drops tool calls.

use crate::vocab::chunk::{BlockType, ContentBlock, FinishReason, StreamChunk, TokenUsage};
use crate::vocab::text::is_blank;

#[derive(Debug, Clone)]
struct Block {
    index: u32,
    kind: BlockType,
    text: String,
    id: String,
    name: String,
    ended: Option<ContentBlock>,
}

/// Assembles the chunks of one model call.
#[derive(Debug, Default)]
pub struct BlockAssembler {
    blocks: Vec<Block>,
    usage: Option<TokenUsage>,
    finish: Option<FinishReason>,
    seqs: Vec<u64>,
}

/// The assembled result of one model call.
#[derive(Debug, Clone)]
pub struct Assembled {
    blocks: Vec<(Option<ContentBlock>, BlockType, String, String, String)>,
    /// The last usage chunk.
    pub usage: Option<TokenUsage>,
    /// The finish reason, if a `finish` chunk arrived.
    pub finish: Option<FinishReason>,
    /// The seqs of the recorded chunks.
    pub seqs: Vec<u64>,
}

impl BlockAssembler {
    fn block(&mut self, index: u32, kind: BlockType) -> &mut Block {
        if let Some(pos) = self.blocks.iter().position(|b| b.index == index) {
            return &mut self.blocks[pos];
        }
        self.blocks.push(Block {
            index,
            kind,
            text: String::new(),
            id: String::new(),
            name: String::new(),
            ended: None,
        });
        let last = self.blocks.len() - 1;
        &mut self.blocks[last]
    }

    /// Feeds one recorded chunk (with its seq).
    pub fn push(&mut self, seq: u64, chunk: &StreamChunk) {
        self.seqs.push(seq);
        match chunk {
            StreamChunk::BlockStart { index, block_type } => {
                self.block(*index, *block_type);
            }
            StreamChunk::TextDelta { index, text } => {
                let b = self.block(*index, BlockType::Text);
                if b.ended.is_none() {
                    b.text.push_str(text);
                }
            }
            StreamChunk::ReasoningDelta { index, text } => {
                let b = self.block(*index, BlockType::Reasoning);
                if b.ended.is_none() {
                    b.text.push_str(text);
                }
            }
            StreamChunk::ToolCallDelta {
                index,
                id,
                name,
                arguments_delta,
            } => {
                let b = self.block(*index, BlockType::ToolCall);
                if b.ended.is_none() {
                    b.id.clone_from(id);
                    if let Some(n) = name {
                        b.name.clone_from(n);
                    }
                    b.text.push_str(arguments_delta);
                }
            }
            StreamChunk::BlockEnd { index, block } => {
                let b = self.block(*index, block.block_type());
                if b.ended.is_none() {
                    b.ended = Some(block.clone());
                }
            }
            StreamChunk::Usage { usage } => self.usage = Some(usage.clone()),
            StreamChunk::Finish { reason, .. } => self.finish = Some(reason.clone()),
        }
    }

    /// Ends the call.
    pub fn finish(self) -> Assembled {
        Assembled {
            blocks: self
                .blocks
                .into_iter()
                .map(|b| (b.ended, b.kind, b.text, b.id, b.name))
                .collect(),
            usage: self.usage,
            finish: self.finish,
            seqs: self.seqs,
        }
    }
}

impl Assembled {
    fn block(
        (ended, kind, text, id, name): &(Option<ContentBlock>, BlockType, String, String, String),
    ) -> Option<ContentBlock> {
        if let Some(b) = ended {
            return Some(b.clone());
        }
        match kind {
            BlockType::Text => Some(ContentBlock::text(text.clone())),
            BlockType::Reasoning => Some(ContentBlock::reasoning(text.clone())),
            BlockType::ToolCall => Some(ContentBlock::tool_call(id, name, text.clone())),
            _ => None,
        }
    }

    /// The message content: every block, minus tool calls after `max-tokens`.
    pub fn content(&self) -> Vec<ContentBlock> {
        let max_tokens = matches!(self.finish, Some(FinishReason::MaxTokens));
        self.blocks
            .iter()
            .filter_map(Self::block)
            .filter(|b| !(max_tokens && b.block_type() == BlockType::ToolCall))
            .collect()
    }

    /// The content of an interrupted message: text and reasoning blocks, open or closed, with
    /// non-whitespace text (whitespace as JavaScript's `trim` sees it).
    pub fn interrupted_blocks(&self) -> Vec<ContentBlock> {
        self.blocks
            .iter()
            .filter_map(Self::block)
            .filter(|b| match b {
                ContentBlock::Text { text, .. } | ContentBlock::Reasoning { text, .. } => {
                    !is_blank(text)
                }
                _ => false,
            })
            .collect()
    }

    /// The tool calls to dispatch (id, name, arguments), in block order.
    pub fn tool_calls(&self) -> Vec<(String, String, String)> {
        self.content()
            .into_iter()
            .filter_map(|b| match b {
                ContentBlock::ToolCall {
                    id,
                    name,
                    arguments,
                    ..
                } => Some((id, name, arguments)),
                _ => None,
            })
            .collect()
    }
}
