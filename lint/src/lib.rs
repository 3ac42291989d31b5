//! `mirrorless-lint`: flags source that still subscribes to, emits, declares or names a removed
//! mirror event. The catalogue of removed events comes from
//! [`mirrorless_conformance::vocab::mirrors::REMOVED_MIRRORS`]; there is no second list.
//!
//! Layout (see `ARCHITECTURE.md`):
//! - [`model`]: the language-neutral [`Occurrence`](model::Occurrence) and
//!   [`Finding`](model::Finding);
//! - [`frontend`]: one module per language ([`frontend::rust`]) behind the
//!   [`FrontEnd`](frontend::FrontEnd) seam;
//! - [`rules`]: one module per rule, with its documentation;
//! - [`source`]: a file's text, display path and [`LineIndex`](source::LineIndex), shared by
//!   front ends and engine; [`walk`]: which files a run reads;
//! - [`engine`]: prefiltering, the two passes, suppressions and fingerprints;
//! - [`fix`]: applying the findings' fixes to a fixpoint (`--fix`, `--diff`);
//! - [`config`], [`suppress`], [`baseline`], [`render`]: know nothing about Rust.

#![warn(missing_docs)]

pub mod baseline;
pub mod cache;
pub mod catalog;
pub mod config;
mod docs_follow;
pub mod engine;
pub mod fix;
pub mod frontend;
pub mod git;
pub mod hash;
mod host_events;
mod in_use;
pub mod lines;
pub mod model;
pub mod render;
pub mod rules;
pub mod source;
pub mod suppress;
#[cfg(test)]
mod test_fixtures;
#[cfg(test)]
mod test_rng;
pub mod walk;

pub use engine::{
    Options, Report, join_run_pool, lint, lint_document, lint_sources, lint_sources_cached,
    lint_sources_cached_unsettled,
};

/// The documentation of lint rule `id` (an ID such as `ML001` or a name such as `subscribe`,
/// case-insensitive), as `mirrorless explain` prints it, or `None` if there is no such rule.
pub fn explain(id: &str) -> Option<String> {
    rules::rule(id).map(|r| r.page())
}
