//! MIRROR-1 … MIRROR-6: a removed mirror in the live trace, reported where it was emitted.

use super::finding::{Finding, Origin};
use crate::driver::Observation;
use crate::vocab::Profile;
use crate::vocab::live::{LiveStatus, classify};
use std::collections::BTreeSet;

/// MIRROR-*: a removed mirror in the live trace.
pub(super) fn check_mirrors(obs: &Observation) -> Vec<Finding> {
    let mut seen = BTreeSet::new();
    obs.live
        .iter()
        .filter_map(|emit| match classify(&emit.event, Profile::DEFAULT) {
            Some(LiveStatus::Removed(m)) if seen.insert(m.requirement) => Some(Finding {
                requirement: m.requirement,
                error: true,
                position: emit.at,
                message: format!(
                    "the implementation emitted the removed live event `{}`: {} instead",
                    m.name, m.replacement
                ),
                expected: vec![format!(
                    "(no live event; the durable `{}` is the record)",
                    m.durable_twin
                )],
                observed: vec![format!("live {} {}", emit.event, emit.data)],
                origin: Origin::Oracle,
            }),
            _ => None,
        })
        .collect()
}
