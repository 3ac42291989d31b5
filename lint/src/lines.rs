//! A fix as a replacement of whole lines: the form a GitHub suggested change takes. Knows
//! only the model, so the engine (which fills it in) and the renderers can both use it.

use crate::model::{Edit, LineReplacement};

/// `edits` (of one fix, into `text`) as a replacement of the whole lines they touch, or
/// `None` if an edit is out of range (the fix is then not offered). `line_of` gives the 1-based
/// line of a byte offset (the engine's line index: counting from the start for every fix of a
/// file would cost its length per fix).
pub fn line_replacement(
    text: &str,
    edits: &[Edit],
    line_of: impl Fn(usize) -> usize,
) -> Option<LineReplacement> {
    let start = edits.iter().map(|e| e.start).min()?;
    let end = edits.iter().map(|e| e.end).max()?;
    if end > text.len()
        || edits
            .iter()
            .any(|e| !text.is_char_boundary(e.start) || !text.is_char_boundary(e.end))
    {
        return None;
    }
    let region_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    // An edit ending just after a line terminator (a deleted line) ends on the line before.
    let region_end = if end > region_start && text[..end].ends_with('\n') {
        end - 1
    } else {
        text[end..].find('\n').map_or(text.len(), |i| end + i)
    };
    let mut new = String::new();
    let mut at = region_start;
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.start, e.end));
    for e in sorted {
        new.push_str(text.get(at..e.start)?);
        new.push_str(&e.replacement);
        at = e.end;
    }
    let tail_end = region_end.max(at);
    new.push_str(text.get(at..tail_end)?);
    // A deletion that took the region's final terminator along leaves the text without it.
    let new = new.strip_suffix('\n').map_or(new.clone(), str::to_owned);
    let new = new.strip_suffix('\r').map_or(new.clone(), str::to_owned);
    let line = line_of(region_start);
    let end_line = line_of(region_end);
    Some(LineReplacement {
        line,
        end_line,
        text: new,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str, edits: &[(usize, usize, &str)]) -> Option<LineReplacement> {
        let edits: Vec<Edit> = edits.iter().map(|&(s, e, r)| Edit::new(s, e, r)).collect();
        line_replacement(text, &edits, |o| text[..o].matches('\n').count() + 1)
    }

    #[test]
    fn edits_inside_lines_give_those_lines_rewritten() {
        let t = "a\nbXc\nd\n";
        let r = lines(t, &[(3, 4, "YY")]).unwrap();
        assert_eq!((r.line, r.end_line, r.text.as_str()), (2, 2, "bYYc"));
        let r = lines(t, &[(2, 2, "new\n"), (6, 7, "D")]).unwrap();
        assert_eq!((r.line, r.end_line, r.text.as_str()), (2, 3, "new\nbXc\nD"));
    }

    #[test]
    fn deleted_lines_become_an_empty_suggestion_and_crlf_is_kept() {
        let t = "a\r\nb\r\nc\r\n";
        let r = lines(t, &[(3, 6, "")]).unwrap();
        assert_eq!((r.line, r.end_line, r.text.as_str()), (2, 2, ""));
        let r = lines(t, &[(3, 4, "B\r\nB2")]).unwrap();
        assert_eq!((r.line, r.end_line, r.text.as_str()), (2, 2, "B\r\nB2"));
    }

    #[test]
    fn out_of_range_edits_give_none() {
        assert!(lines("ab", &[(1, 9, "")]).is_none());
        assert!(lines("é", &[(1, 2, "")]).is_none());
    }
}
