//! A fix as a replacement of whole lines: the form a GitHub suggested change takes. Knows
//! only the model and the line index, so the engine (which fills it in) and the renderers can
//! both use it.

use crate::model::{Edit, LineReplacement};
use crate::source::LineIndex;

/// The most bytes of original text a [`LineReplacement`] may cover. The lines of a fix are
/// given whole, so without a bound every fix on one long line (thousands of mentions on a
/// minified line) would repeat that line: output and memory would grow with the square of the
/// input. Past it the fix keeps its edits and has no lines.
pub const LINES_MAX: usize = 8 * 1024;

/// Whether every edit (of one fix) lies inside `text`, on character boundaries: a fix with an
/// edit that does not is not offered.
pub fn edits_valid(text: &str, edits: &[Edit]) -> bool {
    edits.iter().all(|e| {
        e.start <= e.end
            && e.end <= text.len()
            && text.is_char_boundary(e.start)
            && text.is_char_boundary(e.end)
    })
}

/// `edits` (of one fix, into the indexed text) as a replacement of the whole lines they touch,
/// or `None` when there are none, one is out of range, or the lines cover more than
/// [`LINES_MAX`] bytes. Costs O(log lines) plus the bytes of those lines.
pub fn line_replacement(index: &LineIndex<'_>, edits: &[Edit]) -> Option<LineReplacement> {
    let text = index.text();
    let start = edits.iter().map(|e| e.start).min()?;
    let end = edits.iter().map(|e| e.end).max()?;
    if !edits_valid(text, edits) {
        return None;
    }
    let (line, _) = index.position(start);
    let region_start = index.line_range(line).start;
    // An edit ending just after a line terminator (a deleted line) ends on the line before.
    let region_end = if end > region_start && text[..end].ends_with('\n') {
        end - 1
    } else {
        let (end_line, _) = index.position(end);
        let range = index.line_range(end_line);
        // `line_range` leaves out a `\r` before the terminator: the region keeps it, and the
        // replacement text loses it below, as it loses the terminator.
        let full = if text[range.end..].starts_with('\r') {
            range.end + 1
        } else {
            range.end
        };
        full.max(end)
    };
    if region_end - region_start > LINES_MAX {
        return None;
    }
    let mut new = String::with_capacity(
        region_end - region_start + edits.iter().map(|e| e.replacement.len()).sum::<usize>(),
    );
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
    // A deletion that took the region's final terminator along leaves the text without it
    // (cut in place: the text is a whole line or more, and was copied twice).
    if new.ends_with('\n') {
        new.pop();
    }
    if new.ends_with('\r') {
        new.pop();
    }
    Some(LineReplacement {
        line,
        end_line: index.position(region_end).0,
        text: new,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str, edits: &[(usize, usize, &str)]) -> Option<LineReplacement> {
        let edits: Vec<Edit> = edits.iter().map(|&(s, e, r)| Edit::new(s, e, r)).collect();
        line_replacement(&LineIndex::new(text), &edits)
    }

    /// The replacement text as [`line_replacement`] built it before issue #32 item 1: the
    /// lines with the edits applied, stripped of a final `\n` and then of a final `\r` by
    /// copies.
    fn replaced_reference(text: &str, region: std::ops::Range<usize>, edits: &[Edit]) -> String {
        let mut new = String::new();
        let mut at = region.start;
        let mut sorted: Vec<&Edit> = edits.iter().collect();
        sorted.sort_by_key(|e| (e.start, e.end));
        for e in sorted {
            new.push_str(&text[at..e.start]);
            new.push_str(&e.replacement);
            at = e.end;
        }
        new.push_str(&text[at..region.end.max(at)]);
        let new = new.strip_suffix('\n').map_or(new.clone(), str::to_owned);
        new.strip_suffix('\r').map_or(new.clone(), str::to_owned)
    }

    /// Issue #32 item 1: cutting the final terminator in place gives the text the copies gave,
    /// on generated texts and edits (LF and CRLF lines, a `\r` alone, edits that delete a
    /// terminator or insert one, several edits on a line).
    #[test]
    fn the_replacement_text_is_that_of_the_copies() {
        const PIECES: &[&str] = &["a", "bc", "\n", "\r\n", "\r", " ", "é"];
        const NEW: &[&str] = &["", "x", "\n", "\r", "y\r\n", "\r\n"];
        let mut rng = crate::test_rng::Rng(0x3a1e_5c0d_77e1);
        let mut checked = 0;
        for _ in 0..5_000 {
            let text: String = (0..1 + rng.below(10)).map(|_| rng.pick(PIECES)).collect();
            let mut edits = Vec::new();
            for _ in 0..1 + rng.below(3) {
                let a = crate::source::floor_boundary(&text, rng.below(text.len() + 1));
                let b = crate::source::floor_boundary(&text, rng.below(text.len() + 1));
                let (a, b) = (a.min(b), a.max(b));
                if edits.iter().all(|e: &Edit| b <= e.start || e.end <= a) {
                    edits.push(Edit::new(a, b, rng.pick(NEW)));
                }
            }
            let index = LineIndex::new(&text);
            let Some(r) = line_replacement(&index, &edits) else {
                continue;
            };
            let region = index.line_range(r.line).start..{
                // The region's end, as line_replacement computes it.
                let end = edits.iter().map(|e| e.end).max().unwrap_or(0);
                let start = index.line_range(r.line).start;
                if end > start && text[..end].ends_with('\n') {
                    end - 1
                } else {
                    let range = index.line_range(index.position(end).0);
                    let full = range.end + usize::from(text[range.end..].starts_with('\r'));
                    full.max(end)
                }
            };
            assert_eq!(
                r.text,
                replaced_reference(&text, region, &edits),
                "{text:?} {edits:?}"
            );
            checked += 1;
        }
        assert!(checked > 3_000, "too few replacements checked: {checked}");
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

    #[test]
    fn lines_longer_than_the_bound_give_none() {
        let long = format!("x{}\nshort\n", "y".repeat(LINES_MAX));
        assert!(lines(&long, &[(0, 1, "z")]).is_none());
        let r = lines(&long, &[(LINES_MAX + 2, LINES_MAX + 3, "S")]).unwrap();
        assert_eq!((r.line, r.text.as_str()), (2, "Short"));
    }
}
