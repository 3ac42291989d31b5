//! proptest strategies that generate valid [`Case`]s and shrink them to minimal ones.
//!
//! Generation works in two stages so that shrinking can never produce an invalid script:
//! proptest generates and shrinks a *raw* description (turns → calls → blocks → deltas, plus
//! positions for steering, interrupts and failures as free numbers), and [`build`] turns any raw
//! description into a script that [`Script::validate`](super::Script::validate) accepts: a
//! position is reduced modulo the call's length, a call that continues the turn (tool calls or
//! steering) is followed by another one, calls after the one that ends the turn are dropped.
//! Shrinking a raw value removes turns, calls, blocks and deltas and moves positions to zero.
//!
//! Payloads come from small fixed alphabets (empty deltas, spaces, multi-byte text): chunk
//! accounting does not need more, and regex strategies would dominate the run time.
//!
//! The stream shapes follow what a model adapter may stream (docs/protocol/stdio.md §4): a
//! block may have no delta (`block-start` then `block-end`, or a text or reasoning block left
//! open), two blocks may be open at once with their deltas interleaved by index, and `usage`
//! may come anywhere before `finish` (before the first block, between blocks, inside one).
//! Tool-call blocks always name their call, with a `tool-call-delta` or a `block-end`, except in
//! a call that finishes `max-tokens` or fails, where a tool call is never dispatched.

use super::{
    Action, CallEnding, Case, InterruptAt, InterruptKind, ModelCall, Script, SteerAt, ToolOutcome,
    continues_at, settling_call,
};
use crate::vocab::Profile;
use crate::vocab::chunk::{
    BlockType, ContentBlock, FinishReason, LlmFailure, StreamChunk, TokenUsage,
};
use proptest::collection::vec;
use proptest::prelude::*;
use serde_json::Map;

/// Text and reasoning delta payloads: empty, whitespace-only, ASCII, multi-byte, and the
/// non-ASCII whitespace JavaScript's `trim` removes (U+FEFF, U+00A0, U+2028) next to code points
/// it keeps although Rust or Python call them whitespace (U+001C, U+0085).
pub const TEXT_FRAGMENTS: &[&str] = &[
    "a",
    "hello",
    " ",
    "",
    "é",
    "日本語",
    "🦀",
    "x y",
    "\n",
    "ok.",
    "\u{feff}",
    "\u{a0}",
    "\u{2028}",
    "\u{1c}",
    "\u{85}",
];
/// Every non-ASCII code point JavaScript's `trim` removes, in one fragment: an implementation
/// whose whitespace set misses any one of them keeps a cancelled block that streamed only this.
pub const ALL_JS_WHITESPACE: &str = "\u{a0}\u{1680}\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}\u{2007}\u{2008}\u{2009}\u{200a}\u{2028}\u{2029}\u{202f}\u{205f}\u{3000}\u{feff}";
/// What a JavaScript-whitespace fragment of [`TEXT_FRAGMENTS`] (U+FEFF, U+00A0, U+2028) streams
/// when its delta byte is past the first round: every such code point at once, the two ends of
/// the range U+2000..=U+200A, and the others one by one.
pub const JS_WHITESPACE_VARIANTS: &[&str] = &[
    ALL_JS_WHITESPACE,
    "\u{2000}",
    "\u{200a}",
    "\u{1680}",
    "\u{2029}",
    "\u{202f}",
    "\u{205f}",
    "\u{3000}",
];
/// What a near-whitespace fragment of [`TEXT_FRAGMENTS`] (U+001C, U+0085) streams past the
/// first round: code points JavaScript's `trim` keeps although some language or an older Unicode
/// calls them whitespace (U+001D..=U+001F, U+180E), the neighbours of the range
/// U+2000..=U+200A (U+1FFF, U+200B), and `_`, the character a whitespace set written as a string
/// most easily gains by mistake. Each alone is text, not whitespace: a cancelled block that
/// streamed only it is kept.
pub const NEAR_WHITESPACE_VARIANTS: &[&str] = &[
    "\u{1d}", "\u{1e}", "\u{1f}", "\u{180e}", "\u{1fff}", "\u{200b}", "_",
];

/// The kinds of text an interrupted prefix can consist of, each with the alphabet a call aimed
/// at it streams: whitespace (ASCII and what JavaScript's `trim` removes, so nothing is kept),
/// near-whitespace (code points JavaScript keeps although other languages call them
/// whitespace), and punctuation with no letter or digit (what a whitespace set or a `\W`
/// pattern most easily swallows by mistake). A cancel or dispose aimed at a kind lands right
/// after a delta of a call whose every text and reasoning delta comes from that alphabet, so each
/// kind of prefix is reached in every run, not by luck (coverage labels pin it).
pub const PREFIX_ALPHABETS: &[(&str, &[&str])] = &[
    (
        "whitespace",
        &[
            " ",
            "\n",
            "",
            "\t",
            "\u{feff}",
            "\u{a0}",
            "\u{2028}",
            ALL_JS_WHITESPACE,
        ],
    ),
    (
        "near-whitespace",
        &[
            "\u{1c}", "\u{85}", "\u{1d}", "\u{1e}", "\u{1f}", "\u{180e}", "\u{1fff}", "\u{200b}",
        ],
    ),
    ("punctuation", &["_", ".", "_ ", "-", "\u{2026}", "?!"]),
];

/// The text of a text or reasoning delta whose raw byte is `d`. Bytes below
/// `TEXT_FRAGMENTS.len()` (where shrinking ends) select [`TEXT_FRAGMENTS`] directly, and so does
/// every higher byte, except that one selecting a non-ASCII whitespace or near-whitespace
/// fragment streams one of that fragment's variants: the k-th such byte past the first round
/// streams variant k (cyclically), so every variant is drawn while each kind of text keeps its
/// share.
pub fn text_fragment(d: u8) -> &'static str {
    let n = TEXT_FRAGMENTS.len();
    let d = usize::from(d);
    let base = TEXT_FRAGMENTS[d % n];
    match variants_of(base) {
        Some(variants) if d >= n => {
            let k = (n..d)
                .filter(|&b| variants_of(TEXT_FRAGMENTS[b % n]) == Some(variants))
                .count();
            variants[k % variants.len()]
        }
        _ => base,
    }
}

/// The variants a fragment of [`TEXT_FRAGMENTS`] stands for past the first round, if any.
fn variants_of(fragment: &str) -> Option<&'static [&'static str]> {
    if matches!(fragment, "\u{1c}" | "\u{85}") {
        Some(NEAR_WHITESPACE_VARIANTS)
    } else if !fragment.is_ascii() && crate::vocab::text::is_blank(fragment) {
        Some(JS_WHITESPACE_VARIANTS)
    } else {
        None
    }
}

/// Tool-call argument deltas: pieces of a JSON object.
pub const ARGUMENT_FRAGMENTS: &[&str] = &["{", "\"path\":", "\"a.txt\"", "}", "", " "];
/// Tool names.
pub const TOOL_NAMES: &[&str] = &["read", "write", "search"];

/// Raw delta bytes are drawn from `0..DELTA_BYTES`.
const DELTA_BYTES: u8 = 100;

/// A raw block: kind 0 text, 1 reasoning, 2 tool call.
#[derive(Debug, Clone)]
pub struct RawBlock {
    kind: u8,
    deltas: Vec<u8>,
    end: bool,
}

/// A raw model call.
#[derive(Debug, Clone)]
pub struct RawCall {
    blocks: Vec<RawBlock>,
    /// The first two blocks stream at once, their deltas interleaved by index (the later
    /// started one first).
    interleave: bool,
    usage: Option<(u8, u8)>,
    /// Where the usage chunks go: 0 after the last block, otherwise before content chunk
    /// `(at - 1) % (content chunks + 1)` (the second one never before the first).
    usage_at: (u8, u8),
    /// 0 stop, 1 tool-calls, 2 max-tokens, 3 finish error, 4 finish aborted, 5 throw.
    end: u8,
    cut: u16,
    steer: Vec<u16>,
    /// Position, dispose (or cancel), and the [`PREFIX_ALPHABETS`] kind the interrupt aims at.
    interrupt: Option<(u16, bool, Option<u8>)>,
    retry: bool,
    tool_errors: Vec<bool>,
}

/// A raw turn.
#[derive(Debug, Clone)]
pub struct RawTurn {
    inject: bool,
    calls: Vec<RawCall>,
}

/// A raw case: turns, then whether the user disposes of the idle agent at the end.
#[derive(Debug, Clone)]
pub struct RawCase {
    turns: Vec<RawTurn>,
    dispose: bool,
}

fn raw_block() -> impl Strategy<Value = RawBlock> {
    (
        prop_oneof![4 => Just(0u8), 2 => Just(1u8), 3 => Just(2u8)],
        vec(0u8..DELTA_BYTES, 0..=4),
        prop::bool::weighted(0.85),
    )
        .prop_map(|(kind, deltas, end)| RawBlock { kind, deltas, end })
}

fn usage_position() -> impl Strategy<Value = u8> {
    prop_oneof![1 => Just(0u8), 1 => 1u8..=u8::MAX]
}

fn raw_call() -> impl Strategy<Value = RawCall> {
    (
        (vec(raw_block(), 0..=3), prop::bool::weighted(0.2)),
        prop::option::weighted(0.6, (0u8..50, 0u8..50)),
        (usage_position(), usage_position()),
        prop_oneof![
            5 => Just(0u8),
            5 => Just(1u8),
            2 => Just(2u8),
            2 => Just(3u8),
            1 => Just(4u8),
            2 => Just(5u8)
        ],
        any::<u16>(),
        vec(any::<u16>(), 0..=2).prop_map(|mut v| {
            v.truncate(if v.len() == 2 && v[0] % 3 != 0 { 1 } else { 2 });
            v
        }),
        prop::option::weighted(
            0.2,
            (
                any::<u16>(),
                prop::bool::weighted(0.25),
                prop::option::weighted(0.6, 0u8..PREFIX_ALPHABETS.len() as u8),
            ),
        ),
        prop::bool::weighted(0.5),
        vec(prop::bool::weighted(0.3), 1..=3),
    )
        .prop_map(
            |(
                (blocks, interleave),
                usage,
                usage_at,
                end,
                cut,
                steer,
                interrupt,
                retry,
                tool_errors,
            )| RawCall {
                blocks,
                interleave,
                usage,
                usage_at,
                end,
                cut,
                steer,
                interrupt,
                retry,
                tool_errors,
            },
        )
}

fn raw_turn() -> impl Strategy<Value = RawTurn> {
    (prop::bool::weighted(0.1), vec(raw_call(), 1..=3))
        .prop_map(|(inject, calls)| RawTurn { inject, calls })
}

/// The raw strategy; [`build`] maps it to a case.
pub fn raw_case() -> impl Strategy<Value = RawCase> {
    (vec(raw_turn(), 1..=3), prop::bool::weighted(0.3))
        .prop_map(|(turns, dispose)| RawCase { turns, dispose })
}

/// Generates valid cases under `profile`; failures shrink to minimal scripts.
pub fn cases(profile: Profile) -> impl Strategy<Value = Case> {
    raw_case().prop_map(move |raw| build(profile, &raw))
}

struct Names {
    prompt: usize,
    steer: usize,
}

/// Builds a valid case from any raw description (see the module docs).
pub fn build(profile: Profile, raw: &RawCase) -> Case {
    let mut names = Names {
        prompt: 0,
        steer: 0,
    };
    let mut actions = Vec::new();
    let mut disposed = false;
    for (t, turn) in raw.turns.iter().enumerate() {
        if turn.inject && profile == Profile::V2026_07 {
            names.prompt += 1;
            actions.push(Action::Inject {
                text: format!("context {}", names.prompt),
            });
            continue;
        }
        names.prompt += 1;
        let text = format!("prompt {}", names.prompt);
        let mut calls = Vec::new();
        for (c, rc) in turn.calls.iter().enumerate() {
            let call = build_call(profile, rc, t + 1, c + 1, &mut names);
            // 2026-07 leftover steering of a failed call runs as a turn of its own: the
            // turn's remaining raw calls (or a closing call) serve it.
            let starts_leftover = call.starts_leftover_turn(profile);
            if call
                .interrupt
                .is_some_and(|i| i.kind == InterruptKind::Dispose)
            {
                disposed = true;
            }
            calls.push(call);
            let last = calls.len() - 1;
            let goes_on = continues_at(&calls, last) || calls[last].retry || starts_leftover;
            if !goes_on {
                break;
            }
            if c + 1 == turn.calls.len() {
                calls.push(closing_call(t + 1, calls.len() + 1));
                // A closing call that settles a steered retry goes on to the steered step.
                if continues_at(&calls, calls.len() - 1) {
                    calls.push(closing_call(t + 1, calls.len() + 1));
                }
            }
        }
        actions.push(Action::Prompt { text, calls });
        if disposed {
            break;
        }
    }
    if raw.dispose && !disposed {
        actions.push(Action::Dispose);
    }
    // Leftover steering (in a call that ended its turn early) is claimed by the next turn's
    // prompt; where no prompt follows, the user never steered. Under 2026-07 a failed call's
    // leftover starts its own turn and a cancel drops it, so neither needs a next prompt.
    for a in 0..actions.len() {
        let next_is_prompt = matches!(actions.get(a + 1), Some(Action::Prompt { .. }));
        if let Some(Action::Prompt { calls, .. }) = actions.get_mut(a)
            && !next_is_prompt
        {
            // A retried call's steering waits for the call that settles its step.
            let settled: Vec<CallEnding> = (0..calls.len())
                .map(|c| calls[settling_call(calls, c)].ending())
                .collect();
            for (call, settled) in calls.iter_mut().zip(settled) {
                let claimed = call.starts_leftover_turn(profile)
                    || (profile == Profile::V2026_07
                        && matches!(call.ending(), CallEnding::Interrupted(i) if i.kind == InterruptKind::Cancel));
                if !claimed && !matches!(settled, CallEnding::Success | CallEnding::MaxTokens) {
                    call.steer.clear();
                }
            }
        }
    }
    Case {
        profile,
        script: Script { actions },
    }
}

fn finish(reason: FinishReason) -> StreamChunk {
    StreamChunk::Finish {
        reason,
        replay_state: None,
    }
}

fn failure(message: &str, code: &str) -> LlmFailure {
    LlmFailure {
        message: message.into(),
        code: code.into(),
        extra: Map::new(),
    }
}

fn closing_call(turn: usize, call: usize) -> ModelCall {
    let text = format!("done {turn}.{call}");
    ModelCall {
        chunks: vec![
            StreamChunk::BlockStart {
                index: 0,
                block_type: BlockType::Text,
            },
            StreamChunk::TextDelta {
                index: 0,
                text: text.clone(),
            },
            StreamChunk::BlockEnd {
                index: 0,
                block: ContentBlock::text(text),
            },
            finish(FinishReason::Stop),
        ],
        ..ModelCall::default()
    }
}

/// The chunks of one block. `alphabet` replaces the text alphabet of text and reasoning
/// deltas (a call aimed at a kind of interrupted prefix); `may_stay_unnamed` lets a tool-call
/// block without deltas stay open (a call that finishes `max-tokens` or fails never dispatches
/// it). A text or reasoning block without deltas may stay open: it assembles to an empty block.
fn block_chunks(
    index: u32,
    raw: &RawBlock,
    id: &str,
    alphabet: Option<&[&'static str]>,
    may_stay_unnamed: bool,
) -> Vec<StreamChunk> {
    let kind = match raw.kind {
        0 => BlockType::Text,
        1 => BlockType::Reasoning,
        _ => BlockType::ToolCall,
    };
    let mut out = vec![StreamChunk::BlockStart {
        index,
        block_type: kind,
    }];
    let name = TOOL_NAMES[usize::from(raw.deltas.first().copied().unwrap_or(0)) % TOOL_NAMES.len()];
    // Some providers name the tool in the first delta only, others repeat the name (and every
    // provider the id) on every delta; a loop that concatenates them must meet the second kind.
    let names_every_delta = raw.deltas.get(1).is_some_and(|d| d % 2 == 1);
    let mut text = String::new();
    for (i, &raw_delta) in raw.deltas.iter().enumerate() {
        let d = usize::from(raw_delta);
        match kind {
            BlockType::ToolCall => {
                let frag = ARGUMENT_FRAGMENTS[d % ARGUMENT_FRAGMENTS.len()];
                text.push_str(frag);
                out.push(StreamChunk::ToolCallDelta {
                    index,
                    id: id.to_owned(),
                    name: (i == 0 || names_every_delta).then(|| name.to_owned()),
                    arguments_delta: frag.to_owned(),
                });
            }
            _ => {
                let frag = match alphabet {
                    Some(a) => a[d % a.len()],
                    None => text_fragment(raw_delta),
                };
                text.push_str(frag);
                out.push(if kind == BlockType::Text {
                    StreamChunk::TextDelta {
                        index,
                        text: frag.to_owned(),
                    }
                } else {
                    StreamChunk::ReasoningDelta {
                        index,
                        text: frag.to_owned(),
                    }
                });
            }
        }
    }
    // A tool call is named by its deltas or its `block-end`: one without deltas ends, unless
    // the call never dispatches it.
    let unnamed = kind == BlockType::ToolCall && raw.deltas.is_empty() && !may_stay_unnamed;
    // A tool call streamed in several deltas is left without its `block-end` more often than
    // other blocks: such a call is named by its deltas alone (once, or on every delta), which
    // is where an assembler's mistakes show.
    let named_by_deltas =
        kind == BlockType::ToolCall && raw.deltas.len() >= 2 && raw.deltas[0].is_multiple_of(2);
    if (raw.end && !named_by_deltas) || unnamed {
        let block = match kind {
            BlockType::Text => ContentBlock::text(text),
            BlockType::Reasoning => ContentBlock::reasoning(text),
            _ => ContentBlock::tool_call(id, name, text),
        };
        out.push(StreamChunk::BlockEnd { index, block });
    }
    out
}

/// Two blocks streaming at once: both start, then their remaining chunks alternate, the later
/// started block's first, so the order of first deltas differs from the order of `block-start`s.
fn interleave(first: Vec<StreamChunk>, second: Vec<StreamChunk>) -> Vec<StreamChunk> {
    let mut a = first.into_iter();
    let mut b = second.into_iter();
    let mut out: Vec<StreamChunk> = a.next().into_iter().chain(b.next()).collect();
    loop {
        match (b.next(), a.next()) {
            (None, None) => return out,
            (x, y) => out.extend(x.into_iter().chain(y)),
        }
    }
}

/// Inserts the usage chunks at their drawn positions among the content chunks.
fn insert_usage(chunks: &mut Vec<StreamChunk>, usage: Vec<StreamChunk>, at: (u8, u8)) {
    let position = |raw: u8, len: usize| match raw {
        0 => len,
        r => usize::from(r - 1) % (len + 1),
    };
    let len = chunks.len();
    let mut first = None;
    let n = usage.len();
    for (k, u) in usage.into_iter().enumerate() {
        let raw = if k + 1 == n && n > 1 { at.1 } else { at.0 };
        // Positions count content chunks; each usage inserted before shifts the later ones.
        let p = position(raw, len).max(first.unwrap_or(0));
        first = Some(p);
        chunks.insert(p + k, u);
    }
}

fn build_call(
    profile: Profile,
    raw: &RawCall,
    turn: usize,
    call: usize,
    names: &mut Names,
) -> ModelCall {
    let alphabet = raw
        .interrupt
        .and_then(|(_, _, aim)| aim)
        .map(|k| PREFIX_ALPHABETS[usize::from(k) % PREFIX_ALPHABETS.len()].1);
    let mut blocks: Vec<Vec<StreamChunk>> = raw
        .blocks
        .iter()
        .enumerate()
        .map(|(b, block)| {
            let id = format!("call-{turn}-{call}-{b}");
            block_chunks(b as u32, block, &id, alphabet, raw.end >= 2)
        })
        .collect();
    if raw.interleave && blocks.len() >= 2 {
        let second = blocks.remove(1);
        let first = std::mem::take(&mut blocks[0]);
        blocks[0] = interleave(first, second);
    }
    let mut chunks: Vec<StreamChunk> = blocks.into_iter().flatten().collect();
    let mut throw = None;
    let failed = raw.end >= 3;
    if failed {
        // A failure cuts the stream anywhere, possibly inside a block.
        let keep = usize::from(raw.cut) % (chunks.len() + 1);
        chunks.truncate(keep);
        match raw.end {
            3 => chunks.push(finish(match profile {
                Profile::V2026_07 => FinishReason::Error {
                    message: Some("provider error".into()),
                    code: Some("E_PROVIDER".into()),
                    failure: None,
                },
                Profile::V2026_08 => FinishReason::Error {
                    message: None,
                    code: None,
                    failure: Some(failure("provider error", "E_PROVIDER")),
                },
            })),
            4 => chunks.push(finish(FinishReason::Aborted {
                failure: (profile == Profile::V2026_08)
                    .then(|| failure("provider aborted", "ABORTED")),
            })),
            _ => throw = Some(failure("adapter threw", "E_ADAPTER")),
        }
    } else {
        if let Some((input, output)) = raw.usage {
            let usage = |output_tokens: u64| StreamChunk::Usage {
                usage: TokenUsage {
                    input_tokens: u64::from(input),
                    output_tokens,
                    ..TokenUsage::default()
                },
            };
            // Some providers report usage twice (a running count, then the total): the
            // message's usage is the last one (MSG-4). Usage may come before the first block
            // (as a `message_start` does) or between blocks: nothing but `finish` resets it.
            let mut reports = Vec::new();
            if input % 3 == 0 {
                reports.push(usage(u64::from(output / 2)));
            }
            reports.push(usage(u64::from(output)));
            insert_usage(&mut chunks, reports, raw.usage_at);
        }
        chunks.push(finish(match raw.end {
            0 => FinishReason::Stop,
            1 => FinishReason::ToolCalls,
            _ => FinishReason::MaxTokens,
        }));
    }
    let mut model_call = ModelCall {
        chunks,
        throw,
        ..ModelCall::default()
    };
    let n = model_call.chunks.len();
    model_call.retry = failed && raw.retry && profile == Profile::V2026_08;
    if let Some((at, dispose, aim)) = raw.interrupt.filter(|_| n >= 2) {
        // An aimed interrupt lands right after a text or reasoning delta (never the last chunk:
        // the interrupt needs a chunk after it), so the prefix holds text of its kind.
        let deltas: Vec<usize> = model_call.chunks[..n - 1]
            .iter()
            .enumerate()
            .filter(|(_, c)| {
                matches!(
                    c,
                    StreamChunk::TextDelta { .. } | StreamChunk::ReasoningDelta { .. }
                )
            })
            .map(|(k, _)| k)
            .collect();
        let after = match aim {
            Some(_) if !deltas.is_empty() => deltas[usize::from(at) % deltas.len()],
            _ => usize::from(at) % (n - 1),
        };
        model_call.interrupt = Some(InterruptAt {
            after,
            kind: if dispose {
                InterruptKind::Dispose
            } else {
                InterruptKind::Cancel
            },
        });
        model_call.retry = false;
    }
    // Steering anywhere in the delivered stream; in a call that ends the turn early (a failure
    // that is not retried, a cancel) it is left over: under 2026-08 for the next turn, and
    // [`build`] drops it where no next prompt claims it; under 2026-07 a failure's leftover runs
    // as a turn of its own and a cancel drops it. In a retried call it waits for the call that
    // settles the step ([`settling_call`]).
    let steerable = match model_call.interrupt {
        Some(i) => i.after + 1,
        None => n,
    };
    if steerable > 0 {
        for s in &raw.steer {
            names.steer += 1;
            model_call.steer.push(SteerAt {
                after: usize::from(*s) % steerable,
                text: format!("steer {}", names.steer),
            });
        }
        model_call.steer.sort_by_key(|s| s.after);
    }
    if model_call.interrupt.is_some() {
        return model_call;
    }
    for (i, (id, _, _)) in model_call.dispatched_tool_calls().into_iter().enumerate() {
        let is_error = raw.tool_errors[i % raw.tool_errors.len()];
        model_call.tools.push(ToolOutcome {
            content: if is_error {
                format!("{id} failed")
            } else {
                format!("result of {id}")
            },
            call_id: id,
            is_error,
        });
    }
    model_call
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::test_runner::{Config, TestRunner};

    #[test]
    fn every_generated_script_is_valid() {
        // The generator self-check (qcheck-stm's consistency test): shrinking relies on it.
        for profile in Profile::ALL {
            let mut runner = TestRunner::new(Config::with_cases(500));
            let result = runner.run(&cases(profile), |case| {
                prop_assert_eq!(case.script.validate(profile), Ok(()), "{}", case);
                Ok(())
            });
            assert!(result.is_ok(), "{result:?}");
        }
    }

    fn text(index: u32, t: &str) -> StreamChunk {
        StreamChunk::TextDelta {
            index,
            text: t.into(),
        }
    }

    fn start(index: u32) -> StreamChunk {
        StreamChunk::BlockStart {
            index,
            block_type: BlockType::Text,
        }
    }

    #[test]
    fn interleaved_blocks_start_together_and_the_later_streams_first() {
        let merged = interleave(
            vec![start(0), text(0, "a"), text(0, "b")],
            vec![start(1), text(1, "c")],
        );
        assert_eq!(
            merged,
            vec![start(0), start(1), text(1, "c"), text(0, "a"), text(0, "b")]
        );
    }

    #[test]
    fn usage_goes_where_it_is_drawn_and_the_last_one_never_first() {
        let usage = |n: u64| StreamChunk::Usage {
            usage: TokenUsage {
                output_tokens: n,
                ..TokenUsage::default()
            },
        };
        let content = vec![start(0), text(0, "a")];
        let placed = |at: (u8, u8), n: usize| {
            let mut chunks = content.clone();
            insert_usage(&mut chunks, (1..=n as u64).map(usage).collect(), at);
            chunks
        };
        // 0: after the last block (where shrinking ends).
        assert_eq!(placed((0, 0), 1), vec![start(0), text(0, "a"), usage(1)]);
        // 1: before the first chunk, as a provider's `message_start` reports it.
        assert_eq!(placed((1, 0), 1), vec![usage(1), start(0), text(0, "a")]);
        assert_eq!(
            placed((2, 1), 2),
            vec![start(0), usage(1), usage(2), text(0, "a")]
        );
        assert_eq!(
            placed((1, 0), 2),
            vec![usage(1), start(0), text(0, "a"), usage(2)]
        );
    }

    #[test]
    fn every_text_fragment_and_variant_is_drawn() {
        let drawn: Vec<&str> = (0..DELTA_BYTES).map(text_fragment).collect();
        // The first round is TEXT_FRAGMENTS itself, so shrunk scripts keep their text.
        assert_eq!(drawn[..TEXT_FRAGMENTS.len()], *TEXT_FRAGMENTS);
        for v in JS_WHITESPACE_VARIANTS
            .iter()
            .chain(NEAR_WHITESPACE_VARIANTS)
        {
            assert!(drawn.contains(v), "{v:?} is never drawn");
        }
    }

    #[test]
    fn whitespace_variants_are_what_they_claim() {
        use crate::vocab::text::{is_blank, is_js_whitespace};
        for v in JS_WHITESPACE_VARIANTS {
            assert!(is_blank(v) && !v.is_ascii(), "{v:?}");
        }
        for v in NEAR_WHITESPACE_VARIANTS {
            assert!(!is_blank(v), "{v:?}");
        }
        // One fragment holds every non-ASCII code point JavaScript trims, so a whitespace set
        // missing any of them is told apart by one cancel.
        let missing: Vec<char> = ('\u{80}'..=char::MAX)
            .filter(|&c| is_js_whitespace(c) && !ALL_JS_WHITESPACE.contains(c))
            .collect();
        assert_eq!(missing, Vec::<char>::new());
        // Both ends of U+2000..=U+200A and both neighbours are drawn on their own.
        for c in ["\u{2000}", "\u{200a}"] {
            assert!(JS_WHITESPACE_VARIANTS.contains(&c));
        }
        for c in ["\u{1fff}", "\u{200b}"] {
            assert!(NEAR_WHITESPACE_VARIANTS.contains(&c));
        }
    }
}
