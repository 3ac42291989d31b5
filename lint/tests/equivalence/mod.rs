//! Generated plugin shapes and the TypeScript projects they are written as, for
//! `fix_equivalence.rs` (issue #29 item 2).

pub mod render;
pub mod shape;
