//! `mirrorless-conformance`: the executable spec of the agent event protocol.
//!
//! This crate is the single source of truth that every other part of mirrorless reads:
//!
//! * [`vocab`] — the event vocabulary of both protocol profiles: durable session events, stream
//!   chunks, turn-end reasons, the live `agent/*` events and the catalogue of the six removed
//!   mirrors ([`vocab::mirrors::REMOVED_MIRRORS`]). The linter reads the same catalogue.
//! * [`registry`] — every requirement the checker and the driver enforce, with a stable ID, a
//!   tier, one normative sentence, a rationale and the profiles it applies to; [`citations`]
//!   holds the upstream evidence of each, as permalinks at a commit, and [`upstream_history`]
//!   since when upstream meets one and which of its known bugs break one.
//!
//! The log checker (`mirrorless check`), the property-based driver (`mirrorless run`) and the
//! reference implementation are built on these two modules:
//!
//! * [`scenario`] — the case model (a profile and a script of user actions and model calls),
//!   its proptest generators and coverage labels.
//! * [`driver`] — the [`driver::Host`] an implementation talks to, the harness that plays a
//!   case behind it, and the drivers that run cases.
//! * [`oracle`] — what a script implies, compared with what an implementation recorded, and
//!   the attribution of a failing case to one requirement.
//! * [`reference`] — the reference agent loop, the embedded default of `mirrorless run`.
//! * [`suite`] — the runner (corpus replay, generation, shrinking, anti-vacuity) and the
//!   `suite!` macro; [`report`] renders its results.

#![warn(missing_docs)]

pub mod check;
pub mod citations;
pub mod driver;
pub mod input;
pub mod oracle;
pub mod reference;
pub mod registry;
pub mod report;
pub mod scenario;
pub mod spec;
pub mod stdio;
pub mod stop;
pub mod suite;
pub mod upstream_history;
pub mod vocab;

/// The version of the suite (this crate), stated in every report.
pub const SUITE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The version of the spec: bumped when a requirement is added or retired (IDs never change
/// meaning), stated in every report.
pub const SPEC_VERSION: &str = "1.0";

/// What every report states about the versions that produced it: the suite and the spec.
pub fn version_banner() -> String {
    format!("mirrorless {SUITE_VERSION}, spec {SPEC_VERSION}")
}

pub use registry::{Enforcement, REQUIREMENTS, Requirement, Tier};
pub use vocab::Profile;
