//! What a run reports: per requirement, per coverage label, per counterexample, per profile
//! and for the whole run, with the verdicts drawn from them.

use super::Partition;
use crate::driver::Observation;
use crate::oracle::{Finding, Masking};
use crate::registry::Tier;
use crate::scenario::Case;
use crate::vocab::Profile;
use serde::Serialize;
use std::collections::BTreeMap;

/// The status of one requirement after a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Exercised and never violated.
    Pass,
    /// Violated by at least one case.
    Fail,
    /// A SHOULD requirement was violated (a warning).
    Warn,
    /// A MUST requirement no case exercised: counts as a failure.
    NotExercised,
    /// Exercised, never violated on its own, but in every case that exercised it only as a
    /// consequence of another requirement's finding ([`RequirementResult::masked_by`]): no
    /// case could judge it. Never a pass; a MUST counts as a failure.
    NotJudged,
    /// Exercised by no case, but not required to be (a SHOULD, or checked elsewhere); or the
    /// profile executed no case, so nothing passed.
    Untested,
    /// Does not apply to the profile.
    NotApplicable,
}

/// The result of one requirement under one profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequirementResult {
    /// The requirement ID.
    pub id: &'static str,
    /// The tier under the profile.
    pub tier: Option<Tier>,
    /// The outcome.
    pub status: Status,
    /// How many cases exercised it.
    pub exercised: u64,
    /// How many executed cases count against it (once a case): every case with a finding of
    /// it that is not a known consequence of another finding in its turn.
    pub failures: u64,
    /// How many executed cases violate it as a SHOULD (warnings).
    pub warnings: u64,
    /// How many executed cases could not judge it: its only findings there were consequences
    /// of another requirement's finding in the same turn.
    pub not_judged: u64,
    /// Those cases, by the requirement whose finding masked it.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub masked_by: BTreeMap<&'static str, u64>,
}

impl RequirementResult {
    /// Whether this row fails its profile: violated, or a MUST never exercised or never
    /// judged.
    pub fn counts_as_failure(&self) -> bool {
        match self.status {
            Status::Fail | Status::NotExercised => true,
            Status::NotJudged => self.tier == Some(Tier::Must),
            _ => false,
        }
    }

    /// "not judged in N case(s) (masked by A in N, B in M)" when some case could not judge
    /// it, for every rendering of the row.
    pub fn masked_note(&self) -> Option<String> {
        if self.not_judged == 0 {
            return None;
        }
        let by: Vec<String> = self
            .masked_by
            .iter()
            .map(|(id, n)| {
                if self.masked_by.len() == 1 {
                    (*id).to_owned()
                } else {
                    format!("{id} in {n}")
                }
            })
            .collect();
        Some(format!(
            "not judged in {} case{} (masked by {})",
            self.not_judged,
            if self.not_judged == 1 { "" } else { "s" },
            by.join(", ")
        ))
    }
}

/// The count of one coverage label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LabelResult {
    /// The label.
    pub name: &'static str,
    /// Generated cases with the label.
    pub count: u64,
    /// The minimum for this run.
    pub minimum: u64,
}

/// The file a replay command names when its case was not saved (`--no-corpus`, `--no-save`, or
/// a save that failed): the reader saves the failure's `case` there first. Never the name of a
/// file the run did not write.
pub const UNSAVED_CASE_FILE: &str = "CASE.json";

/// One requirement's counterexample.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    /// The requirement this counterexample is for (or `CRASH`).
    pub requirement: &'static str,
    /// When the minimal case is attributed to another requirement (its primary finding, which
    /// leads `also`): that requirement. `None` when this requirement is the primary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attributed_to: Option<&'static str>,
    /// The minimal case (shrunk for this requirement).
    pub case: Case,
    /// Its content-hash id.
    pub case_id: String,
    /// This requirement's finding on the minimal case (a warning for a SHOULD).
    pub finding: Finding,
    /// Other findings on the minimal case (independent problems, or consequences).
    pub also: Vec<Finding>,
    /// Which of `also` did not count against their requirement (`finding` indexes `also`):
    /// each a known consequence of another finding in its turn, named by `by`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub masked: Vec<Masking>,
    /// The unshrunk case as first found.
    pub original: Case,
    /// How many chunks the original and the minimal case have.
    pub original_chunks: usize,
    /// How many chunks the minimal case has.
    pub shrunk_chunks: usize,
    /// Shrink steps taken.
    pub shrink_steps: u32,
    /// Whether shrinking stopped at its time or step bound.
    pub shrink_bounded: bool,
    /// Whether the case came from the corpus (replayed, not generated).
    pub from_corpus: bool,
    /// The saved case file, if saved or replayed from one.
    pub case_file: Option<String>,
    /// The one-line replay command: it names `case_file`, or [`UNSAVED_CASE_FILE`] when the
    /// case was not saved.
    pub replay: String,
    /// Standard error of an out-of-process implementation during the case.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stderr: String,
    /// Set when the minimal case passes when run alone in a fresh process: the failure needs
    /// the cases that ran before it, so state leaks between cases.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leak: Option<StateLeak>,
    /// The durable log and live trace the implementation recorded on the minimal case, whole
    /// (for the HTML report's timelines; not part of the JSON report).
    #[serde(skip)]
    pub observed: Observation,
}

impl Failure {
    /// The requirement whose finding masks `also[index]`, when that finding did not count.
    pub fn masked_also(&self, index: usize) -> Option<&'static str> {
        Masking::of(&self.masked, index)
    }
}

/// A failure that needs the cases run before it in the same process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StateLeak {
    /// The command that runs a case sequence through the failing case in one process
    /// (`mirrorless run --profile P --seed S --cases N -j 1 …`): the profile's first N cases,
    /// preceded by the first N of each profile the run checked before it when the profile's
    /// alone do not reproduce the failure.
    pub sequence: String,
    /// How many cases of each profile that sequence runs.
    pub cases: u64,
    /// Whether running that sequence in a fresh process failed the requirement again (when
    /// false, the leak needs more than that: the whole run with `-j 1`).
    pub reproduced: bool,
}

/// The results under one profile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileReport {
    /// The profile.
    pub profile: Profile,
    /// Generated cases run (by this shard, when partitioned).
    pub generated: u64,
    /// Corpus cases replayed (by this shard, when partitioned).
    pub replayed: u64,
    /// Executed cases with at least one MUST finding.
    pub failed_cases: u64,
    /// Executed cases with SHOULD findings only.
    pub warned_cases: u64,
    /// Cases this shard ran that ended in a harness fault (no verdict): while any did, the
    /// profile is incomplete, never conformant.
    pub faulted_cases: u64,
    /// Wall time in seconds, shrinking included.
    pub seconds: f64,
    /// Cases per second, shrinking excluded.
    pub cases_per_second: f64,
    /// Per requirement, registry order. `exercised` counts the whole run (every shard's
    /// cases); `failures` and `warnings` count the executed cases.
    pub requirements: Vec<RequirementResult>,
    /// Coverage labels that apply to the profile, counted over the whole run (every shard's
    /// cases: coverage depends on the cases alone, so each shard knows the whole run's).
    pub coverage: Vec<LabelResult>,
    /// One counterexample per failing requirement, shrunk for it, in the order found (a
    /// case's primary requirement before its other ones).
    pub failures: Vec<Failure>,
    /// One counterexample per SHOULD requirement with a warning, shrunk for it.
    pub warnings: Vec<Failure>,
    /// Whether warnings fail the profile.
    pub deny_warnings: bool,
    /// The shard this report is of, when partitioned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition: Option<Partition>,
    /// Generated cases of the whole run (all shards).
    pub whole_run_generated: u64,
    /// Corpus cases of the whole run (all shards).
    pub whole_run_replayed: u64,
    /// The ids of the executed cases, corpus first, in order (when [`Config::case_ids`](super::Config::case_ids)).
    #[serde(skip_serializing_if = "CaseIds::is_empty")]
    pub case_ids: CaseIds,
}

/// Content-hash case ids ([`Case::id`]), kept as numbers (8 bytes a case, so that a long run
/// stays small) and written as the 16-hex-digit strings `Case::id` returns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaseIds(pub Vec<u64>);

impl CaseIds {
    /// Whether no id is listed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(super) fn push(&mut self, id: &str) {
        // `Case::id` is always 16 hex digits.
        self.0.push(u64::from_str_radix(id, 16).unwrap_or_default());
    }

    /// The ids as `Case::id` spells them.
    pub fn to_strings(&self) -> Vec<String> {
        self.0.iter().map(|n| format!("{n:016x}")).collect()
    }
}

impl Serialize for CaseIds {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|n| format!("{n:016x}")))
    }
}

impl ProfileReport {
    /// Whether the implementation conforms under this profile: it executed a case, no case
    /// ended in a harness fault, and nothing [failed](Self::failed).
    pub fn conformant(&self) -> bool {
        self.generated.saturating_add(self.replayed) > 0
            && self.faulted_cases == 0
            && !self.failed()
    }

    /// Whether the profile proves nothing either way: nothing failed, but a case ended in a
    /// harness fault or no case ran.
    pub fn incomplete(&self) -> bool {
        !self.failed() && !self.conformant()
    }

    /// Whether something failed under this profile: a requirement (a warning, too, under
    /// `deny_warnings`), a MUST never exercised, or a coverage label under its minimum. A
    /// profile that executed no case has failed nothing, but proves nothing either.
    pub fn failed(&self) -> bool {
        !self.failures.is_empty()
            || (self.deny_warnings && !self.warnings.is_empty())
            || self.requirements.iter().any(|r| r.counts_as_failure())
            || self.coverage.iter().any(|l| l.count < l.minimum)
    }
}

/// The result of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    /// The implementation's name.
    pub implementation: String,
    /// Who the implementation is, as its `hello` said (name, version, language, homepage).
    pub hello: crate::stdio::message::Implementation,
    /// The seed (reproduce with `--seed`).
    pub seed: u64,
    /// Whether CI mode was on.
    pub ci: bool,
    /// The shard this report is of, when partitioned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition: Option<Partition>,
    /// Whether warnings fail the run.
    pub deny_warnings: bool,
    /// Per profile.
    pub profiles: Vec<ProfileReport>,
    /// Problems with the inputs of the run (an unreadable corpus file, …); they make the run
    /// a usage error.
    pub problems: Vec<String>,
}

impl RunReport {
    /// Whether the implementation conforms under every profile run, at least one profile ran,
    /// and the run itself had no problem (a run cut short, or one with harness faults, proves
    /// nothing).
    pub fn conformant(&self) -> bool {
        !self.profiles.is_empty()
            && self.problems.is_empty()
            && self.profiles.iter().all(ProfileReport::conformant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Script;

    #[test]
    fn case_ids_are_written_as_case_id_spells_them() {
        let cases: Vec<Case> = Profile::ALL
            .into_iter()
            .map(|profile| Case {
                profile,
                script: Script::default(),
            })
            .collect();
        let mut ids = CaseIds::default();
        for c in &cases {
            ids.push(&c.id());
        }
        let want: Vec<String> = cases.iter().map(Case::id).collect();
        assert_eq!(ids.to_strings(), want);
        assert_eq!(
            serde_json::to_value(&ids).expect("json"),
            serde_json::json!(want)
        );
    }
}
