//! Coverage labels: what each generated case exercises, so that nothing passes vacuously.
//!
//! Every case is classified with the labels of [`LABELS`] that apply to it (QuickCheck's
//! `cover`). A run fails when a label applicable to its profile stayed under its minimum share
//! of the cases, because then the suite did not look where bugs hide.

use super::{Action, CallEnding, Case, InterruptAt, InterruptKind, ModelCall};
use crate::vocab::Profile;
use crate::vocab::chunk::{FinishReason, StreamChunk};
use crate::vocab::profile::Profiles;

/// One coverage label and its minimum share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label {
    /// The label, e.g. `cancel during reasoning`.
    pub name: &'static str,
    /// The minimum share of cases, in per mille: a run of `n` cases needs at least
    /// `n * min_per_mille / 1000` (rounded down) cases with the label.
    pub min_per_mille: u32,
    /// The profiles in which the label can occur.
    pub profiles: Profiles,
}

const fn label(name: &'static str, min_per_mille: u32, profiles: Profiles) -> Label {
    Label {
        name,
        min_per_mille,
        profiles,
    }
}

/// Every coverage label.
pub const LABELS: &[Label] = &[
    label("several turns", 100, Profiles::BOTH),
    label("text deltas", 200, Profiles::BOTH),
    label("reasoning deltas", 100, Profiles::BOTH),
    label("tool call dispatched", 100, Profiles::BOTH),
    label("tool error result", 30, Profiles::BOTH),
    label(
        "tool call named only by its first delta (no block-end)",
        20,
        Profiles::BOTH,
    ),
    label(
        "tool call naming itself on every delta (no block-end)",
        10,
        Profiles::BOTH,
    ),
    label("empty delta", 100, Profiles::BOTH),
    label("multi-byte text", 100, Profiles::BOTH),
    label(
        "whitespace JavaScript trims (U+FEFF, U+00A0, U+2028)",
        50,
        Profiles::BOTH,
    ),
    label(
        "near-whitespace JavaScript keeps (U+001C, U+0085)",
        50,
        Profiles::BOTH,
    ),
    label("block without deltas", 100, Profiles::BOTH),
    label("block left open without deltas", 10, Profiles::BOTH),
    label(
        "interleaved blocks (a later-started block streams first)",
        50,
        Profiles::BOTH,
    ),
    label("usage chunk", 200, Profiles::BOTH),
    label("two usage chunks in one call", 50, Profiles::BOTH),
    label("usage before the first block", 15, Profiles::BOTH),
    label("a block ends after the last usage", 50, Profiles::BOTH),
    label("finish stop", 200, Profiles::BOTH),
    label("finish tool-calls", 100, Profiles::BOTH),
    label("finish max-tokens", 50, Profiles::BOTH),
    label("max-tokens drops tool calls", 10, Profiles::BOTH),
    label("finish error", 50, Profiles::BOTH),
    label("finish aborted", 20, Profiles::BOTH),
    label("adapter throws", 50, Profiles::BOTH),
    label("failure before any chunk", 10, Profiles::BOTH),
    label("failure after at least one chunk", 50, Profiles::BOTH),
    label("retry after failure", 20, Profiles::ONLY_2026_08),
    label(
        "steering in a call that is then retried",
        10,
        Profiles::ONLY_2026_08,
    ),
    label("steering", 100, Profiles::BOTH),
    label("steering during text", 20, Profiles::BOTH),
    label("steering during a tool call", 10, Profiles::BOTH),
    label(
        "leftover steering (a failed or cancelled call)",
        20,
        Profiles::BOTH,
    ),
    label(
        "a turn started by leftover steering",
        50,
        Profiles::ONLY_2026_07,
    ),
    label("steering dropped by a cancel", 30, Profiles::ONLY_2026_07),
    label("cancel", 50, Profiles::BOTH),
    label("cancel during text", 10, Profiles::BOTH),
    label("cancel during reasoning", 5, Profiles::BOTH),
    label("cancel during a tool call", 5, Profiles::BOTH),
    label("cancel with a non-whitespace prefix", 10, Profiles::BOTH),
    label(
        "cancel with a prefix only some languages call whitespace",
        5,
        Profiles::BOTH,
    ),
    label("cancel with a whitespace-only prefix", 5, Profiles::BOTH),
    label(
        "cancel with a punctuation-only prefix (no letter or digit)",
        5,
        Profiles::BOTH,
    ),
    label("dispose mid-stream", 10, Profiles::BOTH),
    label("dispose when idle", 50, Profiles::BOTH),
    label("idle injection", 20, Profiles::ONLY_2026_07),
];

/// Whether some tool-call block of `chunks` without a `block-end` has two or more deltas
/// whose naming (`name` present or not, in order) satisfies `naming`.
fn unended_tool_block_named(chunks: &[StreamChunk], naming: impl Fn(&[bool]) -> bool) -> bool {
    let ended: std::collections::BTreeSet<u32> = chunks
        .iter()
        .filter(|c| matches!(c, StreamChunk::BlockEnd { .. }))
        .filter_map(StreamChunk::index)
        .collect();
    let mut deltas: std::collections::BTreeMap<u32, Vec<bool>> = Default::default();
    for c in chunks {
        if let StreamChunk::ToolCallDelta { index, name, .. } = c {
            deltas.entry(*index).or_default().push(name.is_some());
        }
    }
    deltas
        .iter()
        .any(|(i, named)| named.len() >= 2 && !ended.contains(i) && naming(named))
}

/// Whether a tool-call block of `chunks` takes its name from its first delta alone: later
/// deltas name nothing and no `block-end` names it, as real providers stream a call (the name
/// once, then argument fragments). A loop that takes the name from the latest delta loses it.
fn named_by_first_delta_only(chunks: &[StreamChunk]) -> bool {
    unended_tool_block_named(chunks, |named| !named[1..].iter().any(|n| *n))
}

/// Whether a tool-call block without a `block-end` repeats its name on each of two or more
/// deltas (as other providers stream a call): the assembled name is that one name, never the
/// names joined.
fn named_by_every_delta(chunks: &[StreamChunk]) -> bool {
    unended_tool_block_named(chunks, |named| named.iter().all(|n| *n))
}

/// The block kind open after chunk `after` of `call` (the block started and not yet ended).
fn open_block_after(call: &ModelCall, after: usize) -> Option<&'static str> {
    let mut open: Vec<(u32, &'static str)> = Vec::new();
    for c in call.chunks.iter().take(after + 1) {
        match c {
            StreamChunk::BlockStart { index, block_type } => {
                let kind = match block_type {
                    crate::vocab::chunk::BlockType::Text => "text",
                    crate::vocab::chunk::BlockType::Reasoning => "reasoning",
                    crate::vocab::chunk::BlockType::ToolCall => "tool-call",
                    _ => "other",
                };
                open.push((*index, kind));
            }
            StreamChunk::BlockEnd { index, .. } => open.retain(|(i, _)| i != index),
            _ => {}
        }
    }
    open.last().map(|(_, k)| *k)
}

/// Whether chunks `0..=upto` of `call` stream non-whitespace text or reasoning (what a
/// 2026-08 interrupted message keeps).
pub fn has_non_whitespace_prefix(call: &ModelCall, upto: usize) -> bool {
    call.chunks.iter().take(upto + 1).any(|c| match c {
        StreamChunk::TextDelta { text, .. } | StreamChunk::ReasoningDelta { text, .. } => {
            !crate::vocab::text::is_blank(text)
        }
        StreamChunk::BlockEnd {
            block:
                crate::vocab::chunk::ContentBlock::Text { text, .. }
                | crate::vocab::chunk::ContentBlock::Reasoning { text, .. },
            ..
        } => !crate::vocab::text::is_blank(text),
        _ => false,
    })
}

/// Whether the text and reasoning streamed in chunks `0..=upto` of `call` is whitespace by
/// one language's definition but not by another's: only JavaScript `trim` whitespace and the
/// code points Rust or Python add (U+001C–U+001F, U+0085), with at least one that is not ASCII
/// space, tab or newline. Such a prefix decides the 2026-08 interrupted message (MSG-5) only
/// when whitespace is JavaScript's.
fn has_contested_whitespace_prefix(call: &ModelCall, upto: usize) -> bool {
    let mut text = String::new();
    for c in call.chunks.iter().take(upto + 1) {
        if let StreamChunk::TextDelta { text: t, .. }
        | StreamChunk::ReasoningDelta { text: t, .. } = c
        {
            text.push_str(t);
        }
    }
    let contested = |c: char| matches!(c, '\u{1c}'..='\u{1f}' | '\u{85}');
    !text.is_empty()
        && text
            .chars()
            .all(|c| crate::vocab::text::is_js_whitespace(c) || contested(c))
        && text.chars().any(|c| contested(c) || !c.is_ascii())
}

/// The text and reasoning streamed in chunks `0..=upto` of `call`: deltas, and the text of
/// the blocks that ended.
fn prefix_text(call: &ModelCall, upto: usize) -> String {
    let mut text = String::new();
    for c in call.chunks.iter().take(upto + 1) {
        match c {
            StreamChunk::TextDelta { text: t, .. }
            | StreamChunk::ReasoningDelta { text: t, .. } => text.push_str(t),
            StreamChunk::BlockEnd {
                block:
                    crate::vocab::chunk::ContentBlock::Text { text: t, .. }
                    | crate::vocab::chunk::ContentBlock::Reasoning { text: t, .. },
                ..
            } => text.push_str(t),
            _ => {}
        }
    }
    text
}

/// Whether some text or reasoning delta comes before the cancel point.
fn streams_text_before(call: &ModelCall, upto: usize) -> bool {
    call.chunks.iter().take(upto + 1).any(|c| {
        matches!(
            c,
            StreamChunk::TextDelta { .. } | StreamChunk::ReasoningDelta { .. }
        )
    })
}

/// Whether the order of the blocks' `block-start`s differs from the order in which their first
/// delta or `block-end` arrives (two blocks open at once, the later started one first).
fn blocks_interleave(chunks: &[StreamChunk]) -> bool {
    let mut started: Vec<u32> = Vec::new();
    let mut first_content: Vec<u32> = Vec::new();
    for c in chunks {
        match (c, c.index()) {
            (StreamChunk::BlockStart { index, .. }, _) => started.push(*index),
            (_, Some(index)) if !first_content.contains(&index) => first_content.push(index),
            _ => {}
        }
    }
    let started: Vec<u32> = started
        .into_iter()
        .filter(|i| first_content.contains(i))
        .collect();
    started != first_content
}

/// The labels found on a case so far, each once.
#[derive(Default)]
struct Found(Vec<&'static str>);

impl Found {
    fn add(&mut self, label: &'static str) {
        if !self.0.contains(&label) {
            self.0.push(label);
        }
    }
}

/// The labels of [`LABELS`] that apply to `case`, in table order.
pub fn labels_of(case: &Case) -> Vec<&'static str> {
    let mut on = Found::default();
    action_labels(case, &mut on);
    let calls = (0..case.script.actions.len()).flat_map(|a| {
        let calls = case.script.prompt_calls(a);
        (0..calls.len()).map(move |c| (calls, c))
    });
    for (calls, c) in calls {
        let call = &calls[c];
        let delivered = &call.chunks[..call.delivered_len()];
        delta_labels(delivered, &mut on);
        leftover_steering_labels(case.profile, calls, c, &mut on);
        block_labels(call, delivered, &mut on);
        usage_order_labels(delivered, &mut on);
        tool_labels(call, &mut on);
        ending_labels(call, &mut on);
        steering_labels(call, &mut on);
    }
    LABELS
        .iter()
        .map(|l| l.name)
        .filter(|n| on.0.contains(n))
        .collect()
}

/// What the user's actions exercise: several turns, a dispose when idle, an idle injection.
fn action_labels(case: &Case, on: &mut Found) {
    let turns = case
        .script
        .actions
        .iter()
        .filter(|a| !matches!(a, Action::Dispose))
        .count();
    if turns >= 2 {
        on.add("several turns");
    }
    if matches!(case.script.actions.last(), Some(Action::Dispose)) {
        on.add("dispose when idle");
    }
    if case
        .script
        .actions
        .iter()
        .any(|a| matches!(a, Action::Inject { .. }))
    {
        on.add("idle injection");
    }
}

/// What a call's delivered deltas and usage chunks carry: text and reasoning, empty deltas,
/// multi-byte text, whitespace languages disagree on, one usage chunk or two.
fn delta_labels(delivered: &[StreamChunk], on: &mut Found) {
    for c in delivered {
        match c {
            StreamChunk::TextDelta { text, .. } | StreamChunk::ReasoningDelta { text, .. } => {
                if matches!(c, StreamChunk::TextDelta { .. }) {
                    on.add("text deltas");
                } else {
                    on.add("reasoning deltas");
                }
                if text.is_empty() {
                    on.add("empty delta");
                }
                if text.len() != text.chars().count() {
                    on.add("multi-byte text");
                }
                if !text.is_ascii() && crate::vocab::text::is_blank(text) {
                    on.add("whitespace JavaScript trims (U+FEFF, U+00A0, U+2028)");
                }
                // U+001C, U+0085 and the generator's other near-whitespace variants.
                if text.contains(['\u{1c}', '\u{85}'])
                    || super::generate::NEAR_WHITESPACE_VARIANTS.contains(&text.as_str())
                {
                    on.add("near-whitespace JavaScript keeps (U+001C, U+0085)");
                }
            }
            StreamChunk::ToolCallDelta {
                arguments_delta, ..
            } if arguments_delta.is_empty() => on.add("empty delta"),
            StreamChunk::Usage { .. } => on.add("usage chunk"),
            _ => {}
        }
    }
    if delivered
        .iter()
        .filter(|c| matches!(c, StreamChunk::Usage { .. }))
        .count()
        >= 2
    {
        on.add("two usage chunks in one call");
    }
}

/// Steering in a call that is then retried, and steering left over by a failed or cancelled
/// call: whether it starts a turn of its own, or (2026-07) a cancel drops it. A retried call's
/// steering is pending until the call that settles its step.
fn leftover_steering_labels(profile: Profile, calls: &[ModelCall], c: usize, on: &mut Found) {
    let call = &calls[c];
    if !call.steer.is_empty() && call.retry {
        on.add("steering in a call that is then retried");
    }
    if call.steer.is_empty()
        || !matches!(
            calls[super::settling_call(calls, c)].ending(),
            CallEnding::Failed | CallEnding::Interrupted(_)
        )
    {
        return;
    }
    on.add("leftover steering (a failed or cancelled call)");
    if call.starts_leftover_turn(profile) {
        on.add("a turn started by leftover steering");
    }
    if profile == Profile::V2026_07
        && matches!(call.ending(), CallEnding::Interrupted(i) if i.kind == InterruptKind::Cancel)
    {
        on.add("steering dropped by a cancel");
    }
}

/// How a call's blocks are shaped: one without deltas (left open, in a successful call),
/// blocks that interleave.
fn block_labels(call: &ModelCall, delivered: &[StreamChunk], on: &mut Found) {
    let starts = delivered
        .iter()
        .filter(|c| matches!(c, StreamChunk::BlockStart { .. }))
        .count();
    let with_deltas: std::collections::BTreeSet<u32> = delivered
        .iter()
        .filter(|c| c.is_delta())
        .filter_map(StreamChunk::index)
        .collect();
    if starts > with_deltas.len() {
        on.add("block without deltas");
    }
    // A successful call's content holds such a block as an empty one.
    if call.ending() == CallEnding::Success {
        let ended: std::collections::BTreeSet<u32> = delivered
            .iter()
            .filter(|c| matches!(c, StreamChunk::BlockEnd { .. }))
            .filter_map(StreamChunk::index)
            .collect();
        if delivered.iter().any(|c| {
            matches!(c, StreamChunk::BlockStart { index, .. } if !with_deltas.contains(index) && !ended.contains(index))
        }) {
            on.add("block left open without deltas");
        }
    }
    if blocks_interleave(delivered) {
        on.add("interleaved blocks (a later-started block streams first)");
    }
}

/// Where usage chunks fall among the blocks: before the first block, before a block's end.
fn usage_order_labels(delivered: &[StreamChunk], on: &mut Found) {
    let usages: Vec<usize> = delivered
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c, StreamChunk::Usage { .. }))
        .map(|(k, _)| k)
        .collect();
    let (Some(&first), Some(&last)) = (usages.first(), usages.last()) else {
        return;
    };
    if !delivered[..first]
        .iter()
        .any(|c| matches!(c, StreamChunk::BlockStart { .. }))
        && delivered[first..]
            .iter()
            .any(|c| matches!(c, StreamChunk::BlockStart { .. }))
    {
        on.add("usage before the first block");
    }
    if delivered[last..]
        .iter()
        .any(|c| matches!(c, StreamChunk::BlockEnd { .. }))
    {
        on.add("a block ends after the last usage");
    }
}

/// What a call's tool calls exercise: dispatch, a name given by the first delta only, an
/// error result.
fn tool_labels(call: &ModelCall, on: &mut Found) {
    if !call.dispatched_tool_calls().is_empty() {
        on.add("tool call dispatched");
    }
    if call.ending() == CallEnding::Success && named_by_first_delta_only(&call.chunks) {
        on.add("tool call named only by its first delta (no block-end)");
    }
    if call.ending() == CallEnding::Success && named_by_every_delta(&call.chunks) {
        on.add("tool call naming itself on every delta (no block-end)");
    }
    if call.tools.iter().any(|t| t.is_error) {
        on.add("tool error result");
    }
}

/// How a call ends: its finish reason, a failure (before or after a chunk, retried), an
/// interruption.
fn ending_labels(call: &ModelCall, on: &mut Found) {
    match call.ending() {
        CallEnding::Success => match call.finish() {
            Some(FinishReason::ToolCalls) => on.add("finish tool-calls"),
            _ => on.add("finish stop"),
        },
        CallEnding::MaxTokens => {
            on.add("finish max-tokens");
            if !super::tool_calls_of(&call.chunks).is_empty() {
                on.add("max-tokens drops tool calls");
            }
        }
        CallEnding::Failed => {
            match (call.finish(), &call.throw) {
                (_, Some(_)) => on.add("adapter throws"),
                (Some(FinishReason::Aborted { .. }), _) => on.add("finish aborted"),
                _ => on.add("finish error"),
            }
            let content = call.chunks.len() - usize::from(call.throw.is_none());
            if content == 0 {
                on.add("failure before any chunk");
            } else {
                on.add("failure after at least one chunk");
            }
            if call.retry {
                on.add("retry after failure");
            }
        }
        CallEnding::Interrupted(i) => interrupt_labels(call, i, on),
    }
}

/// What an interruption cuts: a cancel or a dispose, the block it lands in, and the prefix
/// streamed before it (which decides the interrupted message).
fn interrupt_labels(call: &ModelCall, i: InterruptAt, on: &mut Found) {
    match i.kind {
        InterruptKind::Cancel => {
            on.add("cancel");
            match open_block_after(call, i.after) {
                Some("text") => on.add("cancel during text"),
                Some("reasoning") => on.add("cancel during reasoning"),
                Some("tool-call") => on.add("cancel during a tool call"),
                _ => {}
            }
        }
        InterruptKind::Dispose => on.add("dispose mid-stream"),
    }
    if has_non_whitespace_prefix(call, i.after) {
        on.add("cancel with a non-whitespace prefix");
    }
    if has_contested_whitespace_prefix(call, i.after) {
        on.add("cancel with a prefix only some languages call whitespace");
    }
    if streams_text_before(call, i.after) {
        let text = prefix_text(call, i.after);
        if crate::vocab::text::is_blank(&text) {
            on.add("cancel with a whitespace-only prefix");
        } else if text.chars().all(|c| {
            crate::vocab::text::is_js_whitespace(c) || c.is_ascii_punctuation() || c == '\u{2026}'
        }) {
            on.add("cancel with a punctuation-only prefix (no letter or digit)");
        }
    }
}

/// Where steering arrives: during text, during a tool call.
fn steering_labels(call: &ModelCall, on: &mut Found) {
    for s in &call.steer {
        on.add("steering");
        match open_block_after(call, s.after) {
            Some("text") => on.add("steering during text"),
            Some("tool-call") => on.add("steering during a tool call"),
            _ => {}
        }
    }
}

/// The minimum number of cases a label needs in a run of `cases` cases under `profile`
/// (0 when the label cannot occur there).
pub fn minimum(label: &Label, profile: Profile, cases: u64) -> u64 {
    if !label.profiles.contains(profile) {
        return 0;
    }
    cases * u64::from(label.min_per_mille) / 1000
}
