//! A profile's tables from its tally: the status of each requirement, and each coverage
//! label's count against its minimum.

use super::tally::Tally;
use super::{LabelResult, RequirementResult, Status};
use crate::oracle;
use crate::registry::{Enforcement, REQUIREMENTS};
use crate::scenario::coverage::{LABELS, minimum};
use crate::vocab::Profile;
use std::collections::BTreeSet;

/// The requirement table of `profile`: `drawn` cases were drawn (the whole run's, unless it
/// halted early) and `executed` says whether any ran to a verdict (a requirement passes, or
/// goes unexercised, only in a profile that executed a case).
///
/// Every requirement the driver enforces has a row, and so does every other one a case was
/// counted against (a log rule such as LOG-2 the checker reports on a case's log): a
/// requirement that fails is never missing from the table.
pub(super) fn requirement_rows(
    profile: Profile,
    tally: &Tally,
    drawn: u64,
    executed: bool,
) -> Vec<RequirementResult> {
    let required: BTreeSet<&str> = oracle::required(profile).collect();
    REQUIREMENTS
        .iter()
        .filter(|r| {
            r.enforced_by(Enforcement::Driver)
                || tally.failures.contains_key(r.id)
                || tally.warnings.contains_key(r.id)
                || tally.masked.contains_key(r.id)
        })
        .map(|r| {
            let tier = r.tier(profile);
            let exercised = tally.exercised.get(r.id).copied().unwrap_or(0);
            let failed = tally.failures.get(r.id).copied().unwrap_or(0);
            let warned = tally.warnings.get(r.id).copied().unwrap_or(0);
            let masked_by = tally.masked.get(r.id).cloned().unwrap_or_default();
            let not_judged: u64 = masked_by.values().sum();
            let status = match tier {
                None => Status::NotApplicable,
                Some(_) if failed > 0 => Status::Fail,
                Some(_) if warned > 0 => Status::Warn,
                // Every case that exercised it had it masked: nothing judged it, so it passes
                // nothing.
                Some(_) if not_judged > 0 && not_judged >= exercised => Status::NotJudged,
                Some(_) if exercised > 0 && executed => Status::Pass,
                Some(_) if required.contains(r.id) && drawn > 0 && executed => Status::NotExercised,
                Some(_) => Status::Untested,
            };
            RequirementResult {
                id: r.id,
                tier,
                status,
                exercised,
                failures: failed,
                warnings: warned,
                not_judged,
                masked_by,
            }
        })
        .collect()
}

/// The coverage labels that apply to `profile`, each with its count and its minimum, which
/// scales with the `generated` cases drawn (fewer when the run halted).
pub(super) fn coverage_rows(profile: Profile, tally: &Tally, generated: u64) -> Vec<LabelResult> {
    LABELS
        .iter()
        .filter(|l| l.profiles.contains(profile))
        .map(|l| LabelResult {
            name: l.name,
            count: tally.labels.get(l.name).copied().unwrap_or(0),
            minimum: minimum(l, profile, generated),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn row(exercised: u64, masked: u64) -> RequirementResult {
        let mut tally = Tally::default();
        tally.exercised.insert("MSG-1", exercised);
        if masked > 0 {
            tally
                .masked
                .insert("MSG-1", BTreeMap::from([("CHUNK-1", masked)]));
        }
        requirement_rows(Profile::V2026_07, &tally, exercised.max(1), true)
            .into_iter()
            .find(|r| r.id == "MSG-1")
            .expect("a row")
    }

    /// Issue #28: a requirement whose only evidence is masked is never `pass`; one that other
    /// cases judged passes and says how often it was not judged.
    #[test]
    fn a_row_only_masked_is_not_judged_never_pass() {
        let only_masked = row(3, 3);
        assert_eq!(only_masked.status, Status::NotJudged);
        assert!(only_masked.counts_as_failure(), "a MUST never judged fails");
        assert_eq!(
            only_masked.masked_note().as_deref(),
            Some("not judged in 3 cases (masked by CHUNK-1)")
        );
        let partly = row(3, 1);
        assert_eq!(partly.status, Status::Pass);
        assert_eq!(partly.not_judged, 1);
        assert!(partly.masked_note().is_some());
        let judged = row(3, 0);
        assert_eq!(judged.status, Status::Pass);
        assert_eq!(judged.masked_note(), None);
    }
}
