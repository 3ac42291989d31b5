//! Applying a set of fixes to one text: every edit of a fix or none of them, never two
//! overlapping edits (a fix that overlaps one already taken waits for the next round), never
//! two fixes whose claims overlap when one of them is exclusive ([`Fix::claims`]).

use crate::model::{Claim, Edit, Fix};

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

/// Whether two claims of different fixes keep those fixes out of one round.
fn claims_conflict(a: &Claim, b: &Claim) -> bool {
    (a.exclusive || b.exclusive) && a.start < b.end && b.start < a.end
}

fn valid(text: &str, e: &Edit) -> bool {
    e.start <= e.end
        && e.end <= text.len()
        && text.is_char_boundary(e.start)
        && text.is_char_boundary(e.end)
}

/// Applies `fixes` to `text`, in the order of their first edit, skipping each fix that
/// conflicts with one taken before it.
pub fn apply(text: &str, fixes: &[&Fix]) -> Applied {
    let mut order: Vec<usize> = (0..fixes.len()).collect();
    order.sort_by_key(|&i| fixes[i].edits.iter().map(|e| (e.start, e.end)).min());
    let mut taken: Vec<Edit> = Vec::new();
    let mut claimed: Vec<Claim> = Vec::new();
    let mut applied = Vec::new();
    let mut skipped = Vec::new();
    for i in order {
        let edits = &fixes[i].edits;
        let ok = !edits.is_empty()
            && edits.iter().all(|e| valid(text, e))
            && !edits.iter().any(|e| taken.iter().any(|t| conflicts(e, t)))
            && !fixes[i]
                .claims
                .iter()
                .any(|c| claimed.iter().any(|t| claims_conflict(c, t)));
        if ok {
            claimed.extend(fixes[i].claims.iter().cloned());
            for e in edits {
                if !taken.contains(e) {
                    taken.push(e.clone());
                }
            }
            applied.push(i);
        } else {
            skipped.push(i);
        }
    }
    taken.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in &taken {
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
}
