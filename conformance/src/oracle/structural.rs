//! The one place the driver calls the log checker: structural, log-enforced requirements are
//! attributed by the checker's requirement IDs, never re-implemented here.

use super::finding::{Finding, Origin};
use crate::check::{self, Severity};
use crate::driver::{Exchange, Observation};
use crate::scenario::{Action, Case};
use crate::vocab::durable::SessionEvent;

fn convert(f: check::Finding, position: Option<u64>) -> Finding {
    Finding {
        requirement: f.requirement,
        error: f.severity == Severity::Error,
        position,
        message: f.message,
        expected: f.expected.into_iter().collect(),
        observed: f.observed.into_iter().collect(),
        origin: Origin::Checker,
    }
}

/// The checker's findings on the recorded log and live trace, as driver findings. The
/// position of a log finding is the position (index from 0) in the recorded log of the event
/// it was found at, like every other finding's, never its `seq` (which the implementation
/// chose and may have got wrong); a finding tied to no event keeps none. A live finding gets
/// the position of the durable event it is tied to, if any. The trace is checked with the log,
/// and told whether the user disposed of the agent (a `dispose` input was delivered). Removed
/// mirrors are left to the oracle, which reports each at the point it was emitted.
pub fn findings(case: &Case, obs: &Observation) -> Vec<Finding> {
    let profile = case.profile;
    let disposed = obs.transcript.iter().any(|x| {
        matches!(x, Exchange::Input { action, .. }
            if matches!(case.script.actions.get(*action), Some(Action::Dispose)))
    });
    let mut out: Vec<Finding> = check::check_events_numbered(profile, &obs.log)
        .into_iter()
        .map(|f| {
            let position = f
                .line
                .map(|l| l.saturating_sub(1))
                .or_else(|| f.seq.and_then(|s| position_of(&obs.log, s)));
            convert(f, position)
        })
        .collect();
    out.extend(
        check::check_live_with_log(profile, &obs.log, &obs.live, disposed)
            .into_iter()
            .filter(|f| !f.requirement.starts_with("MIRROR-"))
            .map(|f| {
                let position = f.seq.and_then(|s| position_of(&obs.log, s));
                convert(f, position)
            }),
    );
    out
}

/// The position in `log` of the event whose seq is `seq` (re-synthesized as the position
/// where absent, as the checker does); the last such event when several share it.
fn position_of(log: &[SessionEvent], seq: u64) -> Option<u64> {
    log.iter()
        .enumerate()
        .rev()
        .find(|(i, e)| e.seq.unwrap_or(*i as u64) == seq)
        .map(|(i, _)| i as u64)
}
