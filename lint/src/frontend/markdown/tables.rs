//! Rows of a table that lists events: a GFM table row whose first cell names events in inline
//! code (`` | `agent/steering` | emit | steering content injected | ``, or several, ``
//! `agent/turn-start` / `agent/turn-end` ``). Such a table indexes the events the code
//! declares (upstream checked one against its `interface Events` blocks), so a removed event
//! leaves it with its declaration: the row goes when it names only that event, else the name
//! goes from the cell with its separator. Renaming it to the durable twin, as prose gets,
//! would list an event no `Events` block declares.
//!
//! Like a catalogue entry, the engine keeps such a fix only as applicable as the deletion of
//! the event's declaration in the run ([`crate::docs_follow`]).

use super::code_ranges::CodeRanges;
use std::ops::Range;

/// The message a table-row fix starts with.
pub const ROW_FIX: &str = "delete the removed event from the table of events";

/// The edit that takes the event named at `name` (the range of the name inside its code span)
/// out of its table row, when that is the first cell of a row listing events in inline code;
/// `None` otherwise.
pub(super) fn row_edit(src: &str, name: Range<usize>, code: &CodeRanges) -> Option<Range<usize>> {
    let line_start = src[..name.start].rfind('\n').map_or(0, |n| n + 1);
    let line_end = src[name.end..]
        .find('\n')
        .map_or(src.len(), |n| name.end + n + 1);
    if code.holds(line_start) {
        return None;
    }
    let line = &src[line_start..line_end];
    let body = line.trim_start();
    let lead = line.len() - body.len();
    if !body.starts_with('|') {
        return None;
    }
    // The first cell, between the leading `|` and the next.
    let cell_start = line_start + lead + 1;
    let cell_end = cell_start + src[cell_start..line_end].find('|')?;
    if !(cell_start <= name.start && name.end <= cell_end) {
        return None;
    }
    // Its code spans, each one name; between them only separators and package tags.
    let spans = code_spans(src, cell_start..cell_end)?;
    let here = spans
        .iter()
        .position(|s| s.start < name.start && name.end < s.end)?;
    if spans[here].start + 1 != name.start || spans[here].end - 1 != name.end {
        return None;
    }
    if spans.len() == 1 {
        return Some(line_start..line_end);
    }
    // The name with the separator after it (before it, for the last), so the cell still reads.
    let s = &spans[here];
    Some(match spans.get(here + 1) {
        Some(next) => s.start..next.start,
        None => spans[here - 1].end..s.end,
    })
}

/// The `` `…` `` spans of a cell (their ranges, backticks included), when the rest of it is
/// only separators (`/`, `,`) and parenthesized tags (`(dsh-tools)`): a cell that lists names.
fn code_spans(src: &str, cell: Range<usize>) -> Option<Vec<Range<usize>>> {
    let text = &src[cell.clone()];
    let mut spans = Vec::new();
    let mut rest_ok = true;
    let mut at = 0;
    while let Some(open) = text[at..].find('`') {
        rest_ok &= between_names(&text[at..at + open]);
        let start = at + open;
        let close = start + 1 + text[start + 1..].find('`')?;
        let inner = &text[start + 1..close];
        if inner.is_empty() || inner.contains(char::is_whitespace) {
            return None;
        }
        spans.push(cell.start + start..cell.start + close + 1);
        at = close + 1;
    }
    rest_ok &= between_names(&text[at..]);
    (rest_ok && !spans.is_empty()).then_some(spans)
}

fn between_names(text: &str) -> bool {
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            '/' | ',' | ' ' | '\t' => {}
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(src: &str, name: &str) -> Option<String> {
        let at = src.find(name).unwrap();
        row_edit(src, at..at + name.len(), &CodeRanges::default()).map(|r| {
            let mut out = src.to_owned();
            out.replace_range(r, "");
            out
        })
    }

    #[test]
    fn a_row_naming_only_the_event_goes() {
        let src = "| a | b |\n|---|---|\n| `agent/steering` | emit |\n| `x/y` | emit |\n";
        assert_eq!(
            edit(src, "agent/steering").as_deref(),
            Some("| a | b |\n|---|---|\n| `x/y` | emit |\n")
        );
    }

    #[test]
    fn a_name_goes_from_a_list_with_its_separator() {
        let src = "| `agent/turn-start` / `agent/turn-end` (dsh) | emit |\n";
        assert_eq!(
            edit(src, "agent/turn-start").as_deref(),
            Some("| `agent/turn-end` (dsh) | emit |\n")
        );
        assert_eq!(
            edit(src, "agent/turn-end").as_deref(),
            Some("| `agent/turn-start` (dsh) | emit |\n")
        );
    }

    #[test]
    fn prose_in_the_cell_or_another_cell_is_no_list() {
        assert_eq!(
            edit("| the `agent/steering` event | emit |\n", "agent/steering"),
            None
        );
        assert_eq!(
            edit("| `x/y` | see `agent/steering` |\n", "agent/steering"),
            None
        );
        assert_eq!(edit("`agent/steering` | emit\n", "agent/steering"), None);
    }
}
