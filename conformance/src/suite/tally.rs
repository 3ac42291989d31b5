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
use crate::oracle::{self, Finding, Verdict};
use crate::scenario::Case;
use crate::scenario::coverage::labels_of;
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

/// How one requirement fared in a case: counted against it (the [`Target`] a counterexample
/// keeps), or not judged, masked by another requirement's finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Judged {
    /// A finding counts against the requirement: an error, else a warning.
    Counted(Target),
    /// Every finding of `requirement` is a known consequence of one of `by`.
    Masked {
        requirement: &'static str,
        by: &'static str,
    },
}

/// Judges every requirement with a finding in `verdict`, once each, in the verdict's order
/// (the case's primary first). Every requirement is judged on its own: one with a counted
/// finding (an error, else a warning) counts against it; one whose every finding is masked as
/// a consequence of another finding is not judged in this case, by the requirement that
/// masked it. A verdict without findings judges nothing (and allocates nothing).
pub(super) fn judge(verdict: &Verdict) -> Vec<Judged> {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut judged = Vec::new();
    for (k, f) in verdict.findings.iter().enumerate() {
        if !seen.insert(f.requirement) {
            continue;
        }
        let counted = |error: bool| {
            verdict
                .counted()
                .any(|x| x.requirement == f.requirement && x.error == error)
        };
        judged.push(if counted(true) || counted(false) {
            Judged::Counted(Target {
                requirement: f.requirement,
                error: counted(true),
            })
        } else {
            Judged::Masked {
                requirement: f.requirement,
                by: verdict.masked_by(k).unwrap_or(f.requirement),
            }
        });
    }
    judged
}

impl Tally {
    /// Counts the requirements a verdict violates, once per case each, and returns those
    /// that still need a counterexample, in the verdict's order (the case's primary first;
    /// `failures` and `warnings` hold the counterexamples found so far). See [`judge`].
    pub(super) fn record(
        &mut self,
        verdict: &Verdict,
        failures: &[Failure],
        warnings: &[Failure],
    ) -> Vec<Target> {
        let judged = judge(verdict);
        self.count(verdict, &judged);
        judged
            .into_iter()
            .filter_map(|j| match j {
                Judged::Counted(t) => Some(t),
                Judged::Masked { .. } => None,
            })
            .filter(|t| {
                let found = if t.error { failures } else { warnings };
                !found.iter().any(|x| x.requirement == t.requirement)
            })
            .collect()
    }

    /// Counts one case: `judged` is [`judge`] of its `verdict`.
    pub(super) fn count(&mut self, verdict: &Verdict, judged: &[Judged]) {
        for j in judged {
            match *j {
                Judged::Counted(t) => {
                    let counts = if t.error {
                        &mut self.failures
                    } else {
                        &mut self.warnings
                    };
                    *counts.entry(t.requirement).or_default() += 1;
                }
                Judged::Masked { requirement, by } => {
                    *self
                        .masked
                        .entry(requirement)
                        .or_default()
                        .entry(by)
                        .or_default() += 1;
                }
            }
        }
        if verdict.primary().is_some() {
            self.failed_cases += 1;
        } else if !verdict.findings.is_empty() {
            self.warned_cases += 1;
        }
    }

    /// Counts the coverage of one drawn case: the requirements it exercises and its labels.
    pub(super) fn cover(&mut self, case: &Case) {
        for l in labels_of(case) {
            *self.labels.entry(l).or_default() += 1;
        }
        for r in oracle::exercised(case) {
            *self.exercised.entry(r).or_default() += 1;
        }
    }

    /// Adds the counts of `other` (the cases a worker counted) to these: every count is a
    /// sum, so the order in which parts are added does not matter.
    pub(super) fn merge(&mut self, other: Tally) {
        fn add(into: &mut BTreeMap<&'static str, u64>, from: BTreeMap<&'static str, u64>) {
            for (k, n) in from {
                *into.entry(k).or_default() += n;
            }
        }
        add(&mut self.exercised, other.exercised);
        add(&mut self.labels, other.labels);
        add(&mut self.failures, other.failures);
        add(&mut self.warnings, other.warnings);
        for (k, by) in other.masked {
            add(self.masked.entry(k).or_default(), by);
        }
        self.failed_cases += other.failed_cases;
        self.warned_cases += other.warned_cases;
    }
}
