//! `mirrorless-lint`: flags source that still subscribes to, emits, declares or names a removed
//! mirror event. The catalogue of removed events comes from
//! [`mirrorless_conformance::vocab::mirrors::REMOVED_MIRRORS`]; there is no second list.

#![warn(missing_docs)]

/// The documentation of lint rule `id` (case-insensitive), as `mirrorless explain` prints it,
/// or `None` if there is no such rule.
pub fn explain(id: &str) -> Option<String> {
    let _ = id;
    None
}
