//! Counting a run: which requirements a case counts against, and what a counterexample must
//! keep while it shrinks.
//!
//! Every live-trace finding counts (each removed mirror, each live rule on its own: none causes
//! another or a durable divergence); on the durable log only a case's first finding counts, the
//! later ones being its consequences (a dropped chunk also breaks provenance and assembly).

use super::Failure;
use crate::oracle::{Finding, Verdict};
use crate::registry::{self, Area};
use std::collections::{BTreeMap, BTreeSet};

/// What a counterexample must keep while it shrinks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Target {
    /// The case's first error on the durable log (or crash) stays this requirement's.
    Primary(&'static str),
    /// The case keeps a finding of this requirement, an error (`true`) or a warning.
    Finding(&'static str, bool),
}

impl Target {
    pub(super) fn requirement(self) -> &'static str {
        match self {
            Target::Primary(r) | Target::Finding(r, _) => r,
        }
    }

    pub(super) fn error(self) -> bool {
        match self {
            Target::Primary(_) => true,
            Target::Finding(_, error) => error,
        }
    }

    /// The finding of the target on `verdict`, if the verdict still has it.
    pub(super) fn find(self, verdict: &Verdict) -> Option<&Finding> {
        match self {
            Target::Primary(r) => verdict
                .findings
                .iter()
                .find(|f| f.error && !on_live_trace(f.requirement))
                .filter(|f| f.requirement == r),
            Target::Finding(r, error) => verdict
                .findings
                .iter()
                .find(|f| f.requirement == r && f.error == error),
        }
    }
}

/// Whether a requirement is about the live trace (the removed mirrors, the live vocabulary)
/// rather than the durable log. Live findings are independent of each other and of the log:
/// each is counted. Durable findings after a case's first one are usually its consequences
/// (a dropped chunk also breaks provenance and assembly), so only the first counts.
fn on_live_trace(requirement: &str) -> bool {
    registry::requirement(requirement).is_some_and(|r| matches!(r.area, Area::Mirror | Area::Live))
}

/// The tallies of one profile: coverage of the whole run, findings of the executed cases.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) exercised: BTreeMap<&'static str, u64>,
    pub(super) labels: BTreeMap<&'static str, u64>,
    pub(super) failures: BTreeMap<&'static str, u64>,
    pub(super) warnings: BTreeMap<&'static str, u64>,
    pub(super) failed_cases: u64,
    pub(super) warned_cases: u64,
}

impl Tally {
    /// Counts the requirements a verdict violates, once per case each, and returns those
    /// that still need a counterexample, the case's primary first (`failures` and
    /// `warnings` hold the counterexamples found so far). Counted are: every live-trace
    /// finding (each removed mirror on its own), and the first durable-log error — or, on a
    /// case with no durable error, the first durable warning; the durable findings after it
    /// stay on the case's report as its consequences.
    pub(super) fn record(
        &mut self,
        verdict: &Verdict,
        failures: &[Failure],
        warnings: &[Failure],
    ) -> Vec<Target> {
        let durable_error = verdict
            .findings
            .iter()
            .any(|f| f.error && !on_live_trace(f.requirement));
        let mut durable_counted = false;
        let mut seen: BTreeSet<(&str, bool)> = BTreeSet::new();
        let mut new = Vec::new();
        for f in &verdict.findings {
            let target = if on_live_trace(f.requirement) {
                Target::Finding(f.requirement, f.error)
            } else if durable_counted || (!f.error && durable_error) {
                continue;
            } else {
                durable_counted = true;
                if f.error {
                    Target::Primary(f.requirement)
                } else {
                    Target::Finding(f.requirement, false)
                }
            };
            if !seen.insert((f.requirement, f.error)) {
                continue;
            }
            let (counts, found) = if f.error {
                (&mut self.failures, failures)
            } else {
                (&mut self.warnings, warnings)
            };
            *counts.entry(f.requirement).or_default() += 1;
            if !found.iter().any(|x| x.requirement == f.requirement) {
                new.push(target);
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
