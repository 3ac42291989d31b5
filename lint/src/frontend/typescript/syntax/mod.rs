//! The oxc passes: declaration collection (pass 1) and context classification (pass 2).
//!
//! Pass 2 does not report names itself: it records which byte ranges give a name found there
//! which role (an argument of `ctx.on`, a declaration-merging key, a test title …), plus the
//! uses of identifiers that stand for a removed event. The front end then matches names in
//! the text and asks for the innermost context of each.

mod classify;
mod collect;
mod expr;
mod scope;

pub(super) use classify::Classifier;
pub(super) use collect::Collector;
pub(super) use expr::call_role;
pub(super) use scope::{Resolver, Scope};
