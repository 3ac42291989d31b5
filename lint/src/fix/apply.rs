//! Applying a set of fixes to one text: every edit of a fix or none of them, never two
//! overlapping edits (a fix that overlaps one already taken waits for the next round), never
//! two fixes whose claims overlap when one of them is exclusive ([`Fix::claims`]).

use crate::model::{Claim, Edit, Fix};
use std::collections::BTreeMap;

/// The result of [`apply`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The text with the taken fixes applied.
    pub text: String,
    /// Indices (into the input) of the fixes applied. A fix whose edits are all identical to
    /// edits already taken (two findings fixed by deleting the same block) counts as applied.
    pub applied: Vec<usize>,
    /// Indices of the fixes left out because they overlap a taken one or are out of range.
    pub skipped: Vec<usize>,
}

/// Whether two edits of different fixes cannot both be applied. Identical edits can (once);
/// an insertion conflicts with anything at or around its point, since the order would be
/// ambiguous.
fn conflicts(a: &Edit, b: &Edit) -> bool {
    if a.start == b.start && a.end == b.end && a.replacement == b.replacement {
        return false;
    }
    let insert = a.start == a.end || b.start == b.end;
    if insert {
        a.start <= b.end && b.start <= a.end
    } else {
        a.start < b.end && b.start < a.end
    }
}

fn valid(text: &str, e: &Edit) -> bool {
    e.start <= e.end
        && e.end <= text.len()
        && text.is_char_boundary(e.start)
        && text.is_char_boundary(e.end)
}

/// The edits taken so far, by `(start, end)`. Taken edits never conflict, so their ranges
/// are disjoint (an insertion touches nothing) and sorted by start they are sorted by end too:
/// a new edit is checked against its neighbours only, in O(log n).
#[derive(Default)]
struct Taken<'a> {
    edits: BTreeMap<(usize, usize), &'a Edit>,
}

impl<'a> Taken<'a> {
    fn conflicts(&self, e: &Edit) -> bool {
        // Every taken edit that could touch `e` starts at or before `e.end`; walking back from
        // there, the first one that ends before `e.start` (and all before it) cannot.
        for (_, t) in self.edits.range(..=(e.end, usize::MAX)).rev() {
            if t.end < e.start {
                return false;
            }
            if conflicts(e, t) {
                return true;
            }
        }
        false
    }

    fn insert(&mut self, e: &'a Edit) {
        self.edits.entry((e.start, e.end)).or_insert(e);
    }
}

/// The claims of the fixes taken so far (see [`Fix::claims`]). Exclusive claims never overlap
/// another claim, so they are disjoint and checked like [`Taken`] edits; shared claims may
/// overlap each other, so whether one reaches past a point is a prefix maximum of their ends
/// over their starts (a Fenwick tree over the starts of every claim of the input).
struct Claimed {
    exclusive: BTreeMap<usize, usize>,
    /// Sorted, deduplicated starts of every claim of the input.
    starts: Vec<usize>,
    /// Fenwick tree: the largest end of a taken shared claim, by start (1-based).
    max_end: Vec<usize>,
}

impl Claimed {
    fn new(fixes: &[&Fix]) -> Claimed {
        let mut starts: Vec<usize> = fixes
            .iter()
            .flat_map(|f| f.claims.iter().map(|c| c.start))
            .collect();
        starts.sort_unstable();
        starts.dedup();
        let max_end = vec![0; starts.len() + 1];
        Claimed {
            exclusive: BTreeMap::new(),
            starts,
            max_end,
        }
    }

    /// The largest end of a shared claim starting before `before`.
    fn shared_end_before(&self, before: usize) -> usize {
        let mut i = self.starts.partition_point(|&s| s < before);
        let mut best = 0;
        while i > 0 {
            best = best.max(self.max_end[i]);
            i &= i - 1;
        }
        best
    }

    fn overlaps_exclusive(&self, c: &Claim) -> bool {
        self.exclusive
            .range(..c.end)
            .next_back()
            .is_some_and(|(_, &end)| c.start < end)
    }

    fn overlaps_shared(&self, c: &Claim) -> bool {
        // A shared claim overlaps `c` when it starts before `c.end` and ends after `c.start`.
        self.shared_end_before(c.end) > c.start
    }

    fn conflicts(&self, c: &Claim) -> bool {
        self.overlaps_exclusive(c) || (c.exclusive && self.overlaps_shared(c))
    }

    fn insert(&mut self, c: &Claim) {
        if c.exclusive {
            self.exclusive.insert(c.start, c.end);
            return;
        }
        let mut i = self.starts.partition_point(|&s| s < c.start) + 1;
        while i < self.max_end.len() {
            self.max_end[i] = self.max_end[i].max(c.end);
            i += i & i.wrapping_neg();
        }
    }
}

/// Applies `fixes` to `text`, in the order of their first edit, skipping each fix that
/// conflicts with one taken before it. O((edits + claims) log n) and linear output.
pub fn apply(text: &str, fixes: &[&Fix]) -> Applied {
    let mut order: Vec<usize> = (0..fixes.len()).collect();
    order.sort_by_key(|&i| fixes[i].edits.iter().map(|e| (e.start, e.end)).min());
    let mut taken = Taken::default();
    let mut claimed = Claimed::new(fixes);
    let mut applied = Vec::new();
    let mut skipped = Vec::new();
    for i in order {
        let edits = &fixes[i].edits;
        let ok = !edits.is_empty()
            && edits.iter().all(|e| valid(text, e))
            && !edits.iter().any(|e| taken.conflicts(e))
            && !fixes[i].claims.iter().any(|c| claimed.conflicts(c));
        if ok {
            for c in &fixes[i].claims {
                claimed.insert(c);
            }
            for e in edits {
                taken.insert(e);
            }
            applied.push(i);
        } else {
            skipped.push(i);
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in taken.edits.values() {
        out.push_str(&text[at..e.start]);
        out.push_str(&e.replacement);
        at = e.end;
    }
    out.push_str(&text[at..]);
    applied.sort_unstable();
    skipped.sort_unstable();
    Applied {
        text: out,
        applied,
        skipped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Applicability;

    fn fix(edits: &[(usize, usize, &str)]) -> Fix {
        Fix::new(
            Applicability::MachineApplicable,
            String::new(),
            edits.iter().map(|&(s, e, r)| Edit::new(s, e, r)).collect(),
        )
    }

    #[test]
    fn non_overlapping_fixes_apply_together_and_overlapping_ones_wait() {
        let text = "abcdefghij";
        let a = fix(&[(0, 2, "X")]);
        let b = fix(&[(1, 3, "Y")]);
        let c = fix(&[(5, 6, ""), (8, 8, "!")]);
        let r = apply(text, &[&a, &b, &c]);
        assert_eq!(r.text, "Xcdegh!ij");
        assert_eq!(r.applied, vec![0, 2]);
        assert_eq!(r.skipped, vec![1]);
    }

    #[test]
    fn identical_edits_apply_once_and_both_fixes_count() {
        let a = fix(&[(2, 5, "")]);
        let b = fix(&[(2, 5, "")]);
        let r = apply("0123456", &[&a, &b]);
        assert_eq!(r.text, "0156");
        assert_eq!(r.applied, vec![0, 1]);
    }

    #[test]
    fn insertions_touching_another_edit_conflict() {
        let a = fix(&[(2, 4, "")]);
        let b = fix(&[(4, 4, "+")]);
        let r = apply("012345", &[&a, &b]);
        assert_eq!(r.applied, vec![0]);
        assert_eq!(r.text, "0145");
    }

    #[test]
    fn an_exclusive_claim_waits_for_the_shared_ones_and_shared_ones_go_together() {
        let claim = |exclusive| Claim {
            start: 0,
            end: 1,
            exclusive,
        };
        let mut a = fix(&[(2, 3, "")]);
        let mut b = fix(&[(4, 5, "")]);
        let mut c = fix(&[(6, 7, "")]);
        a.claims.push(claim(false));
        b.claims.push(claim(false));
        c.claims.push(claim(true));
        let r = apply("01234567", &[&a, &b, &c]);
        assert_eq!(r.applied, vec![0, 1]);
        assert_eq!(r.skipped, vec![2]);
        let r = apply("01234567", &[&c, &a]);
        assert_eq!(r.applied, vec![1]);
    }

    #[test]
    fn out_of_range_or_split_characters_are_skipped() {
        let a = fix(&[(0, 99, "")]);
        let b = fix(&[(1, 2, "")]);
        let r = apply("é", &[&a, &b]);
        assert_eq!(r.text, "é");
        assert_eq!(r.skipped, vec![0, 1]);
    }

    /// The quadratic definition `apply` replaced: every candidate against every taken edit
    /// and claim.
    fn naive(text: &str, fixes: &[&Fix]) -> (String, Vec<usize>) {
        let claims_conflict = |a: &Claim, b: &Claim| {
            (a.exclusive || b.exclusive) && a.start < b.end && b.start < a.end
        };
        let mut order: Vec<usize> = (0..fixes.len()).collect();
        order.sort_by_key(|&i| fixes[i].edits.iter().map(|e| (e.start, e.end)).min());
        let (mut taken, mut claimed, mut applied) =
            (Vec::<Edit>::new(), Vec::<Claim>::new(), vec![]);
        for i in order {
            let f = fixes[i];
            let ok = !f.edits.is_empty()
                && f.edits.iter().all(|e| valid(text, e))
                && !f
                    .edits
                    .iter()
                    .any(|e| taken.iter().any(|t| conflicts(e, t)))
                && !f
                    .claims
                    .iter()
                    .any(|c| claimed.iter().any(|t| claims_conflict(c, t)));
            if ok {
                claimed.extend(f.claims.iter().cloned());
                for e in &f.edits {
                    if !taken.contains(e) {
                        taken.push(e.clone());
                    }
                }
                applied.push(i);
            }
        }
        taken.sort_by_key(|e| (e.start, e.end));
        let mut out = String::new();
        let mut at = 0;
        for e in &taken {
            out.push_str(&text[at..e.start]);
            out.push_str(&e.replacement);
            at = e.end;
        }
        out.push_str(&text[at..]);
        applied.sort_unstable();
        (out, applied)
    }

    #[test]
    fn agrees_with_the_quadratic_definition_on_random_fixes() {
        let text = "0123456789abcdefghijklmnopqrstuv";
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..3000 {
            let mut fixes = Vec::new();
            for _ in 0..1 + next(8) {
                let mut edits = Vec::new();
                let mut at = next(text.len() + 1);
                for _ in 0..1 + next(3) {
                    if at > text.len() {
                        break;
                    }
                    let end = (at + next(4)).min(text.len());
                    edits.push((at, end, ["", "X", "YY"][next(3)]));
                    at = end + 1 + next(5);
                }
                let mut f = fix(&edits);
                for _ in 0..next(3) {
                    let start = next(text.len());
                    f.claims.push(Claim {
                        start,
                        end: start + next(6),
                        exclusive: next(3) == 0,
                    });
                }
                fixes.push(f);
            }
            let refs: Vec<&Fix> = fixes.iter().collect();
            let r = apply(text, &refs);
            assert_eq!((r.text, r.applied), naive(text, &refs), "{fixes:?}");
        }
    }
}
