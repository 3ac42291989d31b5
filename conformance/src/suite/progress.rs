//! What the runner reports while it runs.

use super::Failure;
use crate::oracle::Finding;
use crate::scenario::Case;
use crate::vocab::Profile;
use std::time::Duration;

/// What the runner reports while it runs.
#[derive(Debug)]
pub enum Progress<'a> {
    /// A profile starts.
    Started {
        /// The profile.
        profile: Profile,
        /// Corpus cases to replay.
        replay: u64,
        /// Cases to generate.
        cases: u64,
    },
    /// A case finished.
    Case {
        /// The profile.
        profile: Profile,
        /// Cases done (replayed and generated).
        done: u64,
        /// Cases in total.
        total: u64,
        /// Failed cases so far.
        failures: u64,
        /// Time since the profile started.
        elapsed: Duration,
    },
    /// A requirement failed (or warned) for the first time: the unshrunk case, printed before
    /// shrinking.
    Found {
        /// The profile.
        profile: Profile,
        /// The case as found.
        case: &'a Case,
        /// The attributed finding.
        finding: &'a Finding,
    },
    /// A shrunk counterexample is ready.
    Shrunk(&'a Failure),
    /// A problem with the inputs (the run goes on).
    Problem(&'a str),
}
