//! The oracle: what a script implies, compared with what the implementation recorded.
//!
//! From the script alone the oracle computes the exact sequence of durable chunks (one per
//! delivered chunk, in order, with its turn and step; none for the chunk at which a cancel is
//! observed), where each steering message must be recorded, and how each turn must end. It
//! checks what only a known script can check exactly:
//!
//! | requirement | what the oracle compares |
//! |---|---|
//! | CHUNK-1 | the recorded chunk sequence against the delivered one |
//! | CHUNK-3 | 2026-08: an adapter throw recorded as a terminal `finish {error}` |
//! | CHUNK-4 | the chunks of failed and interrupted streams are kept |
//! | CHUNK-5 | nothing recorded at or after the cancel point |
//! | CHUNK-6 | 2026-08: nothing a request is built from is recorded between a failed call and its retry |
//! | STEER-2 | every steering message recorded exactly once, before the next request |
//! | TURN-7 | every turn ends with the reason its script implies |
//! | TURN-8 | a call that dispatched tool calls or was steered is followed by the next one |
//! | TURN-11 | a turn that failed on a `finish` records the failure it delivered |
//! | TURN-10 | the 2026-07 trigger of each turn, the cause of a cancelled or disposed turn |
//! | MSG-7 | every delivered prompt (and 2026-07 injection) recorded once, with its content |
//! | TOOL-4 | every streamed tool call runs once, in model order, with the name and arguments the model streamed |
//! | SURF-3 | 2026-08: no message id used again in a later turn of the session |
//! | TOOL-5 | every tool result records the scripted answer (text, `isError`, the call) |
//! | MIRROR-* | no removed mirror in the live trace |
//! | LIVE-4 | every live event is about the agent the case created |
//! | LIVE-6 | 2026-07: no `idle` between a failed turn and the leftover turn it starts |
//!
//! Everything a log alone can show (numbering, nesting, provenance, assembly, tool pairing,
//! live status) is left to the log checker ([`structural`]), so that one rule has one
//! implementation. The oracle compares turns and steps by ordinal (the n-th `turn/start`, the
//! n-th `step/start` in it), so wrong numbering is the checker's finding, not a divergence.
//!
//! [`evaluate`] merges both and orders them: the oracle's findings (which know the script, so
//! they are the cause) before the checker's (often their consequences); within each, the
//! earliest log position; at one position, the most specific requirement ([`SPECIFICITY`]).
//! The first error is the case's headline; every finding counts against its own requirement
//! unless it is a known consequence of an earlier finding in its turn ([`consequences`]:
//! it then masks its requirement in that case, which is not judged there).

mod align;
mod chunks;
mod consequences;
mod continuation;
mod describe;
mod divergence;
mod exercised;
mod expected;
mod failures;
mod finding;
mod inputs;
mod interrupted;
mod leftover_status;
mod live_agent;
mod log_index;
mod message_ids;
mod mirrors;
mod reasons;
mod retries;
mod steering;
pub mod structural;
mod tool_calls;
mod tool_results;
mod turn_payloads;
mod unprompted;
mod unscripted;

pub use consequences::{CONSEQUENCES, Consequence, Masking, consequence};
pub use describe::describe_chunk;
pub use exercised::{exercised, required};
pub use finding::{CRASH, Finding, Origin};

use crate::driver::Observation;
use crate::registry::{self, REQUIREMENTS, Tier};
use crate::scenario::Case;
use crate::vocab::Profile;
use expected::Expected;
use log_index::LogIndex;
use serde::Serialize;
use std::collections::BTreeSet;

/// Tie-break order among findings at the same log position: the most specific first. A
/// requirement not listed ranks after all listed ones, in registry order.
pub const SPECIFICITY: &[&str] = &[
    "CHUNK-5", "CHUNK-4", "TURN-8", "CHUNK-6", "STEER-2", "CHUNK-3", "CHUNK-1", "MIRROR-1",
    "MIRROR-2", "MIRROR-3", "MIRROR-4", "MIRROR-5", "MIRROR-6", "TURN-7",
    // A `step/start` inside an open step is the nesting itself; the unclosed step (TURN-4)
    // and the repeated number (STEP-1) at the same event follow from it.
    "STEP-2",
];

fn rank(requirement: &str) -> usize {
    SPECIFICITY
        .iter()
        .position(|r| *r == requirement)
        .or_else(|| {
            REQUIREMENTS
                .iter()
                .position(|r| r.id == requirement)
                .map(|p| p + SPECIFICITY.len())
        })
        .unwrap_or(usize::MAX)
}

/// The findings of one case, in attribution order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Errors first, each group by position then specificity.
    pub findings: Vec<Finding>,
    /// The findings that are known consequences of an earlier one in their turn
    /// ([`CONSEQUENCES`]): they do not count against their requirement in this case, which
    /// is *not judged* there. Every other finding counts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub masked: Vec<Masking>,
}

impl Verdict {
    /// The finding the case is attributed to: the first error, if any.
    pub fn primary(&self) -> Option<&Finding> {
        self.findings.iter().find(|f| f.error)
    }

    /// Whether the case conforms (no error).
    pub fn passed(&self) -> bool {
        self.primary().is_none()
    }
}

/// Among findings found at the same place (both where a turn that never closed stops, say),
/// a known cause goes before its consequence: a tie of positions says nothing of which came
/// first, and only an earlier finding masks a later one. A pair that could be each other's
/// cause keeps its order.
fn causes_first(findings: &mut [Finding]) {
    let key = |f: &Finding| (f.error, f.origin == Origin::Oracle, f.position);
    for _ in 0..findings.len() {
        let mut swapped = false;
        for k in 1..findings.len() {
            let (a, b) = (&findings[k - 1], &findings[k]);
            if key(a) == key(b)
                && a.position.is_some()
                && consequences::consequence(b.requirement, a.requirement).is_some()
                && consequences::consequence(a.requirement, b.requirement).is_none()
            {
                findings.swap(k - 1, k);
                swapped = true;
            }
        }
        if !swapped {
            break;
        }
    }
}

fn is_error(profile: Profile, requirement: &str) -> bool {
    registry::requirement(requirement)
        .and_then(|r| r.tier(profile))
        .is_none_or(|t| t == Tier::Must)
}

/// Evaluates one case: the oracle's findings and the checker's, attributed.
pub fn evaluate(case: &Case, obs: &Observation) -> Verdict {
    let mut findings = oracle_findings(case, obs);
    let covered: BTreeSet<(&str, Option<u64>)> = findings
        .iter()
        .map(|f| (f.requirement, f.position))
        .collect();
    for f in structural::findings(case, obs) {
        if !covered.contains(&(f.requirement, f.position)) {
            findings.push(f);
        }
    }
    for f in &mut findings {
        f.error = f.error && is_error(case.profile, f.requirement);
    }
    if let Some(crash) = &obs.crash {
        findings.push(Finding {
            requirement: CRASH,
            error: true,
            position: Some(obs.log.len() as u64),
            message: crash.clone(),
            expected: Vec::new(),
            observed: Vec::new(),
            origin: Origin::Crash,
        });
    }
    // The oracle knows the script, so its findings are the root cause; the checker's,
    // computed from the log alone, come next (a dropped chunk also breaks provenance).
    findings.sort_by_key(|f| {
        (
            !f.error,
            f.origin != Origin::Oracle,
            f.position.unwrap_or(u64::MAX),
            rank(f.requirement),
        )
    });
    causes_first(&mut findings);
    // Only a case with two findings or more can have a consequence (and the plan costs).
    let masked = if findings.len() > 1 {
        consequences::masked(&findings, &obs.log, consequences::on_script(case, obs))
    } else {
        Vec::new()
    };
    Verdict { findings, masked }
}

/// Only the oracle's findings (no checker), unsorted.
pub fn oracle_findings(case: &Case, obs: &Observation) -> Vec<Finding> {
    let mut out = Vec::new();
    let ix = LogIndex::aligned(case, obs);
    let (stops, skipped) = continuation::check_continuation(case, obs, &ix);
    out.extend(stops);
    let expected = Expected::of(case, &skipped);
    out.extend(chunks::compare_chunks(case, &expected, &obs.log, &ix));
    out.extend(steering::check_steering(case, &expected, &obs.log, &ix));
    out.extend(interrupted::check_interrupted(
        case, &skipped, &obs.log, &ix,
    ));
    out.extend(unscripted::check_unscripted_calls(case, obs, &ix));
    out.extend(retries::check_retries(case, obs));
    out.extend(reasons::check_reasons(&expected, &obs.log, &ix));
    out.extend(unprompted::check_unprompted(case, obs));
    out.extend(turn_payloads::check_turn_payloads(
        case, &expected, obs, &ix,
    ));
    out.extend(failures::check_failures(case, &expected, obs, &ix));
    out.extend(inputs::check_inputs(case, obs, &ix));
    out.extend(message_ids::check_message_ids(case.profile, &obs.log));
    out.extend(tool_calls::check_tool_calls(case, obs, &ix));
    out.extend(tool_results::check_tool_results(case, &obs.log, &ix));
    out.extend(mirrors::check_mirrors(obs));
    out.extend(live_agent::check_live_agent(obs));
    out.extend(leftover_status::check_leftover_status(case, obs, &ix));
    out
}

/// The embedded reference's observation of `case`: what the oracle's tests alter to model a
/// broken loop.
#[cfg(test)]
pub(crate) fn reference_run(case: &Case) -> Observation {
    use crate::driver::{AgentLoop, Driver, InProcess};
    let mut driver = InProcess::new("reference", |p| {
        Box::new(crate::reference::ReferenceLoop::new(p)) as Box<dyn AgentLoop>
    });
    driver.run_case(case).expect("the reference runs")
}

#[cfg(test)]
mod tests {
    use super::consequences::tests::finding as at;
    use super::*;

    fn order(findings: &[Finding]) -> Vec<&'static str> {
        findings.iter().map(|f| f.requirement).collect()
    }

    /// Issue #28 item 1: a lost steer (STEER-2) found at the end of a log whose last turn
    /// never closed, where the chunks it moved (CHUNK-4) are found too, is their cause: it
    /// goes first, so the consequence is masked and not counted.
    #[test]
    fn a_cause_found_at_the_same_place_goes_first() {
        let mut findings = vec![at("CHUNK-4", 5), at("STEER-2", 5), at("TURN-4", 5)];
        causes_first(&mut findings);
        assert_eq!(order(&findings), ["STEER-2", "CHUNK-4", "TURN-4"]);
        // Not across places, and not for a pair that could be each other's cause.
        let mut findings = vec![at("CHUNK-4", 4), at("STEER-2", 5)];
        causes_first(&mut findings);
        assert_eq!(order(&findings), ["CHUNK-4", "STEER-2"]);
        for (a, b) in [("STEER-2", "TURN-10"), ("TURN-10", "STEER-2")] {
            let mut findings = vec![at(a, 3), at(b, 3)];
            causes_first(&mut findings);
            assert_eq!(order(&findings), [a, b]);
        }
    }
}
