//! The code of a Markdown document (its code blocks and inline code spans), asked whether it
//! holds an offset: comments, headings and table rows inside code are not read as such. A
//! document has hundreds of inline code spans, and such a question is asked at every heading,
//! comment and mention: the ranges are sorted once, with the farthest end reached so far, so
//! each answer is a binary search, not a pass over them all.

use std::ops::Range;

/// Code ranges, sorted by start, each with the largest end of it and those before it.
#[derive(Debug, Clone, Default)]
pub(super) struct CodeRanges {
    /// `(start, largest end up to this range)`, sorted by start.
    sorted: Vec<(usize, usize)>,
}

impl CodeRanges {
    /// The ranges, in any order, overlapping or not.
    pub(super) fn new(ranges: impl IntoIterator<Item = Range<usize>>) -> Self {
        let mut sorted: Vec<(usize, usize)> =
            ranges.into_iter().map(|r| (r.start, r.end)).collect();
        // The blocks and the inline spans come as two runs in document order: the stable
        // sort merges runs, which the unstable one would sort again from scratch.
        sorted.sort();
        let mut reach = 0;
        for (_, end) in &mut sorted {
            reach = reach.max(*end);
            *end = reach;
        }
        CodeRanges { sorted }
    }

    /// Whether a range holds `at` (`start <= at < end`): among the ranges that start at or
    /// before `at`, one ends after it.
    pub(super) fn holds(&self, at: usize) -> bool {
        let before = self.sorted.partition_point(|&(start, _)| start <= at);
        before > 0 && self.sorted[before - 1].1 > at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// Issue #32 item 1: the binary search answers what a pass over every range answers, on
    /// generated ranges (unsorted, overlapping, nested, empty, touching) and every offset.
    #[test]
    fn holds_is_any_range_holding_the_offset() {
        let mut rng = Rng(0x7c0d_e5a9_1b3f);
        let mut held = 0;
        for _ in 0..3_000 {
            let ranges: Vec<Range<usize>> = (0..rng.below(8))
                .map(|_| {
                    let start = rng.below(40);
                    start..start + rng.below(12)
                })
                .collect();
            let code = CodeRanges::new(ranges.clone());
            for at in 0..56 {
                let expected = ranges.iter().any(|r| r.start <= at && at < r.end);
                held += usize::from(expected);
                assert_eq!(code.holds(at), expected, "{ranges:?} at {at}");
            }
        }
        assert!(held > 10_000, "too few offsets held: {held}");
    }
}
