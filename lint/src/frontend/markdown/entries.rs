//! Catalogue entries: a heading that names one removed event in inline code (``#### `agent/steering` — emit``),
//! with everything under it up to the next heading of the same or a higher level (its
//! description, its signature block, its `Types:`/`Source:` lines). A generated catalogue
//! lists an event in such an entry while the code declares it, so the entry goes as a whole
//! (and its line in any index of the file): deleting only the signature line, or renaming the
//! heading to the durable twin, leaves a catalogue its generator calls stale.
//!
//! Whether the entry goes in a run depends on the declaration: the engine keeps such a fix
//! only as applicable as the deletion of the event's declaration in the run's code
//! ([`crate::docs_follow`]).

use super::code_ranges::CodeRanges;
use crate::catalog::Catalog;
use std::ops::Range;

/// The message a catalogue-entry fix starts with (what [`crate::docs_follow`] knows it by).
pub const ENTRY_FIX: &str = "delete the catalogue entry of the removed event";

/// One catalogue entry of a removed event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    /// The event the heading names.
    pub event: String,
    /// From the heading's line start to the next heading's (or the end of the file).
    pub range: Range<usize>,
    /// The heading's anchor (`#agent-steering--emit`), as GitHub derives it.
    pub anchor: String,
}

/// An ATX heading line: its level and text.
fn heading(line: &str) -> Option<(usize, &str)> {
    let trimmed = line.trim_end_matches(['\r', '\n']);
    let level = trimmed.len() - trimmed.trim_start_matches('#').len();
    let rest = &trimmed[level..];
    ((1..=6).contains(&level) && rest.starts_with(' ')).then(|| (level, rest.trim()))
}

/// The removed event a heading's text consists of: `` `name` `` alone, or followed by a short
/// tag (` — emit`, ` (deprecated)`) with no other code or name in it.
fn entry_event<'t>(text: &'t str, catalog: &Catalog) -> Option<&'t str> {
    let inner = text.strip_prefix('`')?;
    let (name, rest) = inner.split_once('`')?;
    if rest.contains('`') || !catalog.find_names(rest).is_empty() {
        return None;
    }
    catalog.lookup(name)?;
    Some(name)
}

/// GitHub's anchor of a heading: lowercase, punctuation but `-` and `_` dropped, spaces → `-`.
fn anchor(text: &str) -> String {
    let mut out = String::from("#");
    for c in text.chars().flat_map(char::to_lowercase) {
        if c == ' ' {
            out.push('-');
        } else if c.is_alphanumeric() || c == '-' || c == '_' {
            out.push(c);
        }
    }
    out
}

/// The catalogue entries of removed events in `src`, headings inside code blocks skipped.
pub(super) fn entries(src: &str, code: &CodeRanges, catalog: &Catalog) -> Vec<Entry> {
    // Every heading outside code: line start, level, text. Only a line that starts with `#`
    // can be a heading, so only those are read, and looked for in the code ranges (a
    // document's inline code spans are many: testing every line against them all cost the
    // product of the two).
    let mut headings: Vec<(usize, usize, &str)> = Vec::new();
    let bytes = src.as_bytes();
    let line_starts = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1))
        .filter(|&s| bytes.get(s) == Some(&b'#'));
    for start in line_starts {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(src.len(), |i| start + i + 1);
        if code.holds(start) {
            continue;
        }
        if let Some((level, text)) = heading(&src[start..end]) {
            headings.push((start, level, text));
        }
    }
    let mut out = Vec::new();
    for (i, &(start, level, text)) in headings.iter().enumerate() {
        let Some(event) = entry_event(text, catalog) else {
            continue;
        };
        let end = headings[i + 1..]
            .iter()
            .find(|(_, l, _)| *l <= level)
            .map_or(src.len(), |(s, _, _)| *s);
        out.push(Entry {
            event: event.to_owned(),
            range: start..end,
            anchor: anchor(text),
        });
    }
    out
}

/// The line holding `offset` when it is an index line of `entry`: a list item or a table row
/// that links to the entry's anchor. Its range includes the line ending.
pub(super) fn index_line(src: &str, offset: usize, entry: &Entry) -> Option<Range<usize>> {
    let start = src[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = src[offset..]
        .find('\n')
        .map_or(src.len(), |i| offset + i + 1);
    let line = src[start..end].trim_start();
    let item = line.starts_with("- ")
        || line.starts_with("* ")
        || line.starts_with("+ ")
        || line.starts_with('|');
    (item && line.contains(&format!("]({})", entry.anchor))).then_some(start..end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        Catalog::new(&[]).unwrap()
    }

    /// The headings [`entries`] reads, found as it found them before issue #32 item 1 (every
    /// line tested against every code range, then read as a heading): the oracle of
    /// [`entries_find_the_headings_of_the_line_by_line_reading`].
    fn headings_reference<'s>(src: &'s str, code: &[Range<usize>]) -> Vec<(usize, usize, &'s str)> {
        let mut headings = Vec::new();
        let mut at = 0;
        for line in src.split_inclusive('\n') {
            let start = at;
            at += line.len();
            if code.iter().any(|r| r.start <= start && start < r.end) {
                continue;
            }
            if let Some((level, text)) = heading(line) {
                headings.push((start, level, text));
            }
        }
        headings
    }

    /// The entries of the reference headings, as [`entries`] builds them from its own.
    fn entries_reference(src: &str, code: &[Range<usize>], catalog: &Catalog) -> Vec<Entry> {
        let headings = headings_reference(src, code);
        let mut out = Vec::new();
        for (i, &(start, level, text)) in headings.iter().enumerate() {
            let Some(event) = entry_event(text, catalog) else {
                continue;
            };
            let end = headings[i + 1..]
                .iter()
                .find(|(_, l, _)| *l <= level)
                .map_or(src.len(), |(s, _, _)| *s);
            out.push(Entry {
                event: event.to_owned(),
                range: start..end,
                anchor: anchor(text),
            });
        }
        out
    }

    /// Issue #32 item 1: reading only the lines that start with `#` finds the entries the
    /// line-by-line reading finds, on generated documents (headings of every level and of
    /// none, in and out of fences, indented code and multi-line inline code, CRLF, no final
    /// line break), with the code ranges the front end gives.
    #[test]
    fn entries_find_the_headings_of_the_line_by_line_reading() {
        const PIECES: &[&str] = &[
            "#### `agent/steering` — emit\n",
            "## `agent/turn-end`\n",
            "### `agent/queued` (deprecated)\r\n",
            "# Events\n",
            "####### `agent/steering`\n",
            "#`agent/steering`\n",
            " # `agent/turn-end`\n",
            "```ts\n",
            "```\n",
            "~~~\n",
            "    # indented\n",
            "Text `agent/steering\n",
            "# `agent/step-start`` more\n",
            "- [`agent/steering`](#agentsteering--emit)\n",
            "\n",
            "text",
            "#",
            "`",
        ];
        let mut rng = crate::test_rng::Rng(0x0e47_21e5_32a1);
        let cat = catalog();
        let mut found = 0;
        for _ in 0..4_000 {
            let src: String = (0..rng.below(16)).map(|_| rng.pick(PIECES)).collect();
            let (blocks, inline) = super::super::parse_blocks(&src);
            let code: Vec<Range<usize>> = blocks
                .iter()
                .map(|b| b.range.clone())
                .chain(inline)
                .collect();
            let expected = entries_reference(&src, &code, &cat);
            found += expected.len();
            let ranges = CodeRanges::new(code.iter().cloned());
            assert_eq!(entries(&src, &ranges, &cat), expected, "{src:?}");
        }
        assert!(found > 1_000, "too few entries generated: {found}");
    }

    #[test]
    fn an_entry_runs_to_the_next_heading_of_its_level() {
        let src = "# Events\n\n#### `agent/steering` — emit\n\nText.\n\n```ts\n#### not a heading\n```\n\n#### `agent/queued` — emit\n";
        let fence = src.find("```ts").unwrap()..src.find("```\n\n").unwrap() + 4;
        let found = entries(src, &CodeRanges::new([fence]), &catalog());
        assert_eq!(found.len(), 1, "{found:?}");
        let e = &found[0];
        assert_eq!(e.event, "agent/steering");
        assert_eq!(&src[e.range.clone()][..4], "####");
        assert!(src[e.range.end..].starts_with("#### `agent/queued`"));
        assert_eq!(e.anchor, "#agentsteering--emit");
    }

    #[test]
    fn a_heading_with_more_than_the_name_is_no_entry() {
        let src = "## Migrating `agent/steering` to `steering/message`\n\nText.\n";
        assert!(entries(src, &CodeRanges::default(), &catalog()).is_empty());
        let src = "## `agent/steering` and `agent/turn-end`\n";
        assert!(entries(src, &CodeRanges::default(), &catalog()).is_empty());
    }

    #[test]
    fn an_index_line_links_to_the_entry() {
        let src = "- [`agent/steering`](#agentsteering--emit)\n- [`agent/queued`](#agent-queued)\n\n#### `agent/steering` — emit\n";
        let e = &entries(src, &CodeRanges::default(), &catalog())[0];
        assert_eq!(
            index_line(src, 5, e),
            Some(0..src.find("- [`agent/q").unwrap())
        );
        assert_eq!(index_line(src, src.find("agent/queued").unwrap(), e), None);
    }
}
