//! Counting a run: which requirements a case counts against, and what a counterexample must
//! keep while it shrinks.
//!
//! Every requirement is judged on every case, independently: each finding counts against its
//! own requirement (each removed mirror, each live rule, each durable rule), whatever else went
//! wrong first in the case, unless it is a known consequence of an earlier finding in its turn
//! (`oracle::CONSEQUENCES`: a dropped chunk also breaks provenance and assembly). A requirement
//! whose only findings in a case are such consequences is *not judged* in that case, and the
//! report says how often and by what.

use super::Failure;
use crate::oracle::{Finding, Verdict};
use std::collections::{BTreeMap, BTreeSet};

/// What a counterexample must keep while it shrinks: a finding of this requirement that
/// counts against it (not masked as a consequence of another), an error (`true`) or a
/// warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Target {
    requirement: &'static str,
    error: bool,
}

impl Target {
    pub(super) fn requirement(self) -> &'static str {
        self.requirement
    }

    pub(super) fn error(self) -> bool {
        self.error
    }

    /// The finding of the target on `verdict`, if the verdict still counts one.
    pub(super) fn find(self, verdict: &Verdict) -> Option<&Finding> {
        verdict
            .counted()
            .find(|f| f.requirement == self.requirement && f.error == self.error)
    }
}

/// The tallies of one profile: coverage of the whole run, findings of the executed cases.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) exercised: BTreeMap<&'static str, u64>,
    pub(super) labels: BTreeMap<&'static str, u64>,
    pub(super) failures: BTreeMap<&'static str, u64>,
    pub(super) warnings: BTreeMap<&'static str, u64>,
    /// Per requirement, the cases in which it was not judged, by the requirement whose
    /// finding masked it.
    pub(super) masked: BTreeMap<&'static str, BTreeMap<&'static str, u64>>,
    pub(super) failed_cases: u64,
    pub(super) warned_cases: u64,
}

impl Tally {
    /// Counts the requirements a verdict violates, once per case each, and returns those
    /// that still need a counterexample, in the verdict's order (the case's primary first;
    /// `failures` and `warnings` hold the counterexamples found so far). Every requirement is
    /// judged on its own: one with a counted finding (an error, else a warning) counts
    /// against it; one whose every finding is masked as a consequence of another finding is
    /// not judged in this case, and counted as such with the requirement that masked it.
    pub(super) fn record(
        &mut self,
        verdict: &Verdict,
        failures: &[Failure],
        warnings: &[Failure],
    ) -> Vec<Target> {
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        let mut new = Vec::new();
        for (k, f) in verdict.findings.iter().enumerate() {
            if !seen.insert(f.requirement) {
                continue;
            }
            let counted = |error: bool| {
                verdict
                    .counted()
                    .any(|x| x.requirement == f.requirement && x.error == error)
            };
            let error = if counted(true) {
                true
            } else if counted(false) {
                false
            } else {
                let by = verdict.masked_by(k).unwrap_or(f.requirement);
                *self
                    .masked
                    .entry(f.requirement)
                    .or_default()
                    .entry(by)
                    .or_default() += 1;
                continue;
            };
            let (counts, found) = if error {
                (&mut self.failures, failures)
            } else {
                (&mut self.warnings, warnings)
            };
            *counts.entry(f.requirement).or_default() += 1;
            if !found.iter().any(|x| x.requirement == f.requirement) {
                new.push(Target {
                    requirement: f.requirement,
                    error,
                });
            }
        }
        if verdict.primary().is_some() {
            self.failed_cases += 1;
        } else if !verdict.findings.is_empty() {
            self.warned_cases += 1;
        }
        new
    }
}
